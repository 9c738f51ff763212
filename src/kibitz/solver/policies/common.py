"""Shared pieces of the per-game policies: canonical keys and when piles are interchangeable.

Canonical keys treat interchangeable things as equal:

- The two copies of a card are already one identity in the state.
- A foundation's cards follow from its length (and the base rank), so keys keep lengths.
- Where foundation transfer is legal, a suit whose up and down piles together hold 13
  cards (they meet) can shift cards freely between them by transfers, so every such split
  is one position.
- Piles of one kind are interchangeable when no future deal, redeal or refill can tell
  them apart (for instance reserve fans that are never dealt to); their order is dropped.
"""

from __future__ import annotations

from typing import Callable, Hashable

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

    def __init__(self, game: Game, *, transfers: bool, tableau: GroupRule, reserve: GroupRule) -> None:
        super().__init__(game)
        self.transfers = transfers
        self.tableau_interchangeable = tableau
        self.reserve_interchangeable = reserve
        specs = [game.piles[i].foundation for i in game.foundations]
        self.up_down_pairs: tuple[tuple[int, int], ...] = ()
        self.same_suit_pairs: tuple[tuple[int, int], ...] = ()
        if transfers and len(specs) == 8 and all(s is not None for s in specs):
            pairs = tuple((game.foundations[k], game.foundations[k + 4]) for k in range(4))
            if all(s is not None and s.step == +1 for s in specs):
                self.same_suit_pairs = pairs
            else:
                self.up_down_pairs = pairs
        self.single = tuple(i for i in game.foundations
                            if not any(i in pair for pair in self.up_down_pairs + self.same_suit_pairs))

    def key(self, state: State) -> Hashable:
        game = self.game
        piles = state.piles
        lengths = [len(piles[i]) for i in self.single]
        for up, down in self.up_down_pairs:
            a, b = len(piles[up]), len(piles[down])
            lengths += (13, 0) if a + b == 13 else (a, b)
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
