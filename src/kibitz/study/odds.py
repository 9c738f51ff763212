"""The odds: agents that see only what a player sees play many deals, one row per deal.

A plan (:class:`OddsPlan`) names a game, a ruleset, an agent with its setting, a seed and
the deal numbers, and for the strong agent a budget factor (``study*10``: the study setting
with ten times its nodes, stored as the setting); its job (:class:`PlayJob`) plays each deal of a batch from the opening
to the end with :func:`kibitz.agents.play.play_out`. The study's runners run the batches
(:func:`kibitz.study.runner.run_batches`, locally or on Ray) and the study's store keeps the
rows (table ``plays`` of :mod:`kibitz.study.store`); only the coordinating process writes.

The agent's generator for deal N under seed S is ``random.Random(S * 10**20 + N)``: every
game is reproducible from its row, whatever the batch or worker that played it. A rerun
skips the deals already played by the same agent, setting, seed and versions (the agents'
version, the solver's for an agent that searches, and the rules'), so an interrupted run
resumes and the games of a changed agent are never mixed with the old ones.
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass, replace
from typing import Callable, Sequence, TextIO

from kibitz.study.runner import MAX_BATCH, Progress, run_batches, run_local
from kibitz.study.store import Play, Store

NO_SETTING = "-"
"""The setting stored for an agent that has none (it does not search)."""
MAX_SEED = 2**32 - 1
"""The largest seed of a run (``kibitz odds --seed``)."""
SEED_STRIDE = 10**20
"""Deal numbers are below this: seed S and deal N make the generator's seed ``S * SEED_STRIDE + N``."""
SECONDS_PER_GAME = {"random": 0.01, "greedy": 0.1, "strong": 5.0}
"""A rough guess of one game's time per agent (one core), for the batch size only."""
BATCH_SECONDS = 60.0
"""About how long a batch should take: progress is shown, and an interruption loses, batch by batch."""


def generator(seed: int, deal: int) -> random.Random:
    """The agent's generator for ``deal`` under the run's ``seed``."""
    return random.Random(seed * SEED_STRIDE + deal)


def setting_of(agent: str, setting: str, budget: int = 1) -> str:
    """What is stored as the setting: for an agent that searches, ``setting`` at ``budget``
    times its nodes (``study*10``, or ``study`` at 1); else :data:`NO_SETTING`."""
    from kibitz.agents import SEARCHING
    from kibitz.agents.setting import scaled_name
    return scaled_name(setting, budget) if agent in SEARCHING else NO_SETTING


def versions_of(game: str, ruleset: str, agent: str) -> tuple[int, int, int]:
    """The agent's version, the solver's (0 for an agent that does not search) and the rules' version."""
    import kibitz
    from kibitz.agents import AGENT_VERSIONS, SEARCHING
    from kibitz.solver import SOLVER_VERSION
    return (AGENT_VERSIONS[agent], SOLVER_VERSION if agent in SEARCHING else 0,
            kibitz.game(game, ruleset).info.rules_version)


def play_batch(game: str, ruleset: str, agent: str, setting: str, seed: int, deals: Sequence[int],
               budget: int = 1) -> list[Play]:
    """Play each deal of a batch (runs in a worker process), the strong agent with ``setting``
    at ``budget`` times its nodes; each deal gets a fresh agent, so that a game does not
    depend on the games played before it in the same worker."""
    import kibitz
    from kibitz.agents import HINT, SETTINGS, agent as make_agent
    from kibitz.agents.play import play_out
    from kibitz.solver import interrupts
    playable = kibitz.game(game, ruleset)
    agent_version, solver_version, rules_version = versions_of(game, ruleset, agent)
    stored_setting = setting_of(agent, setting, budget)
    searching = SETTINGS.get(setting, HINT).scaled(budget)
    rows = []
    for number in deals:
        if interrupts.requested():  # told to stop (runner.leave_interrupts_to_the_coordinator)
            break
        player = make_agent(agent, searching)
        started = time.process_time()
        outcome = play_out(playable.deal(number), player, generator(seed, number))
        seconds = time.process_time() - started
        if interrupts.requested():
            break  # the game in hand: an agent's searches may have been cut short
        rows.append(Play(game, ruleset, agent, stored_setting, seed, number, outcome.won, outcome.end,
                         len(outcome.moves), seconds, agent_version, solver_version, rules_version,
                         kibitz.__version__))
    return rows


@dataclass(frozen=True)
class PlayJob:
    """The odds' job: play each deal of a batch (:func:`play_batch`)."""

    game: str
    ruleset: str
    agent: str
    setting: str
    seed: int
    budget: int = 1

    def __call__(self, deals: list[int]) -> list[Play]:
        return play_batch(self.game, self.ruleset, self.agent, self.setting, self.seed, deals, self.budget)


@dataclass(frozen=True)
class OddsPlan:
    """What to play: a game, a ruleset, an agent with its setting, a seed and deal numbers."""

    game: str
    ruleset: str
    agent: str
    deals: Sequence[int]
    setting: str = "study"
    """The strong agent's setting (:data:`kibitz.agents.SETTINGS`); the others have none."""
    seed: int = 0
    workers: int = 0
    """Parallel workers; 0 means one per local core."""
    batch: int = 0
    """Deals per task; 0 picks a size that keeps every worker busy and a task near
    :data:`BATCH_SECONDS`."""
    budget: int = 1
    """The strong agent searches ``budget`` times its setting's nodes (:meth:`Setting.scaled
    <kibitz.agents.setting.Setting.scaled>`); stored as its setting, ``study*10``."""

    def worker_count(self) -> int:
        return self.workers or os.cpu_count() or 1

    def batch_size(self, remaining: int) -> int:
        if self.batch:
            return self.batch
        size = min(MAX_BATCH, remaining // (self.worker_count() * 8) or 1,
                   int(BATCH_SECONDS // (SECONDS_PER_GAME.get(self.agent, 1.0) * self.budget)))
        return max(1, size)

    def job(self) -> PlayJob:
        return PlayJob(self.game, self.ruleset, self.agent, self.setting, self.seed, self.budget)

    @property
    def stored_setting(self) -> str:
        """The setting its rows store: ``study*10``, or :data:`NO_SETTING` for an agent that does not search."""
        return setting_of(self.agent, self.setting, self.budget)


OddsRunner = Callable[[OddsPlan, list[list[int]], Callable[[list[Play]], None]], None]
"""A backend of the odds: :func:`kibitz.study.runner.run_local` or a Ray runner."""


def run_odds(plan: OddsPlan, store: Store, backend: OddsRunner | None = None,
             stream: TextIO | None = None) -> Progress:
    """Play every deal of ``plan`` not yet played in ``store`` by the same agent, setting, seed
    and versions, showing progress on ``stream`` when one is given. Where the plan's ruleset
    has the rules of another (:func:`~kibitz.registry.rulesets_alike`), a deal played under
    either counts, and new games are stored under the first of them."""
    from kibitz.registry import rulesets_alike
    alike = rulesets_alike(plan.game, plan.ruleset)
    plan = replace(plan, ruleset=alike[0])
    versions = versions_of(plan.game, plan.ruleset, plan.agent)
    setting = plan.stored_setting
    done: set[int] = set()
    for ruleset in alike:
        done |= store.played(plan.game, ruleset, plan.agent, setting, plan.seed, *versions)
    todo = [n for n in plan.deals if n not in done]
    progress = Progress(total=len(todo), skipped=len(plan.deals) - len(todo), stream=stream,
                        counted=("won", "lost"))
    if stream is not None and progress.skipped:
        stream.write(f"{progress.skipped:,} deals already played by the {plan.agent} agent "
                     f"({'' if setting == NO_SETTING else setting + ' setting, '}agent version {versions[0]}): "
                     "skipped\n")
    return run_batches(plan, todo, store.add_plays, backend or run_local, progress)
