"""The table's pages: help (the keys and how to play) and the rules of the game.

The rules are the same pages the browser shows (``kibitz/games/rules``), drawn by Textual's
:class:`~textual.widgets.Markdown`. Each page is one key away and Esc closes it.
"""

from __future__ import annotations

from importlib import resources

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Markdown

RULES = resources.files("kibitz.games") / "rules"
COMMON = "## Common ground"
"""Where the part of the rules' index that holds for every game starts."""

HELP = """\
# Playing at the table

Build every card onto the foundations. Pick up a card, then put it where it goes: with the
keys, or with the mouse: click a card, then click where it goes, or drag it there;
double-click a card to send it to a foundation. A column too long for the screen shows how
many of its cards it covers (`t1 ↕5`): the mouse wheel over it, or PageUp and PageDown on the
cursor's column, brings them into view.

## Keys

| key | what it does |
|---|---|
| arrows | move the cursor between places |
| Enter, space | pick up the card at the cursor (on the stock: deal; where its top card may move, pick it up, and the stock again deals); put it down at the cursor |
| `+` / `-` | with a card picked up: take the card under it too (a run moves whole) / one fewer |
| Esc | put the card back (or close a page or the move line) |
| `:` | type a move, e.g. `t3>f5`, `r1>t2`, `deal` |
| `d` | deal from the stock (or redeal) |
| `u` / `r` | undo / redo a move |
| `a` | auto-play: every card that can safely go to the foundations |
| `f` | finish: once every card is seen and the foundations alone can take them all |
| `F` | auto-finish on or off: finish by itself as soon as it can |
| `h` | hint: a strong player's next move, marked on the table, not played |
| `c` | the chance to win from here |
| `v` | the review of the game so far: the chance before each move, the moves that gave it away |
| `A` | the analysis mode on or off: `h`, `c` and `v` ask the solver, which sees every card (the game counts as assisted) |
| `n` | a new deal: game, ruleset, deal number or a random one, level, winnable only |
| `R` | the rules of this game |
| `?` | this page |
| `s` | the statistics (the same as the browser's) |
| PageUp / PageDown | show the covered cards of a long column |
| `q` | quit (asks first during a game; the game is kept for `kibitz play --continue` and the browser) |

## Fair help

The hint and the chance see only what you see: a strong player tries its ideas on deals
that fit the cards you have seen, never on the hidden cards themselves.

The chance to win is {chance}.

The review (`v`) shows what you could see during a game; once the game has ended, the
solver's part too, seeing every card: whether the deal could be won, and the point of no
return. The analysis mode (`A`) asks the solver, which sees every card, now: its answers are
labelled "solver (sees every card)", and the game counts as assisted.

The clock at the right of the status line counts the time of active play: it stops while a
page like this one is open, and once the game has ended.

## Piles

`s` stock, `w` waste, `f1`-`f8` foundations, `t1`-`t8` tableau, `r1`-`r8` reserve. An empty
place shows what it takes. A hinted move's two places have green labels; the cursor's place
is yellow.
"""


class PageScreen(ModalScreen[None]):
    """A page of text over the table; Esc (or ``q``) closes it."""

    DEFAULT_CSS = """
    PageScreen { align: center middle; }
    PageScreen > VerticalScroll { width: 90%; max-width: 100; height: 90%; border: round $accent;
                                  background: $surface; padding: 0 1; }
    """
    BINDINGS = [Binding("escape,q", "close", "Close")]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Markdown(self.text, open_links=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)


class HelpScreen(PageScreen):
    """The keys and how to play; ``?`` closes it too."""

    BINDINGS = [Binding("question_mark", "close", "Close", show=False)]

    def __init__(self) -> None:
        from kibitz.analysis.text import CHANCE_MEANING  # the analysis layer loads when first needed
        super().__init__(HELP.format(chance=CHANCE_MEANING))


def rules_text(slug: str) -> str:
    """The rules page of game ``slug``, then what holds for every game."""
    page = (RULES / f"{slug}.md").read_text("utf-8")
    index = (RULES / "README.md").read_text("utf-8")
    common = index[index.find(COMMON):] if COMMON in index else ""
    return f"{page.rstrip()}\n\n{common}"


class RulesScreen(PageScreen):
    """The rules of the game being played; ``R`` closes it too."""

    BINDINGS = [Binding("R", "close", "Close", show=False)]

    def __init__(self, slug: str) -> None:
        super().__init__(rules_text(slug))
