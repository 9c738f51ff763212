// The review panel: the review of a game streamed from the server (POST /review, one line of
// JSON per figure) and shown as it arrives, beside or below the table: a graph of the fair
// chance over the moves, the moves that gave it away with the better move, the accuracy, the
// luck, and (seeing every card, once the game has ended) the point of no return. A position
// chosen in the graph or the list is shown on the table, read-only, through the hooks that
// app.js gives; "Try from here" starts a practice game there.

import {CHANCE_MEANING, chanceWords, percent} from './assists.js';
import {HEIGHT, LABEL_COLOURS, WIDTH, graphMarkup, positionAt} from './graph.js';

const $ = (id) => document.getElementById(id);

const SEES_EVERY_CARD = 'Seeing every card (the solver)';
const LABEL_PLURALS = {inaccuracy: 'inaccuracies', mistake: 'mistakes', blunder: 'blunders'};
const START_WORDS = {true: 'the deal could be won from its opening', false: 'the deal could not be won at all',
  null: 'the solver could not decide the opening'};

/** ``count`` of ``label`` in words: "1 blunder", "2 mistakes". */
function labelCount(label, count) { return `${count} ${count === 1 ? label : LABEL_PLURALS[label]}`; }

/** The lines of JSON of a streamed answer, each given to ``onLine`` as it arrives. */
async function readLines(response, onLine) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const {value, done} = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, {stream: true});
    let end;
    while ((end = buffer.indexOf('\n')) >= 0) {
      const text = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      if (text.trim()) onLine(JSON.parse(text));
    }
  }
}

/** The game's accuracy from its moves' (as kibitz.analysis.grading.game_accuracy): 0 to 100. */
export function gameAccuracy(entries) {
  return 100 * entries.reduce((kept, entry) => kept * (entry ? entry.accuracy / 100 : 1), 1);
}

/**
 * The review panel (#review). ``hooks``: ``body()`` (the fields every request about the game
 * carries), ``showPosition(payload, marks)`` and ``clearPosition()`` (the table read-only at a
 * position, ``marks``: the played and the better move), ``practise(play, moves)``,
 * ``noteAssisted(data)`` and ``closed()`` (the player closed the panel).
 */
export class ReviewPanel {
  constructor(hooks) {
    this.hooks = hooks;
    this.controller = null;
    this.play = null;
    this.reset();
    const graph = $('reviewgraph');
    graph.setAttribute('viewBox', `0 0 ${WIDTH} ${HEIGHT}`);
    graph.addEventListener('click', (event) => {
      if (!this.review.total && !this.review.final) return;
      const box = graph.getBoundingClientRect();
      this.select(positionAt((event.clientX - box.left) / box.width * WIDTH, this.review.total));
    });
    graph.addEventListener('keydown', (event) => this.onGraphKey(event));
    $('reviewclose').onclick = () => this.dismiss();
    $('reviewback').onclick = () => this.backToGame();
    $('reviewtry').onclick = () => { if (this.play && this.selected !== null) this.hooks.practise(this.play, this.selected); };
    $('review').addEventListener('keydown', (event) => {
      if (event.key === 'Escape') { event.preventDefault(); if (this.selected !== null) this.backToGame(); else this.dismiss(); }
    });
  }

  reset() {
    this.review = {entries: [], final: null, total: 0, noReturn: null, average: null, studied: null, head: null, done: null,
      error: null};
    this.selected = null;
    this.shownPosition = null;
  }

  /** Reviews game ``play`` (a view payload) as it stands; ``peek``: ask the solver too (assisted). */
  async open(play, peek = false) {
    this.abort();
    this.reset();
    this.play = play;
    this.hooks.clearPosition();
    $('review').hidden = false;
    const moves = `${play.moves} move${play.moves === 1 ? '' : 's'}`;
    $('reviewtitle').textContent = play.status === 'playing' && !play.result ? `Review of the ${moves} so far` : `Review: ${moves}`;
    this.status('starting the review…');
    this.render();
    $('reviewtitle').focus();
    const controller = new AbortController();
    this.controller = controller;
    try {
      const response = await fetch(`/api/play/${play.id}/review`, {method: 'POST', signal: controller.signal,
        headers: {'Content-Type': 'application/json'}, body: JSON.stringify({...this.hooks.body(play), peek})});
      if (!response.ok) {
        let message = `the server answered ${response.status}`;
        try { message = (await response.json()).error || message; } catch { /* not JSON */ }
        throw new Error(message);
      }
      await readLines(response, (line) => { if (this.controller === controller) this.take(line); });
      if (this.controller === controller && !this.review.done && !this.review.error) this.fail('the review stopped before its end');
    } catch (error) {
      if (this.controller === controller && error.name !== 'AbortError') this.fail(error.message);
    } finally {
      if (this.controller === controller) this.controller = null;
    }
  }

  /** Stops the review's stream (the server then stops its search). */
  abort() {
    if (this.controller) { const controller = this.controller; this.controller = null; controller.abort(); }
  }

  /** Closes the panel: the stream stops and the table shows the game again. */
  close() {
    this.abort();
    this.reset();
    $('review').hidden = true;
    this.hooks.clearPosition();
  }

  /** The player closes the panel: the keyboard's focus goes back where the review was asked. */
  dismiss() {
    this.close();
    this.hooks.closed();
  }

  /** One line of the stream. */
  take(line) {
    const review = this.review;
    if (line.type === 'head') {
      review.head = line;
      review.total = line.moves;
      review.studied = line.average || null;
      review.average = line.average ? line.average.won / line.average.deals : null;
      this.status(line.stored ? 'the review, as kept' : `reviewing move 1 of ${line.moves}…`);
    } else if (line.type === 'move') {
      review.entries[line.index] = line;
      this.status(line.index + 1 < review.total ? `reviewing move ${line.index + 2} of ${review.total}…`
        : 'the chance after the last move…');
    } else if (line.type === 'final') {
      review.final = line;
      if (review.head && review.head.sees_every_card) this.status('looking for the point of no return (the solver, seeing every card)…');
    } else if (line.type === 'no_return') {
      review.noReturn = line;
    } else if (line.type === 'done') {
      review.done = line.review;
      this.hooks.noteAssisted(line);
      this.status(`review complete: ${review.total} move${review.total === 1 ? '' : 's'}`);
    } else if (line.type === 'error') {
      this.fail(line.error);
      return;
    }
    this.render();
  }

  fail(message) {
    this.review.error = message;
    this.status(`the review stopped: ${message}`, 'error');
    this.render();
  }

  status(text, kind = '') {
    const status = $('reviewstatus');
    status.textContent = text;
    status.className = kind;
  }

  /** How far the review has come, 0 to 1. */
  progress() {
    const review = this.review;
    if (review.done) return 1;
    const steps = review.total + 1 + (review.head && review.head.sees_every_card ? 1 : 0);
    const made = review.entries.filter(Boolean).length + (review.final ? 1 : 0) + (review.noReturn ? 1 : 0);
    return steps ? made / steps : 0;
  }

  render() {
    const review = this.review;
    const bar = $('reviewprogress');
    bar.hidden = Boolean(review.done) || Boolean(review.error);
    bar.value = this.progress();
    this.renderGraph();
    this.renderFigures();
    this.renderMoves();
    this.renderPosition();
  }

  renderGraph() {
    const review = this.review;
    const graph = $('reviewgraph');
    graph.innerHTML = graphMarkup(review, this.selected);
    graph.setAttribute('aria-valuemax', String(review.total));
    graph.setAttribute('aria-valuenow', String(this.selected ?? 0));
    graph.setAttribute('aria-valuetext', this.positionWords(this.selected ?? 0));
  }

  /** A position of the graph in words, for a screen reader. */
  positionWords(k) {
    const review = this.review;
    const entry = review.entries[k];
    const chance = k < review.total ? entry && entry.before : review.final && review.final.final;
    const where = k === 0 ? 'the opening' : `after move ${k}`;
    const words = chance ? `chance ${chanceWords(chance)}` : 'not reviewed yet';
    const label = entry && entry.label ? `; move ${k + 1} was a ${entry.label}` : '';
    return `${where}: ${words}${label}`;
  }

  renderFigures() {
    const review = this.review;
    const entries = review.entries.filter(Boolean);
    const figures = $('reviewfigures');
    figures.replaceChildren();
    const add = (term, value, title = '', kind = '') => {
      const row = document.createElement('div');
      if (kind) row.className = kind;
      const dt = document.createElement('dt');
      dt.textContent = kind ? term : `${term}:`;
      const dd = document.createElement('dd');
      dd.textContent = value;
      if (title) row.title = title;
      row.append(dt, ' ', dd);
      figures.append(row);
      return dd;
    };
    if (!entries.length && !review.final) return;
    const accuracy = review.done ? review.done.accuracy : gameAccuracy(review.entries);
    const counts = ['blunder', 'mistake', 'inaccuracy'].map((label) =>
      labelCount(label, entries.filter((entry) => entry.label === label).length)).join(', ');
    add('Accuracy', `${Math.round(accuracy)} of 100 (${counts})`,
      'the share of the winning chance kept through the game: each move that gave away a clear share of it counts');
    const first = review.entries[0] ? review.entries[0].before : review.final && review.final.final;
    if (first) {
      const studied = review.studied;
      const undecided = studied && studied.unknown ? `, ${studied.unknown.toLocaleString('en')} undecided` : '';
      const average = studied === null ? '' : `; the game's average: ${percent(studied.won / studied.deals)} of its ` +
        `${studied.deals.toLocaleString('en')} studied deals can be won (seeing every card${undecided})`;
      add('Luck', `the chance at the first move was ${chanceWords(first)}${average}`,
        `${CHANCE_MEANING}; the average is the share of the game's studied deals that can be won`);
    }
    if (review.head && review.head.sees_every_card) {
      const noReturn = review.noReturn;
      const text = noReturn ? `${START_WORDS[noReturn.winnable_at_start]}; ${noReturn.words}.` : 'being looked for…';
      add(SEES_EVERY_CARD, text, 'the solver sees every card, face down or not', 'solver');
    } else if (review.head) {
      add(SEES_EVERY_CARD, 'the point of no return is shown once the game has ended (or with the analysis mode, ' +
        'which marks the game assisted)', '', 'solver muted');
    }
  }

  renderMoves() {
    const review = this.review;
    const list = $('reviewmoves');
    list.replaceChildren();
    const labelled = review.entries.filter((entry) => entry && entry.label);
    $('reviewnomoves').hidden = labelled.length > 0 || !review.done;
    for (const entry of labelled) {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.className = `reviewmove ${entry.label}`;
      button.dataset.position = String(entry.index);
      if (this.selected === entry.index) button.setAttribute('aria-current', 'true');
      const chip = document.createElement('span');
      chip.className = 'chip';
      chip.style.background = LABEL_COLOURS[entry.label];
      chip.textContent = entry.label;
      const text = document.createElement('span');
      text.textContent = `move ${entry.index + 1}: ${entry.move_words || entry.move}; better ${entry.best_words || entry.best}`;
      button.append(chip, ' ', text);
      button.title = `kept ${entry.after.won} of ${entry.after.samples} sampled deals winnable; the better move kept ` +
        `${entry.after_best.won}: show the table before the move`;
      button.onclick = () => this.select(entry.index);
      item.append(button);
      list.append(item);
    }
  }

  renderPosition() {
    const block = $('reviewposition');
    const k = this.selected;
    block.hidden = k === null;
    if (k === null) return;
    const review = this.review;
    const entry = review.entries[k];
    const shown = this.shownPosition;
    $('reviewwhere').textContent = `${k === 0 ? 'The opening' : `The table after move ${k}`}, read-only` +
      (entry ? `: the chance before move ${k + 1} was ${chanceWords(entry.before)}.` : '.');
    const played = $('reviewplayed'), better = $('reviewbetter');
    played.hidden = better.hidden = !entry;
    if (entry) {
      played.querySelector('.words').textContent = `played ${entry.move_words || entry.move}` +
        `${entry.label ? ` (${entry.label})` : ''}: then ${chanceWords(entry.after)}`;
      better.hidden = entry.best === entry.move;
      better.querySelector('.words').textContent = `the strong player's move ${entry.best_words || entry.best}: ` +
        `then ${chanceWords(entry.after_best)}`;
    }
    const playing = shown && shown.status === 'playing';
    const shownDeal = this.play && this.play.deal !== null;
    const tryButton = $('reviewtry');
    tryButton.hidden = !playing;
    tryButton.disabled = !shownDeal;
    tryButton.title = shownDeal ? 'a practice game of this deal from this position: it never counts in the statistics'
      : 'a random deal can be practised once its game has ended (its number tells where every card lies)';
  }

  /** Shows position ``k`` (the table after ``k`` moves) on the table, read-only. */
  async select(k) {
    const review = this.review;
    if (!this.play || k < 0 || k > review.total) return;
    this.selected = k;
    this.shownPosition = null;
    this.render();
    const play = this.play;
    try {
      const response = await fetch(`/api/play/${play.id}/position?moves=${k}`);
      const payload = await response.json();
      if (!response.ok) throw new Error(payload.error || 'no such position');
      if (this.play !== play || this.selected !== k) return;
      this.shownPosition = payload;
      const entry = review.entries[k];
      this.hooks.showPosition(payload, {played: entry ? entry.move : null,
        best: entry && entry.best !== entry.move ? entry.best : null});
      this.renderPosition();
      $('reviewposition').scrollIntoView({block: 'nearest'});
    } catch (error) {
      if (this.selected === k) this.status(error.message, 'error');
    }
  }

  /** The table shows the game as it stands again (playable); the review stays. */
  leavePosition() {
    this.selected = null;
    this.shownPosition = null;
    this.hooks.clearPosition();
    this.render();
  }

  /** Back to the game, from the position shown: the keyboard's focus goes back to the graph. */
  backToGame() {
    this.leavePosition();
    $('reviewgraph').focus();
  }

  onGraphKey(event) {
    const total = this.review.total;
    const now = this.selected ?? -1;
    const keys = {ArrowRight: now + 1, ArrowUp: now + 1, ArrowLeft: now - 1, ArrowDown: now - 1, Home: 0, End: total,
      PageUp: now + 10, PageDown: now - 10};
    if (!(event.key in keys)) return;
    event.preventDefault();
    this.select(Math.max(0, Math.min(total, keys[event.key])));
  }
}
