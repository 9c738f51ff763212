"""Deal numbers: the opening layouts of ``tests/data/deals`` and the number checks."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import kibitz
from kibitz.cards import ACE, KING
from kibitz.deals import MAX_DEAL_NUMBER, parse_deal_number, random_deal_number, shuffle
from kibitz.errors import DealNumberError
from kibitz.notation import layout_of

from conftest import DATA

VECTORS = json.loads((DATA / "deals" / "pysolfc-openings.json").read_text())
CASES = [(slug, entry["number"], entry["layout"])
         for slug, entries in VECTORS["games"].items() for entry in entries]
RESHUFFLING = {"tournament", "napoleons-flank"}


def first_shuffle_cells_lack_ace_and_king(number: int) -> bool:
    pack, _ = shuffle(number, 2)
    return not any(i % 13 in (ACE, KING) for i in pack[-8:])


@pytest.mark.parametrize("slug,number,layout", CASES, ids=[f"{s}-{n}" for s, n, _ in CASES])
def test_pysolfc_opening(slug: str, number: int, layout: dict[str, object]) -> None:
    assert layout_of(kibitz.game(slug, "pysolfc").deal(number)) == layout


@pytest.mark.parametrize("slug,number,layout", CASES, ids=[f"{s}-{n}" for s, n, _ in CASES])
def test_standard_opening(slug: str, number: int, layout: dict[str, object]) -> None:
    standard = layout_of(kibitz.game(slug, "standard").deal(number))
    if slug in RESHUFFLING and first_shuffle_cells_lack_ace_and_king(number):
        assert standard != layout
        cells = standard["reserve"]
        assert isinstance(cells, list)
        assert any(card[0] in "AK" for card in cells), "standard reshuffles until a cell holds an ace or king"
    else:
        assert standard == layout


def test_standard_tournament_reshuffle_is_exercised() -> None:
    reshuffled = [n for slug, n, _ in CASES if slug == "tournament" and first_shuffle_cells_lack_ace_and_king(n)]
    assert len(reshuffled) >= 3


@pytest.mark.parametrize("slug,number", [("grand-duchess", 1), ("duchess", 32000), ("cicely", 99999999999999999999)])
def test_cli_deal_json_matches_vector(slug: str, number: int) -> None:
    expected = next(layout for s, n, layout in CASES if s == slug and n == number)
    out = subprocess.run([sys.executable, "-m", "kibitz", "deal", slug, str(number), "--ruleset", "pysolfc", "--json"],
                         capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == expected
    assert out.strip() == json.dumps(expected, separators=(",", ":"))


@pytest.mark.parametrize("text", ["0", "-3", "abc", "12a", "1.5", "", "123456789012345678901", "+5", "٣"])
def test_bad_deal_numbers_are_rejected(text: str) -> None:
    with pytest.raises(DealNumberError):
        parse_deal_number(text)


@pytest.mark.parametrize("bad", [0, -1, MAX_DEAL_NUMBER + 1, True, 1.0, "5"])
def test_game_deal_rejects_bad_numbers(bad: object) -> None:
    with pytest.raises(DealNumberError):
        kibitz.game("duchess").deal(bad)  # type: ignore[arg-type]


def test_good_deal_numbers() -> None:
    assert parse_deal_number(" #42 ") == 42
    assert parse_deal_number("99999999999999999999") == MAX_DEAL_NUMBER
    assert parse_deal_number("007") == 7


def test_random_deal_number_is_replayable() -> None:
    number = random_deal_number()
    game = kibitz.game("tournament")
    assert game.deal(number) == game.deal(number)
    assert 1 <= number <= 10**9
