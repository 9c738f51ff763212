"""Small positions for solver tests: a real position with most cards moved to the foundations."""

from __future__ import annotations

import random

import kibitz
from kibitz.cards import FACE_DOWN, IDENTITY
from kibitz.notation import check_state
from kibitz.piles import PileKind
from kibitz.rules import FACE_UP, deal_cards
from kibitz.state import State


def random_position(game: kibitz.Game, rng: random.Random, max_moves: int) -> State:
    """A position reached by up to ``max_moves`` random legal moves from a random deal."""
    state = game.deal(rng.randrange(1, 10**9))
    for _ in range(rng.randrange(max_moves + 1)):
        moves = state.legal_moves
        if not moves:
            break
        state = state.apply(rng.choice(moves))
    return state


def reduce_position(state: State, keep: int, rng: random.Random, *, keep_cells: bool = False) -> State:
    """``state`` with cards moved from play onto their foundations until at most ``keep`` remain.

    Each step lengthens a random foundation by its next card, taken from wherever a copy
    of it lies outside the foundations. The result keeps the game's invariants (Duchess
    gets a base rank; Tournament columns are refilled; a Grand Duchess reserve turns face
    up when the stock is empty), so the rules apply to it as to any position.
    With ``keep_cells`` no card is taken from a reserve cell, so full cells stay full.
    """
    game = state.game
    piles = [bytearray(p) for p in state.piles]
    base = state.base
    specs = [(i, game.piles[i].foundation) for i in game.foundations]
    if any(spec is not None and spec.first is None for _, spec in specs) and base is None:
        base = rng.randrange(13)
    in_play = [i for i in range(len(piles)) if game.kinds[i] is not PileKind.FOUNDATION]
    takeable = [i for i in in_play if not (keep_cells and game.piles[i].cell)]

    def remaining() -> int:
        return sum(len(piles[i]) for i in in_play)

    stalled = 0
    while remaining() > keep and stalled < 200:
        i, spec = rng.choice(specs)
        assert spec is not None
        pile = piles[i]
        if len(pile) >= 13:
            stalled += 1
            continue
        first = spec.first if spec.first is not None else base
        assert first is not None
        rank = first + spec.step * len(pile)
        rank = rank % 13 if spec.wrap else rank
        if not 0 <= rank <= 12:
            stalled += 1
            continue
        wanted = spec.suit * 13 + rank
        places = [(j, k) for j in takeable for k, c in enumerate(piles[j]) if c & IDENTITY == wanted]
        if not places:
            stalled += 1
            continue
        j, k = rng.choice(places)
        del piles[j][k]
        pile.append(wanted)
        stalled = 0
    result = [bytes(p) for p in piles]
    if game.slug in ("tournament", "napoleons-flank"):
        for i in game.tableau:
            if not result[i]:
                result[i], result[game.stock] = deal_cards(result[game.stock], 4)
    if game.slug in ("grand-duchess", "parisienne") and not result[game.stock] and state.round <= 3:
        for i in game.reserve:
            result[i] = result[i].translate(FACE_UP)
    if game.slug in ("grand-duchess", "parisienne") and result[game.stock]:
        for i in game.reserve:
            result[i] = bytes(c | FACE_DOWN for c in result[i])
    return State(game, tuple(result), state.round, base)


def chain(rng: random.Random, loose: set[int], longest: int) -> list[int]:
    """A tableau pile built from ``loose`` cards: each one rank lower than the one below
    it (a king on an ace) and of the other colour, as the rules build; taken out of ``loose``."""
    card = rng.choice(sorted(loose))
    pile = [card]
    loose.discard(card)
    while len(pile) < longest:
        below = pile[-1]
        fits = [c for c in sorted(loose) if c % 13 == (below % 13 - 1) % 13 and (c // 13 >= 2) != (below // 13 >= 2)]
        if not fits:
            break
        card = rng.choice(fits)
        pile.append(card)
        loose.discard(card)
    return pile


def crossing_position(rng: random.Random) -> State:
    """A pysolfc position with one suit untouched (its base card is in play), one suit of
    the other colour part-way up, the other two nearly complete; the loose cards mostly in
    tableau piles built by the rules, the rest in the reserve, the waste and the stock."""
    game = kibitz.game("duchess", "pysolfc")
    base = rng.randrange(13)
    untouched = rng.randrange(4)
    other = rng.choice([s for s in range(4) if (s >= 2) != (untouched >= 2)])
    heights = [13, 13, 13, 13]
    heights[untouched] = 0
    heights[other] = rng.randrange(1, 12)
    for s in range(4):
        if s not in (untouched, other):
            heights[s] = rng.randrange(11, 14)
    loose = {s * 13 + (base + r) % 13 for s in range(4) for r in range(heights[s], 13)}
    piles = [b""] * len(game.piles)
    for s in range(4):
        piles[game.foundations[s]] = bytes(s * 13 + (base + r) % 13 for r in range(heights[s]))
    for i in game.tableau:
        if loose and rng.random() < 0.9:
            piles[i] = bytes(chain(rng, loose, 12))
    rest = sorted(loose)
    rng.shuffle(rest)
    for i in game.reserve:
        take = min(len(rest), rng.randrange(4))
        piles[i], rest = bytes(rest[:take]), rest[take:]
    cut = rng.randrange(len(rest) + 1)
    piles[game.pile_index("w")] = bytes(rest[:cut])
    piles[game.stock] = bytes(c | FACE_DOWN for c in rest[cut:])
    state = State(game, tuple(piles), rng.choice((1, 2)), base)
    check_state(state)
    return state
