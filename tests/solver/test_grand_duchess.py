"""Grand Duchess and Parisienne policy: each rule on constructed positions, and the policy's
verdict against a plain exhaustive search on late-round positions where losses occur."""

from __future__ import annotations

import random

import pytest

import kibitz
from kibitz.cards import RANKS, SUITS
from kibitz.moves import DEAL
from kibitz.notation import format_state, parse_state
from kibitz.solver import Limits, Outcome, solve
from kibitz.solver.policies import policy_for
from kibitz.solver.policies.grand_duchess import GrandDuchessPolicy
from kibitz.solver.policy import Policy
from kibitz.solver.search import search
from kibitz.state import State

from solver.reduce import reduce_position

RULESETS = ("standard", "pysolfc")


def position(ruleset: str, round: int, lanes: dict[str, tuple[int, int]], stock: str = "",
             tableau: tuple[str, str, str, str] = ("", "", "", ""), reserve: tuple[str, str] = ("", ""),
             slug: str = "grand-duchess") -> State:
    """A position whose suits not named in ``lanes`` are complete; ``lanes`` gives a suit's
    (up length, down length). Piles are written bottom first, lower case for face down."""
    foundations = []
    for direction in (0, 1):
        for suit in SUITS:
            u, d = lanes.get(suit, (13, 13))
            ranks = RANKS[:u] if direction == 0 else RANKS[::-1][:d]
            foundations.append(",".join(r + suit for r in ranks))
    fields = [slug, ruleset, f"round={round}", "base=-", f"s={stock}"]
    fields += [f"f{k + 1}={pile}" for k, pile in enumerate(foundations)]
    fields += [f"t{k + 1}={pile}" for k, pile in enumerate(tableau)]
    fields += [f"r{k + 1}={pile}" for k, pile in enumerate(reserve)]
    return parse_state(" ".join(fields))


def policy(state: State) -> GrandDuchessPolicy:
    return GrandDuchessPolicy(state.game)


def moves(state: State, *texts: str) -> set[kibitz.Move]:
    return {kibitz.Move.parse(text) for text in texts}


# -- forced moves in the last round ----------------------------------------------------

@pytest.mark.parametrize("ruleset", RULESETS)
def test_last_copy_in_play_is_played_in_the_last_round(ruleset: str) -> None:
    # Spades: up holds A..J and needs the queen; the down lane is complete, so the queen on
    # t2 is the only card that can ever fill that need.
    state = position(ruleset, 4, {"S": (11, 13)}, tableau=("", "QS", "KS", ""))
    assert policy(state).safe_move(state) == kibitz.Move.parse("t2>f2")


def test_last_copy_waits_before_the_last_round() -> None:
    # The same need in round 3: holding the queen back changes the next stock, so it is a choice.
    state = position("standard", 3, {"S": (11, 13)}, tableau=("", "QS", "KS", ""))
    assert policy(state).safe_move(state) is None
    assert DEAL in policy(state).ordered_moves(state)


def test_last_copy_is_a_choice_when_lanes_can_trade() -> None:
    # Down holds K, Q: the lanes hold 13 spades, so in pysolfc a transfer can change which
    # rank each lane needs; in the standard ruleset the queen must go up.
    lanes = {"S": (11, 2)}
    tableau = ("JS,TS,9S,8S", "QS", "7S,6S,5S,4S", "KS,3S,2S,AS")
    assert policy(position("standard", 4, lanes, tableau=tableau)).safe_move(
        position("standard", 4, lanes, tableau=tableau)) == kibitz.Move.parse("t2>f2")
    pysolfc = position("pysolfc", 4, lanes, tableau=tableau)
    assert policy(pysolfc).safe_move(pysolfc) is None


def test_both_copies_playable_leave_only_those_moves() -> None:
    # Up needs a queen and so does down (it holds only the king): both queens are in play
    # and both are top cards. One of them goes up in every win, and each can go up now.
    tableau = ("JS,TS,9S,8S,QS", "7S,6S,5S,4S,QS", "3S,2S,AS", "KS")
    state = position("standard", 4, {"S": (11, 1)}, tableau=tableau)
    chosen = set(policy(state).ordered_moves(state))
    assert len(chosen) == 2
    assert chosen in (moves(state, "t1>f2", "t2>f2"), moves(state, "t1>f2", "t1>f6"),
                      moves(state, "t2>f2", "t2>f6"))
    assert policy(state).safe_move(state) is None


def test_card_both_lanes_need_is_placed_now() -> None:
    # One queen is a top card, the other lies under the ace: both lanes need a queen, and
    # every win places the top queen in one of them.
    tableau = ("JS,TS,9S,8S,QS", "7S,6S,5S,4S", "QS,3S,2S,AS", "KS")
    state = position("standard", 4, {"S": (11, 1)}, tableau=tableau)
    assert set(policy(state).ordered_moves(state)) == moves(state, "t1>f2", "t1>f6")


def test_need_with_a_buried_copy_is_a_choice() -> None:
    # Up needs a queen, down needs a king first: the top queen may be better kept for the
    # down lane (the other queen going up), so every move stays.
    tableau = ("JS,TS,9S,8S", "7S,6S,5S,4S,QS", "QS,3S,2S,AS", "KS,KS")
    state = position("standard", 4, {"S": (11, 0)}, tableau=tableau)
    assert policy(state).safe_move(state) is None
    assert DEAL not in state.legal_moves
    assert set(policy(state).ordered_moves(state)) == set(state.legal_moves)


# -- proofs of loss ------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", RULESETS)
def test_card_above_the_only_card_its_lanes_need_is_lost(ruleset: str) -> None:
    # The king of spades can only go up after the last queen, which lies under it.
    state = position(ruleset, 4, {"S": (11, 13)}, tableau=("QS,KS", "", "", ""))
    assert policy(state).is_hopeless(state)
    assert search(state, Policy(state.game), Limits(seconds=None)).outcome is Outcome.LOST
    assert solve(state, Limits(seconds=None)).outcome is Outcome.LOST
    fine = position(ruleset, 4, {"S": (11, 13)}, tableau=("KS,QS", "", "", ""))
    assert not policy(fine).is_hopeless(fine)


def test_loss_needs_every_copy_blocked() -> None:
    # Up needs a queen; both queens lie under the king: lost. With one queen elsewhere the
    # king can follow it.
    tableau = ("8S,9S,TS,JS", "4S,5S,6S,7S", "QS,QS,KS", "AS,2S,3S")
    state = position("standard", 4, {"S": (11, 1)}, tableau=tableau)
    assert policy(state).is_hopeless(state)
    free = ("8S,9S,TS,JS,QS", "4S,5S,6S,7S", "QS,KS", "AS,2S,3S")
    state = position("standard", 4, {"S": (11, 1)}, tableau=free)
    assert not policy(state).is_hopeless(state)


def test_dead_cards_bury_the_cards_under_them() -> None:
    # The king of spades is dead (over the last queen); the jack of hearts under it can never
    # be reached either, but the verdict is the same: lost.
    tableau = ("JH,QS,KS", "QH,KH", "", "")
    state = position("standard", 4, {"S": (11, 13), "H": (10, 13)}, tableau=tableau)
    assert policy(state).is_hopeless(state)


def test_no_loss_is_claimed_before_the_last_round_or_from_the_stock() -> None:
    state = position("standard", 3, {"S": (11, 13)}, tableau=("QS,KS", "", "", ""))
    assert not policy(state).is_hopeless(state)
    # In the last round a queen still in the stock may be played as soon as it is dealt.
    state = position("standard", 4, {"S": (11, 13)}, stock="qs", tableau=("KS", "", "", ""))
    assert not policy(state).is_hopeless(state)


# -- the policy against a plain exhaustive search --------------------------------------

def late_position(game: kibitz.Game, rng: random.Random, round: int, keep: int) -> State:
    """A position from random play that reached ``round``, reduced to about ``keep`` cards."""
    while True:
        state = game.deal(rng.randrange(1, 10**9))
        while state.round < round and state.legal_moves:
            plays = [m for m in state.legal_moves if not m.is_deal]
            deal = DEAL in state.legal_moves
            state = state.apply(DEAL if deal and (not plays or rng.random() < 0.4) else rng.choice(plays))
        if state.round != round:
            continue
        for _ in range(rng.randrange(12)):
            if not state.legal_moves:
                break
            state = state.apply(rng.choice(state.legal_moves))
        return reduce_position(state, keep, rng)


@pytest.mark.parametrize("slug", ("grand-duchess", "parisienne"))
@pytest.mark.parametrize("ruleset", RULESETS)
def test_late_positions_agree_with_exhaustive_search(slug: str, ruleset: str) -> None:
    game = kibitz.game(slug, ruleset)
    rng = random.Random(f"late/{slug}/{ruleset}")
    verdicts = {Outcome.WON: 0, Outcome.LOST: 0}
    for k in range(40):
        state = late_position(game, rng, 4 if k % 4 else 3, rng.choice((14, 18, 22, 26)))
        plain = search(state, Policy(game), Limits(seconds=None, nodes=20_000))
        if not plain.is_decided:
            continue
        tuned = solve(state, Limits(seconds=None, nodes=200_000))
        assert tuned.outcome is plain.outcome, f"{tuned.outcome} != {plain.outcome} on {format_state(state)}"
        verdicts[plain.outcome] += 1
    assert verdicts[Outcome.WON] >= 5 and verdicts[Outcome.LOST] >= 5, verdicts


def test_probe_wins_replay() -> None:
    for slug in ("grand-duchess", "parisienne"):
        game = kibitz.game(slug)
        for number in (1, 2, 3):
            result = solve(game.deal(number), Limits(seconds=10))
            assert result.outcome is Outcome.WON  # solve replays the line through the rules


def test_probe_moves_count_as_nodes() -> None:
    game = kibitz.game("grand-duchess")
    policy = policy_for(game)
    state = game.deal(1)
    before = policy.probe_moves
    line = policy.probe(state, 0)
    played = policy.probe_moves - before
    assert played > 0 and (line is None or played >= len(line))
    result = solve(state, Limits(seconds=10))
    assert result.outcome is Outcome.WON and result.nodes >= len(result.moves)
