"""How long each fanned pile may grow before the round ends: what a table makes room for.

A player's table keeps one card size for a whole round (until a redeal), so it must make room,
from the round's first position, for the longest its fanned piles will get. Two things make a
pile longer: the stock's deals and building. The deals are foreseen from the rules: the stock
is dealt on, as a click would deal it, until it runs out or the round ends (a redeal), and
each pile's longest length along the way counted. Only the piles' lengths are read, never
their cards, so the answer tells a player nothing the table does not show. What building may
add is declared with the table (:attr:`kibitz.table.Place.builds_to`).

Every card counted may show face up (a face-down card may turn), so a client sizing its
cards for these lengths keeps every index in sight.
"""

from __future__ import annotations

from kibitz.state import State
from kibitz.table import Fan


def longest_in_round(state: State) -> dict[str, int]:
    """Each fanned pile's name -> the most cards it may hold before the round of ``state`` ends."""
    game = state.game
    names = game.pile_names()
    longest = [len(pile) for pile in state.piles]
    position: State | None = state
    while position is not None and position.piles[game.stock]:
        position = game.rules.deal(game, position)
        if position is None or position.round != state.round:
            break
        longest = [max(most, len(pile)) for most, pile in zip(longest, position.piles)]
    found = {}
    for place in game.table.places:
        if place.fan is not Fan.NONE:
            found[place.pile] = max(longest[names.index(place.pile)], place.builds_to)
    return found
