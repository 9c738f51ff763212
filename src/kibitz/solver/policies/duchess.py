"""Duchess: canonical keys, safe foundation moves and a proof of loss (pysolfc ruleset)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from kibitz.cards import IDENTITY, is_red
from kibitz.counterparts import counterpart
from kibitz.moves import Move
from kibitz.piles import PileKind
from kibitz.rules import Game
from kibitz.solver.native_search import MoveOrder, NativeSearch, Proofs, SafeMoves, Split
from kibitz.solver.policies.common import CanonicalPolicy, always
from kibitz.state import State


class DuchessPolicy(CanonicalPolicy):
    """Duchess: tableau and reserve piles are never dealt to, so their order never matters.

    Safe move: a card goes to its foundation when both cards of the other colour one rank
    below it (counted from the base) are already on the foundations. In the tableau only
    those two cards could ever be built on it; it is never needed as a build target again,
    and cards never leave a foundation, so playing it now loses nothing. The base-rank cards
    themselves are not auto-played (the last rank may still need them as targets).

    Proof of loss, where the cards of a tableau pile keep their order
    (``Facts.tableau_order_kept``, the pysolfc ruleset): see :func:`order_deadlocked`.
    """

    first_pass_settings = replace(CanonicalPolicy.first_pass_settings, digs=True, random_restarts=True,
                                  uncovers=True, redeal_cap=0.01, growth=1.1)
    """``random_restarts``: the first pass's attempts after the first play random lines
    (since solver version 11). On the 34 deals of 40,001-42,000 that version 9 decided
    after 0.2 s or not at all at 10 s, 1,000,000 nodes each: 2 undecided against 6 with
    every attempt digging; on deals 40,001-41,000, 50,000 nodes each: 23 against 25.

    ``uncovers``: since solver version 13. On deals 1-10,000 at 2 s of processor time
    (native), 19 left undecided against 27, with 26% fewer nodes over the deals won; on
    40,001-42,000 at 1,000,000 nodes each, 0 against 2. At 10 s of processor time, on the
    untuned deals 42,001-100,000 (standard), 48 undecided against version 12's 72, all
    among those 72. (In the pysolfc ruleset only whole piles move between tableau piles,
    so the rule never applies there.)

    ``redeal_cap``: since solver version 15. In the undecided deals of 1-10,000 (pysolfc
    ruleset), 97-98% of the first pass's positions were in the second round, most with
    under 6 cards left in the stock: an attempt that met the redeal early spent its budget
    on the last round. On 1-10,000 at 1,000,000 nodes each (native), pysolfc: 31 left
    undecided against 48, with 19% more nodes over the deals won; standard: 8 against 19,
    27% more. Capping every attempt instead left 20 and 12, with 4.5 and 8 times the nodes
    over the deals won; caps of 0.1% and 10% in odd attempts, 53 and 47 (pysolfc). At 10 s
    of processor time on the untuned deals 42,001-100,000: 76 undecided against version
    13's 106 (pysolfc), 30 against 48 (standard).

    ``growth``: more, smaller restarts than the default 1.3 (as Kingsdown Eights since
    version 7). On the 35 deals of 1-10,000 that version 6 left undecided at 10 s (standard
    ruleset), 4,000,000 nodes each: 4 won at 1.1, 1 at 1.3."""
    # No cap on an attempt's budget (``FirstPass.most``, which Cicely caps at 1,000): on
    # the 41 standard deals of 1-42,000 that version 11 left undecided at 10 s, 4,000,000
    # nodes each, caps of 1,000, 5,000, 20,000 and 200,000 nodes won 4, 3, 4 and 1 against
    # 0, but a cap of 20,000 won 35 of 40 deals that version 11 won in 2-10 s against 37.
    # No deal blocks either: a deal commutes with every move but the waste's and the
    # stock's, so a search may allow after a deal only another deal or a play from the
    # waste or the stock (such positions keyed apart). Measured in the native search on the
    # same deals, 4,000,000 nodes each: none of the 41 won, as without; of the 40, 38 won
    # against 37, with 6% fewer nodes and 17% less processor time: too little for a rule
    # both builds would have to carry.

    def __init__(self, game: Game) -> None:
        super().__init__(game, tableau=always, reserve=always)
        self._sources = tuple(i for i, k in enumerate(game.kinds)
                              if k in (PileKind.RESERVE, PileKind.WASTE, PileKind.TABLEAU))
        self._foundation_of_suit = game.foundations
        self._kept_in_order = game.tableau if game.facts.tableau_order_kept else ()

    def is_hopeless(self, state: State) -> bool:
        base = state.base
        return base is not None and order_deadlocked([state.piles[i] for i in self._kept_in_order], base)

    def splits_at(self, state: State) -> bool:
        """Before the base rank is chosen: each choice of base leads to its own game."""
        return state.base is None

    def safe_move(self, state: State) -> Move | None:
        base = state.base
        if base is None:
            return None
        piles = state.piles
        game = self.game
        foundation = self._foundation_of_suit
        for i in self._sources:
            pile = piles[i]
            if not pile:
                continue
            c = pile[-1] & IDENTITY
            suit = c // 13
            target = foundation[suit]
            height = len(piles[target])
            if height == 0 or height >= 13 or (piles[target][-1] + 1) % 13 != c % 13:
                continue
            relative = (c % 13 - base) % 13
            others = (0, 1) if is_red(c) else (2, 3)
            if all(len(piles[foundation[s]]) >= relative for s in others):
                return game.move(i, target)
        return None


def order_deadlocked(piles: Sequence[bytes], base: int) -> bool:
    """Whether the cards of ``piles`` (tableau piles that keep their order) can never all
    reach the foundations, which build up by suit from rank ``base``.

    A card that lies above another in such a pile reaches its foundation first; a card
    reaches its foundation after every card of its suit below it (counted from the base).
    When these demands go round in a circle (a card must come before itself), no sequence of
    moves wins: the position is lost. Cards elsewhere impose no order of their own (they may
    still move anywhere), and the suits' order passes through them, so the circle is looked
    for among the cards of piles of two or more, each suit's cards among them linked in
    order. Each card has at most two successors (the card below it, and the next of its suit
    among them): a topological sort over at most 52 cards decides it.

    The cards of such a pile go down by one rank each (from the base: up by one towards the
    bottom), but where a card of the last rank lies on a base card; the suits' demands go up
    by rank too. So a circle needs a base card with a card on it, and without one the sort
    is not needed."""
    if not any(len(pile) >= 2 and any((card & IDENTITY) % 13 == base for card in pile[:-1]) for pile in piles):
        return False
    successors: dict[int, list[int]] = {}
    by_suit: list[list[tuple[int, int]]] = [[], [], [], []]
    for pile in piles:
        if len(pile) < 2:
            continue
        below = -1
        for card in pile:
            card &= IDENTITY
            successors[card] = [] if below < 0 else [below]
            by_suit[card // 13].append(((card % 13 - base) % 13, card))
            below = card
    for suit in by_suit:
        suit.sort()
        for (_, lower), (_, higher) in zip(suit, suit[1:]):
            successors[lower].append(higher)
    waiting = dict.fromkeys(successors, 0)
    for following in successors.values():
        for card in following:
            waiting[card] += 1
    ready = [card for card, count in waiting.items() if count == 0]
    placed = 0
    while ready:
        card = ready.pop()
        placed += 1
        for later in successors[card]:
            waiting[later] -= 1
            if waiting[later] == 0:
                ready.append(later)
    return placed < len(successors)


counterpart(DuchessPolicy, NativeSearch(MoveOrder.PLAIN, SafeMoves.DUCHESS, Split.BASE_UNSET, Proofs.DUCHESS))
