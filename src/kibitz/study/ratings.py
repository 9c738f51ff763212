"""Rating deals for New game's levels from a results file: the strong agent's win share over
several seeds (``kibitz odds``, table ``plays``) and the solver's verdict (``kibitz study``,
table ``results``), written as the ratings file that :mod:`kibitz.difficulty` reads.

A deal is rated when the agent played it under every seed asked for with the same versions;
its level follows from its win share and :data:`THRESHOLDS`. A level that fewer than
:data:`~kibitz.difficulty.MIN_LEVEL_DEALS` rated deals reach is declared empty and its deals
are left out (:func:`line_entry`). The rating runner (``scripts/ratings``) plays deals block
after block until every level holds that many deals or a cap is reached (:func:`next_block`).

A deal's verdict is that of the highest solver version that decided it, under the current
rules: ``True`` proved winnable, ``False`` proved lost, ``None`` when every row of it is
undecided (:func:`verdicts`).
"""

from __future__ import annotations

import copy
import json
import os
import platform
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Callable, Iterable, Mapping, Sequence

from kibitz.difficulty import FORMAT, FORMAT_VERSION, LEVELS, MIN_LEVEL_DEALS, Level, RatedDeal, Thresholds
from kibitz.errors import KibitzError
from kibitz.intervals import wilson
from kibitz.study.store import Play, Store

THRESHOLDS = Thresholds(easy=0.6, hard=0.3)
"""Easy: the strong agent wins at least 60% of its play-outs; hard: under 30%; medium between
(with three seeds: 2 or 3 wins easy, 1 win medium, none hard)."""

Versions = tuple[int, int, int]
"""The agent's version, the solver's it searches with, and the rules' version."""


@dataclass(frozen=True)
class Rater:
    """Who rates the deals: an agent at a setting, one play-out per seed."""

    agent: str = "strong"
    setting: str = "study"
    seeds: tuple[int, ...] = (0, 1, 2)

    def __post_init__(self) -> None:
        if not self.seeds or len(set(self.seeds)) != len(self.seeds):
            raise KibitzError(f"the seeds must be one or more distinct numbers, not {list(self.seeds)}")


@dataclass(frozen=True)
class Verdicts:
    """The solver's verdicts on the deals of one game and ruleset, and what they came from."""

    by_deal: Mapping[int, bool | None]
    """Every deal with a row: ``True`` proved winnable, ``False`` proved lost, ``None`` undecided."""
    solver_versions: tuple[int, ...]
    """The solver versions whose rows were read."""
    longest_limit: float | None
    """The longest time limit of those rows (seconds)."""
    seconds: Mapping[int, float]
    """The solver's time on each deal, all its rows."""


@dataclass(frozen=True)
class Line:
    """The rated deals of one game and ruleset, and what they were made from."""

    slug: str
    ruleset: str
    deals: tuple[RatedDeal, ...]
    """Every deal rated, in order of deal number (those of thin levels too)."""
    versions: Versions | None
    """The versions of the plays that rated them (``None``: no deal is rated)."""
    play_cpu_seconds: float

    def counts(self) -> dict[Level, int]:
        """The rated deals of each level, counted."""
        return {level: sum(rated.level == level for rated in self.deals) for level in LEVELS}

    def covered(self) -> int:
        """The largest N such that deals 1 to N are all rated."""
        rated = {rated.deal for rated in self.deals}
        count = 0
        while count + 1 in rated:
            count += 1
        return count


def _alike(slug: str, ruleset: str) -> tuple[str, ...]:
    """The rulesets whose rows count for ``ruleset`` (a game whose rulesets agree stores them
    under the first, :func:`kibitz.registry.rulesets_alike`)."""
    from kibitz.registry import rulesets_alike
    return rulesets_alike(slug, ruleset)


def verdicts(store: Store, slug: str, ruleset: str) -> Verdicts:
    """The solver's verdict on each deal of ``slug`` and ``ruleset`` that has a row under the
    current rules: that of the highest solver version that decided it, else undecided."""
    import kibitz
    rules_version = kibitz.game(slug, ruleset).info.rules_version
    decided: dict[int, tuple[int, bool]] = {}
    tried: set[int] = set()
    seconds: dict[int, float] = {}
    versions: set[int] = set()
    limits: set[float] = set()
    for alike in _alike(slug, ruleset):
        for row in store.rows(slug, alike, moves=False):
            if row.rules_version != rules_version:
                continue
            tried.add(row.deal)
            versions.add(row.solver_version)
            seconds[row.deal] = seconds.get(row.deal, 0.0) + row.seconds
            if row.timeout is not None:
                limits.add(row.timeout)
            if row.outcome in ("won", "lost") and row.solver_version >= decided.get(row.deal, (-1, False))[0]:
                decided[row.deal] = (row.solver_version, row.outcome == "won")
    by_deal: dict[int, bool | None] = {deal: decided[deal][1] if deal in decided else None for deal in sorted(tried)}
    return Verdicts(by_deal, tuple(sorted(versions)), max(limits, default=None), seconds)


def _plays(store: Store, slug: str, ruleset: str, rater: Rater) -> list[Play]:
    from kibitz.study.odds import setting_of
    setting = setting_of(rater.agent, rater.setting)
    return [play for alike in _alike(slug, ruleset) for play in store.plays(slug, alike)
            if play.agent == rater.agent and play.setting == setting and play.seed in rater.seeds]


def rate_line(store: Store, slug: str, ruleset: str, rater: Rater = Rater(), versions: Versions | None = None,
              found: Verdicts | None = None) -> Line:
    """The deals of ``slug`` and ``ruleset`` the rater played under every seed with
    ``versions`` (``None``: the newest the results file holds), each rated from its wins and
    the solver's verdict (``found``, else read from the results file)."""
    plays = _plays(store, slug, ruleset, rater)
    if versions is None:
        versions = max(((p.agent_version, p.solver_version, p.rules_version) for p in plays), default=None)
    by_deal: dict[int, dict[int, Play]] = {}
    for play in plays:
        if (play.agent_version, play.solver_version, play.rules_version) == versions:
            by_deal.setdefault(play.deal, {})[play.seed] = play
    complete = [deal for deal in sorted(by_deal) if len(by_deal[deal]) == len(rater.seeds)]
    if not complete:
        return Line(slug, ruleset, (), None, 0.0)
    winnable = (verdicts(store, slug, ruleset) if found is None else found).by_deal
    deals = []
    cpu = 0.0
    for deal in complete:
        wins = sum(play.won for play in by_deal[deal].values())
        cpu += sum(play.cpu_seconds for play in by_deal[deal].values())
        plays_ = len(rater.seeds)
        deals.append(RatedDeal(deal, wins, plays_, winnable.get(deal), THRESHOLDS.level(wins / plays_)))
    return Line(slug, ruleset, tuple(deals), versions, cpu)


def next_block(counts: Mapping[Level, int], covered: int, block: int, max_deals: int) -> tuple[int, int] | None:
    """The deals to play next for a game and ruleset whose levels hold ``counts`` rated deals,
    deals 1 to ``covered`` all rated: the rest of the block of ``block`` deals that ``covered``
    ends in, up to ``max_deals``; ``None`` when every level is settled (:func:`settled`) or
    ``max_deals`` are rated (the levels still short are then declared empty)."""
    if block < 1 or max_deals < 1:
        raise KibitzError(f"a block and the cap must be at least one deal, not {block} and {max_deals}")
    if all(settled(counts.get(level, 0), covered, max_deals) for level in LEVELS) or covered >= max_deals:
        return None
    return covered + 1, min((covered // block + 1) * block, max_deals)


def settled(found: int, covered: int, max_deals: int) -> bool:
    """Whether a level that ``found`` of the first ``covered`` deals reached needs no more
    deals: it holds :data:`~kibitz.difficulty.MIN_LEVEL_DEALS`, or it would not reach them by
    ``max_deals`` even were its share of the deals still to rate the top of its 95% Wilson
    interval (so it will be declared empty, and rating on to the cap would not change that)."""
    if found >= MIN_LEVEL_DEALS:
        return True
    if covered == 0:
        return False
    return found + wilson(found, covered)[1] * (max_deals - covered) < MIN_LEVEL_DEALS


def deal_entry(rated: RatedDeal) -> dict[str, Any]:
    """A rated deal as the ratings file holds it."""
    return {"deal": rated.deal, "wins": rated.wins, "plays": rated.plays, "winnable": rated.winnable,
            "level": rated.level}


def line_entry(deals: Sequence[RatedDeal]) -> dict[str, Any]:
    """A game and ruleset as the ratings file holds it: every level with fewer than
    :data:`~kibitz.difficulty.MIN_LEVEL_DEALS` of ``deals`` declared empty (how many deals were
    rated, how many reached it) and its deals left out; where every level is empty, the deals
    kept without their levels for the deal of the day."""
    counts = {level: sum(rated.level == level for rated in deals) for level in LEVELS}
    empty = {level: {"deals_rated": len(deals), "found": counts[level]}
             for level in LEVELS if counts[level] < MIN_LEVEL_DEALS}
    entry: dict[str, Any] = {"empty": empty,
                             "deals": [deal_entry(rated) for rated in deals if rated.level not in empty]}
    if len(empty) == len(LEVELS):
        entry["daily"] = [{"deal": rated.deal, "winnable": rated.winnable} for rated in deals]
    return entry


def _today() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%d")


LEVEL_WORDS = ("easy: win share >= thresholds.easy; hard: win share < thresholds.hard; medium between; "
               f"a level with fewer than {MIN_LEVEL_DEALS} rated deals is declared empty (not offered), "
               "its deals left out of the file")


def ratings_file(store: Store, rulesets: Iterable[str], rater: Rater, version: int,
                 run: Mapping[str, Any] | None = None,
                 finished: Callable[[Line], bool] | None = None) -> dict[str, Any]:
    """The ratings file of every game and ruleset with rated deals in ``store`` (with
    ``finished``, only those it says are finished); ``run``: how the runner played them
    (block, cap), recorded in ``made``."""
    import kibitz
    from kibitz.agents import SETTINGS
    games: dict[str, dict[str, dict[str, Any]]] = {}
    sources: dict[str, dict[str, Any]] = {}
    for info in kibitz.games():
        for ruleset in rulesets:
            found = verdicts(store, info.slug, ruleset)
            line = rate_line(store, info.slug, ruleset, rater, found=found)
            if line.versions is None or (finished is not None and not finished(line)):
                continue
            games.setdefault(info.slug, {})[ruleset] = line_entry(line.deals)
            solved = [found.seconds.get(rated.deal, 0.0) for rated in line.deals]
            sources[f"{info.slug}/{ruleset}"] = {
                "agent_version": line.versions[0], "solver_version": line.versions[1],
                "rules_version": line.versions[2], "deals_rated": len(line.deals),
                "play_cpu_seconds": round(line.play_cpu_seconds, 1), "solve_seconds": round(sum(solved), 1),
                "verdict_solver_versions": list(found.solver_versions),
                "solver_limit_seconds": [] if found.longest_limit is None else [found.longest_limit]}
    made: dict[str, Any] = {
        "date": _today(),
        "builder": "scripts/ratings and scripts/rate_deals.py, from the results file of kibitz odds and "
                   "the kept winnability rows (kibitz study)",
        "agent": rater.agent, "setting": SETTINGS[rater.setting].as_dict(), "seeds": list(rater.seeds),
        "seed_rule": "the agent's generator for deal N under seed S is random.Random(S * 10**20 + N) "
                     "(kibitz.study.odds.generator)",
        "solver": "kibitz study: the solver sees every card; winnable true: proved winnable (by any solver "
                  "version), false: proved lost, null: undecided within the limit",
        "levels": LEVEL_WORDS, "least_level_deals": MIN_LEVEL_DEALS,
        "machine": {"cores": os.cpu_count(), "python": f"{platform.python_implementation()} "
                    f"{platform.python_version()}", "system": platform.system()},
    }
    if run:
        made["run"] = dict(run)
    made["sources"] = sources
    return {"format": FORMAT, "format_version": FORMAT_VERSION, "version": version, "made": made,
            "thresholds": {"easy": THRESHOLDS.easy, "hard": THRESHOLDS.hard}, "games": games}


def with_earlier_lines(data: Mapping[str, Any], earlier: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The ratings file ``data`` with each line of the ``earlier`` file that ``data`` does not
    rate kept as it was, its source saying so (``kept_from_version``); and the lines kept, as
    ``game/ruleset``. :class:`KibitzError` where the earlier file is of another format or
    parts the levels elsewhere."""
    import kibitz
    from kibitz.rules import RULESETS
    if (earlier.get("format"), earlier.get("format_version")) != (FORMAT, FORMAT_VERSION):
        raise KibitzError(f"the earlier ratings file is of format {earlier.get('format_version')!r}, not "
                          f"{FORMAT_VERSION}: its lines cannot be kept (rate every line, or write only the lines "
                          "rated)")
    if earlier.get("thresholds") != data["thresholds"]:
        raise KibitzError(f"the earlier ratings file parts the levels at {earlier.get('thresholds')}, not at "
                          f"{data['thresholds']}: its lines cannot be kept beside the new ones")
    result = copy.deepcopy(dict(data))
    sources = result["made"].setdefault("sources", {})
    kept = []
    for slug, rulesets in earlier["games"].items():
        for ruleset, line in rulesets.items():
            if ruleset in result["games"].get(slug, {}):
                continue
            name = f"{slug}/{ruleset}"
            result["games"].setdefault(slug, {})[ruleset] = copy.deepcopy(line)
            source = dict(earlier["made"].get("sources", {}).get(name, {}))
            source.setdefault("kept_from_version", earlier["version"])   # the rating the line comes from
            sources[name] = source
            kept.append(name)
    games: dict[str, dict[str, Any]] = {}   # in the registry's order, as a new file has them
    ordered: dict[str, Any] = {}
    for info in kibitz.games():
        for ruleset in RULESETS:
            line = result["games"].get(info.slug, {}).get(ruleset)
            if line is not None:
                games.setdefault(info.slug, {})[ruleset] = line
            if f"{info.slug}/{ruleset}" in sources:
                ordered[f"{info.slug}/{ruleset}"] = sources[f"{info.slug}/{ruleset}"]
    result["games"], result["made"]["sources"] = games, ordered
    return result, kept


def withhold_thin_levels(earlier: Mapping[str, Any]) -> dict[str, Any]:
    """A ratings file of format 1 (every level offered, however few its deals) in the current
    format, one version higher: the levels with fewer than
    :data:`~kibitz.difficulty.MIN_LEVEL_DEALS` deals declared empty, their deals left out."""
    if earlier.get("format") != FORMAT or earlier.get("format_version") != 1:
        raise KibitzError("only a ratings file of format 1 has its thin levels withheld this way")
    games: dict[str, dict[str, dict[str, Any]]] = {}
    for slug, rulesets in earlier["games"].items():
        for ruleset, entries in rulesets.items():
            deals = [RatedDeal(entry["deal"], entry["wins"], entry["plays"], entry["winnable"], entry["level"])
                     for entry in entries]
            games.setdefault(slug, {})[ruleset] = line_entry(sorted(deals, key=lambda rated: rated.deal))
    made = dict(earlier["made"])
    made["levels"] = LEVEL_WORDS
    made["least_level_deals"] = MIN_LEVEL_DEALS
    made["withheld"] = {
        "date": _today(), "from_version": earlier["version"],
        "what": f"the earlier rating (version {earlier['version']}, {made.get('date')}) with its thin levels "
                f"withheld: each level with fewer than {MIN_LEVEL_DEALS} rated deals declared empty and its "
                "deals left out; the deals and their wins are those of the earlier rating"}
    return {"format": FORMAT, "format_version": FORMAT_VERSION, "version": earlier["version"] + 1, "made": made,
            "thresholds": earlier["thresholds"], "games": games}


@dataclass(frozen=True)
class Rederived:
    """A ratings file whose ``winnable`` fields were derived again, and what changed."""

    data: dict[str, Any]
    changed: Mapping[str, int]
    """Deals whose verdict changed, by ``game/ruleset``, for the lines the results file has rows of."""
    kept: tuple[str, ...]
    """The lines it has no rows of: kept as they were."""


def with_verdicts(data: Mapping[str, Any], store: Store, version: int) -> Rederived:
    """The ratings file ``data`` (as read from JSON), ``version`` its new version, its
    ``winnable`` fields derived again from the solver's rows in ``store`` (:func:`verdicts`),
    nothing replayed. A deal without a row, and every deal of a line without rows, keeps its
    verdict; ``made`` records what was derived from what."""
    result = copy.deepcopy(dict(data))
    changed: dict[str, int] = {}
    lines: dict[str, Any] = {}
    kept: list[str] = []
    for slug, rulesets in result["games"].items():
        for ruleset, line in rulesets.items():
            name = f"{slug}/{ruleset}"
            found = verdicts(store, slug, ruleset)
            if not found.by_deal:
                kept.append(name)
                continue
            changed[name] = 0
            for entry in [*line["deals"], *line.get("daily", [])]:
                if entry["deal"] in found.by_deal and found.by_deal[entry["deal"]] != entry["winnable"]:
                    entry["winnable"] = found.by_deal[entry["deal"]]
                    changed[name] += 1
            lines[name] = {"changed": changed[name], "solver_versions": list(found.solver_versions),
                           "longest_limit_seconds": found.longest_limit}
    result["version"] = version
    result["made"] = dict(result["made"]) | {"verdicts": {
        "date": _today(),
        "what": "winnable derived again from the solver's rows of a results file (the kept winnability rows), "
                "no deal replayed: true when the highest solver version that decided a deal proved it "
                "winnable, false when it proved it lost, null when every row of it is undecided; the lines of "
                "kept_as_they_were have no solver rows there and keep the verdicts they had",
        "lines": lines, "kept_as_they_were": kept}}
    return Rederived(result, changed, tuple(kept))


def format_ratings(data: Mapping[str, Any]) -> str:
    """The ratings file as text: indented, one rated deal a line."""
    head = json.dumps(dict(data) | {"games": {}}, indent=1)
    blocks = []
    for slug, rulesets in data["games"].items():
        parts = []
        for ruleset, line in rulesets.items():
            fields = []
            for name, value in line.items():
                if isinstance(value, list) and value:
                    rows = ",\n".join(f"     {json.dumps(item)}" for item in value)
                    fields.append(f"    {json.dumps(name)}: [\n{rows}\n    ]")
                else:
                    fields.append(f"    {json.dumps(name)}: {json.dumps(value)}")
            parts.append(f"   {json.dumps(ruleset)}: {{\n" + ",\n".join(fields) + "\n   }")
        blocks.append(f"  {json.dumps(slug)}: {{\n" + ",\n".join(parts) + "\n  }")
    body = "{\n" + ",\n".join(blocks) + "\n }" if blocks else "{}"
    return head.replace('"games": {}', '"games": ' + body, 1) + "\n"
