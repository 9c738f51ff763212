// The player's session around the games: settings kept in the browser, the question before
// a started game is given up, and the list of games in progress to go back to.

import {formatClock} from './clock.js';
import {askFirst} from './confirm.js';
import {gameName} from './stats.js';

const $ = (id) => document.getElementById(id);

// -- settings ---------------------------------------------------------------------------------

/** The checkboxes kept between visits (id -> checked when never set), each under its own key.
 * The analysis mode is not among them: it is off whenever the page is opened. */
export const SETTINGS = {autoplay: false, chance: false, autofinish: false, animate: true, winnable: false};

/** The choices kept between visits (id of a select -> its value when never set). */
export const CHOICES = {level: 'any', startruleset: 'standard'};

const settingKey = (id) => `kibitz-setting-${id}`;

/** Whether setting ``id`` is on (what the player chose last, else its default). */
export function setting(id) { return $(id) ? $(id).checked : SETTINGS[id]; }

/** Sets every setting's checkbox as the player left it, and keeps each change. */
export function restoreSettings() {
  for (const [id, fallback] of Object.entries(SETTINGS)) {
    const box = $(id);
    if (!box) continue;
    let stored = null;
    try { stored = localStorage.getItem(settingKey(id)); } catch { /* storage refused: defaults */ }
    box.checked = stored === null ? fallback : stored === 'on';
    box.addEventListener('change', () => {
      try { localStorage.setItem(settingKey(id), box.checked ? 'on' : 'off'); } catch { /* not kept */ }
    });
  }
}

/** Sets every choice's select as the player left it, and keeps each change. */
export function restoreChoices() {
  for (const [id, fallback] of Object.entries(CHOICES)) {
    const select = $(id);
    if (!select) continue;
    let stored = null;
    try { stored = localStorage.getItem(settingKey(id)); } catch { /* storage refused: defaults */ }
    select.value = [...select.options].some((option) => option.value === stored) ? stored : fallback;
    select.addEventListener('change', () => {
      try { localStorage.setItem(settingKey(id), select.value); } catch { /* not kept */ }
    });
  }
}

/**
 * What a random deal is asked to be (the fields of a new game's request): ``level`` (easy,
 * medium, hard) unless Any, and ``winnable`` when only deals the solver proved winnable are wanted.
 */
export function dealChoice() {
  const choice = {};
  const level = $('level') ? $('level').value : 'any';
  if (level !== 'any') choice.level = level;
  if (setting('winnable')) choice.winnable = true;
  return choice;
}

/** The choice of a random deal in words: "an easy deal that can be won", or "" for any deal. */
export function choiceWords(choice) {
  if (!choice.level && !choice.winnable) return '';
  const article = choice.level === 'easy' ? 'an' : 'a';
  return `${choice.level ? `${article} ${choice.level}` : 'a'} deal${choice.winnable ? ' that can be won' : ''}`;
}

/** A finished rated deal's rating in words: "Rated easy: a strong player ... won it 2 of 3 tries; ...". */
export function ratingWords(rating) {
  if (!rating) return '';
  const verdict = {true: 'the solver proved it winnable', false: 'the solver proved it cannot be won'}[rating.winnable];
  return `Rated ${rating.level}: a strong player who sees only the table won it ${rating.wins} of ${rating.plays} ` +
    `tries${verdict ? `; ${verdict}` : ''}.`;
}

/**
 * Whether some rated deal of ``slug`` and ``ruleset`` meets ``choice`` (see :func:`dealChoice`),
 * from the counts of ``/api/games`` (``rated``: slug -> ruleset -> level -> {deals, winnable}).
 */
export function choiceMet(rated, slug, ruleset, choice) {
  if (!choice.level && !choice.winnable) return true;
  const levels = (rated[slug] || {})[ruleset] || {};
  const counts = choice.level ? [levels[choice.level]] : Object.values(levels);
  return counts.some((count) => count && (choice.winnable ? count.winnable : count.deals) > 0);
}

/**
 * Why no deal is dealt for ``choice``: the same words as the server's refusal
 * (kibitz.difficulty). ``levels``: the game and ruleset's counts from ``/api/games``, where a
 * level declared empty says why (``empty``: deals_rated, found, least).
 */
export function unmetWords(name, ruleset, choice, levels = {}) {
  const empty = choice.level ? (levels[choice.level] || {}).empty : null;
  if (empty) {
    return `no ${choice.level} deal of ${name} (${ruleset} rules): fewer than ${empty.least} of ` +
      `${empty.deals_rated.toLocaleString('en-US')} rated deals were ${choice.level}; choose another level, or Any`;
  }
  const reasons = Object.values(levels).map((count) => count && count.empty).filter(Boolean);
  if (!choice.level && reasons.length === 3) {
    const rated = Math.max(...reasons.map((reason) => reason.deals_rated));
    return `no rated deal of ${name} (${ruleset} rules): fewer than ${reasons[0].least} of ` +
      `${rated.toLocaleString('en-US')} rated deals were of any one level; choose another level, or Any`;
  }
  const kind = choice.level ? `${choice.level} rated` : 'rated';
  return `no ${kind} deal of ${name} (${ruleset} rules)${choice.winnable ? ' that the solver proved winnable' : ''} yet; ` +
    'choose another level, or Any';
}

/** A game's deal in words: "deal #42", or "a random deal" while its number is withheld; a deal
 * of the day says its date. */
export function dealWords(play) {
  const number = play.deal === null ? '' : `deal #${play.deal}`;
  if (play.daily) return `${number ? `${number}, ` : ''}the deal of the day (${play.daily})`;
  return number || 'a random deal';
}

// -- giving a game up -----------------------------------------------------------------------

/** Whether leaving ``play`` for a new deal gives up a game that would count (moves, no result; a
 * practice game never counts: it waits under Continue). */
export function wouldGiveUp(play) {
  return Boolean(play) && play.status === 'playing' && play.moves > 0 && !play.result && !play.practice;
}

/**
 * Asks the player (a dialog of the page, not the browser's) whether to give up ``play``, a
 * started game, for a new deal; resolves true for yes. Esc or "Keep playing" say no.
 */
export function askGiveUp(play) {
  return askFirst({dialog: 'giveup', text: `${play.name}, ${dealWords(play)}: ${play.moves} ` +
    `move${play.moves === 1 ? '' : 's'} played. Dealing anew gives this game up, and a game given up counts as ` +
    'lost in the statistics.'});
}

// -- games in progress ---------------------------------------------------------------------------

/** How long ago ``seconds`` (Unix time) was, in words. */
export function timeAgo(seconds, now = Date.now() / 1000) {
  const gone = Math.max(0, now - seconds);
  const units = [[86400, 'day'], [3600, 'hour'], [60, 'minute']];
  for (const [size, name] of units) {
    const count = Math.floor(gone / size);
    if (count >= 1) return `${count} ${name}${count === 1 ? '' : 's'} ago`;
  }
  return 'just now';
}

/**
 * Fills ``table`` with the games in progress (``/api/play``'s list): game, deal, moves, time of
 * active play, when last played, a button that resumes each (``resume(id)``) and one that gives
 * it up (``giveUp(game)``, which asks first). ``names``: slug -> name; ``current``: the id of the
 * game on the table.
 */
export function fillGamesInProgress(table, games, names, current, {resume, giveUp}) {
  table.replaceChildren();
  if (!games.length) {
    const row = table.insertRow();
    row.insertCell().textContent = 'No game in progress.';
    return;
  }
  const head = table.createTHead().insertRow();
  for (const title of ['game', 'deal', 'moves', 'time', 'last played', '']) {
    const cell = document.createElement('th');
    cell.textContent = title;
    cell.scope = 'col';
    if (title === 'time') cell.title = 'time of active play';
    head.append(cell);
  }
  const body = table.createTBody();
  for (const game of games) {
    const row = body.insertRow();
    row.dataset.id = game.id;
    const name = gameName(names, game.game, game.ruleset);
    const deal = (game.deal === null ? 'random' : `#${game.deal}`) + (game.practice ? ' (practice)' : '');
    for (const text of [name, deal, String(game.moves), formatClock(game.seconds)]) row.insertCell().textContent = text;
    const when = row.insertCell();
    when.textContent = timeAgo(game.updated);
    when.title = new Date(game.updated * 1000).toLocaleString();
    const button = document.createElement('button');
    button.type = 'button';
    const here = game.id === current;
    const what = `${game.practice ? 'practice of ' : ''}${name}, ${dealWords(game)}`;
    button.textContent = here ? 'On the table' : 'Resume';
    button.setAttribute('aria-label', `${here ? 'back to' : 'resume'} ${what}`);
    button.onclick = () => resume(game.id);
    const quit = document.createElement('button');
    quit.type = 'button';
    quit.className = 'giveup';
    quit.textContent = 'Give up';
    quit.setAttribute('aria-label', `give up ${what}`);
    quit.title = game.practice ? 'end this practice game (it never counts)' : 'give this game up: it counts as lost';
    quit.onclick = () => giveUp(game);
    const actions = row.insertCell();
    actions.className = 'links';
    actions.append(button, ' ', quit);
  }
}
