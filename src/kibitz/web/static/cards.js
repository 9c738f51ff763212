// Playing cards drawn as SVG: a large corner index (readable on a phone), a suit in the middle.

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

export function isRed(suit) { return suit === 'H' || suit === 'D'; }

/** An SVG group drawing ``suit`` in a box of ``size`` at (x, y). */
export function suitShape(suit, x, y, size, colour) {
  const fill = colour || (isRed(suit) ? RED : BLACK);
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

/** The SVG of the face of card ``code`` (``TD``). */
export function cardFace(code) {
  const rank = code[0], suit = code[1];
  const colour = isRed(suit) ? RED : BLACK;
  const label = rankText(rank);
  const size = label.length > 1 ? 34 : 40;
  let middle;
  if ('JQK'.includes(rank)) {
    middle = `<rect x="26" y="52" width="48" height="66" rx="6" fill="none" stroke="${colour}" stroke-width="3"/>` +
      `<text x="50" y="113" font-size="38" text-anchor="middle" font-weight="700" fill="${colour}">${rank}</text>` +
      suitShape(suit, 39, 57, 22);
  } else {
    middle = suitShape(suit, 28, 60, 44);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 140" role="img" aria-label="${cardName(code)}">` +
    `<rect x="1.5" y="1.5" width="97" height="137" rx="8" fill="#fff" stroke="#555" stroke-width="2"/>` +
    `<text x="7" y="38" font-size="${size}" font-family="system-ui, sans-serif" font-weight="700" fill="${colour}"` +
    ` letter-spacing="-2">${label}</text>` + suitShape(suit, 66, 8, 28) + middle + `</svg>`;
}

/** The SVG of a card's back. */
export function cardBack() {
  return '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 140" role="img" aria-label="face-down card">' +
    '<defs><pattern id="lattice" width="12" height="12" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">' +
    '<rect width="12" height="12" fill="#23569e"/><rect width="6" height="12" fill="#2d68b8"/></pattern></defs>' +
    '<rect x="1.5" y="1.5" width="97" height="137" rx="8" fill="#fff" stroke="#555" stroke-width="2"/>' +
    '<rect x="8" y="8" width="84" height="124" rx="5" fill="url(#lattice)"/></svg>';
}
