"""The agents: the strong agent's time per move, and how often each agent wins.

Two parts, each optional:

- *speed*: positions reached by greedy play (seeded) from ``--speed-deals``, one every
  ``--every`` moves; the strong agent decides each at the ``hint`` setting (or ``--setting``)
  in this process, on one core. Per game: positions searched (those without a safe or only
  move), time per move (median, p90, max), searches per move, and the share where no
  sample was won (the greedy fallback).
- *duel*: every agent of ``--agents`` plays each deal of ``--duel-deals`` from the opening
  (seeded by the deal number) through to the end (see ``kibitz.agents.play``), at
  ``--duel-setting`` (default ``study``). Per game and agent: games won with the 95% Wilson
  interval, and CPU seconds per game. ``strong/vote`` is the strong agent with that method,
  ``strong/vote/18`` with 18 samples too. ``--workers`` plays deals in parallel.

Progress goes to stderr, the tables to stdout.

    .venv/bin/python benchmarks/agent_speed.py --speed-deals 90001-90005 --duel-deals 80001-80036 --workers 2
"""

from __future__ import annotations

import argparse
import multiprocessing
import platform
import random
import statistics
import sys
import time
from typing import Iterator

import kibitz
from kibitz import compiled
from kibitz.agents import SETTINGS, Setting, agent, observe
from kibitz.agents.base import Agent
from kibitz.agents.play import play_out
from kibitz.agents.strong import StrongAgent, survey
from kibitz.intervals import wilson
from kibitz.study.report import percentile
from kibitz.view import View


def parse_range(text: str) -> range:
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def make_agent(spec: str, setting: Setting) -> Agent:
    """``random``, ``greedy``, ``strong``, or ``strong/METHOD`` and ``strong/METHOD/SAMPLES``
    (the strong agent with that method, and that many samples); ``strong@NODES``: the strong
    agent with NODES nodes per search in every game (agent version 2 searched 600 at the
    study setting and 700 at the hint setting) instead of the game's own."""
    spec, _, nodes = spec.partition("@")
    if nodes:
        setting = setting.but(nodes=int(nodes))
    name, *changes = spec.split("/")
    if changes:
        method = changes[0]
        samples = int(changes[1]) if len(changes) > 1 else setting.samples
        return StrongAgent(setting.but(method=method, samples=samples))
    return agent(name, setting)


def nodes_words(setting: Setting) -> str:
    return f"{setting.nodes:,} nodes" if isinstance(setting.nodes, int) else "the game's own nodes"


def undecided(slugs: list[str], ruleset: str, deals: range, setting: Setting, nodes: list[int | None]) -> None:
    """The share of the strong agent's samples left undecided at the opening of each deal."""
    print(f"\nundecided: the share of the samples the {setting.name} setting draws at the opening of deals "
          f"{deals.start}-{deals.stop - 1} that its searches leave undecided (median and worst over the deals)")
    print("| game | nodes per search | samples per opening | median undecided | worst |")
    print("|---|---|---|---|---|")
    for slug in slugs:
        game = kibitz.game(slug, ruleset)
        for budget in nodes:
            chosen = setting if budget is None else setting.but(nodes=budget)
            shares: list[float] = []
            drawn: list[int] = []
            for number in deals:
                _, results, _ = survey(observe(game.deal(number)), random.Random(number), chosen)
                drawn.append(len(results))
                shares.append(sum(not r.is_decided for r in results) / len(results))
            print(f"| {slug} | {chosen.nodes_for(game.info.family, game.kernel is not None):,} | {statistics.median(drawn):g} | "
                  f"{statistics.median(shares):.0%} | {max(shares):.0%} |", flush=True)


def positions(game: kibitz.Game, deals: range, every: int, limit: int
              ) -> Iterator[tuple[kibitz.State, list[kibitz.Move], list[View]]]:
    """Positions of greedy games from ``deals``: every ``every``-th move, up to move ``limit``,
    with the moves played and the views seen before each (the agent's memory is timed too)."""
    greedy = agent("greedy")
    for number in deals:
        state, rng = game.deal(number), random.Random(number)
        played: list[kibitz.Move] = []
        earlier: list[View] = []
        for step in range(limit):
            if state.is_over():
                break
            if step % every == 0:
                yield state, list(played), list(earlier)
            move = greedy.choose(observe(state, played, earlier), rng)
            earlier.append(state.view())
            state = state.apply(move)
            played.append(move)


def speed(slugs: list[str], ruleset: str, deals: range, every: int, limit: int, setting: Setting) -> None:
    print(f"\nspeed: the strong agent at the {setting.name} setting ({setting.samples} samples, "
          f"{nodes_words(setting)} per search, {setting.candidates} candidates, {setting.method}); "
          f"positions every {every} moves of greedy games from deals {deals.start}-{deals.stop - 1}")
    print("| game | positions | searched | median ms | p90 ms | max ms | searches per move | greedy fallback |")
    print("|---|---|---|---|---|---|---|---|")
    strong = StrongAgent(setting)
    for slug in slugs:
        game = kibitz.game(slug, ruleset)
        times: list[float] = []
        searches: list[int] = []
        fallback = total = 0
        for state, played, earlier in positions(game, deals, every, limit):
            total += 1
            observation = observe(state, played, earlier)
            started = time.perf_counter()
            decision = strong.decide(observation, random.Random(total))
            elapsed = time.perf_counter() - started
            if decision.samples:
                times.append(elapsed)
                searches.append(decision.searches)
                fallback += decision.reason.startswith("no sample won")
            print(f"\r{slug}: {total} positions", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        if not times:
            print(f"| {slug} | {total} | 0 | | | | | |")
            continue
        print(f"| {slug} | {total} | {len(times)} | {statistics.median(times) * 1000:,.0f} | "
              f"{percentile(times, 0.9) * 1000:,.0f} | {max(times) * 1000:,.0f} | "
              f"{statistics.mean(searches):.1f} | {fallback / len(times):.0%} |", flush=True)


def duel_game(task: tuple[str, str, str, int, Setting]) -> tuple[str, str, int, bool, float, int]:
    slug, ruleset, spec, number, setting = task
    state = kibitz.game(slug, ruleset).deal(number)
    started = time.process_time()
    result = play_out(state, make_agent(spec, setting), random.Random(number))
    return slug, spec, number, result.won, time.process_time() - started, len(result.moves)


def duel(slugs: list[str], ruleset: str, deals: range, specs: list[str], setting: Setting, workers: int) -> None:
    print(f"\nduel: deals {deals.start}-{deals.stop - 1} from the opening, each agent seeded by the deal "
          f"number; strong at the {setting.name} setting ({setting.samples} samples, {nodes_words(setting)} "
          f"per search, {setting.candidates} candidates, {setting.method}); {workers} worker(s)")
    print("| game | agent | deals | won | win rate | 95% interval | CPU s per game |")
    print("|---|---|---|---|---|---|---|")
    tasks = [(slug, ruleset, spec, number, setting) for slug in slugs for spec in specs for number in deals]
    results: dict[tuple[str, str], list[tuple[bool, float]]] = {}
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        for done, (slug, spec, number, won, seconds, moves) in enumerate(
                pool.imap_unordered(duel_game, tasks), 1):
            results.setdefault((slug, spec), []).append((won, seconds))
            print(f"\r{done}/{len(tasks)} games", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    for slug in slugs:
        for spec in specs:
            games = results[(slug, spec)]
            wins = sum(w for w, _ in games)
            low, high = wilson(wins, len(games))
            seconds = statistics.mean(s for _, s in games)
            print(f"| {slug} | {spec} | {len(games)} | {wins} | {wins / len(games):.1%} | "
                  f"{low:.1%} - {high:.1%} | {seconds:,.1f} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", default="standard", choices=kibitz.RULESETS)
    parser.add_argument("--games", default="", help="comma-separated slugs (default: all)")
    parser.add_argument("--speed-deals", default="", help="deals whose greedy games give the positions timed")
    parser.add_argument("--every", type=int, default=5, help="time every N-th position of those games (default 5)")
    parser.add_argument("--limit", type=int, default=150, help="the moves of each game looked at (default 150)")
    parser.add_argument("--setting", default="hint", choices=sorted(SETTINGS))
    parser.add_argument("--duel-deals", default="", help="deals played from the opening by each agent")
    parser.add_argument("--duel-setting", default="study", choices=sorted(SETTINGS))
    parser.add_argument("--agents", default="greedy,strong",
                        help="comma-separated (default greedy,strong; strong@600: 600 nodes per search)")
    parser.add_argument("--undecided-deals", default="",
                        help="deals at whose opening the share of undecided samples is measured")
    parser.add_argument("--undecided-nodes", default="0",
                        help="nodes per search measured there, comma-separated (0: the setting's own)")
    parser.add_argument("--samples", type=int, help="override the samples of the settings")
    parser.add_argument("--nodes", type=int, help="override the node budget of the settings")
    parser.add_argument("--candidates", type=int, help="override the candidates of the settings")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    slugs = args.games.split(",") if args.games else [info.slug for info in kibitz.games()]

    def setting(name: str) -> Setting:
        changes = {key: value for key in ("samples", "nodes", "candidates")
                   if (value := getattr(args, key)) is not None}
        return SETTINGS[name].but(**changes)

    print(f"agent benchmark: ruleset {args.ruleset}, Python {platform.python_version()}, "
          f"{platform.machine()}, compiled solver: {compiled.STATUS}")
    if args.undecided_deals:
        budgets = [int(n) or None for n in args.undecided_nodes.split(",")]
        undecided(slugs, args.ruleset, parse_range(args.undecided_deals), setting(args.setting), budgets)
    if args.speed_deals:
        speed(slugs, args.ruleset, parse_range(args.speed_deals), args.every, args.limit, setting(args.setting))
    if args.duel_deals:
        duel(slugs, args.ruleset, parse_range(args.duel_deals), args.agents.split(","),
             setting(args.duel_setting), args.workers)


if __name__ == "__main__":
    main()
