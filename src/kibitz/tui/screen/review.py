"""The review of the game at the table (``v``): the fair chance before each move as a chart, the
moves that gave it away with the better move, accuracy and luck, from the analysis layer
(:func:`kibitz.analysis.review_events`, :mod:`kibitz.analysis.text`).

During a game only the fair part is shown: what the player could see. Once the game has
ended (or in the analysis mode, which marks the game assisted) the solver's part too, seeing
every card: whether the deal could be won, and the point of no return. The review runs off
the screen's thread, its progress shown; closing the page stops it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Generator, cast

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, ProgressBar, Static
from textual.worker import Worker, get_current_worker

from kibitz.history import History
from kibitz.tui.drawing import plural

if TYPE_CHECKING:  # the analysis layer loads when first asked
    from kibitz.analysis import Event, Review

SOLVER_LATER = ("The solver's part (seeing every card: whether the deal could be won, and the point of no return) "
                "is shown once the game has ended; in the analysis mode (A) it is shown now, and the game counts "
                "as assisted.")


class ReviewScreen(ModalScreen["Review | None"]):
    """The review of ``history``'s moves so far; ``sees_every_card``: the solver's part too.
    ``known``: a review of the same moves already made, shown at once. Closing it gives back
    the review if it was completed."""

    DEFAULT_CSS = """
    ReviewScreen { align: center middle; }
    ReviewScreen > VerticalScroll { width: 90%; max-width: 100; height: 90%; border: round $accent;
                                    background: $surface; padding: 0 1; }
    ReviewScreen #review-progress { margin: 1 0; }
    ReviewScreen #review-progress.done { display: none; }
    ReviewScreen #review-text { margin-top: 1; }
    """
    BINDINGS = [Binding("escape,q,v", "close", "Close")]

    def __init__(self, history: History, seed: int, sees_every_card: bool, known: Review | None = None) -> None:
        super().__init__()
        from kibitz.analysis import new_review
        self.history = history
        self.sees_every_card = sees_every_card
        self.ended = history.state.is_over()
        self.review = known if known is not None else new_review(
            history.start, history.moves, seed, history.deal_number, sees_every_card=sees_every_card)
        self.steps = len(history.moves) + 1 + (1 if sees_every_card else 0)
        """The events the review is made of: each move, the chance after the last, the solver's part."""
        self.worker: Worker[None] | None = None
        self.closed = False

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(self.title_words(), id="review-title", markup=False)
            yield ProgressBar(total=self.steps, show_eta=False, id="review-progress")
            yield Static("", id="review-text", markup=False)
        yield Footer()

    def title_words(self) -> str:
        moves = plural(len(self.history.moves), "move")
        if not self.sees_every_card:
            return f"Review of the {moves} so far: the fair part (only what you could see)."
        solver = ("the game has ended" if self.ended
                  else "analysis mode: the solver sees every card, so this game counts as assisted")
        return f"Review of the {moves}: the fair part, and the solver's part, seeing every card ({solver})."

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()
        if self.review.complete:
            self.show_report()
        else:
            self.query_one("#review-text", Static).update(f"Reviewing {plural(len(self.history.moves), 'move')}…")
            self.worker = self.run_review()

    @work(thread=True, exclusive=True, group="review")
    def run_review(self) -> None:
        """Make the review, one event at a time, off the screen's thread; stop when closed."""
        from kibitz.analysis import review_events
        worker = get_current_worker()
        history = self.history
        events = cast(Generator["Event", None, None],
                      review_events(history.start, history.moves, self.review.seed,
                                    sees_every_card=self.sees_every_card))
        try:
            for event in events:
                if worker.is_cancelled:
                    return
                self.app.call_from_thread(self.take, event)
        finally:
            events.close()   # a search still under way is given up

    def take(self, event: Event) -> None:
        """Add one event of the review and show how far it has got."""
        if self.closed:
            return
        review = self.review
        review.add(event)
        self.query_one(ProgressBar).update(progress=len(review.entries) + (review.final is not None)
                                           + (review.no_return is not None))
        if review.complete:
            self.show_report()
        else:
            self.query_one("#review-text", Static).update(self.progress_words())

    def progress_words(self) -> str:
        """The chart and the labelled moves as far as the review has got."""
        from kibitz.analysis import sure_share
        from kibitz.analysis.text import chart, chart_marks, entry_words, move_words
        review = self.review
        states = self.history.states
        entries = review.entries
        total = len(self.history.moves)
        if len(entries) < total:
            lines = [f"Reviewing move {len(entries) + 1} of {total}…"]
        else:
            lines = ["The solver is looking for the point of no return (seeing every card)…"]
        lines += ["  " + line for line in chart([sure_share(entry.chance) for entry in entries],
                                                 marks=chart_marks(review))]
        lines += ["  " + entry_words(entry, lambda index, move: move_words(states[index], move))
                  for entry in entries if entry.label]
        return "\n".join(lines)

    def show_report(self) -> None:
        """The whole review, as the line player's ``review`` prints it."""
        from kibitz.analysis.text import report
        self.query_one(ProgressBar).add_class("done")
        text = report(self.review, self.history.states, peeked=self.sees_every_card)
        if not self.sees_every_card:
            text += "\n\n" + SOLVER_LATER
        self.query_one("#review-text", Static).update(text)

    def action_close(self) -> None:
        """Close the page, stopping a review still under way."""
        self.closed = True
        if self.worker is not None:
            self.worker.cancel()
        self.dismiss(self.review if self.review.complete else None)
