// The statistics page (from /api/stats): games won and played per game in a chart with its
// legend, the figures per game and ruleset, the recent games in a table (each opens its game),
// and the line the finished panel shows for a game.
import {formatClock} from './clock.js';

const RULES_WORDS = {standard: 'standard rules', pysolfc: "PySolFC's rules"};

function element(tag, text = '', className = '') {
  const made = document.createElement(tag);
  if (text) made.textContent = text;
  if (className) made.className = className;
  return made;
}

/** A game's full name, with its ruleset unless standard: "Duchess (PySolFC's rules)". */
export function gameName(names, slug, ruleset) {
  const name = names[slug] || slug;
  return ruleset === 'standard' ? name : `${name} (${RULES_WORDS[ruleset] || ruleset})`;
}

const percent = (row) => `${Math.round(row.win_rate * 100)}%`;

/** The statistics of one game and ruleset in a line: "Duchess: won 5 of 8 (63%), streak 3, best streak 4". */
export function statsLine(row, names) {
  return `${gameName(names, row.game, row.ruleset)}: won ${row.won} of ${row.played} (${percent(row)}), ` +
    `streak ${row.current_streak}, best streak ${row.best_streak}`;
}

/** The chart of games played and won per game and ruleset: a bar each, full names beside, and its legend. */
function fillChart(chart, rows, names) {
  chart.replaceChildren();
  if (!rows.length) return;
  const most = Math.max(1, ...rows.map((r) => r.played));
  const legend = element('p', '', 'legend');
  legend.append(element('span', '', 'key played'), ' games played ', element('span', '', 'key won'), ' games won');
  const bars = element('div', '', 'bars');
  for (const row of rows) {
    const name = gameName(names, row.game, row.ruleset);
    const label = element('span', name, 'barname');
    const track = element('span', '', 'bartrack');
    const played = element('span', '', 'bar played');
    played.style.width = `${row.played / most * 100}%`;
    const won = element('span', '', 'bar won');
    won.style.width = `${row.won / most * 100}%`;
    track.append(played, won);
    track.setAttribute('role', 'img');
    track.setAttribute('aria-label', `${name}: ${row.won} won of ${row.played} played`);
    bars.append(label, track, element('span', `${row.won} of ${row.played} won`, 'barvalue'));
  }
  chart.append(legend, bars);
}

const HEADS = [
  ['game'], ['rules'], ['played'], ['won'], ['win rate'], ['streak', 'games won in a row, up to the last one'],
  ['best streak'], ['best time', 'of the games won unassisted'], ['fewest moves', 'of the games won unassisted'],
  ['assisted', 'games in which the solver, which sees every card, was asked (analysis mode)'],
  ['reviewed', 'finished games reviewed'],
  ['accuracy', "the reviewed games' average accuracy: the share of the winning chance kept, 0 to 100"],
  ['blunders / game', 'blunders per reviewed game'],
  ['could have won', 'games lost though the review (the solver, seeing every card) found the deal could be won at the start'],
];

function headRow(table, heads) {
  const row = table.createTHead().insertRow();
  for (const [title, hint] of heads) {
    const cell = element('th', title);
    cell.scope = 'col';
    if (hint) cell.title = hint;
    row.append(cell);
  }
}

/** The figures per game and ruleset. */
function fillFigures(table, rows, names) {
  table.replaceChildren();
  if (!rows.length) {
    table.insertRow().insertCell().textContent = 'No finished games yet.';
    return;
  }
  headRow(table, HEADS);
  const body = table.createTBody();
  const time = (s) => s === null ? '–' : formatClock(s);
  for (const r of rows) {
    const row = body.insertRow();
    row.dataset.game = r.game;
    row.dataset.ruleset = r.ruleset;
    const values = [names[r.game] || r.game, r.ruleset, r.played, r.won, percent(r), r.current_streak, r.best_streak,
      time(r.best_time), r.fewest_moves ?? '–', r.assisted, r.reviewed, r.accuracy === null ? '–' : Math.round(r.accuracy),
      r.blunders_per_game === null ? '–' : r.blunders_per_game.toFixed(1), r.reviewed ? r.could_have_won : '–'];
    for (const value of values) row.insertCell().textContent = String(value);
    if (r.assisted) row.cells[9].classList.add('assisted');
  }
}

/** When a game ended, as a date and time of the player's own locale. */
function when(seconds) {
  return new Date(seconds * 1000).toLocaleString(undefined, {dateStyle: 'medium', timeStyle: 'short'});
}

/**
 * The recent games, newest first: date, game, deal, result, time, moves, assisted, and a link
 * to the game (its table at the end, where the review starts) while it is stored.
 * ``open(id, review)``: what the links do in this page.
 */
function fillRecent(table, recent, names, open) {
  table.replaceChildren();
  if (!recent.length) {
    table.insertRow().insertCell().textContent = 'None yet.';
    return;
  }
  headRow(table, [['date'], ['game'], ['deal'], ['result'], ['time', 'time of active play'], ['moves'],
    ['assisted', 'the solver, which sees every card, was asked about the game'], ['']]);
  const body = table.createTBody();
  for (const r of recent.slice().reverse()) {
    const row = body.insertRow();
    row.className = r.result;
    if (r.id) row.dataset.id = r.id;
    const name = gameName(names, r.game, r.ruleset);
    const result = r.abandoned ? 'given up (lost)' : r.result;
    const deal = `#${r.deal}${r.daily ? ', deal of the day' : r.random_deal ? ', random' : ''}`;
    for (const text of [when(r.finished), name, deal]) row.insertCell().textContent = text;
    const outcome = row.insertCell();
    outcome.append(element('span', '', `key ${r.result}`), ` ${result}`);
    for (const text of [formatClock(r.seconds), String(r.moves)]) row.insertCell().textContent = text;
    const assisted = row.insertCell();
    assisted.textContent = r.assisted ? 'assisted' : '–';
    if (r.assisted) { assisted.className = 'assisted'; assisted.title = 'the solver, which sees every card, was asked'; }
    const links = row.insertCell();
    links.className = 'links';
    if (!r.id) {
      links.textContent = 'result only';
      links.title = 'a finished game is kept some days after its last move; its result stays';
      continue;
    }
    const show = element('a', 'Show');
    show.href = `/?id=${encodeURIComponent(r.id)}`;
    show.setAttribute('aria-label', `show ${name}, deal #${r.deal}, on the table`);
    show.onclick = (event) => { event.preventDefault(); open(r.id, false); };
    const review = element('button', 'Review');
    review.type = 'button';
    review.setAttribute('aria-label', `review ${name}, deal #${r.deal}`);
    review.onclick = () => open(r.id, true);
    links.append(show, ' ', review);
  }
}

/**
 * Fills the statistics page with ``data`` (/api/stats; the deal of the day's block is filled
 * on its own); ``names``: slug -> game name; ``open(id, review)`` shows a recent game.
 */
export function fillStatistics(data, names, open) {
  const $ = (id) => document.getElementById(id);
  fillChart($('chart'), data.stats, names);
  fillFigures($('statstable'), data.stats, names);
  fillRecent($('recent'), data.recent, names, open);
  $('resetstats').disabled = !data.recent.length && !data.stats.length;
}
