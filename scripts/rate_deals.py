"""Rate deals for New game's levels from a study's results file: the strong agent's win share
over several seeds (``kibitz odds``) and the solver's verdict (``kibitz study``); writes
``src/kibitz/data/ratings.json`` (read by :mod:`kibitz.difficulty`).

Fill the results file first (every deal needs a play-out for each seed; a deal without a
study row is rated with its winnability undecided), then write the ratings::

    kibitz study duchess --deals 1-40 --timeout 10 --db ratings.db
    for seed in 0 1 2; do
      kibitz odds duchess --deals 1-40 --agent strong --setting study --seed $seed --db ratings.db
    done
    .venv/bin/python scripts/rate_deals.py --db ratings.db --version 1

A deal is rated when the agent played it under every seed asked for with the same versions
(the newest versions the file holds for that game); its level follows from its win share and
:data:`THRESHOLDS`. Winnability counts a deal decided by any solver version, as the study's
report does. How the file's ratings were made is in ``docs/difficulty.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import kibitz
from kibitz.agents import SETTINGS
from kibitz.difficulty import FORMAT, FORMAT_VERSION, Thresholds, parse_ratings
from kibitz.rules import RULESETS
from kibitz.study.store import Play, Store

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "src" / "kibitz" / "data" / "ratings.json"
THRESHOLDS = Thresholds(easy=0.6, hard=0.3)
"""Easy: the strong agent wins at least 60% of its play-outs; hard: under 30%; medium between
(with three seeds: 2 or 3 wins easy, 1 win medium, none hard)."""


def rate(store: Store, slug: str, ruleset: str, agent: str, setting: str,
         seeds: list[int]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The rated deals of one game and ruleset, and what they were made from."""
    plays = [play for play in store.plays(slug, ruleset)
             if play.agent == agent and play.setting == setting and play.seed in seeds]
    if not plays:
        return [], {}
    newest = max((play.agent_version, play.solver_version, play.rules_version) for play in plays)
    by_deal: dict[int, dict[int, Play]] = {}
    for play in plays:
        if (play.agent_version, play.solver_version, play.rules_version) == newest:
            by_deal.setdefault(play.deal, {})[play.seed] = play
    verdicts: dict[int, bool] = {}
    limits: set[float | None] = set()
    solve_seconds = 0.0
    for row in store.rows(slug, ruleset, moves=False):
        if row.outcome in ("won", "lost"):
            verdicts[row.deal] = row.outcome == "won"
        limits.add(row.timeout)
        solve_seconds += row.seconds
    entries = []
    cpu = 0.0
    for deal in sorted(by_deal):
        seen = by_deal[deal]
        if not all(seed in seen for seed in seeds):
            continue
        wins = sum(seen[seed].won for seed in seeds)
        cpu += sum(seen[seed].cpu_seconds for seed in seeds)
        entries.append({"deal": deal, "wins": wins, "plays": len(seeds), "winnable": verdicts.get(deal),
                        "level": THRESHOLDS.level(wins / len(seeds))})
    made = {"agent_version": newest[0], "solver_version": newest[1], "rules_version": newest[2],
            "play_cpu_seconds": round(cpu, 1), "solve_seconds": round(solve_seconds, 1),
            "solver_limit_seconds": sorted((limit for limit in limits if limit is not None), reverse=True)[:1]}
    return entries, made


def ratings_file(store: Store, rulesets: list[str], agent: str, setting: str, seeds: list[int],
                 version: int) -> dict[str, Any]:
    """The ratings file of every game that has rated deals in ``store``."""
    games: dict[str, dict[str, list[dict[str, Any]]]] = {}
    sources: dict[str, dict[str, Any]] = {}
    for info in kibitz.games():
        for ruleset in rulesets:
            entries, made = rate(store, info.slug, ruleset, agent, setting, seeds)
            if entries:
                games.setdefault(info.slug, {})[ruleset] = entries
                sources[f"{info.slug}/{ruleset}"] = made
    return {
        "format": FORMAT, "format_version": FORMAT_VERSION, "version": version,
        "made": {
            "date": datetime.now(timezone.utc).strftime("%Y-%m-%d"),
            "builder": "scripts/rate_deals.py, from the results file of kibitz study and kibitz odds",
            "agent": agent, "setting": SETTINGS[setting].as_dict(), "seeds": seeds,
            "seed_rule": "the agent's generator for deal N under seed S is random.Random(S * 10**20 + N) "
                         "(kibitz.study.odds.generator)",
            "solver": "kibitz study: the solver sees every card; winnable true: proved winnable, "
                      "false: proved lost, null: undecided within the limit",
            "levels": "easy: win share >= thresholds.easy; hard: win share < thresholds.hard; medium between",
            "machine": {"cores": os.cpu_count(), "python": f"{platform.python_implementation()} "
                        f"{platform.python_version()}", "system": platform.system()},
            "sources": sources,
        },
        "thresholds": {"easy": THRESHOLDS.easy, "hard": THRESHOLDS.hard},
        "games": games,
    }


def format_ratings(made: dict[str, Any]) -> str:
    """The ratings file as text: indented, one rated deal a line."""
    text = json.dumps(made | {"games": {}}, indent=1)
    blocks = []
    for slug, rulesets in made["games"].items():
        parts = []
        for ruleset, entries in rulesets.items():
            rows = ",\n".join(f"    {json.dumps(entry)}" for entry in entries)
            parts.append(f"   {json.dumps(ruleset)}: [\n{rows}\n   ]")
        blocks.append(f"  {json.dumps(slug)}: {{\n" + ",\n".join(parts) + "\n  }")
    body = "{\n" + ",\n".join(blocks) + "\n }" if blocks else "{}"
    return text.replace('"games": {}', '"games": ' + body) + "\n"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", required=True, help="the results file of kibitz study and kibitz odds")
    parser.add_argument("--rulesets", default=",".join(RULESETS), help="rulesets, comma-separated (default: all)")
    parser.add_argument("--agent", default="strong", help="the agent whose win share rates a deal (default strong)")
    parser.add_argument("--setting", default="study", choices=sorted(SETTINGS), help="its setting (default study)")
    parser.add_argument("--seeds", default="0,1,2", help="the seeds every rated deal was played with (default 0,1,2)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the ratings file written")
    parser.add_argument("--version", type=int, default=1, help="the ratings' version (default 1)")
    args = parser.parse_args(argv)
    seeds = sorted({int(seed) for seed in args.seeds.split(",")})
    rulesets = [name.strip() for name in args.rulesets.split(",") if name.strip()]
    with Store(args.db) as store:
        made = ratings_file(store, rulesets, args.agent, args.setting, seeds, args.version)
    text = format_ratings(made)
    parse_ratings(json.loads(text))   # the file reads back, every level agreeing with its share
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text, "utf-8")
    for slug, rulesets_ in made["games"].items():
        for ruleset, entries in rulesets_.items():
            counts = {level: sum(entry["level"] == level for entry in entries) for level in ("easy", "medium", "hard")}
            winnable = sum(entry["winnable"] is True for entry in entries)
            print(f"{slug:17} {ruleset:9} {len(entries):3} deals {counts} proved winnable {winnable}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
