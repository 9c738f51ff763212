// Playing cards drawn as SVG (100 x 140 units): an index of rank and suit in the top-left
// corner, as on a real card, and a large suit (or a framed letter) in the middle.
//
// The index is laid out for the way its pile fans, so that it lies in the strip of the card
// that stays uncovered: across the top (rank, then suit) when cards fan downwards or lie
// squared; down the left side (rank over suit) when they fan to the right. INDEX_STRIP says
// how much of the card each index needs; layout.js never fans cards closer than that.

const SUIT_PATHS = {
  H: 'M50 92 C 22 68, 2 50, 8 28 C 14 8, 42 6, 50 30 C 58 6, 86 8, 92 28 C 98 50, 78 68, 50 92 Z',
  D: 'M50 4 L90 50 L50 96 L10 50 Z',
  S: 'M50 6 C 76 34, 98 48, 92 66 C 86 82, 62 82, 54 70 C 56 82, 60 90, 70 96 L30 96 C 40 90, 44 82, 46 70 ' +
     'C 38 82, 14 82, 8 66 C 2 48, 24 34, 50 6 Z',
  C: 'M46 62 C 46 80, 40 90, 30 96 L70 96 C 60 90, 54 80, 54 62 Z',
};
const CLUB_LEAVES = [[50, 28], [27, 58], [73, 58]];
export const SUIT_NAMES = {C: 'clubs', S: 'spades', H: 'hearts', D: 'diamonds'};
export const RANK_NAMES = {A: 'ace', T: 'ten', J: 'jack', Q: 'queen', K: 'king'};
const RED = '#c62828';
const BLACK = '#1b1b1b';
// The four-colour deck, for players who tell red from black poorly: clubs green, diamonds blue.
const FOUR_COLOURS = {C: '#1b7a2f', S: BLACK, H: RED, D: '#1456b8'};

/**
 * The part of a card's length (along its pile's fan) that its index needs uncovered: the
 * whole index, the rank's font box (a J's or a Q's tail below the line included) and the
 * suit, with a little room to spare.
 */
export const INDEX_STRIP = {down: 0.28, right: 0.34};

let fourColours = false;

/** Draw clubs green and diamonds blue (``true``) or the usual red and black. */
export function useFourColours(on) { fourColours = Boolean(on); }

export function isRed(suit) { return suit === 'H' || suit === 'D'; }

function suitColour(suit) { return fourColours ? FOUR_COLOURS[suit] : isRed(suit) ? RED : BLACK; }

/** An SVG group drawing ``suit`` in a box of ``size`` at (x, y). */
export function suitShape(suit, x, y, size, colour) {
  const fill = colour || suitColour(suit);
  const scale = size / 100;
  let inner = `<path d="${SUIT_PATHS[suit]}"/>`;
  if (suit === 'C') inner += CLUB_LEAVES.map(([cx, cy]) => `<circle cx="${cx}" cy="${cy}" r="21"/>`).join('');
  return `<g transform="translate(${x} ${y}) scale(${scale})" fill="${fill}">${inner}</g>`;
}

function rankText(rank) { return rank === 'T' ? '10' : rank; }

export function cardName(code) {
  const rank = code[0], suit = code[1];
  const rankName = RANK_NAMES[rank] || rank;
  return `${rankName} of ${SUIT_NAMES[suit]}`;
}

// Where the suit starts after each rank across the top (digits: 30), close to the rank's width.
const SUIT_AFTER = {A: 33, T: 35, J: 23, Q: 35, K: 33};

/** The index: rank and suit, across the top (``fan`` down or none) or down the left side (right). */
function index(rank, suit, colour, fan) {
  const label = rankText(rank);
  const wide = label.length > 1;
  // "10" is drawn condensed so that it takes no more room than one letter.
  const text = `<text x="${wide ? 3 : 6}" y="29" font-size="${wide ? 28 : 30}" font-family="system-ui, sans-serif" ` +
    `font-weight="700" fill="${colour}"${wide ? ' letter-spacing="-3" textLength="29" lengthAdjust="spacingAndGlyphs"' : ''}>` +
    `${label}</text>`;
  const suitMark = fan === 'right' ? suitShape(suit, 6, 35, 21) : suitShape(suit, SUIT_AFTER[rank] || 30, 9, 21);
  return `<g class="index">${text}${suitMark}</g>`;
}

/** The SVG of the face of card ``code`` (``TD``) in a pile fanned ``fan`` (none, down, right). */
export function cardFace(code, fan = 'none') {
  const rank = code[0], suit = code[1];
  const colour = suitColour(suit);
  let middle;
  if ('JQK'.includes(rank)) {
    middle = `<rect x="26" y="52" width="48" height="66" rx="6" fill="none" stroke="${colour}" stroke-width="3"/>` +
      `<text x="50" y="113" font-size="38" text-anchor="middle" font-weight="700" fill="${colour}">${rank}</text>` +
      suitShape(suit, 39, 57, 22);
  } else {
    middle = suitShape(suit, 28, 62, 44);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 140" role="img" aria-label="${cardName(code)}">` +
    `<rect x="1.5" y="1.5" width="97" height="137" rx="8" fill="#fff" stroke="#555" stroke-width="2"/>` +
    index(rank, suit, colour, fan) + middle + `</svg>`;
}

/** The SVG of a card's back. */
export function cardBack() {
  return '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 140" role="img" aria-label="face-down card">' +
    '<defs><pattern id="lattice" width="12" height="12" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">' +
    '<rect width="12" height="12" fill="#23569e"/><rect width="6" height="12" fill="#2d68b8"/></pattern></defs>' +
    '<rect x="1.5" y="1.5" width="97" height="137" rx="8" fill="#fff" stroke="#555" stroke-width="2"/>' +
    '<rect x="8" y="8" width="84" height="124" rx="5" fill="url(#lattice)"/></svg>';
}
