"""Deals consistent with an observation: every hidden card drawn from the cards not seen.

A *sample* is a full :class:`~kibitz.state.State` made of the observation and an assignment
of the unseen cards to the hidden places (each keeping the observation's face-down flag).
The rules reveal, and a sample respects: the pack's composition (two packs in some games),
every visible card, which piles hide how many cards and whether each lies face down or is
covered, the round and the base rank. Each sample is checked with the core: its view must
equal the observation's and its legal moves the referee's.

*What the player remembers.* A card seen earlier in the game and hidden since (gathered
into the stock by a redeal, covered in a squared column) is not unseen: when the
observation holds the game so far (:attr:`Observation.played` and
:attr:`Observation.earlier`), :func:`remembered` follows every card from the first view
seen through the moves played (the rules move cards by place, whatever they are) and finds
the hidden places whose card was once in view. A sample puts the remembered card there and
draws only the others. The draw is uniform over the assignments of the cards never seen
to the places whose card was never seen.

This module is where the agents' package builds states, and the only place: from an
observation, never from the true state.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Sequence

from kibitz.agents.observation import Observation
from kibitz.cards import FACE_DOWN, IDENTITY, Card
from kibitz.moves import Move
from kibitz.errors import KibitzError
from kibitz.families import Family
from kibitz.registry import game as find_game
from kibitz.state import State
from kibitz.view import View

Sample = State
"""A state built here from an observation and an assignment of its hidden cards."""

MAX_ATTEMPTS = 100
"""Draws tried for one sample before the observation is declared inconsistent."""


class InconsistentObservationError(KibitzError):
    """No deal fits the observation: its cards or its legal moves contradict the rules."""


def search_terms(observation: Observation) -> tuple[Family | None, bool]:
    """What the budgets of a search of the observation's game depend on: the game's family,
    and whether the native kernel runs its rules."""
    game = find_game(observation.slug, observation.ruleset)
    return game.info.family, game.kernel is not None


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


Memory = dict[int, Card]
"""Remembered cards: index in :meth:`Observation.hidden_places` to the card the player saw there."""

TRACKED = 104
"""Cards :func:`remembered` can follow: two marks per card, one of 52 values each."""


def _marks(count: int, first: bool) -> list[int]:
    """Card identities that, read in pairs (first, second), tell ``count`` cards apart."""
    return [i % 52 if first else i // 2 for i in range(count)]


def _origin(first: int, second: int) -> int:
    """The card (numbered in the first view, bottom pile first) that bears marks ``first``
    and ``second`` (see :func:`_marks`)."""
    return first if first // 2 == second else first + 52


class _Tracker:
    """Follows the cards of a game's first view through its moves (see :func:`remembered`):
    two states that bear each card's marks in place of the card, and the card each view
    showed for each pair of marks."""

    def __init__(self, observation: Observation, first: View) -> None:
        count = sum(len(pile) for pile in first.piles)
        if count > TRACKED:
            raise InconsistentObservationError(f"{count} cards in the first view seen: more than the packs hold")
        self.game = find_game(observation.slug, observation.ruleset)
        self.views: list[View] = []
        self.played: list[Move] = []
        self.seen: dict[int, Card] = {}
        self.probes: list[State] = []
        for marks in (_marks(count, True), _marks(count, False)):
            cards = iter(marks)
            piles = tuple(bytes(next(cards) | (FACE_DOWN if card is None else 0) for card in pile)
                          for pile in first.piles)
            self.probes.append(State(self.game, piles, first.round, first.base))
        self._look(first)

    def follows(self, views: Sequence[View], played: Sequence[Move]) -> bool:
        """Whether this tracker's game so far begins the game of ``views`` and ``played``."""
        n = len(self.played)
        return (n <= len(played) and all(a is b or a == b for a, b in zip(self.views, views))
                and all(a is b or a == b for a, b in zip(self.played, played[:n])))

    def step(self, move: Move, view: View) -> None:
        """Follow the marks through ``move``, to the position that ``view`` shows."""
        game = self.game
        self.probes = [State(game, game.apply_unchecked(probe, move).piles, view.round, view.base)
                       for probe in self.probes]
        self.played.append(move)
        self._look(view)

    def _look(self, view: View) -> None:
        """Note the card ``view`` shows for each pair of marks in sight."""
        marked, twin = self.probes
        seen = self.seen
        for k, (pile, first_marks, second_marks) in enumerate(zip(view.piles, marked.piles, twin.piles)):
            if len(pile) != len(first_marks):
                raise InconsistentObservationError(
                    f"the moves played do not lead to the views seen: pile {view.pile_names[k]} "
                    f"holds {len(pile)} cards after move {len(self.played)}, the moves give it {len(first_marks)}")
            for card, a, b in zip(pile, first_marks, second_marks):
                if card is not None and seen.setdefault(_origin(a & IDENTITY, b & IDENTITY), card) != card:
                    raise InconsistentObservationError(
                        "the views seen show one card as two different cards: they do not fit the moves played")
        self.views.append(view)


_last: list[_Tracker] = []
"""The tracker of the last game asked about: the next observation of the same game only
follows it through the moves played since (a game of N moves costs N steps, not N**2)."""


def remembered(observation: Observation) -> Memory:
    """The hidden places of ``observation`` whose card the player saw earlier in the game,
    with that card (see the module docstring). Empty when the observation does not hold
    the game so far (no moves played, or not one view before each move).

    Each card of the first view is given two marks, and the moves played are made on two
    states that bear the marks in place of the cards: the rules move cards by place, so a
    mark ends where its card ends. Every card a view showed is then known by its marks.
    """
    played, earlier = observation.played, observation.earlier
    if not played or len(earlier) != len(played):
        return {}
    views = earlier + (observation.view,)
    last = _last.pop() if _last else None  # taken out: a tracker that fails halfway is not kept
    if last is not None and (last.game.slug, last.game.ruleset) == (observation.slug, observation.ruleset) \
            and last.follows(views, played):
        tracker = last
    else:
        tracker = _Tracker(observation, views[0])
    for t in range(len(tracker.played), len(played)):
        tracker.step(played[t], views[t + 1])
    _last.append(tracker)
    marked, twin = tracker.probes
    seen = tracker.seen
    memory: Memory = {}
    for n, (i, k, _) in enumerate(observation.hidden_places()):
        card = seen.get(_origin(marked.piles[i][k] & IDENTITY, twin.piles[i][k] & IDENTITY))
        if card is not None:
            memory[n] = card
    if Counter(memory.values()) - Counter(observation.unseen_cards()):
        raise InconsistentObservationError("a card remembered in a hidden place is in view as well")
    return memory


def sample(observation: Observation, rng: random.Random, memory: Memory | None = None) -> State:
    """One deal consistent with ``observation``, drawn uniformly with ``rng``; ``memory``:
    :func:`remembered` of the observation, when already found."""
    unseen = check_cards(observation)
    if memory is None:
        memory = remembered(observation)
    # the cards never seen, in card order as ``unseen`` is
    free = list((Counter(unseen) - Counter(memory.values())).elements()) if memory else unseen
    for _ in range(MAX_ATTEMPTS):
        rng.shuffle(free)
        if memory:
            drawn = iter(free)
            cards = [memory[n] if n in memory else next(drawn) for n in range(len(unseen))]
        else:
            cards = free
        state = fill(observation, cards)
        if is_consistent(observation, state):
            return state
    raise InconsistentObservationError(
        f"no deal drawn in {MAX_ATTEMPTS} tries shows this view with these legal moves")


def samples(observation: Observation, rng: random.Random, count: int) -> list[State]:
    """``count`` deals consistent with ``observation``, drawn in turn with ``rng``."""
    memory = remembered(observation)
    return [sample(observation, rng, memory) for _ in range(count)]


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
    return sample(observation, random.Random(0), {})  # the legal moves tell more than the view
