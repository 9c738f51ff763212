"""The full-screen table: one game played with keys and the mouse (``kibitz play --screen``).

Everything shown comes from the player's view; moves go through the game's
:class:`kibitz.history.History`, and a refused move says why in the player's words
(:func:`kibitz.reasons.spoken_piles`), as in the browser.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from typing import TYPE_CHECKING, Callable

from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Input, Static

from kibitz.autoplay import autoplay, finishing_moves
from kibitz.errors import KibitzError
from kibitz.history import History
from kibitz.moves import Move
from kibitz.state import State
from kibitz.reasons import capital
from kibitz.spoken import card_words, move_phrase, played_words, to_foundations
from kibitz.tui.drawing import plural
from kibitz.tui.screen.clock import PlayClock
from kibitz.tui.screen.dialogs import NewDealScreen, NewGame, Question
from kibitz.tui.screen.navigation import chosen_move, neighbour, typed_move
from kibitz.tui.screen.review import ReviewScreen
from kibitz.tui.screen.screens import HelpScreen, RulesScreen
from kibitz.tui.screen.stats import StatisticsScreen
from kibitz.tui.screen.widget import Picked, TableWidget

if TYPE_CHECKING:  # the analysis layer loads when first asked: the table starts without the solver
    from kibitz.analysis import Chance, Hint, Review, SolverAnswer
    from kibitz.tui.screen.stored import GameKeeper
    from kibitz.web.store import Play

DIRECTIONS = {"left": (-1, 0), "right": (1, 0), "up": (0, -1), "down": (0, 1)}


FAIR = "seeing only what you see"
"""Who answers a hint or a chance: never the hidden cards."""
ANALYSIS = "solver (sees every card)"
"""Who answers in the analysis mode: every answer of the solver is labelled so."""


class QuitScreen(Question):
    """Asks before leaving a game in progress: ``y`` leaves, ``n`` or Esc stays."""

    def __init__(self) -> None:
        super().__init__("Leave this game? It is still in progress.", "leave", "stay")


class TableApp(App[None]):
    """One game at the table."""

    ENABLE_COMMAND_PALETTE = False   # its key would push the footer's own keys off a narrow screen

    CSS = """
    /* One line; up to three for a long reason (the layout counts one: CHROME_LINES). */
    #status-line { height: auto; max-height: 3; background: #1c2530; color: #e8e8e8; }
    #status { width: 1fr; height: auto; max-height: 3; padding: 0 1; }
    #clock { width: auto; height: 1; padding: 0 1; color: #9fc2e0; }
    #move-line { height: 1; border: none; padding: 0 1; display: none; }
    #move-line.open { display: block; }
    """
    BINDINGS = [
        Binding("left", "cursor('left')", "Move", show=False),
        Binding("right", "cursor('right')", "Move", show=False),
        Binding("up", "cursor('up')", "Move", show=False),
        Binding("down", "cursor('down')", "Move", show=False),
        Binding("enter,space", "pick", "Pick/put"),
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("plus,equals_sign", "run(-1)", "More cards", show=False),
        Binding("minus", "run(1)", "Fewer cards", show=False),
        Binding("u", "undo", "Undo"),
        Binding("r", "redo", "Redo", show=False),
        Binding("d", "deal", "Deal"),
        Binding("a", "auto", "Auto", show=False),
        Binding("f", "finish", "Finish", show=False),
        Binding("F", "auto_finish", "Auto-finish", show=False),
        Binding("h", "hint", "Hint"),
        Binding("c", "chance", "Chance", show=False),
        Binding("v", "review", "Review", show=False),
        Binding("A", "analysis", "Analysis", show=False),
        Binding("n", "new_deal", "New"),
        Binding("R", "rules", "Rules", show=False),
        Binding("question_mark", "help", "Help"),
        Binding("colon", "move_line", "Type move", show=False),
        Binding("s", "statistics", "Stats", show=False),
        Binding("q", "quit_game", "Quit"),
    ]

    def __init__(self, history: History, *, four_colours: bool = False, chosen: bool = True,
                 auto_finish: bool = False, keeper: GameKeeper | None = None,
                 now: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.keeper = keeper
        """Keeps the game in the store shared with the browser (told of every change), if any."""
        self.history = history
        self.chosen = chosen
        """Whether the deal was chosen by number (a random deal's number is kept until the end)."""
        self.four_colours = four_colours
        self.auto_finish = auto_finish
        """Whether the game finishes by itself once its end is certain (:func:`finishing_moves`)."""
        self.picked: Picked | None = None
        self.hint: Move | None = None
        self.hinted_at: tuple[Move, ...] | None = None
        """The moves of the position the hint is for: a hint is shown only there."""
        self.seed_text = secrets.token_hex(8)
        """What the seeds of this game's searches are made from, with the move count."""
        self.message = "? for help."
        self.analysis = False
        """The analysis mode: hint and chance ask the solver, which sees every card."""
        self.assisted = False
        """Whether the solver answered about this game (the store keeps it too, with a keeper)."""
        self.reviewed: Review | None = None
        """The last review completed (shown again at once for the same moves)."""
        stored = None if keeper is None or keeper.play is None else keeper.play.active
        self.clock = PlayClock(stored or 0.0, now)
        """The time of active play (with a keeper, the stored game's clock)."""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield TableWidget(self.history.game, self.history.state.view(), four_colours=self.four_colours,
                              id="table")
            yield Input(placeholder="a move, e.g. t3>f5 (Enter plays it, Esc closes)", id="move-line")
            with Horizontal(id="status-line"):
                yield Static("", id="status", markup=False)
                yield Static(self.clock.words(), id="clock", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.title = self.history.game.name
        self.refresh_table()
        self.set_interval(1.0, self.tick_clock)

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

    def shown_hint(self) -> Move | None:
        """The hint, while the position it was asked for is on the table."""
        return self.hint if self.hinted_at == self.history.moves else None

    def refresh_table(self) -> None:
        """Redraw the table and the status line from the current state."""
        self.table.show(self.history.state.view(), picked=self.picked, hint=self.shown_hint())
        kept = None if self.keeper is None else self.keeper.keep(self.history, self.chosen)
        message = kept or self.outcome() or self.message
        self.query_one("#status", Static).update(f"{self.header()} │ {message}")
        self.show_clock()

    def say(self, message: str) -> None:
        self.message = message
        self.refresh_table()

    # -- the clock, the analysis mode and the assisted mark --------------------------------

    def kept_play(self) -> Play | None:
        """The stored game of the table's game, while the keeper keeps it."""
        keeper = self.keeper
        if keeper is None or keeper.play is None or keeper.detached or keeper.play.history is not self.history:
            return None
        return keeper.play

    def is_assisted(self) -> bool:
        """Whether the solver, which sees every card, answered about this game."""
        play = self.kept_play()
        return self.assisted or (play is not None and play.assisted)

    def mark_assisted(self) -> None:
        """The solver answered about this game: it counts as assisted (in the store too)."""
        self.assisted = True
        if self.keeper is not None and self.kept_play() is not None:
            self.keeper.assisted()

    def show_clock(self) -> None:
        """The right end of the status line: the analysis mode, the assisted mark, the clock."""
        parts = ["analysis" if self.analysis else "", "assisted" if self.is_assisted() else "", self.clock.words()]
        # None while the app closes: its widgets go before the last tick of the clock's timer.
        for clock in self.query("#clock").results(Static):
            clock.update(" · ".join(part for part in parts if part))

    def tick_clock(self) -> None:
        """Once a second: the clock counts the time gone by while the game is played on the
        table (no page open over it, the game not over); the store's clock follows it."""
        running = len(self.screen_stack) == 1 and not self.history.state.is_over()
        seconds = self.clock.tick(running)
        play = self.kept_play()
        if play is not None and self.keeper is not None:
            # Reported every second, paused or not: time spent on a page never reaches the store.
            self.keeper.referee.tick(play, seconds)
            self.clock.set(play.active)
        self.show_clock()

    def action_analysis(self) -> None:
        self.analysis = not self.analysis
        if self.analysis:
            self.say(f"Analysis mode on: h, c and v ask the {ANALYSIS}; once it answers, the game counts "
                     "as assisted.")
        else:
            self.say("Analysis mode off: h, c and v see only what you see.")

    # -- playing --------------------------------------------------------------

    def play(self, move: Move) -> None:
        """Play a legal move, then say what it did."""
        before = self.history.state
        words = move_phrase(before, move)
        self.history.play(move)
        self.picked = None
        if self.auto_finish and self.finish_now(capital(words) + "; "):
            return
        self.say(capital(words) + ".")

    def put(self, target: str) -> None:
        """Put the picked-up card (and those on it) on ``target``."""
        picked = self.picked
        if picked is None:
            return
        self.picked = None
        if target == picked.pile:
            if target == "s" and any(move.is_deal for move in self.history.state.legal_moves):
                self.action_deal()
                return
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
        state = self.history.state
        if pile == "s":
            if not any(move.source == "s" and not move.is_deal for move in state.legal_moves):
                self.action_deal()
                return
            # The stock's top card may move (Duchess, once reserve and waste are used up); with a deal
            # possible too, choosing the stock again deals.
            self.picked = Picked("s", len(state.pile("s")) - 1)
            again = any(move.is_deal for move in state.legal_moves)
            self.say("Picked up the stock's top card: now choose where it goes"
                     + (" (the stock again deals; Esc cancels)." if again else " (Esc cancels)."))
            return
        cards = state.view().pile(pile)
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

    def action_run(self, step: int) -> None:
        """Take one more card (``step`` -1) or one fewer (+1) of the run under the picked-up card."""
        picked = self.picked
        if picked is None or picked.pile == "s":
            self.say("Pick up a card first: + then takes the card under it too, - one fewer.")
            return
        cards = self.history.state.view().pile(picked.pile)
        position = picked.position + step
        if not 0 <= position < len(cards) or cards[position] is None:
            self.say("No more cards of that pile can be taken." if step < 0 else "Only the top card is left.")
            return
        self.picked = Picked(picked.pile, position)
        more = len(cards) - 1 - position
        self.say(f"Picked up {card_words(cards[position], picked.pile)}"
                 + (f" and the {plural(more, 'card')} on it" if more else "") + ".")

    def spoken(self, pile: str) -> str:
        game = self.history.game
        return game.piles[game.pile_index(pile)].spoken

    # -- actions --------------------------------------------------------------

    def action_cursor(self, direction: str) -> None:
        dx, dy = DIRECTIONS[direction]
        table = self.table
        table.show(table.view, cursor=neighbour(table.layout_now, table.cursor, dx, dy), picked=self.picked,
                   hint=self.shown_hint())

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
        words = capital(to_foundations(cards))
        if self.auto_finish and self.finish_now(words + "; "):
            return
        self.say(words + ".")

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
        table.show(table.view, cursor=message.pile, picked=self.picked, hint=self.shown_hint())
        if self.picked is None:
            self.pick(message.pile, message.position)
        else:
            self.put(message.pile)

    def on_table_widget_dragged(self, message: TableWidget.Dragged) -> None:
        """A card dragged onto a place: picked up where it lay and put down there."""
        self.picked = None
        self.pick(message.pile, message.position)
        if self.picked is not None:
            self.put(message.target)

    def on_table_widget_double_clicked(self, message: TableWidget.DoubleClicked) -> None:
        """A double click sends the card to a foundation where it can go."""
        self.picked = None
        state = self.history.state
        game = state.game
        if message.position == len(state.pile(message.pile)) - 1:
            for move in state.legal_moves:
                if (move.source == message.pile and not move.is_deal
                        and game.piles[game.pile_index(move.target)].foundation is not None):
                    self.play(move)
                    return
        self.say("That card cannot go to a foundation now.")

    def action_statistics(self) -> None:
        """The statistics of the store shared with the browser."""
        self.push_screen(StatisticsScreen(None if self.keeper is None else self.keeper.statistics()))

    def in_progress(self) -> bool:
        """Whether a game has been started and has not ended (leaving it gives it up)."""
        return bool(self.history.move_count) and not self.history.state.is_over()

    def action_quit_game(self) -> None:
        """Leave; during a game, only after asking."""
        if self.in_progress():
            self.push_screen(QuitScreen(), self._leave_if)
        else:
            self.exit()

    def _leave_if(self, leave: bool | None) -> None:
        if leave:
            self.exit()

    # -- finishing --------------------------------------------------------------

    def finish_now(self, before: str = "") -> bool:
        """Play the game out to the foundations if its end is certain, saying so after
        ``before`` (what was played first); whether it did."""
        moves = finishing_moves(self.history.state)
        if not moves:
            return False
        start = self.history.move_count
        for move in moves:
            self.history.play(move)
        words = played_words(self.history.states[start:start + len(moves)], moves, asked=False)
        self.picked = None
        self.say(capital(f"{before}finished: {words}."))
        return True

    def action_finish(self) -> None:
        if self.history.state.is_won():
            self.say("The game is already won.")
        elif not self.finish_now():
            self.say("Finish: the end is not certain yet (a card is hidden, or the foundations alone "
                     "cannot take every card now).")

    def action_auto_finish(self) -> None:
        self.auto_finish = not self.auto_finish
        if not self.auto_finish:
            self.say("Auto-finish off: f finishes when you ask.")
        elif not self.finish_now("Auto-finish on; "):
            self.say("Auto-finish on: the game finishes by itself once every card is seen and the foundations "
                     "alone can take them all.")

    # -- fair assists: the hint and the chance, searched off the screen's thread -------------

    def seed(self, what: str | None = None) -> int:
        """The seed of a search from the current position: asking again gives the same answer;
        ``what``: one seed for every position of the game (the chance)."""
        text = f"{self.seed_text}:{what or self.history.move_count}"
        return int.from_bytes(hashlib.sha256(text.encode("ascii")).digest()[:8], "big")

    def ended(self, what: str) -> bool:
        """Whether the game is over, said for ``what``."""
        state = self.history.state
        if not state.is_over():
            return False
        self.say(f"{what}: the game is {'won' if state.is_won() else 'over: no move is left'}.")
        return True

    def action_hint(self) -> None:
        if self.ended("Hint"):
            return
        if self.analysis:
            self.say(f"{capital(ANALYSIS)}: looking for a winning line…")
            self.ask_solver(self.history, self.history.moves, "hint")
            return
        self.say("Hint: thinking…")
        self.find_hint(self.history, self.history.states, self.history.moves, self.seed())

    def still_at(self, history: History, moves: tuple[Move, ...]) -> bool:
        """Whether the position an answer was asked for (``moves`` of ``history``) is still on the table."""
        return history is self.history and moves == history.moves

    @work(thread=True, exclusive=True, group="hint")
    def find_hint(self, history: History, states: tuple[State, ...], moves: tuple[Move, ...], seed: int) -> None:
        """The fair hint for the position after ``moves``, found off the screen's thread."""
        from kibitz.analysis import fair_hint, observation_of
        found = fair_hint(observation_of(states, moves), seed)
        self.call_from_thread(self.show_hint, history, moves, found)

    def show_hint(self, history: History, moves: tuple[Move, ...], found: Hint) -> None:
        """Mark the hinted move and say it, if its position is still on the table."""
        if not self.still_at(history, moves):
            return
        self.hint, self.hinted_at = found.move, moves
        self.say(f"Hint: {move_phrase(history.state, found.move)} ({found.reason}; {FAIR}).")

    def action_chance(self) -> None:
        if self.ended("Chance"):
            return
        if self.analysis:
            self.say(f"{capital(ANALYSIS)}: can the game still be won? Thinking…")
            self.ask_solver(self.history, self.history.moves, "chance")
            return
        self.say("Chance to win: thinking…")
        self.find_chance(self.history, self.history.states, self.history.moves, self.seed("chance"))

    @work(thread=True, exclusive=True, group="chance")
    def find_chance(self, history: History, states: tuple[State, ...], moves: tuple[Move, ...], seed: int) -> None:
        """The fair chance to win from the position after ``moves``, found off the screen's thread."""
        from kibitz.analysis import fair_chance, observation_of
        found = fair_chance(observation_of(states, moves), seed)
        self.call_from_thread(self.show_chance, history, moves, found)

    def show_chance(self, history: History, moves: tuple[Move, ...], found: Chance) -> None:
        """Say the chance, if its position is still on the table."""
        if not self.still_at(history, moves):
            return
        from kibitz.analysis.text import chance_words
        self.say(f"Chance to win from here: {chance_words(found)}; an upper bound (? says more).")

    # -- the analysis mode: the solver's answers, seeing every card --------------------------

    @work(thread=True, exclusive=True, group="solver")
    def ask_solver(self, history: History, moves: tuple[Move, ...], asked: str) -> None:
        """The solver's answer about the position after ``moves`` (``asked``: for the hint or
        the chance), found off the screen's thread."""
        from kibitz.analysis import solver_answer
        found = solver_answer(history.states[len(moves)])
        self.call_from_thread(self.show_solver_answer, history, moves, asked, found)

    def show_solver_answer(self, history: History, moves: tuple[Move, ...], asked: str, found: SolverAnswer) -> None:
        """Say the solver's answer, labelled, if its position is still on the table; the game
        counts as assisted from then on."""
        if not self.still_at(history, moves):
            return
        self.mark_assisted()
        state = history.state
        if asked == "hint" and found.move is not None:
            self.hint, self.hinted_at = found.move, moves
            words = f"{move_phrase(state, found.move)} ({found.reason})"
        elif found.winnable is True:
            words = "the game can still be won"
        elif found.winnable is False:
            words = "the game cannot be won any more"
        else:
            words = f"not decided within {found.nodes:,} positions"
        self.say(f"{capital(ANALYSIS)}: {words}. This game is assisted.")

    # -- the review ---------------------------------------------------------------------------

    def action_review(self) -> None:
        """The review of the game so far: the fair part; the solver's part too once the game
        has ended, or in the analysis mode (which marks the game assisted)."""
        history = self.history
        if not history.move_count:
            self.say("Review: no move played yet.")
            return
        ended = history.state.is_over()
        sees = ended or self.analysis
        if sees and not ended:
            self.mark_assisted()
            self.show_clock()
        known = self.reviewed
        if known is None or known.moves != history.moves or not known.complete or (sees and not known.sees_every_card):
            known = None
        self.push_screen(ReviewScreen(history, self.seed("review"), sees, known), self.review_closed)

    def review_closed(self, done: Review | None) -> None:
        if done is not None and done.moves == self.history.moves:
            self.reviewed = done

    # -- a new deal, help and the rules -----------------------------------------------------

    def action_new_deal(self) -> None:
        game = self.history.game
        self.push_screen(NewDealScreen(game.slug, game.ruleset), self.deal_chosen)

    def deal_chosen(self, made: NewGame | None) -> None:
        """Start the chosen game, asking first when the one in progress would be given up."""
        if made is None:
            return
        if not self.in_progress():
            self.call_next(self.start_game, made)
            return

        async def answered(give_up: bool | None) -> None:
            if give_up:
                await self.start_game(made)

        self.push_screen(Question("Give up this game for the new deal? It is still in progress.",
                                  "give up", "keep playing"), answered)

    async def start_game(self, made: NewGame) -> None:
        """Play ``made`` from now on, on a table of its own."""
        left = self.history
        shown = self.chosen or left.state.is_over()
        before = f"The game left was deal #{left.deal_number}. " if not shown and left.deal_number is not None else ""
        self.history, self.chosen = made.history, made.chosen
        self.picked = self.hint = self.hinted_at = self.reviewed = None
        self.assisted = False
        self.clock.set(0.0)
        self.seed_text = secrets.token_hex(8)
        old = self.table
        await old.remove()
        game = made.history.game
        table = TableWidget(game, made.history.state.view(), four_colours=self.four_colours, id="table")
        await self.query_one(Vertical).mount(table, before="#move-line")
        table.focus()
        self.title = game.name
        deal = (f"deal #{made.history.deal_number}" if made.chosen
                else "a random deal (its number is shown when the game ends)")
        self.say(f"{before}{game.name}, {deal}, {game.ruleset} rules.")

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    def action_rules(self) -> None:
        self.push_screen(RulesScreen(self.history.game.slug))
