"""Cards: the two-character codes, face up (upper case) and face down (lower case)."""

from __future__ import annotations

import pytest

from kibitz.cards import (FACE_DOWN, IDENTITY, card, card_name, format_card, full_pack,
                          is_face_down, is_red, parse_card, rank_of, suit_of)
from kibitz.errors import NotationError

RANK_LETTERS = "A23456789TJQK"
SUIT_LETTERS = "CSHD"
ALL_CODES = [rank + suit for suit in SUIT_LETTERS for rank in RANK_LETTERS]


def test_there_are_52_distinct_codes() -> None:
    """Every rank with every suit: 52 codes, 52 distinct cards."""
    assert len(set(ALL_CODES)) == 52
    assert len({parse_card(code) for code in ALL_CODES}) == 52


@pytest.mark.parametrize("code", ALL_CODES)
def test_face_up_round_trip(code: str) -> None:
    """An upper-case code parses to a face-up card that formats back to the same code."""
    c = parse_card(code)
    assert not is_face_down(c)
    assert format_card(c) == code
    assert RANK_LETTERS[rank_of(c)] == code[0]
    assert SUIT_LETTERS[suit_of(c)] == code[1]


@pytest.mark.parametrize("code", ALL_CODES)
def test_face_down_round_trip(code: str) -> None:
    """A lower-case code is the same card face down, and formats back in lower case."""
    c = parse_card(code.lower())
    assert is_face_down(c)
    assert c & IDENTITY == parse_card(code)
    assert format_card(c) == code.lower()
    assert format_card(c, mark_face_down=False) == code


def test_identity_order() -> None:
    """Identity is suit * 13 + rank, suits C S H D, ranks A..K."""
    assert parse_card("AC") == 0
    assert parse_card("KC") == 12
    assert parse_card("AS") == 13
    assert parse_card("AH") == 26
    assert parse_card("KD") == 51
    assert parse_card("TD") == card(9, 3)
    assert parse_card("td") == card(9, 3) | FACE_DOWN


def test_colours() -> None:
    """Clubs and spades are black, hearts and diamonds red."""
    for code in ALL_CODES:
        assert is_red(parse_card(code)) == (code[1] in "HD")
        assert is_red(parse_card(code.lower())) == (code[1] in "HD")


def test_card_names() -> None:
    """Cards have a spoken name."""
    assert card_name(parse_card("TD")) == "ten of diamonds"
    assert card_name(parse_card("as")) == "ace of spades"
    assert card_name(parse_card("KC")) == "king of clubs"


def test_full_pack() -> None:
    """A pack holds each card once per pack, in creation order."""
    assert full_pack() == list(range(52))
    assert sorted(full_pack(2)) == sorted(list(range(52)) * 2)


@pytest.mark.parametrize("code,words", [
    ("1H", ["rank", "'1'"]),
    ("0S", ["rank", "'0'"]),
    ("XH", ["rank", "'X'"]),
    ("TX", ["suit", "'X'"]),
    ("9Z", ["suit", "'Z'"]),
    ("T", ["two characters"]),
    ("", ["two characters"]),
    ("10H", ["two characters"]),
    ("TDX", ["two characters"]),
    (" TD", ["two characters"]),
    ("tD", ["mixed case"]),
    ("Td", ["mixed case"]),
    ("kS", ["mixed case"]),
    ("??", ["rank"]),
])
def test_bad_codes(code: str, words: list[str]) -> None:
    """A bad code raises NotationError quoting the code and naming what is wrong."""
    with pytest.raises(NotationError) as caught:
        parse_card(code)
    message = str(caught.value)
    assert repr(code) in message
    for word in words:
        assert word in message


def test_notation_error_is_a_value_error() -> None:
    """Callers may catch bad cards as ValueError."""
    with pytest.raises(ValueError):
        parse_card("ZZ")
