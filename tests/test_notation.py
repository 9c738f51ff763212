"""State notation: the one-line form, the transcript layout object, and the player's view."""

from __future__ import annotations

import random

import pytest

import kibitz
from kibitz.cards import FACE_DOWN, IDENTITY, parse_card
from kibitz.errors import NotationError
from kibitz.notation import check_state, format_state, layout_of, parse_state, state_from_layout
from kibitz.state import State

from conftest import GAMES_AND_RULESETS

DEAL_NUMBERS = [1, 2, 617, 31999, 32000, 123456789, 99999999999999999999]


def play_randomly(state: State, moves: int, seed: int) -> list[State]:
    """The states met while playing up to ``moves`` random legal moves from ``state``."""
    rng = random.Random(seed)
    states = [state]
    for _ in range(moves):
        legal = states[-1].legal_moves
        if not legal:
            break
        states.append(states[-1].apply(rng.choice(legal)))
    return states


def relocate(state: State, codes: list[str], target: str) -> State:
    """``state`` with each card taken from wherever it first lies (outside ``target``)
    and put face up on top of ``target``; the result is not checked."""
    game = state.game
    piles = [bytearray(pile) for pile in state.piles]
    goal = game.pile_index(target)
    for code in codes:
        wanted = parse_card(code)
        for i, pile in enumerate(piles):
            found = next((k for k, c in enumerate(pile) if c & IDENTITY == wanted), None)
            if i != goal and found is not None:
                del pile[found]
                break
        else:
            raise AssertionError(f"no {code} outside {target}")
        piles[goal].append(wanted)
    return State(game, tuple(bytes(pile) for pile in piles), state.round, state.base)


def with_field(text: str, name: str, value: str | None) -> str:
    """The one-line ``text`` with field ``name`` set to ``value`` (dropped when ``None``)."""
    tokens = text.split()
    out = []
    for token in tokens:
        if token.partition("=")[0] == name and "=" in token:
            if value is not None:
                out.append(f"{name}={value}")
        else:
            out.append(token)
    assert out != tokens or value is not None
    return " ".join(out)


def field(text: str, name: str) -> str:
    """The value of field ``name`` in the one-line ``text``."""
    for token in text.split():
        key, _, value = token.partition("=")
        if key == name:
            return value
    raise AssertionError(f"no field {name}")


# -- round trips -------------------------------------------------------------

@pytest.mark.parametrize("number", DEAL_NUMBERS)
def test_openings_round_trip(any_game: kibitz.Game, number: int) -> None:
    """Every game's opening survives format then parse, and formats identically again."""
    state = any_game.deal(number)
    text = format_state(state)
    parsed = parse_state(text)
    assert parsed == state
    assert parsed.game is any_game
    assert format_state(parsed) == text
    assert str(state) == text


def test_state_text_shape() -> None:
    """The form names game, ruleset, round and base, then every pile in layout order."""
    game = kibitz.game("grand-duchess", "pysolfc")
    text = format_state(game.deal(1))
    tokens = text.split()
    assert tokens[:4] == ["grand-duchess", "pysolfc", "round=1", "base=-"]
    assert [token.partition("=")[0] for token in tokens[4:]] == game.pile_names()
    assert field(text, "t1") == "5H"
    assert field(text, "r1") == "3d"
    assert field(text, "r2") == "5h"
    assert field(text, "f1") == ""
    assert len(field(text, "s").split(",")) == 104 - 6


@pytest.mark.parametrize("slug,ruleset", GAMES_AND_RULESETS)
def test_played_states_round_trip(slug: str, ruleset: str) -> None:
    """States met in random play (deals, redeals, base ranks, face changes) round-trip."""
    game = kibitz.game(slug, ruleset)
    for seed in range(3):
        for state in play_randomly(game.deal(seed + 5), 150, seed):
            assert parse_state(format_state(state)) == state
            assert state_from_layout(game, layout_of(state)) == state


def test_round_trip_keeps_round_and_base() -> None:
    """A Duchess state in round 2 with base rank K (KD played from r1) keeps both."""
    state = kibitz.game("duchess").deal(1).apply("r1>f4")
    assert state.base == 12
    state = State(state.game, state.piles, 2, state.base)
    text = format_state(state)
    assert text.split()[2:4] == ["round=2", "base=K"]
    parsed = parse_state(text)
    assert parsed == state and parsed.round == 2 and parsed.base == 12


def test_layout_shape() -> None:
    """The layout object has the transcript keys and space-separated piles, bottom to top."""
    state = kibitz.game("duchess").deal(1)
    layout = layout_of(state)
    assert set(layout) == {"stock", "waste", "foundations", "tableau", "reserve", "round", "base"}
    assert layout["tableau"] == ["AD", "QC", "KH", "3H"]
    assert layout["reserve"][0] == "JD 5D KD"
    assert layout["waste"] == "" and layout["round"] == 1 and layout["base"] is None
    assert len(layout["stock"].split()) == 36 and layout["stock"] == layout["stock"].lower()
    assert layout_of(state.apply("r1>f4"))["base"] == "K"


def test_layout_without_waste() -> None:
    """Games without a waste write ``""`` and refuse cards in it."""
    state = kibitz.game("tournament").deal(1)
    layout = layout_of(state)
    assert layout["waste"] == ""
    layout["waste"] = "AC"
    with pytest.raises(NotationError, match="no waste"):
        state_from_layout(state.game, layout)


def test_layout_rejections() -> None:
    """A layout with a missing key, a wrong pile count or a lost card is refused."""
    state = kibitz.game("cicely").deal(3)
    game = state.game
    layout = layout_of(state)
    del layout["stock"]
    with pytest.raises(NotationError, match="missing 'stock'"):
        state_from_layout(game, layout)
    layout = layout_of(state)
    layout["tableau"] = layout["tableau"][:7]
    with pytest.raises(NotationError, match="tableau: 7 piles, Cicely has 8"):
        state_from_layout(game, layout)
    layout = layout_of(state)
    layout["reserve"][0] = ""
    with pytest.raises(NotationError, match="time"):
        state_from_layout(game, layout)


# -- rejections of the one-line form --------------------------------------------

@pytest.fixture
def tournament_text() -> str:
    """Tournament #1 in the one-line form."""
    return format_state(kibitz.game("tournament").deal(1))


def test_reject_unknown_game(tournament_text: str) -> None:
    """An unknown game is refused, and the message lists the games."""
    with pytest.raises(NotationError) as caught:
        parse_state(tournament_text.replace("tournament", "chess", 1))
    message = str(caught.value)
    assert "unknown game 'chess'" in message
    assert "grand-duchess" in message and "kingsdown-eights" in message


def test_reject_unknown_ruleset(tournament_text: str) -> None:
    """An unknown ruleset is refused, and the message lists the rulesets."""
    with pytest.raises(NotationError) as caught:
        parse_state(tournament_text.replace("standard", "casual", 1))
    message = str(caught.value)
    assert "'casual'" in message and "standard" in message and "pysolfc" in message


@pytest.mark.parametrize("name", ["s", "t1", "t6", "r8", "f5", "round", "base"])
def test_reject_missing_field(tournament_text: str, name: str) -> None:
    """A missing pile (or round, or base) is named."""
    with pytest.raises(NotationError) as caught:
        parse_state(with_field(tournament_text, name, None))
    assert "missing" in str(caught.value) and f"'{name}'" in str(caught.value)


@pytest.mark.parametrize("extra", ["t7=", "w=", "r9=", "score=3"])
def test_reject_unknown_field(tournament_text: str, extra: str) -> None:
    """A field the game does not have is named (Tournament has six columns and no waste)."""
    with pytest.raises(NotationError) as caught:
        parse_state(f"{tournament_text} {extra}")
    assert "unknown" in str(caught.value) and repr(extra.partition("=")[0]) in str(caught.value)


@pytest.mark.parametrize("name", ["t1", "s", "round", "base"])
def test_reject_duplicated_field(tournament_text: str, name: str) -> None:
    """A field given twice is named, even with the same value."""
    duplicate = f"{name}={field(tournament_text, name)}"
    with pytest.raises(NotationError) as caught:
        parse_state(f"{tournament_text} {duplicate}")
    assert f"{name} given twice" in str(caught.value)


def test_reject_lost_card(tournament_text: str) -> None:
    """A card missing from the layout is named with its count."""
    cells = [field(tournament_text, f"r{n}") for n in range(1, 9)]
    assert cells[0] == "3D"
    with pytest.raises(NotationError) as caught:
        parse_state(with_field(tournament_text, "r1", ""))
    message = str(caught.value)
    assert "3D x1" in message and "2 time" in message


def test_reject_duplicated_card() -> None:
    """In a one-pack game a second copy of a card is refused."""
    text = format_state(kibitz.game("duchess").deal(1))
    assert field(text, "t1") == "AD"
    with pytest.raises(NotationError) as caught:
        parse_state(with_field(text, "t1", "AD,AD"))
    assert "AD x2" in str(caught.value) and "1 time" in str(caught.value)


def test_reject_swapped_card(tournament_text: str) -> None:
    """One card replaced by another: both the lost and the extra card are named."""
    with pytest.raises(NotationError) as caught:
        parse_state(with_field(tournament_text, "r1", "3H"))
    message = str(caught.value)
    assert "3D x1" in message and "3H x3" in message


@pytest.mark.parametrize("slug,value,limit", [
    ("grand-duchess", "5", "1..4"), ("grand-duchess", "0", "1..4"),
    ("duchess", "3", "1..2"), ("tournament", "4", "1..3"),
    ("cicely", "2", "1..1"), ("kingsdown-eights", "2", "1..1"),
])
def test_reject_round_out_of_range(slug: str, value: str, limit: str) -> None:
    """The round goes from 1 to one more than the game's redeals."""
    text = format_state(kibitz.game(slug).deal(1))
    with pytest.raises(NotationError) as caught:
        parse_state(with_field(text, "round", value))
    assert f"round {value}" in str(caught.value) and limit in str(caught.value)


@pytest.mark.parametrize("value", ["-1", "one", "", "1.0", "\u00b2", "+1"])
def test_reject_round_not_a_number(tournament_text: str, value: str) -> None:
    """A round that is not a plain number is a NotationError, never another exception."""
    with pytest.raises(NotationError) as caught:
        parse_state(with_field(tournament_text, "round", value))
    assert "round" in str(caught.value)


def test_highest_round_accepted() -> None:
    """The last round of each game is valid."""
    for slug, last in [("grand-duchess", 4), ("duchess", 2), ("tournament", 3), ("cicely", 1)]:
        text = with_field(format_state(kibitz.game(slug).deal(1)), "round", str(last))
        assert parse_state(text).round == last


@pytest.mark.parametrize("slug", ["grand-duchess", "parisienne", "tournament",
                                  "napoleons-flank", "cicely", "kingsdown-eights"])
def test_reject_base_in_game_without_one(slug: str) -> None:
    """Only Duchess has a base rank."""
    text = format_state(kibitz.game(slug).deal(1))
    with pytest.raises(NotationError) as caught:
        parse_state(with_field(text, "base", "A"))
    assert "no base rank" in str(caught.value)


def test_base_in_duchess() -> None:
    """Duchess accepts any rank as base, and refuses what is not a rank."""
    text = format_state(kibitz.game("duchess").deal(1))
    assert parse_state(with_field(text, "base", "T")).base == 9
    with pytest.raises(NotationError) as caught:
        parse_state(with_field(text, "base", "Z"))
    assert "'Z'" in str(caught.value) and "rank" in str(caught.value)
    with pytest.raises(NotationError):
        parse_state(with_field(text, "base", "10"))


@pytest.mark.parametrize("slug", ["tournament", "napoleons-flank", "cicely"])
def test_reject_cell_with_two_cards(slug: str) -> None:
    """A reserve cell holds one card at most (the card count stays right)."""
    state = kibitz.game(slug).deal(1)
    stock_top = state.pile("s")[-1] & IDENTITY
    crowded = relocate(state, [kibitz.format_card(stock_top)], "r3")
    with pytest.raises(NotationError) as caught:
        parse_state(format_state(crowded))
    assert "cell r3 holds 2 cards" in str(caught.value)


def test_fanned_reserve_may_hold_many_cards() -> None:
    """Kingsdown Eights reserve piles are fans, not cells."""
    state = kibitz.game("kingsdown-eights").deal(1)
    assert len(state.pile("r3")) == 4
    assert parse_state(format_state(state)) == state


def test_reject_foundation_of_14_cards() -> None:
    """No foundation holds more than 13 cards (two packs give enough clubs for 14)."""
    state = kibitz.game("kingsdown-eights").deal(1)
    clubs = [rank + "C" for rank in "A23456789TJQK"]
    full = relocate(state, clubs, "f1")
    assert parse_state(format_state(full)).cards("f1") == [parse_card(c) for c in clubs]
    over = relocate(full, ["AC"], "f1")
    with pytest.raises(NotationError) as caught:
        parse_state(format_state(over))
    assert "f1 holds 14 cards" in str(caught.value)


def test_reject_bad_card_in_a_pile(tournament_text: str) -> None:
    """A bad card code is reported with its pile."""
    with pytest.raises(NotationError) as caught:
        parse_state(with_field(tournament_text, "t2", "6C,6H,TC,8X"))
    message = str(caught.value)
    assert "pile t2" in message and "'8X'" in message


@pytest.mark.parametrize("text", [
    "", "   ", "hello", "grand-duchess", "grand-duchess standard",
    "grand-duchess standard round=1", "\x00\x01\x02 \xff",
    "round=1 base=- grand-duchess standard",
])
def test_reject_garbage(text: str) -> None:
    """Text that is no state raises NotationError (never another exception)."""
    with pytest.raises(NotationError):
        parse_state(text)


def test_reject_token_without_equals(tournament_text: str) -> None:
    """Every field is name=value."""
    with pytest.raises(NotationError) as caught:
        parse_state(tournament_text + " garbage")
    assert "'garbage' is not name=value" in str(caught.value)


def test_check_state_accepts_face_bits() -> None:
    """Face-down cards count as the same card for the multiset check."""
    state = kibitz.game("grand-duchess").deal(1)
    assert any(c & FACE_DOWN for c in state.pile("r1"))
    check_state(state)


# -- the player's view ---------------------------------------------------------

def view_field(state: State, name: str) -> list[str]:
    """The codes the view shows for pile ``name``."""
    value = field(str(state.view()), name)
    return value.split(",") if value else []


def test_view_grand_duchess_opening() -> None:
    """The reserve is face down and the stock hidden; the tableau shows."""
    state = kibitz.game("grand-duchess").deal(1)
    assert view_field(state, "r1") == ["??"]
    assert view_field(state, "r2") == ["??"]
    assert view_field(state, "s") == ["??"] * 98
    assert [view_field(state, f"t{n}") for n in range(1, 5)] == [["5H"], ["JC"], ["KH"], ["5S"]]
    assert state.view().pile("r1") == (None,)
    text = str(state.view())
    assert text.split()[:4] == ["grand-duchess", "standard", "round=1", "base=-"]


def test_view_grand_duchess_reserve_turned_up() -> None:
    """Once the stock runs out the reserve turns face up and everything is seen."""
    state = kibitz.game("grand-duchess").deal(1)
    while state.pile("s"):
        state = state.apply("deal")
    assert len(state.pile("r1")) > 1
    assert str(state.view()) == format_state(state)
    assert "??" not in str(state.view())


def test_view_grand_duchess_later_deals() -> None:
    """Fanned tableau piles show every card; the growing reserve stays hidden."""
    state = kibitz.game("grand-duchess").deal(1).apply("deal").apply("deal")
    for n in range(1, 5):
        shown = view_field(state, f"t{n}")
        assert len(shown) == 3 and "??" not in shown
        assert shown == field(format_state(state), f"t{n}").split(",")
    assert view_field(state, "r1") == ["??"] * 3
    assert view_field(state, "r2") == ["??"] * 3


@pytest.mark.parametrize("slug", ["napoleons-flank", "tournament"])
def test_view_squared_and_fanned_columns(slug: str) -> None:
    """Napoleon's Flank columns show only their top card; Tournament's show all four."""
    state = kibitz.game(slug).deal(1)
    full = format_state(state)
    for n in range(1, 7):
        cards = field(full, f"t{n}").split(",")
        assert len(cards) == 4
        expected = ["??"] * 3 + cards[-1:] if slug == "napoleons-flank" else cards
        assert view_field(state, f"t{n}") == expected
    for n in range(1, 9):
        assert view_field(state, f"r{n}") == [field(full, f"r{n}")]
    assert view_field(state, "s") == ["??"] * 72


def test_view_kingsdown_columns_and_fans() -> None:
    """Kingsdown Eights: a card built on a column hides the one under it; the fans show."""
    state = kibitz.game("kingsdown-eights").deal(1).apply("r3>t5")
    assert view_field(state, "t5") == ["??", "4H"]
    assert view_field(state, "t1") == ["3D"]
    assert view_field(state, "r1") == ["8D", "JD", "AS", "8C"]
    assert view_field(state, "r3") == ["4C", "JS", "QC"]


def test_view_shows_foundations_whole() -> None:
    """Foundation cards follow from the top card, so a view shows them all."""
    state = relocate(kibitz.game("kingsdown-eights").deal(1), ["AC", "2C", "3C"], "f1")
    assert view_field(state, "f1") == ["AC", "2C", "3C"]
    state = kibitz.game("parisienne").deal(1)
    assert [view_field(state, f"f{n}") for n in range(1, 9)] == [
        ["AC"], ["AS"], ["AH"], ["AD"], ["KC"], ["KS"], ["KH"], ["KD"]]


def test_view_stock_always_hidden(any_game: kibitz.Game) -> None:
    """Every game hides its whole stock, and a view never shows a face-down card."""
    for state in play_randomly(any_game.deal(7), 40, 7):
        view = state.view()
        assert all(c is None for c in view.pile("s"))
        for spec, pile, seen in zip(any_game.piles, state.piles, view.piles):
            assert len(seen) == len(pile)
            for c, shown in zip(pile, seen):
                assert shown is None or shown == c
                if c & FACE_DOWN:
                    assert shown is None, spec.name
