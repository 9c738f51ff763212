"""The ``greedy`` agent: safe moves first, then the best move by a one-move evaluation.

First, a safe move to a foundation (the core's rule, :data:`kibitz.autoplay.SAFE_RULE`),
the first in the referee's order. Otherwise each legal move gets a score from what the
player sees, and the best is played (ties drawn with the generator):

- +100 for a card going to a foundation from another pile; -100 for one taken off a foundation;
- +40 when the move reveals a hidden card: the card under the moving cards is face down or
  covered in a squared pile, or the card moved was hidden itself (the stock's top);
- +30 when the card the move uncovers, already visible, can then go to a foundation;
- +20 when the move empties a tableau pile, +10 a reserve pile or cell; +5 for a card taken
  from the reserve;
- -15 for a move onto an empty pile (it uses up a space or a cell); a whole pile moved onto
  an empty pile of the same kind scores -20 in all (it changes nothing the player can use);
- -200 for a move back to a position seen earlier in the game (when the observation tells
  which, :attr:`Observation.earlier`): going round in circles is never progress;
- a deal (or redeal) scores 1: it comes after every useful move, before moves that
  achieve nothing that the player can see.

The evaluation reads the observation only. The safe-move rule and the look one move ahead
read a stand-in state (:func:`kibitz.agents.sampling.stand_in`) and only its visible cards.
"""

from __future__ import annotations

import random

from kibitz.agents.base import Decision, check_observation
from kibitz.agents.observation import Observation
from kibitz.agents.sampling import Sample, stand_in
from kibitz.autoplay import is_safe
from kibitz.moves import Move
from kibitz.piles import PileKind
from kibitz.registry import game as find_game
from kibitz.view import View, is_hidden

TO_FOUNDATION = 100
OFF_FOUNDATION = -100
REVEALS = 40
UNCOVERS_FOR_FOUNDATION = 30
EMPTIES_TABLEAU = 20
EMPTIES_RESERVE = 10
FROM_RESERVE = 5
ONTO_EMPTY = -15
GOES_BACK = -200
PILE_TO_SPACE = -20
DEAL = 1
MEASURE = "greedy evaluation"
RECENT = 16
"""How many of the last views seen a move that shows a hidden card is compared with."""


def safe_moves(observation: Observation) -> list[Move]:
    """The legal moves the core's safe-move rule allows, in the referee's order."""
    state = stand_in(observation)
    return [move for move in observation.legal_moves if is_safe(state, move)]


def reveals(observation: Observation, move: Move) -> bool:
    """True when ``move`` shows a card the player does not see now: it moves a hidden card,
    uncovers one, or deals."""
    if move.is_deal:
        return True
    pile = observation.pile(move.source)
    if move.position is not None:
        return pile[move.position] is None
    bottom = len(pile) - move.size
    return pile[bottom] is None or (bottom > 0 and pile[bottom - 1] is None)


def returning_moves(observation: Observation, state: Sample) -> frozenset[Move]:
    """The legal moves that lead back to a position the player has seen earlier in the game
    (:attr:`Observation.earlier`); ``state`` is the stand-in of ``observation``.

    The view after a move that shows no hidden card follows from the view. After one that
    shows a card hidden now (not a deal), the view is compared with the last :data:`RECENT`
    views seen, the places it shows anew matching any card seen there: a card covered in a
    squared pile a few moves ago is the one the player saw go under. Which places a move
    shows anew is found by making it in two stand-ins with different cards in every hidden
    place."""
    if not observation.earlier:
        return frozenset()
    seen = frozenset(observation.earlier)
    recent = observation.earlier[-RECENT:]
    other: Sample | None = None
    back = []
    for move in observation.legal_moves:
        if move.is_deal:
            continue
        after = view_after(observation.view, state, move)
        if not reveals(observation, move):
            if after in seen:
                back.append(move)
            continue
        if other is None:
            other = stand_in(observation, shift=observation.packs)
        shown = view_after(observation.view, other, move)
        if any(_matches(after, shown, earlier) for earlier in recent):
            back.append(move)
    return frozenset(back)


def view_after(view: View, state: Sample, move: Move) -> View:
    """The view after ``move`` in ``state``, whose view is ``view`` (the piles the move leaves
    alone keep their view)."""
    game = state.game
    after = game.apply_unchecked(state, move)
    piles = tuple(
        shown if new is old else tuple(None if is_hidden(spec.spread, spec.kind, new, k) else new[k]
                                       for k in range(len(new)))
        for spec, shown, old, new in zip(game.piles, view.piles, state.piles, after.piles))
    return View(view.slug, view.ruleset, view.pile_names, piles, after.round, after.base)


def _matches(after: View, shown: View, earlier: View) -> bool:
    """True when ``earlier`` is ``after`` up to the places where ``after`` and ``shown`` differ
    (the cards a move shows anew), which ``earlier`` must show."""
    if earlier.round != after.round or earlier.base != after.base:
        return False
    for pile, other, then in zip(after.piles, shown.piles, earlier.piles):
        if pile == then:
            continue
        if len(pile) != len(then):
            return False
        for card, guess, seen in zip(pile, other, then):
            if card != seen and (card == guess or seen is None):
                return False
    return True


def evaluate(observation: Observation) -> list[tuple[Move, float]]:
    """Every legal move with its score (see the module docstring), in the referee's order."""
    game = find_game(observation.slug, observation.ruleset)
    view = observation.view
    state = stand_in(observation)
    returning = returning_moves(observation, state)
    scored: list[tuple[Move, float]] = []
    for move in observation.legal_moves:
        if move.is_deal:
            scored.append((move, DEAL))
            continue
        source, target = game.ends(move)
        source_kind, target_kind = game.kinds[source], game.kinds[target]
        pile = view.piles[source]
        bottom = move.position if move.position is not None else len(pile) - move.size
        back = GOES_BACK if move in returning else 0
        if bottom == 0 and move.position is None and not view.piles[target] and source_kind is target_kind:
            scored.append((move, PILE_TO_SPACE + back))
            continue
        score = back
        if target_kind is PileKind.FOUNDATION and source_kind is not PileKind.FOUNDATION:
            score += TO_FOUNDATION
        if source_kind is PileKind.FOUNDATION and target_kind is not PileKind.FOUNDATION:
            score += OFF_FOUNDATION
        uncovered = bottom - 1 if move.position is None else None
        if reveals(observation, move):
            score += REVEALS
        elif uncovered is not None and uncovered >= 0 and source_kind is not PileKind.FOUNDATION:
            after = game.apply_unchecked(state, move)
            if any(m.source == move.source and not m.is_deal
                   and game.kinds[game.ends(m)[1]] is PileKind.FOUNDATION for m in after.legal_moves):
                score += UNCOVERS_FOR_FOUNDATION
        if len(pile) == move.size and move.position is None:
            if source_kind is PileKind.TABLEAU:
                score += EMPTIES_TABLEAU
            elif source_kind is PileKind.RESERVE:
                score += EMPTIES_RESERVE
        if source_kind is PileKind.RESERVE:
            score += FROM_RESERVE
        if target_kind is not PileKind.FOUNDATION and not view.piles[target]:
            score += ONTO_EMPTY
        scored.append((move, score))
    return scored


def best(scored: list[tuple[Move, float]], rng: random.Random) -> Move:
    """The move of highest score; among equals, one drawn with ``rng``."""
    top = max(score for _, score in scored)
    tied = [move for move, score in scored if score == top]
    return tied[0] if len(tied) == 1 else tied[rng.randrange(len(tied))]


def obvious(observation: Observation) -> Decision | None:
    """The decision that needs no evaluation: the only legal move, else the first safe move to
    a foundation; ``None`` when there is neither."""
    moves = observation.legal_moves
    if len(moves) == 1:
        return Decision(moves[0], "the only legal move")
    safe = safe_moves(observation)
    if safe:
        return Decision(safe[0], "a safe move to a foundation")
    return None


class GreedyAgent:
    """Safe moves first, then the best move by :func:`evaluate`."""

    name = "greedy"

    def decide(self, observation: Observation, rng: random.Random) -> Decision:
        observation = check_observation(observation)
        moves = observation.legal_moves
        plain = obvious(observation)
        if plain is not None:
            return plain
        scored = evaluate(observation)
        move = best(scored, rng)
        ranked = tuple(sorted(scored, key=lambda pair: -pair[1]))
        return Decision(move, f"the best of {len(moves)} moves by the greedy evaluation", ranked,
                        measure=MEASURE)

    def choose(self, observation: Observation, rng: random.Random) -> Move:
        return self.decide(observation, rng).move
