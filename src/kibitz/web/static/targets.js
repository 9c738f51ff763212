// Where a picked-up card may go: while a card is dragged, and once it is picked up (a click,
// or Enter on the keyboard), the piles the rules let it go to light up, read from the view's
// legal moves. A mark lies over the pile's whole box, above its cards and under the card
// being dragged, and lets the pointer through.

import {movesOf} from './moves.js';

/** The piles that the card at ``index`` of ``pile`` (with the cards above it) may go to in ``play``. */
export function targetsOf(play, pile, index) {
  return [...new Set(movesOf(play, pile, index).map((move) => move.dst))];
}

/**
 * Lights up on ``table`` the piles where ``pick`` (``{pile, index}``, or null: none) may go
 * in ``play``, over their boxes in ``geometry`` (table.js); the earlier marks go. Returns
 * the piles lit up.
 */
export function markTargets(table, geometry, play, pick) {
  for (const mark of table.querySelectorAll('.drop-target')) mark.remove();
  if (!pick || !play) return [];
  const targets = targetsOf(play, pick.pile, pick.index).filter((name) => geometry[name]);
  for (const name of targets) {
    const box = geometry[name];
    const mark = document.createElement('div');
    mark.className = 'drop-target';
    mark.dataset.pile = name;
    mark.setAttribute('aria-hidden', 'true');
    Object.assign(mark.style, {left: `${box.x}px`, top: `${box.y}px`, width: `${box.right - box.x}px`,
      height: `${box.bottom - box.y}px`});
    table.append(mark);
  }
  return targets;
}
