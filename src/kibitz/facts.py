"""What a game's rules guarantee: typed data declared with each game, beside its rules.

An algorithm that relies on a property of the rules (the solver's safe moves and proofs of
loss) reads it here, never by recognising a rule function or a ruleset by its name. A fact
may differ between a game's rulesets (each ruleset declares its own). The declarations are
checked against the rules: random play in either ruleset never makes a move that a declared
fact excludes, and a fact that allows a move is met in play (tests/test_facts.py).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Facts:
    """What the rules of one game in one ruleset guarantee about its foundations and piles."""

    foundations_final: bool
    """No card ever leaves the foundations, except onto another foundation."""
    foundation_transfers: bool
    """A foundation's top card may move onto another foundation (of its suit)."""
    tableau_order_kept: bool = False
    """Cards leave a tableau pile of two or more cards only one by one to a foundation or all
    together (the whole pile onto another pile): the cards of a tableau pile keep their order,
    and a card that lies above another reaches its foundation first."""
