// The kibitz browser player's controller: talks to the server, reads the player's input and
// shows the pages; layout.js and table.js draw the table, moves.js reads the legal moves.
import {useFourColours} from './cards.js';
import {layOut} from './layout.js';
import {RoundSize} from './sizing.js';
import {bindMenu} from './menu.js';
import {markTargets} from './targets.js';
import {moveText, movesOf, parseMove} from './moves.js';
import {onKey, onPointerDown, onPointerMove, onPointerUp} from './input.js';
import {drawTable} from './table.js';
import {ActiveClock, formatClock} from './clock.js';
import {celebrate, glide, prefersReducedMotion, remember, skip} from './motion.js';
import {ANALYSIS_LABEL, hintOf, verdictOf} from './assists.js';
import {askGiveUp, choiceMet, choiceWords, dealChoice, dealWords, fillGamesInProgress, ratingWords, restoreChoices,
  restoreSettings, setting, unmetWords, wouldGiveUp} from './session.js';
import {pileWords, playedWords, rankText} from './speech.js';
import {ReviewPanel} from './review.js';
import {fillStartPage, startNotice} from './start.js';
import {fillDailyStats} from './dailystats.js';
import {askFirst} from './confirm.js';
import {fillStatistics, statsLine} from './stats.js';
import {downloadRecord, openedWords, openingBody, whyNotSaved} from './saving.js';

const $ = (id) => document.getElementById(id);
const ui = {
  games: [], info: null, play: null, selected: null, cursor: 0, hint: null,
  geometry: {}, pending: false, drag: null,
  size: new RoundSize(),      // the card size, kept for a round (sizing.js)
  clock: new ActiveClock(),   // seconds of active play (clock.js)
  page: 'table',              // the page shown: table, help, stats, rules or continue
  glide: null,                // for the next drawing: where the cards showed before, and where new ones come from
  restoring: false,           // showing a game because the player went back or forward to it
  handled: null,              // the address the pages were last shown for
  finishRefused: null,        // the position (id:moves) where the server refused to finish
  shown: null,                // a position of the game shown read-only by the review: {payload, played, best}
};

// -- talking to the referee -----------------------------------------------------------

async function api(path, body) {
  const options = body === undefined ? {} : {method: 'POST', headers: {'Content-Type': 'application/json'},
    body: JSON.stringify(body)};
  const response = await fetch(path, options);
  let data;
  try { data = await response.json(); } catch { data = {error: `the server answered ${response.status}`}; }
  if (!response.ok) { const error = new Error(data.error || 'request refused'); error.status = response.status; throw error; }
  return data;
}

function say(text, kind = '') {
  const message = $('message');
  message.textContent = text;
  message.className = kind;
}

/** The clock field that every request about the game carries: seconds of active play. */
function clockNow() { return Math.round(ui.clock.seconds() * 10) / 10; }

async function act(path, body = {}) {
  if (!ui.play || ui.pending) return null;
  ui.pending = true;
  try {
    const before = ui.play;
    const data = await api(`/api/play/${ui.play.id}/${path}`, {...body, expected_moves: ui.play.moves, clock: clockNow()});
    show(data);
    announce(path, before, data);
    return data;
  } catch (error) {
    if (error.status === 409) await reload().catch(() => {});
    say(error.message, 'error');
    render();
    return null;
  } finally { ui.pending = false; }
}

async function reload() {
  if (ui.play) show(await api(`/api/play/${ui.play.id}`));
}

function playMove(text) {
  ui.selected = null;
  say('');
  return act('move', {move: text, auto: setting('autoplay')});
}

/** Tells the live region what a request did ("queen of hearts from tableau 3 to foundation 7"). */
function announce(path, before, data) {
  const words = {undo: 'move undone', redo: 'move played again', restart: 'back to the opening'};
  let text = words[path];
  if (data.played) text = playedWords(data);
  if (!text) return;
  text += `; ${data.moves} move${data.moves === 1 ? '' : 's'}`;
  if (data.status === 'won') text += '; the game is won';
  else if (data.status === 'over') text += '; no move is left';
  $('announce').textContent = text;
}

/** Says in words why the card at ``index`` of ``pile`` cannot move (the server's reason). */
async function explain(pile, index) {
  const id = ui.play.id, moves = ui.play.moves;
  try {
    const query = new URLSearchParams({pile, index});
    const data = await api(`/api/play/${id}/why?${query}`);
    if (ui.play.id === id && ui.play.moves === moves) say(data.reason, 'error');
  } catch (error) {
    if (ui.play.id === id && ui.play.moves === moves) say(error.status === 404 ? 'that card cannot move now' : error.message, 'error');
  }
}

// -- moves ------------------------------------------------------------------------------

function tryMove(pile, index, target) {
  if (target === pile) { render(); return; }
  const fit = movesOf(ui.play, pile, index).find((m) => m.dst === target);
  playMove(fit ? fit.text : moveText(ui.play, pile, index, target));
}

function toFoundation(pile, index) {
  const fit = movesOf(ui.play, pile, index).find((m) => m.dst[0] === 'f');
  if (fit) playMove(fit.text);
  else playMove(index === ui.play.piles[pile].length - 1 ? `${pile}>f` : `${pile}#${index}>f`);
}

/** Plays the safe moves to the foundations, and says which cards went there. */
async function autoPlay() {
  const data = await act('autoplay');
  if (data) say(data.played.length ? `auto-played ${data.played_words}` : 'no card can safely go to the foundations now');
}

/** Deals (or redeals); where the rules refuse, the server says why, as it does for any move. */
function dealStock() { playMove('deal'); }

// -- drawing the table -------------------------------------------------------------------

/** The piles in drawing order, which is also the keyboard cursor's order. */
function pileOrder() { return ui.info.table.places.map((place) => place.pile); }

function render() {
  const table = $('table');
  if (!ui.play || !ui.info) { table.innerHTML = ''; return; }
  updateInfo();   // first: the lines above the table may wrap, which changes the room left for it
  const felt = $('felt');
  if ($('play').hidden) return;
  const names = pileOrder();
  const shown = ui.shown;   // a position of the review, read-only, or the game as it stands
  const play = shown ? shown.payload : ui.play;
  table.classList.toggle('readonly', Boolean(shown));
  const size = ui.size.cardWidth(ui.info.table, play, felt.clientWidth, felt.clientHeight);
  const layout = layOut(ui.info.table, play.piles, felt.clientWidth, felt.clientHeight, size, ui.size.longest);
  // The cards glide from where they showed before this drawing: after a change of the game
  // (remembered by show()), or from mid-flight when the table is drawn again meanwhile.
  const before = ui.glide ? ui.glide.before : table.getAnimations({subtree: true}).length ? remember(table) : null;
  const from = ui.glide ? ui.glide.from : null;
  ui.glide = null;
  ui.geometry = drawTable(table, layout, {
    info: ui.info, play, selected: shown ? null : ui.selected, hint: shown ? shown.best : ui.hint,
    played: shown ? shown.played : null, cursor: names[ui.cursor % names.length],
    isMovable: (pile, index) => !shown && movesOf(ui.play, pile, index).length > 0,
  });
  drawCursor(table, names[ui.cursor % names.length]);
  const targets = markTargets(table, ui.geometry, ui.play, shown ? null : ui.selected);
  if (targets.length) {
    const words = targets.map((name) => pileWords(ui.info, name)).join(', ');
    table.setAttribute('aria-label', `${table.getAttribute('aria-label')}; it may go to ${words}`);
  }
  if (shown) {
    table.setAttribute('aria-label', `card table ${shown.payload.moves ? `after move ${shown.payload.moves}` : 'at the opening'}, ` +
      'read-only (the review)');
  }
  if (before && isAnimated()) {
    // Measured once the page's other changes of this moment are made (the move count's
    // first): the movement never delays them, and still starts before the next paint.
    queueMicrotask(() => {
      const stock = table.querySelector('.slot[data-pile="s"]');
      glide(table, before, from === 'stock' ? stock && stock.getBoundingClientRect() : from);
    });
  }
}

/** Whether cards move: the player's setting, unless the system asks for reduced motion. */
function isAnimated() { return setting('animate') && !prefersReducedMotion(); }

/**
 * The keyboard cursor: a frame around the whole pile under it, above the cards (the slot's
 * own mark lies under them) and unlike the hint's highlight; shown while the table has the
 * keyboard's focus.
 */
function drawCursor(table, pile) {
  const box = ui.geometry[pile];
  if (!box) return;
  const mark = document.createElement('div');
  mark.className = 'cursor-mark';
  mark.setAttribute('aria-hidden', 'true');
  Object.assign(mark.style, {left: `${box.x}px`, top: `${box.y}px`, width: `${box.right - box.x}px`, height: `${box.bottom - box.y}px`});
  table.append(mark);
  const holding = ui.selected ? `, holding a card of ${pileWords(ui.info, ui.selected.pile)}` : '';
  table.setAttribute('aria-label', `card table; cursor on ${pileWords(ui.info, pile)}${holding}`);
}

function updateInfo() {
  const p = ui.play;
  $('title').textContent = `${p.name}${p.ruleset === 'standard' ? '' : ` (${p.ruleset} rules)`}`;
  // A random deal's number is withheld until the game ends: no number, and no link to it.
  const share = $('share');
  if (p.deal === null) {
    share.textContent = p.daily ? `deal of the day, ${p.daily}` : 'random deal';
    share.removeAttribute('href');
    share.setAttribute('aria-disabled', 'true');
    share.title = 'the number of a random deal is shown when the game ends (it tells where every card lies)';
  } else {
    share.textContent = `deal #${p.deal}`;
    share.href = shareLink();
    share.removeAttribute('aria-disabled');
    share.title = 'a link to this deal';
  }
  $('assisted').hidden = !p.assisted;
  $('practice').hidden = !p.practice;
  $('reviewbutton').disabled = !p.moves;
  const parts = [`${p.moves} move${p.moves === 1 ? '' : 's'}`];
  if (ui.info.redeals) parts.push(`round ${p.round}, ${p.redeals_left} redeal${p.redeals_left === 1 ? '' : 's'} left`);
  if (p.base) parts.push(`base ${rankText(p.base)}`);
  else if (ui.info.piles.some((pile) => pile.foundation && pile.foundation.first === null)) parts.push('base not chosen yet');
  parts.push(`stock ${p.piles.s.length}`);
  parts.push(clock());
  $('counts').textContent = parts.join(' · ');
  $('undo').disabled = !p.can_undo; $('redo').disabled = !p.can_redo; $('restart').disabled = !p.can_undo;
}

function clock() { return formatClock(ui.clock.seconds()); }

/** The clock runs while the game is being played in sight: its table shown in a visible tab. */
function updateClock() {
  ui.clock.run(Boolean(ui.play) && ui.play.status === 'playing' && document.visibilityState === 'visible' &&
    (ui.page === 'table' || ui.page === 'help'));
}

/** Sends ``seconds``, the clock of ``play``, to the server on its own (the page is hidden or left). */
function reportClock(play = ui.play, seconds = clockNow()) {
  if (!play || play.status !== 'playing') return;
  // keepalive: the request outlives a page being closed (sendBeacon cannot send JSON).
  fetch(`/api/play/${play.id}/clock`, {method: 'POST', keepalive: true, headers: {'Content-Type': 'application/json'},
    body: JSON.stringify({clock: seconds})}).catch(() => {});
}

function shareLink() {
  const p = ui.play;
  const params = new URLSearchParams({game: p.game, deal: p.deal, ruleset: p.ruleset});
  return `${location.origin}/?${params}`;
}

/** The game's address: its game, deal (only once it may be shown), ruleset and id. */
function gameQuery(data) {
  const params = {game: data.game};
  if (data.deal !== null) params.deal = data.deal;
  return new URLSearchParams({...params, ruleset: data.ruleset, id: data.id});
}

/**
 * Shows game ``data`` (a view payload). Another game than the one shown is a new entry of the
 * browser's history, unless the player went back or forward to it; ``dealt``: a new deal the
 * player asked for, whose cards fly out of the stock.
 */
function show(data, dealt = false) {
  const previous = ui.play;
  const other = !previous || previous.id !== data.id;
  const changed = other || previous.moves !== data.moves || previous.round !== data.round;
  if (other && previous) reportClock(previous);
  if (other) { ui.shown = null; review.close(); } else if (changed && ui.shown) review.leavePosition();
  const table = $('table');
  if (isAnimated() && ui.page === 'table' && (dealt || (!other && changed))) {
    const stockBefore = !other && data.piles.s.length < previous.piles.s.length && table.querySelector('.slot[data-pile="s"]');
    ui.glide = {before: other ? [] : remember(table), from: dealt ? 'stock' : stockBefore ? stockBefore.getBoundingClientRect() : null};
  }
  ui.play = data;
  ui.info = ui.games.find((g) => g.slug === data.game);
  ui.clock.set(data.elapsed);
  ui.hint = null;
  // What was said of the position before (a refusal, a hint) does not belong to this one.
  if (changed) say('');
  localStorage.setItem('kibitz-last', data.id);
  const url = new URL(location.href);
  url.search = gameQuery(data);
  if (other && previous && !ui.restoring) {
    url.hash = '';
    history.pushState(null, '', url);
  } else history.replaceState(history.state, '', url);
  ui.handled = location.href;
  if (other && previous) route();
  else render();
  updateClock();
  $('finish').hidden = !(data.can_finish && data.status === 'playing');
  // The finished panel belongs to the game that has just ended in front of the player: not
  // to a finished game opened again, nor to any other page.
  if (!other && previous.status === 'playing' && data.status !== 'playing') {
    showOverlay();
    if (data.status === 'won' && isAnimated()) celebrate();
  } else if (other || data.status === 'playing') $('overlay').hidden = true;
  if (other && data.status !== 'playing') {
    say(data.status === 'won' ? `this game is won, in ${data.moves} moves (${clock()})` : 'this game is over: no move is left');
  } else if (other && data.result) {
    say(data.practice ? 'this practice game has ended (practice never counts)' : 'this game was given up: it counts as lost');
  }
  else if (other && previous) say(`${data.name}, ${dealWords(data)}`);
  if (changed && $('chance').checked) checkChance();
  else if (!$('chance').checked) showVerdict('');
  if (data.can_finish && data.status === 'playing' && setting('autofinish') && ui.finishRefused !== positionKey()) {
    setTimeout(finish, 0);
  }
}

function positionKey() { return ui.play && `${ui.play.id}:${ui.play.moves}`; }

/** Plays the certain ending: every card in sight and only moves to the foundations left. */
async function finish() {
  if (!ui.play || !ui.play.can_finish || ui.play.status !== 'playing') return;
  if (ui.pending) { setTimeout(finish, 50); return; }
  const key = positionKey();
  // Refused (the server sees it otherwise): not asked again on its own for this position.
  if (!await act('finish')) ui.finishRefused = key;
}

function showOverlay() {
  const p = ui.play;
  $('overtitle').textContent = p.status === 'won' ? 'Won!' : 'No moves left';
  const rating = p.rating ? ` ${ratingWords(p.rating)}` : '';
  $('overtext').textContent = (p.status === 'won'
    ? `${p.name} ${dealWords(p)} won in ${p.moves} moves (${clock()}).`
    : `${p.name} ${dealWords(p)}: the game is over. Undo to try another way, or start again.`) + rating +
    (p.practice ? ' A practice game: it does not count in the statistics.' : '');
  $('overundo').hidden = p.status === 'won';
  $('overstats').textContent = '';
  $('overlay').hidden = false;
  if (!p.practice) showOverlayStats(p).catch(() => {});
}

/** The finished panel's line of the game's statistics, its streak with it (the game just counted). */
async function showOverlayStats(play) {
  const data = await api('/api/stats');
  const row = data.stats.find((r) => r.game === play.game && r.ruleset === play.ruleset);
  if (row && ui.play && ui.play.id === play.id && !$('overlay').hidden) $('overstats').textContent = `${statsLine(row, gameNames())}.`;
}

/** Each game's name, by its slug. */
function gameNames() { return Object.fromEntries(ui.games.map((g) => [g.slug, g.name])); }

/** Whether the analysis mode is on: Hint and the chance to win ask the solver, which sees every card. */
function isAnalysis() { return $('analysis').checked; }

/** Shows a verdict beside the toolbar: ``kind`` yes, no, analysis or none; ``title`` says what it is. */
function showVerdict(text, kind = '', title = '') {
  const verdict = $('verdict');
  verdict.textContent = text;
  verdict.className = kind;
  if (title) verdict.title = title; else verdict.removeAttribute('title');
}

/** Marks the game on the table assisted once the solver has answered about it. */
function noteAssisted(data) {
  if (data.assisted && ui.play && !ui.play.assisted) { ui.play.assisted = true; updateInfo(); }
}

async function checkChance() {
  const analysis = isAnalysis();
  showVerdict(analysis ? `${ANALYSIS_LABEL}: thinking…` : 'chance to win: thinking…', analysis ? 'analysis' : '');
  const id = ui.play.id, moves = ui.play.moves;
  try {
    const data = await api(`/api/play/${id}/winnable`, {seconds: 3, peek: analysis, expected_moves: moves, clock: clockNow()});
    if (!ui.play || ui.play.id !== id || ui.play.moves !== moves) return;
    noteAssisted(data);
    const verdict = verdictOf(data);
    showVerdict(verdict.text, verdict.kind, verdict.title);
  } catch (error) { showVerdict(''); }
}

async function askHint() {
  if (!ui.play || ui.play.status !== 'playing') return;
  const analysis = isAnalysis();
  say(analysis ? `${ANALYSIS_LABEL}: looking for a winning line…` : 'thinking about what you can see…', analysis ? 'analysis' : 'hint');
  const id = ui.play.id, moves = ui.play.moves;
  try {
    const data = await api(`/api/play/${id}/hint`, {seconds: 3, peek: analysis, expected_moves: moves, clock: clockNow()});
    if (ui.play.id !== id || ui.play.moves !== moves) return;
    noteAssisted(data);
    ui.hint = data.hint ? parseMove(data.hint) : null;
    $('table').classList.toggle('analysis', data.peek);
    const answer = hintOf(data);
    say(answer.text, answer.kind);
    render();
  } catch (error) { say(error.message, 'error'); }
}

// -- the review ------------------------------------------------------------------------------

const review = new ReviewPanel({
  body: (play) => ({expected_moves: play.moves, clock: play === ui.play ? clockNow() : undefined}),
  showPosition: (payload, marks) => {
    ui.shown = {payload, played: marks.played ? parseMove(marks.played) : null, best: marks.best ? parseMove(marks.best) : null};
    ui.selected = null;
    render();
  },
  clearPosition: () => { if (ui.shown) { ui.shown = null; render(); } },
  practise,
  noteAssisted,
  closed: () => { $('reviewbutton').focus(); },
});

/** Reviews the game on the table as it stands (with the analysis mode on, the solver too: assisted). */
function openReview() {
  if (!ui.play || !ui.play.moves) return;
  const peek = isAnalysis() && ui.play.status === 'playing' && !ui.play.result;
  review.open(ui.play, peek);
}

/** Starts a practice game of ``play``'s deal from the position after its first ``moves`` moves. */
async function practise(play, moves) {
  try {
    const data = await api(`/api/play/${play.id}/practice`, {moves});
    show(data);
    say(`practice: ${data.name}, ${dealWords(data)} from ${moves ? `move ${moves}` : 'the opening'}; it never counts`);
    $('table').focus();
  } catch (error) { say(error.message, 'error'); }
}

// -- the start page and the deal of the day ----------------------------------------------------

/** The start page: every game with its picture, odds and rules, in the ruleset chosen there. */
async function showStart() {
  const data = await api('/api/start');
  $('startdate').textContent = `Today's deals: ${data.date}`;
  fillStartPage($('startgames'), data, ui.games, $('startruleset').value, {newDeal: startNewDeal, daily: startDaily});
}

/** After a game was asked for from the start page: its table, or the reason it was not dealt. */
function leaveStart(before) {
  if (ui.play && ui.play.id !== before) { if (ui.page !== 'table') goToGame(); }
  else if (ui.page === 'start') startNotice($('message').textContent);
}

/** A new random deal of ``slug`` from the start page (the level chosen above the table). */
async function startNewDeal(slug, ruleset) {
  const before = ui.play && ui.play.id;
  await replaceGame(slug, ruleset, null);
  leaveStart(before);
}

/**
 * The deal of the day of ``slug`` in ``ruleset``: its game in progress, else a new one (a
 * started game of another deal is given up only once the player says yes, as for a new deal).
 */
async function startDaily(slug, ruleset) {
  if (ui.pending) return;
  const play = ui.play, before = play && play.id;
  const same = play && play.daily && play.game === slug && play.ruleset === ruleset && !play.result;
  if (!same && wouldGiveUp(play)) {
    if (!await askGiveUp(play)) { say('the game goes on'); return; }
    try {
      await api(`/api/play/${play.id}/abandon`, {clock: clockNow()});
    } catch (error) { say(error.message, 'error'); startNotice(error.message); return; }
  }
  try {
    const data = await api(`/api/games/${slug}/daily`, {ruleset, ...(before ? {leaving: before} : {})});
    show(data, data.id !== before);
    say(`${data.name}: ${dealWords(data)}${data.moves ? `, ${data.moves} moves played` : ''}`);
    $('overlay').hidden = true;
    $('game').value = data.game; $('ruleset').value = data.ruleset;
    if (ui.page !== 'table') goToGame();
  } catch (error) {
    say(error.message, 'error');
    if (ui.page === 'start') startNotice(error.message);
  }
}

/** The deal of the day's block of the statistics: its streaks. */
async function showDailyStats() {
  const data = await api('/api/stats');
  fillDailyStats($('dailystats'), data.daily, Object.fromEntries(ui.games.map((g) => [g.slug, g.name])));
}

// -- games, statistics and rules --------------------------------------------------------------

/**
 * Starts a new game of ``slug``: deal number ``deal``, else a random deal meeting the choice of
 * level and winnability (``choose``: false for any random deal). Resolves to null once dealt,
 * else to the server's refusal.
 */
async function newGame(slug, ruleset, deal, dealt = false, choose = true) {
  try {
    const choice = deal || !choose ? {} : dealChoice();
    const body = {ruleset, ...choice};
    if (deal) body.deal = deal;
    if (ui.play) body.leaving = ui.play.id;   // not kept if no move was played in it
    show(await api(`/api/games/${slug}/new`, body), dealt);
    const asked = choiceWords(choice);
    say(`new game: ${ui.play.name}, ${dealWords(ui.play)}${asked ? ` (${asked})` : ''}`);
    $('overlay').hidden = true;
    return null;
  } catch (error) { say(error.message, 'error'); return error.message; }
}

/**
 * A new deal the player asked for (New, Random, n, the finished panel): a started game that
 * would count is given up only once the player says yes, and then counts as lost.
 */
async function replaceGame(slug, ruleset, deal) {
  if (ui.pending) return;
  const play = ui.play;
  // A choice no rated deal meets is said before any game is given up for it.
  if (!deal && !choiceMet(ui.rated, slug, ruleset, dealChoice())) {
    const name = (ui.games.find((g) => g.slug === slug) || {name: slug}).name;
    say(unmetWords(name, ruleset, dealChoice(), (ui.rated[slug] || {})[ruleset]), 'error');
    return;
  }
  if (wouldGiveUp(play)) {
    if (!await askGiveUp(play)) { say('the game goes on'); return; }
    try {
      await api(`/api/play/${play.id}/abandon`, {clock: clockNow()});
    } catch (error) { say(error.message, 'error'); return; }
  }
  await newGame(slug, ruleset, deal, true);
}

/** Shows game ``id`` again (from the list of games in progress, or the browser's history). */
async function openGame(id, restoring = false) {
  try {
    const data = await api(`/api/play/${encodeURIComponent(id)}`);
    ui.restoring = restoring;
    try { show(data); } finally { ui.restoring = false; }
    $('game').value = data.game; $('ruleset').value = data.ruleset;
    return true;
  } catch (error) { say(error.message, 'error'); return false; }
}

async function showGamesInProgress() {
  $('continuenotice').hidden = true;
  const data = await api('/api/play');
  fillGamesInProgress($('continuetable'), data.games, gameNames(), ui.play ? ui.play.id : null, {
    resume: async (id) => {
      if (ui.play && id === ui.play.id) goToGame();
      else await openGame(id);
    },
    giveUp: giveUpListed,
  });
}

/** Gives up ``game``, a game of the list of games in progress, once the player says yes. */
async function giveUpListed(game) {
  const what = `${gameNames()[game.game] || game.game}, ${dealWords(game)}`;
  const counts = game.practice ? 'A practice game given up just ends: it never counts.'
    : 'A game given up counts as lost in the statistics.';
  const yes = await askFirst({title: 'Give up this game?', yes: 'Give up', no: 'Keep it',
    text: `${what}: ${game.moves} move${game.moves === 1 ? '' : 's'} played. ${counts}`});
  if (!yes) return;
  const here = ui.play && ui.play.id === game.id;
  try {
    const data = await api(`/api/play/${encodeURIComponent(game.id)}/abandon`, here ? {clock: clockNow()} : {});
    if (here) show(data);
    say(`${what} given up${game.practice ? '' : ': it counts as lost'}`);
  } catch (error) { say(error.message, 'error'); }
  await showGamesInProgress();
}

async function showStats() {
  fillStatistics(await api('/api/stats'), gameNames(), openRecent);
}

/** Shows a recent game on the table (its end), and its review when ``review``. */
async function openRecent(id, review) {
  if (!(ui.play && ui.play.id === id) && !await openGame(id)) return;
  goToGame();
  if (review) openReview();
}

/** Resets the statistics once the player says yes. */
async function resetStats() {
  const yes = await askFirst({title: 'Reset the statistics?', yes: 'Reset the statistics', no: 'Keep them',
    text: 'Every result is deleted: the games played and won, the streaks, best times, reviews\' figures, the ' +
      'recent games and the days won of the deal of the day. The games themselves stay, and a game in ' +
      'progress counts when it ends. This cannot be undone.'});
  if (!yes) return;
  try {
    const data = await api('/api/stats/reset', {});
    say(`the statistics are reset (${data.removed} result${data.removed === 1 ? '' : 's'} deleted)`);
  } catch (error) { say(error.message, 'error'); }
  if (ui.page === 'stats') {
    await showStats();
    await showDailyStats();
  }
}

/** Downloads the record of the game on the table, or says why it cannot yet. */
function saveRecord() {
  const why = whyNotSaved(ui.play);
  if (why) { say(why, 'error'); return; }
  downloadRecord(ui.play);
  say(`the record of ${ui.play.name}, ${dealWords(ui.play)} is downloaded (${ui.play.moves} moves); Open resumes it`);
}

/** Opens the record file the player chose: its game on the table, or the reason it is refused. */
async function openRecordFile(file) {
  try {
    const data = await api('/api/records', await openingBody(file, ui.play && ui.play.id));
    show(data);
    $('game').value = data.game; $('ruleset').value = data.ruleset;
    if (ui.page !== 'table') goToGame();
    say(openedWords(file.name, data, dealWords(data)));
  } catch (error) {
    say(error.message, 'error');
    // The line above the table is not in sight on the page of the games in progress.
    if (ui.page === 'continue') { $('continuenotice').textContent = error.message; $('continuenotice').hidden = false; }
  }
}

/** A page of the player, as a new entry of the browser's history: ``help``, ``stats``, ``rules/slug``, ``continue``. */
function goTo(page) {
  history.pushState({page}, '', `#${page}`);
  navigate();
}

/** Back to the game's table, as a new entry of the browser's history. */
function goToGame() {
  history.pushState(null, '', location.pathname + location.search);
  navigate();
}

/** Shows what the address says (after Back, Forward or a link): the game it names, and the page. */
async function navigate() {
  if (location.href === ui.handled) return;
  ui.handled = location.href;
  const id = new URLSearchParams(location.search).get('id');
  if (id && ui.play && id !== ui.play.id && !await openGame(id, true)) return;
  route();
}

async function showRules(slug) {
  $('rulesgame').value = slug;
  const data = await api(`/api/rules/${slug}`);
  $('rulestext').innerHTML = data.html;   // rendered by the server from the project's own rules pages
  $('commontext').innerHTML = data.common;
}

const PAGES = ['start', 'stats', 'rules', 'continue'];

function route() {
  ui.handled = location.href;
  const hash = location.hash.slice(1);
  const [name, arg] = hash.split('/');
  // With no game to show, the table's place is taken by the start page.
  const page = PAGES.includes(name) || name === 'help' ? name : ui.play ? 'table' : 'start';
  const left = ui.page !== page;
  ui.page = page;
  $('play').hidden = PAGES.includes(page);
  $('toolbar').hidden = $('info').hidden = $('play').hidden;
  for (const section of PAGES) $(section).hidden = page !== section;
  if ($('play').hidden) { $('overlay').hidden = true; review.close(); }
  if (page === 'stats') showStats().catch((e) => say(e.message, 'error'));
  if (page === 'stats') showDailyStats().catch((e) => say(e.message, 'error'));
  if (page === 'start') showStart().catch((e) => startNotice(e.message));
  else startNotice('');
  for (const back of document.querySelectorAll('.togame')) back.hidden = !ui.play;
  if (page === 'rules') showRules(arg || (ui.play ? ui.play.game : ui.games[0].slug)).catch((e) => say(e.message, 'error'));
  if (page === 'continue') showGamesInProgress().catch((e) => say(e.message, 'error'));
  if (page === 'help' && !$('help').open) $('help').showModal();
  if (page !== 'help' && $('help').open) $('help').close();
  if (left && $('play').hidden) window.scrollTo(0, 0);
  updateClock();
  if ($('play').hidden === false) render();
}

/** The help dialog closed: its page is left (back, when it was opened as an entry of this visit). */
function onHelpClosed() {
  if (location.hash !== '#help') return;
  if (history.state && history.state.page === 'help') history.back();
  else { history.replaceState(null, '', location.pathname + location.search); route(); }
}

async function start() {
  const data = await api('/api/games');
  ui.games = data.games;
  ui.rated = data.rated;
  $('saferule').textContent = data.safe_rule;
  for (const select of [$('game'), $('rulesgame')]) {
    select.innerHTML = ui.games.map((g) => `<option value="${g.slug}">${g.name}</option>`).join('');
  }
  $('ruleset').innerHTML = data.rulesets.map((r) => `<option value="${r}">${r} rules</option>`).join('');
  const params = new URLSearchParams(location.search);
  const wanted = params.get('game');
  const last = params.get('id') || wanted ? null : localStorage.getItem('kibitz-last');
  const id = params.get('id') || last;
  // The page the address names; the start page for a first visit, after a finished game and
  // for a link that opens no game (with the reason).
  let landing = location.hash.slice(1).split('/')[0];
  let notice = '';
  if (id) {
    try {
      const play = await api(`/api/play/${encodeURIComponent(id)}`);
      // The game this browser played last comes back while it goes on; a finished one leaves
      // the player on the start page. (A random deal's address names no deal until its game ends.)
      if (!wanted || (play.game === wanted && (play.deal === params.get('deal') ||
          (play.random_deal && params.get('deal') === null)))) {
        show(play);
        if (id === last && play.status !== 'playing') landing = landing || 'start';
      }
    } catch (error) {
      if (params.get('id')) notice = `This link's game cannot be opened: ${error.message}.`;
    }
  }
  if (!ui.play && wanted) {
    const ruleset = params.get('ruleset') || 'standard';
    // No rated deal meets the choice for this game: any deal, and the refusal stays in view.
    const refused = await newGame(wanted, ruleset, params.get('deal'));
    if (refused && !ui.play && !params.get('deal') && await newGame(wanted, ruleset, null, false, false) === null) {
      say(`${refused}; here is a deal of any level`, 'error');
    }
    if (!ui.play) notice = `This link opens no game: ${refused}.`;
  }
  const kept = localStorage.getItem('kibitz-last');
  if (notice && kept) {   // the game played last stays a click away
    try { show(await api(`/api/play/${encodeURIComponent(kept)}`)); } catch { /* gone: none */ }
  }
  if (notice || !ui.play) landing = 'start';
  if (notice) history.replaceState(null, '', `${location.pathname}${ui.play ? `?${gameQuery(ui.play)}` : ''}#start`);
  else if (landing === 'start' && location.hash !== '#start') history.replaceState(null, '', '#start');
  startNotice(notice);
  if (ui.play) { $('game').value = ui.play.game; $('ruleset').value = ui.play.ruleset; }
  route();
}

function bind() {
  bindMenu();
  const table = $('table');
  const player = {ui, render, tryMove, toFoundation, dealStock, explain, act, askHint, autoPlay, replaceGame, goTo,
    pileOrder, backToGame: () => review.backToGame()};
  table.addEventListener('pointerdown', (event) => onPointerDown(player, event));
  table.addEventListener('pointermove', (event) => onPointerMove(player, event));
  table.addEventListener('pointerup', (event) => onPointerUp(player, event));
  table.addEventListener('pointercancel', () => { ui.drag = null; render(); });
  document.addEventListener('keydown', (event) => onKey(player, event));
  // A resize or a rotation lays the table out again, and so does a change of the room left
  // for it (the lines above it wrapping).
  // (In the next frame: drawing within the observer's callback could resize what it observes.)
  new ResizeObserver(() => requestAnimationFrame(() => render())).observe($('felt'));
  $('fourcolours').checked = localStorage.getItem('kibitz-four-colours') === 'on';
  useFourColours($('fourcolours').checked);
  $('fourcolours').onchange = () => {
    localStorage.setItem('kibitz-four-colours', $('fourcolours').checked ? 'on' : 'off');
    useFourColours($('fourcolours').checked);
    render();
  };
  restoreSettings();
  restoreChoices();
  window.addEventListener('popstate', navigate);
  window.addEventListener('hashchange', navigate);
  // The next action skips the cards' movement still running.
  document.addEventListener('pointerdown', () => skip(table), true);
  document.addEventListener('keydown', () => skip(table), true);
  // The clock stops while the page is hidden, and the server hears of it.
  document.addEventListener('visibilitychange', () => {
    updateClock();
    if (document.visibilityState === 'hidden') reportClock();
  });
  window.addEventListener('pagehide', () => { reportClock(); review.abort(); });
  $('help').addEventListener('close', onHelpClosed);
  $('finish').onclick = finish;
  for (const link of document.querySelectorAll('.togame')) link.onclick = (event) => { event.preventDefault(); goToGame(); };
  $('undo').onclick = () => act('undo');
  $('redo').onclick = () => act('redo');
  $('restart').onclick = () => act('restart');
  $('hint').onclick = askHint;
  $('auto').onclick = autoPlay;
  $('chance').onchange = () => { if ($('chance').checked && ui.play) checkChance(); else showVerdict(''); };
  $('analysis').onchange = () => {
    ui.hint = null;
    render();
    if ($('chance').checked && ui.play) checkChance();
  };
  $('helpbutton').onclick = () => goTo('help');
  $('newgame').onsubmit = (event) => { event.preventDefault(); replaceGame($('game').value, $('ruleset').value, $('deal').value.trim() || null); };
  $('random').onclick = () => replaceGame($('game').value, $('ruleset').value, null);
  $('moveform').onsubmit = (event) => { event.preventDefault(); const text = $('movebox').value.trim(); if (text) playMove(text).then((d) => { if (d) $('movebox').value = ''; }); };
  $('share').onclick = (event) => {
    event.preventDefault();
    if (ui.play && ui.play.deal !== null) navigator.clipboard?.writeText(shareLink()).then(() => say('link to this deal copied'), () => {});
  };
  $('rulesgame').onchange = () => { history.replaceState(history.state, '', `#rules/${$('rulesgame').value}`); route(); };
  $('ruleslink').onclick = (event) => { event.preventDefault(); goTo(`rules/${ui.play ? ui.play.game : ''}`); };
  for (const link of [$('home'), $('startlink')]) link.onclick = (event) => { event.preventDefault(); goTo('start'); };
  $('startruleset').onchange = () => { if (ui.page === 'start') showStart().catch((e) => startNotice(e.message)); };
  $('overnew').onclick = () => replaceGame(ui.play.game, ui.play.ruleset, null);
  $('overagain').onclick = () => replaceGame(ui.play.game, ui.play.ruleset, ui.play.deal);
  $('overundo').onclick = () => { $('overlay').hidden = true; act('undo'); };
  $('overclose').onclick = () => { $('overlay').hidden = true; };
  $('overreview').onclick = () => { $('overlay').hidden = true; openReview(); };
  $('reviewbutton').onclick = openReview;
  $('save').onclick = saveRecord;
  for (const button of document.querySelectorAll('.openrecord')) button.onclick = () => $('openfile').click();
  $('openfile').onchange = () => {
    const file = $('openfile').files[0];
    $('openfile').value = '';
    if (file) openRecordFile(file);
  };
  $('resetstats').onclick = resetStats;
  setInterval(() => { if (ui.play && ui.play.status === 'playing' && !$('play').hidden) updateInfo(); }, 1000);
}

bind();
start().catch((error) => say(`cannot reach the kibitz server: ${error.message}`, 'error'));
