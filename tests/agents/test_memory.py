"""What the player remembers: cards seen earlier in the game and hidden since keep their place
in every sample (kibitz.agents.sampling.remembered), on both builds of the rules."""

from __future__ import annotations

import dataclasses
import random
from typing import Iterator

import pytest

import kibitz
from kibitz.agents import observe
from kibitz.agents.observation import Observation
from kibitz.agents.sampling import InconsistentObservationError, remembered, sample, samples
from kibitz.cards import IDENTITY
from kibitz.state import State
from tests.agents.positions import random_positions


def histories(game: kibitz.Game, deals: tuple[int, ...] = (4, 11), moves: int = 160, every: int = 16
              ) -> Iterator[tuple[State, Observation]]:
    """Positions reached by seeded random play, every ``every`` moves up to ``moves``, each with
    the observation holding the game so far."""
    for state, played, earlier in random_positions(game, deals, tuple(range(every, moves + 1, every))):
        yield state, observe(state, played, earlier)


def test_remembered_cards_are_where_the_player_saw_them_go(any_game: kibitz.Game, build: str) -> None:
    remembered_somewhere = 0
    for state, observation in histories(any_game):
        memory = remembered(observation)
        places = observation.hidden_places()
        for n, card in memory.items():
            i, k, _ = places[n]
            assert state.piles[i][k] & IDENTITY == card, f"{any_game.slug}: place {n} is not {card}"
        rng = random.Random(len(observation.played))
        for drawn in samples(observation, rng, 3):
            assert drawn.view() == observation.view
            for n, card in memory.items():
                i, k, _ = places[n]
                assert drawn.piles[i][k] & IDENTITY == card
        remembered_somewhere += len(memory)
    # Cicely's hidden cards are only its stock, never seen: nothing to remember there.
    if any_game.slug != "cicely":
        assert remembered_somewhere > 0, f"{any_game.slug}: random play hid no card it had shown"


def test_in_a_one_pack_game_every_card_once_seen_is_remembered(build: str) -> None:
    """Duchess has one pack: a hidden card whose identity a view showed is one the player saw,
    and the moves keep its place known. After the redeal the whole stock is known."""
    game = kibitz.game("duchess")
    redealt = 0
    for state, observation in histories(game, deals=(2, 3, 5), moves=220, every=11):
        seen = {card for view in observation.earlier for pile in view.piles for card in pile if card is not None}
        expected = {n for n, (i, k, _) in enumerate(observation.hidden_places())
                    if state.piles[i][k] & IDENTITY in seen}
        memory = remembered(observation)
        assert set(memory) == expected
        if state.round > 1:
            redealt += 1
            stock = state.game.stock  # every card of the redealt stock lay face up in the waste
            assert all(n in memory for n, (i, _, _) in enumerate(observation.hidden_places()) if i == stock)
    assert redealt, "no position after the redeal was checked"


def test_without_the_game_so_far_nothing_is_remembered() -> None:
    game = kibitz.game("tournament")
    (state, observation), *_ = histories(game)
    assert remembered(observe(state)) == {}
    assert remembered(dataclasses.replace(observation, earlier=observation.earlier[1:])) == {}


def test_a_history_that_does_not_fit_is_refused() -> None:
    game = kibitz.game("duchess")
    (state, observation), *_ = histories(game, deals=(6,), every=40)
    with pytest.raises(InconsistentObservationError, match="moves played"):
        remembered(dataclasses.replace(observation, played=observation.played[1:] + observation.played[:1]))
    views = list(observation.earlier)
    first = views[0]
    piles = [list(pile) for pile in first.piles]
    i, k = next((i, k) for i, pile in enumerate(piles) for k, card in enumerate(pile) if card is not None)
    other = next(card for card in range(52) if card != piles[i][k])
    piles[i][k] = other
    views[0] = dataclasses.replace(first, piles=tuple(tuple(pile) for pile in piles))
    with pytest.raises(InconsistentObservationError):
        sample(dataclasses.replace(observation, earlier=tuple(views)), random.Random(0))


def test_samples_still_vary_where_nothing_is_remembered() -> None:
    game = kibitz.game("napoleons-flank")
    for state, observation in histories(game, deals=(8, 9, 10), every=4):
        memory = remembered(observation)
        free = [n for n in range(observation.hidden_count) if n not in memory]
        if len(set(observation.unseen_cards())) < 3 or len(free) < 3:
            continue
        places = observation.hidden_places()
        drawn = samples(observation, random.Random(1), 6)
        for n in free:
            i, k, _ = places[n]
            if len({s.piles[i][k] & IDENTITY for s in drawn}) > 1:
                return
    pytest.fail("every free hidden place got the same card in every sample")


def test_what_is_remembered_does_not_depend_on_what_was_asked_before() -> None:
    """The last game's tracker is followed on, not started again; a game that goes another
    way (another deal, a move taken back and another played) starts afresh."""
    from kibitz.agents import sampling
    game = kibitz.game("duchess")
    asked = list(histories(game, deals=(2, 3), moves=200, every=10))
    in_turn = [remembered(observation) for _, observation in asked]
    backwards = [remembered(observation) for _, observation in reversed(asked)][::-1]
    fresh = []
    for _, observation in asked:
        sampling._last.clear()
        fresh.append(remembered(observation))
    assert in_turn == fresh == backwards
    assert any(in_turn)
    state, observation = next((s, o) for s, o in asked[5:] if len(s.legal_moves) > 1)
    branch = next(move for move in state.legal_moves if move != observation.legal_moves[0])
    other = observe(state.apply(branch), observation.played + (branch,), observation.earlier + (observation.view,))
    remembered(observe(state.apply(observation.legal_moves[0]), observation.played + (observation.legal_moves[0],),
                       observation.earlier + (observation.view,)))
    followed = remembered(other)
    sampling._last.clear()
    assert followed == remembered(other)
