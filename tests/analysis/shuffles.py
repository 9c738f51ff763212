"""Deals that look the same to the player up to a move: the cards the player had not seen by
then dealt again among their places."""

from __future__ import annotations

import random
from typing import Sequence

import kibitz
from kibitz.cards import FACE_DOWN, IDENTITY
from kibitz.state import State


def _marked(start: State, first: bool) -> State:
    """``start`` with each card's place numbered (in two halves read as pairs, as the samples'
    memory numbers them: a two-pack game has more places than card identities)."""
    count = sum(len(pile) for pile in start.piles)
    marks = iter([k % 52 if first else k // 2 for k in range(count)])
    piles = tuple(bytes(next(marks) | (card & FACE_DOWN) for card in pile) for pile in start.piles)
    return State(start.game, piles, start.round, start.base)


def seen_places(start: State, moves: Sequence[kibitz.Move], k: int) -> set[int]:
    """The places of ``start`` (numbered bottom pile first) whose card the player saw in one of
    the views before the first ``k`` moves and after them."""
    game = start.game
    probes = [_marked(start, True), _marked(start, False)]
    state = start
    seen: set[int] = set()
    for t in range(k + 1):
        view = state.view()
        for i, pile in enumerate(view.piles):
            for j, card in enumerate(pile):
                if card is not None:
                    a, b = probes[0].piles[i][j] & IDENTITY, probes[1].piles[i][j] & IDENTITY
                    seen.add(a if a // 2 == b else a + 52)
        if t < k:
            probes = [game.apply_unchecked(probe, moves[t]) for probe in probes]
            state = state.apply(moves[t])
    return seen


def unseen_shuffled(start: State, moves: Sequence[kibitz.Move], k: int, rng: random.Random) -> State | None:
    """The opening ``start`` with the cards the player had not seen by move ``k`` dealt again
    among their places (each keeping its face-down flag); the first ``k`` moves are then legal
    and show the same views. ``None`` when no shuffle changes the deal."""
    seen = seen_places(start, moves, k)
    places = [(i, j) for i, pile in enumerate(start.piles) for j in range(len(pile))]
    unseen = [place for n, place in enumerate(places) if n not in seen]
    for _ in range(20):
        cards = [start.piles[i][j] & IDENTITY for i, j in unseen]
        rng.shuffle(cards)
        piles = [bytearray(pile) for pile in start.piles]
        for (i, j), card in zip(unseen, cards):
            piles[i][j] = card | (start.piles[i][j] & FACE_DOWN)
        shuffled = State(start.game, tuple(bytes(pile) for pile in piles), start.round, start.base)
        if shuffled != start:
            return shuffled
    return None
