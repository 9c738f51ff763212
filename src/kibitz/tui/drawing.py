"""Drawing a position as text: what a player sees, with pile names as labels.

The drawing is built from :meth:`State.view`, so a card the player may not see
(face down, or under the top card of a squared pile) is never in it: face-down
cards show as backs (``##``), squared piles show their top card and a count.
Fanned piles read left to right, bottom to top: the rightmost card is the top.
"""

from __future__ import annotations

import os
import re
from typing import Mapping, TextIO

from kibitz.cards import RANKS, SUIT_NAMES, SUITS, Card, format_card, is_red
from kibitz.moves import Move
from kibitz.piles import Foundation, PileSpec, Spread
from kibitz.state import State
from kibitz.view import View

BACK = "##"
"""A card lying face down."""
EMPTY = "--"
"""An empty pile."""
LABEL_WIDTH = 16
"""Width of the label column on the left of the drawing."""

RED = "\x1b[31m"
BLUE = "\x1b[34m"
DIM = "\x1b[2m"
BOLD = "\x1b[1m"
RESET = "\x1b[0m"

LEGEND = ("Piles read left to right, bottom to top: the rightmost card is the top. "
          f"{BACK} is a face-down card, {EMPTY} an empty pile.")


def colour_wanted(stream: TextIO, no_color: bool = False,
                  environ: Mapping[str, str] | None = None) -> bool:
    """True when output to ``stream`` should be coloured.

    Colour is used only when the stream is a terminal, ``--no-color`` was not
    given and the ``NO_COLOR`` environment variable is unset or empty.
    """
    environ = os.environ if environ is None else environ
    if no_color or environ.get("NO_COLOR", ""):
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


class Painter:
    """Writes cards and labels, with ANSI colours when ``colour`` is set."""

    def __init__(self, colour: bool = False) -> None:
        self.colour = colour

    def _paint(self, code: str, text: str) -> str:
        return f"{code}{text}{RESET}" if self.colour else text

    def card(self, card: Card | None) -> str:
        """A visible card (red suits in red), or a back for ``None``."""
        if card is None:
            return self._paint(BLUE, BACK)
        text = format_card(card, mark_face_down=False)
        return self._paint(RED, text) if is_red(card) else text

    def empty(self) -> str:
        return self._paint(DIM, EMPTY)

    def bold(self, text: str) -> str:
        return self._paint(BOLD, text)


def card_text(view: View, pile: str, position: int) -> str:
    """The card at ``position`` of ``pile`` as the player sees it (``##`` when hidden)."""
    cards = view.pile(pile)
    card = cards[position] if -len(cards) <= position < len(cards) else None
    return BACK if card is None else format_card(card, mark_face_down=False)


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def visible_width(text: str) -> int:
    """Length of ``text`` on screen, colour codes left out."""
    return len(_ANSI.sub("", text))


def pad(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` visible characters."""
    return text + " " * max(0, width - visible_width(text))


def plural(n: int, word: str) -> str:
    """``1 card``, ``3 cards``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _foundation_row_label(foundation: Foundation, base: int | None) -> str:
    if foundation.first is None:
        return "up from base" if base is None else f"up from {RANKS[base]}"
    direction = "up" if foundation.step > 0 else "down"
    return f"{direction} from {RANKS[foundation.first]}"


def _foundation_rows(specs: list[PileSpec]) -> list[list[PileSpec]]:
    """Foundations in rows of at most four that build the same way."""
    rows: list[list[PileSpec]] = []
    for spec in specs:
        if (rows and len(rows[-1]) < 4 and rows[-1][0].foundation is not None
                and spec.foundation is not None
                and rows[-1][0].foundation.step == spec.foundation.step
                and rows[-1][0].foundation.first == spec.foundation.first):
            rows[-1].append(spec)
        else:
            rows.append([spec])
    return rows


class Drawing:
    """The text drawing of one state."""

    def __init__(self, state: State, painter: Painter) -> None:
        self.state = state
        self.game = state.game
        self.view = state.view()
        self.paint = painter
        self.lines: list[str] = []

    def _line(self, label: str, text: str) -> None:
        self.lines.append((label.ljust(LABEL_WIDTH) + text).rstrip())

    def _pile_cards(self, spec: PileSpec) -> tuple[Card | None, ...]:
        return self.view.pile(spec.name)

    def _cell(self, spec: PileSpec) -> str:
        """``f1 5C``: a pile's name and its top card (or ``--``)."""
        cards = self._pile_cards(spec)
        return f"{spec.name} " + (self.paint.card(cards[-1]) if cards else self.paint.empty())

    def _pile(self, spec: PileSpec) -> str:
        """A fanned pile shows every card; a squared pile its top card and a count."""
        cards = self._pile_cards(spec)
        if not cards:
            return f"{spec.name} {self.paint.empty()}"
        if spec.spread is Spread.SQUARED:
            count = f"  ({plural(len(cards), 'card')})" if len(cards) > 1 else ""
            return f"{spec.name} {self.paint.card(cards[-1])}{count}"
        return f"{spec.name} " + " ".join(self.paint.card(c) for c in cards)

    def header(self, deal_number: int | None, moves_played: int | None) -> None:
        game = self.game
        parts = [game.name]
        if deal_number is not None:
            parts.append(f"deal #{deal_number}")
        parts.append(f"{game.ruleset} rules")
        if moves_played is not None:
            parts.append(plural(moves_played, 'move'))
        self.lines.append(self.paint.bold(" - ".join(parts)))
        state, redeals = self.state, game.info.redeals
        if redeals == 0:
            status = "no redeal"
        else:
            left = redeals + 1 - state.round
            status = (f"round {state.round} of {redeals + 1}, "
                      f"{plural(left, 'redeal')} left")
        self.lines.append(status)
        if any(spec.foundation and spec.foundation.first is None for spec in game.piles):
            if state.base is None:
                self.lines.append("base rank not chosen yet: the first reserve card played "
                                  "to a foundation sets it")
            else:
                self.lines.append(f"base rank {RANKS[state.base]}: foundations build up from "
                                  f"{RANKS[state.base]}, ace after king")

    def stock_and_waste(self) -> None:
        self.lines.append("")
        stock = self._pile_cards(self.game.piles[self.game.stock])
        self._line("stock", f"s  {plural(len(stock), 'card') if stock else 'empty'}")
        if self.game.waste is not None:
            spec = self.game.piles[self.game.waste]
            waste = self._pile_cards(spec)
            text = (f"w  {self.paint.card(waste[-1])}  ({plural(len(waste), 'card')})" if waste
                    else f"w  {self.paint.empty()}")
            self._line("waste", text)

    def foundations(self) -> None:
        specs = [self.game.piles[i] for i in self.game.foundations]
        rows = _foundation_rows(specs)
        self.lines.append("")
        suits = [spec.foundation.suit for spec in rows[0] if spec.foundation is not None]
        if all([s.foundation.suit for s in row if s.foundation] == suits for row in rows):
            self._line("foundations", "".join(f"   {SUITS[s]}   " for s in suits).rstrip()
                       + "   (" + " ".join(SUIT_NAMES[s] for s in suits) + ")")
            label_first = False
        else:
            label_first = True
        for k, row in enumerate(rows):
            foundation = row[0].foundation
            assert foundation is not None
            label = _foundation_row_label(foundation, self.state.base)
            if label_first and k == 0:
                label = "foundations " + label
            self._line("  " + label, "  ".join(pad(self._cell(spec), 5) for spec in row))

    def reserve(self) -> None:
        specs = [self.game.piles[i] for i in self.game.reserve]
        if not specs:
            return
        self.lines.append("")
        if all(spec.cell for spec in specs):
            self._line("cells", "  ".join(self._cell(spec) for spec in specs))
            return
        for k, spec in enumerate(specs):
            self._line("reserve" if k == 0 else "", self._pile(spec))

    def tableau(self) -> None:
        self.lines.append("")
        for k, i in enumerate(self.game.tableau):
            self._line("tableau" if k == 0 else "", self._pile(self.game.piles[i]))


def draw(state: State, *, colour: bool = False, deal_number: int | None = None,
         moves_played: int | None = None) -> str:
    """The drawing of ``state`` as a player sees it (no hidden card is ever shown).

    ``deal_number`` and ``moves_played`` go in the header when given.
    """
    drawing = Drawing(state, Painter(colour))
    drawing.header(deal_number, moves_played)
    drawing.stock_and_waste()
    drawing.foundations()
    drawing.reserve()
    drawing.tableau()
    return "\n".join(drawing.lines)


def describe_move(state: State, move: Move) -> str:
    """A legal move with the card it moves, as the player sees it: ``t1>f1 (AC)``."""
    if move.is_deal:
        stock = state.pile("s")
        return "deal" if stock else f"deal (redeal: round {state.round + 1})"
    view = state.view()
    position = move.position if move.position is not None else -move.size
    text = card_text(view, move.source, position)
    if move.size > 1:
        text += f" and {move.size - 1} more"
    return f"{move} ({text})"

