"""The review of a game in the browser: asked of a search worker, streamed as it is made, kept
in the store.

A review is a stream of lines of JSON (NDJSON): a head (what is reviewed, with which seed
and build), one line per figure as the worker makes it (``move``, ``final``, ``no_return``)
and a last line ``done`` with the whole review (:meth:`kibitz.analysis.Review.as_dict`).
A finished game's review sees every card (the point of no return, whether the deal could be
won at the start); a game in progress is reviewed from what the player saw only, unless the
player peeks, which marks the game assisted as the analysis mode does. A complete review is
kept with the game, so that looking again is instant.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, AsyncIterator

from kibitz import native
from kibitz.analysis import REVIEW_VERSION
from kibitz.analysis.averages import average
from kibitz.moves import Move
from kibitz.state import State
from kibitz.web.referee import Referee, search_seed
from kibitz.web.searches import ReviewQuestion, SearchFailed, SearchStopped, StopCheck
from kibitz.web.store import Play, ReviewKey, moves_digest
from kibitz.web.wording import move_words

SEES_EVERY_CARD = "seeing every card (the solver)"
"""How every figure of a review that only the solver could know is labelled."""
FAIR = "from what you could see (sampled deals)"
"""How the fair part of a review is labelled."""


@dataclass(frozen=True)
class ReviewRun:
    """One review asked for: what it reviews and under which key it is kept."""

    game_id: str
    play: Play
    states: tuple[State, ...]
    """The positions reviewed: the opening, then the one after each move."""
    played: tuple[Move, ...]
    key: ReviewKey
    peek: bool
    """Whether the player asked the solver about a game in progress (it is marked assisted)."""
    deal: int | None
    """The deal's number, when it may be shown."""

    @property
    def moves(self) -> tuple[str, ...]:
        """The moves reviewed, in notation."""
        return tuple(str(move) for move in self.played)

    @property
    def question(self) -> ReviewQuestion:
        """What the search worker is asked."""
        return ReviewQuestion(self.states[0], self.played, self.key.seed, self.key.sees_every_card, self.deal)

    def head(self, stored: bool) -> dict[str, Any]:
        """The stream's first line."""
        game = self.states[0].game
        studied = average(game.slug, game.ruleset)
        return {"type": "head", "game": game.slug, "ruleset": game.ruleset, "deal": self.deal,
                "average": None if studied is None else studied.as_dict(),
                "moves": len(self.moves), "seed": self.key.seed, "build": self.key.build,
                "sees_every_card": self.key.sees_every_card, "review_version": self.key.version,
                "stored": stored, "label": SEES_EVERY_CARD if self.key.sees_every_card else FAIR,
                "assisted": self.play.assisted}

    def with_words(self, entry: dict[str, Any]) -> dict[str, Any]:
        """A move's figures with the played and the better move in words, as the player saw
        them (``the 7♠ from tableau 3 to foundation 1``, a hidden card named so)."""
        index = entry["index"]
        state = self.states[index]
        return entry | {"move_words": move_words(state, entry["move"]), "best_words": move_words(state, entry["best"])}


def start(game_id: str, play: Play, peek: bool) -> ReviewRun:
    """The review of the moves of ``play`` so far: seeing every card once the game has ended
    (won, no move left, or given up) or when the player peeks."""
    history = play.history
    states, played = history.states, history.moves
    moves = tuple(str(move) for move in played)
    finished = play.result is not None
    sees_every_card = finished or peek
    key = ReviewKey(game_id, sees_every_card, moves_digest(moves), search_seed(game_id, len(moves)), REVIEW_VERSION,
                    native.build_of(history.game))
    deal = history.deal_number if play.is_deal_shown else None
    return ReviewRun(game_id, play, states, played, key, peek and not finished, deal)


def line(data: dict[str, Any]) -> bytes:
    """One line of the stream."""
    return json.dumps(data, separators=(",", ":")).encode("utf-8") + b"\n"


def stored_lines(review: dict[str, Any]) -> list[dict[str, Any]]:
    """The figures of a kept review, as the stream gave them when it was made."""
    lines: list[dict[str, Any]] = [{"type": "move", **entry} for entry in review["moves"]]
    lines.append({"type": "final", "chance": review["final_chance"], "final": review["final"]})
    if review.get("no_return_finding") is not None:
        lines.append({"type": "no_return", **review["no_return_finding"]})
    return lines


async def stream(referee: Referee, run: ReviewRun, stop: StopCheck) -> AsyncIterator[bytes]:
    """The review's lines: from the store when it is kept, else from a search worker as each
    figure is made (kept once complete). ``stop()``: whether the client has left (the review
    is then stopped, its worker killed)."""
    kept = referee.store.review(run.key)
    yield line(run.head(kept is not None))
    if kept is not None:
        if run.peek:
            referee.assist(run.game_id, run.play)
        for figure in stored_lines(kept):
            yield line(figure)
        yield line({"type": "done", "review": kept, "assisted": run.play.assisted})
        return
    messages = referee.searches.stream(run.question, stop)
    try:
        async for kind, value in messages:
            if kind == "done":
                review = value | {"moves": [run.with_words(entry) for entry in value["moves"]]}
                if review.get("complete"):
                    referee.store.keep_review(run.key, run.moves, review)
                yield line({"type": "done", "review": review, "assisted": run.play.assisted})
                continue
            if value.get("type") == "move":
                value = run.with_words(value)
            elif value.get("type") == "no_return" and run.peek:
                referee.assist(run.game_id, run.play)
            yield line(value)
    except SearchFailed:
        yield line({"type": "error", "error": "the review stopped before its end (its search failed); ask again"})
    except SearchStopped:
        return
    finally:
        await messages.aclose()
