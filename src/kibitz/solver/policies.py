"""The policy of each game (see :class:`kibitz.solver.policy.Policy`)."""

from __future__ import annotations

from kibitz.rules import Game
from kibitz.solver.policy import Policy

_CACHE: dict[int, Policy] = {}


def policy_for(game: Game) -> Policy:
    """The search policy for ``game`` (one per game and ruleset)."""
    policy = _CACHE.get(id(game))
    if policy is None:
        policy = Policy(game)
        _CACHE[id(game)] = policy
    return policy
