// Piles and ranks as a player reads them, for the few words the page makes itself. Moves and
// refusals are worded by the server (kibitz.spoken, kibitz.reasons): one wording for the
// messages, the live region, the review and the terminal's sentences, told only what the
// player sees. Notation stays in the move box and the help's keys. Pure functions; no DOM.

/** A pile's name in words, as the server gives it (``t3`` -> "tableau 3", ``r2`` -> "cell 2"). */
export function pileWords(info, name) {
  const spec = info && info.piles.find((pile) => pile.name === name);
  return spec && spec.spoken ? spec.spoken : name;
}

/** A rank as on a card's index: ``T`` -> "10", the others as they are. */
export function rankText(rank) { return rank === 'T' ? '10' : rank; }

/** What a request played, for the live region: the server's words, or that nothing was played. */
export function playedWords(data) { return data.played_words || 'no move played'; }
