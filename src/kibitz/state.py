"""The game state: an immutable value holding every card, with a cheap hashable key.

Piles are ``bytes`` (one byte per card, bottom to top, see :mod:`kibitz.cards`),
so copying a state is copying a tuple of references, and a state's hash is built
from the piles' cached hashes. ``round`` counts from 1 and goes up with each
redeal; ``base`` is Duchess's base rank once chosen (``None`` otherwise).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kibitz.cards import IDENTITY, Card

if TYPE_CHECKING:
    from kibitz.moves import Move
    from kibitz.rules import Game
    from kibitz.view import View

Key = tuple[tuple[bytes, ...], int, int]


class State:
    """A position of a game: every pile, the round and the base rank.

    States are immutable; :meth:`apply` returns a new state. Two states are equal
    when they belong to the same game and ruleset and hold the same cards in the
    same places with the same faces, round and base.
    """

    __slots__ = ("game", "piles", "round", "base", "_legal")

    game: Game
    piles: tuple[bytes, ...]
    round: int
    base: int | None
    _legal: tuple[Move, ...] | None

    def __init__(self, game: Game, piles: tuple[bytes, ...], round: int = 1,
                 base: int | None = None) -> None:
        object.__setattr__(self, "game", game)
        object.__setattr__(self, "piles", piles)
        object.__setattr__(self, "round", round)
        object.__setattr__(self, "base", base)
        object.__setattr__(self, "_legal", None)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"State is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"State is immutable: cannot delete {name!r}")

    # -- identity -----------------------------------------------------------

    @property
    def key(self) -> Key:
        """A hashable key: equal states of one game have equal keys."""
        return (self.piles, self.round, -1 if self.base is None else self.base)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return (self.game is other.game and self.piles == other.piles
                and self.round == other.round and self.base == other.base)

    def __hash__(self) -> int:
        return hash((self.piles, self.round, self.base))

    def __repr__(self) -> str:
        return f"<State {self.game.slug}/{self.game.ruleset} round {self.round}>"

    def __str__(self) -> str:
        from kibitz.notation import format_state
        return format_state(self)

    def __reduce__(self) -> tuple[Any, ...]:
        from kibitz.notation import format_state, parse_state
        return (parse_state, (format_state(self),))

    # -- piles --------------------------------------------------------------

    def pile(self, name: str) -> bytes:
        """The cards of the pile named ``name`` (``t3``), bottom to top."""
        return self.piles[self.game.pile_index(name)]

    def cards(self, name: str) -> list[Card]:
        """The card identities of pile ``name``, bottom to top, without face bits."""
        return [c & IDENTITY for c in self.pile(name)]

    # -- rules (delegated to the game) ---------------------------------------

    @property
    def legal_moves(self) -> tuple[Move, ...]:
        """Every legal move, including ``deal`` when the stock may be clicked."""
        legal: tuple[Move, ...] | None = self._legal
        if legal is None:
            legal = self.game.generate_moves(self)
            object.__setattr__(self, "_legal", legal)
        return legal

    def is_legal(self, move: Move) -> bool:
        """True when ``move`` is legal here."""
        return move in self.legal_moves

    def apply(self, move: Move | str) -> State:
        """The state after ``move`` (a :class:`Move` or its text); raises on an illegal move."""
        return self.game.apply(self, move)

    def is_won(self) -> bool:
        """True when every card is on a foundation."""
        return self.game.is_won(self)

    def is_over(self) -> bool:
        """True when the game is won or no legal move remains."""
        return self.is_won() or not self.legal_moves

    def parse_move(self, text: str) -> Move:
        """Parse a move typed by a player, including shorthands (``t3>f``), and check it is legal."""
        return self.game.parse_move(self, text)

    def view(self) -> View:
        """What a player may see: hidden cards masked."""
        from kibitz.view import view_of
        return view_of(self)
