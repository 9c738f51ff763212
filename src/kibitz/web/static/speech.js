// Moves in words, for the live region that tells a player what happened ("queen of hearts
// from tableau 3 to foundation 7"). A card is named only when the player could see it: a
// face-down card stays "a face-down card". Pure functions of a play payload; no DOM.

import {cardName} from './cards.js';
import {parseMove} from './moves.js';

const PILE_WORDS = {s: 'the stock', w: 'the waste', f: 'foundation', t: 'tableau', r: 'reserve'};

/** A pile's name in words: ``t3`` -> "tableau 3", ``s`` -> "the stock". */
export function pileWords(name) {
  const kind = PILE_WORDS[name[0]] || name;
  return name.length > 1 ? `${kind} ${name.slice(1)}` : kind;
}

/** A card as the player may hear it: its name when face up, else "a face-down card". */
export function cardWords(code) { return code ? cardName(code) : 'a face-down card'; }

/** Move ``text`` in words, read in ``before`` (the payload the move was played from). */
export function describeMove(before, text) {
  const move = parseMove(text);
  if (!move) return text;
  if (move.deal) return before.piles.s.length ? 'dealt from the stock' : 'redealt';
  const cards = before.piles[move.src] || [];
  const index = move.pos !== null ? move.pos : cards.length - move.size;
  const moving = cards.length - index;
  const card = cardWords(cards[index]);
  const what = moving > 1 ? `${card} and the ${moving - 1} card${moving > 2 ? 's' : ''} on it` : card;
  return `${what} from ${pileWords(move.src)} to ${pileWords(move.dst)}`;
}

/** What a request did in words: ``played`` the moves it played, the first of them the one the
 * player asked for when ``asked``; the others go to the foundations (auto-play, finish). */
export function describePlayed(before, played, asked) {
  const parts = [];
  const rest = asked ? played.slice(1) : played;
  if (asked && played.length) parts.push(describeMove(before, played[0]));
  if (rest.length) parts.push(`${rest.length} card${rest.length === 1 ? '' : 's'} played to the foundations`);
  return parts.join('; then ');
}
