"""Moves: the canonical text forms, and how a position reads what a player types."""

from __future__ import annotations

import itertools

import pytest

import kibitz
from kibitz.errors import (AmbiguousMoveError, IllegalMoveError, InvalidMoveError,
                           KibitzError, NotationError)
from kibitz.moves import DEAL, Move, format_move, parse_move
from kibitz.state import State

PILES = ["s", "w"] + [f"{kind}{n}" for kind in "ftr" for n in range(1, 9)]


# -- the text forms ------------------------------------------------------------

@pytest.mark.parametrize("text,move", [
    ("deal", Move("s", "", 0)),
    ("t3>f5", Move("t3", "f5")),
    ("t2>t4/3", Move("t2", "t4", 3)),
    ("r1#2>f3", Move("r1", "f3", 1, 2)),
    ("r2#0>f8", Move("r2", "f8", 1, 0)),
    ("s>t1", Move("s", "t1")),
    ("w>f2", Move("w", "f2")),
    ("f1>f5", Move("f1", "f5")),
    ("t8>r8/12", Move("t8", "r8", 12)),
])
def test_every_form_round_trips(text: str, move: Move) -> None:
    """Each form parses to the expected move and formats back to the same text."""
    assert parse_move(text) == move
    assert format_move(move) == text
    assert str(move) == text
    assert Move.parse(text) == move
    assert eval(repr(move), {"Move": Move}) == move


def test_deal_is_the_stock_click() -> None:
    """``deal`` is the shared DEAL value, and only it is a deal."""
    assert parse_move("deal") is DEAL
    assert DEAL.is_deal
    assert not parse_move("s>t1").is_deal


def test_all_pile_pairs_round_trip() -> None:
    """Every pair of distinct pile names, in the plain, /N and #K forms."""
    count = 0
    for source, target in itertools.permutations(PILES, 2):
        for move in (Move(source, target), Move(source, target, 2), Move(source, target, 1, 5)):
            assert parse_move(format_move(move)) == move
            count += 1
    assert count == 26 * 25 * 3


def test_surrounding_space_is_ignored() -> None:
    """A move typed with spaces around it still parses."""
    assert parse_move("  t3>f5\n") == Move("t3", "f5")
    assert parse_move(" deal ") is DEAL


@pytest.mark.parametrize("text,words", [
    ("", ["not a move"]),
    ("   ", ["not a move"]),
    ("t9>f1", ["not a move", "t1-t8"]),
    ("t0>f1", ["not a move"]),
    ("f9>f1", ["not a move"]),
    ("t3>", ["not a move"]),
    (">f1", ["not a move"]),
    ("t3", ["not a move"]),
    ("x1>f1", ["not a move"]),
    ("t3>s2", ["not a move"]),
    ("T3>F5", ["not a move"]),
    ("t3->f5", ["not a move"]),
    ("t3>f5 t4>f6", ["not a move"]),
    ("deal deal", ["not a move"]),
    ("t2>t4/", ["not a move"]),
    ("t2>t4/-1", ["not a move"]),
    ("r1#>f3", ["not a move"]),
    ("t3>t3", ["same pile"]),
    ("s>s", ["same pile"]),
    ("t1#1>f1/2", ["index", "not both"]),
    ("t2>t4/0", ["1 or more"]),
    ("t2>t4/1000", ["out of range"]),
    ("r1#1000>f3", ["out of range"]),
])
def test_malformed_moves(text: str, words: list[str]) -> None:
    """A malformed string raises InvalidMoveError quoting it and saying what is wrong."""
    with pytest.raises(InvalidMoveError) as caught:
        parse_move(text)
    message = str(caught.value)
    assert repr(text) in message
    for word in words:
        assert word in message


# -- the exception classes -------------------------------------------------------

def test_move_errors_are_distinct_value_errors() -> None:
    """Invalid, illegal and ambiguous are three unrelated classes, all ValueErrors."""
    classes = [InvalidMoveError, IllegalMoveError, AmbiguousMoveError]
    for one, other in itertools.permutations(classes, 2):
        assert not issubclass(one, other), (one, other)
    for cls in classes:
        assert issubclass(cls, ValueError)
        assert issubclass(cls, KibitzError)
    assert issubclass(InvalidMoveError, NotationError)
    assert not issubclass(IllegalMoveError, NotationError)
    assert not issubclass(AmbiguousMoveError, NotationError)


# -- moves in a real position ------------------------------------------------------

@pytest.fixture
def grand_duchess_1() -> State:
    """Grand Duchess #1: t1 5H, t2 JC, t3 KH, t4 5S; reserves face down; KH goes to f7."""
    return kibitz.game("grand-duchess").deal(1)


@pytest.fixture
def kingsdown_1() -> State:
    """Kingsdown Eights #1: r5 has AD on top (fits f4 and f8), r3 4H fits t5 5S, r8 2S fits t1 3D."""
    return kibitz.game("kingsdown-eights").deal(1)


def test_positions_are_as_described(grand_duchess_1: State, kingsdown_1: State) -> None:
    """The deals used below hold the cards these tests rely on."""
    assert [grand_duchess_1.cards(f"t{n}") for n in range(1, 5)] == [
        [kibitz.parse_card(code)] for code in ("5H", "JC", "KH", "5S")]
    assert kingsdown_1.pile("r5")[-1] == kibitz.parse_card("AD")
    assert kingsdown_1.pile("r3")[-1] == kibitz.parse_card("4H")
    assert kingsdown_1.pile("t5")[-1] == kibitz.parse_card("5S")
    assert kingsdown_1.pile("r8")[-1] == kibitz.parse_card("2S")
    assert kingsdown_1.pile("t1")[-1] == kibitz.parse_card("3D")


def test_canonical_text_of_a_legal_move(grand_duchess_1: State) -> None:
    """A legal move in canonical text is returned as that move."""
    assert grand_duchess_1.parse_move("t3>f7") == Move("t3", "f7")
    assert grand_duchess_1.parse_move("deal") is DEAL


def test_shorthand_with_one_fit(grand_duchess_1: State, kingsdown_1: State) -> None:
    """A shorthand that fits exactly one legal move is that move."""
    assert grand_duchess_1.parse_move("t3>f") == Move("t3", "f7")
    assert grand_duchess_1.parse_move("t3") == Move("t3", "f7")
    assert kingsdown_1.parse_move("r3>t") == Move("r3", "t5")
    assert kingsdown_1.parse_move("r8>t") == Move("r8", "t1")
    assert kingsdown_1.parse_move("r3") == Move("r3", "t5")


def test_shorthand_with_two_fits_is_ambiguous(kingsdown_1: State) -> None:
    """An ace that fits two empty foundations: ``r5>f`` names both choices."""
    with pytest.raises(AmbiguousMoveError) as caught:
        kingsdown_1.parse_move("r5>f")
    message = str(caught.value)
    assert "r5>f4" in message and "r5>f8" in message
    with pytest.raises(AmbiguousMoveError):
        kingsdown_1.parse_move("r5")
    assert kingsdown_1.parse_move("r5>f8") == Move("r5", "f8")


def test_shorthand_with_no_fit_is_illegal(grand_duchess_1: State) -> None:
    """A shorthand that fits no legal move is illegal, not malformed."""
    with pytest.raises(IllegalMoveError) as caught:
        grand_duchess_1.parse_move("t1>f")
    assert str(caught.value) == (
        "The 5♥ can't go to the foundation f3: it builds up in hearts from the ace, so it starts with "
        "the A♥; nor to the foundation f7: it builds down in hearts from the king, so it starts with the K♥.")


@pytest.mark.parametrize("text", ["t9>f1", "t3>", "x1>f1", "", "hello", "t3>>f5", "f>t1"])
def test_malformed_text_in_a_position(grand_duchess_1: State, text: str) -> None:
    """Text that is no move at all raises InvalidMoveError, even in a position."""
    with pytest.raises(InvalidMoveError):
        grand_duchess_1.parse_move(text)


@pytest.mark.parametrize("text", ["t3>t3", "t1#1>f1/2", "t2>t4/0"])
def test_malformed_full_moves_in_a_position(grand_duchess_1: State, text: str) -> None:
    """A full move that parse_move rejects is malformed in any position too."""
    with pytest.raises(InvalidMoveError):
        grand_duchess_1.parse_move(text)


def test_illegal_from_an_empty_pile(grand_duchess_1: State) -> None:
    """Moving from an empty pile is illegal and the message says the pile is empty."""
    with pytest.raises(IllegalMoveError) as caught:
        grand_duchess_1.parse_move("f1>t1")
    assert str(caught.value) == "The foundation f1 is empty."


def test_illegal_face_down_card(grand_duchess_1: State) -> None:
    """The face-down reserve and the stock cannot be played; the message says so."""
    for text in ("r1>f1", "r2>f5"):
        with pytest.raises(IllegalMoveError) as caught:
            grand_duchess_1.parse_move(text)
        assert str(caught.value) == "That card is face down: the reserve turns face up when a deal empties the stock."
    with pytest.raises(IllegalMoveError) as caught:
        grand_duchess_1.parse_move("s>t1")
    assert str(caught.value) == "Cards leave the stock only when it is dealt."


def test_illegal_target_says_what_the_target_takes(grand_duchess_1: State, kingsdown_1: State) -> None:
    """A target that does not take the card: the message names the card and the target's rule."""
    with pytest.raises(IllegalMoveError) as caught:
        grand_duchess_1.parse_move("t3>f3")
    assert str(caught.value) == ("The K♥ can't go to the foundation f3: it builds up in hearts from the ace, "
                                 "so it starts with the A♥.")
    with pytest.raises(IllegalMoveError) as caught:
        kingsdown_1.parse_move("r5>f1")
    assert str(caught.value) == ("The A♦ can't go to the foundation f1: it builds up in clubs from the ace, "
                                 "so it starts with the A♣.")


def test_illegal_pile_missing_from_the_game(grand_duchess_1: State) -> None:
    """A well-formed pile name that the game lacks is illegal there."""
    with pytest.raises(IllegalMoveError) as caught:
        grand_duchess_1.parse_move("t7>f1")
    assert "no pile t7" in str(caught.value)
    with pytest.raises(IllegalMoveError):
        grand_duchess_1.parse_move("w>f1")


def test_illegal_too_many_cards(kingsdown_1: State) -> None:
    """Asking for more cards than the pile has is illegal, and says how many there are."""
    with pytest.raises(IllegalMoveError) as caught:
        kingsdown_1.parse_move("t1>t2/3")
    assert "only 1" in str(caught.value)


def test_deal_when_not_allowed() -> None:
    """Duchess cannot deal before the base rank is chosen."""
    duchess = kibitz.game("duchess").deal(1)
    with pytest.raises(IllegalMoveError) as caught:
        duchess.parse_move("deal")
    assert "deal" in str(caught.value)


def test_apply_rejects_illegal_text(grand_duchess_1: State) -> None:
    """``apply`` with text checks legality the same way and leaves the state unchanged."""
    before = str(grand_duchess_1)
    with pytest.raises(IllegalMoveError):
        grand_duchess_1.apply("t1>f1")
    assert str(grand_duchess_1) == before
    after = grand_duchess_1.apply("t3>f7")
    assert after.cards("f7") == [kibitz.parse_card("KH")]
    assert after.pile("t3") == b""
