"""The table's dialogs: a yes-or-no question, and the new deal (game, ruleset, deal, level).

What a new deal is made from is chosen in :class:`NewDealScreen`; :func:`new_game` turns the
choice into a game, the same way the line player's ``new`` does (a numbered deal, a random one,
or a random rated deal of a level, :mod:`kibitz.difficulty`).
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from kibitz.deals import parse_deal_number, random_deal_number
from kibitz.difficulty import LEVELS, level_named, pick
from kibitz.errors import KibitzError
from kibitz.history import History
from kibitz.registry import game, games
from kibitz.rules import RULESETS


class Question(ModalScreen[bool]):
    """A yes-or-no question: ``y`` answers yes, ``n`` or Esc no."""

    DEFAULT_CSS = """
    Question { align: center middle; }
    Question > Static { width: 50; padding: 1 2; border: round $warning; background: $surface; }
    """
    BINDINGS = [Binding("y", "answer(True)", "Yes"), Binding("n,escape", "answer(False)", "No")]

    def __init__(self, question: str, yes: str = "yes", no: str = "no") -> None:
        super().__init__()
        self.question = question
        self.yes = yes
        self.no = no

    def compose(self) -> ComposeResult:
        yield Static(f"{self.question}\n\n[b]y[/b] {self.yes}    [b]n[/b] {self.no}", id="question")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


@dataclass(frozen=True)
class DealChoice:
    """What the player asked for in the new-deal dialog."""

    slug: str
    ruleset: str
    deal: str
    """The deal number as typed; empty for a random deal."""
    level: str
    """``any``, or one of :data:`kibitz.difficulty.LEVELS`."""
    winnable: bool


@dataclass(frozen=True)
class NewGame:
    """A game to start: its history, and whether its deal was chosen by number."""

    history: History
    chosen: bool


def new_game(choice: DealChoice) -> NewGame:
    """The game ``choice`` asks for (a random deal's number stays hidden until the game ends). A typed number wins over a level; a level or
    *winnable only* picks a random rated deal. Raises :class:`KibitzError` saying why not."""
    played = game(choice.slug, choice.ruleset)
    if choice.deal.strip():
        return NewGame(History.new(played, parse_deal_number(choice.deal.strip())), True)
    if choice.level != "any" or choice.winnable:
        rated = pick(choice.slug, choice.ruleset, level_named(choice.level), choice.winnable)
        return NewGame(History.new(played, rated.deal), False)
    return NewGame(History.new(played, random_deal_number()), False)


class NewDealScreen(ModalScreen["NewGame | None"]):
    """The new deal: game, ruleset, deal number (blank: random), level and winnable only.

    Dismissed with the new game, or ``None`` (Esc)."""

    DEFAULT_CSS = """
    NewDealScreen { align: center middle; }
    NewDealScreen > VerticalScroll { width: 66; height: auto; max-height: 100%; padding: 0 1;
                                     border: round $accent; background: $surface; }
    NewDealScreen Grid { grid-size: 2; grid-columns: 8 1fr; grid-rows: 1; grid-gutter: 1 1; height: auto;
                         margin: 1 0; }
    NewDealScreen .note { color: $text-muted; }
    NewDealScreen #problem { color: $error; height: auto; }
    NewDealScreen #buttons { height: 1; margin: 1 0 0 0; }
    NewDealScreen Button { margin: 0 2 0 0; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, slug: str, ruleset: str) -> None:
        super().__init__()
        self.slug = slug
        self.ruleset = ruleset

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Label("[b]New deal[/b]  Tab: next field, Enter: deal, Esc: cancel")
            with Grid():
                yield Label("Game")
                yield Select([(info.name, info.slug) for info in games()], value=self.slug, allow_blank=False,
                             compact=True, id="game")
                yield Label("Rules")
                yield Select([(f"{name} rules", name) for name in RULESETS], value=self.ruleset,
                             allow_blank=False, compact=True, id="ruleset")
                yield Label("Deal")
                yield Input(placeholder="a number; blank: a random deal", compact=True, id="deal")
                yield Label("Level")
                yield Select([("any level", "any"), *((level, level) for level in LEVELS)], value="any",
                             allow_blank=False, compact=True, id="level")
                yield Label("")
                yield Checkbox("only deals the solver proved winnable", compact=True, id="winnable")
            yield Static("A level picks a random rated deal (rated by how often a strong player wins it); "
                         "a random deal's number is shown when the game ends.", classes="note")
            yield Static("", id="problem", markup=False)
            with Horizontal(id="buttons"):
                yield Button("Deal", variant="primary", compact=True, id="start")
                yield Button("Cancel", compact=True, id="cancel")

    def on_mount(self) -> None:
        self.query_one("#deal", Input).focus()

    def choice(self) -> DealChoice:
        """What the fields say now."""
        return DealChoice(str(self.query_one("#game", Select).value), str(self.query_one("#ruleset", Select).value),
                          self.query_one("#deal", Input).value, str(self.query_one("#level", Select).value),
                          self.query_one("#winnable", Checkbox).value)

    def start(self) -> None:
        """Make the asked game and close, or say why it cannot be made."""
        try:
            made = new_game(self.choice())
        except KibitzError as error:
            self.query_one("#problem", Static).update(str(error))
            return
        self.dismiss(made)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.start()
        else:
            self.dismiss(None)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.start()

    def action_cancel(self) -> None:
        self.dismiss(None)
