// Draws the table in the page from a layout (layout.js): slots, labels, cards and counts.

import {cardBack, cardFace, cardName, suitShape} from './cards.js';

/** What an empty slot shows: a foundation's first rank and suit, the stock's redeal mark. */
function slotContent(spec, play) {
  if (spec.kind === 'foundation' && spec.foundation) {
    const f = spec.foundation;
    const first = f.first || play.base || '';
    return `<span>${first}</span>` + `<svg viewBox="0 0 100 100">${suitShape(f.suit, 0, 0, 100, '#fff')}</svg>` +
      (f.step < 0 ? '<span>↓</span>' : '');
  }
  if (spec.kind === 'stock') return play.legal.includes('deal') ? '↻' : '×';
  return '';
}

/**
 * Draws ``layout`` into ``element``. ``marks``: the game's description (``info``) and view
 * (``play``), the picked-up card (``selected``), the hinted move (``hint``), the keyboard
 * cursor's pile (``cursor``) and ``isMovable(pile, index)``.
 * Returns each pile's box on the table, for dropping cards on it.
 */
export function drawTable(element, layout, marks) {
  const {info, play, selected, hint, cursor, isMovable} = marks;
  const {cardWidth: width, cardHeight: height} = layout;
  const parts = [], cards = [], geometry = {};
  for (const slot of layout.slots) {
    const spec = info.piles.find((p) => p.name === slot.pile);
    const name = slot.pile;
    const cursorClass = name === cursor ? ' cursor' : '';
    const hinted = hint && hint.dst === name ? ' hinted' : '';
    const labelAbove = slot.fan === 'down' ? ' label-above' : '';  // cards fan over the label's usual place
    parts.push(`<div class="slot ${spec.kind}${cursorClass}${hinted}${labelAbove}" data-pile="${name}" ` +
      `style="left:${slot.x}px;top:${slot.y}px;width:${width}px;height:${height}px">${slotContent(spec, play)}` +
      `<span class="label">${name}</span></div>`);
    if (slot.fan === 'none' && slot.count > 1) {
      cards.push(`<span class="count" style="left:${slot.x + width - 14}px;top:${slot.y - 8}px">${slot.count}</span>`);
    }
    geometry[name] = {x: slot.box.left, y: slot.box.top, right: slot.box.right, bottom: slot.box.bottom};
  }
  for (const card of layout.cards) {
    const {pile: name, index, code} = card;
    const spec = info.piles.find((p) => p.name === name);
    const length = play.piles[name].length;
    const movable = code !== null && spec.kind !== 'stock' && isMovable(name, index);
    const top = index === length - 1;
    const isSelected = selected && selected.pile === name && index >= selected.index &&
      (selected.single ? index === selected.index : true);
    const isHinted = hint && hint.src === name && (hint.pos === null ? index >= length - hint.size : index === hint.pos);
    const classes = ['card', movable || (top && code !== null && spec.kind !== 'stock') ? 'movable' : '',
      isSelected ? 'selected' : '', isHinted ? 'hinted' : ''].join(' ');
    cards.push(`<div class="${classes}" data-pile="${name}" data-index="${index}" style="left:${card.x}px;top:${card.y}px;` +
      `width:${width}px;height:${height}px;z-index:${card.z}" title="${code ? cardName(code) : ''}">` +
      `${code ? cardFace(code) : cardBack()}</div>`);
  }
  element.style.width = `${layout.width}px`;
  element.style.height = `${layout.height}px`;
  element.innerHTML = parts.join('') + cards.join('');
  return geometry;
}
