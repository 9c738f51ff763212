"""Which moves a game can ever allow: typed data declared with each game, beside its rules.

A client that needs a fixed list of every move that may ever be legal (a Gymnasium action
space, a table of statistics by kind of move) reads it here instead of working it out from
the rule functions. The conformance of the declaration with the rules is tested: random
play in either ruleset never makes a move outside it.
"""

from __future__ import annotations

from dataclasses import dataclass

from kibitz.piles import PileKind


@dataclass(frozen=True)
class Reach:
    """The moves a game can ever allow, in either of its rulesets."""

    sources: tuple[PileKind, ...]
    """The kinds of pile whose top card may move."""
    targets: tuple[PileKind, ...]
    """The kinds of pile that may take a card."""
    run: int = 1
    """The most cards that move together from one tableau pile onto another."""
    depth: int = 0
    """How many reserve cards under the top may move by position (positions ``0 .. depth-1``)."""
