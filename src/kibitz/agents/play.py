"""The referee of a game played by an agent: it holds the state, shows the agent only its
observation, and plays the move the agent returns."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kibitz.agents.base import Agent
from kibitz.agents.observation import observe
from kibitz.moves import Move

if TYPE_CHECKING:  # the referee's side: the agent sees only observations
    from kibitz.state import State

REPEATS = 3
"""A game ends when a position comes up for the third time: the player is going round in circles."""
MOVES_PER_CARD = 20
"""A game ends after this many moves per card of the game at most."""


@dataclass(frozen=True)
class PlayOut:
    """How a game played by an agent went."""

    moves: tuple[Move, ...]
    end: str
    """``won``, ``no move left``, ``repeated position`` or ``move limit``."""
    state: State
    """The position at the end."""

    @property
    def won(self) -> bool:
        return self.end == "won"


def play_out(state: State, agent: Agent, rng: random.Random, max_moves: int | None = None) -> PlayOut:
    """Play ``agent`` from ``state`` until the game is won, no move is left, a position
    comes up for the :data:`REPEATS`-th time or ``max_moves`` moves are played (by default
    :data:`MOVES_PER_CARD` per card). Every move the agent returns is checked by the rules."""
    limit = max_moves if max_moves is not None else MOVES_PER_CARD * state.game.total_cards
    played: list[Move] = []
    seen: dict[object, int] = {state.key: 1}
    while True:
        if state.is_won():
            return PlayOut(tuple(played), "won", state)
        if not state.legal_moves:
            return PlayOut(tuple(played), "no move left", state)
        if len(played) >= limit:
            return PlayOut(tuple(played), "move limit", state)
        move = agent.choose(observe(state, played), rng)
        state = state.apply(move)
        played.append(move)
        count = seen.get(state.key, 0) + 1
        if count >= REPEATS:
            return PlayOut(tuple(played), "repeated position", state)
        seen[state.key] = count
