"""Kingsdown Eights: canonical keys, safe foundation moves, dead foundation cards, move order.

Notation: a card of colour ``c`` and rank ``r`` (ace = 0); ``m(c)`` is the shortest of the
four foundations of colour ``c`` (two suits, two piles each), so every card of colour ``c``
below rank ``m(c)`` lies on a foundation (each pile holds ranks ``0 .. length - 1``).

**Dead cards.** Call a card *dead* when ``r <= m(other colour)`` and ``r - 1 <= m(c)``: every
card that could be built on it (other colour, rank ``r - 1``), and every card of a chain
built on those (ranks ``r - 2``, ``r - 3``, ... in alternating colours), is on a foundation.

*Lemma (dead cards stay down).* If every move from a foundation to the tableau in a line
takes a card that is not dead at that moment (a *clean* line), then along the line the
thresholds above never drop: ``m(other)`` can fall below ``r`` only by lifting a card of the
other colour of rank ``<= r - 1``, ``m(c)`` below ``r - 1`` only by lifting a card of colour
``c`` of rank ``<= r - 2``, and both kinds of card are dead while the thresholds hold.
(Transfers between the two foundations of a suit change no card's status.)

*Theorem (rule R: a dead foundation card never goes back to the tableau).* Every winnable
position has a clean winning line. Induction on the number of foundation-to-tableau moves
of a winning line ``L``: take its last unclean one, a dead ``X`` lifted from foundation
``F`` (left with length ``r``) to pile ``P``. After it the line is clean, so by the lemma
nothing is ever built on ``X`` and the card under it on ``F`` (rank ``r - 1``, also dead)
leaves ``F`` only by a transfer. Drop the move and follow ``L`` with ``X`` kept on a
foundation of length ``r``: moves of the loose ``X`` are skipped, a transfer of the card
under it is skipped with the suit's two foundations renamed (they are interchangeable),
and when the other copy ``X'`` is laid on a foundation from play, ``X'`` goes to ``X``'s
current pile instead (whose top took the same card), after which both lines coincide. The
new line wins with one foundation-to-tableau move fewer and is no longer than ``L``.

*Safe move.* A card goes to a foundation without branching when it would be dead there
(``r <= m(other)`` and ``r - 1 <= m(c)``; every ace qualifies). The same simulation as
above, applied to a clean winning line from the position before, shows the position after
is winnable: nothing is ever built on the card while it would still be in play (reserve
fans take no builds, and its builders stay on the foundations), so removing it early only
uncovers, earlier, cards that the line reaches after moving it.

**Other pruning.** A transfer between the two foundations of a suit gives a position with
the same key (their order is dropped), so it is never generated. Columns are
interchangeable, so a card goes to only one empty column (move generation offers one,
``Game.generate_moves(state, alike)``), and the only card of a column
never moves to another empty column.
"""

from __future__ import annotations

from dataclasses import replace

from kibitz.cards import IDENTITY
from kibitz.counterparts import counterpart
from kibitz.moves import Move
from kibitz.rules import Game
from kibitz.solver.native_search import MoveOrder, NativeSearch, SafeMoves
from kibitz.solver.policies.common import CanonicalPolicy, always, when_stock_empty
from kibitz.state import State

TO_FOUNDATION, FROM_RESERVE, BUILD, TO_EMPTY, FROM_FOUNDATION, DEAL_LAST = range(6)
"""Move classes, in the order they are tried."""


class KingsdownEightsPolicy(CanonicalPolicy):
    """Columns are never dealt to, so always interchangeable; the reserve fans once the
    stock is empty; the two foundations of a suit both build up, so their order is dropped.
    Safe foundation moves and rule R as in the module docstring."""

    first_pass_settings = replace(
        CanonicalPolicy.first_pass_settings, digs=True, share=0.99, growth=1.1, late_growth=1.6,
        late_growth_from=2_000_000, deal_cap=0.25, nested_cap=0.25, nested_from=2_000_000, look=1_000,
        look_margin=3, look_from=2_000_000, uncovers=True)
    """``share``: since solver version 20 (0.97 since version 17, 0.9 before): the full search,
    which alone proves a loss, still gets the whole rest of the limits when the first pass
    ends early (it has found nothing left to search), and that is where the deals proved
    lost were proved. On the 54 tuning deals that version 14 left undecided or decided after
    8.5 s or more, at 10 s of processor time: 35 undecided with 0.97, against 37 with 0.9
    and 38 with 0.75 (the same 12 proved lost in all three). After a first pass stopped by
    the time limit, the full search's last 3% decided at most one of the table's deals with
    versions 17-19 (36,204, won at 9.75 s); on the 33 tuning deals that version 14 left
    undecided, 0.99 wins the same 20 as 0.97 (with the growth below). Only deals not decided
    by the first pass within 97% of the limit can change: the first pass plays the same
    attempts, and what it decides before then it decides as before.

    ``growth``: slower than the default 1.3: more, smaller restarts. On 28 deals of
    20001-21000 that version 6 left undecided at 10 s, 8,000,000 nodes each (about 10 s of
    the native build) won 18 at 1.1 and 17 at 1.15, against 13 at 1.3 and 13 at 1.6.

    ``late_growth``, ``late_growth_from``: since solver version 20: once the first pass has
    searched 2,000,000 nodes (about 2.5 s), a budget that grows grows by 1.6 instead of 1.1.
    An attempt that abandoned a subtree below a deal keeps its budget, so at 1.1 the budgets
    grew slowly late in the pass. On the 33 tuning deals that version 14 left undecided, at
    10 s of processor time: 20 won against 18 (1.3 and 2.0 from 2,000,000 nodes: 18 and 17;
    1.6 from 1,000,000: 19; 1.2 and 1.3 from the first node: 19 each), each row winning some
    and losing some of version 19's. From 2,000,000 nodes, the deals decided before are
    decided as before, so the untuned deals it can change were all measured: see
    docs/benchmarks.md.

    ``deal_cap``: each attempt abandons the search below a deal after a quarter of its node
    budget (since solver version 12; see :class:`~kibitz.solver.policies.common.Digging`):
    an attempt that went wrong before a deal used to spend its whole budget below it. At
    1,000,000 nodes a deal it left 33 of deals 81,001-82,000 undecided against 40 without
    (caps of 5%, 10%, 50% of the budget: 46, 36, 35), and 28 of the untuned 100,001-101,000
    against 46; at 4,500,000 nodes (about 10 s), 36 of 102,001-104,000 against 36, with 19%
    fewer nodes over the deals won. Forgetting the abandoned positions, so that later
    attempts may come back to them, did worse (10%: 43 of 81,001-82,000).

    ``nested_cap``, ``nested_from``: since solver version 18: once the first pass has
    searched 2,000,000 nodes (about 2.5 s), the last deal's subtree gets at most a quarter
    of what the first deal's subtree has left. Before, both caps were a quarter of the
    attempt's budget, so the first position after the last deal that an attempt reached
    below a first deal took all of that deal's budget: in deal 23,749 each attempt searched
    below the same two or three positions after the last deal and then found nothing else to
    search, though 141 of 200 positions after the last deal drawn at random from its 61,991
    are won within 300,000 nodes each. Only deals the pass has not won by then change. On
    the 33 tuning deals that version 14 left undecided, at 10 s of processor time: 12 won
    against 6 (from 300,000 nodes: 15; shares of 0.1 and 0.5: 13 and 12). On the 308 deals
    of 52,001-60,000 that version 14 left undecided or decided after 300,000 nodes or more:
    10 undecided, against 12 from 300,000 nodes and 13 with version 17; from 300,000 nodes,
    7 of version 17's 13 were won and 6 others it had won were not, so the later start keeps
    the wins of the first 2.5 s as they were.

    ``look``, ``look_margin``, ``look_from``: since solver version 19: once the first pass
    has searched 2,000,000 nodes, the search below each end game (a position right after the
    last deal) begins with a look of 1,000 nodes, and goes on past it only where the look
    put at least as many cards on the foundations as the best look of the pass so far, less
    3 (see :func:`kibitz.solver.search.search`). Nearly the whole game is played after the
    last deal (the end games of deal 40,776 have 2.3 cards on the foundations on average),
    and which end game the search spends its budget below decides the deal: of 300 drawn at
    random from that deal's 32,818, the 6 won within 150,000 nodes came 1st, 2nd, 3rd, 4th,
    6th and 23rd when ranked by the best count of a 2,000-node look, while no count of the
    end game itself (cards on the foundations, cards above a lower card, depth of the wanted
    cards) told them apart. On the 33 tuning deals that version 14 left undecided, at 10 s
    of processor time: 18 won, against 12 (from the first node: 21, and there with margins
    of 0 and -3: 20 and 16, with looks of 2,000 and 4,000 nodes and margin 0: 19 each). From
    2,000,000 nodes, the deals decided before are decided as before.

    ``uncovers``: since solver version 13. In the deals a search leaves undecided, nearly
    all its positions come after the last deal (4.49 of 4.5 million for deal 24841; 99% or
    more for each of 20083, 20452 and 20577): the end game, where cards go back and forth
    between columns. At 1,000,000 nodes a deal, 24 of deals 81,001-82,000 left undecided
    against 33, and 21 of 20,001-21,000 against 32, with 19% and 30% fewer nodes over the
    deals won. At 10 s of processor time, on the untuned deals 40,001-50,000, 104 undecided
    against version 12's 120 (93 in both). Skipping only in the end game did less (30 of
    81,001-82,000), as did skipping also the moves to an empty column (38), allowing a move
    whose uncovered card could go onto another column or take a top card (29 in the end
    game), or one that uncovers a card one or two ranks above what its foundation takes (28,
    25). In Cicely, whose cells take any card, it doubled the nodes over the deals won
    (30,001-32,000), so Cicely does not skip."""
    # Not adopted: attempts of 1,000 nodes times the Luby sequence (1, 1, 2, 1, 1, 2, 4,
    # ...). On 30 deals of 22,861-26,500 that version 11 left undecided at 10 s and 30 it won
    # in 2-10 s, 4,000,000 nodes each, they won 8 and 29 against 1 and 30 (a cap of 50,000
    # nodes on the growing budget: 5 and 26), but on whole ranges of untuned deals at 10 s
    # they left 14 of 570 deals of 60,001-60,600 and 13 of the 600 of 27,001-27,600
    # undecided, against 16 and 10: no gain. Deals picked because one schedule failed them
    # favour any other schedule; only a whole range compares two.
    # Not adopted either: a digging depth that looks ahead (cards above a card plus w times
    # the ranks its foundation still needs first), so that piles without a wanted card are
    # told apart instead of ordered by the noise alone. On deals 81,001-82,000 at 1,000,000
    # nodes it left 62, 79 and 71 undecided (w = 2, 8, 20) against 40 (docs/benchmarks.md).

    def __init__(self, game: Game) -> None:
        super().__init__(game, tableau=always, reserve=when_stock_empty)
        self._black = self.suit_piles[0] + self.suit_piles[1]
        self._red = self.suit_piles[2] + self.suit_piles[3]
        self._sources = game.tableau + game.reserve
        self._columns_alike = (self.tableau_set,)

    def _thresholds(self, piles: tuple[bytes, ...]) -> tuple[int, int]:
        """``(m(black), m(red))``: the shortest foundation of each colour."""
        return (min(len(piles[f]) for f in self._black), min(len(piles[f]) for f in self._red))

    @staticmethod
    def is_dead(card: int, thresholds: tuple[int, int]) -> bool:
        """True when nothing from play could ever be built on ``card`` (see rule R)."""
        rank = card % 13
        colour = (card & IDENTITY) // 26
        return rank <= thresholds[1 - colour] and rank - 1 <= thresholds[colour]

    def safe_move(self, state: State) -> Move | None:
        piles = state.piles
        thresholds: tuple[int, int] | None = None
        for i in self._sources:
            pile = piles[i]
            if not pile:
                continue
            card = pile[-1] & IDENTITY
            rank = card % 13
            for f in self.suit_piles[card // 13]:
                if len(piles[f]) == rank:
                    if thresholds is None:
                        thresholds = self._thresholds(piles)
                    if self.is_dead(card, thresholds):
                        return self.game.move(i, f)
                    break
        return None

    def ordered_moves(self, state: State) -> list[Move]:
        piles = state.piles
        foundations = self.foundation_set
        tableau = self.tableau_set
        thresholds = self._thresholds(piles)
        game = self.game
        ranked: list[tuple[int, Move]] = []
        for move in game.generate_moves(state, self._columns_alike):  # one empty column
            if move.is_deal:
                ranked.append((DEAL_LAST, move))
                continue
            source, target = game.ends(move)
            if source in foundations:
                if target in foundations:
                    continue  # transfer: same key
                if self.is_dead(piles[source][-1], thresholds):
                    continue  # rule R
                ranked.append((FROM_FOUNDATION, move))
            elif target in foundations:
                ranked.append((TO_FOUNDATION, move))
            elif not piles[target]:
                if source in tableau and len(piles[source]) == 1:
                    continue  # a lone card to another empty column: same key
                ranked.append((TO_EMPTY, move))
            else:
                ranked.append((FROM_RESERVE if source in self.reserve_set else BUILD, move))
        ranked.sort(key=lambda pair: pair[0])
        return [move for _, move in ranked]


counterpart(KingsdownEightsPolicy, NativeSearch(MoveOrder.KINGSDOWN_EIGHTS, SafeMoves.KINGSDOWN_EIGHTS))
