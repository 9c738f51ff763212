// The words of the assists: the hint and the chance to win, which see only what the player
// sees, and the analysis mode's answers, which come from the solver (it sees every card) and
// are always labelled so.

/** The label of every answer of the analysis mode. */
export const ANALYSIS_LABEL = 'solver (sees every card)';

const CHANCE_TITLE = 'the share of sampled deals that fit what you see which a player knowing every card ' +
  'could win from here: an upper bound of your chance (undecided deals count as not won)';
const ANALYSIS_TITLE = 'analysis mode: the solver sees every card, face down or not';

/** A chance to win (``/winnable``'s ``chance``) in words: "about 62% (from 40 sampled deals)". */
export function chanceWords(chance) {
  const percent = Math.round(chance.share * 100);
  const deals = `${chance.samples} sampled deal${chance.samples === 1 ? '' : 's'}`;
  const undecided = chance.unknown ? `, ${chance.unknown} undecided` : '';
  return `about ${percent}% (from ${deals}${undecided})`;
}

/** What ``/winnable`` answered, to show beside the toolbar: {text, kind, title}. */
export function verdictOf(data) {
  if (data.status !== 'playing') {
    return data.status === 'won' ? {text: 'won', kind: 'yes', title: ''} : {text: 'no move left', kind: 'no', title: ''};
  }
  if (data.peek) {
    const words = data.winnable === true ? 'still winnable' : data.winnable === false ? 'cannot be won any more' : 'not sure';
    return {text: `${ANALYSIS_LABEL}: ${words}`, kind: 'analysis', title: ANALYSIS_TITLE};
  }
  if (!data.chance) return {text: 'chance to win: not known', kind: '', title: ''};
  return {text: `chance to win: ${chanceWords(data.chance)}`, kind: '', title: CHANCE_TITLE};
}

/** What ``/hint`` answered, as the message above the table: {text, kind}. */
export function hintOf(data) {
  const move = data.hint === 'deal' ? 'deal from the stock' : data.hint;
  if (data.peek) return {text: `${ANALYSIS_LABEL}: ${data.hint ? move : 'no winning line found'}`, kind: 'analysis'};
  return {text: data.hint ? `hint: ${move} (${data.reason})` : data.message, kind: 'hint'};
}
