"""Piles and moves in a player's words, for a player who does not type notation (the browser).

``t4`` is "tableau 4", ``r1`` "reserve 1" (a cell: "cell 1"), ``s`` "the stock"; a move is
said with the cards it moves and where they land: "the 7♠ from reserve 1 onto the 8♥ in
tableau 4". Cards are written as on their index (``10♥``, never ``T``), and only the cards
the player sees are named: a hidden card is "a face-down card" or "the stock's top card".
Notation stays where a player types moves; the terminal player keeps it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from kibitz.cards import Card, card_text
from kibitz.moves import Move
from kibitz.piles import PileKind

if TYPE_CHECKING:
    from kibitz.rules import Game
    from kibitz.state import State

LISTED = 5
"""The most cards a sentence lists one by one; more are counted."""


def spoken_name(game: Game, name: str) -> str:
    """Pile ``name`` of ``game`` (``t4``) as a player says it (``tableau 4``)."""
    return game.piles[game.pile_index(name)].spoken


def card_words(card: Card | None, pile: str) -> str:
    """A card of pile ``pile`` as the player may be told of it: ``the 10♥``; a hidden one
    ``the stock's top card`` or ``a face-down card``."""
    if card is not None:
        return f"the {card_text(card)}"
    return "the stock's top card" if pile == "s" else "a face-down card"


def move_phrase(state: State, move: Move) -> str:
    """Legal ``move`` of ``state`` in words, naming only the cards the player sees:
    ``the 7♠ from reserve 1 onto the 8♥ in tableau 4``, ``the A♣ from the waste to
    foundation 1``, ``a deal from the stock``."""
    game = state.game
    view = state.view()
    if move.is_deal:
        return "a deal from the stock" if state.pile("s") else "a redeal"
    cards = view.pile(move.source)
    index = move.position if move.position is not None else len(cards) - move.size
    subject = card_words(cards[index], move.source)
    above = move.size - 1
    if above:
        subject += f" and the {'card' if above == 1 else f'{above} cards'} on it"
    return f"{subject} from {spoken_name(game, move.source)} {_landing(state, move.target)}"


def _landing(state: State, target: str) -> str:
    """Where a move lands: ``to foundation 2``, ``to cell 3``, ``to the empty tableau 1``,
    ``onto the 8♥ in tableau 4``."""
    game = state.game
    spec = game.piles[game.pile_index(target)]
    where = spec.spoken
    pile = state.view().pile(target)
    if spec.kind is PileKind.FOUNDATION or spec.cell:
        return f"to {where}"
    if not pile:
        return f"to the empty {where}"
    top = pile[-1]
    return f"onto {where}" if top is None else f"onto the {card_text(top)} in {where}"


def cards_list(cards: Sequence[str]) -> str:
    """``the A♣``, ``the A♣ and 2♣``, ``the A♣, 2♣ and 3♥``."""
    if len(cards) <= 1:
        return "".join(f"the {card}" for card in cards)
    return f"the {', '.join(cards[:-1])} and {cards[-1]}"


def to_foundations(cards: Sequence[Card | None]) -> str:
    """Cards played to the foundations, in a few words: ``the A♣ and 2♣ to the foundations``;
    more than :data:`LISTED` only counted: ``12 cards to the foundations``."""
    if len(cards) > LISTED or any(card is None for card in cards):
        return f"{len(cards)} card{'' if len(cards) == 1 else 's'} to the foundations"
    return f"{cards_list([card_text(card) for card in cards if card is not None])} to the foundations"


def played_words(states: Sequence[State], moves: Sequence[Move], asked: bool) -> str:
    """What a request played, in words: ``moves`` played from ``states`` (the state before
    each). The first move is said in full when the player ``asked`` for it; the others (auto-play,
    finish: moves to the foundations) as the cards they played: ``the 7♠ from reserve 1 onto
    the 8♥ in tableau 4; then the A♣ and 2♣ to the foundations``."""
    parts: list[str] = []
    rest = list(zip(states, moves))
    if asked and rest:
        state, move = rest.pop(0)
        parts.append(move_phrase(state, move))
    if rest:
        played = [_moved_card(state, move) for state, move in rest]
        parts.append(("then " if parts else "") + to_foundations(played))
    return "; ".join(parts)


def _moved_card(state: State, move: Move) -> Card | None:
    """The card a single-card move plays, as the player saw it (``None``: hidden or a deal)."""
    if move.is_deal:
        return None
    cards = state.view().pile(move.source)
    return cards[move.position if move.position is not None else len(cards) - move.size]
