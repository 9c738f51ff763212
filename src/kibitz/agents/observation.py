"""What an agent is given: an :class:`Observation`, plain data about what the player sees.

An observation holds the game and ruleset, the player's :class:`~kibitz.view.View` (each
pile bottom to top, ``None`` for a hidden card, the round and the base rank), what the
player sees of each card (whether it lies face down), the legal moves as the referee
lists them, and what is public of the game so far: the moves played and the views seen.
It holds no state and no pile of one: only strings, numbers, tuples, views and moves, so an
agent cannot reach the cards it may not see. :func:`observe` is the one function that makes
an observation from a state; it is the referee's side of the table.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

from kibitz.cards import FACE_DOWN, IDENTITY, Card
from kibitz.moves import Move
from kibitz.view import View

if TYPE_CHECKING:  # the referee's side only: an agent never holds a state
    from kibitz.state import State


@dataclass(frozen=True)
class Observation:
    """What a player knows of a position (see the module docstring)."""

    view: View
    face_down: tuple[tuple[bool, ...], ...]
    """For each pile, bottom to top: whether the card lies face down. A hidden card that is
    not face down is covered in a squared pile (and turns up without being turned over)."""
    legal_moves: tuple[Move, ...]
    packs: int
    """Packs of 52 cards in the game."""
    played: tuple[Move, ...] = ()
    """The moves played so far in this game, when the referee tells them (public knowledge)."""
    earlier: tuple[View, ...] = ()
    """The views of the positions seen earlier in this game, oldest first, when the referee
    tells them (the player saw them)."""

    @property
    def slug(self) -> str:
        return self.view.slug

    @property
    def ruleset(self) -> str:
        return self.view.ruleset

    @property
    def round(self) -> int:
        return self.view.round

    @property
    def base(self) -> int | None:
        return self.view.base

    def pile(self, name: str) -> tuple[Card | None, ...]:
        """The cards of pile ``name`` as the player sees them, bottom to top."""
        return self.view.pile(name)

    def hidden_places(self) -> list[tuple[int, int, bool]]:
        """Every hidden card's place: (pile index, position from the bottom, face down)."""
        return [(i, k, self.face_down[i][k]) for i, pile in enumerate(self.view.piles)
                for k, card in enumerate(pile) if card is None]

    def unseen_cards(self) -> list[Card]:
        """The identities of the cards the player does not see, in card order (with repeats in
        a two-pack game): the packs less every card visible on the table."""
        seen = Counter(card & IDENTITY for pile in self.view.piles for card in pile if card is not None)
        return [card for card in range(52) for _ in range(self.packs - seen[card])]

    @property
    def hidden_count(self) -> int:
        return sum(card is None for pile in self.view.piles for card in pile)


def observe(state: State, played: Iterable[Move] = (), earlier: Iterable[View] = ()) -> Observation:
    """The observation of ``state`` by its player; ``played``: the moves made so far and
    ``earlier``: the views of the positions before this one, when known."""
    view = state.view()
    face_down = tuple(tuple(bool(card & FACE_DOWN) for card in pile) for pile in state.piles)
    return Observation(view, face_down, tuple(state.legal_moves), state.game.info.packs, tuple(played),
                       tuple(earlier))
