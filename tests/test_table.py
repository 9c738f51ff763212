"""Every game's table declaration, in both rulesets: each pile placed once, no two piles on
each other, fans where the rules spread cards and none where they square them."""

from __future__ import annotations

import itertools
import json

import pytest

import kibitz
from kibitz.foresight import longest_in_round
from kibitz.piles import PileKind, Spread
from kibitz.solver import Limits, Outcome, solve
from kibitz.table import Fan, Place, Table, side_by_side
from kibitz.web.referee import game_info

OVERLAP = 1e-9
"""Boxes that only touch (one's edge on the other's) do not overlap."""


def overlap(a: Place, b: Place) -> bool:
    """Whether the boxes of two places share more than an edge."""
    left_a, top_a, right_a, bottom_a = a.box()
    left_b, top_b, right_b, bottom_b = b.box()
    return (min(right_a, right_b) - max(left_a, left_b) > OVERLAP
            and min(bottom_a, bottom_b) - max(top_a, top_b) > OVERLAP)


def test_every_pile_is_placed_exactly_once(any_game: kibitz.Game) -> None:
    names = any_game.table.pile_names()
    assert sorted(names) == sorted(any_game.pile_names())
    assert len(set(names)) == len(names)


def test_no_two_piles_overlap(any_game: kibitz.Game) -> None:
    places = any_game.table.places
    crossing = [(a.pile, b.pile) for a, b in itertools.combinations(places, 2) if overlap(a, b)]
    assert crossing == []


def test_every_pile_is_on_the_table(any_game: kibitz.Game) -> None:
    table = any_game.table
    for place in table.places:
        left, top, right, bottom = place.box()
        assert 0 <= left and 0 <= top and right <= table.columns and bottom <= table.rows, place


def test_squared_piles_do_not_fan_and_fanned_ones_do(any_game: kibitz.Game) -> None:
    """A squared pile, a cell (one card at most), the stock, the waste and a foundation lie
    squared; a fanned reserve or tableau pile fans, with room for more than one card."""
    for spec in any_game.piles:
        place = any_game.table.place(spec.name)
        squared = (spec.spread is Spread.SQUARED or spec.cell
                   or spec.kind in (PileKind.STOCK, PileKind.WASTE, PileKind.FOUNDATION))
        if squared:
            assert place.fan is Fan.NONE and place.room == 1, place
        else:
            assert spec.kind in (PileKind.RESERVE, PileKind.TABLEAU)
            assert place.fan is not Fan.NONE and place.room > 1, place


def test_both_rulesets_share_the_table() -> None:
    for info in kibitz.games():
        tables = {ruleset: kibitz.game(info.slug, ruleset).table for ruleset in kibitz.RULESETS}
        assert tables["standard"] is tables["pysolfc"], info.slug


def test_the_web_api_serves_the_table() -> None:
    for info in kibitz.games():
        table = kibitz.game(info.slug).table
        served = json.loads(json.dumps(game_info(info.slug)["table"]))
        assert (served["columns"], served["rows"]) == (table.columns, table.rows)
        assert [place["pile"] for place in served["places"]] == table.pile_names()
        for place, declared in zip(served["places"], table.places):
            assert Place(place["pile"], place["column"], place["row"], Fan(place["fan"]), place["room"],
                         place["builds_to"]) == declared


def test_a_table_refuses_a_pile_placed_twice_or_off_the_table() -> None:
    with pytest.raises(ValueError, match="placed twice"):
        Table(columns=2, rows=1, places=(Place("s", 0, 0), Place("s", 1, 0)))
    with pytest.raises(ValueError, match="off the table"):
        Table(columns=2, rows=3, places=side_by_side("t", 1, 2, column=1, row=0, fan=Fan.DOWN, room=3))
    with pytest.raises(ValueError, match="off the table"):
        Table(columns=2, rows=2, places=(Place("t1", 0, 0, Fan.DOWN, room=2.5),))
    with pytest.raises(ValueError, match="room"):
        Table(columns=2, rows=2, places=(Place("f1", 0, 0, Fan.NONE, room=2),))
    with pytest.raises(ValueError, match="builds to"):
        Table(columns=2, rows=2, places=(Place("f1", 0, 0, Fan.NONE, builds_to=13),))
    with pytest.raises(ValueError, match="builds to"):
        Table(columns=2, rows=2, places=(Place("t1", 0, 0, Fan.DOWN, room=2, builds_to=-1),))
    table = Table(columns=2, rows=3, places=side_by_side("t", 1, 2, column=0, row=0, fan=Fan.DOWN, room=3))
    assert table.place("t2").box() == (1, 0, 2, 3)
    with pytest.raises(KeyError):
        table.place("t3")


# -- what a round's table makes room for (kibitz.foresight) ------------------------------------------

def test_no_pile_outgrows_what_its_round_foresaw(any_game: kibitz.Game) -> None:
    """Along a winning line, no fanned pile that only the stock lengthens ever holds more cards
    than foreseen at any earlier position of its round (the round's first included); every
    pile is foreseen at least as long as it is, and a pile built on at least as long as its
    table declares."""
    line = solve(any_game.deal(1), Limits(seconds=5))
    assert line.outcome is Outcome.WON
    names = any_game.pile_names()
    dealt_only = [p.pile for p in any_game.table.places if p.fan is not Fan.NONE and not p.builds_to]
    built = [p for p in any_game.table.places if p.builds_to]
    position = any_game.deal(1)
    this_round = [longest_in_round(position)]   # every foresight since the round began
    for move in line.moves:
        round_before = position.round
        position = position.apply(move)
        now = longest_in_round(position)
        if position.round != round_before:
            this_round = []
        this_round.append(now)
        for name, most in now.items():
            assert most >= len(position.piles[names.index(name)]), (name, str(move))
        for name in dealt_only:
            length = len(position.piles[names.index(name)])
            assert all(length <= earlier[name] for earlier in this_round), (name, str(move))
        for place in built:
            assert now[place.pile] >= place.builds_to


def test_foresight_reads_lengths_only() -> None:
    """Two deals whose piles have the same lengths are foreseen alike: no card is read."""
    for info in kibitz.games():
        game = kibitz.game(info.slug)
        first, second = game.deal(1), game.deal(2)
        assert [len(p) for p in first.piles] == [len(p) for p in second.piles]
        assert longest_in_round(first) == longest_in_round(second)
        fanned = {p.pile for p in game.table.places if p.fan is not Fan.NONE}
        assert set(longest_in_round(first)) == fanned
