"""The referee: the games being played, kept in memory and in the store, and what a
player may be told of them.

Every payload about a game carries only the player's view of it (hidden cards as
``null``), the legal moves as text and the counts; never the true state, and never the
number of a random deal before the game ends (the number gives the whole deck away).
The fair searches (hint, chance to win) are given the player's observation, made here
(:meth:`Referee.observation`); only the analysis mode's solver and the review are given the
true states.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections import OrderedDict
from typing import Any

from kibitz import difficulty
from kibitz.analysis import Observation, observation_at
from kibitz.autoplay import finishing_moves
from kibitz.cards import IDENTITY, RANKS, SUITS, format_card
from kibitz.foresight import longest_in_round
from kibitz.history import History
from kibitz.registry import find, game as find_game
from kibitz.rules import RULESETS
from kibitz.state import State
from kibitz.table import Table
from kibitz.web.inputs import ApiError
from kibitz.web.searches import SearchPool
from kibitz.web.store import Play, Store, StoredGameError

IDLE_SECONDS = 60.0
"""For a client that sends no clock: the most time between two actions that counts as play."""
CACHE_SIZE = 64
"""Games kept in memory; the others are read back from the database when asked for."""
_GAME_ID = re.compile(r"[A-Za-z0-9_-]{8,32}")


def _card(card: int | None) -> str | None:
    return None if card is None else format_card(card & IDENTITY, mark_face_down=False)


def game_info(slug: str) -> dict[str, Any]:
    """A game's description, the piles of its table and where they lie."""
    info = find(slug)
    game = find_game(slug)
    piles = []
    for spec in game.piles:
        pile: dict[str, Any] = {"name": spec.name, "kind": spec.kind.name.lower(),
                                "spread": spec.spread.value, "cell": spec.cell, "spoken": spec.spoken}
        if spec.foundation is not None:
            f = spec.foundation
            pile["foundation"] = {"suit": SUITS[f.suit], "step": f.step,
                                  "first": None if f.first is None else RANKS[f.first]}
        piles.append(pile)
    return {"slug": info.slug, "name": info.name, "aliases": list(info.aliases), "packs": info.packs,
            "redeals": info.redeals, "description": info.description,
            "rules_version": info.rules_version, "rulesets": list(RULESETS), "piles": piles,
            "table": _table(game.table)}


def _table(table: Table) -> dict[str, Any]:
    """Where the piles lie, in card slots (see :mod:`kibitz.table`), in drawing order."""
    return {"columns": table.columns, "rows": table.rows,
            "places": [{"pile": place.pile, "column": place.column, "row": place.row,
                        "fan": place.fan.value, "room": place.room, "builds_to": place.builds_to}
                       for place in table.places]}


def status_of(state: State) -> str:
    """``won``, ``over`` (no move left) or ``playing``."""
    return "won" if state.is_won() else "over" if state.is_over() else "playing"


def table_payload(state: State) -> dict[str, Any]:
    """The table of a position as the player sees it: the piles (hidden cards as ``null``), the
    round, the base, the legal moves and the most cards each fanned pile may hold before the
    round ends (:mod:`kibitz.foresight`: lengths only, which the table's counts tell anyway)."""
    game = state.game
    view = state.view()
    return {
        "round": view.round, "redeals_left": max(0, game.info.redeals - (view.round - 1)),
        "base": None if view.base is None else RANKS[view.base],
        "piles": {name: [_card(c) for c in cards] for name, cards in zip(view.pile_names, view.piles)},
        "legal": [str(m) for m in state.legal_moves], "status": status_of(state),
        "longest": longest_in_round(state),
    }


def view_payload(game_id: str, play: Play) -> dict[str, Any]:
    """What the browser may know of a game: the view, the legal moves and the counts; the deal
    number only once it may be shown (:attr:`Play.is_deal_shown`)."""
    history = play.history
    state = history.state
    game = state.game
    return {
        "id": game_id, "game": game.slug, "name": game.name, "ruleset": game.ruleset,
        "deal": str(history.deal_number) if play.is_deal_shown else None, "random_deal": not play.chosen,
        "assisted": play.assisted, "practice": play.practice, "daily": play.daily, **table_payload(state),
        "moves": history.move_count, "can_undo": history.can_undo, "can_redo": history.can_redo,
        "result": play.result, "elapsed": round(play.active, 1),
        "can_finish": not state.is_won() and finishing_moves(state) is not None,
        "rating": _rating(game.slug, game.ruleset, history.deal_number) if play.is_deal_shown else None,
    }


def position_payload(game_id: str, play: Play, moves: int) -> dict[str, Any]:
    """The table after the first ``moves`` moves of the game, as the player saw it then, and
    the move played from there (``None`` after the last move played)."""
    history = play.history
    state = history.states[moves]
    game = state.game
    played = history.moves[moves] if moves < history.move_count else None
    return {"id": game_id, "game": game.slug, "name": game.name, "ruleset": game.ruleset, **table_payload(state),
            "moves": moves, "played": None if played is None else str(played), "read_only": True}


def _rating(slug: str, ruleset: str, deal: int | None) -> dict[str, Any] | None:
    """How hard a rated deal is (:mod:`kibitz.difficulty`): told only with its number, since
    whether a deal is rated, and how, narrows down which deal it is."""
    rated = None if deal is None else difficulty.ratings().rating(slug, ruleset, deal)
    if rated is None:
        return None
    return {"level": rated.level, "wins": rated.wins, "plays": rated.plays, "winnable": rated.winnable}


def search_seed(game_id: str, moves: int | None) -> int:
    """The seed of a fair search about game ``game_id`` after ``moves`` moves: asking again
    gives the same answer. ``None``: the seed of the chance to win at every position of the
    game, so that positions that show no new card are judged on the same sampled deals (the
    chance then moves with the moves, not with the noise of fresh samples)."""
    digest = hashlib.sha256(f"{game_id}:{'chance' if moves is None else moves}".encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big")


class Referee:
    """The games being played: in memory, backed by the store; and their searches."""

    def __init__(self, store: Store, searches: SearchPool) -> None:
        self.store = store
        self.searches = searches
        self.cache: OrderedDict[str, Play] = OrderedDict()

    def new(self, slug: str, ruleset: str, deal: int, chosen: bool = True,
            leaving: str | None = None) -> tuple[str, Play]:
        """A new game of deal ``deal``; ``chosen``: the player chose it by number (else it is a
        random deal, whose number is withheld until the game ends). ``leaving``: the game the
        player's page leaves for it, not kept if untouched (:meth:`Store.drop_untouched`)."""
        game = find_game(slug, ruleset)
        now = time.time()
        return self._add(Play(History.new(game, deal), now, clock_at=now, chosen=chosen), leaving)

    def opened(self, history: History, leaving: str | None = None) -> tuple[str, Play]:
        """A game opened from a record (:func:`kibitz.records.history_of_file`), at its last move:
        a practice game, never counted (anyone can write a record, winning moves and all); one
        that had ended is shown ended, and undo or restart play it again."""
        state = history.state
        now = time.time()
        result = None if not state.is_over() else "won" if state.is_won() else "lost"
        return self._add(Play(history, now, result, clock_at=now, chosen=True, practice=True), leaving)

    def daily(self, slug: str, ruleset: str, deal: int, day: str, leaving: str | None = None) -> tuple[str, Play]:
        """A new game of the deal of the day ``day`` (``YYYY-MM-DD``), deal ``deal``: its number
        withheld until the game ends, as a random deal's is."""
        game = find_game(slug, ruleset)
        now = time.time()
        return self._add(Play(History.new(game, deal), now, clock_at=now, chosen=False, daily=day), leaving)

    def practice(self, play: Play, moves: int) -> tuple[str, Play]:
        """A practice game of the deal of ``play``, its first ``moves`` moves played again:
        never counted in the statistics."""
        history = play.history
        deal = history.deal_number
        assert deal is not None
        now = time.time()
        again = History.replay(history.start, history.moves[:moves], deal)
        return self._add(Play(again, now, clock_at=now, chosen=True, practice=True))

    def _add(self, play: Play, leaving: str | None = None) -> tuple[str, Play]:
        """Keep a new game, and let go of the untouched games it replaces."""
        game_id = secrets.token_urlsafe(12)
        self.store.create(game_id, play)
        self._remember(game_id, play)
        for gone in self.store.drop_untouched(game_id, leaving):
            self.cache.pop(gone, None)
        return game_id, play

    def get(self, game_id: str) -> Play:
        if not _GAME_ID.fullmatch(game_id):
            raise ApiError(404, "no such game")
        play = self.cache.get(game_id)
        if play is not None and not self._current(game_id, play):
            play = None   # played on elsewhere (the terminal's table shares the store): read again
        if play is None:
            try:
                play = self.store.load(game_id)
            except StoredGameError as error:
                raise ApiError(410, str(error)) from None
            if play is None:
                raise ApiError(404, "no such game")
            self._remember(game_id, play)
        self.cache.move_to_end(game_id)
        return play

    def _current(self, game_id: str, play: Play) -> bool:
        """Whether ``play``, a kept copy of game ``game_id``, is what the store holds."""
        history = play.history
        return self.store.stamp(game_id) == ([str(move) for move in history.line], history.move_count,
                                             play.result)

    def _remember(self, game_id: str, play: Play) -> None:
        self.cache[game_id] = play
        while len(self.cache) > CACHE_SIZE:
            self.cache.popitem(last=False)

    def changed(self, game_id: str, play: Play, played_since: int | None) -> None:
        """Save a game after a change, and count it if it has just ended.

        ``played_since``: the move count before the change when moves were played (they
        replace the redo line from there), ``None`` when only the position moved (undo,
        redo, restart)."""
        if played_since is None:
            self.store.moved(game_id, play)
        else:
            self.store.played(game_id, play, played_since)
        state = play.history.state
        if play.result is None and state.is_over():
            play.result = "won" if state.is_won() else "lost"
            if play.practice:
                self.store.practice_ended(game_id, play.result)
            else:
                self.store.finish(game_id, play, play.result)
        self.store.prune()

    def tick(self, play: Play, reported: float | None) -> None:
        """Advance the game's clock of active play: to the player's ``reported`` clock, never
        back and never ahead of the time gone by since the last report; without a report, by
        the time since the last action, at most :data:`IDLE_SECONDS`."""
        now = time.time()
        gone = max(0.0, now - play.clock_at)
        if reported is None:
            play.active += min(gone, IDLE_SECONDS)
        else:
            play.active = min(max(play.active, reported), play.active + gone)
        play.clock_at = now

    def abandon(self, game_id: str, play: Play) -> None:
        """Give a game up: once a move was played, it counts as lost (and abandoned); a practice
        game just ends, never counted."""
        if play.result is None and play.history.move_count > 0:
            play.result = "lost"
            if play.practice:
                self.store.practice_ended(game_id, play.result)
            else:
                self.store.finish(game_id, play, play.result, abandoned=True)

    def assist(self, game_id: str, play: Play) -> None:
        """Mark a game assisted: the solver, which sees every card, answered about it. A game
        already counted keeps its result as it was earned."""
        if not play.assisted:
            play.assisted = True
            self.store.assisted(game_id)

    @staticmethod
    def observation(play: Play) -> Observation:
        """What the player of ``play`` sees now, with the moves played and the views seen so far:
        all that a fair search is given."""
        return observation_at(play.history)

    def still_at(self, game_id: str, state: State) -> bool:
        """Whether game ``game_id`` is still at ``state`` (a search about it is still wanted)."""
        try:
            return self.get(game_id).history.state == state
        except ApiError:
            return False
