"""The solver's search in the native kernel, for the policies that declare a counterpart.

Beside a policy class (:mod:`kibitz.solver.policies`) the policies declare its native
counterpart, a :class:`NativeSearch` naming the kernel's move order, safe moves and split
points for it; the rules of when piles are interchangeable declare theirs too
(:class:`Interchangeable`). :func:`solve_natively` runs the whole of ``kibitz.solver``'s
search (the digging first pass and the full search) in the kernel (``kibitz_native.Search``)
when the game's rules run natively and its policy is exactly a declared class; it is the
same search, step by step, so a node-limited solve gives the same outcome, moves and
counters. Any other policy (a subclass in a test, a game without a counterpart) runs in
Python.
"""

from __future__ import annotations

import enum
import json
from dataclasses import asdict, dataclass
from typing import Any

from kibitz import native
from kibitz.counterparts import Counterpart, Json, MissingCounterpart, counterpart_of
from kibitz.rules import Game
from kibitz.solver import interrupts
from kibitz.solver.policy import Policy
from kibitz.solver.result import Limits, Outcome, SolveResult
from kibitz.state import State


class MoveOrder(enum.Enum):
    """The kernel's move orders."""

    PLAIN = "Plain"
    """``Policy.ordered_moves``: foundation moves first, deals last, else the rules' order."""
    CICELY = "Cicely"
    KINGSDOWN_EIGHTS = "KingsdownEights"
    TOURNAMENT = "Tournament"
    GRAND_DUCHESS = "GrandDuchess"


class SafeMoves(enum.Enum):
    """The kernel's safe-move rules."""

    DUCHESS = "Duchess"
    KINGSDOWN_EIGHTS = "KingsdownEights"
    TOURNAMENT = "Tournament"
    GRAND_DUCHESS = "GrandDuchess"


class Proofs(enum.Enum):
    """The kernel's quick proofs of loss (``Policy.is_hopeless``)."""

    TOURNAMENT = "Tournament"
    GRAND_DUCHESS = "GrandDuchess"
    DUCHESS = "Duchess"
    """Where the rules keep the order of a tableau pile's cards: see
    ``kibitz.solver.policies.duchess.order_deadlocked``."""


class Split(enum.Enum):
    """Where the kernel's search splits."""

    BASE_UNSET = "BaseUnset"
    """While no base rank is chosen (Duchess)."""


@dataclass(frozen=True)
class Dives:
    """Heuristic dives as the policy's probe (Tournament's): ``dives`` per probe, each at
    most ``length`` moves, leaving the move order with chance ``skips[(attempt + dive) %
    len(skips)]`` for one of the next ``width - 1`` moves (drawn from ``random.Random(attempt)``)."""

    dives: int
    length: int
    skips: tuple[float, ...]
    width: int


@dataclass(frozen=True)
class Playouts:
    """Random playouts as the policy's probe (Grand Duchess's): whole games until one wins or
    about ``steps`` moves are played, the ``k``-th with chance ``holds[k % len(holds)]`` of
    dealing while a card could be played (drawn from ``random.Random`` seeded by the
    position and the attempt)."""

    steps: int
    holds: tuple[float, ...]


@dataclass(frozen=True)
class RoundCaps:
    """A first pass that cuts short the search below each start of a new round (Tournament's
    ``CappedRounds``): node caps of the first attempt below a last-round start and below an
    earlier round's start; attempt ``k`` multiplies them by ``2**k``."""

    last_round_nodes: int
    round_nodes: int


@dataclass(frozen=True)
class Interchangeable(Counterpart):
    """When a group of piles is interchangeable (a ``GroupRule``): ``Always``, ``Never``,
    ``WhenStockEmpty`` or ``WhenNoDealRemains``."""

    when: str

    def native(self, game: Game) -> Json:
        return self.when


@dataclass(frozen=True)
class NativeSearch(Counterpart):
    """The native counterpart of a canonical policy class: its move order, safe moves, split
    points, proofs of loss, probes and capped first pass (its keys follow from the policy's
    own attributes, its first pass's settings from ``Policy.first_pass_settings``, what the
    rules guarantee from ``Game.facts``)."""

    order: MoveOrder
    safe: SafeMoves | None = None
    splits: Split | None = None
    proofs: Proofs | None = None
    dives: Dives | None = None
    playouts: Playouts | None = None
    round_caps: RoundCaps | None = None

    def native(self, game: Game) -> Json:
        return self.fields()

    def fields(self) -> dict[str, Json]:
        """The part of the kernel's policy spec that this block declares."""
        dives = self.dives
        playouts = self.playouts
        caps = self.round_caps
        return {"order": self.order.value, "safe": None if self.safe is None else self.safe.value,
                "splits": None if self.splits is None else self.splits.value,
                "proofs": None if self.proofs is None else self.proofs.value,
                "dives": None if dives is None else {"dives": dives.dives, "length": dives.length,
                                                     "skips": list(dives.skips), "width": dives.width},
                "playouts": None if playouts is None else {"steps": playouts.steps, "holds": list(playouts.holds)},
                "capped_rounds": None if caps is None else {"last_round_nodes": caps.last_round_nodes,
                                                            "round_nodes": caps.round_nodes}}


def search_spec(policy: Policy) -> dict[str, Json]:
    """The kernel's spec of ``policy``, with its first pass's settings as one object (every
    field of its :class:`~kibitz.solver.policy.FirstPass`); raises :class:`MissingCounterpart`
    when its class (the exact class) or one of its rules has no native counterpart."""
    from kibitz.solver.policies.common import CanonicalPolicy
    block = counterpart_of(type(policy), NativeSearch)
    if not isinstance(policy, CanonicalPolicy):
        raise MissingCounterpart(f"{type(policy).__name__} is no canonical policy")
    game = policy.game
    spec = block.fields()
    spec.update({
        "tableau": counterpart_of(policy.tableau_interchangeable, Interchangeable).native(game),
        "reserve": counterpart_of(policy.reserve_interchangeable, Interchangeable).native(game),
        "same_suit_pairs": [list(pair) for pair in policy.same_suit_pairs],
        "first_pass": asdict(policy.first_pass_settings),
        "dig_sources": list(policy.dig_sources.values()),
        "foundations_final": game.facts.foundations_final,
        "foundation_transfers": game.facts.foundation_transfers,
        "tableau_order_kept": game.facts.tableau_order_kept,
    })
    return spec


_SEARCHES: dict[tuple[int, int], tuple[Policy, Any, Any]] = {}
"""The kernel's search of each (policy, kernel), kept with both."""


def search_of(policy: Policy) -> Any:
    """The native search of ``policy``, or ``None`` when the game's rules run in Python or
    the policy has no native counterpart."""
    kernel = policy.game.kernel
    module = native.load()
    if kernel is None or module is None:
        return None
    known = _SEARCHES.get((id(policy), id(kernel)))
    if known is not None and known[0] is policy and known[1] is kernel:
        return known[2]
    try:
        spec = search_spec(policy)
    except MissingCounterpart:
        return None
    search = module.Search(kernel, json.dumps(spec))
    _SEARCHES[(id(policy), id(kernel))] = (policy, kernel, search)
    return search


def solve_natively(state: State, policy: Policy, limits: Limits) -> SolveResult | None:
    """``kibitz.solver``'s first pass and full search of ``state`` in the kernel (a winning
    line with its loops cut out, not yet replayed), or ``None`` when it cannot run there
    (see :func:`search_of`)."""
    search = search_of(policy)
    if search is None or state.game is not policy.game:
        return None
    outcome, moves, reason, nodes, states, seconds, peak = search.solve(
        state, limits.seconds, limits.nodes, limits.table_limit(native=True), limits.clock == "cpu", interrupts.requested)
    return SolveResult(Outcome(outcome), moves, reason, nodes, states, seconds, peak)
