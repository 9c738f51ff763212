"""The game state: an immutable value holding every card, with a cheap hashable key.

:class:`State` is defined beside :class:`~kibitz.rules.Game` in :mod:`kibitz.rules` (a
state asks its game for its moves and a game makes states, so the two go together and the
core's modules import one another in one direction); this module is where the library
names it: ``from kibitz.state import State``.
"""

from __future__ import annotations

from kibitz.rules import Key, State

__all__ = ["Key", "State"]
