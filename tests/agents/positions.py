"""Positions for the agents' tests: reached by seeded random play, and the same positions
with their hidden cards shuffled among the places a player cannot tell apart."""

from __future__ import annotations

import random
from typing import Iterator

import kibitz
from kibitz.cards import FACE_DOWN, IDENTITY
from kibitz.notation import check_state
from kibitz.state import State
from kibitz.view import View

DEALS = (1, 2, 3)
DEPTHS = (0, 9, 30)
"""Random moves played from the opening to reach each position."""


def random_positions(game: kibitz.Game, deals: tuple[int, ...] = DEALS, depths: tuple[int, ...] = DEPTHS
                     ) -> Iterator[tuple[State, list[kibitz.Move], list[View]]]:
    """For each deal, the positions after ``depths`` random moves (seeded by the deal), with
    the moves played and the views before each; a game that ends early gives its last
    position once."""
    for number in deals:
        state, rng = game.deal(number), random.Random(number)
        played: list[kibitz.Move] = []
        earlier: list[View] = []
        given = set()
        for depth in depths:
            while len(played) < depth and state.legal_moves:
                move = rng.choice(state.legal_moves)
                earlier.append(state.view())
                state = state.apply(move)
                played.append(move)
            if state.key not in given:
                given.add(state.key)
                yield state, list(played), list(earlier)


def shuffle_hidden(state: State, rng: random.Random) -> State:
    """``state`` with its hidden cards dealt again at random among the hidden places with the
    same face-down flag (face down, or covered in a squared pile): the player sees the same
    table. Checked to be a valid state."""
    view = state.view()
    groups: dict[bool, list[tuple[int, int]]] = {}
    for i, pile in enumerate(view.piles):
        for k, card in enumerate(pile):
            if card is None:
                groups.setdefault(bool(state.piles[i][k] & FACE_DOWN), []).append((i, k))
    piles = [bytearray(pile) for pile in state.piles]
    for face_down, places in groups.items():
        cards = [state.piles[i][k] & IDENTITY for i, k in places]
        rng.shuffle(cards)
        for (i, k), card in zip(places, cards):
            piles[i][k] = card | FACE_DOWN if face_down else card
    shuffled = State(state.game, tuple(bytes(pile) for pile in piles), state.round, state.base)
    check_state(shuffled)
    return shuffled


def differently_hidden(state: State, rng: random.Random) -> State | None:
    """A shuffle of ``state``'s hidden cards that differs from it, or ``None`` when every
    shuffle gives the same cards (at most one hidden card, or all alike)."""
    for _ in range(20):
        shuffled = shuffle_hidden(state, rng)
        if shuffled != state:
            return shuffled
    return None
