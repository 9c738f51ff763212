// The start page: every game with a picture of its opening table (today's deal, drawn by
// layout.js and table.js as on the table itself), its one-line description, its difficulty and
// its odds (/api/start, from docs/odds.md), a link to its rules, and buttons that start a new
// deal or the deal of the day.

import {GAP, layOut} from './layout.js';
import {drawTable} from './table.js';

// The room the picture is laid out in (as a window of this size would show the table), and
// the box it is shrunk into on the page.
const LAID_OUT = {width: 960, height: 640};
const PICTURE = {width: 264, height: 170};

const RULESET_WORDS = {standard: 'standard rules', pysolfc: "PySolFC's rules"};

/** A share (0..1) as a percentage with ``digits`` decimals. */
function percent(share, digits = 1) { return `${(share * 100).toFixed(digits)}%`; }

/** A count with thousands separators, as the docs write it: "2,100". */
function count(number) { return number.toLocaleString('en-US'); }

/**
 * The fair win rate in words, as docs/odds.md gives it (``fair.shown``): "89.8% (88.4%–91.0%, 2,100
 * deals)", or "2 of 10,000 deals (0.01%–0.07%)" when the interval reaches below 1%.
 */
export function fairWords(fair) {
  const shown = fair.shown;
  const interval = `${shown.low.toFixed(shown.places)}%–${shown.high.toFixed(shown.places)}%`;
  if (shown.places > 1) return `${count(fair.wins)} of ${count(fair.deals)} deals (${interval})`;
  return `${shown.share.toFixed(shown.places)}% (${interval}, ${count(fair.deals)} deals)`;
}

/** The thoughtful winnability in words: "97.96%–100% of deals", with the docs' two decimals. */
export function thoughtfulWords(thoughtful) {
  const high = thoughtful.high >= 1 ? '100%' : percent(thoughtful.high, 2);
  return `${percent(thoughtful.low, 2)}–${high}`;
}

/** What the levels mean, from their ``thresholds`` (shares of games won). */
function levelWords(thresholds) {
  return `how often a strong player who sees only the table wins: easy from ${percent(thresholds.easy, 0)}, ` +
    `hard under ${percent(thresholds.hard, 0)}`;
}

/** Draws the opening ``view`` of game ``info`` (its table declaration and piles) into ``box``, shrunk to fit. */
function drawPicture(box, info, view) {
  const inner = document.createElement('div');
  inner.className = 'minitable';
  const layout = layOut(info.table, view.piles, LAID_OUT.width, LAID_OUT.height);
  drawTable(inner, layout, {info, play: view, selected: null, hint: null, played: null, cursor: null,
    isMovable: () => false});
  // The picture ends where the cards and slots do (the room a pile may grow into is left out).
  const margin = layout.cardWidth * GAP;
  const ends = [...layout.slots, ...layout.cards];
  const width = Math.max(...ends.map((end) => end.x)) + layout.cardWidth + margin;
  const height = Math.max(...ends.map((end) => end.y)) + layout.cardHeight + margin;
  const scale = Math.min(PICTURE.width / width, PICTURE.height / height);
  inner.style.transform = `scale(${scale})`;
  box.style.width = `${width * scale}px`;
  box.style.height = `${height * scale}px`;
  box.replaceChildren(inner);
}

function element(tag, properties = {}, ...children) {
  const made = Object.assign(document.createElement(tag), properties);
  made.append(...children);
  return made;
}

/**
 * Fills ``container`` with a tile per game of ``start`` (/api/start) in ``ruleset``: ``games``
 * are the games' descriptions (/api/games: their tables); ``actions.newDeal(slug, ruleset)``
 * and ``actions.daily(slug, ruleset)`` start a game.
 */
export function fillStartPage(container, start, games, ruleset, actions) {
  const infos = Object.fromEntries(games.map((g) => [g.slug, g]));
  const tiles = start.games.map((entry) => {
    const info = infos[entry.slug];
    const {odds, opening} = entry.rulesets[ruleset];
    const heading = element('h3', {id: `start-${entry.slug}`, textContent: entry.name});
    const picture = element('div', {className: 'picture'});
    picture.setAttribute('role', 'img');
    picture.setAttribute('aria-label', `${entry.name}: the opening of today's deal`);
    const frame = element('div', {className: 'frame'});
    frame.setAttribute('aria-hidden', 'true');
    picture.append(frame);
    if (info) drawPicture(frame, info, opening);
    const level = element('span', {className: `level ${odds.level}`, textContent: odds.level});
    const difficulty = element('p', {className: 'difficulty', title: levelWords(start.thresholds)}, 'Difficulty: ', level);
    const fair = element('p', {className: 'fair'}, 'A strong player who sees only the table wins ',
      element('b', {textContent: fairWords(odds.fair)}), '.');
    const thoughtful = element('p', {className: 'thoughtful'}, 'Seeing every card, ',
      element('b', {textContent: thoughtfulWords(odds.thoughtful)}), ` of deals can be won (${count(odds.thoughtful.deals)} deals studied).`);
    const play = element('button', {type: 'button', className: 'newdeal', textContent: 'New deal',
      title: `a new random deal of ${entry.name} (${RULESET_WORDS[ruleset] || ruleset}), of the level chosen above the table`});
    play.onclick = () => actions.newDeal(entry.slug, ruleset);
    const daily = element('button', {type: 'button', className: 'daily', textContent: 'Deal of the day',
      title: `today's deal of ${entry.name}: the same for everyone today, and one the solver proved can be won`});
    daily.onclick = () => actions.daily(entry.slug, ruleset);
    const rules = element('a', {href: `#rules/${entry.slug}`, className: 'ruleslink', textContent: 'Rules'});
    rules.setAttribute('aria-label', `the rules of ${entry.name}`);
    const tile = element('article', {className: 'gametile'}, element('div', {className: 'tilehead'}, heading, rules), picture,
      element('p', {className: 'description', textContent: entry.description}), difficulty, fair, thoughtful,
      element('div', {className: 'buttons'}, play, daily));
    tile.dataset.game = entry.slug;
    tile.setAttribute('aria-labelledby', heading.id);
    return tile;
  });
  container.replaceChildren(...tiles);
}

/** Shows ``text`` at the top of the start page (a link that could not be opened), or nothing. */
export function startNotice(text) {
  const notice = document.getElementById('startnotice');
  notice.textContent = text || '';
  notice.hidden = !text;
}
