"""The actions of a game: a fixed enumeration of every move that can ever be legal in it.

An action is an index into :attr:`ActionSet.moves`, in this order:

0. ``deal``, the stock click (deal or redeal);
1. every single-card move ``a>b`` between two different piles, ``a`` of a kind that can give
   a card in this game and ``b`` of a kind that can take one (see :data:`REACHES`), sources in
   layout order (stock, waste, foundations, tableau, reserve), then targets in that order;
2. moves of several cards from one tableau pile onto another, ``t1>t2/2`` .. ``t1>t2/N``, by
   source, target and then size (Duchess only: its runs and whole piles);
3. reserve cards taken from under the top by position, ``r1#0>f1`` .. ``r1#D>f1``, by source,
   position and then target (Grand Duchess and Parisienne only, where the face-up reserve gives
   any of its cards to the foundations).

The enumeration depends on the game only, not on the ruleset, so both rulesets of a game share
one action space (a move one ruleset never allows is never in its mask). It is a superset of
what is legal: the mask of a position says which actions are legal there.
"""

from __future__ import annotations

from dataclasses import dataclass

from kibitz.moves import DEAL, Move
from kibitz.piles import PileKind
from kibitz.rules import Game

STOCK, WASTE, FOUNDATION, TABLEAU, RESERVE = (
    PileKind.STOCK, PileKind.WASTE, PileKind.FOUNDATION, PileKind.TABLEAU, PileKind.RESERVE)


@dataclass(frozen=True)
class Reach:
    """Which moves a game can ever allow, in either ruleset (read from its rules)."""

    sources: tuple[PileKind, ...]
    """The kinds of pile whose top card may move."""
    targets: tuple[PileKind, ...]
    """The kinds of pile that may take a card."""
    run: int = 1
    """The most cards that move together from one tableau pile onto another."""
    depth: int = 0
    """How many reserve cards under the top may move by position (positions ``0 .. depth-1``)."""


GRAND_DUCHESS = Reach(sources=(FOUNDATION, TABLEAU, RESERVE), targets=(FOUNDATION,), depth=17)
"""Tableau and reserve cards go to the foundations (pysolfc: also from one foundation to
another). The face-down reserve gets one card per deal of six, so it holds at most
ceil(104 / 6) = 18 cards, the first round's: positions 0 to 16 lie under its top."""
DUCHESS = Reach(sources=(STOCK, WASTE, TABLEAU, RESERVE), targets=(FOUNDATION, TABLEAU), run=51)
"""Cards go to the foundations and onto the tableau, the stock's top card into a space
(standard); a tableau run or whole pile moves onto another pile. A run holds at most the
pack less the base card, which is on its foundation before anything else moves: 51 cards."""
TOURNAMENT = Reach(sources=(FOUNDATION, TABLEAU, RESERVE), targets=(FOUNDATION, RESERVE))
"""Columns, cells and foundations give their top card to the foundations and to empty cells."""
CICELY = Reach(sources=(FOUNDATION, TABLEAU, RESERVE), targets=(FOUNDATION, TABLEAU, RESERVE))
"""Every top card may go to a foundation, a column or an empty cell."""
KINGSDOWN_EIGHTS = Reach(sources=(FOUNDATION, TABLEAU, RESERVE), targets=(FOUNDATION, TABLEAU))
"""Every top card may go to a foundation or a column."""

REACHES: dict[str, Reach] = {
    "grand-duchess": GRAND_DUCHESS,
    "parisienne": GRAND_DUCHESS,
    "duchess": DUCHESS,
    "tournament": TOURNAMENT,
    "napoleons-flank": TOURNAMENT,
    "cicely": CICELY,
    "kingsdown-eights": KINGSDOWN_EIGHTS,
}
"""Each game's :class:`Reach`, by slug."""


class ActionSet:
    """The actions of one game: each an index of :attr:`moves`, the move it stands for."""

    def __init__(self, game: Game) -> None:
        reach = REACHES[game.slug]
        names = [spec.name for spec in game.piles]
        sources = [name for name, kind in zip(names, game.kinds) if kind in reach.sources]
        targets = [name for name, kind in zip(names, game.kinds) if kind in reach.targets]
        moves = [DEAL]
        moves += [Move(source, target) for source in sources for target in targets if source != target]
        tableau = [names[i] for i in game.tableau]
        if reach.run > 1 and TABLEAU in reach.sources and TABLEAU in reach.targets:
            moves += [Move(source, target, size) for source in tableau for target in tableau
                      if source != target for size in range(2, reach.run + 1)]
        if RESERVE in reach.sources:
            moves += [Move(names[i], target, 1, position) for i in game.reserve
                      for position in range(reach.depth) for target in targets]
        self.moves: tuple[Move, ...] = tuple(moves)
        """Every action's move, by action."""
        self.index: dict[Move, int] = {move: action for action, move in enumerate(self.moves)}
        """Every move's action."""

    def __len__(self) -> int:
        return len(self.moves)

    def action_of(self, move: Move) -> int:
        """The action of ``move``; a :class:`KeyError` for a move no action stands for."""
        return self.index[move]
