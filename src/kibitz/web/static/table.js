// Draws the table in the page from a layout (layout.js): slots with their names and counts,
// and the cards, each an element named for players and tests alike ("queen of hearts").

import {cardBack, cardFace, cardName, suitShape} from './cards.js';
import {rankText} from './speech.js';

const px = (value) => `${Math.round(value * 100) / 100}px`;

/** What an empty slot shows: a foundation's first rank and suit, the stock's redeal mark. */
function slotContent(spec, play) {
  if (spec.kind === 'foundation' && spec.foundation) {
    const f = spec.foundation;
    const first = rankText(f.first || play.base || '');
    return `<span>${first}</span>` + `<svg viewBox="0 0 100 100">${suitShape(f.suit, 0, 0, 100, '#fff')}</svg>` +
      (f.step < 0 ? '<span>↓</span>' : '');
  }
  if (spec.kind === 'stock') return play.legal.includes('deal') ? '↻' : '×';
  return '';
}

/** Whether the slot of pile ``spec`` is marked for ``hint``: the target of a move, or the stock of a deal. */
function hintsPile(hint, spec) {
  return Boolean(hint) && (hint.deal ? spec.kind === 'stock' : hint.dst === spec.name);
}

/** Whether the card at ``index`` of a pile of ``length`` cards (of ``spec``) moves in ``move``. */
function movesCard(move, spec, index, length) {
  return Boolean(move) && (move.deal ? spec.kind === 'stock' && index === length - 1
    : move.src === spec.name && (move.pos === null ? index >= length - move.size : index === move.pos));
}

/**
 * Draws ``layout`` into ``element``. ``marks``: the game's description (``info``) and view
 * (``play``), the picked-up card (``selected``), the hinted move (``hint``; in a review, the
 * better move), the move played there in a review (``played``), the keyboard cursor's pile
 * (``cursor``) and ``isMovable(pile, index)``.
 * Returns each pile's box on the table, for dropping cards on it.
 */
export function drawTable(element, layout, marks) {
  const {info, play, selected, hint, played, cursor, isMovable} = marks;
  const specs = Object.fromEntries(info.piles.map((p) => [p.name, p]));
  const size = `width:${px(layout.cardWidth)};height:${px(layout.cardHeight)}`;
  const parts = [], geometry = {};
  for (const slot of layout.slots) {
    const name = slot.pile, spec = specs[name];
    const classes = ['slot', spec.kind, name === cursor ? 'cursor' : '', hintsPile(hint, spec) ? 'hinted' : '',
      hintsPile(played, spec) ? 'played' : ''];
    // The band above the slot holds the pile's name, and the count of a squared pile.
    const count = slot.fan === 'none' && slot.count > 1 ? `<span class="count">${slot.count}</span>` : '';
    parts.push(`<div class="${classes.join(' ').trim()}" data-pile="${name}" style="left:${px(slot.x)};top:${px(slot.y)};` +
      `${size}">${slotContent(spec, play)}<span class="label">${name}</span>${count}</div>`);
    geometry[name] = {x: slot.box.left, y: slot.box.top, right: slot.box.right, bottom: slot.box.bottom};
  }
  for (const card of layout.cards) {
    const {pile: name, index, code} = card;
    const spec = specs[name];
    const length = play.piles[name].length;
    const faceUp = code !== null && spec.kind !== 'stock';
    const movable = faceUp && (index === length - 1 || isMovable(name, index));
    const isSelected = selected && selected.pile === name && index >= selected.index &&
      (selected.single ? index === selected.index : true);
    const classes = ['card', movable ? 'movable' : '', isSelected ? 'selected' : '',
      movesCard(hint, spec, index, length) ? 'hinted' : '', movesCard(played, spec, index, length) ? 'played' : ''];
    parts.push(`<div class="${classes.join(' ').trim()}" data-pile="${name}" data-index="${index}" ` +
      `style="left:${px(card.x)};top:${px(card.y)};${size};z-index:${card.z}" title="${code ? cardName(code) : ''}">` +
      `${code ? cardFace(code, card.fan) : cardBack()}</div>`);
  }
  element.style.width = px(layout.width);
  element.style.height = px(layout.height);
  element.innerHTML = parts.join('');
  return geometry;
}
