// What the view allows: the legal moves the server lists, read as pile, position and size.
// Pure functions of a play payload; no DOM.

/** A move's text read back: ``{text, src, pos, dst, size}``, or ``{text, deal: true}``; null if unreadable. */
export function parseMove(text) {
  if (text === 'deal') return {text, deal: true};
  const m = /^([a-z]\d?)(?:#(\d+))?>([a-z]\d?)(?:\/(\d+))?$/.exec(text);
  return m && {text, src: m[1], pos: m[2] === undefined ? null : +m[2], dst: m[3], size: m[4] ? +m[4] : 1};
}

/** The legal moves of ``play``, parsed. */
export function legalMoves(play) { return (play ? play.legal : []).map(parseMove).filter(Boolean); }

/** Legal moves that take the card at ``index`` of ``pile`` (with the cards above it, if any). */
export function movesOf(play, pile, index) {
  const length = play.piles[pile].length;
  return legalMoves(play).filter((m) => !m.deal && m.src === pile &&
    (m.pos === index || (m.pos === null && m.size === length - index)));
}

/** The text of moving the card at ``index`` of ``pile`` (and those above it) to ``target``. */
export function moveText(play, pile, index, target) {
  const length = play.piles[pile].length;
  if (index === length - 1) return `${pile}>${target}`;
  const runs = legalMoves(play).some((m) => m.src === pile && m.pos === index);
  return runs || pile[0] === 'r' ? `${pile}#${index}>${target}` : `${pile}>${target}/${length - index}`;
}
