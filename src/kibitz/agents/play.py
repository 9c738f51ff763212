"""The referee of a game played by an agent: it holds the state, shows the agent only its
observation, and plays the move the agent returns."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kibitz.agents.base import Agent
from kibitz.agents.observation import observe
from kibitz.moves import Move
from kibitz.view import View

if TYPE_CHECKING:  # the referee's side: the agent sees only observations
    from kibitz.state import State

REPEATS = 3
"""A game ends when a position comes up for the third time: the player is going round in circles."""
STALL_MOVES_PER_CARD = 1
"""A game ends after this many moves per card of the game without progress: no more cards on
the foundations than ever before, no fewer hidden cards than ever before in the round."""
MOVES_PER_CARD = 20
"""A game ends after this many moves per card of the game at most."""
ENDINGS = ("won", "no move left", "repeated position", "stalled", "move limit")
"""How a game played by an agent ends (:attr:`PlayOut.end`)."""


@dataclass(frozen=True)
class PlayOut:
    """How a game played by an agent went."""

    moves: tuple[Move, ...]
    end: str
    """``won``, ``no move left``, ``repeated position``, ``stalled`` or ``move limit``."""
    state: State
    """The position at the end."""

    @property
    def won(self) -> bool:
        return self.end == "won"


def play_out(state: State, agent: Agent, rng: random.Random, max_moves: int | None = None) -> PlayOut:
    """Play ``agent`` from ``state`` until the game is won, no move is left, a position
    comes up for the :data:`REPEATS`-th time, the game stalls (:data:`STALL_MOVES_PER_CARD`)
    or ``max_moves`` moves are played (by default :data:`MOVES_PER_CARD` per card). Every
    move the agent returns is checked by the rules."""
    cards = state.game.total_cards
    limit = max_moves if max_moves is not None else MOVES_PER_CARD * cards
    played: list[Move] = []
    seen: dict[object, int] = {state.key: 1}
    earlier: list[View] = []
    best = (state.round, -1, cards + 1)
    progress = 0
    while True:
        if state.is_won():
            return PlayOut(tuple(played), "won", state)
        if not state.legal_moves:
            return PlayOut(tuple(played), "no move left", state)
        if len(played) >= limit:
            return PlayOut(tuple(played), "move limit", state)
        now = progress_of(state)
        if now[0] > best[0] or now[1] > best[1] or now[2] < best[2]:
            best = now if now[0] > best[0] else (now[0], max(now[1], best[1]), min(now[2], best[2]))
            progress = len(played)
        elif len(played) - progress >= STALL_MOVES_PER_CARD * cards:
            return PlayOut(tuple(played), "stalled", state)
        observation = observe(state, played, earlier)
        move = agent.choose(observation, rng)
        earlier.append(observation.view)
        state = state.apply(move)
        played.append(move)
        count = seen.get(state.key, 0) + 1
        if count >= REPEATS:
            return PlayOut(tuple(played), "repeated position", state)
        seen[state.key] = count


def progress_of(state: State) -> tuple[int, int, int]:
    """The round, the cards on the foundations and the cards hidden from the player."""
    game = state.game
    view = state.view()
    return (state.round, game.on_foundations(state),
            sum(card is None for pile in view.piles for card in pile))
