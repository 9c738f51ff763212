"""Positions of one key are alike for the search: each has a safe move or none does.

The native search makes a child's key before the child and skips a child whose key is
already in its table without making it. The table holds only positions where no safe
move is left, so the skip is sound only if whether a safe move exists is the same for
every position of one key. Checked on the positions of random walks against their twins:
the same position with the piles the key treats as interchangeable shuffled, and the two
foundations of a suit swapped where the key drops their order.
"""

from __future__ import annotations

import random

import pytest

import kibitz
from kibitz.notation import format_state
from kibitz.solver.policies import policy_for
from kibitz.solver.policies.common import CanonicalPolicy

from conftest import GAMES_AND_RULESETS

STEPS = 150
"""Moves of each random walk."""
SAFE_MOVES_MET = {("duchess", "standard"), ("duchess", "pysolfc"), ("tournament", "standard"),
                  ("napoleons-flank", "standard"), ("kingsdown-eights", "standard"),
                  ("kingsdown-eights", "pysolfc")}
"""Where the walks meet twins with a safe move, so that both answers are compared. Cicely's
policy has no safe moves, nor have Tournament's and Napoleon's Flank's where foundation
cards may leave (pysolfc); Grand Duchess's and Parisienne's are covers of the last round,
which the walks seldom reach with twins."""


def twin(policy: CanonicalPolicy, state: kibitz.State, rng: random.Random) -> kibitz.State:
    """`state` with its interchangeable piles shuffled and same-suit foundations swapped at random."""
    game = policy.game
    piles = list(state.piles)
    groups = ((game.tableau, policy.tableau_interchangeable(game, state)),
              (game.reserve, policy.reserve_interchangeable(game, state)))
    for group, alike in groups:
        if alike:
            shuffled = [state.piles[i] for i in group]
            rng.shuffle(shuffled)
            for i, pile in zip(group, shuffled):
                piles[i] = pile
    for first, second in policy.same_suit_pairs:
        if rng.random() < 0.5:
            piles[first], piles[second] = piles[second], piles[first]
    return kibitz.State(game, tuple(piles), state.round, state.base)


@pytest.mark.parametrize(("slug", "ruleset"), GAMES_AND_RULESETS)
def test_positions_of_one_key_all_have_a_safe_move_or_none_has(slug: str, ruleset: str) -> None:
    game = kibitz.game(slug, ruleset)
    policy = policy_for(game)
    assert isinstance(policy, CanonicalPolicy)
    rng = random.Random(f"{slug}/{ruleset}/twins")
    twins = with_safe_move = 0
    for number in (21, 22, 23, 24):
        state = game.deal(number)
        for _ in range(STEPS):
            safe = policy.safe_move(state) is not None
            for _ in range(3):
                other = twin(policy, state, rng)
                if other.piles == state.piles:
                    continue
                assert policy.key(other) == policy.key(state)
                assert (policy.safe_move(other) is not None) == safe, (number, format_state(state))
                twins += 1
                with_safe_move += safe
            if not state.legal_moves:
                break
            moves = state.legal_moves
            # Deals now and then, so that walks reach the last round (where Grand Duchess's
            # safe moves and the interchangeable columns of several games are).
            deals = [move for move in moves if move.is_deal]
            state = state.apply(deals[0] if deals and rng.random() < 0.2 else rng.choice(moves))
    assert twins >= 20  # the walks met positions with other positions of their key
    if (slug, ruleset) in SAFE_MOVES_MET:
        assert with_safe_move > 0
