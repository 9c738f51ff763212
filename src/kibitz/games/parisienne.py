"""Parisienne: Grand Duchess with one ace and one king of each suit on the foundations."""

from __future__ import annotations

from kibitz.families import Family
from kibitz.cards import ACE, KING
from kibitz.deals import shuffle
from kibitz.games import grand_duchess
from kibitz.rules import Game, GameInfo
from kibitz.state import State

INFO = GameInfo(
    slug="parisienne", name="Parisienne", aliases=("La Parisienne", "Parisian"),
    packs=2, redeals=3, pysolfc_id=617, family=Family.GRAND_DUCHESS,
    description="Grand Duchess with an ace and a king of each suit already on the foundations.")


def opening(game: Game, number: int) -> State:
    """Grand Duchess's shuffle without the first pack's aces and kings, which start the foundations."""
    pack = shuffle(number, game.info.packs)[0]
    rest = [i for i in pack if not (i < 52 and i % 13 in (ACE, KING))]
    state = grand_duchess.opening_from(game, rest)
    piles = list(state.piles)
    for i, spec in zip(game.foundations, (pile.foundation for pile in game.piles if pile.foundation)):
        assert spec is not None and spec.first is not None
        piles[i] = bytes((spec.suit * 13 + spec.first,))
    return State(game, tuple(piles))


STANDARD = grand_duchess.STANDARD.but(opening=opening)
PYSOLFC = grand_duchess.PYSOLFC.but(opening=opening)
