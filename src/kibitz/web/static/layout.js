// Where everything lies on the table: a pure function of the game's table declaration
// (/api/games: places in card slots, see kibitz/table.py), the piles of the view and the room
// available, in pixels. No DOM.
//
// The rule. A slot is a card's width and a gap wide; a card's height, a gap and a band for
// the pile's name (LABEL) tall. The card size is the largest (up to MAX_CARD) at which
//   - the declared table fits the room, and
//   - every pile that may grow past its declared room (one whose room reaches the table's
//     bottom or right edge: nothing lies beyond it) fits, its cards fanned as closely as
//     the rule below allows, before the room's edge: the cards it holds, or the most it may
//     hold before the round ends, as the view foresees (sizing.js keeps that size for the
//     whole round, so that no card moves or shrinks as the piles grow).
// Within its room a fan spreads its cards at their usual steps; when they do not fit, the
// face-down cards close up first (to a sliver), then the face-up ones, down to the strip
// their index needs (INDEX_STRIP) and no closer. A pile that needs more than that gets it
// from the card size: the table takes more rows and every card gets a little smaller, so
// every card stays in its place and every face-up index stays in sight. A second column
// would cover the neighbouring pile, and a spread on hover or tap hides cards until asked
// for (and a touch screen has no hover); a smaller table reads at a glance at every stage.

import {INDEX_STRIP} from './cards.js';

export const RATIO = 1.4;   // card height / width
export const GAP = 0.12;    // gap between piles, in card widths
export const LABEL = 15;    // band above each slot for its pile's name and count, in pixels
const MIN_CARD = 24;        // card widths in pixels: smaller cards do not read; the page scrolls first
const COMFORTABLE = 60;     // below this, growing piles give up the room they do not use yet
const MAX_CARD = 150;
const EDGE = 1e-6;          // slack when telling whether a pile's room reaches the table's edge

// Steps between a card and the next one of a fan, as parts of the card's length along the fan:
// usual, roomiest (a pile with room to spare for all it may get this round) and closest.
const STEPS = {
  down: {faceUp: 0.3, faceUpRoomy: 0.4, faceUpMin: INDEX_STRIP.down, faceDown: 0.14, faceDownMin: 0.05},
  right: {faceUp: 0.42, faceUpRoomy: 0.5, faceUpMin: INDEX_STRIP.right, faceDown: 0.16, faceDownMin: 0.06},
};

/** The cards of a pile that show: the top one of a squared pile, all of a fanned one. */
function shownCards(place, cards) { return place.fan === 'none' ? cards.slice(-1) : cards; }

/** How many of ``shown``'s cards (the top one excepted) are face up and face down. */
function countFaces(shown) {
  let up = 0, down = 0;
  for (let k = 0; k < shown.length - 1; k++) { if (shown[k] === null) down++; else up++; }
  return {up, down};
}

/**
 * The steps between the ``shown`` cards of a ``fan`` in ``room`` pixels along it, for cards of
 * ``length`` pixels along it: usual steps when they fit, else face-down cards closer, then
 * face-up ones, never closer than their index needs (the pile then overflows its room).
 * ``foreseen``: the most cards the pile may hold this round, when known; a room that holds
 * that many at more than the usual step spreads the face-up cards wider (up to the roomiest
 * step), the same for the whole round.
 */
export function fanSteps(shown, fan, length, room, foreseen = 0) {
  const steps = STEPS[fan];
  const {up, down} = countFaces(shown);
  const spare = room - length;
  let faceUp = steps.faceUp, faceDown = steps.faceDown;
  const planned = Math.max(foreseen, shown.length) - 1;   // the steps the room must hold this round
  if (foreseen && planned > 0) faceUp = Math.max(faceUp, Math.min(steps.faceUpRoomy, spare / length / planned));
  if ((up * faceUp + down * faceDown) * length > spare) {
    faceDown = down ? Math.max(steps.faceDownMin, (spare / length - up * faceUp) / down) : faceDown;
    if ((up * faceUp + down * faceDown) * length > spare && up) {
      faceUp = Math.max(steps.faceUpMin, (spare / length - down * faceDown) / up);
    }
  }
  return shown.slice(0, -1).map((code) => (code === null ? faceDown : faceUp) * length);
}

/**
 * The layout of a table: ``table`` as /api/games declares it, ``piles`` the view's piles
 * (name -> cards bottom first, null when face down), in ``width`` x ``height`` pixels, with
 * cards ``cardWidth`` wide (by default the largest at which these piles fit: cardSize);
 * ``longest``: the most cards each pile that may grow past its room may hold this round
 * (pile name -> cards), whose fans then spread into the room they will not need.
 * Returns the card size, the table's size, every slot (with the box where a card may be
 * dropped on it) and every card shown, with its place and stacking order.
 */
export function layOut(table, piles, width, height, cardWidth = cardSize(table, piles, width, height), longest = {}) {
  const cardHeight = cardWidth * RATIO;
  const gap = GAP * cardWidth;
  const pitchX = cardWidth + gap, pitchY = cardHeight + gap + LABEL;
  const slots = [], cards = [];
  let right = 0, bottom = 0;
  for (const place of table.places) {
    const x = gap + place.column * pitchX, y = LABEL + place.row * pitchY;
    const pile = piles[place.pile] || [];
    const shown = shownCards(place, pile);
    const box = {left: x, top: y, right: x + cardWidth, bottom: y + cardHeight};
    let steps = [];
    if (place.fan === 'down') {
      const declared = y + (place.room - 1) * pitchY + cardHeight;
      const grows = place.row + place.room >= table.rows - EDGE;
      steps = fanSteps(shown, 'down', cardHeight, grows ? height - gap - y : declared - y, grows ? longest[place.pile] : 0);
      const end = y + cardHeight + sum(steps);
      box.bottom = Math.max(end, grows ? Math.min(declared, height - gap) : declared);
    } else if (place.fan === 'right') {
      const declared = x + (place.room - 1) * pitchX + cardWidth;
      const grows = place.column + place.room >= table.columns - EDGE;
      steps = fanSteps(shown, 'right', cardWidth, grows ? width - gap - x : declared - x, grows ? longest[place.pile] : 0);
      const end = x + cardWidth + sum(steps);
      box.right = Math.max(end, grows ? Math.min(declared, width - gap) : declared);
    }
    const first = pile.length - shown.length;
    let cx = x, cy = y;
    shown.forEach((code, k) => {
      cards.push({pile: place.pile, index: first + k, code, x: cx, y: cy, z: k + 1, fan: place.fan});
      if (place.fan === 'down') cy += steps[k] || 0;
      if (place.fan === 'right') cx += steps[k] || 0;
    });
    slots.push({pile: place.pile, x, y, fan: place.fan, count: pile.length, box});
    right = Math.max(right, box.right + gap);
    bottom = Math.max(bottom, box.bottom + gap);
  }
  return {cardWidth, cardHeight, width: right, height: bottom, slots, cards};
}

function sum(values) { return values.reduce((a, b) => a + b, 0); }

/**
 * The card width. Every length on the table is ``a * cardWidth + b``; each that must fit
 * gives a bound ``(limit - b) / a``. Hard bounds: every pile's box, except that a pile that
 * may grow past its room counts only its cards, fanned as closely as allowed: the cards it
 * holds, or, when more, the ``longest`` it may get (pile name -> cards, as the view foresees
 * them for the round; all counted face up, since a face-down card may turn). Soft bound: the
 * declared table, growing piles' whole rooms included; it yields when it would make cards
 * narrower than COMFORTABLE.
 */
export function cardSize(table, piles, width, height, longest = {}) {
  const across = (columns) => width / (GAP + columns * (1 + GAP));
  const down = (rows) => (height - rows * LABEL) / (rows * (RATIO + GAP));
  const soft = Math.min(across(table.columns), down(table.rows));
  const hard = [];
  for (const place of table.places) {
    const growsDown = place.fan === 'down' && place.row + place.room >= table.rows - EDGE;
    const growsRight = place.fan === 'right' && place.column + place.room >= table.columns - EDGE;
    hard.push(across(place.column + (place.fan === 'right' && !growsRight ? place.room : 1)));
    hard.push(down(place.row + (place.fan === 'down' && !growsDown ? place.room : 1)));
    if (!growsDown && !growsRight) continue;
    const steps = STEPS[place.fan];
    const {up, down: faceDown} = countFaces(shownCards(place, piles[place.pile] || []));
    const foreseen = Math.max(0, (longest[place.pile] || 0) - 1) * steps.faceUpMin;
    const length = 1 + Math.max(up * steps.faceUpMin + faceDown * steps.faceDownMin, foreseen);   // in card lengths
    if (growsDown) {
      // its top (LABEL + row * pitchY) + the fan + a gap below it
      hard.push((height - LABEL - place.row * LABEL) / (place.row * (RATIO + GAP) + length * RATIO + GAP));
    } else {
      hard.push(width / (GAP + place.column * (1 + GAP) + length + GAP));
    }
  }
  const size = Math.min(...hard, Math.max(soft, COMFORTABLE));
  return Math.floor(Math.max(MIN_CARD, Math.min(MAX_CARD, size)));
}
