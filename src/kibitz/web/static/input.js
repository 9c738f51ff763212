// Playing with the pointer and the keyboard: a drag, a click, a double click or a key becomes
// a move, a pick-up or a request, through ``player``, the controller's actions (app.js):
// {ui, render, tryMove, toFoundation, dealStock, explain, act, askHint, autoPlay, replaceGame,
// goTo, pileOrder, backToGame}.

import {legalMoves, movesOf} from './moves.js';
import {markTargets} from './targets.js';

const $ = (id) => document.getElementById(id);

/** The pile whose box on the table holds the point (x, y) of the window, or null. */
function pileAt(player, x, y) {
  const box = $('table').getBoundingClientRect();
  const px = x - box.left, py = y - box.top;
  for (const [name, g] of Object.entries(player.ui.geometry)) {
    if (px >= g.x && px <= g.right && py >= g.y && py <= g.bottom) return name;
  }
  return null;
}

const DOUBLE_CLICK_MS = 400;

export function onPointerDown(player, event) {
  if (event.button !== 0 || player.ui.pending || player.ui.shown) return;
  const element = event.target.closest('.card, .slot');
  if (!element) return;
  const pile = element.dataset.pile;
  if (pile === 's') { player.ui.drag = {click: 's'}; return; }
  const index = +element.dataset.index;
  if (!element.classList.contains('card') || !element.classList.contains('movable')) {
    // A target for the card picked up; with none picked up, a card that cannot move.
    player.ui.drag = {target: pile, x: event.clientX, y: event.clientY, stuck: element.classList.contains('card') ? index : null};
    return;
  }
  const single = movesOf(player.ui.play, pile, index).some((m) => m.pos === index) || pile[0] === 'r' && index < player.ui.play.piles[pile].length - 1;
  const elements = [...document.querySelectorAll(`.card[data-pile="${pile}"]`)]
    .filter((e) => single ? +e.dataset.index === index : +e.dataset.index >= index);
  player.ui.drag = {pile, index, single, elements, x: event.clientX, y: event.clientY, moved: false,
    origin: elements.map((e) => [parseFloat(e.style.left), parseFloat(e.style.top)])};
  $('table').setPointerCapture(event.pointerId);
}

export function onPointerMove(player, event) {
  const drag = player.ui.drag;
  if (!drag || !drag.elements) return;
  const dx = event.clientX - drag.x, dy = event.clientY - drag.y;
  if (!drag.moved && Math.hypot(dx, dy) < 6) return;
  if (!drag.moved) markTargets($('table'), player.ui.geometry, player.ui.play, drag);
  drag.moved = true;
  drag.elements.forEach((e, k) => {
    e.classList.add('dragging');
    e.style.left = `${drag.origin[k][0] + dx}px`; e.style.top = `${drag.origin[k][1] + dy}px`;
    e.style.zIndex = 1000 + k;
  });
}

export function onPointerUp(player, event) {
  const drag = player.ui.drag;
  player.ui.drag = null;
  if (!drag) return;
  if (drag.click === 's') { player.ui.selected = null; player.dealStock(); return; }
  if (!player.ui.selected && drag.stuck !== undefined && drag.stuck !== null) { player.explain(drag.target, drag.stuck); return; }
  const cannotMove = drag.elements && !movesOf(player.ui.play, drag.pile, drag.index).length;
  if (drag.elements && drag.moved) {
    const target = pileAt(player, event.clientX, event.clientY);
    if (target && target !== drag.pile) player.tryMove(drag.pile, drag.index, target);
    else { player.render(); if (cannotMove) player.explain(drag.pile, drag.index); }
    return;
  }
  if (cannotMove && !player.ui.selected) { player.ui.lastClick = null; player.explain(drag.pile, drag.index); return; }
  // A click; a second click on the same card soon after is a double click, which sends the
  // card to a foundation (detected here: each click redraws the table, so the browser's own
  // dblclick event does not reach the card).
  const now = performance.now();
  const last = player.ui.lastClick;
  player.ui.lastClick = drag.elements ? {pile: drag.pile, index: drag.index, time: now} : null;
  if (drag.elements && last && last.pile === drag.pile && last.index === drag.index && now - last.time < DOUBLE_CLICK_MS) {
    player.ui.lastClick = null;
    player.ui.selected = null;
    player.toFoundation(drag.pile, drag.index);
    return;
  }
  const pile = drag.pile || drag.target;
  if (player.ui.selected) {
    const selected = player.ui.selected;
    if (pile && pile !== selected.pile) { player.tryMove(selected.pile, selected.index, pile); return; }
    player.ui.selected = null;
    if (drag.pile === selected.pile && drag.index === selected.index) { player.render(); return; }
  }
  if (drag.elements) player.ui.selected = {pile: drag.pile, index: drag.index, single: drag.single};
  player.render();
}

// -- keyboard play --------------------------------------------------------------------------

export function onKey(player, event) {
  if (event.target.closest('input, select, textarea, dialog, #review') || !player.ui.play || player.ui.page !== 'table') return;
  if (player.ui.shown) {   // a position of the review: read-only
    if (event.key === 'Escape') { event.preventDefault(); player.backToGame(); }
    return;
  }
  const names = player.pileOrder();
  const key = event.key;
  const ctrl = event.ctrlKey || event.metaKey;
  const current = names[player.ui.cursor % names.length];
  let handled = true;
  if (ctrl && key.toLowerCase() === 'z') player.act(event.shiftKey ? 'redo' : 'undo');
  else if (ctrl && key.toLowerCase() === 'y') player.act('redo');
  else if (ctrl || event.altKey) handled = false;
  else if (key === 'ArrowRight' || key === 'ArrowLeft') {
    player.ui.cursor = (player.ui.cursor + (key === 'ArrowRight' ? 1 : names.length - 1)) % names.length; player.render();
  } else if ((key === 'ArrowUp' || key === 'ArrowDown') && player.ui.selected && !player.ui.selected.single) {
    const pile = player.ui.play.piles[player.ui.selected.pile];
    const index = player.ui.selected.index + (key === 'ArrowUp' ? -1 : 1);
    if (index >= 0 && index < pile.length && pile[index] !== null) player.ui.selected.index = index;
    player.render();
  } else if (key === 'Enter') {
    if (current === 's') player.dealStock();
    else if (player.ui.selected) player.tryMove(player.ui.selected.pile, player.ui.selected.index, current);
    else {
      const pile = player.ui.play.piles[current];
      const top = pile.length - 1;
      // A pile none of whose cards can move says why; else its top card is picked up (the
      // arrows then take more of its run).
      if (pile.length && !legalMoves(player.ui.play).some((m) => m.src === current)) player.explain(current, top);
      else if (pile.length && pile[top] !== null) { player.ui.selected = {pile: current, index: top, single: false}; player.render(); }
    }
  } else if (key === 'Escape') { player.ui.selected = null; player.ui.hint = null; player.render(); }
  else if (key === 'f') {
    if (player.ui.selected) player.toFoundation(player.ui.selected.pile, player.ui.selected.index);
    else if (player.ui.play.piles[current].length) player.toFoundation(current, player.ui.play.piles[current].length - 1);
  } else if (key === 'd' || key === ' ') player.dealStock();
  else if (key === 'u') player.act('undo');
  else if (key === 'r') player.act('redo');
  else if (key === 'h') player.askHint();
  else if (key === 'a') player.autoPlay();
  else if (key === 'n') player.replaceGame(player.ui.play.game, player.ui.play.ruleset, null);
  else if (key === 'm') { $('movebox').focus(); }
  else if (key === '?') player.goTo('help');
  else handled = false;
  if (handled) event.preventDefault();
}
