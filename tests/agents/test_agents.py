"""The agents: observations, sampled deals, seeded choices, whole games and the chance to win."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import kibitz
from kibitz.agents import (AGENTS, HINT, SETTINGS, STUDY, Chance, NoMoveError, Setting, UnknownAgentError, agent,
                           chance, observe)
from kibitz.agents import strong as strong_module
from kibitz.agents.greedy import GreedyAgent, evaluate, returning_moves, view_after
from kibitz.agents.play import STALL_MOVES_PER_CARD, play_out, progress_of
from kibitz.agents.sampling import (InconsistentObservationError, fill, is_consistent, sample, samples,
                                    stand_in)
from kibitz.agents.strong import StrongAgent
from kibitz.autoplay import is_safe
from kibitz.cards import FACE_DOWN, IDENTITY
from kibitz.notation import check_state
from kibitz.solver import Limits, Outcome, SolveResult
from kibitz.state import State
from tests.agents.positions import random_positions

CHEAP = Setting("test", samples=3, nodes=150, candidates=2)


# -- observations ------------------------------------------------------------------

def test_an_observation_tells_what_the_player_sees(any_game: kibitz.Game) -> None:
    for state, played, _ in random_positions(any_game, deals=(1,)):
        observation = observe(state, played)
        assert observation.view == state.view()
        assert observation.legal_moves == state.legal_moves
        assert observation.played == tuple(played)
        assert (observation.slug, observation.ruleset) == (any_game.slug, any_game.ruleset)
        assert (observation.round, observation.base) == (state.round, state.base)
        for pile, flags in zip(state.piles, observation.face_down):
            assert flags == tuple(bool(card & FACE_DOWN) for card in pile)
        hidden = Counter(state.piles[i][k] & IDENTITY for i, k, _ in observation.hidden_places())
        assert hidden == Counter(observation.unseen_cards())
        assert observation.hidden_count == len(observation.hidden_places())


def test_the_opening_hides_what_the_rules_hide() -> None:
    observation = observe(kibitz.game("grand-duchess").deal(1))
    face_down_places = [(i, k) for i, k, down in observation.hidden_places() if down]
    assert len(face_down_places) == observation.hidden_count == 104 - 4  # the four tableau cards show
    squared = observe(kibitz.game("napoleons-flank").deal(1))
    covered = [place for place in squared.hidden_places() if not place[2]]
    assert len(covered) == 6 * 3  # each column of four shows its top card only


# -- sampled deals -----------------------------------------------------------------

def test_samples_fit_the_observation(any_game: kibitz.Game) -> None:
    rng = random.Random(1)
    for state, played, _ in random_positions(any_game, deals=(2,)):
        observation = observe(state, played)
        drawn = samples(observation, rng, 4)
        for deal in drawn:
            check_state(deal)
            assert deal.view() == observation.view
            assert deal.legal_moves == observation.legal_moves
            assert is_consistent(observation, deal)
            for i, k, face_down in observation.hidden_places():
                assert bool(deal.piles[i][k] & FACE_DOWN) == face_down
        if len(set(observation.unseen_cards())) > 1:
            assert len({deal.piles for deal in drawn}) > 1  # the hidden cards are drawn, not fixed


def test_samples_are_drawn_uniformly() -> None:
    observation = observe(kibitz.game("duchess").deal(3))
    places = observation.hidden_places()
    first = places[-1]  # the stock's top card
    rng = random.Random(4)
    counts = Counter(sample(observation, rng).piles[first[0]][first[1]] & IDENTITY for _ in range(2000))
    unseen = set(observation.unseen_cards())
    assert set(counts) == unseen
    expected = 2000 / len(unseen)
    assert all(0.5 * expected < n < 1.6 * expected for n in counts.values())


def test_a_sample_is_the_observation_with_cards_in_its_hidden_places() -> None:
    state = kibitz.game("tournament").deal(8)
    observation = observe(state)
    hidden = [state.piles[i][k] & IDENTITY for i, k, _ in observation.hidden_places()]
    assert fill(observation, hidden) == state
    with pytest.raises(InconsistentObservationError):
        fill(observation, hidden[1:])
    stand = stand_in(observation)
    assert is_consistent(observation, stand)
    assert stand.view() == state.view()


def test_an_observation_that_no_deal_fits_is_refused() -> None:
    observation = observe(kibitz.game("duchess").deal(1))
    view = observation.view
    top = view.piles[-1][-1]  # a reserve card shown twice: one card too many, one too few unseen
    assert top is not None
    doubled = type(view)(view.slug, view.ruleset, view.pile_names,
                         view.piles[:-2] + ((top,) + view.piles[-2][1:],) + view.piles[-1:], view.round, view.base)
    wrong = type(observation)(doubled, observation.face_down, observation.legal_moves, observation.packs)
    with pytest.raises(InconsistentObservationError):
        sample(wrong, random.Random(0))
    moves = type(observation)(view, observation.face_down, observation.legal_moves[1:], observation.packs)
    with pytest.raises(InconsistentObservationError, match="legal moves"):
        sample(moves, random.Random(0))


# -- the agents ----------------------------------------------------------------------

def test_the_registry_names_every_agent() -> None:
    assert set(AGENTS) == {"random", "greedy", "strong"}
    assert [agent(name).name for name in AGENTS] == list(AGENTS)
    assert isinstance(agent("strong", STUDY), StrongAgent) and agent("strong", STUDY).setting is STUDY  # type: ignore[attr-defined]
    assert SETTINGS == {"hint": HINT, "study": STUDY}
    with pytest.raises(UnknownAgentError, match="random, greedy, strong"):
        agent("oracle")


def test_settings_are_checked() -> None:
    with pytest.raises(ValueError):
        Setting("x", samples=0, nodes=10)
    with pytest.raises(ValueError):
        Setting("x", samples=2, least=3, nodes=10)
    with pytest.raises(ValueError):
        Setting("x", samples=2, nodes=10, spend=0)
    with pytest.raises(ValueError):
        Setting("x", samples=2, nodes=10, method="peek")  # type: ignore[arg-type]
    assert HINT.but(nodes=5).nodes == 5 and HINT.nodes != 5


def test_deals_are_drawn_until_the_node_budget_is_spent() -> None:
    observation = observe(kibitz.game("kingsdown-eights").deal(3))  # the solver needs many nodes here
    setting = Setting("x", samples=10, least=2, nodes=300, spend=3)
    nodes: list[int] = []
    real_solve = strong_module.solve

    def counting_solve(state: State, limits: Limits | None = None) -> SolveResult:
        result = real_solve(state, limits)
        nodes.append(result.nodes)
        return result
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(strong_module, "solve", counting_solve)
        drawn, results, _ = strong_module.survey(observation, random.Random(0), setting)
    assert 2 <= len(drawn) < 10 and len(results) == len(drawn) == len(nodes)
    assert sum(nodes[:-1]) < 900 <= sum(nodes) or len(drawn) == 2
    state = kibitz.game("tournament").deal(2)
    while state.piles[state.game.stock]:  # nothing hidden: every deal drawn is this one, searched once
        state = state.apply(kibitz.DEAL)
    drawn, _, searches = strong_module.survey(observe(state), random.Random(0), setting.but(spend=50))
    assert len(drawn) == 10 and searches.count == 1


def test_each_agent_chooses_a_legal_move_and_the_same_one_for_the_same_seed(any_game: kibitz.Game) -> None:
    for state, played, _ in random_positions(any_game, deals=(3,), depths=(0, 20)):
        if state.is_over():
            continue
        observation = observe(state, played)
        for name in AGENTS:
            player = agent(name, CHEAP)
            first = player.choose(observation, random.Random(9))
            assert first in state.legal_moves
            assert player.choose(observation, random.Random(9)) == first
            assert player.decide(observation, random.Random(9)).move == first


def test_the_seed_decides_among_equals() -> None:
    state = kibitz.game("cicely").deal(1)
    observation = observe(state)
    assert not any(is_safe(state, move) for move in state.legal_moves)
    random_moves = {agent("random").choose(observation, random.Random(seed)) for seed in range(30)}
    assert len(random_moves) > 1
    scored = evaluate(observation)
    top = max(score for _, score in scored)
    best = {move for move, score in scored if score == top}
    greedy_moves = {agent("greedy").choose(observation, random.Random(seed)) for seed in range(30)}
    assert greedy_moves <= best
    if len(best) > 1:
        assert len(greedy_moves) > 1


def test_agents_refuse_a_finished_game() -> None:
    state = kibitz.game("tournament").deal(1)
    while state.legal_moves:
        state = state.apply(state.legal_moves[0])
    for name in AGENTS:
        with pytest.raises(NoMoveError):
            agent(name, CHEAP).choose(observe(state), random.Random(0))
    with pytest.raises(NoMoveError):
        chance(observe(state), random.Random(0), CHEAP)


def test_greedy_plays_safe_moves_first_then_its_evaluation(any_game: kibitz.Game) -> None:
    greedy = GreedyAgent()
    checked = 0
    for state, played, _ in random_positions(any_game, deals=(1, 2), depths=(5, 25, 60)):
        if len(state.legal_moves) < 2:
            continue
        decision = greedy.decide(observe(state, played), random.Random(0))
        safe = [move for move in state.legal_moves if is_safe(state, move)]
        if safe:
            assert decision.move == safe[0]
        else:
            checked += 1
            scores = dict(evaluate(observe(state, played)))
            assert scores[decision.move] == max(scores.values())
    assert checked > 0


def test_greedy_prefers_foundations() -> None:
    state = kibitz.game("cicely").deal(1)
    scores = dict(evaluate(observe(state)))
    to_foundation = [m for m in state.legal_moves if m.target.startswith("f")]
    others = [m for m in state.legal_moves if not m.target.startswith("f")]
    assert to_foundation and others
    assert min(scores[m] for m in to_foundation) > max(scores[m] for m in others)


def test_the_view_after_a_move_is_the_cores(any_game: kibitz.Game) -> None:
    for state, _, _ in random_positions(any_game, deals=(2,)):
        observation = observe(state)
        stand = stand_in(observation)
        for move in state.legal_moves:
            assert view_after(observation.view, stand, move) == stand.game.apply_unchecked(stand, move).view()


def test_a_move_back_to_a_position_seen_is_found() -> None:
    state = kibitz.game("tournament", "pysolfc").deal(1)  # a card may go from cell to cell
    move = next(m for m in state.legal_moves if m.source.startswith("r") and m.target.startswith("f"))
    state = state.apply(move)  # a cell is empty now
    cell_move = next(m for m in state.legal_moves if m.source.startswith("r") and m.target.startswith("r"))
    after = state.apply(cell_move)
    back = kibitz.Move(cell_move.target, cell_move.source)
    assert back in after.legal_moves
    remembering = observe(after, [move, cell_move], [state.view()])
    assert returning_moves(remembering, stand_in(remembering)) == {back}
    assert returning_moves(observe(after), stand_in(observe(after))) == frozenset()
    fresh = dict(evaluate(observe(after)))[back]
    assert dict(evaluate(remembering))[back] == fresh - 200


def test_a_card_seen_going_under_a_squared_pile_is_remembered() -> None:
    game = kibitz.game("kingsdown-eights")  # squared columns: a card built on hides the one below
    for state, _, _ in random_positions(game, deals=(1, 2, 3, 4), depths=tuple(range(40))):
        builds = [m for m in state.legal_moves if m.source[0] == m.target[:1] == "t"
                  and len(state.pile(m.source)) == 1]
        for move in builds:
            after = state.apply(move)
            back = kibitz.Move(move.target, move.source)
            if back not in after.legal_moves:
                continue
            assert after.view().pile(move.target)[-2] is None  # the card under is hidden now
            remembering = observe(after, [move], [state.view()])
            assert back in returning_moves(remembering, stand_in(remembering))
            return
    pytest.fail("no move that can be taken back found")


def test_the_two_stand_ins_differ_in_every_hidden_place_where_they_can() -> None:
    for state, _, _ in random_positions(kibitz.game("grand-duchess"), deals=(1,), depths=(0, 30)):
        observation = observe(state)
        first, other = stand_in(observation), stand_in(observation, shift=observation.packs)
        places = observation.hidden_places()
        assert all(first.piles[i][k] != other.piles[i][k] for i, k, _ in places)


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_random_and_greedy_play_whole_games(any_game: kibitz.Game, name: str) -> None:
    for number in (1, 2):
        opening = any_game.deal(number)
        result = play_out(opening, agent(name), random.Random(number))
        assert result.end in ("won", "no move left", "repeated position", "stalled")
        replayed = opening
        for move in result.moves:
            replayed = replayed.apply(move)
        assert replayed == result.state
        if result.end == "won":
            assert result.state.is_won()
        elif result.end == "no move left":
            assert not result.state.legal_moves
        elif result.end == "stalled":  # the last moves brought nothing new: cards up, or cards seen
            window = STALL_MOVES_PER_CARD * any_game.total_cards
            states = [opening]
            for move in result.moves:
                states.append(states[-1].apply(move))
            progress = [progress_of(state) for state in states]
            start = len(progress) - 1 - window
            assert start >= 0
            same_round = [p for p in progress[:start + 1] if p[0] == progress[-1][0]]
            assert same_round and all(
                p[0] == progress[-1][0] and p[1] <= max(q[1] for q in same_round)
                and p[2] >= min(q[2] for q in same_round) for p in progress[start:])
        else:
            positions = Counter([opening.key])
            state = opening
            for move in result.moves:
                state = state.apply(move)
                positions[state.key] += 1
            assert positions[result.state.key] == 3


def test_a_play_out_stops_at_its_move_limit() -> None:
    result = play_out(kibitz.game("cicely").deal(1), agent("random"), random.Random(0), max_moves=7)
    assert result.end == "move limit" and len(result.moves) == 7


# -- the strong agent and the chance to win -------------------------------------------

def test_the_strong_agent_searches_only_deals_that_fit_what_it_sees(
        any_game: kibitz.Game, monkeypatch: pytest.MonkeyPatch) -> None:
    searched: list[State] = []
    real_solve = strong_module.solve

    def recording_solve(state: State, limits: Limits | None = None) -> SolveResult:
        searched.append(state)
        return real_solve(state, limits)
    monkeypatch.setattr(strong_module, "solve", recording_solve)
    for state, played, _ in random_positions(any_game, deals=(5,), depths=(3, 15)):
        if state.is_over():
            continue
        observation = observe(state, played)
        searched.clear()
        decision = StrongAgent(CHEAP).decide(observation, random.Random(2))
        assert decision.move in state.legal_moves
        assert decision.searches == len(searched)
        if decision.samples:
            roots = [deal for deal in searched if is_consistent(observation, deal)]
            assert roots and len(roots) <= CHEAP.samples
            for deal in searched:  # every other search is a sample after one of the legal moves
                assert deal in roots or any(
                    is_consistent(observation, root) and deal == root.apply(move)
                    for root in roots for move in observation.legal_moves if move in root.legal_moves)


def test_the_strong_agent_takes_a_safe_or_only_move_without_searching() -> None:
    state = kibitz.game("parisienne").deal(1)  # the aces and kings of one pack start the foundations
    for _ in range(200):
        if len(state.legal_moves) > 1 and any(is_safe(state, move) for move in state.legal_moves):
            break
        state = state.apply(state.legal_moves[0])
    else:
        pytest.fail("no position with a safe move among others")
    decision = StrongAgent(CHEAP).decide(observe(state), random.Random(0))
    assert decision.searches == 0 and is_safe(state, decision.move)
    assert decision.move == next(move for move in state.legal_moves if is_safe(state, move))


def test_the_strong_agent_votes_or_looks_back_in_hindsight() -> None:
    state = kibitz.game("parisienne").deal(2)
    observation = observe(state)
    for method in ("vote", "hindsight", "hybrid"):
        decision = StrongAgent(CHEAP.but(method=method)).decide(observation, random.Random(1))
        assert decision.move in state.legal_moves and decision.samples == CHEAP.samples
        shares = [score for _, score in decision.scores]
        assert shares == sorted(shares, reverse=True) and all(0 <= s <= 1 for s in shares)
        if method == "hindsight":
            assert {move for move, _ in decision.scores} == set(state.legal_moves)


def test_the_chance_to_win_counts_the_samples(any_game: kibitz.Game) -> None:
    state = any_game.deal(6)
    observed = chance(observe(state), random.Random(0), CHEAP)
    assert observed.samples == CHEAP.samples
    assert observed.won + observed.lost + observed.unknown == CHEAP.samples
    assert observed == chance(observe(state), random.Random(0), CHEAP)


def test_the_chance_to_win_is_exact_when_nothing_is_hidden() -> None:
    state = kibitz.game("tournament").deal(2)
    while state.piles[state.game.stock]:  # deal the stock out: every card then lies face up
        state = state.apply(kibitz.DEAL)
    observation = observe(state)
    assert observation.hidden_count == 0
    observed = chance(observation, random.Random(0), Setting("x", samples=4, nodes=20_000))
    outcome = strong_module.solve(state, Limits(seconds=None, nodes=20_000)).outcome
    assert observed == Chance(4 * (outcome is Outcome.WON), 4 * (outcome is Outcome.LOST),
                              4 * (outcome is Outcome.UNKNOWN))
    assert Chance(3, 1, 0).share == 0.75 and Chance(0, 0, 0).share is None


def test_an_undecided_sample_is_never_counted_as_lost() -> None:
    chance = Chance(won=3, lost=1, unknown=4)
    assert chance.share == 0.75   # of the decided samples
    assert (chance.low, chance.high) == (3 / 8, 7 / 8)   # the undecided ones lost, or won
    low, high = chance.interval()
    assert low <= chance.low and high >= chance.high
    assert Chance(0, 0, 5).share is None and Chance(0, 0, 5).interval() == (0.0, 1.0)
    assert Chance(0, 0, 5).as_dict()["share"] is None
