"""The review of a game (``kibitz.analysis.review``): how long it takes, and how sure its chances are.

Three parts, each optional:

- *review*: games played from the opening of ``--deals`` (unseen deals: the budgets were
  chosen on deals 101-1010 and 60001-60010) by ``--player`` (the strong agent at the study
  setting by default: a good player's games, won and lost), cut at ``--moves`` moves; each is
  reviewed whole (the fair part and the point of no return) in this process, with the
  build in use. Per game: the games, their moves, the review's seconds (median and worst),
  the median seconds per move, the same scaled to 150 moves, the median share of sampled
  deals left undecided, and the labels found.
- *openings*: the share of the sampled deals of the chance to win (``kibitz.agents.CHANCE``)
  left undecided at the opening of each of ``--opening-deals``: the median over the deals
  (the acceptance: at most 10% with the native kernel), and the worst.
- *builds*: with ``--builds native,python``, the review part runs once per build, each in a
  process of its own (``KIBITZ_NATIVE=0`` for pure Python).

Progress goes to stderr, the tables to stdout.

    .venv/bin/python benchmarks/review_speed.py --deals 90001-90005 --opening-deals 90001-90010
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import time

import kibitz
from kibitz import native
from kibitz.agents import CHANCE, STUDY, agent, observe
from kibitz.agents.play import play_out
from kibitz.agents.strong import survey
from kibitz.analysis.review import FinalChance, MoveReview, review_events
from kibitz.analysis.no_return import NoReturn


def parse_range(text: str) -> range:
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def review_part(slugs: list[str], ruleset: str, deals: range, player: str, moves: int) -> None:
    print(f"\nreview: games of {player} from deals {deals.start}-{deals.stop - 1}, cut at {moves} moves; "
          f"{os.cpu_count()} cores; build of each game's rules as shown")
    print("| game | build | games | moves (median) | seconds (median) | worst | s per move | "
          "s per 150 moves | undecided samples | labels | points of no return found |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for slug in slugs:
        game = kibitz.game(slug, ruleset)
        times: list[float] = []
        lengths: list[int] = []
        undecided: list[float] = []
        labels = found = 0
        for number in deals:
            start = game.deal(number)
            played = play_out(start, agent(player, STUDY), random.Random(number), max_moves=moves).moves
            began = time.perf_counter()
            shares: list[float] = []
            for event in review_events(start, played, seed=number, sees_every_card=True):
                if isinstance(event, MoveReview):
                    shares.append(event.chance.unknown / event.chance.samples)
                    labels += bool(event.label)
                elif isinstance(event, NoReturn):
                    found += event.finding == "found"
                print(f"\r{slug} deal {number}: {len(shares)}/{len(played)} moves", end="", file=sys.stderr,
                      flush=True)
            times.append(time.perf_counter() - began)
            lengths.append(max(1, len(played)))
            undecided.append(statistics.fmean(shares) if shares else 0.0)
        print(file=sys.stderr)
        per_move = statistics.median(t / n for t, n in zip(times, lengths))
        print(f"| {slug} | {native.build_of(game)} | {len(times)} | {statistics.median(lengths):g} | "
              f"{statistics.median(times):.1f} | {max(times):.1f} | {per_move:.3f} | {per_move * 150:.1f} | "
              f"{statistics.median(undecided):.0%} | {labels} | {found} |", flush=True)


def openings_part(slugs: list[str], ruleset: str, deals: range) -> None:
    print(f"\nopenings: the chance to win's samples left undecided at the opening of deals "
          f"{deals.start}-{deals.stop - 1} (setting {CHANCE.name}: up to {CHANCE.samples} deals)")
    print("| game | build | nodes per search | samples (median) | undecided (median) | worst | seconds per chance |")
    print("|---|---|---|---|---|---|---|")
    for slug in slugs:
        game = kibitz.game(slug, ruleset)
        shares: list[float] = []
        counts: list[int] = []
        began = time.perf_counter()
        for number in deals:
            _, results, _ = survey(observe(game.deal(number)), random.Random(number), CHANCE)
            counts.append(len(results))
            shares.append(sum(not r.is_decided for r in results) / len(results))
        seconds = (time.perf_counter() - began) / len(deals)
        print(f"| {slug} | {native.build_of(game)} | {CHANCE.nodes_for(game.info.family, game.kernel is not None):,} | {statistics.median(counts):g} | "
              f"{statistics.median(shares):.0%} | {max(shares):.0%} | {seconds:.2f} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", default="standard", choices=kibitz.RULESETS)
    parser.add_argument("--games", default="", help="comma-separated slugs (default: all)")
    parser.add_argument("--deals", default="", help="deals whose games are reviewed")
    parser.add_argument("--player", default="strong", help="who plays the games reviewed (default strong)")
    parser.add_argument("--moves", type=int, default=150, help="the moves of each game reviewed (default 150)")
    parser.add_argument("--opening-deals", default="", help="deals at whose opening the chance is measured")
    parser.add_argument("--builds", default="", help="native,python: the review part once per build")
    args = parser.parse_args()
    slugs = args.games.split(",") if args.games else [info.slug for info in kibitz.games()]
    if args.builds:
        for build in args.builds.split(","):
            env = dict(os.environ, KIBITZ_NATIVE="0" if build == "python" else "1")
            command = [sys.executable, __file__, "--ruleset", args.ruleset, "--games", ",".join(slugs),
                       "--deals", args.deals, "--player", args.player, "--moves", str(args.moves)]
            subprocess.run(command, env=env, check=True)
        return
    print(f"review benchmark: ruleset {args.ruleset}, Python {platform.python_version()}, {platform.machine()}, "
          f"native rules: {native.STATUS}")
    if args.opening_deals:
        openings_part(slugs, args.ruleset, parse_range(args.opening_deals))
    if args.deals:
        review_part(slugs, args.ruleset, parse_range(args.deals), args.player, args.moves)


if __name__ == "__main__":
    main()
