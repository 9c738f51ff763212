"""The observation of the environment: the player's view as fixed-size arrays.

The encoding is made from a :class:`kibitz.agents.Observation` (what the player sees) and
from nothing else, so it cannot tell the hidden cards. It is a dictionary:

- ``cards``: ``int8`` of shape ``(piles, capacity)``, one row per pile in layout order
  (stock, waste, foundations, tableau, reserve: :attr:`Encoding.pile_names`) and one column per
  place, bottom of the pile first; ``capacity`` is every card of the game (52 per pack). Each
  place holds a card code: ``0..51`` a card the player sees, ``suit * 13 + rank`` (suits
  clubs, spades, hearts, diamonds; ranks ace 0 to king 12), :data:`FACE_DOWN_CARD` a card
  lying face down, :data:`COVERED_CARD` a face-up card covered in a squared pile (only the top
  card of the stock, the waste and squared columns shows), :data:`NO_CARD` past the pile's top;
- ``pile_sizes``: ``int16`` of shape ``(piles,)``, the number of cards in each pile;
- ``round``: the round, from 1 (it goes up with each redeal);
- ``base``: the base rank of Duchess's foundations once chosen (``0..12``), 13 before (and in
  the games without one).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from kibitz.agents.observation import Observation
from kibitz.cards import IDENTITY
from kibitz.rules import Game

FACE_DOWN_CARD = 52
"""The code of a card lying face down."""
COVERED_CARD = 53
"""The code of a face-up card the player cannot see: covered in a squared pile."""
NO_CARD = 54
"""The code of a place above the top of its pile."""
NO_BASE = 13
"""``base`` before the base rank is chosen, and in the games without one."""

EncodedObservation = dict[str, Any]
"""An observation of the environment: the arrays and numbers listed in the module docstring."""


class Encoding:
    """The observation space of one game and the encoding of its observations."""

    def __init__(self, game: Game) -> None:
        self.pile_names: tuple[str, ...] = tuple(spec.name for spec in game.piles)
        """The pile of each row of ``cards``."""
        self.capacity = game.total_cards
        """The places of each pile: every card of the game."""
        piles = len(self.pile_names)
        self.space = spaces.Dict({
            "cards": spaces.Box(0, NO_CARD, (piles, self.capacity), np.int8),
            "pile_sizes": spaces.Box(0, self.capacity, (piles,), np.int16),
            "round": spaces.Discrete(game.info.redeals + 1, start=1),
            "base": spaces.Discrete(NO_BASE + 1),
        })
        """The observation space."""

    def encode(self, observation: Observation) -> EncodedObservation:
        """The encoding of ``observation`` (a new set of arrays each time)."""
        cards = np.full((len(self.pile_names), self.capacity), NO_CARD, dtype=np.int8)
        sizes = np.zeros(len(self.pile_names), dtype=np.int16)
        for row, (pile, face_down) in enumerate(zip(observation.view.piles, observation.face_down)):
            sizes[row] = len(pile)
            cards[row, :len(pile)] = [
                (FACE_DOWN_CARD if down else COVERED_CARD) if card is None else card & IDENTITY
                for card, down in zip(pile, face_down)]
        base = observation.base
        return {"cards": cards, "pile_sizes": sizes, "round": np.int64(observation.round),
                "base": np.int64(NO_BASE if base is None else base)}
