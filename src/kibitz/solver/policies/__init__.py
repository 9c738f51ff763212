"""The search policy of each game: which positions are the same, which moves are safe.

One module per game (or family of games); :func:`policy_for` picks the right one.
"""

from __future__ import annotations

from typing import Callable

from kibitz.rules import Game
from kibitz.solver.policies.cicely import CicelyPolicy
from kibitz.solver.policies.duchess import DuchessPolicy
from kibitz.solver.policies.grand_duchess import GrandDuchessPolicy
from kibitz.solver.policies.kingsdown_eights import KingsdownEightsPolicy
from kibitz.solver.policies.tournament import TournamentPolicy
from kibitz.solver.policy import Policy

POLICIES: dict[str, Callable[[Game], Policy]] = {
    "grand-duchess": GrandDuchessPolicy,
    "parisienne": GrandDuchessPolicy,
    "duchess": DuchessPolicy,
    "tournament": TournamentPolicy,
    "napoleons-flank": TournamentPolicy,
    "cicely": CicelyPolicy,
    "kingsdown-eights": KingsdownEightsPolicy,
}
"""Policy of each game slug; a game missing here gets the plain :class:`Policy`."""

_CACHE: dict[tuple[str, str], Policy] = {}


def policy_for(game: Game) -> Policy:
    """The search policy for ``game`` (one per game and ruleset)."""
    key = (game.slug, game.ruleset)
    policy = _CACHE.get(key)
    if policy is None or policy.game is not game:
        policy = POLICIES.get(game.slug, Policy)(game)
        _CACHE[key] = policy
    return policy
