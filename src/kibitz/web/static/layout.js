// Where everything lies on the table: a pure function of the table's declaration, the piles
// of the view and the room available, in pixels. No DOM.

const GAP = 0.12;          // gap between piles, in card widths
const RATIO = 1.4;         // card height / width
const range = (a, b) => Array.from({length: b - a + 1}, (_, i) => a + i);

// Where each pile lies: [name, column, row (in card heights), fan direction, fan extent].
const LAYOUTS = {
  'grand-duchess': {cols: 8, piles: [['s', 0, 0],
    ...range(1, 4).map((i) => [`f${i}`, i + 1, 0]), ...range(5, 8).map((i) => [`f${i}`, i - 3, 1.1]),
    ['r1', 0, 1.25, 'down', 3.9], ...range(1, 4).map((i) => [`t${i}`, i + 1, 2.25, 'down', 2.9]),
    ['r2', 7, 1.25, 'down', 3.9]]},
  'duchess': {cols: 7, piles: [...range(1, 4).map((i) => [`r${i}`, (i - 1) * 1.75, 0, 'right', 1.65]),
    ['s', 0, 1.2], ['w', 1, 1.2], ...range(1, 4).map((i) => [`f${i}`, i + 2, 1.2]),
    ...range(1, 4).map((i) => [`t${i}`, i + 2, 2.4, 'down', 3.4])]},
  'tournament': {cols: 8, piles: [...range(1, 4).map((i) => [`r${i}`, 0, (i - 1) * 1.1]),
    ...range(5, 8).map((i) => [`r${i}`, 7, (i - 5) * 1.1]), ['s', 1, 0],
    ...range(1, 4).map((i) => [`f${i}`, i + 1, 0]), ...range(5, 8).map((i) => [`f${i}`, i - 3, 1.1]),
    ...range(1, 6).map((i) => [`t${i}`, i, 2.25, 'down', 2.9])]},
  'cicely': {cols: 9, piles: [['s', 0, 0], ...range(1, 8).map((i) => [`r${i}`, i, 0]),
    ...range(1, 8).map((i) => [`f${i}`, i, 1.1]), ...range(1, 8).map((i) => [`t${i}`, i, 2.25, 'down', 3.2])]},
  'kingsdown-eights': {cols: 9, piles: [['s', 0, 0], ...range(1, 8).map((i) => [`f${i}`, i, 0]),
    ...range(1, 8).map((i) => [`t${i}`, i, 1.15]), ...range(1, 8).map((i) => [`r${i}`, i, 2.35, 'down', 3])]},
};
LAYOUTS['parisienne'] = LAYOUTS['grand-duchess'];
LAYOUTS['napoleons-flank'] = LAYOUTS['tournament'];

/** The piles of ``game`` in drawing order (also the keyboard cursor's order). */
export function pileOrder(game) { return LAYOUTS[game].piles.map((p) => p[0]); }

/**
 * The layout of ``game``'s table for the view's ``piles`` (name -> cards, null when face down)
 * in ``width`` pixels: the card size, every slot and every card shown, and the table's size.
 * ``specs``: the piles as /api/games describes them (kind, spread).
 */
export function layOut(game, specs, piles, width) {
  const layout = LAYOUTS[game];
  const cardWidth = Math.max(28, Math.min(100, Math.min(width, 1100) / (layout.cols * (1 + GAP) + GAP)));
  const cardHeight = cardWidth * RATIO;
  const step = cardWidth * (1 + GAP);
  const slots = [], cards = [];
  let bottom = 0, right = 0;
  layout.piles.forEach(([name, col, row, fan, extent]) => {
    const spec = specs.find((p) => p.name === name);
    if (!spec) return;
    const x = GAP * cardWidth + col * step, y = GAP * cardWidth + row * (cardHeight + GAP * cardWidth);
    const pile = piles[name] || [];
    const squared = spec.spread === 'squared' || !fan;
    const shown = squared ? pile.slice(-1) : pile;
    let dx = 0, dy = 0;
    if (!squared && shown.length > 1) {
      const room = fan === 'right' ? (extent - 1) * cardWidth : (extent - 1) * cardHeight;
      const wanted = shown.map((c) => (c === null ? 0.14 : 0.26) * (fan === 'right' ? cardWidth * 1.2 : cardHeight));
      const total = wanted.slice(0, -1).reduce((a, b) => a + b, 0);
      const squeeze = total > room ? room / total : 1;
      if (fan === 'right') dx = wanted.map((w) => w * squeeze); else dy = wanted.map((w) => w * squeeze);
    }
    let cx = x, cy = y;
    const first = pile.length - shown.length;
    shown.forEach((code, k) => {
      cards.push({pile: name, index: first + k, code, x: cx, y: cy, z: k + 1});
      if (dx) cx += dx[k]; if (dy) cy += dy[k];
    });
    const zoneBottom = squared ? y + cardHeight : y + Math.max(cardHeight, (fan === 'down' ? extent * cardHeight : cardHeight));
    const zoneRight = fan === 'right' ? x + extent * cardWidth : x + cardWidth;
    slots.push({pile: name, kind: spec.kind, x, y, fan: squared ? 'none' : fan, count: pile.length,
      box: {left: x, top: y, right: zoneRight, bottom: zoneBottom}});
    bottom = Math.max(bottom, zoneBottom); right = Math.max(right, zoneRight);
  });
  return {cardWidth, cardHeight, slots, cards,
    width: right + GAP * cardWidth, height: bottom + 1.2 * GAP * cardWidth + 14};
}
