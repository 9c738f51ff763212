// The deal of the day in the statistics: the days won in a row (over all games, and per game
// and ruleset), from the ``daily`` field of /api/stats.

const RULESET_WORDS = {standard: 'standard', pysolfc: 'PySolFC'};

function cell(tag, text) {
  const made = document.createElement(tag);
  made.textContent = text;
  return made;
}

const days = (count) => `${count} day${count === 1 ? '' : 's'}`;

/** Fills ``container`` with the deal of the day's statistics ``daily``; ``names``: slug -> game name. */
export function fillDailyStats(container, daily, names) {
  const heading = cell('h3', 'Deal of the day');
  heading.id = 'dailytitle';
  if (!daily || !daily.games.length) {
    const none = document.createElement('p');
    none.className = 'dailysummary';
    none.append('No deal of the day played yet: each game has one a day, the same for everyone, ' +
      'and one the solver proved can be won. ');
    const link = cell('a', 'Choose a game');
    link.href = '#start';
    none.append(link, '.');
    container.replaceChildren(heading, none);
    return;
  }
  const summary = document.createElement('p');
  summary.className = 'dailysummary';
  summary.append('Days won in a row: ', cell('b', String(daily.current_streak)),
    ` (best ${days(daily.best_streak)}); ${days(daily.days_won)} won in all` +
    `${daily.last_won ? `, the last on ${daily.last_won}` : ''}. A day counts when its deal of the day is won; ` +
    'a streak goes on while no day is missed.');
  const table = document.createElement('table');
  table.id = 'dailytable';
  const head = document.createElement('tr');
  for (const title of ['game', 'rules', 'played', 'won', 'days won in a row', 'best', 'last day won']) {
    const th = cell('th', title);
    th.scope = 'col';
    head.append(th);
  }
  table.append(head);
  for (const row of daily.games) {
    const line = document.createElement('tr');
    line.dataset.game = row.game;
    line.dataset.ruleset = row.ruleset;
    line.append(cell('td', names[row.game] || row.game), cell('td', RULESET_WORDS[row.ruleset] || row.ruleset),
      cell('td', String(row.played)), cell('td', String(row.won)), cell('td', String(row.current_streak)),
      cell('td', String(row.best_streak)), cell('td', row.last_won || '–'));
    table.append(line);
  }
  container.replaceChildren(heading, summary, table);
}
