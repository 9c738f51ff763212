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
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Iterable

from kibitz.agents.base import Chance, Decision, check_observation
from kibitz.agents.greedy import MEASURE, evaluate, obvious, returning_moves
from kibitz.agents.observation import Observation
from kibitz.agents.sampling import Sample, remembered, sample, search_terms, stand_in
from kibitz.agents.setting import HINT, Setting
from kibitz.moves import Move
from kibitz.solver import Limits, Outcome, SolveResult, solve


class Searches:
    """Solver searches of one decision, each position searched once (samples can repeat).

    With ``threads`` above one, :meth:`prefetch` searches many positions at once in that
    many threads, where the native kernel runs the game's rules (its searches run without
    the interpreter's lock): the same verdicts, sooner on a machine with cores to spare.
    """

    def __init__(self, nodes: int, threads: int = 1, undecided_stay: bool = False) -> None:
        self.limits = Limits(seconds=None, nodes=nodes)
        self.results: dict[object, SolveResult] = {}
        self.count = 0
        self.threads = threads
        self.undecided_stay = undecided_stay
        """Whether a position left undecided is taken to stay undecided after a move, unsearched
        (:meth:`after`): a review's searches, where it mostly does and would take the whole budget."""

    def solve(self, state: Sample) -> SolveResult:
        key = state.key
        result = self.results.get(key)
        if result is None:
            result = solve(state, self.limits)
            self.results[key] = result
            self.count += 1
        return result

    def prefetch(self, states: Iterable[Sample]) -> None:
        """Search each of ``states`` not searched yet, in :attr:`threads` threads where the
        native kernel runs the rules (then :meth:`solve` finds the verdicts made)."""
        todo: dict[object, Sample] = {}
        for state in states:
            if state.key not in self.results:
                todo.setdefault(state.key, state)
        if self.threads <= 1 or len(todo) < 2 or any(state.game.kernel is None for state in todo.values()):
            for state in todo.values():
                self.solve(state)
            return
        limits = self.limits
        for key, result in zip(todo, search_threads(self.threads).map(lambda state: solve(state, limits), todo.values())):
            self.results[key] = result
            self.count += 1

    def after(self, state: Sample, result: SolveResult, move: Move) -> SolveResult:
        """The verdict on ``state`` after ``move``, where ``result`` is the verdict on ``state``:
        :func:`known_after`, or searched."""
        known = known_after(result, move, self.undecided_stay)
        return known if known is not None else self.solve(state.apply(move))

    def to_search(self, state: Sample, result: SolveResult, move: Move) -> Sample | None:
        """The position :meth:`after` would search, or ``None`` when it needs no search."""
        if known_after(result, move, self.undecided_stay) is not None:
            return None
        return state.game.apply_unchecked(state, move)


def known_after(result: SolveResult, move: Move, undecided_stay: bool = False) -> SolveResult | None:
    """The verdict after ``move`` that needs no search, where ``result`` is the verdict before
    it: a win that starts with ``move`` goes on winning, a proved loss stays lost (no move wins
    a lost position), and (``undecided_stay``) an undecided position is taken to stay undecided;
    ``None``: it must be searched."""
    if result.outcome is Outcome.WON and result.moves and result.moves[0] == move:
        return SolveResult(Outcome.WON, result.moves[1:])
    if result.outcome is Outcome.LOST or (result.outcome is Outcome.UNKNOWN and undecided_stay):
        return SolveResult(result.outcome)
    return None


_EXECUTORS: dict[int, ThreadPoolExecutor] = {}


def search_threads(threads: int) -> ThreadPoolExecutor:
    """The threads that search for :meth:`Searches.prefetch` and others (made once per size)."""
    executor = _EXECUTORS.get(threads)
    if executor is None:
        executor = _EXECUTORS[threads] = ThreadPoolExecutor(threads, thread_name_prefix="kibitz-search")
    return executor


def survey(observation: Observation, rng: random.Random, setting: Setting
           ) -> tuple[list[Sample], list[SolveResult], Searches]:
    """The samples of a decision and the solver's verdict on each from the position, drawn
    one at a time as ``setting`` says."""
    family, native = search_terms(observation)
    searches = Searches(setting.nodes_for(family, native))
    budget = setting.budget_for(family, native)
    drawn: list[Sample] = []
    results: list[SolveResult] = []
    used = 0
    memory = remembered(observation)
    while len(drawn) < setting.samples and (len(drawn) < setting.least or budget is None or used < budget):
        state = sample(observation, rng, memory)
        known = state.key in searches.results
        result = searches.solve(state)
        used += 0 if known else result.nodes
        drawn.append(state)
        results.append(result)
    return drawn, results, searches


def tally(results: Iterable[SolveResult]) -> Chance:
    """The verdicts counted: won, proved lost and undecided."""
    won = lost = unknown = 0
    for result in results:
        won += result.outcome is Outcome.WON
        lost += result.outcome is Outcome.LOST
        unknown += result.outcome is Outcome.UNKNOWN
    return Chance(won, lost, unknown)


def chance(observation: Observation, rng: random.Random, setting: Setting = HINT) -> Chance:
    """The chance to win from here (see :class:`Chance`), from the deals ``setting`` draws."""
    observation = check_observation(observation)
    _, results, _ = survey(observation, rng, setting)
    return tally(results)


def kept(drawn: list[Sample], results: list[SolveResult], searches: Searches, move: Move) -> Chance:
    """How many of the deals ``drawn`` (with their verdicts ``results``) are won, proved lost
    and undecided after ``move``."""
    return tally(searches.after(state, result, move) for state, result in zip(drawn, results))


class StrongAgent:
    """Decides by searching deals that fit the observation (see the module docstring)."""

    name = "strong"

    def __init__(self, setting: Setting = HINT) -> None:
        self.setting = setting

    def choose(self, observation: Observation, rng: random.Random) -> Move:
        return self.decide(observation, rng).move

    def decide(self, observation: Observation, rng: random.Random) -> Decision:
        observation = check_observation(observation)
        plain = obvious(observation)
        if plain is not None:
            return plain
        drawn, results, searches = survey(observation, rng, self.setting)
        return self.decide_on(observation, rng, drawn, results, searches)

    def decide_on(self, observation: Observation, rng: random.Random, drawn: list[Sample],
                  results: list[SolveResult], searches: Searches) -> Decision:
        """The decision on deals already drawn and solved (``drawn`` and their verdicts
        ``results`` from the position, searched with ``searches``), the obvious moves aside."""
        moves = observation.legal_moves
        setting = self.setting
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
        searches.prefetch(after for move in candidates for state, result in zip(drawn, results)
                          if (after := searches.to_search(state, result, move)) is not None)
        shares = {move: kept(drawn, results, searches, move).won / n for move in candidates}
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
