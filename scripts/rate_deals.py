"""Rate deals for New game's levels from a results file (:mod:`kibitz.study.ratings`): the
strong agent's win share over several seeds (``kibitz odds``) and the solver's verdict
(``kibitz study``, or the kept winnability rows imported with ``kibitz results import``);
writes ``src/kibitz/data/ratings.json`` (read by :mod:`kibitz.difficulty`).

``scripts/ratings`` runs the whole rating: it plays the deals block after block and calls this
script to know when a game and ruleset has enough (``--next``) and to write the file. By hand::

    kibitz results import --db ratings.db docs/winnability/duchess-standard.csv.gz
    for seed in 0 1 2; do
      kibitz odds duchess --deals 1-200 --agent strong --setting study --seed $seed --db ratings.db
    done
    .venv/bin/python scripts/rate_deals.py --db ratings.db --counts duchess standard
    .venv/bin/python scripts/rate_deals.py --db ratings.db

A deal is rated when the agent played it under every seed with the same versions (the newest
the file holds for that game; ``--counts`` and ``--next`` count with the versions of this
kibitz, those a run adds); its level follows from its win share. A level with fewer than 50
rated deals is declared empty and its deals are left out. ``--verdicts-only`` derives the
``winnable`` fields of an existing ratings file again from the solver's rows, replaying
nothing. How the shipped ratings were made is in ``docs/difficulty.md``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from kibitz.agents import SETTINGS
from kibitz.arguments import whole_number
from kibitz.difficulty import LEVELS, parse_ratings
from kibitz.errors import KibitzError
from kibitz.registry import find
from kibitz.rules import RULESETS
from kibitz.study.ratings import (Line, Rater, Verdicts, format_ratings, next_block, rate_line, ratings_file,
                                  with_earlier_lines, with_verdicts, withhold_thin_levels)
from kibitz.study.store import Store

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "src" / "kibitz" / "data" / "ratings.json"
BLOCK = 200
"""Deals a block, by default."""
MAX_DEALS = 5000
"""Deals rated at most in a game and ruleset, by default."""


def read_json(path: Path) -> dict[str, Any]:
    """The JSON object in ``path``; :class:`KibitzError` saying why not."""
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError) as error:
        raise KibitzError(f"cannot read the ratings file {path}: {error}") from None
    if not isinstance(data, dict):
        raise KibitzError(f"{path} is not a ratings file: it holds no JSON object")
    return data


def next_version(path: Path) -> int:
    """One more than the version of the ratings file at ``path`` (1 when there is none)."""
    if not path.is_file():
        return 1
    version = read_json(path).get("version")
    return version + 1 if isinstance(version, int) else 1


def write(data: dict[str, Any], out: Path) -> None:
    """Write the ratings ``data`` to ``out``, once they read back."""
    text = format_ratings(data)
    parse_ratings(json.loads(text))   # every level full or declared empty, every level agreeing with its share
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, "utf-8")


def summary(data: dict[str, Any]) -> None:
    """One line a game and ruleset: its deals of each level, and the levels declared empty."""
    for slug, rulesets in data["games"].items():
        for ruleset, line in rulesets.items():
            counts = {level: sum(entry["level"] == level for entry in line["deals"]) for level in LEVELS}
            empty = ", ".join(f"{level} ({reason['found']} of {reason['deals_rated']:,})"
                              for level, reason in line["empty"].items())
            winnable = sum(entry["winnable"] is True for entry in line["deals"])
            print(f"{slug:17} {ruleset:9} " + " ".join(f"{level} {counts[level]:5,}" for level in LEVELS)
                  + f"  proved winnable {winnable:5,}" + (f"  empty: {empty}" if empty else ""))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", help="the results file of kibitz odds and kibitz study")
    task = parser.add_mutually_exclusive_group()
    task.add_argument("--counts", nargs=2, metavar=("GAME", "RULESET"),
                      help="print the rated deals of each level of one game and ruleset: easy N medium N hard N "
                           "rated N covered N (deals 1 to N all rated)")
    task.add_argument("--next", nargs=2, metavar=("GAME", "RULESET"),
                      help="print the deals to play next (A-B), or nothing once every level holds 50 deals "
                           "or could not by --max-deals (the top of its 95%% interval), or --max-deals are rated")
    task.add_argument("--verdicts-only", action="store_true",
                      help="derive only the winnable fields of the ratings file --out again from the solver's rows "
                           "in --db, replaying nothing")
    task.add_argument("--withhold", type=Path, metavar="FILE",
                      help="write the ratings file FILE of format 1 to --out in the current format, its levels of "
                           "fewer than 50 deals declared empty")
    parser.add_argument("--block", type=whole_number(1, 10**9), default=None, metavar="N",
                        help=f"deals a block (default {BLOCK}); written in the file's made.run when given")
    parser.add_argument("--max-deals", type=whole_number(1, 10**9), default=None, metavar="N",
                        help=f"deals rated at most in a game and ruleset (default {MAX_DEALS:,}); written in "
                             "the file's made.run when given")
    parser.add_argument("--rulesets", default=",".join(RULESETS), help="rulesets, comma-separated (default: all)")
    parser.add_argument("--agent", default="strong", help="the agent whose win share rates a deal (default strong)")
    parser.add_argument("--setting", default="study", choices=sorted(SETTINGS), help="its setting (default study)")
    parser.add_argument("--seeds", default="0,1,2", help="the seeds every rated deal is played with (default 0,1,2)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the ratings file written")
    parser.add_argument("--unfinished", action="store_true",
                        help="write the lines still being rated too (default: only those --next has no block for)")
    parser.add_argument("--only-rated", action="store_true",
                        help="write only the lines the results file rates (default: a line it does not rate is "
                             "kept from the file at --out as it was, its source saying so)")
    parser.add_argument("--version", type=whole_number(1, 10**9), default=None,
                        help="the ratings' version (default: one more than the file at --out)")
    args = parser.parse_args(argv)
    try:
        seeds = tuple(sorted({int(seed) for seed in args.seeds.split(",")}))
    except ValueError:
        parser.error(f"--seeds takes whole numbers separated by commas, not {args.seeds!r}")
    rater = Rater(args.agent, args.setting, seeds)
    if args.withhold is not None:
        data = withhold_thin_levels(read_json(args.withhold))
        write(data | {"version": args.version or data["version"]}, args.out)
        summary(data)
        return 0
    if args.db is None:
        parser.error("--db is needed (every task but --withhold reads a results file)")
    if not Path(args.db).is_file():
        raise KibitzError(f"there is no results file {args.db}")
    unfinished: list[str] = []
    with Store(args.db) as store:
        if args.counts or args.next:
            game, ruleset = args.counts or args.next
            slug = find(game).slug
            if ruleset not in RULESETS:
                raise KibitzError(f"unknown ruleset {ruleset!r}; choose one of: {', '.join(RULESETS)}")
            from kibitz.study.odds import versions_of
            no_verdicts = Verdicts({}, (), None, {})   # a level needs no verdict to be counted
            line = rate_line(store, slug, ruleset, rater, versions_of(slug, ruleset, rater.agent), no_verdicts)
            counts = line.counts()
            if args.counts:
                print(" ".join(f"{level} {counts[level]}" for level in LEVELS)
                      + f" rated {len(line.deals)} covered {line.covered()}")
            else:
                block = next_block(counts, line.covered(), args.block or BLOCK, args.max_deals or MAX_DEALS)
                if block is not None:
                    print(f"{block[0]}-{block[1]}")
            return 0
        version = args.version or next_version(args.out)
        if args.verdicts_only:
            rederived = with_verdicts(read_json(args.out), store, version)
            write(rederived.data, args.out)
            for name, count in rederived.changed.items():
                print(f"{name:26} {count:,} verdicts changed")
            for name in rederived.kept:
                print(f"{name:26} no solver rows: kept as they were")
            return 0
        rulesets = [name.strip() for name in args.rulesets.split(",") if name.strip()]
        run = {name: value for name, value in (("block", args.block), ("max_deals", args.max_deals)) if value}
        block, cap = args.block or BLOCK, args.max_deals or MAX_DEALS

        def finished(line: Line) -> bool:
            """Whether the runner is done with a line: a line still being rated is not written."""
            done = args.unfinished or next_block(line.counts(), line.covered(), block, cap) is None
            if not done:
                unfinished.append(f"{line.slug}/{line.ruleset}")
            return done

        data = ratings_file(store, rulesets, rater, version, run, finished)
    kept: list[str] = []
    if args.out.exists() and not args.only_rated:
        data, kept = with_earlier_lines(data, read_json(args.out))
    write(data, args.out)   # before anything is printed: a closed output loses no rating
    for name in unfinished:
        print(f"{name:26} still being rated (rate_deals.py --next): not written (--unfinished writes it)")
    for name in kept:
        print(f"{name:26} kept as it was, from version {data['made']['sources'][name]['kept_from_version']}")
    for name, source in data["made"]["sources"].items():
        if name not in kept and not source.get("verdict_solver_versions"):
            print(f"{name:26} no solver verdict in {args.db}: every deal written undecided "
                  f"(import the kept winnability rows first: kibitz results import --db {args.db} "
                  f"docs/winnability/{name.split('/')[0]}-*.csv.gz)")
    summary(data)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KibitzError as error:
        sys.exit(f"rate_deals: {error}")
