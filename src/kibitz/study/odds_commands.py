"""The ``kibitz odds`` command: agents that see only the table play many deals, and the
table of their win rates."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from kibitz import compiled, native
from kibitz.arguments import whole_number
from kibitz.deals import check_deal_number
from kibitz.errors import KibitzError, quoted
from kibitz.printable import printable
from kibitz.study.commands import (DEFAULT_DB, add_runner_options, choose_backend, chosen_games, interrupted,
                                   open_store, parse_deals, registered_alike)
from kibitz.study.budgets import AFFORDABLE_SECONDS
from kibitz.study.odds import MAX_SEED, OddsPlan, OddsRunner

if TYPE_CHECKING:
    from collections.abc import Iterable

    from kibitz.study.report import OddsLine
    from kibitz.study.store import Play, Store

ODDS_EPILOG = f"""\
Each agent sees only what a player sees (the cards face up, how many each pile
hides, the legal moves) and plays each deal from the opening to the end: a win,
no move left, a position come up a third time, no progress for a while, or a
move limit. Its generator is seeded by --seed and the deal number, so every game
can be played again. Results go to the same SQLite file as 'kibitz study'
(default {DEFAULT_DB}), one row per deal: the outcome, moves, processor time and
the agent's, solver's and rules' versions. Rerunning skips the deals already
played by the same agent, setting, seed and versions, so an interrupted run
(Ctrl-C, or kill PID in the background) resumes where it stopped. A game whose
two rulesets have the same rules is played once, stored as standard, and has
one line for both in the table.

--budget N gives the strong agent N times its setting's nodes for each search of
a sampled deal (as many samples); its games are stored with the setting study*N
(hint*N), so each budget has lines of its own in the table and a rerun resumes
per budget.

The table (printed at the end, or with --report) gives per game, ruleset and
agent the win rate with its 95% Wilson interval and the processor time per
game, beside the thoughtful winnability (the solver sees every card: an upper
bound) when the same file holds a study of that game.

examples:
  kibitz odds duchess --deals 1-500 --agent greedy
  kibitz odds all --deals 1-10000 --agent random,greedy --workers 2
  kibitz odds cicely tournament --deals 1-100 --agent strong --setting study
  kibitz odds duchess --deals 200001-200100 --budget 10 --workers 2
  kibitz odds --report
  kibitz odds --report duchess --agent strong --json
  kibitz odds --report duchess --agent strong --budget 10"""

MAX_BUDGET = 1000
"""The largest ``--budget`` of the odds: a thousand times the strong agent's nodes."""


def add_command(commands: argparse._SubParsersAction,  # type: ignore[type-arg]
                formatter: type[argparse.HelpFormatter]) -> None:
    """Add ``odds`` to the ``kibitz`` parser."""
    odds = commands.add_parser("odds", help="agents that see only the table play many deals: the odds",
                               description="Play agents over many deals of each GAME and store one row per deal; "
                               "print the win rates.", epilog=ODDS_EPILOG, formatter_class=formatter)
    odds.add_argument("games", metavar="GAME", nargs="*",
                      help="game names, slugs or aliases (several, or comma-separated), or 'all'")
    odds.add_argument("--deals", metavar="RANGES", help="deal numbers, e.g. 1-500 or 1-50,99")
    odds.add_argument("--ruleset", metavar="R", default=None,
                      help="standard or pysolfc (default: standard; with --report: both)")
    odds.add_argument("--agent", action="append", metavar="NAME",
                      help="random, greedy or strong; several: repeat it or comma-separate "
                      "(default: strong; with --report: every agent)")
    odds.add_argument("--setting", choices=("study", "hint"), default=None,
                      help="the strong agent's search (default: study; with --report: both)")
    odds.add_argument("--budget", type=budget_argument, default=None, metavar="N",
                      help="the strong agent searches N times its setting's nodes for each sampled deal, "
                      "stored as the setting study*N or hint*N (default 1; with --report: every budget); "
                      "'chosen': for each game and ruleset the budget its budget step in the results file "
                      "chose (kibitz.study.budgets); a game with no budget step is skipped, said so, and the "
                      "command then ends with exit status 4")
    odds.add_argument("--seed", type=whole_number(0, MAX_SEED), default=None, metavar="S",
                      help="seed of the agents' generators, with the deal number (default 0; "
                      "with --report: every seed)")
    odds.add_argument("--affordable", type=positive_seconds, nargs="?", const=AFFORDABLE_SECONDS, default=None,
                      metavar="S", help=f"the strong agent plays the first {PROBE_DEALS} deals first and stops there when they "
                      f"cost more than S processor seconds a game (default S: {AFFORDABLE_SECONDS:g}), and the "
                      "command then ends with exit status 3; for a budget step, where a large budget may cost "
                      "minutes a game")
    add_runner_options(odds, "the range and the agent")
    odds.add_argument("--report", action="store_true",
                      help="only print the table of the results file (GAME, --deals, --agent, --ruleset, "
                      "--setting, --budget and --seed choose its lines)")
    odds.add_argument("--json", action="store_true", help="with --report: print the table as JSON")
    odds.set_defaults(run=run_odds_command)


def positive_seconds(text: str) -> float:
    """An argument type: seconds, a number above 0."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = 0.0
    if not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a number of seconds above 0")
    return seconds


CHOSEN = "chosen"
"""``--budget chosen``: each game and ruleset's budget, as its budget step chose it."""


def budget_argument(text: str) -> int | str:
    """An argument type: a budget factor from 1 to :data:`MAX_BUDGET`, or :data:`CHOSEN`."""
    if text.strip() == CHOSEN:
        return CHOSEN
    try:
        return whole_number(1, MAX_BUDGET)(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is neither a whole number from 1 to {MAX_BUDGET:,} "
                                         f"nor {CHOSEN!r}") from None


class NoBudgetStep(KibitzError):
    """``--budget chosen`` in a game and ruleset whose budget step has not compared two budgets."""


NO_BUDGET = 4
"""The exit status of ``kibitz odds --budget chosen`` when a game was skipped for want of its
budget step (the others were played)."""


def chosen_budget(store: Store, slug: str, ruleset: str, setting: str) -> tuple[int, str]:
    """The budget the budget step in ``store`` chose for the strong agent (this kibitz's
    versions) in a game and ruleset, and in words; :class:`NoBudgetStep` where none is measured."""
    from kibitz.study.budgets import budget_steps
    plays = current_plays(slug, ruleset, "strong", store.plays(slug))
    step = next((step for step in budget_steps(plays, alike=registered_alike())
                 if (step.game, step.ruleset, step.setting) == (slug, ruleset, setting)), None)
    choice = None if step is None else step.choice()
    if step is None or choice is None:
        raise NoBudgetStep(f"no budget step of the strong agent ({setting} setting) for {slug} ({ruleset}) in the "
                          "results file: play it first (scripts/odds --steps budget: the same deals at --budget 1 "
                          "and 10), or give --budget N")
    return choice.factor, f"{choice.words()}, on {step.deals:,} deals"


PROBE_DEALS = 10
"""With ``--affordable``: the deals played first, whose mean cost decides whether to go on."""
TOO_COSTLY = 3
"""The exit status of ``kibitz odds --affordable`` when a line stopped after its first deals."""


class TooCostly(Exception):
    """A line stopped after its first deals, too costly: the games it played and skipped."""

    def __init__(self, played: int, skipped: int) -> None:
        super().__init__(played, skipped)
        self.played, self.skipped = played, skipped


def play_line(plan: OddsPlan, store: Store, backend: OddsRunner, affordable: float | None) -> tuple[int, int]:
    """Play ``plan``'s deals not yet played (games played, games skipped); with ``affordable``,
    an agent that searches plays the first :data:`PROBE_DEALS` first and stops there when they
    cost more than ``affordable`` processor seconds a game on average."""
    from kibitz.agents import SEARCHING
    from kibitz.study.odds import run_odds
    if affordable is None or plan.agent not in SEARCHING or len(plan.deals) <= PROBE_DEALS:
        progress = run_odds(plan, store, backend, sys.stderr)
        return progress.done, progress.skipped
    probe = run_odds(replace(plan, deals=plan.deals[:PROBE_DEALS]), store, backend, sys.stderr)
    cost, games = probe_cost(plan, store)
    if cost > affordable:
        sys.stderr.write(f"{plan.game} ({plan.ruleset}), {plan.stored_setting}: {cost:.1f} s a game on its first "
                         f"{games} deals, more than the affordable {affordable:g} s: stopped there\n")
        raise TooCostly(probe.done, probe.skipped)
    rest = run_odds(plan, store, backend, sys.stderr)
    # the probe's deals are among those the rest skips: counted once, as the probe found them
    return probe.done + rest.done, probe.skipped + rest.skipped - PROBE_DEALS


def probe_cost(plan: OddsPlan, store: Store) -> tuple[float, int]:
    """The mean processor seconds a game of ``plan``'s first :data:`PROBE_DEALS` deals as
    played in ``store`` (this kibitz's versions), and how many were played."""
    wanted = set(plan.deals[:PROBE_DEALS])
    costs = [play.cpu_seconds for play in current_plays(plan.game, plan.ruleset, plan.agent,
                                                         store.plays(plan.game, plan.ruleset))
             if play.deal in wanted and (play.setting, play.seed) == (plan.stored_setting, plan.seed)]
    return (sum(costs) / len(costs) if costs else 0.0), len(costs)


def current_plays(game: str, ruleset: str, agent: str, plays: Iterable[Play]) -> list[Play]:
    """Those of ``plays`` by ``agent`` with this kibitz's versions of the agent, the solver and
    ``game``'s rules under ``ruleset``."""
    from kibitz.study.odds import versions_of
    versions = versions_of(game, ruleset, agent)
    return [play for play in plays if play.agent == agent
            and (play.agent_version, play.solver_version, play.rules_version) == versions]


def odds_agents(names: list[str] | None) -> list[str]:
    """The agents the ``--agent`` options name, in order, without repeats."""
    from kibitz.agents import AGENTS
    chosen: dict[str, None] = {}
    for name in (part.strip() for argument in names or [] for part in argument.split(",")):
        if name not in AGENTS:
            raise KibitzError(f"unknown agent {quoted(name)}; the agents are: {', '.join(AGENTS)}")
        chosen[name] = None
    return list(chosen)


def odds_ruleset(ruleset: str | None) -> str | None:
    from kibitz.rules import RULESETS
    if ruleset is not None and ruleset not in RULESETS:
        raise KibitzError(f"unknown ruleset {quoted(ruleset)}; choose one of: {', '.join(RULESETS)}")
    return ruleset


def setting_chosen(stored: str, setting: str | None, budget: int | None) -> bool:
    """Whether a row's stored setting (``study*10``) is of the chosen setting and budget
    (``None``: any); an agent that does not search has neither and is always chosen."""
    from kibitz.agents.setting import budget_of
    from kibitz.study.odds import NO_SETTING
    base, factor = budget_of(stored)
    return stored == NO_SETTING or ((setting is None or base == setting) and (budget is None or factor == budget))


def odds_table(store: Store, games: list[str], ruleset: str | None, agents: list[str], setting: str | None,
               seed: int | None, deals: set[int] | None, budget: int | None = None) -> list[OddsLine]:
    """The odds lines of the chosen rows of ``store`` (every game, agent, ... when not chosen),
    each beside the study of its game over the same deals."""
    from kibitz.study.report import summarize, summarize_odds
    chosen: list[str | None] = list(games) or [None]
    alike = registered_alike()
    plays = [play for slug in chosen for play in store.plays(slug)
             if (ruleset is None or ruleset in alike(play.game, play.ruleset))
             and (not agents or play.agent in agents) and setting_chosen(play.setting, setting, budget)
             and (seed is None or play.seed == seed) and (deals is None or play.deal in deals)]
    pairs = sorted({(play.game, ruleset) for play in plays for ruleset in alike(play.game, play.ruleset)})
    studies = summarize([row for game, rules in pairs for row in store.rows(game, rules, moves=False)
                         if deals is None or row.deal in deals], alike=alike)
    return summarize_odds(plays, studies, alike=alike)


def run_odds_command(args: argparse.Namespace) -> int:
    """``kibitz odds GAME... --deals RANGES``, or ``kibitz odds --report``."""
    games = chosen_games(args.games)
    agents = odds_agents(args.agent)
    ruleset = odds_ruleset(args.ruleset)
    wanted = None if args.deals is None else parse_deals(args.deals)
    if args.report:
        return odds_report(args, games, ruleset, agents, wanted)
    if args.json:
        raise KibitzError("--json is for the table of --report")
    if not games:
        raise KibitzError("name a GAME (or several, or 'all'), or ask for the table with --report")
    if wanted is None:
        raise KibitzError("give the deals to play with --deals RANGES, e.g. --deals 1-500")
    for number in wanted[:1] + wanted[-1:]:
        check_deal_number(number)
    from kibitz.registry import rulesets_alike
    from kibitz.study.report import format_odds_table
    from kibitz.study.runner import run_local
    ray = choose_backend(args.backend, args.address)
    backend: OddsRunner = ray or run_local
    ruleset = ruleset or "standard"
    setting = args.setting or "study"
    seed = args.seed or 0
    agents = agents or ["strong"]
    budget: int | str = 1 if args.budget is None else args.budget
    if args.budget is not None:
        from kibitz.agents import SEARCHING
        plain = [name for name in agents if name not in SEARCHING]
        if plain:
            raise KibitzError(f"--budget is for an agent that searches ({', '.join(SEARCHING)}); "
                              f"{' and '.join(plain)} {'do' if len(plain) > 1 else 'does'} not")
    store = open_store(args.db)
    db = printable(args.db)
    sys.stderr.write(f"compiled solver: {compiled.STATUS}\nnative rules: {native.STATUS}\n")
    played = skipped = 0
    costly: list[str] = []
    unmeasured: list[str] = []
    from kibitz.solver import interrupts  # loads the solver: only when odds are played
    try:
        with interrupts.terminate_as_interrupt():
            for slug in games:
                first = rulesets_alike(slug, ruleset)[0]
                if first != ruleset:
                    sys.stderr.write(f"{slug} ({ruleset}): the same rules as {first}: played as {first}; "
                                     "its games count for both\n")
                factor = 1
                playing = agents
                if "strong" in agents and budget == CHOSEN:
                    try:
                        factor, words = chosen_budget(store, slug, first, setting)
                    except NoBudgetStep as missing:
                        sys.stderr.write(f"skipped: the strong agent in {slug} ({first}): {missing}\n")
                        unmeasured.append(f"{slug} ({first})")
                        playing = [name for name in agents if name != "strong"]
                    else:
                        sys.stderr.write(f"{slug} ({first}): the budget its budget step chose: {words}\n")
                elif isinstance(budget, int):
                    factor = budget
                for name in playing:
                    plan = OddsPlan(slug, first, name, wanted, setting, seed, args.workers, args.batch, factor)
                    label = f"{name} agent" + (f", {plan.stored_setting} setting" if name == "strong" else "")
                    sys.stderr.write(f"{slug} ({first}), {label}, seed {seed}:\n")
                    try:
                        done, passed = play_line(plan, store, backend, args.affordable)
                    except TooCostly as stop:
                        done, passed = stop.played, stop.skipped
                        costly.append(f"{slug} ({first}) at {plan.stored_setting}")
                    played += done
                    skipped += passed
    except KeyboardInterrupt:
        return interrupted(store, db, "games")
    finally:
        if ray is not None:
            ray.close()
    lines = odds_table(store, games, ruleset, agents, setting, seed, set(wanted),
                       budget if isinstance(budget, int) else None)
    store.close()
    sys.stderr.write(f"done: {played:,} deals played ({skipped:,} skipped) into {db}; "
                     f"see: kibitz odds --report --db {db}\n")
    sys.stdout.write(format_odds_table(lines, db) + "\n")
    if unmeasured:
        sys.stderr.write(f"not played, no budget step yet: the strong agent in {', '.join(unmeasured)}\n")
    if costly:
        sys.stderr.write(f"stopped after its first {PROBE_DEALS} deals, more costly than --affordable: "
                         f"{', '.join(costly)}\n")
        return TOO_COSTLY
    return NO_BUDGET if unmeasured else 0


def odds_report(args: argparse.Namespace, games: list[str], ruleset: str | None, agents: list[str],
                wanted: list[int] | None) -> int:
    """``kibitz odds --report``: the table of the chosen rows of the results file."""
    if not Path(args.db).exists():
        raise KibitzError(f"no results file {args.db} (run 'kibitz odds' first, or give --db FILE)")
    if args.budget == CHOSEN:
        raise KibitzError(f"--budget {CHOSEN} is for playing; the table takes a number, or every budget without it")
    from kibitz.study.report import format_odds_table
    with open_store(args.db) as store:
        lines = odds_table(store, games, ruleset, agents, args.setting, args.seed,
                           None if wanted is None else set(wanted), args.budget)
    if args.json:
        sys.stdout.write(json.dumps([line.as_dict() for line in lines]) + "\n")
        return 0
    if not lines:
        sys.stdout.write(printable(f"{args.db} holds no games played by agents for these choices") + "\n")
        return 0
    sys.stdout.write(format_odds_table(lines, printable(args.db)) + "\n")
    return 0
