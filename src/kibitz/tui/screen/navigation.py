"""Moving about the table and turning a pick-up and put-down into a move: pure, no Textual."""

from __future__ import annotations

from kibitz.errors import InvalidMoveError
from kibitz.moves import Move
from kibitz.reasons import spoken_piles
from kibitz.state import State
from kibitz.tui.screen.layout import Layout
from kibitz.tui.session import card_move


def neighbour(layout: Layout, pile: str, dx: int, dy: int) -> str:
    """The place next to ``pile`` in direction (``dx``, ``dy``): the nearest in line with it
    (its slot overlapping this one across the direction), else the nearest that way at all;
    ``pile`` itself when none lies that way."""
    here = layout.place(pile).slot
    best: tuple[bool, float, str] | None = None
    for place in layout.places:
        slot = place.slot
        along = (slot.x - here.x) * dx + (slot.y - here.y) * dy
        if place.pile == pile or along <= 0:
            continue
        if dx:
            in_line = slot.y < here.bottom and here.y < slot.bottom
        else:
            in_line = slot.x < here.right and here.x < slot.right
        across = abs((slot.x - here.x) * dy) + abs((slot.y - here.y) * dx)
        key = (not in_line, along + 3 * across, place.pile)
        if best is None or key < best:
            best = key
    return pile if best is None else best[2]


def move_texts(state: State, source: str, position: int, target: str) -> list[str]:
    """The notations that may mean "the card at ``position`` of ``source`` onto ``target``":
    the top card, the cards from it up as one unit, or that one card alone."""
    size = len(state.pile(source)) - position
    if size <= 1:
        return [f"{source}>{target}"]
    return [f"{source}>{target}/{size}", f"{source}#{position}>{target}"]


def chosen_move(state: State, source: str, position: int, target: str) -> Move:
    """The legal move of the card at ``position`` of ``source`` onto ``target``; raises
    :class:`kibitz.errors.KibitzError` saying why not, in the player's words."""
    texts = move_texts(state, source, position, target)
    legal = {str(move) for move in state.legal_moves}
    with spoken_piles():
        for text in texts:
            if text in legal:
                return state.parse_move(text)
        return state.parse_move(texts[0])


def typed_move(state: State, text: str) -> Move:
    """A move typed on the move line (``t3>f5``, ``t3``, ``deal``, ``6S>f``); raises :class:`KibitzError`
    (:class:`kibitz.errors.KibitzError`) saying why it cannot be played, in the player's words."""
    with spoken_piles():
        try:
            return state.parse_move(text.strip())
        except InvalidMoveError:
            by_card = card_move(state, text)
            if by_card is None:
                raise
            return by_card
