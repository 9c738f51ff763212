"""The Gymnasium environments: registration, the checker, seeds, the view-only observation,
the action mask, illegal actions, the end of an episode and agents playing through them."""

from __future__ import annotations

import random
import subprocess
import sys
import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from gymnasium.utils.env_checker import check_env

import kibitz
from kibitz.agents import agent, observe
from kibitz.agents.play import play_out
from kibitz.cards import FACE_DOWN, IDENTITY
from kibitz.errors import DealNumberError, IllegalMoveError
from kibitz.gym import (COVERED_CARD, ENVIRONMENT_IDS, FACE_DOWN_CARD, MAX_STEPS, NO_BASE, NO_CARD, Encoding,
                        PatienceEnv, environment_id)
from kibitz.gym.encoding import EncodedObservation
from kibitz.state import State
from kibitz.tui.drawing import draw
from tests.agents.positions import differently_hidden, random_positions

IDS = sorted(ENVIRONMENT_IDS)


def make(slug: str, ruleset: str = "standard", **options: Any) -> PatienceEnv:
    env = gymnasium.make(environment_id(slug, ruleset), **options).unwrapped
    assert isinstance(env, PatienceEnv)
    return env


def same(first: EncodedObservation, second: EncodedObservation) -> bool:
    return first.keys() == second.keys() and all(np.array_equal(first[key], second[key]) for key in first)


# -- registration and the checker ------------------------------------------------------------

def test_every_game_and_ruleset_has_a_versioned_id() -> None:
    assert len(IDS) == 2 * len(kibitz.games()) == 14
    assert {"kibitz/GrandDuchess-v0", "kibitz/GrandDuchess-pysolfc-v0", "kibitz/NapoleonsFlank-v0",
            "kibitz/KingsdownEights-pysolfc-v0", "kibitz/Duchess-v0"} <= set(IDS)
    for env_id, (slug, ruleset) in ENVIRONMENT_IDS.items():
        env = gymnasium.make(env_id).unwrapped
        assert isinstance(env, PatienceEnv)
        assert (env.game.slug, env.game.ruleset) == (slug, ruleset)
        assert env.action_space == make(slug, "standard").action_space  # both rulesets share the actions


def test_the_ids_play_the_rules_version_they_were_made_for() -> None:
    """A change of the rules must come with a new version of the ids (kibitz.gym.VERSION)."""
    assert {info.rules_version for info in kibitz.games()} == {kibitz.gym.RULES_VERSION}


@pytest.mark.parametrize("env_id", IDS)
def test_every_environment_passes_the_checker(env_id: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning of the checker fails the test
        check_env(gymnasium.make(env_id, render_mode="ansi").unwrapped)


def test_importing_the_package_imports_gymnasium_only_for_the_environments() -> None:
    program = ("import sys; sys.modules['gymnasium'] = None\n"
               "import kibitz\n"
               "kibitz.game('duchess').deal(1).legal_moves\n"
               "try:\n"
               "    import kibitz.gym\n"
               "except ModuleNotFoundError as error:\n"
               "    print(error)\n")
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    assert "kibitz.gym needs Gymnasium" in result.stdout and "pip install 'kibitz[gym]'" in result.stdout


# -- reset: seeds and deal numbers -----------------------------------------------------------

def test_the_same_seed_deals_the_same_games() -> None:
    env = make("tournament")
    first, info = env.reset(seed=7)
    following = [env.reset()[1]["deal"] for _ in range(3)]
    again, info_again = env.reset(seed=7)
    assert info["deal"] == info_again["deal"] and same(first, again)
    assert [env.reset()[1]["deal"] for _ in range(3)] == following
    assert len({make("tournament").reset(seed=seed)[1]["deal"] for seed in range(6)}) == 6
    other = make("tournament")
    assert other.reset(seed=7)[1]["deal"] == info["deal"]  # another environment, the same deal


def test_the_same_seed_and_actions_give_the_same_episode() -> None:
    def episode() -> list[tuple[int, float, bool, bool, int]]:
        env = make("duchess", "pysolfc")
        _, info = env.reset(seed=3)
        env.action_space.seed(3)
        steps = []
        for _ in range(60):
            action = int(env.action_space.sample(mask=info["action_mask"]))
            observation, reward, terminated, truncated, info = env.step(action)
            steps.append((action, reward, terminated, truncated, int(observation["cards"].sum())))
            if terminated or truncated:
                break
        return steps
    assert episode() == episode()


def test_deals_are_drawn_from_the_deals_given() -> None:
    env = make("cicely", deals=range(100, 105))
    assert {env.reset(seed=seed)[1]["deal"] for seed in range(40)} == set(range(100, 105))
    env = make("cicely", deals=[42])
    assert env.reset(seed=1)[1]["deal"] == 42
    for deals in ([], [0], range(0, 5), range(1, 10**20 + 1), range(5, 1, -1)):
        with pytest.raises(ValueError):
            make("cicely", deals=deals)


def test_a_deal_number_in_the_options_deals_that_deal(any_game: kibitz.Game) -> None:
    env = make(any_game.slug, any_game.ruleset)
    observation, info = env.reset(options={"deal": 617})
    assert info["deal"] == 617 and info["moves_played"] == 0
    assert same(observation, env.encoding.encode(observe(any_game.deal(617))))
    assert env.reset(seed=5, options={"deal": 12345678901234567890})[1]["deal"] == 12345678901234567890


@pytest.mark.parametrize("number", [0, -3, 10**20, "12", 1.5, True, None])
def test_a_bad_deal_number_is_refused(number: object) -> None:
    env = make("duchess")
    with pytest.raises(DealNumberError, match="deal number"):
        env.reset(options={"deal": number})


def test_an_unknown_option_is_refused() -> None:
    with pytest.raises(ValueError, match="'deal'"):
        make("duchess").reset(options={"dael": 5})


# -- the observation: the view only ----------------------------------------------------------

def decode(encoding: Encoding, observation: EncodedObservation) -> list[list[int | None]]:
    """The piles the observation shows: card identities, ``None`` for a hidden card."""
    piles = []
    for row, size in zip(observation["cards"], observation["pile_sizes"]):
        assert all(code == NO_CARD for code in row[size:]) and NO_CARD not in row[:size]
        piles.append([None if code in (FACE_DOWN_CARD, COVERED_CARD) else int(code) for code in row[:size]])
    return piles


def test_the_observation_shows_what_the_player_sees(any_game: kibitz.Game) -> None:
    encoding = Encoding(any_game)
    for state, played, *_ in random_positions(any_game):
        observation = encoding.encode(observe(state, played))
        assert encoding.space.contains(observation)
        view = state.view()
        assert decode(encoding, observation) == [list(pile) for pile in view.piles]
        face_down = [[code == FACE_DOWN_CARD for code in row[:size]]
                     for row, size in zip(observation["cards"], observation["pile_sizes"])]
        assert face_down == [[bool(card & FACE_DOWN) for card in pile] for pile in state.piles]
        assert observation["round"] == state.round
        assert observation["base"] == (NO_BASE if state.base is None else state.base)


def test_two_states_with_the_same_view_give_the_same_observation(any_game: kibitz.Game) -> None:
    encoding = Encoding(any_game)
    rng = random.Random(3)
    compared = 0
    for state, *_ in random_positions(any_game):
        shuffled = differently_hidden(state, rng)
        if shuffled is None:
            continue
        compared += 1
        assert shuffled.piles != state.piles
        assert same(encoding.encode(observe(state)), encoding.encode(observe(shuffled)))
    assert compared >= 3


def test_a_card_the_player_sees_changes_the_observation() -> None:
    game = kibitz.game("duchess")
    state = game.deal(1)
    encoding = Encoding(game)
    t1 = game.pile_index("t1")
    piles = list(state.piles)
    piles[t1] = bytes([((piles[t1][-1] & IDENTITY) + 1) % 52])
    assert not same(encoding.encode(observe(state)), encoding.encode(observe(State(game, tuple(piles)))))


# -- steps: the mask, rollouts, the end ------------------------------------------------------

def replay(env: PatienceEnv, state: State, info: dict[str, Any], observation: EncodedObservation) -> None:
    """The environment's observation and mask are those of ``state``, the position reached."""
    assert same(observation, env.encoding.encode(observe(state)))
    legal = {env.actions.action_of(move) for move in state.legal_moves}
    assert set(np.flatnonzero(info["action_mask"])) == legal
    assert info["action_mask"].dtype == np.int8 and info["action_mask"].shape == (len(env.actions),)
    assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))


@pytest.mark.parametrize("env_id", IDS)
def test_random_play_with_the_mask_follows_the_rules(env_id: str) -> None:
    slug, ruleset = ENVIRONMENT_IDS[env_id]
    env = make(slug, ruleset, max_steps=250)
    ends = []
    for seed in range(3):
        observation, info = env.reset(seed=seed)
        state = kibitz.game(slug, ruleset).deal(info["deal"])
        env.action_space.seed(seed)
        while True:
            replay(env, state, info, observation)
            action = int(env.action_space.sample(mask=info["action_mask"]))
            observation, reward, terminated, truncated, info = env.step(action)
            state = state.apply(env.move_of(action))
            assert info["move"] == str(env.move_of(action)) and not info["illegal"]
            assert info["moves_played"] == len(env.agent_observation().played)
            assert reward == (1.0 if state.is_won() else 0.0)
            assert terminated == state.is_over()
            assert truncated == (not terminated and info["moves_played"] == 250)
            if terminated or truncated:
                replay(env, state, info, observation)
                ends.append("won" if state.is_won() else "over" if terminated else "truncated")
                break
        with pytest.raises(ResetNeeded, match="reset"):
            env.step(0)
    assert len(ends) == 3


GREEDY_DEALS = {"cicely": 3, "parisienne": 2, "duchess": 1}
"""A deal for the greedy agent in each game (deal 3 where none is named): Cicely's deal 3 is
short; the greedy agent wins Parisienne's deal 2 and Duchess's deal 1 (standard rules)."""


@pytest.mark.parametrize("env_id", IDS)
def test_the_greedy_agent_plays_through_the_environment(env_id: str) -> None:
    """Given the environment's agent observation, the greedy agent plays the moves it plays
    in kibitz's own referee, to the end of the game (or of the step limit)."""
    slug, ruleset = ENVIRONMENT_IDS[env_id]
    number = GREEDY_DEALS.get(slug, 3)
    env = make(slug, ruleset, max_steps=600)
    _, info = env.reset(options={"deal": number})
    greedy, rng = agent("greedy"), random.Random(number)
    played, rewards = [], []
    terminated = truncated = False
    while not (terminated or truncated):
        move = greedy.choose(env.agent_observation(), rng)
        _, reward, terminated, truncated, info = env.step(env.action_of(move))
        assert not info["illegal"]
        played.append(move)
        rewards.append(reward)
    expected = play_out(kibitz.game(slug, ruleset).deal(number), greedy, random.Random(number), max_moves=600)
    assert played[:len(expected.moves)] == list(expected.moves)
    if expected.end in ("won", "no move left"):
        assert terminated and len(played) == len(expected.moves)
    assert sum(rewards) == rewards[-1] == (1.0 if expected.won else 0.0)
    if (slug, ruleset, number) in (("parisienne", "standard", 2), ("duchess", "standard", 1)):
        assert expected.won


def test_an_illegal_action_changes_nothing_and_says_why() -> None:
    env = make("grand-duchess", max_steps=3)
    observation, info = env.reset(options={"deal": 5})
    action = env.action_of("r1#0>f1")
    assert not info["action_mask"][action]
    after, reward, terminated, truncated, step_info = env.step(action)
    assert same(after, observation) and reward == 0.0 and not (terminated or truncated)
    assert step_info["illegal"] and step_info["move"] == "r1#0>f1" and "face down" in step_info["reason"]
    assert step_info["moves_played"] == 0 and np.array_equal(step_info["action_mask"], info["action_mask"])
    env.step(action)
    assert env.step(action)[3]  # illegal steps count towards the limit
    strict = make("grand-duchess", illegal_action="raise")
    observation, _ = strict.reset(options={"deal": 5})
    with pytest.raises(IllegalMoveError, match="face down"):
        strict.step(action)
    assert same(strict.step(0)[0], strict.encoding.encode(observe(kibitz.game("grand-duchess").deal(5).apply("deal"))))


def test_bad_actions_and_settings_are_refused() -> None:
    env = make("duchess")
    with pytest.raises(ResetNeeded, match="reset"):
        env.step(0)
    env.reset(seed=0)
    for action in (-1, len(env.actions)):
        with pytest.raises(ValueError, match="actions are 0 to"):
            env.step(action)
    with pytest.raises(IllegalMoveError, match="never legal"):
        env.action_of("t1>s")
    for options in ({"max_steps": 0}, {"illegal_action": "penalty"}, {"render_mode": "human"}):
        with pytest.raises(ValueError):
            PatienceEnv("duchess", **options)
    with pytest.raises(kibitz.UnknownGameError):
        PatienceEnv("klondike")


def test_episodes_are_truncated_at_the_step_limit_unless_there_is_none() -> None:
    """An illegal action changes nothing, so the game goes on until the limit, if any."""
    cases: list[tuple[dict[str, Any], int, int | None]] = [({}, MAX_STEPS, MAX_STEPS),
                                                           ({"max_steps": None}, MAX_STEPS + 100, None)]
    for options, steps, truncated_at in cases:
        env = make("kingsdown-eights", **options)
        env.reset(options={"deal": 3})
        illegal = int(np.flatnonzero(env.action_masks() == 0)[0])
        truncated = [step for step in range(1, steps + 1) if env.step(illegal)[3]]
        assert truncated == ([] if truncated_at is None else [truncated_at])


def test_render_draws_what_the_player_sees() -> None:
    env = make("napoleons-flank", render_mode="ansi")
    env.reset(options={"deal": 9})
    env.step(0)
    state = kibitz.game("napoleons-flank").deal(9).apply("deal")
    assert env.render() == draw(state, moves_played=1)
    assert "9" not in (env.render() or "").splitlines()[0]  # the deal number stays out of the drawing
    assert make("napoleons-flank").render() is None
