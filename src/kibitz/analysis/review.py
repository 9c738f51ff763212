"""The review of a game: the fair chance before every move, what each move cost, the game's
accuracy, its luck, and (seeing every card) the point of no return.

*Fair part.* Deals that fit what the player had seen are sampled at the opening and solved
(:data:`~kibitz.analysis.budgets.REVIEW`: 24 deals, each search within the game's own node
budget). At each move, the strong agent chooses its move on those deals
(:meth:`~kibitz.agents.strong.StrongAgent.decide_on`), and each deal is judged after the
played move and after the agent's: the share each keeps winnable, and the played move's
cost (:mod:`kibitz.analysis.grading`). The deals then follow the game: after the played
move, the deals that still fit what the player sees are kept, with their verdicts, and
fresh ones are drawn (and solved) to make up the number. A deal drawn uniformly among those
fitting the earlier views and kept because it fits the new one is drawn uniformly among
those fitting the new one, so the chance before move k uses only the views the player had
seen by move k, and the same deals are followed from move to move: the chance does not
jump with the noise of fresh samples where nothing was shown.

*Seeing every card.* :func:`~kibitz.analysis.no_return.point_of_no_return` asks the solver
about the true positions; a client shows it only once the game has ended, or labels it as
the solver's answer and marks the game assisted.

Same record, seed and build give the same review on any machine and under any load: every
search is bounded by nodes.
"""

from __future__ import annotations

import os
import random
import threading
from dataclasses import dataclass, field
from typing import Iterator, Literal, Sequence

from kibitz.agents import Chance, Setting, observe
from kibitz.agents.greedy import obvious
from kibitz.agents.sampling import is_consistent, remembered, sample
from kibitz.agents.strong import Searches, StrongAgent, known_after, tally
from kibitz.analysis.averages import Average, average
from kibitz.analysis.budgets import nodes_of, review_setting, solver_nodes
from kibitz.analysis.grading import Cost, Label, cost_of, game_accuracy, move_accuracy
from kibitz.analysis.no_return import NoReturn, point_of_no_return, searcher
from kibitz.history import History
from kibitz.moves import Move
from kibitz.solver import Outcome, SolveResult
from kibitz.state import State

REVIEW_VERSION = 1
"""Bumped whenever a change could alter a review's figures (kept reviews of another version
are made again)."""
SURE = 0.5
"""The least share of decided deals for a chance to be given as one figure (else only its range)."""

Result = Literal["won", "lost", "unfinished"]
"""How the game reviewed ended: won, no move left, or neither (given up, or still going)."""


def sure_share(chance: Chance) -> float | None:
    """The chance as one figure: the share of the decided deals that were won, when at least
    half the deals were decided; ``None`` (not sure) otherwise."""
    return chance.share if chance.samples and chance.decided >= SURE * chance.samples else None


def chance_dict(chance: Chance) -> dict[str, object]:
    """A chance as JSON-ready data: its counts, its figure (``None``: not sure) and its range."""
    share = sure_share(chance)
    return chance.as_dict() | {"share": None if share is None else round(share, 6)}


@dataclass(frozen=True)
class MoveReview:
    """One move of the game, judged on the deals that fit what the player saw before it."""

    index: int
    """0-based: the move after ``index`` moves."""
    move: Move
    forced: bool
    """The only legal move: never labelled."""
    chance: Chance
    """The fair chance before the move."""
    best: Move
    """The strong agent's move there."""
    reason: str
    """Why the agent chose it."""
    played_after: Chance
    """The same deals after the played move."""
    best_after: Chance
    """The same deals after the agent's move."""
    cost: Cost

    @property
    def label(self) -> Label:
        return "" if self.forced else self.cost.label

    @property
    def accuracy(self) -> float:
        return 100.0 if self.forced else move_accuracy(self.cost, self.best_after.won)

    def as_dict(self) -> dict[str, object]:
        after, best_after = sure_share(self.played_after), sure_share(self.best_after)
        return {"index": self.index, "move": str(self.move), "chance": sure_share(self.chance),
                "best": str(self.best), "chance_after": after, "best_after": best_after,
                "label": self.label, "forced": self.forced, "reason": self.reason,
                "cost": round(self.cost.share, 6), "clear": self.cost.clear, "p_value": round(self.cost.p_value, 6),
                "accuracy": round(self.accuracy, 3), "before": chance_dict(self.chance),
                "after": chance_dict(self.played_after), "after_best": chance_dict(self.best_after)}


@dataclass(frozen=True)
class FinalChance:
    """The fair chance after the last move reviewed."""

    chance: Chance

    def as_dict(self) -> dict[str, object]:
        return {"chance": sure_share(self.chance), "final": chance_dict(self.chance)}


Event = MoveReview | FinalChance | NoReturn
"""What :func:`review_events` yields, in order: each move's review, the chance after the
last move, then (when asked for) the point of no return."""


@dataclass
class Review:
    """A game's review, whole or as far as computed."""

    slug: str
    ruleset: str
    deal: int | None
    moves: tuple[Move, ...]
    result: Result
    seed: int
    build: str
    samples: int
    """Deals sampled at every position."""
    sample_nodes: int
    """The node budget of each search of a sampled deal."""
    entries: list[MoveReview] = field(default_factory=list)
    final: Chance | None = None
    no_return: NoReturn | None = None
    sees_every_card: bool = False
    """Whether the point of no return was asked for (it sees every card)."""

    @property
    def complete(self) -> bool:
        """Whether every figure asked for is in."""
        return self.final is not None and (self.no_return is not None or not self.sees_every_card)

    @property
    def accuracy(self) -> float:
        """The game's accuracy (:func:`~kibitz.analysis.grading.game_accuracy`), 0 to 100."""
        return game_accuracy([entry.accuracy for entry in self.entries])

    @property
    def luck(self) -> Chance | None:
        """The fair chance at the first move."""
        return self.entries[0].chance if self.entries else self.final

    @property
    def average(self) -> Average | None:
        """The game's average of that chance: its studied winnability."""
        return average(self.slug, self.ruleset)

    def count(self, label: Label) -> int:
        """How many moves bear ``label``."""
        return sum(entry.label == label for entry in self.entries)

    def add(self, event: Event) -> None:
        """Take in one event of :func:`review_events`."""
        if isinstance(event, MoveReview):
            self.entries.append(event)
        elif isinstance(event, FinalChance):
            self.final = event.chance
        else:
            self.no_return = event

    def as_dict(self) -> dict[str, object]:
        """The review as JSON-ready data (``kibitz review --json``)."""
        no_return = self.no_return
        luck = self.luck
        average_ = self.average
        return {
            "game": self.slug, "ruleset": self.ruleset, "deal": self.deal, "result": self.result,
            "moves": [entry.as_dict() for entry in self.entries],
            "final_chance": None if self.final is None else sure_share(self.final),
            "final": None if self.final is None else chance_dict(self.final),
            "no_return": None if no_return is None else no_return.move,
            "no_return_proved": None if no_return is None else (no_return.proved and no_return.finding == "found"),
            "no_return_finding": None if no_return is None else no_return.as_dict(),
            "winnable_at_start": None if no_return is None else no_return.winnable_at_start,
            "accuracy": round(self.accuracy, 3),
            "luck": None if luck is None else sure_share(luck),
            "average": None if average_ is None else average_.as_dict(),
            "labels": {label: self.count(label) for label in ("inaccuracy", "mistake", "blunder")},
            "complete": self.complete, "sees_every_card": self.sees_every_card,
            "build": self.build, "seed": self.seed, "samples": self.samples, "sample_nodes": self.sample_nodes,
            "review_version": REVIEW_VERSION,
        }


def positions(start: State, moves: Sequence[Move]) -> list[State]:
    """The positions of a game: the opening and the position after each move (each checked)."""
    return list(History.replay(start, moves).states)


def result_of(state: State) -> Result:
    """How a game that stands at ``state`` has ended."""
    return "won" if state.is_won() else "lost" if state.is_over() else "unfinished"


def new_review(start: State, moves: Sequence[Move], seed: int, deal: int | None = None,
               sees_every_card: bool = False, setting: Setting | None = None) -> Review:
    """An empty review of the game of ``moves`` from ``start``, for :func:`review_events` to fill."""
    game = start.game
    chosen = setting or review_setting(game)
    final = positions(start, moves)[-1]
    return Review(game.slug, game.ruleset, deal, tuple(moves), result_of(final), seed,
                  "native" if game.kernel is not None else "python", chosen.samples, nodes_of(chosen, game),
                  sees_every_card=sees_every_card)


def review_game(start: State, moves: Sequence[Move], seed: int, deal: int | None = None,
           sees_every_card: bool = False, setting: Setting | None = None) -> Review:
    """The whole review of the game of ``moves`` from ``start`` (see the module docstring)."""
    whole = new_review(start, moves, seed, deal, sees_every_card, setting)
    for event in review_events(start, moves, seed, sees_every_card, setting):
        whole.add(event)
    return whole


def review_events(start: State, moves: Sequence[Move], seed: int, sees_every_card: bool = False,
                  setting: Setting | None = None, skip: int = 0, threads: int | None = None) -> Iterator[Event]:
    """The review of the game of ``moves`` from ``start``, one figure at a time: each move's
    review in order, the chance after the last move, then (with ``sees_every_card``) the
    point of no return. ``skip``: the events already had, from an earlier run with the same
    arguments, not yielded again (the work up to them is done again, figures unchanged).
    ``threads``: how many searches run at once (default: one per core); the figures are the
    same whatever it is."""
    game = start.game
    threads = threads or os.cpu_count() or 1
    states = positions(start, moves)
    if not sees_every_card:
        yield from _fair_events(states, moves, seed, setting, skip, threads)
        return
    # The point of no return (native searches, without the interpreter's lock) is found in a
    # thread of its own while the fair part runs, where there are cores to spare.
    stop = threading.Event()
    found: list[NoReturn] = []
    failed: list[BaseException] = []

    def find() -> None:
        try:
            found.append(point_of_no_return(states, solver_nodes(game), searcher(threads, stop), stop=stop.is_set))
        except BaseException as error:   # handed to the caller
            failed.append(error)

    apart = threads > 1 and game.kernel is not None
    finder = threading.Thread(target=find, name="kibitz-no-return", daemon=True)
    if apart:
        finder.start()
    try:
        yield from _fair_events(states, moves, seed, setting, skip, threads)
        if apart:
            finder.join()
        else:
            find()
        if failed:
            raise failed[0]
        yield found[0]
    finally:
        stop.set()   # closed early: the search is given up


def _fair_events(states: list[State], moves: Sequence[Move], seed: int, setting: Setting | None, skip: int,
                 threads: int) -> Iterator[Event]:
    """The fair part of :func:`review_events`: each move's review, then the final chance."""
    game = states[0].game
    chosen = setting or review_setting(game)
    views = [state.view() for state in states]
    rng = random.Random(seed)
    searches = Searches(nodes_of(chosen, game), threads, undecided_stay=True)
    agent = StrongAgent(chosen)
    deals: list[_Deal] = []
    made = 0
    for k in range(len(states)):
        observation = observe(states[k], moves[:k], views[:k])
        if k:   # the deals that still fit what the player sees, with their verdicts after the move
            deals = [deal for deal in deals if is_consistent(observation, deal.state)]
        if len(deals) < chosen.samples:
            memory = remembered(observation)
            fresh = [sample(observation, rng, memory) for _ in range(chosen.samples - len(deals))]
            searches.prefetch(fresh)
            deals += [_Deal(drawn, k).judged(searches.solve(drawn), k) for drawn in fresh]
        verdicts = [deal.verdict for deal in deals]
        chance = tally(verdicts)
        if k == len(moves):
            made += 1
            if made > skip:
                yield FinalChance(chance)
            break
        move = moves[k]
        forced = len(observation.legal_moves) == 1
        drawn_states = [deal.state for deal in deals]
        decision = obvious(observation) or agent.decide_on(observation, rng, drawn_states, verdicts, searches)
        searches.prefetch(state for deal in deals for chosen_move in {move, decision.move}
                          if (state := deal.to_search(chosen_move, k, chosen_move == move)) is not None)
        after_played = [deal.after(move, k, searches) for deal in deals]
        played_results = [deal.verdict for deal in after_played]
        best_results = played_results if decision.move == move else \
            [deal.after(decision.move, k, searches, played=False).verdict for deal in deals]
        cost = cost_of([r.outcome for r in best_results], [r.outcome for r in played_results])
        entry = MoveReview(k, move, forced, chance, decision.move, decision.reason, tally(played_results),
                           tally(best_results), cost)
        made += 1
        if made > skip:
            yield entry
        deals = after_played


REST_AFTER_MISSES = 3
"""The longest rest of a sampled deal left undecided, in positions: 2 ** 3 - 1 = 7."""


@dataclass(frozen=True)
class _Deal:
    """A sampled deal followed through the game: its position, the solver's verdict on it and,
    when undecided, when it is searched again.

    A deal left undecided at one position is mostly undecided at the next, and such a search
    takes its whole budget, so it rests: after ``misses`` searches in a row left it
    undecided, it is searched again ``2 ** misses`` positions later, and stays undecided
    till then (never counted as lost). An undecided deal is not searched after the agent's
    move either: the pair tells nothing about the played move's cost."""

    state: State
    searched: int
    """The position (move count) of its last search."""
    verdict: SolveResult = SolveResult(Outcome.UNKNOWN)
    misses: int = 0

    def judged(self, verdict: SolveResult, position: int) -> _Deal:
        """This deal with a new verdict, found at ``position``."""
        misses = self.misses + 1 if verdict.outcome is Outcome.UNKNOWN else 0
        return _Deal(self.state, position, verdict, min(misses, REST_AFTER_MISSES))

    def resting(self, position: int) -> bool:
        """Whether the deal is left unsearched at ``position``."""
        return self.misses > 0 and position < self.searched + 2 ** self.misses

    def _known(self, move: Move, position: int, played: bool) -> SolveResult | None:
        """The verdict after ``move`` made at ``position`` when it needs no search
        (:func:`~kibitz.agents.strong.known_after`): an undecided deal stays undecided after
        the agent's move, and after the played one while it rests."""
        return known_after(self.verdict, move, undecided_stay=not played or self.resting(position + 1))

    def to_search(self, move: Move, position: int, played: bool) -> State | None:
        """The position :meth:`after` would search, or ``None``."""
        if self._known(move, position, played) is not None:
            return None
        return self.state.game.apply_unchecked(self.state, move)

    def after(self, move: Move, position: int, searches: Searches, played: bool = True) -> _Deal:
        """The deal after ``move`` made at ``position`` (the played move, or the agent's),
        judged (searched unless :meth:`_known`)."""
        state = self.state.game.apply_unchecked(self.state, move)
        known = self._known(move, position, played)
        if known is not None:
            return _Deal(state, self.searched, known, self.misses if known.outcome is Outcome.UNKNOWN else 0)
        return _Deal(state, self.searched, self.verdict, self.misses).judged(searches.solve(state), position + 1)
