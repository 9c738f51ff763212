"""Deals consistent with an observation: every hidden card drawn from the cards not seen.

A *sample* is a full :class:`~kibitz.state.State` made of the observation and an assignment
of the unseen cards to the hidden places (each keeping the observation's face-down flag).
The rules reveal, and a sample respects: the pack's composition (two packs in some games),
every visible card, which piles hide how many cards and whether each lies face down or is
covered, the round and the base rank. Each sample is checked with the core: its view must
equal the observation's and its legal moves the referee's. The draw is uniform over the
assignments of the unseen cards to the hidden places.

This module is where the agents' package builds states, and the only place: from an
observation, never from the true state.
"""

from __future__ import annotations

import random
from typing import Sequence

from kibitz.agents.observation import Observation
from kibitz.cards import FACE_DOWN, Card
from kibitz.errors import KibitzError
from kibitz.registry import game as find_game
from kibitz.state import State

Sample = State
"""A state built here from an observation and an assignment of its hidden cards."""

MAX_ATTEMPTS = 100
"""Draws tried for one sample before the observation is declared inconsistent."""


class InconsistentObservationError(KibitzError):
    """No deal fits the observation: its cards or its legal moves contradict the rules."""


def fill(observation: Observation, cards: Sequence[Card]) -> State:
    """The state with ``cards`` (identities) in the hidden places, in the order of
    :meth:`Observation.hidden_places`, face down where the observation says so.

    Not checked against the observation's legal moves (see :func:`is_consistent`).
    """
    game = find_game(observation.slug, observation.ruleset)
    places = observation.hidden_places()
    if len(cards) != len(places):
        raise InconsistentObservationError(
            f"{len(places)} hidden places but {len(cards)} cards to put in them")
    piles = [bytearray(0 if card is None else card for card in pile) for pile in observation.view.piles]
    for (i, k, face_down), card in zip(places, cards):
        piles[i][k] = card | FACE_DOWN if face_down else card
    return State(game, tuple(bytes(pile) for pile in piles), observation.round, observation.base)


def is_consistent(observation: Observation, state: State) -> bool:
    """True when ``state`` looks to its player exactly as ``observation`` says: the same view
    and the same legal moves, in the same order."""
    return state.view() == observation.view and state.legal_moves == observation.legal_moves


def check_cards(observation: Observation) -> list[Card]:
    """The unseen cards, checked to fill the hidden places exactly."""
    unseen = observation.unseen_cards()
    hidden = observation.hidden_count
    if len(unseen) != hidden:
        raise InconsistentObservationError(
            f"{hidden} hidden cards but {len(unseen)} cards unseen: the view does not hold the game's packs")
    return unseen


def sample(observation: Observation, rng: random.Random) -> State:
    """One deal consistent with ``observation``, drawn uniformly with ``rng``."""
    unseen = check_cards(observation)
    for _ in range(MAX_ATTEMPTS):
        rng.shuffle(unseen)
        state = fill(observation, unseen)
        if is_consistent(observation, state):
            return state
    raise InconsistentObservationError(
        f"no deal drawn in {MAX_ATTEMPTS} tries shows this view with these legal moves")


def samples(observation: Observation, rng: random.Random, count: int) -> list[State]:
    """``count`` deals consistent with ``observation``, drawn in turn with ``rng``."""
    return [sample(observation, rng) for _ in range(count)]


def stand_in(observation: Observation, shift: int = 0) -> State:
    """A state showing the observation, with the unseen cards in card order in the hidden
    places (moved on by ``shift`` places, wrapping round): for reading what the view alone
    decides (such as the core's safe-move rule), never for guessing hidden cards.

    With ``shift`` the number of packs, every hidden place gets another card than with no
    shift, unless the unseen cards leave no choice (they are fewer than three, or alike)."""
    unseen = check_cards(observation)
    if unseen:
        step = shift % len(unseen) if len(unseen) > shift else 1
        unseen = unseen[step:] + unseen[:step]
    state = fill(observation, unseen)
    if is_consistent(observation, state):
        return state
    return sample(observation, random.Random(0))  # the legal moves tell more than the view
