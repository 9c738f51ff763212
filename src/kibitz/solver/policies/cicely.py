"""Cicely: canonical keys, symmetric moves dropped, move order.

**Pruning (each drops only moves whose result has the key of another kept move's result).**

- Cells are interchangeable (the key sorts them): a card goes to only one empty cell (move
  generation offers one, ``Game.generate_moves(state, alike)``), and a cell card never
  moves to another empty cell.
- Once the stock is empty the columns are interchangeable too (no deal can tell them
  apart): a card goes to only one empty column (the same way), and the only card of a
  column never moves to another empty column.

**Complete suits.** When all 26 cards of a suit are on its foundations, none of them goes
back to play (a transfer between the suit's foundations is still allowed). Only cards of
the same suit are ever built on a card of that suit, so a card of a complete suit in play
never holds anything another suit needs; deleting every later move of that suit's cards
from a winning line leaves the other moves legal (a cell or column it would have occupied
is only freer) and the line still wins.

**Move order.** Cards to foundations first, then the other moves of cards in play in the
rules' order, transfers, cards lifted from foundations, and the deal last.
"""

from __future__ import annotations

from dataclasses import replace

from kibitz.counterparts import counterpart
from kibitz.moves import Move
from kibitz.rules import Game
from kibitz.solver.native_search import MoveOrder, NativeSearch
from kibitz.solver.policies.common import CanonicalPolicy, always, when_stock_empty
from kibitz.state import State

TO_FOUNDATION, BUILD, TRANSFER, FROM_FOUNDATION, DEAL_LAST = range(5)
"""Move classes, in the order they are tried; within a class, the rules' order (columns
first, then cells). Trying builds before moves into cells and empty columns was measured
slower: digging into a column with a free cell finds wins sooner."""
TO_EMPTY_COLUMN = TO_CELL = BUILD


class CicelyPolicy(CanonicalPolicy):
    """Cells are interchangeable; columns once the stock is empty (deals go round-robin)."""

    first_pass_settings = replace(CanonicalPolicy.first_pass_settings, digs=True, random_restarts=True,
                                  growth=1.1, most=1_000)
    """``random_restarts``: the first pass's attempts after the first play random lines
    (since solver version 11): what wins Cicely's hard deals is trying many different lines,
    not digging for the wanted cards. On the 35 deals of 30,001-32,000 that version 9 left
    undecided or decided after 1 s at 10 s, 100,000 nodes each: 1 left undecided; every
    attempt digging, 27 won even at 2,000,000. Of deals 30,001-31,000, 3 left undecided at
    20,000 nodes each, where digging left 10 at 200,000. The first attempt still digs: from
    positions of play, 700 nodes each (the chance-to-win assist's budget), only random lines
    won 1 of 96, digging first 60.

    ``growth``: more, smaller restarts than the default 1.3 (as Kingsdown Eights since
    version 7). On 30 of the deals of 1-10,000 that version 7 left undecided at 10 s,
    4,000,000 nodes each: 5 won at 1.1, none at 1.3.

    ``most``: no attempt gets more than 1,000 nodes (since solver version 10). Cicely's
    digging search almost never backs up: cards can go back and forth between cells and
    columns without end, so nearly every child is a new position, and an attempt is one line
    of play as long as its budget (on deals 30,001-30,006 the winning attempt was one line
    of 150-550 positions). Larger attempts only wander further; many short ones try many
    lines. On 13 deals of 30,001-32,000 that version 9 left undecided at 10 s, 5,000,000
    nodes each: 2 won without the bound, 8 with 500, 9 with 1,000, 6 with 3,000. With the
    random lines of version 11, on the 35 deals named at ``random_restarts``, 100,000 nodes
    each: 1 undecided with 1,000, 3 with 2,000, 4 without the bound."""

    def __init__(self, game: Game) -> None:
        super().__init__(game, tableau=when_stock_empty, reserve=always)
        self._cells_alike = (self.reserve_set,)
        self._cells_and_columns_alike = (self.reserve_set, self.tableau_set)

    def ordered_moves(self, state: State) -> list[Move]:
        piles = state.piles
        foundations = self.foundation_set
        tableau = self.tableau_set
        cells = self.reserve_set
        game = self.game
        columns_alike = not piles[game.stock]
        alike = self._cells_and_columns_alike if columns_alike else self._cells_alike
        ranked: list[tuple[int, Move]] = []
        for move in game.generate_moves(state, alike):  # one empty cell; one empty column once alike
            if move.is_deal:
                ranked.append((DEAL_LAST, move))
                continue
            source, target = game.ends(move)
            if source in foundations:
                up, down = self.suit_piles[piles[source][-1] // 13]
                if len(piles[up]) + len(piles[down]) == 26:
                    continue  # complete suit
                if target in foundations:
                    ranked.append((TRANSFER, move))
                    continue
            if target in foundations:
                ranked.append((TO_FOUNDATION, move))
            elif target in cells:
                if source in cells:
                    continue  # cell to cell: same key
                ranked.append((FROM_FOUNDATION if source in foundations else TO_CELL, move))
            elif not piles[target]:
                if columns_alike and source in tableau and len(piles[source]) == 1:
                    continue  # a lone card to another empty column: same key
                ranked.append((FROM_FOUNDATION if source in foundations else TO_EMPTY_COLUMN, move))
            else:
                ranked.append((FROM_FOUNDATION if source in foundations else BUILD, move))
        ranked.sort(key=lambda pair: pair[0])
        return [move for _, move in ranked]


counterpart(CicelyPolicy, NativeSearch(MoveOrder.CICELY))
