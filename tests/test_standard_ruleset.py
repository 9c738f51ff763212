"""The standard ruleset against the pysolfc ruleset, difference by difference (RULES.md).

Each test builds a concrete position, from a deal number or with ``parse_state``,
and shows the standard behaviour and, in the same test, the pysolfc behaviour. The
expectations are worked out from the text of the rules, not copied from the engine.
The last part covers rules both rulesets share that are easy to get wrong.
"""

from __future__ import annotations

from collections import Counter

import pytest

import kibitz
from kibitz import DEAL, IllegalMoveError, State
from kibitz.cards import ACE, KING, RANKS, format_card, parse_card
from kibitz.deals import fisher_yates, shuffle
from kibitz.notation import format_state, layout_of, parse_state

RULESETS = kibitz.RULESETS
GRAND_DUCHESS_LIKE = ["grand-duchess", "parisienne"]
TOURNAMENT_LIKE = ["tournament", "napoleons-flank"]
STARTED_FOUNDATIONS = dict(f1="AC", f2="AS", f3="AH", f4="AD", f5="KC", f6="KS", f7="KH", f8="KD")
"""An ace and a king of each suit home, as Parisienne starts (and Grand Duchess may reach)."""


# -- helpers ---------------------------------------------------------------------------------

def position(slug: str, ruleset: str, given: dict[str, str] | None = None, *, round: int = 1,
             base: str = "-", fill: str = "s", **named: str) -> State:
    """A state with the piles ``given`` and ``named`` (codes bottom to top, space-separated,
    lower case face down).

    Every card not named goes to the bottom of pile ``fill`` (face down in the stock,
    face up elsewhere) so that the state holds exactly the game's cards.
    """
    game = kibitz.game(slug, ruleset)
    piles = {**(given or {}), **named}
    used = Counter(parse_card(code) & 63 for text in piles.values() for code in text.split())
    assert all(n <= game.info.packs for n in used.values()), "a card named too often"
    rest = [format_card(c) for c in range(52) for _ in range(game.info.packs - used[c])]
    if fill == "s":
        rest = [code.lower() for code in rest]
    piles[fill] = " ".join(rest + piles.get(fill, "").split())
    fields = [slug, ruleset, f"round={round}", f"base={base}"]
    fields += [f"{name}={','.join(piles.get(name, '').split())}" for name in game.pile_names()]
    return parse_state(" ".join(fields))


def in_ruleset(state: State, ruleset: str) -> State:
    """The same piles, round and base in ``ruleset``."""
    text = format_state(state)
    return parse_state(text.replace(f" {state.game.ruleset} ", f" {ruleset} ", 1))


def moves(state: State, *, source: str | None = None, target: str | None = None) -> set[str]:
    """The legal moves (as text) from ``source`` and/or onto ``target``."""
    return {str(m) for m in state.legal_moves if not m.is_deal
            and (source is None or m.source == source) and (target is None or m.target == target)}


def pile(state: State, name: str) -> list[str]:
    """Pile ``name`` as card codes bottom to top (lower case face down)."""
    return [format_card(c) for c in state.pile(name)]


def down(codes: list[str]) -> list[str]:
    return [code.lower() for code in codes]


def dealing_order(state: State) -> list[str]:
    """The stock's cards in the order they will be dealt (top first), face up."""
    return [code.upper() for code in reversed(pile(state, "s"))]


def deal_until_stock_is_empty(state: State) -> State:
    while state.pile("s"):
        state = state.apply(DEAL)
    return state


# == Grand Duchess and Parisienne ==============================================================

@pytest.mark.parametrize("slug", GRAND_DUCHESS_LIKE)
@pytest.mark.parametrize("number", [1, 32000])
def test_grand_duchess_redeal_order(slug: str, number: int) -> None:
    """(a) standard: the tableau is dealt first, then r1, then r2; pysolfc: r2, r1, then the tableau."""
    end_of_round = deal_until_stock_is_empty(kibitz.game(slug, "standard").deal(number))
    layout = layout_of(end_of_round)
    t1, t2, t3, t4 = (text.split() for text in layout["tableau"])
    r1, r2 = (text.upper().split() for text in layout["reserve"])
    assert r1 and r2 and end_of_round.round == 1
    # t1 onto t2, that onto t3, that onto t4, turned over: bottom of t4 first, top of t1 last.
    tableau_order = t4 + t3 + t2 + t1
    expected = {"standard": tableau_order + r1 + r2, "pysolfc": r2 + r1 + tableau_order}
    assert expected["standard"] != expected["pysolfc"]
    for ruleset in RULESETS:
        before = in_ruleset(end_of_round, ruleset)
        after = before.apply(DEAL)
        order = expected[ruleset]
        # The redeal at once deals six: r1 (face down), t1..t4, r2 (face down).
        assert after.round == 2
        assert pile(after, "r1") == [order[0].lower()]
        assert [pile(after, f"t{k}") for k in range(1, 5)] == [[code] for code in order[1:5]]
        assert pile(after, "r2") == [order[5].lower()]
        assert dealing_order(after) == order[6:]
        assert pile(after, "s") == down(order[6:][::-1])


@pytest.mark.parametrize("slug", GRAND_DUCHESS_LIKE)
def test_grand_duchess_foundation_transfer_only_in_pysolfc(slug: str) -> None:
    """(b) 7S on the up pile and 8S on the down pile: either may move onto the other in pysolfc only."""
    piles = dict(STARTED_FOUNDATIONS, f2="AS 2S 3S 4S 5S 6S 7S", f6="KS QS JS TS 9S 8S", t1="4D")
    standard = position(slug, "standard", piles)
    pysolfc = position(slug, "pysolfc", piles)
    assert not any(m.source.startswith("f") for m in standard.legal_moves)
    assert {str(m) for m in pysolfc.legal_moves if m.source.startswith("f")} == {"f2>f6", "f6>f2"}
    with pytest.raises(IllegalMoveError):
        standard.apply("f2>f6")
    moved = pysolfc.apply("f2>f6")
    assert pile(moved, "f2")[-1] == "6S" and pile(moved, "f6")[-2:] == ["8S", "7S"]
    assert "f6>f2" in moves(moved)  # and back again


# == Duchess ==================================================================================

DUCHESS_BEFORE_BASE = dict(r1="2C 9D 6S", r2="3S TD 4C", r3="8C 5D TH", r4="7C 2H QD",
                           t1="7H", t2="2D", t3="JC", t4="9H")


def test_duchess_before_the_base_reserve_to_tableau_only_in_pysolfc() -> None:
    """(a) before the base rank only reserve to foundation (standard); also reserve to tableau (pysolfc)."""
    to_foundations = {"r1>f2", "r2>f1", "r3>f3", "r4>f4"}  # any rank may start the first foundation
    standard = position("duchess", "standard", DUCHESS_BEFORE_BASE)
    pysolfc = position("duchess", "pysolfc", DUCHESS_BEFORE_BASE)
    assert {str(m) for m in standard.legal_moves} == to_foundations
    # 6S on 7H and TH on JC build down in alternating colours; still no deal, no tableau move.
    assert {str(m) for m in pysolfc.legal_moves} == to_foundations | {"r1>t1", "r3>t3"}
    with pytest.raises(IllegalMoveError):
        standard.apply("r1>t1")
    assert pysolfc.apply("r1>t1").base is None
    # Once the base is chosen (4C: base rank 4) the standard game builds from the reserve too.
    started = standard.apply("r2>f1")
    assert started.base == RANKS.index("4")
    assert {"r1>t1", "r3>t3"} <= moves(started) and DEAL in started.legal_moves


def test_duchess_first_move_from_deal_one() -> None:
    """Deal #1: reserve tops KD KC 9S 5S; the standard first moves are the four reserve tops home."""
    standard = kibitz.game("duchess", "standard").deal(1)
    pysolfc = kibitz.game("duchess", "pysolfc").deal(1)
    assert [pile(standard, f"r{k}")[-1] for k in range(1, 5)] == ["KD", "KC", "9S", "5S"]
    assert {str(m) for m in standard.legal_moves} == {"r1>f4", "r2>f1", "r3>f2", "r4>f2"}
    # KC goes on AD (K on A) in pysolfc.
    assert {str(m) for m in pysolfc.legal_moves} == {"r1>f4", "r2>f1", "r2>t1", "r3>f2", "r4>f2"}


def test_duchess_runs_in_standard_whole_piles_in_pysolfc() -> None:
    """(b) standard moves any run at the top of a pile; pysolfc only a whole pile, singles only home."""
    piles = dict(f1="AC", f2="AS 2S 3S 4S 5S 6S", t1="9C 8H 7S", t2="TH", t3="9S", t4="8D",
                 r1="2H", r2="3H", r3="4H", r4="5H")
    standard = position("duchess", "standard", piles, base="A")
    pysolfc = position("duchess", "pysolfc", piles, base="A")
    # 7S on 8D, 8H-7S on 9S, 9C-8H-7S on TH; 7S also to its foundation.
    assert moves(standard, source="t1") == {"t1>t4", "t1>t3/2", "t1>t2/3", "t1>f2"}
    assert moves(pysolfc, source="t1") == {"t1>t2/3", "t1>f2"}
    split = standard.apply("t1>t3/2")
    assert pile(split, "t1") == ["9C"] and pile(split, "t3") == ["9S", "8H", "7S"]
    for text in ("t1>t4", "t1>t3/2"):
        with pytest.raises(IllegalMoveError):
            pysolfc.apply(text)


SPACE_PILES = dict(f1="AC", t2="5D", t3="9S 8H", t4="KC")
"""t1 is the space; t2 a one-card pile, t3 a two-card sequence, t4 a king."""


@pytest.mark.parametrize("case,reserve,waste,standard_fills,pysolfc_fills", [
    ("reserve left", "3D", "6C", {"r1>t1"}, {"r1>t1", "t2>t1", "t3>t1/2", "t4>t1"}),
    ("reserve gone", "", "6C", {"w>t1"}, {"w>t1", "t2>t1", "t3>t1/2", "t4>t1"}),
    ("reserve and waste gone", "", "", {"s>t1"}, {"t2>t1", "t3>t1/2", "t4>t1"}),
])
def test_duchess_spaces(case: str, reserve: str, waste: str, standard_fills: set[str],
                        pysolfc_fills: set[str]) -> None:
    """(c) standard: reserve, then waste, then the stock top.
    pysolfc: reserve and whole piles, the waste once the reserve is gone, never the stock."""
    piles = dict(SPACE_PILES, r1=reserve, w=waste, s="4d")
    standard = position("duchess", "standard", piles, base="A")
    pysolfc = position("duchess", "pysolfc", piles, base="A")
    assert moves(standard, target="t1") == standard_fills, case
    assert moves(pysolfc, target="t1") == pysolfc_fills, case
    assert not moves(pysolfc, source="s")
    if "s>t1" in standard_fills:
        filled = standard.apply("s>t1")
        assert pile(filled, "t1") == ["4D"], "the stock's top card, turned face up"
        assert len(filled.pile("s")) == len(standard.pile("s")) - 1
        assert moves(standard, source="s") == {"s>t1"}, "the stock top only ever fills a space"


# == Tournament and Napoleon's Flank ============================================================

def has_ace_or_king(indices: list[int]) -> bool:
    return any(i % 13 in (ACE, KING) for i in indices)


def dealt_opening(pack: list[int]) -> dict[str, object]:
    """Tournament's opening from ``pack`` (creation indices, last on top): a card per cell,
    then packets of four."""
    order = [format_card(i % 52) for i in reversed(pack)]
    return {"reserve": order[:8],
            "tableau": [" ".join(order[8 + 4 * k:12 + 4 * k]) for k in range(6)],
            "stock": " ".join(down(order[32:][::-1]))}


@pytest.mark.parametrize("slug", TOURNAMENT_LIKE)
@pytest.mark.parametrize("number", [2, 5, 7])
def test_tournament_reshuffle_or_relocation(slug: str, number: int) -> None:
    """(a) standard shuffles again (the generator continuing) until a cell holds an ace or king;
    pysolfc moves the ace or king nearest the bottom to the top."""
    first, generator = shuffle(number, 2)
    assert not has_ace_or_king(first[-8:]), "precondition: the first shuffle gives the cells no ace or king"
    standard = layout_of(kibitz.game(slug, "standard").deal(number))
    pysolfc = layout_of(kibitz.game(slug, "pysolfc").deal(number))

    again = list(first)
    while not has_ace_or_king(again[-8:]):
        fisher_yates(again, generator)
    assert {k: standard[k] for k in ("reserve", "tableau", "stock")} == dealt_opening(again)
    assert any(cell[0] in "AK" for cell in standard["reserve"])

    nearest_bottom = next(i for i in first if i % 13 in (ACE, KING))
    original = [format_card(i % 52) for i in reversed(first)]  # dealing order of the first shuffle
    assert pysolfc["reserve"] == [format_card(nearest_bottom % 52)] + original[:7]
    assert pysolfc["tableau"][0].split()[0] == original[7], "the card meant for r8 starts t1"
    assert standard != pysolfc


@pytest.mark.parametrize("slug", TOURNAMENT_LIKE)
def test_tournament_openings_agree_when_the_cells_hold_an_ace_or_king(slug: str) -> None:
    pack, _ = shuffle(1, 2)
    assert has_ace_or_king(pack[-8:])
    assert layout_of(kibitz.game(slug, "standard").deal(1)) == layout_of(kibitz.game(slug, "pysolfc").deal(1))


@pytest.mark.parametrize("slug", TOURNAMENT_LIKE)
def test_tournament_empty_cell_takes_foundation_and_cell_cards_only_in_pysolfc(slug: str) -> None:
    """(b) an empty cell takes a column's top card; in pysolfc also a foundation top or a cell card."""
    piles = dict(f1="AC 2C 3C", f5="KC QC JC TC 9C 8C 7C 6C 5C 4C", t1="8H", t2="QD",
                 r2="9D", r3="5H", r4="5H", r5="6S", r6="6S", r7="7D", r8="7D")
    standard = position(slug, "standard", piles, fill="t6")
    pysolfc = position(slug, "pysolfc", piles, fill="t6")
    from_columns = {"t1>r1", "t2>r1", "t6>r1"}
    assert moves(standard, target="r1") == from_columns
    from_cells = {f"r{k}>r1" for k in range(2, 9)}
    assert moves(pysolfc, target="r1") == from_columns | {"f1>r1", "f5>r1"} | from_cells
    # Foundation transfer (3C up, 4C down) is allowed in both rulesets.
    for state in (standard, pysolfc):
        assert {"f1>f5", "f5>f1"} <= moves(state)


# == rules both rulesets share ===============================================================

@pytest.mark.parametrize("slug", GRAND_DUCHESS_LIKE)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_grand_duchess_deals_six_with_the_reserve_face_down(slug: str, ruleset: str) -> None:
    opening = kibitz.game(slug, ruleset).deal(1)
    order = dealing_order(opening)
    dealt = opening.apply(DEAL)
    expected = {"r1": order[0].lower(), "t1": order[1], "t2": order[2], "t3": order[3],
                "t4": order[4], "r2": order[5].lower()}
    for name, code in expected.items():
        assert pile(dealt, name) == pile(opening, name) + [code]
    assert dealing_order(dealt) == order[6:]
    assert not moves(dealt, source="r1") and not moves(dealt, source="r2")


@pytest.mark.parametrize("slug", GRAND_DUCHESS_LIKE)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_grand_duchess_reserve_turns_up_when_the_stock_runs_out(slug: str, ruleset: str) -> None:
    """A short last deal stops where the cards run out; then any reserve card may go home, by '#K'."""
    state = position(slug, ruleset, STARTED_FOUNDATIONS, fill="t1", s="qd", r1="2s 5d 2c", r2="qh")
    assert not moves(state, source="r1") and not moves(state, source="r2"), "face down: not playable"
    dealt = state.apply(DEAL)  # one card left: it goes to r1, then the reserve turns face up
    assert pile(dealt, "r1") == ["2S", "5D", "2C", "QD"] and pile(dealt, "r2") == ["QH"]
    assert not dealt.pile("s") and [pile(dealt, f"t{k}") for k in (2, 3, 4)] == [[], [], []]
    # 2S on AS, 2C on AC, QD on KD, QH on KH; 5D fits nowhere.
    assert moves(dealt, source="r1") | moves(dealt, source="r2") == {"r1#0>f2", "r1#2>f1", "r1>f8", "r2>f7"}
    with pytest.raises(IllegalMoveError):
        dealt.apply("r1#3>f8")  # the top card is written r1>f8
    closed = dealt.apply("r1#2>f1")
    assert pile(closed, "r1") == ["2S", "5D", "QD"], "the cards above close up"
    assert pile(closed, "f1") == ["AC", "2C"]
    assert DEAL in dealt.legal_moves, "the stock is empty: a redeal is allowed"


@pytest.mark.parametrize("slug", GRAND_DUCHESS_LIKE)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_grand_duchess_fourth_round_deals_four_without_reserve(slug: str, ruleset: str) -> None:
    """The third redeal gathers everything; round 4 deals t1..t4 only, until the stock is out."""
    third = position(slug, ruleset, STARTED_FOUNDATIONS, round=3, fill="t3",
                     t1="5H 6H", t2="7H", t4="8H 9H", r1="TH", r2="JH 2D")
    t1, t2, t3, t4 = (pile(third, f"t{k}") for k in range(1, 5))
    r1, r2 = pile(third, "r1"), pile(third, "r2")
    tableau_order = t4 + t3 + t2 + t1
    order = tableau_order + r1 + r2 if ruleset == "standard" else r2 + r1 + tableau_order
    state = third.apply(DEAL)
    assert state.round == 4
    deals = 1
    while True:
        assert not state.pile("r1") and not state.pile("r2"), "no reserve in round 4"
        for k in range(4):
            assert pile(state, f"t{k + 1}") == order[k:4 * deals:4]
        assert dealing_order(state) == order[4 * deals:]
        if DEAL not in state.legal_moves:
            break
        state = state.apply(DEAL)
        deals += 1
    assert not state.pile("s") and deals == -(-len(order) // 4), "no redeal after round 4"


@pytest.mark.parametrize("slug", GRAND_DUCHESS_LIKE)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_grand_duchess_redeal_limit(slug: str, ruleset: str) -> None:
    piles = dict(t1="5H", t2="7H", t3="9H", t4="6D", **STARTED_FOUNDATIONS)  # no card fits
    for round in (1, 2, 3):
        state = position(slug, ruleset, piles, round=round, fill="t1")
        assert {str(m) for m in state.legal_moves} == {"deal"}
    last = position(slug, ruleset, piles, round=4, fill="t1")
    assert not last.legal_moves and last.is_over() and not last.is_won()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_duchess_base_rank_wrap_and_thirteen_cards(ruleset: str) -> None:
    """Base J: the clubs run J Q K then A; a full suit takes nothing; an empty pile takes only a jack."""
    state = position("duchess", ruleset, base="J", f1="JC QC KC",
                     f2="JS QS KS AS 2S 3S 4S 5S 6S 7S 8S 9S TS", f4="JD",
                     t1="AC", t2="JH", t3="AH", t4="QD")
    assert {m for m in moves(state) if ">f" in m} == {"t1>f1", "t2>f3", "t4>f4"}
    assert not moves(state, target="f2")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_duchess_base_set_by_first_move(ruleset: str) -> None:
    """Deal #1: KD home first makes K the base; AD then follows KD, and empty foundations take kings."""
    state = kibitz.game("duchess", ruleset).deal(1).apply("r1>f4")
    assert state.base == KING
    assert {m for m in moves(state) if ">f" in m} == {"r2>f1", "t3>f3", "t1>f4"}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_duchess_one_redeal_turns_the_waste_over(ruleset: str) -> None:
    state = position("duchess", ruleset, base="A", f1="AC", s="", w="2C 3C 4C", fill="t1")
    turned = state.apply(DEAL)
    assert turned.round == 2 and not turned.pile("w")
    assert pile(turned, "s") == ["4c", "3c", "2c"], "turned over, not shuffled: 2C is dealt first"
    again = turned.apply(DEAL)
    assert pile(again, "w") == ["2C"]
    empty = position("duchess", ruleset, round=2, base="A", f1="AC", s="", w="2C 3C 4C", fill="t1")
    assert DEAL not in empty.legal_moves, "one redeal only"


@pytest.mark.parametrize("slug", TOURNAMENT_LIKE)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_tournament_deals_four_per_column(slug: str, ruleset: str) -> None:
    opening = kibitz.game(slug, ruleset).deal(1)
    order = dealing_order(opening)
    dealt = opening.apply(DEAL)
    for k in range(6):
        assert pile(dealt, f"t{k + 1}") == pile(opening, f"t{k + 1}") + order[4 * k:4 * k + 4]
    assert dealing_order(dealt) == order[24:]


@pytest.mark.parametrize("slug", TOURNAMENT_LIKE)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_tournament_refills_an_emptied_column(slug: str, ruleset: str) -> None:
    """Four from the stock (its top card at the bottom of the column), fewer when short, none when empty."""
    state = position(slug, ruleset, fill="t6", s="2s 3s 5h 6h 7h 8h 9h",
                     t1="AC", t2="AS", t3="AH", t4="QC")
    state = state.apply("t1>f1")
    assert pile(state, "t1") == ["9H", "8H", "7H", "6H"]
    state = state.apply("t4>r1")  # moving to a cell empties a column too
    assert pile(state, "t4") == ["5H", "3S", "2S"] and not state.pile("s")
    state = state.apply("t2>f2")
    assert not state.pile("t2"), "nothing left to refill with"


@pytest.mark.parametrize("slug", TOURNAMENT_LIKE)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_tournament_redeal_gathers_the_columns(slug: str, ruleset: str) -> None:
    cells = dict(r1="2C", r2="3C", r3="4C", r4="5C", r5="6C", r6="7C", r7="8C", r8="9C")
    state = position(slug, ruleset, cells, fill="t6", s="", t1="TS JS", t2="QS", t3="KH 2H 3H")
    columns = [pile(state, f"t{k}") for k in range(1, 7)]
    order = [code for column in columns for code in column]  # bottom of t1 first, top of t6 last
    after = state.apply(DEAL)
    assert after.round == 2
    assert [pile(after, f"t{k + 1}") for k in range(6)] == [order[4 * k:4 * k + 4] for k in range(6)]
    assert dealing_order(after) == order[24:]
    assert [pile(after, f"r{k}") for k in range(1, 9)] == [pile(state, f"r{k}") for k in range(1, 9)]


def all_but_cells_home(slug: str, ruleset: str, in_tableau: str | None = None) -> State:
    """Up foundations A..Q, down foundations K..2, the four kings and four aces in the cells,
    the stock empty; ``in_tableau`` is one of those eight moved from its cell to t1."""
    piles = {f"f{k + 1}": " ".join(r + s for r in "A23456789TJQ") for k, s in enumerate("CSHD")}
    piles |= {f"f{k + 5}": " ".join(r + s for r in "KQJT98765432") for k, s in enumerate("CSHD")}
    cells = ["KC", "KS", "KH", "KD", "AC", "AS", "AH", "AD"]
    piles |= {f"r{k + 1}": code for k, code in enumerate(cells) if code != in_tableau}
    if in_tableau:
        piles["t1"] = in_tableau
    return position(slug, ruleset, piles)  # every card is named: the stock is empty


@pytest.mark.parametrize("slug", TOURNAMENT_LIKE)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_tournament_redeal_needs_a_tableau_card(slug: str, ruleset: str) -> None:
    bare = all_but_cells_home(slug, ruleset)
    assert DEAL not in bare.legal_moves and not bare.is_over()
    one_left = all_but_cells_home(slug, ruleset, in_tableau="AC")
    second = one_left.apply(DEAL)
    assert second.round == 2 and pile(second, "t1") == ["AC"] and not second.pile("s")
    third = second.apply(DEAL)
    assert third.round == 3 and pile(third, "t1") == ["AC"]
    assert DEAL not in third.legal_moves, "two redeals only"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_cicely_deals_four_passes_and_never_redeals(ruleset: str) -> None:
    state = kibitz.game("cicely", ruleset).deal(1)
    for _ in range(2):
        order = dealing_order(state)
        dealt = state.apply(DEAL)
        for k in range(8):
            assert pile(dealt, f"t{k + 1}") == pile(state, f"t{k + 1}") + order[k:32:8]
        state = dealt
    assert not state.pile("s") and DEAL not in state.legal_moves and state.round == 1


@pytest.mark.parametrize("ruleset", RULESETS)
def test_cicely_builds_by_suit_without_wrapping(ruleset: str) -> None:
    state = position("cicely", ruleset, t1="KC", t2="AC", t3="QC", r1="2C", fill="t8")
    assert "t3>t1" in moves(state) and "r1>t2" in moves(state)
    assert "t2>t1" not in moves(state) and "t1>t2" not in moves(state), "no ace on king"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_kingsdown_eights_deals_to_the_reserve_and_never_redeals(ruleset: str) -> None:
    state = kibitz.game("kingsdown-eights", ruleset).deal(1)
    for _ in range(2):
        order = dealing_order(state)
        dealt = state.apply(DEAL)
        for k in range(8):
            assert pile(dealt, f"r{k + 1}") == pile(state, f"r{k + 1}") + order[4 * k:4 * k + 4]
        state = dealt
    assert not state.pile("s") and DEAL not in state.legal_moves and state.round == 1


@pytest.mark.parametrize("ruleset", RULESETS)
def test_kingsdown_eights_builds_without_wrapping(ruleset: str) -> None:
    state = position("kingsdown-eights", ruleset, f1="AC 2C", t1="3H", t2="KS", t3="3D", t4="AH",
                     r1="2S", fill="t8")
    assert "t2>t4" not in moves(state), "no king on an ace"
    assert {"f1>t3", "r1>t1"} <= moves(state), "down in alternating colours, from a foundation or the reserve"
    assert "f1>t1" in moves(state) and "r1>t3" in moves(state)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_kingsdown_eights_twin_foundations(ruleset: str) -> None:
    """Both clubs foundations build up from the ace; a lone ace may cross to the empty twin."""
    state = position("kingsdown-eights", ruleset, f1="AC", t1="AC", fill="t8")
    assert {"f1>f5", "t1>f5"} <= moves(state)
    assert "t1>f1" not in moves(state), "the second ace starts the other pile"
    state = position("kingsdown-eights", ruleset, f1="AC 2C", f5="AC", t1="3C", fill="t8")
    assert {"t1>f1", "f1>f5"} <= moves(state) and "t1>f5" not in moves(state)  # 2C onto AC


@pytest.mark.parametrize("ruleset", RULESETS)
def test_napoleons_flank_shows_only_the_column_tops(ruleset: str) -> None:
    """Tournament's columns are fanned; Napoleon's Flank squares them (same cards, same moves)."""
    flank = kibitz.game("napoleons-flank", ruleset).deal(1)
    tournament = kibitz.game("tournament", ruleset).deal(1)
    assert flank.piles == tournament.piles
    assert {str(m) for m in flank.legal_moves} == {str(m) for m in tournament.legal_moves}
    for k in range(1, 7):
        column = pile(flank, f"t{k}")
        assert flank.view().pile(f"t{k}") == (None,) * (len(column) - 1) + (flank.pile(f"t{k}")[-1],)
        assert tournament.view().pile(f"t{k}") == tuple(tournament.pile(f"t{k}"))
