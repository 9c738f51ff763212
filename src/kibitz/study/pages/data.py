"""The package's data files that come from the kept rows, written by ``kibitz report --pages
docs`` beside the pages' tables: the review's game averages (``kibitz/data/winnability.json``,
:mod:`kibitz.analysis.averages`) and the odds on the start page (``kibitz/data/odds.json``,
:mod:`kibitz.odds`). A line comes from the kept rows once it is complete; until then the file
keeps the line it had, and says which lines come from where."""

from __future__ import annotations

import json
from typing import Any

from kibitz.study.pages.kept import Kept
from kibitz.study.pages.tables import quoted_odds, winnability_lines

FULL_LINE = 100_000
"""The deals of a complete winnability line."""
FULL_ODDS = 2_000
"""The strong agent's games of a complete odds line."""


def every_line() -> list[tuple[str, str]]:
    """Every registered game and ruleset, in the order of the games."""
    from kibitz.registry import games
    from kibitz.rules import RULESETS
    return [(info.slug, ruleset) for info in games() for ruleset in RULESETS]


def complete_lines(kept: Kept) -> dict[tuple[str, str], Any]:
    """The kept winnability lines that hold deals 1-100,000, by game and ruleset (a line of
    rulesets with the same rules under each of them)."""
    return {(line.game, ruleset): line for line in winnability_lines(kept)
            for ruleset in (line.ruleset, *line.same_rules) if line.deals >= FULL_LINE}


def averages_file(kept: Kept, current: str) -> str:
    """``winnability.json``, the review's game averages: each game and ruleset from its kept
    line once the line holds deals 1-100,000, from the file as it is (``current``) until then."""
    held = {(line["game"], line["ruleset"]): line for line in json.loads(current)["lines"]}
    lines = complete_lines(kept)
    out, earlier = [], []
    for game, ruleset in every_line():
        line = lines.get((game, ruleset))
        if line is not None:
            out.append({"game": game, "ruleset": ruleset, "deals": line.deals, "won": line.won,
                        "lost": line.lost, "unknown": line.unknown})
        elif (game, ruleset) in held:
            out.append(held[(game, ruleset)])
            earlier.append(f"{game} ({ruleset})")
    versions = sorted({version for line in lines.values() for version in line.solver_versions})
    source = (f"docs/winnability.md: the kept rows (solver version {'+'.join(map(str, versions))})"
              + (f"; the earlier table for {', '.join(earlier)}" if earlier else ""))
    return json.dumps({"format": "kibitz-winnability", "version": 2, "source": source, "lines": out},
                      indent=1) + "\n"


def odds_file(kept: Kept, current: str) -> str:
    """``odds.json``, the odds on the start page: a game and ruleset's fair rate from the
    strong agent's kept games once its line holds 2,000 of them, from the file as it is
    (``current``) until then; the thoughtful winnability from its complete kept line once
    there is one, whatever the fair rate's source. ``made.lines`` says where each line comes from."""
    data = json.loads(current)
    chosen = {key: line for key, line in quoted_odds(kept).items() if line.agent == "strong"}
    studies = complete_lines(kept)
    games: dict[str, dict[str, Any]] = {}
    sources: dict[str, str] = {}
    for game, ruleset in every_line():
        line = chosen.get((game, ruleset, "strong")) or next(
            (line for (slug, _, agent), line in chosen.items()
             if slug == game and agent == "strong" and ruleset in line.same_rules), None)
        study = studies.get((game, ruleset))
        held = data["games"].get(game, {}).get(ruleset)
        thoughtful = None if study is None else {"deals": study.deals, "low": round(study.conservative[0], 6),
                                                 "high": round(study.conservative[1], 6)}
        if line is not None and line.games >= FULL_ODDS and study is not None:
            games.setdefault(game, {})[ruleset] = {"fair": {"wins": line.won, "deals": line.games},
                                                   "thoughtful": thoughtful}
            sources[f"{game}/{ruleset}"] = (f"docs/odds.md: the strong agent ({line.setting} setting, agent version "
                                            f"{line.agent_version}, solver version {line.solver_version}) on "
                                            f"{line.games:,} deals; docs/winnability.md: {study.deals:,} deals")
        elif held is not None:
            games.setdefault(game, {})[ruleset] = held if thoughtful is None else {**held, "thoughtful": thoughtful}
            sources[f"{game}/{ruleset}"] = "the earlier measure (docs/history.md)" + (
                "" if study is None else f"; thoughtful winnability: docs/winnability.md: {study.deals:,} deals")
    made = {key: value for key, value in data["made"].items() if key != "lines"} | {"lines": sources}
    return json.dumps({"format": data["format"], "format_version": data["format_version"],
                       "source": "docs/odds.md and docs/winnability.md: the kept rows; made.lines says which lines "
                                 "are still the earlier measure", "made": made, "games": games}, indent=1) + "\n"
