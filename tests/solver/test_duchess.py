"""Duchess's proof of loss where the rules keep the order of a tableau pile's cards (the
pysolfc ruleset, ``Facts.tableau_order_kept``): ``order_deadlocked``, checked on positions
made by hand and against a plain exhaustive search on random small positions."""

from __future__ import annotations

import random

import pytest

import kibitz
from kibitz.cards import FACE_DOWN, parse_card
from kibitz.notation import check_state, format_state
from kibitz.solver import Limits, Outcome, solve
from kibitz.solver.policies.duchess import DuchessPolicy, order_deadlocked
from kibitz.solver.policy import Policy
from kibitz.solver.search import search
from kibitz.state import State

from solver.reduce import crossing_position

SUITS = "CSHD"


def position(ruleset: str, base: str, heights: dict[str, int], *, tableau: tuple[str, ...] = (),
             reserve: tuple[str, ...] = (), waste: str = "", stock: str = "", round: int = 2) -> State:
    """A Duchess position with base rank ``base``: ``heights`` cards on each suit's
    foundation (13 where not given), piles as text (cards comma-separated, bottom to top)."""
    game = kibitz.game("duchess", ruleset)
    rank = "A23456789TJQK".index(base)
    piles = [b""] * len(game.piles)
    for s, suit in enumerate(SUITS):
        piles[game.foundations[s]] = bytes(s * 13 + (rank + r) % 13 for r in range(heights.get(suit, 13)))

    def cards(text: str, flags: int = 0) -> bytes:
        return bytes(parse_card(c) | flags for c in text.split(",") if c)

    for i, text in zip(game.tableau, tableau):
        piles[i] = cards(text)
    for i, text in zip(game.reserve, reserve):
        piles[i] = cards(text)
    piles[game.pile_index("w")] = cards(waste)
    piles[game.stock] = cards(stock, FACE_DOWN)
    state = State(game, tuple(piles), round, rank)
    check_state(state)
    return state


def plain(state: State, nodes: int = 200_000) -> Outcome:
    """The verdict of the plain exhaustive search: exact keys, every legal move, no safe
    moves, no proofs of loss (``Policy``)."""
    result = search(state, Policy(state.game), Limits(seconds=None, nodes=nodes))
    return result.outcome


# The four of hearts lies on the base five of spades, which lies on the six of hearts: the
# four is the last heart, the six must reach the foundation before it, and lies below it.
# The other spades and hearts lie in two piles of their own, every card in its place.
SPADES_AND_HEARTS = ("4S,3H,2S,AH,KS,QH,JS,TH,9S,8H,7S", "3S,2H,AS,KH,QS,JH,TS,9H,8S,7H,6S")


def test_a_pile_whose_cards_must_leave_in_a_circle_is_lost() -> None:
    state = position("pysolfc", "5", {"S": 0, "H": 1}, tableau=("6H,5S,4H",) + SPADES_AND_HEARTS)
    assert DuchessPolicy(state.game).is_hopeless(state)
    assert plain(state) is Outcome.LOST


def test_a_last_card_on_the_base_is_not_lost_when_its_suit_can_finish_first() -> None:
    """The four of hearts on the five of spades: every other heart is on its foundation."""
    state = position("pysolfc", "5", {"S": 0, "H": 12}, tableau=("5S,4H",),
                     reserve=("8S,7S,6S", "JS,TS,9S", "AS,KS,QS", "4S,3S,2S"))
    assert not DuchessPolicy(state.game).is_hopeless(state)
    assert plain(state) is Outcome.WON


def test_the_standard_rules_prove_nothing_by_order() -> None:
    """There a run may leave the top of a pile for another pile: the order is not kept."""
    state = position("standard", "5", {"S": 0, "H": 1}, tableau=("6H,5S,4H",) + SPADES_AND_HEARTS)
    assert not state.game.facts.tableau_order_kept
    assert not DuchessPolicy(state.game).is_hopeless(state)


def test_no_circle_without_a_base_card_under_another() -> None:
    """Piles that do not reach below the base: every demand goes up by rank."""
    base = 4  # the five
    piles = [bytes([parse_card("9H"), parse_card("8S"), parse_card("7H")]), bytes([parse_card("6C")])]
    assert not order_deadlocked(piles, base)
    crossing = [bytes([parse_card("6H"), parse_card("5S"), parse_card("4H")])]
    assert order_deadlocked(crossing, base)


# -- agreement with the plain search on random positions that cross the base -------

def test_order_deadlocks_agree_with_the_plain_search() -> None:
    """Every random position the rule calls lost that the plain search decides is lost;
    enough of both kinds are decided for the comparison to mean something."""
    rng = random.Random("duchess order deadlocks")
    policy = DuchessPolicy(kibitz.game("duchess", "pysolfc"))
    decided = {True: 0, False: 0}
    for _ in range(300):
        state = crossing_position(rng)
        hopeless = policy.is_hopeless(state)
        if decided[hopeless] >= 12:
            continue
        verdict = plain(state, 20_000)
        if verdict is Outcome.UNKNOWN:
            continue
        if hopeless:
            assert verdict is Outcome.LOST, format_state(state)
        decided[hopeless] += 1
        if min(decided.values()) >= 12:
            break
    assert min(decided.values()) >= 12, decided


def test_the_solver_with_the_rule_agrees_with_the_plain_search() -> None:
    """The tuned solver (the rule, safe moves, canonical keys) on the same kind of
    positions: the same verdict wherever the plain search decides."""
    rng = random.Random("duchess order deadlocks, solved")
    compared = {Outcome.WON: 0, Outcome.LOST: 0}
    for _ in range(120):
        state = crossing_position(rng)
        verdict = plain(state, 20_000)
        if verdict is Outcome.UNKNOWN:
            continue
        tuned = solve(state, Limits(seconds=None, nodes=200_000))
        assert tuned.outcome is verdict, format_state(state)
        compared[verdict] += 1
    assert min(compared.values()) >= 5, compared


@pytest.mark.parametrize("ruleset", kibitz.RULESETS)
def test_the_rule_is_declared_by_the_rules(ruleset: str) -> None:
    game = kibitz.game("duchess", ruleset)
    assert game.facts.tableau_order_kept is (ruleset == "pysolfc")
