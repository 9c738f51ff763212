"""Shared pieces of the per-game policies: canonical keys and when piles are interchangeable.

Canonical keys treat interchangeable things as equal:

- The two copies of a card are already one identity in the state.
- A foundation's cards follow from its length (and the base rank), so keys keep lengths.
- Where a game has two foundations of a suit that both build up from the ace
  (Kingsdown Eights), their order is dropped.

Positions merged under one key must have the same moves up to a renaming of piles:
the search explores one of them and skips the rest. (Splits of a suit between its up and
down foundations that differ only by transfers are equally winnable, but their moves
differ, so merging them would lose wins; they are kept apart.)
- Piles of one kind are interchangeable when no future deal, redeal or refill can tell
  them apart (for instance reserve fans that are never dealt to); their order is dropped.
"""

from __future__ import annotations

from typing import Callable, Hashable

from kibitz.moves import Move
from kibitz.rules import Game
from kibitz.solver.policy import Policy
from kibitz.state import State

GroupRule = Callable[[Game, State], bool]
"""Whether a group of piles is interchangeable in this state."""


def always(game: Game, state: State) -> bool:
    return True


def never(game: Game, state: State) -> bool:
    return False


def when_stock_empty(game: Game, state: State) -> bool:
    return not state.piles[game.stock]


def when_no_deal_remains(game: Game, state: State) -> bool:
    """Stock empty and no redeal left: nothing will be dealt again."""
    return not state.piles[game.stock] and state.round > game.info.redeals


class CanonicalPolicy(Policy):
    """A policy whose key drops what cannot matter (see the module docstring)."""

    def __init__(self, game: Game, *, tableau: GroupRule, reserve: GroupRule) -> None:
        super().__init__(game)
        self.tableau_interchangeable = tableau
        self.reserve_interchangeable = reserve
        specs = [game.piles[i].foundation for i in game.foundations]
        self.same_suit_pairs: tuple[tuple[int, int], ...] = ()
        if len(specs) == 8 and all(s is not None and s.step == +1 and s.first == 0 for s in specs):
            self.same_suit_pairs = tuple((game.foundations[k], game.foundations[k + 4]) for k in range(4))
        self.single = tuple(i for i in game.foundations
                            if not any(i in pair for pair in self.same_suit_pairs))

    def key(self, state: State) -> Hashable:
        game = self.game
        piles = state.piles
        lengths = [len(piles[i]) for i in self.single]
        for first, second in self.same_suit_pairs:
            a, b = len(piles[first]), len(piles[second])
            lengths += (a, b) if a <= b else (b, a)
        tableau = [piles[i] for i in game.tableau]
        if self.tableau_interchangeable(game, state):
            tableau.sort()
        reserve = [piles[i] for i in game.reserve]
        if self.reserve_interchangeable(game, state):
            reserve.sort()
        head = bytes(lengths) + bytes((state.round, 255 if state.base is None else state.base))
        waste = piles[game.waste] if game.waste is not None else b""
        return b"\xff".join([head, piles[game.stock], waste, *tableau, *reserve])


class KeepFoundations(Policy):
    """A quick first pass over a full policy: the same search, but no card ever leaves a
    foundation. It may miss wins, so it is only used to find them (``Policy.first_pass``)."""

    def __init__(self, full: Policy) -> None:
        super().__init__(full.game)
        self.full = full

    def key(self, state: State) -> Hashable:
        return self.full.key(state)

    def ordered_moves(self, state: State) -> list[Move]:
        foundations = self._foundation_names
        return [m for m in self.full.ordered_moves(state) if m.source not in foundations]

    def safe_move(self, state: State) -> Move | None:
        return self.full.safe_move(state)

    def is_hopeless(self, state: State) -> bool:
        return self.full.is_hopeless(state)


class LiftsLastPolicy(CanonicalPolicy):
    """A canonical policy for games whose foundation cards can come back into play: its
    quick first pass (:class:`KeepFoundations`) never lifts them, which finds most wins.

    The first pass gets most of the budget: on Cicely deals 1-30 at 2 s, the first pass
    alone won 28 and the full search alone 21; on Kingsdown Eights deals 1-20, 4 and 1.
    No deal of either game has yet been proved lost, so the full search's share is only
    kept for the positions it can exhaust."""

    first_pass_share = 0.9
    _quick: Policy | None = None

    def first_pass(self) -> Policy | None:
        """The same policy without moves that lift cards from the foundations (finds wins only)."""
        if self._quick is None:
            self._quick = KeepFoundations(self)
        return self._quick
