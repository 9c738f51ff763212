"""What a player may see of a state: hidden cards masked (``State.view()`` makes a :class:`View`).

A card is hidden when it lies face down, or under the top card of a squared
pile (the stock, the waste, Napoleon's Flank and Kingsdown Eights columns).
Foundations are squared on the table but their cards follow from the top card,
so they are not hidden.
"""

from __future__ import annotations

from dataclasses import dataclass

from kibitz.cards import FACE_DOWN, RANKS, Card, format_card
from kibitz.piles import PileKind, Spread

HIDDEN = "??"


@dataclass(frozen=True)
class View:
    """A state as a player sees it: each pile bottom to top, ``None`` for a hidden card."""

    slug: str
    ruleset: str
    pile_names: tuple[str, ...]
    piles: tuple[tuple[Card | None, ...], ...]
    round: int
    base: int | None

    def __str__(self) -> str:
        base = "-" if self.base is None else RANKS[self.base]
        fields = [self.slug, self.ruleset, f"round={self.round}", f"base={base}"]
        for name, pile in zip(self.pile_names, self.piles):
            fields.append(name + "=" + ",".join(HIDDEN if c is None else format_card(c) for c in pile))
        return " ".join(fields)

    def pile(self, name: str) -> tuple[Card | None, ...]:
        return self.piles[self.pile_names.index(name)]


def is_hidden(spread: Spread, kind: PileKind, pile: bytes, position: int) -> bool:
    """True when the card at ``position`` of ``pile`` is hidden from the player."""
    if pile[position] & FACE_DOWN:
        return True
    return (spread is Spread.SQUARED and kind is not PileKind.FOUNDATION
            and position != len(pile) - 1)
