"""The analysis in words and in text: the chance to win, a chart of it, a review's report.

What the terminal player and the command line print; the browser says the same in its own
page (``web/static/review.js``). A chance is never given as one figure where its undecided
deals leave it open: a range, or "not sure".
"""

from __future__ import annotations

import textwrap
from typing import Callable, Sequence

from kibitz.agents import Chance
from kibitz.analysis.review import MoveReview, Review, sure_share
from kibitz.cards import RANK_SYMBOLS, SUIT_SYMBOLS, rank_of, suit_of
from kibitz.moves import Move
from kibitz.state import State

CHANCE_MEANING = ("the share of deals that fit what you see which a player knowing every card could "
                  "win from here: an upper bound of your chance (undecided deals are never counted as lost)")
"""What the chance to win is, in one sentence."""
WIDTH = 78
"""The widest line of a report, in characters (a terminal of 80 columns)."""
WIDE = 0.10
"""An interval at least this wide is shown beside the chance."""
BLOCKS = " ▁▂▃▄▅▆▇█"
"""The eighths of a character cell, for a chart in text."""
UNKNOWN_MARK = "?"
"""A move whose chance is not sure, in a chart."""


def percent(share: float) -> str:
    """A share in whole percent, ``62%``; with a decimal where rounding would say 0% or 100% of
    a share that is neither (``99.9%``)."""
    whole = round(share * 100)
    if (whole == 100 and share < 1) or (whole == 0 and share > 0):
        return f"{share * 100:.1f}%" if 0.001 <= share <= 0.999 else f"{share * 100:.2f}%"
    return f"{whole}%"


def chance_words(chance: Chance) -> str:
    """A chance in words: ``about 62% (47-75%, from 40 sampled deals)``; a range or "not sure"
    where undecided deals leave it open; never an undecided deal counted as lost."""
    deals = f"{chance.samples} sampled deal{'' if chance.samples == 1 else 's'}"
    if not chance.samples:
        return "not sure (no deal sampled)"
    if not chance.decided:
        return f"not sure (none of the {deals} was decided)"
    share = sure_share(chance)
    low, high = chance.interval()
    undecided = f", {chance.unknown} undecided" if chance.unknown else ""
    if share is None:
        return (f"not sure: between {percent(chance.low)} and {percent(chance.high)} "
                f"({chance.unknown} of {deals} undecided)")
    spread = f"{percent(low)}-{percent(high)}, " if high - low >= WIDE else ""
    return f"about {percent(share)} ({spread}from {deals}{undecided})"


def card_name(card: int) -> str:
    """A card as a player reads it: ``10♥``."""
    return RANK_SYMBOLS[rank_of(card)] + SUIT_SYMBOLS[suit_of(card)]


def move_words(state: State, move: Move) -> str:
    """A move with the card it moves, as the player sees it: ``t1>f1 (A♣)``, ``deal``."""
    if move.is_deal:
        return "deal" if state.pile("s") else "redeal"
    pile = state.view().pile(move.source)
    card = pile[move.position if move.position is not None else len(pile) - move.size]
    name = card_name(card) if card is not None else "the stock's top card" if move.source == "s" else "a hidden card"
    more = f" and {move.size - 1} more" if move.size > 1 else ""
    return f"{move} ({name}{more})"


def chart(chances: Sequence[float | None], width: int = 72, marks: dict[int, str] | None = None) -> list[str]:
    """The chance before each move as one line of block characters (a column per move, or per
    few moves when they do not fit in ``width``: the lowest of them), a not-sure chance as
    ``?``; below it, ``marks`` (move index to one character) where they fall."""
    if not chances:
        return []
    step = max(1, -(-len(chances) // width))
    columns: list[str] = []
    under: list[str] = []
    for first in range(0, len(chances), step):
        group = chances[first:first + step]
        known = [c for c in group if c is not None]
        columns.append(UNKNOWN_MARK if not known else BLOCKS[round(min(known) * (len(BLOCKS) - 1))])
        marked = [marks[k] for k in range(first, first + len(group)) if marks and k in marks]
        under.append(max(marked, key=" .ix!X".index) if marked else " ")
    lines = ["100% |" + "".join(columns).replace(" ", "_") + "|", "     |" + "".join(under) + "|"]
    lines.append("     " + _axis(len(chances), len(columns)))
    return lines


def _axis(moves: int, columns: int) -> str:
    """The line under a chart of ``columns`` columns for ``moves`` moves: ``move 1`` under its
    first column and the last move's number under its last, where they fit apart."""
    last = str(moves)
    gap = columns - len("move 1") - len(last)
    if moves == 1:
        return "move 1"
    return f"move 1{' ' * gap}{last}" if gap >= 1 else f"moves 1-{last}"


LABEL_PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
LABEL_MARKS = {"inaccuracy": "i", "mistake": "x", "blunder": "X"}
"""How a chart marks a labelled move; ``!`` marks the point of no return."""


def chart_marks(review: Review) -> dict[int, str]:
    """The marks of :func:`chart`: labelled moves and the point of no return."""
    marks = {entry.index: LABEL_MARKS[entry.label] for entry in review.entries if entry.label}
    if review.no_return is not None and review.no_return.move is not None:
        marks[review.no_return.move] = "!"
    return marks


def entry_words(entry: MoveReview, describe: Callable[[int, Move], str]) -> str:
    """One labelled move in words: ``move 23, t3>f1 (7♠): blunder, kept 4 of 24 sampled deals
    winnable where r1>t4 (9♥) kept 15``."""
    before = entry.played_after
    best = entry.best_after
    return (f"move {entry.index + 1}, {describe(entry.index, entry.move)}: {entry.label}; it kept "
            f"{before.won} of {before.samples} sampled deals winnable, {describe(entry.index, entry.best)} "
            f"kept {best.won} (the chance given up: {percent(entry.cost.share)})")


def report(review: Review, states: Sequence[State], peeked: bool = True) -> str:
    """A review as a readable report (``kibitz review``, the terminal's ``review``): the chart,
    the labelled moves, accuracy, luck and (``peeked``: shown) the point of no return."""
    def describe(index: int, move: Move) -> str:
        return move_words(states[index], move)

    lines: list[str] = []
    deal = f"deal #{review.deal}" if review.deal is not None else "a position"
    result = {"won": "won", "lost": "lost (no move left)", "unfinished": "not finished"}[review.result]
    lines.append(f"Review of {deal} ({review.ruleset} rules): {len(review.moves)} moves, {result}.")
    lines.append(f"The fair chance before each move ({review.samples} sampled deals that fit what you had "
                 f"seen; ? not sure; i inaccuracy, x mistake, X blunder, ! point of no return):")
    chances = [sure_share(entry.chance) for entry in review.entries]
    if review.final is not None:
        chances.append(sure_share(review.final))
    lines += ["  " + line for line in chart(chances, marks=chart_marks(review))]
    labelled = [entry for entry in review.entries if entry.label]
    if labelled:
        lines.append("Moves that gave the chance away:")
        lines += ["  " + entry_words(entry, describe) for entry in labelled]
    else:
        lines.append("No move gave away a clear share of the chance.")
    counts = ", ".join(f"{review.count(label)} {LABEL_PLURALS[label] if review.count(label) != 1 else label}"
                       for label in ("blunder", "mistake", "inaccuracy"))
    lines.append(f"Accuracy: {review.accuracy:.0f} of 100 (the share of the winning chance kept; {counts}).")
    luck = review.luck
    average = review.average
    luck_words = "not known" if luck is None else chance_words(luck)
    undecided = f", {average.unknown:,} undecided" if average is not None and average.unknown else ""
    average_words = "" if average is None else (
        f"; the game's average: {percent(average.won / average.deals)} of its {average.deals:,} studied deals "
        f"can be won (seeing every card{undecided})")
    lines.append(f"Luck: the chance at the first move was {luck_words}{average_words}.")
    if review.no_return is not None and peeked:
        no_return = review.no_return
        start = {True: "the deal could be won from its opening", False: "the deal could not be won at all",
                 None: "the solver could not decide the opening"}[no_return.winnable_at_start]
        lines.append(f"Seeing every card (the solver): {start}; {no_return.words()}.")
    lines.append(f"({review.build} build, seed {review.seed}; each sampled deal searched within "
                 f"{review.sample_nodes:,} nodes)")
    return "\n".join(wrapped for line in lines for wrapped in wrap(line))


def wrap(line: str, width: int = WIDTH) -> list[str]:
    """A line of the report in lines of at most ``width`` characters, the later ones indented
    (a chart's lines are left whole)."""
    if len(line) <= width or "|" in line:
        return [line]
    indent = " " * (len(line) - len(line.lstrip()) + 2)
    return textwrap.wrap(line, width, subsequent_indent=indent, break_on_hyphens=False)
