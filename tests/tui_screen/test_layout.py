"""The table laid out in cells: every face-up index readable, every place named, no hidden card shown."""

from __future__ import annotations

import functools
import random

import pytest

import kibitz
from kibitz.rules import RULESETS
from kibitz.solver import Limits, solve
from kibitz.state import State
from kibitz.table import Fan
from kibitz.tui.screen.layout import Layout, fan_steps, index_text, lay_out, row_lines, table_size
from kibitz.tui.screen.navigation import neighbour
from kibitz.tui.screen.paint import Grid, paint

LINE_LIMITS = Limits(seconds=None, nodes=1_000_000)
"""A solver's winning line, found by nodes and not by time: the same on any machine, loaded or not."""

GAMES = [(info.slug, ruleset) for info in kibitz.games() for ruleset in RULESETS]


def laid(state: State, screen: tuple[int, int], scroll: dict[str, int] | None = None) -> tuple[Layout, Grid]:
    width, height = table_size(*screen)
    layout = lay_out(state.game, state.view(), width, height, scroll)
    return layout, paint(layout)


def assert_readable(state: State, layout: Layout, grid: Grid, fanned_only: bool = False) -> None:
    """Every face-up card the view shows in a fanned place (and each squared place's top card)
    has its index painted, on screen and uncovered; every hidden card is a back."""
    view = state.view()
    for place in state.game.table.places:
        cards = view.pile(place.pile)
        shown = {card.position: card for card in layout.pile_cards(place.pile)}
        wanted = range(len(cards)) if place.fan is not Fan.NONE else range(max(0, len(cards) - 1), len(cards))
        if fanned_only and place.fan is Fan.NONE:
            continue
        for position in wanted:
            card = cards[position]
            assert position in shown, (place.pile, position)
            drawn = shown[position]
            assert drawn.card == card
            if card is None:
                assert drawn.index == ""
                assert grid.rows[drawn.rect.y][drawn.rect.x].role == "back"
                continue
            for x, y in drawn.index_cells:
                assert 0 <= x < layout.width and 0 <= y < layout.height, (place.pile, position)
            x, y = drawn.index_cells[0]
            assert grid.text(x, y, len(drawn.index)) == index_text(card), (place.pile, position)


def assert_no_hidden_face(state: State, layout: Layout, grid: Grid) -> None:
    """No card the player may not see is written anywhere: only visible indices are on the table."""
    view = state.view()
    for drawn in layout.cards:
        assert drawn.card == view.pile(drawn.pile)[drawn.position]
        if drawn.card is None:
            roles = {grid.rows[y][x].role for y in range(drawn.rect.y, min(drawn.rect.bottom, grid.height))
                     for x in range(drawn.rect.x, min(drawn.rect.right, grid.width))}
            assert roles <= {"back", "face", "red", "black", "empty", "label"}


@pytest.mark.parametrize("slug, ruleset", GAMES)
@pytest.mark.parametrize("screen", [(80, 24), (200, 50)])
def test_the_opening_shows_every_face_up_index_and_every_place_name(slug: str, ruleset: str,
                                                                   screen: tuple[int, int]) -> None:
    state = kibitz.game(slug, ruleset).deal(7)
    layout, grid = laid(state, screen)
    assert_readable(state, layout, grid)
    assert_no_hidden_face(state, layout, grid)
    for place in layout.places:
        x, y = place.label_at
        assert 0 <= y < layout.height and x + len(place.pile) <= layout.width
        assert grid.text(x, y, len(place.pile)) == place.pile


@pytest.mark.parametrize("slug, ruleset", GAMES)
def test_larger_screens_get_larger_cards(slug: str, ruleset: str) -> None:
    state = kibitz.game(slug, ruleset).deal(7)
    small, _ = laid(state, (80, 24))
    large, _ = laid(state, (200, 50))
    assert large.card_width >= small.card_width and large.card_height > small.card_height
    assert small.card_width >= 5 and small.card_height >= 3


def long_game(slug: str, ruleset: str, moves: int) -> list[State]:
    """States of a game of random legal moves, building where it can (longer columns)."""
    choose = random.Random(f"{slug}/{ruleset}")
    state = kibitz.game(slug, ruleset).deal(11)
    states = [state]
    for _ in range(moves):
        legal = state.legal_moves
        if not legal:
            break
        builds = [move for move in legal if move.target.startswith(("t", "r")) and not move.is_deal]
        move = choose.choice(builds if builds and choose.random() < 0.7 else list(legal))
        state = state.apply(move)
        states.append(state)
    return states


@pytest.mark.parametrize("slug, ruleset", GAMES)
def test_late_positions_show_every_face_up_index_of_the_fanned_columns(slug: str, ruleset: str) -> None:
    states = long_game(slug, ruleset, 240)
    assert len(states) > 30
    longest = 0
    for state in states[::6] + states[-1:]:
        layout, grid = laid(state, (120, 40))
        assert_readable(state, layout, grid, fanned_only=True)
        assert_no_hidden_face(state, layout, grid)
        longest = max(longest, max(len(pile) for pile in state.view().piles[1:]))
    assert longest >= 3


def test_a_long_column_squeezes_face_down_cards_first_and_keeps_its_top_card() -> None:
    cards = [None] * 6 + [1, 2, 3]
    steps, top = fan_steps(cards, room=6, height=4)
    assert steps == [0] * 5 + [1, 1, 1] and top == 3
    steps, top = fan_steps(cards, room=20, height=4)
    assert steps == [1] * 8 and top == 4
    steps, top = fan_steps([1] * 12, room=8, height=4)
    assert top == 1 and sum(steps) + top == 8 and steps[-1] == 1


def test_an_empty_foundation_shows_what_it_takes() -> None:
    state = kibitz.game("grand-duchess").deal(1)
    layout, grid = laid(state, (120, 40))
    f1, f5 = layout.place("f1"), layout.place("f5")
    assert (f1.empty, f5.empty) == ("A♣", "K♣")
    assert "A♣" in "".join(grid.lines()[f1.slot.y:f1.slot.bottom])
    assert layout.place("s").count == str(len(state.pile("s")))


def test_the_arrows_go_along_a_row_before_leaving_it() -> None:
    game = kibitz.game("duchess")
    layout, _ = laid(game.deal(3), (80, 24))
    path, pile = [], "r1"
    for dx, dy in [(0, 1), (1, 0), (1, 0), (1, 0), (0, 1), (-1, 0), (0, -1)]:
        pile = neighbour(layout, pile, dx, dy)
        path.append(pile)
    assert path == ["s", "w", "f1", "f2", "t2", "t1", "f1"]


def fanned_length(state: State) -> int:
    """The length of the state's longest fanned pile."""
    fanned = [place.pile for place in state.game.table.places if place.fan is not Fan.NONE]
    return max((len(state.pile(pile)) for pile in fanned), default=0)


@functools.cache
def crowded_position(slug: str, ruleset: str) -> State:
    """The position of a solver's winning line (deal 11) where the longest fanned pile is longest."""
    state = kibitz.game(slug, ruleset).deal(11)
    states = [state]
    for move in solve(state, LINE_LIMITS).moves:
        states.append(states[-1].apply(move))
    return max(states, key=fanned_length)


@pytest.mark.parametrize("slug, ruleset", GAMES)
def test_the_most_crowded_position_of_a_winning_line_shows_every_face_up_index_from_120x40(
        slug: str, ruleset: str) -> None:
    state = crowded_position(slug, ruleset)
    assert state.game.table.places and (fanned_length(state) >= 8 or slug == "napoleons-flank")
    for screen in [(120, 40), (160, 48), (200, 50)]:
        layout, grid = laid(state, screen)
        assert_readable(state, layout, grid, fanned_only=True)
        assert_no_hidden_face(state, layout, grid)
        assert not any(place.hidden for place in layout.places)


@pytest.mark.parametrize("slug, ruleset", GAMES)
def test_at_80x24_a_crowded_column_scrolls_through_every_face_up_index_and_keeps_its_top_card(
        slug: str, ruleset: str) -> None:
    state = crowded_position(slug, ruleset)
    view = state.view()
    layout, grid = laid(state, (80, 24))
    assert_no_hidden_face(state, layout, grid)
    for place in layout.places:
        if not place.hidden:
            continue
        assert f"↕{place.hidden}" in grid.text(*place.label_at, place.area.width)
        area = place.area
        assert any("┄" in grid.text(area.x, y, area.width) for y in range(area.y, area.bottom))
        cards = view.pile(place.pile)
        seen: set[int] = set()
        for scroll in range(len(cards) + 2):
            layout, grid = laid(state, (80, 24), {place.pile: scroll})
            shown = layout.pile_cards(place.pile)
            readable = {card.position for card in shown if card.card is not None
                        and card.index_cells[0][1] < layout.height
                        and grid.text(*card.index_cells[0], len(card.index)) == card.index
                        and layout.card_at(*card.index_cells[0]) == card}
            assert len(cards) - 1 in readable, (place.pile, scroll)
            seen |= readable
        assert seen == {k for k, card in enumerate(cards) if card is not None}, place.pile


def test_rows_keep_their_proportions_up_to_a_card_and_its_label_apart() -> None:
    assert row_lines([0, 1.1, 2.25], scale_y=4.0, unit=4) == {0: 0, 1.1: 4, 2.25: 8}
    assert row_lines([0, 1, 2.5], scale_y=10.0, unit=8) == {0: 0, 1: 8, 2.5: 20}
    assert row_lines([0, 0.5, 1], scale_y=3.0, unit=4) == {0: 0, 0.5: 1, 1: 3}


def test_a_short_screen_wastes_no_line_above_the_tableau() -> None:
    layout, grid = laid(kibitz.game("duchess").deal(3), (80, 24))
    assert layout.place("t1").label_at[1] == layout.place("f1").slot.bottom
    assert layout.place("s").label_at[1] == layout.place("r1").slot.bottom
    t1 = layout.place("t1")
    assert t1.area.bottom - t1.slot.y >= 13   # a column of 13 cards keeps every index in view
    assert "┄" not in "".join(grid.lines())


def test_a_right_fan_draws_only_the_left_strip_of_its_covered_cards() -> None:
    state = kibitz.game("duchess").deal(3)
    for screen in [(80, 24), (120, 40), (200, 50)]:
        layout, grid = laid(state, screen)
        for pile in ("r1", "r2", "r3", "r4"):
            *covered, top = layout.pile_cards(pile)
            assert top.strip == 0
            if top.rect.height >= 5:
                corner = top.rect.right - 1 - len(top.index)
                assert grid.text(corner, top.rect.bottom - 2, len(top.index)) == top.index
            for card in covered:
                assert card.strip > 0
                rect = card.rect
                assert grid.text(rect.x + 1, rect.y, len(card.index)) == card.index
                for y in range(rect.y + 1, rect.bottom):
                    strip = grid.text(rect.x, y, card.strip)
                    assert set(strip) <= set("│╰─ "), (pile, screen, strip)
