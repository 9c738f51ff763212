"""The odds that ship with kibitz (:mod:`kibitz.odds`, ``kibitz/data/odds.json``): a line not
yet measured again is the figure of the earlier tables kept in docs/history.md: the strong
agent's wins and deals with their Wilson interval, and the thoughtful winnability beside
them, for every game in both rulesets."""

from __future__ import annotations

import copy
import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from kibitz import odds
from kibitz.difficulty import ratings
from kibitz.odds import OddsError, parse_odds
from kibitz.registry import find, games
from kibitz.rules import RULESETS

DOCS = Path(__file__).resolve().parent.parent / "docs" / "history.md"
TABLE_HEADS = {"standard": "| game | random, deals 1-10,000 |", "pysolfc": "| game | random, deals 1-500 |"}
"""How the table of each ruleset's results begins in docs/odds.md."""
RATE = re.compile(r"\*\*(?:(?P<share>[\d.]+)%|(?P<wins>\d+) of (?P<deals>[\d,]+)) "
                  r"\((?P<low>[\d.]+)% - (?P<high>[\d.]+)%\)\*\*")
BOUNDS = re.compile(r"(?P<low>[\d.]+)% - (?P<high>[\d.]+)%")
DEALS = re.compile(r"deals 1-([\d,]+)")


def documented(ruleset: str) -> dict[str, dict[str, Any]]:
    """The strong agent's and the study's figures of ``ruleset`` in docs/odds.md, by game slug."""
    lines = DOCS.read_text("utf-8").splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith(TABLE_HEADS[ruleset]))
    head = [cell.strip() for cell in lines[start].strip("|").split("|")]
    strong = next(k for k, cell in enumerate(head) if cell.startswith("strong"))
    study = next(k for k, cell in enumerate(head) if cell.startswith("thoughtful"))
    strong_deals = int(DEALS.findall(head[strong])[0].replace(",", ""))
    study_deals = int(DEALS.findall(head[study])[0].replace(",", ""))
    found = {}
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        rate = RATE.fullmatch(cells[strong])
        bounds = BOUNDS.fullmatch(cells[study])
        assert rate and bounds, line
        found[find(cells[0]).slug] = {"rate": rate, "deals": strong_deals, "study": bounds,
                                      "study_deals": study_deals}
    return found


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_shipped_odds_are_the_tables_of_the_docs(ruleset: str) -> None:
    """Each line still from the earlier measure is that measure's figure; the others come
    from the kept rows, which tests/study/test_pages.py checks."""
    table = documented(ruleset)
    assert sorted(table) == sorted(info.slug for info in games())
    sources = odds.table().made["lines"]
    assert sorted(sources) == sorted(f"{info.slug}/{name}" for info in games() for name in RULESETS)
    for slug, row in table.items():
        if not sources[f"{slug}/{ruleset}"].startswith("the earlier measure"):
            assert sources[f"{slug}/{ruleset}"].startswith("docs/odds.md: the strong agent")
            continue
        shipped = odds.of(slug, ruleset)
        rate = row["rate"]
        assert shipped.fair.deals == row["deals"]
        shown = shipped.fair.shown()
        places = shown["places"]
        if rate["wins"] is not None:   # "2 of 500 (0.11% - 1.45%)": two decimals
            assert (shipped.fair.wins, shipped.fair.deals) == (int(rate["wins"]), int(rate["deals"].replace(",", "")))
            assert places == 2
        else:
            assert f"{shown['share']:.1f}" == rate["share"] and places == 1, slug
        assert (f"{shown['low']:.{places}f}", f"{shown['high']:.{places}f}") == (rate["low"], rate["high"]), slug
        # The figures shown are the Wilson interval of the wins, rounded.
        low, high = shipped.fair.interval
        assert abs(low * 100 - shown["low"]) <= 0.5 * 10 ** -places + 0.005   # rounded twice
        assert abs(high * 100 - shown["high"]) <= 0.5 * 10 ** -places + 0.005   # rounded twice
        study = row["study"]
        if "thoughtful winnability: docs/winnability.md" in sources[f"{slug}/{ruleset}"]:
            assert shipped.thoughtful.deals == 100_000   # the complete kept line's: tests/study/test_pages.py
        else:
            assert shipped.thoughtful.deals == row["study_deals"]
            assert shipped.thoughtful.low == pytest.approx(float(study["low"]) / 100, abs=1e-9)
            assert shipped.thoughtful.high == pytest.approx(float(study["high"]) / 100, abs=1e-9)
        # A fair player never beats a player who sees every card.
        assert shipped.fair.share <= shipped.thoughtful.high


def test_a_games_difficulty_is_the_level_its_fair_rate_earns() -> None:
    thresholds = ratings().thresholds
    for info in games():
        for ruleset in RULESETS:
            shipped = odds.of(info.slug, ruleset)
            assert shipped.level == thresholds.level(shipped.fair.wins / shipped.fair.deals)
            assert shipped.as_dict()["level"] == shipped.level
    assert odds.of("grand-duchess").level == "easy" and odds.of("napoleons-flank").level == "hard"


def shipped_file() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((resources.files("kibitz") / "data" / "odds.json").read_text("utf-8"))
    return data


def test_a_broken_odds_file_is_refused_in_words() -> None:
    assert parse_odds(shipped_file()).odds == odds.table().odds
    deals = shipped_file()["games"]["duchess"]["standard"]["fair"]["deals"]
    breakages = {
        "not an odds file": lambda d: d.update(format="kibitz-ratings"),
        "odds file format 2": lambda d: d.update(format_version=2),
        "unknown ruleset": lambda d: d["games"]["duchess"].update(house={}),
        f"fair wins {deals + 1} of {deals}": lambda d: d["games"]["duchess"]["standard"]["fair"].update(wins=deals + 1),
        "thoughtful winnability": lambda d: d["games"]["duchess"]["standard"]["thoughtful"].update(low=1.5),
        "odds need fair wins": lambda d: d["games"]["duchess"]["standard"].pop("fair"),
    }
    for words, breaking in breakages.items():
        data = copy.deepcopy(shipped_file())
        breaking(data)
        with pytest.raises(OddsError, match=words):
            parse_odds(data)
