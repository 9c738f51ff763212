"""The search policy of each game: which positions are the same, which moves are safe.

One module per family of games (:class:`~kibitz.families.Family`, declared with each game);
:func:`policy_for` picks the one of the game's family.
"""

from __future__ import annotations

from typing import Callable

from kibitz.families import Family
from kibitz.rules import Game
from kibitz.solver.policies.cicely import CicelyPolicy
from kibitz.solver.policies.duchess import DuchessPolicy
from kibitz.solver.policies.grand_duchess import GrandDuchessPolicy
from kibitz.solver.policies.kingsdown_eights import KingsdownEightsPolicy
from kibitz.solver.policies.tournament import TournamentPolicy
from kibitz.solver.policy import Policy

POLICIES: dict[Family, Callable[[Game], Policy]] = {
    Family.GRAND_DUCHESS: GrandDuchessPolicy,
    Family.DUCHESS: DuchessPolicy,
    Family.TOURNAMENT: TournamentPolicy,
    Family.CICELY: CicelyPolicy,
    Family.KINGSDOWN_EIGHTS: KingsdownEightsPolicy,
}
"""The policy of each family of games; a game of no family (or of one missing here) gets the
plain :class:`Policy`."""

_CACHE: dict[tuple[str, str], Policy] = {}


def policy_for(game: Game) -> Policy:
    """The search policy for ``game`` (one per game and ruleset)."""
    key = (game.slug, game.ruleset)
    policy = _CACHE.get(key)
    if policy is None or policy.game is not game:
        family = game.info.family
        policy = (Policy if family is None else POLICIES.get(family, Policy))(game)
        _CACHE[key] = policy
    return policy
