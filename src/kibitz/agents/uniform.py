"""The ``random`` agent: a move drawn uniformly among the legal moves."""

from __future__ import annotations

import random

from kibitz.agents.base import Decision, check_observation
from kibitz.agents.observation import Observation
from kibitz.moves import Move


class RandomAgent:
    """Uniform among the legal moves, with the generator given."""

    name = "random"

    def decide(self, observation: Observation, rng: random.Random) -> Decision:
        moves = check_observation(observation).legal_moves
        move = moves[rng.randrange(len(moves))]
        return Decision(move, f"drawn uniformly among {len(moves)} legal moves")

    def choose(self, observation: Observation, rng: random.Random) -> Move:
        return self.decide(observation, rng).move
