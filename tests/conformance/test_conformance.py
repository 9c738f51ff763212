"""Conformance: every game in both rulesets, played out from many deals, against the reference.

Each play-out starts from a deal number (small Microsoft numbers and Mersenne Twister
numbers up to 20 digits) and plays a few hundred moves, at random or greedily (cards
to the foundations first, so that late-game states are reached). At every step the
engine must agree with :mod:`conformance.reference`, a plain reading of RULES.md:
the same legal moves, the same result for each of them, the same won flag; and the
state must conserve its cards, round-trip through its notations, hide what a player
may not see, and survive undo and redo unchanged. The checks are in
:mod:`conformance.checks`, shared with ``benchmarks/conformance_soak.py``.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Iterator

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import kibitz
from kibitz import DEAL, Move, State
from kibitz.cards import RANKS
from kibitz.deals import MAX_DEAL_NUMBER
from kibitz.history import History
from kibitz.notation import format_state, parse_state

from conformance import reference
from conformance.checks import check_apply, check_state, choose, play_and_check_undo
from conftest import GAMES_AND_RULESETS as PAIRS

pytestmark = pytest.mark.usefixtures("build")  # every test on each build of the rules

PAIR_IDS = [f"{slug}-{ruleset}" for slug, ruleset in PAIRS]
MAX_STEPS = 300
"""Moves per play-out at most."""

DEAL_NUMBERS = st.one_of(
    st.integers(1, 31_999),                      # Microsoft generator
    st.integers(32_000, MAX_DEAL_NUMBER),        # Mersenne Twister, up to 20 digits
    st.sampled_from([1, 2, 5, 7, 31_999, 32_000, 10**16 + 7, MAX_DEAL_NUMBER]),
)

PLAYOUT_SETTINGS = settings(
    derandomize=True, deadline=None, database=None, max_examples=12,
    phases=[Phase.explicit, Phase.generate],  # a play-out does not shrink usefully; report it as found
    suppress_health_check=[HealthCheck.too_slow])
QUICK_SETTINGS = settings(
    derandomize=True, deadline=None, database=None, max_examples=25,
    suppress_health_check=[HealthCheck.too_slow])

pair_parameters = pytest.mark.parametrize("slug,ruleset", PAIRS, ids=PAIR_IDS)


# -- play-outs ---------------------------------------------------------------------------------

def play_out(game: kibitz.Game, number: int, seed: int, greedy: bool) -> Iterator[State]:
    """The states of one play-out (checking undo and redo along the way)."""
    rng = random.Random(seed)
    history = History(game.deal(number), number)
    seen = {history.state.key}
    yield history.state
    for _ in range(MAX_STEPS):
        state = history.state
        move = None if state.is_over() else choose(state, rng, greedy, seen)
        if move is None:
            return
        after = play_and_check_undo(history, move)
        seen.add(after.key)
        yield after


@pair_parameters
@PLAYOUT_SETTINGS
@given(number=DEAL_NUMBERS, seed=st.integers(0, 2**32 - 1), greedy=st.booleans())
def test_play_out_agrees_with_the_rules(slug: str, ruleset: str, number: int, seed: int,
                                        greedy: bool) -> None:
    game = kibitz.game(slug, ruleset)
    rng = random.Random(seed ^ 0x5EED)
    for state in play_out(game, number, seed, greedy):
        check_state(state, rng)


# -- positions set up at random -----------------------------------------------------------------

def random_position(slug: str, ruleset: str, rng: random.Random) -> State:
    """A position that follows the layout rules but need not be reachable quickly in play:
    random foundation heights, a random base, random pile sizes, empty reserves, spaces,
    short stocks, runs planted in the tableau, every round."""
    game = kibitz.game(slug, ruleset)
    facts = reference.FACTS[slug]
    names = [spec.name for spec in game.piles]
    left = Counter({card: facts.packs for card in range(52)})
    piles: dict[str, list[int]] = {name: [] for name in names}
    round = rng.randint(1, facts.redeals + 1)
    base = None if slug != "duchess" or rng.random() < 0.2 else rng.randrange(13)
    for name in (n for n in names if n.startswith("f")):
        suit, step, first = reference.foundation_plan(slug, name)
        start = base if first is None else first
        if start is None:
            break  # Duchess before its base rank: every foundation is empty
        for k in range(rng.choice([0, 0, 1, 2, 4, 7, 11, 12, 13])):
            card = suit * 13 + (start + step * k) % 13
            if not left[card]:
                break
            piles[name].append(card)
            left[card] -= 1
    if slug == "duchess" and base is not None and not any(piles[n] for n in names if n.startswith("f")):
        piles["f1"].append(base)  # the base is chosen by a card on a foundation
        left[base] -= 1
    rest = list(left.elements())
    rng.shuffle(rest)

    def plant_run(name: str) -> None:
        """A pile built on the tableau's rules, as long as the cards allow."""
        if not rest:
            return
        piles[name].append(rest.pop())
        for _ in range(rng.randint(1, 6)):
            below = piles[name][-1]
            wanted = [c for c in set(rest) if (
                reference.one_apart_same_suit(below, c) if slug == "cicely"
                else reference.one_lower_other_colour(below, c, wrap=slug == "duchess"))]
            if not wanted:
                return
            card = rng.choice(sorted(wanted))
            rest.remove(card)
            piles[name].append(card)

    receivers = [n for n in names if n[0] in "tr" or n == "w"]
    if slug in ("grand-duchess", "parisienne") and round > facts.redeals:
        receivers = [n for n in receivers if n[0] != "r"]  # no reserve in round 4
    emptiness = {kind: rng.choice([0.0, 0.3, 0.9]) for kind in "wtr"}
    for name in receivers:
        if rng.random() < emptiness[name[0]]:
            continue  # an empty pile
        if name[0] == "t" and slug in ("duchess", "cicely", "kingsdown-eights") and rng.random() < 0.5:
            plant_run(name)
            continue
        size = 1 if name[0] == "r" and facts.cells else rng.randint(1, 8)
        for _ in range(min(size, len(rest))):
            piles[name].append(rest.pop())
    stock_size = rng.choice([0, 0, 1, 2, 3, 5, len(rest)])
    piles["s"] = [card | reference.FACE_DOWN for card in rest[:stock_size]]
    # The other cards go onto the tableau piles already holding cards, else into the stock.
    holders = [n for n in names if n[0] == "t" and piles[n]]
    for card in rest[stock_size:]:
        if holders:
            piles[rng.choice(holders)].append(card)
        else:
            piles["s"].append(card | reference.FACE_DOWN)
    if slug in ("grand-duchess", "parisienne") and piles["s"] and round <= facts.redeals:
        for name in ("r1", "r2"):  # the reserve lies face down while the stock has cards
            piles[name] = [card | reference.FACE_DOWN for card in piles[name]]
    return State(game, tuple(bytes(piles[name]) for name in names), round, base)


@pair_parameters
@settings(derandomize=True, deadline=None, database=None, max_examples=120,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_positions_agree_with_the_rules(slug: str, ruleset: str, seed: int) -> None:
    rng = random.Random(seed)
    check_state(random_position(slug, ruleset, rng), rng)


@pair_parameters
@QUICK_SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_the_reference_judges_all_moves_at_once_as_one_at_a_time(slug: str, ruleset: str, seed: int) -> None:
    """The reference's fast path (each lift read once) against its plain one, move by move."""
    rng = random.Random(seed)
    table = reference.Table.of(random_position(slug, ruleset, rng))
    legal, illegal = reference.judged_moves(table)
    candidates = list(reference.candidate_moves(table))
    assert len(legal) + len(illegal) == len(candidates)
    assert legal == {move for move in candidates if reference.allows(table, move)}
    assert illegal == [move for move in candidates if not reference.allows(table, move)]


# -- openings ----------------------------------------------------------------------------------

@pair_parameters
@QUICK_SETTINGS
@given(number=DEAL_NUMBERS)
def test_opening_is_dealt_as_the_rules_say(slug: str, ruleset: str, number: int) -> None:
    game = kibitz.game(slug, ruleset)
    state = game.deal(number)
    names = [spec.name for spec in game.piles]
    assert reference.outcome_of(state) == reference.opening(slug, ruleset, names, number)
    again = kibitz.game(slug, ruleset).deal(number)
    assert again == state and again.key == state.key and hash(again) == hash(state)
    assert format_state(again) == format_state(state)
    assert state.round == 1 and state.base is None


@QUICK_SETTINGS
@given(number=DEAL_NUMBERS)
def test_different_games_and_rulesets_never_compare_equal(number: int) -> None:
    openings = [kibitz.game(slug, ruleset).deal(number) for slug, ruleset in PAIRS]
    for i, first in enumerate(openings):
        for second in openings[i + 1:]:
            assert first != second and not first == second
    # Same cards, other ruleset: still a different state.
    for state in openings:
        other = "pysolfc" if state.game.ruleset == "standard" else "standard"
        twin = parse_state(format_state(state).replace(f" {state.game.ruleset} ", f" {other} ", 1))
        assert twin.piles == state.piles and twin.game is not state.game
        assert twin != state


# -- immutability ------------------------------------------------------------------------------

@pair_parameters
def test_states_are_immutable(slug: str, ruleset: str) -> None:
    state = kibitz.game(slug, ruleset).deal(1)
    text = format_state(state)
    for name in ("piles", "round", "base", "game", "anything"):
        with pytest.raises(AttributeError):
            setattr(state, name, None)
    for name in ("piles", "round", "base"):
        with pytest.raises(AttributeError):
            delattr(state, name)
    assert isinstance(state.piles, tuple) and all(isinstance(pile, bytes) for pile in state.piles)
    assert format_state(state) == text


# -- equal states reached two ways ---------------------------------------------------------------

def transpositions(state: State) -> Iterator[tuple[State, State]]:
    """Pairs of states reached by two card moves on four different piles, in both orders."""
    moves = [move for move in state.legal_moves if not move.is_deal]
    for i, first in enumerate(moves):
        for second in moves[i + 1:]:
            if {first.source, first.target} & {second.source, second.target}:
                continue
            one = state.apply(first)
            two = state.apply(second)
            if second in one.legal_moves and first in two.legal_moves:
                yield one.apply(second), two.apply(first)


@pair_parameters
def test_equal_states_reached_two_ways(slug: str, ruleset: str) -> None:
    game = kibitz.game(slug, ruleset)
    equal = 0
    for number in (1, 2, 3, 32_000, 10**19 + 3):
        for state in play_out(game, number, seed=number, greedy=True):
            for one, two in transpositions(state):
                same = one == two
                assert same == (format_state(one) == format_state(two)) == (one.key == two.key)
                if same:
                    assert hash(one) == hash(two) and one is not two
                    assert {one: "x"}[two] == "x"
                    equal += 1
            if equal >= 20:
                return
    assert equal > 0, "no transposition found to compare"


# -- won states ----------------------------------------------------------------------------------

def foundation_text(slug: str, name: str, base: int) -> list[str]:
    """A complete foundation for pile ``name``, bottom to top."""
    table = reference.Table(slug, "standard", [name], {name: []}, 1, base)
    plan_suit, step, first = reference.foundation_plan(slug, name)
    start = base if first is None else first
    cards = [plan_suit * 13 + (start + step * k) % 13 for k in range(13)]
    for card in cards:  # the reference agrees this is a build
        assert reference.foundation_takes(table, name, card)
        table.piles[name].append(card)
    return [reference.code(card) for card in cards]


def near_won(slug: str, ruleset: str, last_pile: str) -> State:
    """Every card on the foundations but the top of f1, which lies on ``last_pile``."""
    game = kibitz.game(slug, ruleset)
    base = 4 if slug == "duchess" else 0
    fields = [slug, ruleset, "round=1", "base=" + (RANKS[base] if slug == "duchess" else "-")]
    for spec in game.piles:
        cards = foundation_text(slug, spec.name, base) if spec.name.startswith("f") else []
        if spec.name == "f1":
            last = cards.pop()
        if spec.name == last_pile:
            cards = [last]
        fields.append(f"{spec.name}={','.join(cards)}")
    return parse_state(" ".join(fields))


@pair_parameters
@pytest.mark.parametrize("last_pile", ["t1", "r1"])
def test_last_card_wins(slug: str, ruleset: str, last_pile: str) -> None:
    state = near_won(slug, ruleset, last_pile)
    assert not state.is_won() and not state.is_over()
    final = Move(last_pile, "f1")
    assert final in state.legal_moves
    assert set(state.legal_moves) == reference.legal_moves(state)
    won = check_apply(state, final)
    assert won.is_won() and won.is_over()
    assert all(len(won.piles[i]) == 13 for i in won.game.foundations)
    assert set(won.legal_moves) == reference.legal_moves(won)
    assert DEAL not in won.legal_moves, "no deal or redeal once the game is won"
    check_state(won, random.Random(0))
