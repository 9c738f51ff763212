// The words of the assists: the hint and the chance to win, which see only what the player
// sees, and the analysis mode's answers, which come from the solver (it sees every card) and
// are always labelled so. The chance is said as kibitz.analysis.text.chance_words says it: a
// figure only where at least half the sampled deals were decided, never an undecided deal
// counted as lost.

/** The label of every answer of the analysis mode. */
export const ANALYSIS_LABEL = 'solver (sees every card)';

/** What the chance to win is, in one sentence. */
export const CHANCE_MEANING = 'the share of deals that fit what you see which a player knowing every card could ' +
  'win from here: an upper bound of your chance (undecided deals are never counted as lost)';

const ANALYSIS_TITLE = 'analysis mode: the solver sees every card, face down or not';

/** The least share of decided deals for a chance to be given as one figure (else its range). */
const SURE = 0.5;
/** An interval at least this wide is shown beside the chance. */
const WIDE = 0.10;

/** ``x`` rounded to a whole number, halves to the even one (as Python's ``round``). */
export function roundHalfEven(x) {
  const floor = Math.floor(x);
  const rest = x - floor;
  if (rest > 0.5) return floor + 1;
  if (rest < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** A share as a whole percentage: 0.625 -> "62%". */
export function percent(share) {
  const whole = roundHalfEven(share * 100);
  // A share that is neither 0 nor 1 is never said as 0% or 100% (as kibitz.analysis.text.percent).
  if ((whole === 100 && share < 1) || (whole === 0 && share > 0)) {
    return `${(share * 100).toFixed(share >= 0.001 && share <= 0.999 ? 1 : 2)}%`;
  }
  return `${whole}%`;
}

/** How many deals a chance was drawn from, decided, and won (``/winnable``'s or a review's chance). */
export function chanceCounts(chance) {
  const samples = chance.won + chance.lost + chance.unknown;
  return {samples, decided: chance.won + chance.lost};
}

/** The chance as one figure (the share of the decided deals won), or null when not sure. */
export function sureShare(chance) {
  const {samples, decided} = chanceCounts(chance);
  return samples && decided >= SURE * samples ? chance.won / decided : null;
}

/**
 * A chance in words: "about 62% (47-75%, from 40 sampled deals)"; "not sure: between 20% and
 * 80% (...)" where undecided deals leave it open; never an undecided deal counted as lost.
 */
export function chanceWords(chance) {
  const {samples, decided} = chanceCounts(chance);
  const deals = `${samples} sampled deal${samples === 1 ? '' : 's'}`;
  if (!samples) return 'not sure (no deal sampled)';
  if (!decided) return `not sure (none of the ${deals} was decided)`;
  const share = sureShare(chance);
  const undecided = chance.unknown ? `, ${chance.unknown} undecided` : '';
  if (share === null) {
    return `not sure: between ${percent(chance.won / samples)} and ${percent((chance.won + chance.unknown) / samples)} ` +
      `(${chance.unknown} of ${deals} undecided)`;
  }
  const [low, high] = chance.interval || [share, share];
  const spread = high - low >= WIDE ? `${percent(low)}-${percent(high)}, ` : '';
  return `about ${percent(share)} (${spread}from ${deals}${undecided})`;
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
  return {text: `chance to win: ${chanceWords(data.chance)}`, kind: '', title: CHANCE_MEANING};
}

/** What ``/hint`` answered, as the message above the table: {text, kind}. The move in the
 * server's words ("the 7♠ from reserve 1 onto the 8♥ in tableau 4"), never in notation. */
export function hintOf(data) {
  if (data.peek) return {text: `${ANALYSIS_LABEL}: ${data.hint ? data.words : 'no winning line found'}`, kind: 'analysis'};
  return {text: data.hint ? `hint: ${data.words} (${data.reason})` : data.message, kind: 'hint'};
}
