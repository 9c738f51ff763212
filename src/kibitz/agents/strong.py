"""The ``strong`` agent and the chance to win from here, both from deals sampled to fit the view.

Both draw deals consistent with the observation (:mod:`kibitz.agents.sampling`: a card the
player saw earlier in the game keeps the place the moves took it to, the others are drawn at
random) and search each with the solver under a node budget (so that every answer is
reproducible); the :class:`~kibitz.agents.setting.Setting` says how many deals and how many
nodes.

*The chance to win* (:func:`chance`) is the share of those deals that the solver wins from
the current position. See :class:`Chance` for what that share means.

*The strong agent* plays a safe move to a foundation when there is one (the core's rule)
and the only legal move when there is one; otherwise it decides by hindsight over the
samples:

1. each sample is solved from the position; a win's first move gets that sample's vote;
2. the candidates are the moves with votes, most votes first, then the greedy agent's
   favourites, up to ``Setting.candidates`` moves (every legal move with ``method="hindsight"``),
   leaving out the moves back to a position seen earlier in the game while there are others;
3. each candidate is scored by the share of samples in which the position after it is won:
   a sample whose win starts with the candidate counts as won, one proved lost from the
   position as lost, and the others are solved after the candidate;
4. the best share wins, a move back to a position seen earlier coming last unless nothing
   else wins in any sample (every position of a won sample is won: without this the agent
   could go round in circles); ties go to the move with more votes (the solver's choice,
   which heads for the foundations), then to the greedy evaluation, then to the generator.

``method="vote"`` stops after step 1 and plays the move with the most votes (determinised
search); ``method="hindsight"`` scores every legal move. When no sample is won, all three
fall back on the greedy choice. ``benchmarks/agent_speed.py`` measures the settings and
compares the methods with the greedy agent: the vote goes round in circles and loses
where every move keeps a won sample won (Duchess, Cicely), and scoring every move costs
several times as much as scoring a few candidates without winning more.
"""

from __future__ import annotations

import random
from typing import Callable

from kibitz.agents.base import Chance, Decision, check_observation
from kibitz.agents.greedy import MEASURE, evaluate, obvious, returning_moves
from kibitz.agents.observation import Observation
from kibitz.agents.sampling import Sample, remembered, sample, stand_in
from kibitz.agents.setting import HINT, Setting
from kibitz.moves import Move
from kibitz.solver import Limits, Outcome, SolveResult, solve


class Searches:
    """Solver searches of one decision, each position searched once (samples can repeat)."""

    def __init__(self, nodes: int) -> None:
        self.limits = Limits(seconds=None, nodes=nodes)
        self.results: dict[object, SolveResult] = {}
        self.count = 0

    def solve(self, state: Sample) -> SolveResult:
        key = state.key
        result = self.results.get(key)
        if result is None:
            result = solve(state, self.limits)
            self.results[key] = result
            self.count += 1
        return result


def survey(observation: Observation, rng: random.Random, setting: Setting
           ) -> tuple[list[Sample], list[SolveResult], Searches]:
    """The samples of a decision and the solver's verdict on each from the position, drawn
    one at a time as ``setting`` says."""
    searches = Searches(setting.nodes)
    drawn: list[Sample] = []
    results: list[SolveResult] = []
    used = 0
    memory = remembered(observation)
    while len(drawn) < setting.samples and (
            len(drawn) < setting.least or setting.budget is None or used < setting.budget):
        state = sample(observation, rng, memory)
        known = state.key in searches.results
        result = searches.solve(state)
        used += 0 if known else result.nodes
        drawn.append(state)
        results.append(result)
    return drawn, results, searches


def chance(observation: Observation, rng: random.Random, setting: Setting = HINT) -> Chance:
    """The chance to win from here (see :class:`Chance`), from the deals ``setting`` draws."""
    observation = check_observation(observation)
    _, results, _ = survey(observation, rng, setting)
    won = sum(r.outcome is Outcome.WON for r in results)
    lost = sum(r.outcome is Outcome.LOST for r in results)
    return Chance(won, lost, len(results) - won - lost)


class StrongAgent:
    """Decides by searching deals that fit the observation (see the module docstring)."""

    name = "strong"

    def __init__(self, setting: Setting = HINT) -> None:
        self.setting = setting

    def choose(self, observation: Observation, rng: random.Random) -> Move:
        return self.decide(observation, rng).move

    def decide(self, observation: Observation, rng: random.Random) -> Decision:
        observation = check_observation(observation)
        moves = observation.legal_moves
        plain = obvious(observation)
        if plain is not None:
            return plain
        setting = self.setting
        drawn, results, searches = survey(observation, rng, setting)
        votes: dict[Move, int] = {}
        for result in results:
            if result.outcome is Outcome.WON and result.moves:
                votes[result.moves[0]] = votes.get(result.moves[0], 0) + 1
        greedy = dict(evaluate(observation))
        back = returning_moves(observation, stand_in(observation))
        by_greedy = sorted(moves, key=lambda m: -greedy[m])
        n = len(drawn)
        ahead = [move for move in moves if move not in back] or list(moves)
        if setting.method == "vote":
            if not any(move in votes for move in ahead):
                return self._fallback(observation, rng, by_greedy, greedy, n, searches.count)
            scores = {move: votes.get(move, 0) / n for move in ahead}
            return self._pick(scores, votes, greedy, back, rng, n, searches.count, "share of samples won starting with it",
                              lambda move: f"the first move of a win in {votes.get(move, 0)} of {n} samples")
        if setting.method == "hindsight":
            candidates = list(moves)
        else:
            candidates = sorted((m for m in votes if m in ahead), key=lambda m: (-votes[m], moves.index(m)))
            candidates = candidates[:setting.candidates]
            for move in by_greedy:
                if len(candidates) >= setting.candidates:
                    break
                if move not in candidates and move in ahead:
                    candidates.append(move)
        shares: dict[Move, float] = {}
        for move in candidates:
            won = 0
            for state, result in zip(drawn, results):
                if result.outcome is Outcome.WON and result.moves and result.moves[0] == move:
                    won += 1
                elif result.outcome is not Outcome.LOST:
                    after = state.apply(move)
                    won += searches.solve(after).outcome is Outcome.WON
            shares[move] = won / n
        if not any(shares.values()):
            return self._fallback(observation, rng, by_greedy, greedy, n, searches.count)
        return self._pick(shares, votes, greedy, back, rng, n, searches.count, "share of samples won after it",
                          lambda move: f"won after it in {round(shares[move] * n)} of {n} samples")

    @staticmethod
    def _pick(scores: dict[Move, float], votes: dict[Move, int], greedy: dict[Move, float],
              back: frozenset[Move], rng: random.Random, samples: int, count: int, measure: str,
              words: Callable[[Move], str]) -> Decision:
        """The move of best score, one in ``back`` (to a position seen before) only when
        nothing else scores; ties to more votes, then to the greedy evaluation, then to ``rng``."""
        def rank(move: Move) -> tuple[bool, float, int, float]:
            return (scores[move] > 0 and move not in back, scores[move], votes.get(move, 0), greedy[move])
        ordered = sorted(scores, key=rank, reverse=True)
        tied = [move for move in ordered if rank(move) == rank(ordered[0])]
        move = tied[0] if len(tied) == 1 else tied[rng.randrange(len(tied))]
        ranked = tuple((m, scores[m]) for m in ordered)
        return Decision(move, words(move), ranked, measure, samples=samples, searches=count)

    @staticmethod
    def _fallback(observation: Observation, rng: random.Random, by_greedy: list[Move],
                  greedy: dict[Move, float], samples: int, count: int) -> Decision:
        """No sample won: the greedy choice."""
        top = greedy[by_greedy[0]]
        tied = [move for move in observation.legal_moves if greedy[move] == top]
        move = tied[0] if len(tied) == 1 else tied[rng.randrange(len(tied))]
        ranked = tuple((m, greedy[m]) for m in by_greedy)
        return Decision(move, f"no sample won in {samples}: the greedy choice", ranked, MEASURE,
                        samples=samples, searches=count)
