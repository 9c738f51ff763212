"""The actions of a game: a fixed enumeration of every move that can ever be legal in it.

An action is an index into :attr:`ActionSet.moves`, in this order:

0. ``deal``, the stock click (deal or redeal);
1. every single-card move ``a>b`` between two different piles, ``a`` of a kind that can give
   a card in this game and ``b`` of a kind that can take one (the game's declared
   :class:`~kibitz.reach.Reach`), sources in
   layout order (stock, waste, foundations, tableau, reserve), then targets in that order;
2. moves of several cards from one tableau pile onto another, ``t1>t2/2`` .. ``t1>t2/N``, by
   source, target and then size (in games whose reach has runs: Duchess's runs and whole piles);
3. reserve cards taken from under the top by position, ``r1#0>f1`` .. ``r1#D>f1``, by source,
   position and then target (in games whose reach has a depth: Grand Duchess and Parisienne,
   where the face-up reserve gives any of its cards to the foundations).

The enumeration depends on the game only, not on the ruleset, so both rulesets of a game share
one action space (a move one ruleset never allows is never in its mask). It is a superset of
what is legal: the mask of a position says which actions are legal there.
"""

from __future__ import annotations

from kibitz.moves import DEAL, Move
from kibitz.piles import PileKind
from kibitz.rules import Game

STOCK, WASTE, FOUNDATION, TABLEAU, RESERVE = (
    PileKind.STOCK, PileKind.WASTE, PileKind.FOUNDATION, PileKind.TABLEAU, PileKind.RESERVE)


class ActionSet:
    """The actions of one game: each an index of :attr:`moves`, the move it stands for."""

    def __init__(self, game: Game) -> None:
        reach = game.reach
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
