// Motion: cards glide to their new places after a move, and a won game gets a short
// celebration. Both are decoration only: the table is drawn in its final state at once
// (the move count and every card's element are up to date before anything moves), the
// next action skips what is still running, and nothing moves when the player asked for
// reduced motion or turned animation off.
//
// Cards move the FLIP way: remember where every card showed before the table is drawn
// again, then draw it, then move each card's picture from its old place to its new one.
// Only the picture (the card's <svg>) moves, and it ignores the pointer while it does: the
// card's element itself is in its final place from the start, so a click always reaches
// the card that is really there, even mid-flight.

export const MOVE_MS = 200;
const LIFT = 900;          // added to a moving card's stacking order, so that it flies over the others
const STAGGER_MS = 35;     // between cards sent off together (auto-play, finish), lowest first
const STAGGER_MAX_MS = 700;
const CELEBRATION_MS = 1800;
const SUITS = [['♠', '#1b1b1b'], ['♥', '#c62828'], ['♦', '#c62828'], ['♣', '#1b1b1b']];

/** Whether the player asked the system for reduced motion. */
export function prefersReducedMotion() {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

function picture(card) { return card.querySelector('svg') || card; }

/** Where each card of ``table`` shows now: pile, index, name ('' face down) and box. */
export function remember(table) {
  return [...table.querySelectorAll('.card')].map((card) => ({
    pile: card.dataset.pile, index: +card.dataset.index, name: card.title,
    box: picture(card).getBoundingClientRect(),
  }));
}

/** Ends every card movement still running in ``table`` (the cards jump to their places). */
export function skip(table) {
  for (const animation of table.getAnimations({subtree: true})) animation.finish();
}

/**
 * Pairs the cards now on ``table`` with where they showed ``before``: the same place (the
 * same card, or one turned over there), else the same card elsewhere. Returns a map from
 * card element to its old entry; the cards left over were not in sight before.
 */
function pair(table, before) {
  const cards = [...table.querySelectorAll('.card')];
  const used = new Set();
  const pairs = new Map();
  const at = new Map(before.map((old, k) => [`${old.pile}#${old.index}`, k]));
  for (const card of cards) {
    const k = at.get(`${card.dataset.pile}#${card.dataset.index}`);
    if (k === undefined) continue;
    const old = before[k];
    if (old.name === card.title || !old.name || !card.title) { pairs.set(card, old); used.add(k); }
  }
  for (const card of cards) {
    if (pairs.has(card) || !card.title) continue;
    const k = before.findIndex((old, i) => !used.has(i) && old.name === card.title);
    if (k >= 0) { pairs.set(card, before[k]); used.add(k); }
  }
  return {cards, pairs};
}

/**
 * Moves the cards of ``table`` from where they showed ``before`` (``remember``) to where they
 * are now. ``from``: the box new cards come from (the stock's, after a deal), or null: they
 * then simply appear. A card whose place did not change does not move.
 */
export function glide(table, before, from = null) {
  const {cards, pairs} = pair(table, before);
  const moving = [];
  for (const card of cards) {
    const old = pairs.get(card);
    const start = old ? old.box : card.dataset.pile !== 's' ? from : null;
    if (!start) continue;
    const end = card.getBoundingClientRect();
    const dx = start.left - end.left, dy = start.top - end.top;
    if (Math.hypot(dx, dy) < 1 && Math.abs(start.width - end.width) < 1) continue;
    moving.push({card, dx, dy, scaleX: start.width / end.width, scaleY: start.height / end.height,
      far: Math.hypot(dx, dy) > end.height / 2});
  }
  // Cards sent off together leave one after the other, those lower in their piles first;
  // cards that only shift within their pile (a fan closing up) move at once.
  const far = moving.filter((m) => m.far).sort((a, b) => a.card.dataset.index - b.card.dataset.index);
  const step = far.length > 1 ? Math.min(STAGGER_MS, STAGGER_MAX_MS / far.length) : 0;
  far.forEach((m, k) => { m.delay = k * step; });
  for (const m of moving) fly(m);
}

function fly({card, dx, dy, scaleX, scaleY, far, delay = 0}) {
  const svg = picture(card);
  const z = card.style.zIndex;
  card.classList.add('flying');
  if (far) card.style.zIndex = String(LIFT + (+z || 0));
  svg.style.transformOrigin = '0 0';
  const animation = svg.animate([
    {transform: `translate(${dx}px, ${dy}px) scale(${scaleX}, ${scaleY})`},
    {transform: 'none'},
  ], {duration: MOVE_MS, delay, easing: 'cubic-bezier(.2, .7, .3, 1)', fill: 'backwards'});
  const land = () => { card.classList.remove('flying'); card.style.zIndex = z; };
  animation.onfinish = land;
  animation.oncancel = land;
}

/**
 * A short celebration of a won game: card suits rain over the window. Returns a function
 * that stops it at once (any key or click does too).
 */
export function celebrate() {
  const layer = document.createElement('div');
  layer.className = 'celebration';
  layer.setAttribute('aria-hidden', 'true');
  const animations = [];
  for (let k = 0; k < 36; k++) {
    const [symbol, colour] = SUITS[k % SUITS.length];
    const drop = document.createElement('span');
    drop.textContent = symbol;
    drop.style.left = `${(k * 37) % 100}%`;
    drop.style.color = colour;
    drop.style.fontSize = `${24 + (k * 13) % 28}px`;
    layer.append(drop);
    const turn = (k % 2 ? 1 : -1) * (180 + (k * 47) % 360);
    animations.push(drop.animate([
      {transform: 'translateY(-10vh) rotate(0deg)', opacity: 1},
      {transform: `translateY(110vh) rotate(${turn}deg)`, opacity: 0.7},
    ], {duration: CELEBRATION_MS - (k * 29) % 600, delay: (k * 53) % 500, easing: 'ease-in', fill: 'both'}));
  }
  document.body.append(layer);
  const stop = () => {
    layer.remove();
    window.removeEventListener('keydown', stop, true);
    window.removeEventListener('pointerdown', stop, true);
  };
  window.addEventListener('keydown', stop, true);
  window.addEventListener('pointerdown', stop, true);
  Promise.all(animations.map((a) => a.finished)).then(stop, stop);
  return stop;
}
