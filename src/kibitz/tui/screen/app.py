"""The full-screen table: one game played with keys and the mouse (``kibitz play --screen``).

Everything shown comes from the player's view; moves go through the game's
:class:`kibitz.history.History`, and a refused move says why in the player's words
(:func:`kibitz.reasons.spoken_piles`), as in the browser.
"""

from __future__ import annotations

from typing import Callable

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Static

from kibitz.autoplay import autoplay
from kibitz.errors import KibitzError
from kibitz.history import History
from kibitz.moves import Move
from kibitz.reasons import capital
from kibitz.spoken import card_words, move_phrase, to_foundations
from kibitz.tui.drawing import plural
from kibitz.tui.screen.navigation import chosen_move, neighbour, typed_move
from kibitz.tui.screen.widget import Picked, TableWidget

DIRECTIONS = {"left": (-1, 0), "right": (1, 0), "up": (0, -1), "down": (0, 1)}


class QuitScreen(ModalScreen[bool]):
    """Asks before leaving a game in progress: ``y`` leaves, ``n`` or Esc stays."""

    DEFAULT_CSS = """
    QuitScreen { align: center middle; }
    QuitScreen > Static { width: 44; padding: 1 2; border: round $warning; background: $surface; }
    """
    BINDINGS = [Binding("y", "answer(True)", "Leave"), Binding("n,escape", "answer(False)", "Stay")]

    def compose(self) -> ComposeResult:
        yield Static("Leave this game? It is still in progress.\n\n[b]y[/b] leave    [b]n[/b] stay",
                     id="question")

    def action_answer(self, leave: bool) -> None:
        self.dismiss(leave)


class TableApp(App[None]):
    """One game at the table."""

    ENABLE_COMMAND_PALETTE = False   # its key would push the footer's own keys off a narrow screen

    CSS = """
    #status { height: 1; background: #1c2530; color: #e8e8e8; padding: 0 1; }
    #move-line { height: 1; border: none; padding: 0 1; display: none; }
    #move-line.open { display: block; }
    """
    BINDINGS = [
        Binding("left", "cursor('left')", "Move", show=False),
        Binding("right", "cursor('right')", "Move", show=False),
        Binding("up", "cursor('up')", "Move", show=False),
        Binding("down", "cursor('down')", "Move", show=False),
        Binding("enter,space", "pick", "Pick/put"),
        Binding("escape", "cancel", "Cancel"),
        Binding("u", "undo", "Undo"),
        Binding("r", "redo", "Redo"),
        Binding("d", "deal", "Deal"),
        Binding("a", "auto", "Auto"),
        Binding("colon", "move_line", "Type move"),
        Binding("q", "quit_game", "Quit"),
    ]

    def __init__(self, history: History, *, four_colours: bool = False, chosen: bool = True) -> None:
        super().__init__()
        self.history = history
        self.chosen = chosen
        """Whether the deal was chosen by number (a random deal's number is kept until the end)."""
        self.four_colours = four_colours
        self.picked: Picked | None = None
        self.message = "Arrows move, Enter picks up and puts down; click a card, then where it goes."

    def compose(self) -> ComposeResult:
        with Vertical():
            yield TableWidget(self.history.game, self.history.state.view(), four_colours=self.four_colours,
                              id="table")
            yield Input(placeholder="a move, e.g. t3>f5 (Enter plays it, Esc closes)", id="move-line")
            yield Static("", id="status", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.title = self.history.game.name
        self.refresh_table()

    @property
    def table(self) -> TableWidget:
        return self.query_one("#table", TableWidget)

    # -- showing --------------------------------------------------------------

    def header(self) -> str:
        """The game, deal, moves and round, for the status line."""
        history = self.history
        game = history.game
        parts = [game.name]
        if history.deal_number is not None and (self.chosen or history.state.is_over()):
            parts.append(f"#{history.deal_number}")
        parts.append(plural(history.move_count, "move"))
        if game.info.redeals:
            parts.append(f"round {history.state.round} of {game.info.redeals + 1}")
        return " · ".join(parts)

    def outcome(self) -> str | None:
        """What the player is told when the game has ended."""
        state = self.history.state
        if state.is_won():
            return f"You won in {plural(self.history.move_count, 'move')}!"
        if state.is_over():
            return "No moves left: the game is over (u takes moves back)."
        return None

    def refresh_table(self) -> None:
        """Redraw the table and the status line from the current state."""
        self.table.show(self.history.state.view(), picked=self.picked)
        message = self.outcome() or self.message
        self.query_one("#status", Static).update(f"{self.header()} │ {message}")

    def say(self, message: str) -> None:
        self.message = message
        self.refresh_table()

    # -- playing --------------------------------------------------------------

    def play(self, move: Move) -> None:
        """Play a legal move, then say what it did."""
        before = self.history.state
        words = move_phrase(before, move)
        self.history.play(move)
        self.picked = None
        self.say(capital(words) + ".")

    def put(self, target: str) -> None:
        """Put the picked-up card (and those on it) on ``target``."""
        picked = self.picked
        if picked is None:
            return
        self.picked = None
        if target == picked.pile:
            self.say("Put back.")
            return
        try:
            move = chosen_move(self.history.state, picked.pile, picked.position, target)
        except KibitzError as error:
            self.say(str(error))
            return
        self.play(move)

    def pick(self, pile: str, position: int | None) -> None:
        """Pick up the card at ``position`` of ``pile`` (its top card for ``None``); the stock deals."""
        if pile == "s":
            self.action_deal()
            return
        cards = self.history.state.view().pile(pile)
        if not cards:
            self.say(f"{capital(self.spoken(pile))} is empty.")
            return
        position = len(cards) - 1 if position is None else position
        if cards[position] is None:
            self.say("That card is face down.")
            return
        self.picked = Picked(pile, position)
        self.say(f"Picked up {card_words(cards[position], pile)} from {self.spoken(pile)}: now choose where it goes "
                 "(Esc cancels).")

    def spoken(self, pile: str) -> str:
        game = self.history.game
        return game.piles[game.pile_index(pile)].spoken

    # -- actions --------------------------------------------------------------

    def action_cursor(self, direction: str) -> None:
        dx, dy = DIRECTIONS[direction]
        table = self.table
        table.show(table.view, cursor=neighbour(table.layout_now, table.cursor, dx, dy), picked=self.picked)

    def action_pick(self) -> None:
        cursor = self.table.cursor
        if self.picked is None:
            self.pick(cursor, None)
        else:
            self.put(cursor)

    def action_cancel(self) -> None:
        line = self.query_one("#move-line", Input)
        if line.has_class("open"):
            line.remove_class("open")
            self.table.focus()
            return
        if self.picked is not None:
            self.picked = None
            self.say("Cancelled.")

    def action_undo(self) -> None:
        self.step(self.history.undo, "Took back a move.")

    def action_redo(self) -> None:
        self.step(self.history.redo, "Played the move again.")

    def step(self, action: Callable[[], object], done: str) -> None:
        """Undo or redo one move, saying so (or why not)."""
        self.picked = None
        try:
            action()
        except KibitzError as error:
            self.say(capital(str(error)) + ".")
            return
        self.say(done)

    def action_deal(self) -> None:
        self.picked = None
        try:
            move = typed_move(self.history.state, "deal")
        except KibitzError as error:
            self.say(str(error))
            return
        self.play(move)

    def action_auto(self) -> None:
        self.picked = None
        states_before = self.history.move_count
        played = autoplay(self.history)
        if not played:
            self.say("No card can safely go to the foundations now.")
            return
        states = self.history.states[states_before:states_before + len(played)]
        cards = [state.view().pile(move.source)[-1] for state, move in zip(states, played)]
        self.say(capital(to_foundations(cards)) + ".")

    def action_move_line(self) -> None:
        line = self.query_one("#move-line", Input)
        line.add_class("open")
        line.value = ""
        line.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.input.remove_class("open")
        self.table.focus()
        text = event.value.strip()
        if not text:
            return
        self.picked = None
        try:
            move = typed_move(self.history.state, text)
        except KibitzError as error:
            self.say(str(error))
            return
        self.play(move)

    def on_table_widget_clicked(self, message: TableWidget.Clicked) -> None:
        table = self.table
        table.show(table.view, cursor=message.pile, picked=self.picked)
        if self.picked is None:
            self.pick(message.pile, message.position)
        else:
            self.put(message.pile)

    def action_quit_game(self) -> None:
        """Leave; during a game, only after asking."""
        if self.history.move_count and not self.history.state.is_over():
            self.push_screen(QuitScreen(), self._leave_if)
        else:
            self.exit()

    def _leave_if(self, leave: bool | None) -> None:
        if leave:
            self.exit()
