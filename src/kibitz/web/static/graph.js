// The review's graph: the fair chance before each move, drawn as SVG by the page. Pure
// functions of the review's figures; no DOM.
//
// Position k is the table after k moves (0: the opening; the last: after the last move). Its
// chance is the one before move k + 1 (the final chance for the last). Where undecided deals
// leave the chance open, the band between its lowest (every undecided deal lost) and highest
// (every one won) is shaded; a chance given as a figure is a point of the line, a chance not
// sure a gap in it (only its band shows).

import {sureShare} from './assists.js';

export const WIDTH = 340;
export const HEIGHT = 150;
const PLOT = {left: 30, right: 10, top: 10, bottom: 22};
export const LABEL_COLOURS = {inaccuracy: '#f9a825', mistake: '#ef6c00', blunder: '#c62828'};
const NO_RETURN_COLOUR = '#7b1fa2';

/** The x of position ``k`` of ``total`` in the graph's units. */
export function xOf(k, total) {
  const width = WIDTH - PLOT.left - PLOT.right;
  return PLOT.left + (total ? k / total : 0) * width;
}

function yOf(share) { return PLOT.top + (1 - share) * (HEIGHT - PLOT.top - PLOT.bottom); }

const round = (value) => Math.round(value * 10) / 10;

/** The position nearest to ``x`` (in the graph's units) of ``total``. */
export function positionAt(x, total) {
  const width = WIDTH - PLOT.left - PLOT.right;
  return Math.max(0, Math.min(total, Math.round((x - PLOT.left) / width * total)));
}

/**
 * The chance at each position known so far: {k, share (null: not sure), low, high, label}
 * from the review's move lines (``entries``, by index) and its final line (``final``).
 */
export function points(entries, final, total) {
  const found = [];
  for (let k = 0; k <= total; k++) {
    const entry = entries[k];
    const chance = k < total ? entry && entry.before : final && final.final;
    if (!chance) continue;
    const samples = chance.won + chance.lost + chance.unknown;
    found.push({k, share: sureShare(chance), low: samples ? chance.won / samples : 0,
      high: samples ? (chance.won + chance.unknown) / samples : 1, label: k < total ? entry.label : ''});
  }
  return found;
}

/** The band of the undecided deals: an SVG path along the highs, back along the lows. */
function band(known, total) {
  if (known.length < 2) return '';
  const top = known.map((p) => `${round(xOf(p.k, total))},${round(yOf(p.high))}`);
  const bottom = known.slice().reverse().map((p) => `${round(xOf(p.k, total))},${round(yOf(p.low))}`);
  return `<path class="band" d="M${top.join('L')}L${bottom.join('L')}Z"/>`;
}

/** The line through the chances given as figures, broken where a chance is not sure. */
function line(known, total) {
  const runs = [];
  let run = [];
  let last = null;
  for (const p of known) {
    if (p.share === null || (last !== null && p.k !== last + 1)) { if (run.length) runs.push(run); run = []; }
    if (p.share !== null) run.push(`${round(xOf(p.k, total))},${round(yOf(p.share))}`);
    last = p.k;
  }
  if (run.length) runs.push(run);
  return runs.map((r) => r.length === 1 ? `<circle class="dot" cx="${r[0].split(',')[0]}" cy="${r[0].split(',')[1]}" r="1.8"/>`
    : `<path class="line" d="M${r.join('L')}"/>`).join('');
}

/**
 * The graph as SVG markup. ``review``: {entries (move lines by index), final, total (moves
 * reviewed), noReturn (the no_return line or null), average (the game's share or null)};
 * ``selected``: the position shown on the table (or null).
 */
export function graphMarkup(review, selected) {
  const {entries, final, total, noReturn, average} = review;
  const known = points(entries, final, total);
  const parts = [];
  for (const share of [0, 0.5, 1]) {
    const y = round(yOf(share));
    parts.push(`<line class="grid" x1="${PLOT.left}" y1="${y}" x2="${WIDTH - PLOT.right}" y2="${y}"/>` +
      `<text class="axis" x="${PLOT.left - 4}" y="${y + 3}" text-anchor="end">${share * 100}%</text>`);
  }
  parts.push(`<text class="axis" x="${PLOT.left}" y="${HEIGHT - 6}">move 1</text>` +
    `<text class="axis" x="${WIDTH - PLOT.right}" y="${HEIGHT - 6}" text-anchor="end">after move ${total}</text>`);
  if (average !== null && average !== undefined) {
    const y = round(yOf(average));
    parts.push(`<line class="average" x1="${PLOT.left}" y1="${y}" x2="${WIDTH - PLOT.right}" y2="${y}"/>` +
      `<text class="axis average-label" x="${PLOT.left + 3}" y="${average > 0.5 ? y + 9 : y - 3}">game's average</text>`);
  }
  if (noReturn && noReturn.first !== null && noReturn.first !== undefined && noReturn.finding !== 'won') {
    // After move first + 1 (position first + 1) the deal could not be won; a range spans its positions.
    const from = round(xOf(noReturn.first + 1, total)), to = round(xOf((noReturn.last ?? noReturn.first) + 1, total));
    if (to > from) parts.push(`<rect class="no-return-range" x="${from}" y="${PLOT.top}" width="${to - from}" height="${HEIGHT - PLOT.top - PLOT.bottom}"/>`);
    const left = from > WIDTH - 70;   // the label on the line's left near the right edge
    parts.push(`<line class="no-return" x1="${from}" y1="${PLOT.top}" x2="${from}" y2="${HEIGHT - PLOT.bottom}" stroke="${NO_RETURN_COLOUR}"/>` +
      `<text class="axis no-return-label" x="${left ? from - 3 : from + 3}" y="${PLOT.top + 9}"` +
      `${left ? ' text-anchor="end"' : ''}>no return</text>`);
  }
  parts.push(band(known, total), line(known, total));
  for (const p of known) {
    const x = round(xOf(p.k, total));
    if (p.label) {
      parts.push(`<circle class="label ${p.label}" cx="${x}" cy="${round(yOf(p.share ?? (p.low + p.high) / 2))}" r="4" ` +
        `fill="${LABEL_COLOURS[p.label]}"/>`);
    }
  }
  if (selected !== null && selected !== undefined) {
    const x = round(xOf(selected, total));
    parts.push(`<line class="selected" x1="${x}" y1="${PLOT.top - 4}" x2="${x}" y2="${HEIGHT - PLOT.bottom + 3}"/>`);
  }
  return parts.join('');
}
