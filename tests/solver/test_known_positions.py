"""Constructed positions with outcomes known from the rules, for every game.

Each position starts from the won state (every card on its foundation), with a few cards
taken off the foundation tops and laid out in play. A comment beside each says why the
outcome is what it is, from the rules alone. Three kinds per game:

- won in a few moves: the solver finds a short line that replays to a won state;
- provably lost: the solver proves it (with a node budget large enough to finish);
- lost only because of a redeal limit (the same layout wins while a redeal remains) or,
  for the games without redeals, only because of the order of the stock.

Piles are written bottom to top, upper case face up and lower case face down; the stock
is dealt from its top (the last card written).
"""

from __future__ import annotations

import pytest

import kibitz
from kibitz.cards import RANKS, SUITS
from kibitz.notation import format_state, parse_state
from kibitz.solver import Limits, Outcome, hint, is_winnable, solve, verify_win
from kibitz.state import State

BUDGET = Limits(seconds=None, nodes=200_000)
"""Enough nodes for every position here; no clock, so a busy machine cannot change a verdict."""


def foundation_cards(game: kibitz.Game, name: str, length: int, base: int | None) -> list[str]:
    """The first ``length`` cards of foundation ``name``, bottom first."""
    spec = game.piles[game.pile_index(name)].foundation
    assert spec is not None
    first = spec.first if spec.first is not None else base
    assert first is not None, "a Duchess position needs its base rank"
    cards = []
    for k in range(length):
        rank = first + spec.step * k
        cards.append(RANKS[rank % 13 if spec.wrap else rank] + SUITS[spec.suit])
    return cards


def position(slug: str, ruleset: str = "standard", *, round: int = 1, base: str = "-",
             heights: dict[str, int] | None = None, **piles: str) -> State:
    """A position of ``slug``: foundations as long as ``heights`` says (13 when not named),
    the other piles as given (space-separated cards, bottom first), the rest empty.

    Goes through :func:`parse_state`, so the card multiset is checked to be exact.
    """
    game = kibitz.game(slug, ruleset)
    heights = heights or {}
    base_rank = None if base == "-" else RANKS.index(base)
    fields = [slug, ruleset, f"round={round}", f"base={base}"]
    for name in game.pile_names():
        if name.startswith("f"):
            cards = foundation_cards(game, name, heights.get(name, 13), base_rank)
        else:
            cards = piles.pop(name, "").split()
        fields.append(f"{name}={','.join(cards)}")
    assert not piles, f"unknown piles {sorted(piles)}"
    state = parse_state(" ".join(fields))
    assert format_state(state) == " ".join(fields)
    return state


def assert_won_within(state: State, most: int | None) -> tuple[kibitz.Move, ...]:
    """The solver wins ``state`` with a line that replays to a win, of at most ``most``
    moves (``None``: no bound follows from the rules, only the replay is checked)."""
    result = solve(state, BUDGET)
    assert result.outcome is Outcome.WON, format_state(state)
    assert result.moves, "a position that is not won needs moves"
    if most is not None:
        assert len(result.moves) <= most, [str(m) for m in result.moves]
    verify_win(state, result.moves)  # raises unless the line is legal and ends won
    return result.moves


def foundation_moves(moves: tuple[kibitz.Move, ...]) -> int:
    """How many of ``moves`` put a card on a foundation."""
    return sum(1 for m in moves if not m.is_deal and m.target.startswith("f"))


def assert_lost(state: State) -> None:
    """The solver proves ``state`` lost."""
    result = solve(state, BUDGET)
    assert result.outcome is Outcome.LOST, (result.outcome, format_state(state))
    assert result.moves == ()


def assert_has_moves(state: State) -> None:
    """The position is not over: a lost verdict is about the future, not a dead end."""
    assert state.legal_moves and not state.is_won()


# -- Grand Duchess and Parisienne ----------------------------------------------------------
#
# Standard ruleset: nothing is ever built on the tableau, a card leaves play only for a
# foundation, and with no foundation transfer each lane (up or down pile) only grows.

GD_RULESETS = ("standard", "pysolfc")


@pytest.mark.parametrize("ruleset", GD_RULESETS)
def test_grand_duchess_won_by_dealing_the_last_card(ruleset: str) -> None:
    # Clubs up holds A..J; QC is the stock's last card and KC lies on t1. The deal of the
    # last card puts QC on r1 and, having emptied the stock, turns the reserve face up,
    # so QC then KC go up: deal, r1>f1, t1>f1. Each card reaches a foundation once (2 moves)
    # and the one-card stock can be dealt at most once per round (4 rounds): at most 6.
    # Every other lane is complete, so pysolfc's transfers have nothing to move.
    state = position("grand-duchess", ruleset, round=1, heights={"f1": 11}, s="qc", t1="KC")
    moves = assert_won_within(state, 6)
    assert moves[0] == kibitz.DEAL


@pytest.mark.parametrize("ruleset", GD_RULESETS)
def test_grand_duchess_lost_with_a_king_on_its_queen(ruleset: str) -> None:
    # Last round, empty stock: clubs up needs QC, which lies under KC on t1 (clubs down is
    # complete, so KC has no other lane). KC can never move, so QC never can: lost. KH on
    # t2 can still go up (hearts up holds A..Q), so the game is not over.
    state = position("grand-duchess", ruleset, round=4, heights={"f1": 11, "f3": 12},
                     t1="QC KC", t2="KH")
    assert_has_moves(state)
    assert_lost(state)


@pytest.mark.parametrize("ruleset", GD_RULESETS)
@pytest.mark.parametrize("round, outcome", [(3, Outcome.WON), (4, Outcome.LOST)])
def test_grand_duchess_redeal_limit(ruleset: str, round: int, outcome: Outcome) -> None:
    # t1 holds QC under KC, clubs up needs QC; KH on t2 fits hearts up. In round 4 KC buries
    # QC for good (as above). In round 3 a redeal gathers t1 on t2 and turns the packet
    # over, so t1's bottom card QC comes out before KC (the reserve is empty, so both
    # rulesets gather alike): the deal puts QC, KC on separate piles and both go up.
    state = position("grand-duchess", ruleset, round=round, heights={"f1": 11, "f3": 12},
                     t1="QC KC", t2="KH")
    if outcome is Outcome.WON:
        # two clubs and KH go up once each, plus one redeal: 4 moves, nothing else is legal
        # (the stock is empty and a redeal is the last round's only deal).
        assert_won_within(state, 4)
    else:
        assert_lost(state)


@pytest.mark.parametrize("ruleset", GD_RULESETS)
def test_parisienne_won_down_a_lane(ruleset: str) -> None:
    # Spades down holds K..4 and needs 3S, 2S, AS, which lie on t1 with 3S on top: three
    # foundation moves, the only legal moves there are (last round, empty stock).
    state = position("parisienne", ruleset, round=4, heights={"f6": 10}, t1="AS 2S 3S")
    moves = assert_won_within(state, 3)
    assert [str(m) for m in moves] == ["t1>f6"] * 3


@pytest.mark.parametrize("ruleset", GD_RULESETS)
def test_parisienne_lost_with_an_ace_on_its_two(ruleset: str) -> None:
    # Hearts down holds K..3 and needs 2H then AH; AH lies on 2H on t1 and hearts up is
    # complete, so AH can never go first: lost in the last round. KD on t2 can go up.
    state = position("parisienne", ruleset, round=4, heights={"f7": 11, "f4": 12},
                     t1="2H AH", t2="KD")
    assert_has_moves(state)
    assert_lost(state)


@pytest.mark.parametrize("ruleset", GD_RULESETS)
@pytest.mark.parametrize("round, outcome", [(3, Outcome.WON), (4, Outcome.LOST)])
def test_parisienne_redeal_limit(ruleset: str, round: int, outcome: Outcome) -> None:
    # As for Grand Duchess: a redeal turns t1 over, so 2H is dealt (to t1) before AH (t2).
    state = position("parisienne", ruleset, round=round, heights={"f7": 11}, t1="2H AH")
    if outcome is Outcome.WON:
        assert_won_within(state, 3)  # the redeal, then 2H and AH down
    else:
        assert not state.legal_moves  # round 4 has no redeal, and AH fits nowhere
        assert_lost(state)


# -- Duchess -------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset, most", [("standard", 5), ("pysolfc", None)])
def test_duchess_won_across_the_wrap(ruleset: str, most: int | None) -> None:
    # Base rank 9: clubs holds 9C..KC, AC..5C and needs 6C (waste), 7C (reserve), 8C (t1),
    # in that order, ace having followed king. All three are clubs, so none builds on
    # another, and round 2 has no redeal. Standard: each card goes up once, 7C may visit a
    # space once and 6C too (only once the reserve is empty); a card in a space or on t1
    # never enters a space: at most 5 moves. pysolfc lets a lone card move from space to
    # space, so only the three foundation moves are counted there (cards never come down).
    state = position("duchess", ruleset, round=2, base="9", heights={"f1": 10},
                     w="6C", r1="7C", t1="8C")
    moves = assert_won_within(state, most)
    assert foundation_moves(moves) == 3


@pytest.mark.parametrize("ruleset", ("standard", "pysolfc"))
def test_duchess_lost_with_crossed_kings(ruleset: str) -> None:
    # Base ace. Clubs needs QC, which lies under KS on t1; spades needs QS, under KC on t2.
    # A king could move only onto a red ace (king on ace), and both red aces are up; spaces
    # take only reserve, waste or stock cards (or, in pysolfc, a whole pile in sequence, and
    # neither pile is one), and all three are empty. So neither king ever moves: lost. The
    # hearts can still go up, or QH onto either king, so moves remain.
    state = position("duchess", ruleset, round=2, base="A",
                     heights={"f1": 11, "f2": 11, "f3": 11},
                     t1="QC KS", t2="QS KC", t3="QH", t4="KH")
    assert_has_moves(state)
    assert_lost(state)


@pytest.mark.parametrize("ruleset", ("standard", "pysolfc"))
@pytest.mark.parametrize("round, outcome", [(1, Outcome.WON), (2, Outcome.LOST)])
def test_duchess_redeal_limit(ruleset: str, round: int, outcome: Outcome) -> None:
    # Base ace, clubs holds A..4 and needs 5C..KC. TC, JC, QC, KC fill the four tableau piles
    # (clubs never build on clubs, so they stay, and there is no space). The stock deals
    # 6C, 7C, 5C, 8C, 9C in that order. The waste is a stack: 6C and 7C wait on it, 5C goes
    # up, then 7C covers 6C and nothing can take 7C: a 231 pattern no stack can sort.
    # With the redeal left, turning the waste over gives a stock that deals 6C, 7C, 8C, 9C
    # in order, and then the tableau's TC..KC follow. In round 2 it is lost.
    state = position("duchess", ruleset, round=round, base="A", heights={"f1": 4},
                     s="9c 8c 5c 7c 6c", t1="KC", t2="QC", t3="JC", t4="TC")
    assert_has_moves(state)
    if outcome is Outcome.WON:
        # Standard: 9 cards go up once; at most 5 deals a round and the redeal: 20 moves.
        # No card enters a space: the first space opens when TC goes up, after 5C..9C.
        # pysolfc lets the last tableau cards move into spaces, so it gets no bound.
        moves = assert_won_within(state, 20 if ruleset == "standard" else None)
        assert foundation_moves(moves) == 9
    else:
        assert_lost(state)


# -- Tournament and Napoleon's Flank (standard ruleset) --------------------------------------
#
# Cells take only a column's top card and give cards only to the foundations; a transfer
# needs a suit's two piles to hold 13 cards between them.

CELL_GAMES = ("tournament", "napoleons-flank")


@pytest.mark.parametrize("slug", CELL_GAMES)
def test_cell_game_won_through_a_cell(slug: str) -> None:
    # Last round, empty stock: QC under KC on t1, clubs up needs QC. KC goes to a cell,
    # QC up, KC up. Each card can move at most twice (to a cell, then up; no transfer fits,
    # every other pile being complete): at most 4 moves.
    state = position(slug, round=3, heights={"f1": 11}, t1="QC KC")
    assert_won_within(state, 4)


def test_napoleons_flank_won_through_a_refill() -> None:
    # QD on t1 fits diamonds up (A..J); playing it empties t1, which at once takes the
    # stock's KD, which then goes up too. Two cards up, at most one deal, at most one cell
    # visit each: at most 5 moves.
    state = position("napoleons-flank", round=3, heights={"f4": 11}, s="kd", t1="QD")
    assert_won_within(state, 5)


def test_tournament_lost_under_full_cells() -> None:
    # Spades up holds only AS (spades down is complete), so 2S must come first, and it lies
    # under JS on t1. All eight cells hold 3S..TS, which wait for 2S, and cells give cards
    # only to the foundations, so no cell ever frees and JS can never leave t1. Deals and
    # refills only add cards on top. KD on t2 (diamonds up needs it) can still go up, and
    # then t2 is refilled from the stock: moves remain, but the game is lost.
    state = position("tournament", round=3, heights={"f2": 1, "f4": 12},
                     s="ks qs", t1="2S JS", t2="KD",
                     r1="3S", r2="4S", r3="5S", r4="6S", r5="7S", r6="8S", r7="9S", r8="TS")
    assert_has_moves(state)
    assert_lost(state)


def test_napoleons_flank_lost_by_a_refill() -> None:
    # Hearts down holds only KH (hearts up is complete) and needs QH first; the cells hold
    # JH..4H, which wait for it. The stock deals QH, 3H, 2H, AH. Whether KD goes up (and
    # t1 is refilled with those four) or the stock is dealt (all four onto t1), the four
    # land on one column in dealt order with AH on top of QH; AH, 2H, 3H fit no
    # foundation before QH and no cell is free: lost, though moves remain.
    state = position("napoleons-flank", round=3, heights={"f7": 1, "f4": 12},
                     s="ah 2h 3h qh", t1="KD",
                     r1="JH", r2="TH", r3="9H", r4="8H", r5="7H", r6="6H", r7="5H", r8="4H")
    assert_has_moves(state)
    assert_lost(state)


def tournament_spades(round: int) -> State:
    """Tournament: 2S under three spades, the cells 3S..8S and two free cells."""
    return position("tournament", round=round, heights={"f2": 1},
                    t1="9S 2S TS JS QS", t2="KS",
                    r1="3S", r2="4S", r3="5S", r4="6S", r5="7S", r6="8S")


@pytest.mark.parametrize("round, outcome", [(2, Outcome.WON), (3, Outcome.LOST)])
def test_tournament_redeal_limit(round: int, outcome: Outcome) -> None:
    # Spades up holds AS and needs 2S, which lies under TS, JS, QS on t1; the cells hold
    # 3S..8S (waiting for 2S) and two are free. Two cells cannot take the three cards
    # above 2S, and cells give cards only to the foundations: in the last round it is
    # lost. A redeal gathers t1 then t2 (9S 2S TS JS QS KS) and deals columns of four, so
    # t1 becomes 9S 2S TS JS and t2 QS KS: TS and JS go to the free cells, 2S goes up and
    # the whole suit follows. The 12 spades go up once each, the six not yet in a cell may
    # visit one once, and one redeal: at most 19 moves (spades piles hold 14 or more cards,
    # so no transfer is ever possible).
    state = tournament_spades(round)
    assert_has_moves(state)
    if outcome is Outcome.WON:
        assert_won_within(state, 19)
    else:
        assert_lost(state)


@pytest.mark.parametrize("round, outcome", [(2, Outcome.WON), (3, Outcome.LOST)])
def test_napoleons_flank_redeal_limit(round: int, outcome: Outcome) -> None:
    # Diamonds down holds KD and needs QD, which lies under 4D, 3D, 2D on t1; the cells hold
    # JD..6D and two are free: lost in the last round, as in Tournament. The redeal makes
    # t1 5D QD 4D 3D and t2 2D AD: 3D and 4D go to the cells, QD goes down and so on.
    # As in Tournament, at most 12 + 6 + 1 = 19 moves.
    state = position("napoleons-flank", round=round, heights={"f8": 1},
                     t1="5D QD 4D 3D 2D", t2="AD",
                     r1="JD", r2="TD", r3="9D", r4="8D", r5="7D", r6="6D")
    assert_has_moves(state)
    if outcome is Outcome.WON:
        assert_won_within(state, 19)
    else:
        assert_lost(state)


# -- Cicely ----------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ("standard", "pysolfc"))
def test_cicely_won_through_a_cell(ruleset: str) -> None:
    # Clubs up holds A..J; KC lies on QC on t1. KC to a cell or an empty column, then QC
    # and KC up: 3 moves. Each of the two cards moving once within play and once up gives
    # 4; cards may come back off the foundations in Cicely, but a line that does so here
    # only makes work, so a longer line would be a detour.
    state = position("cicely", ruleset, heights={"f1": 11}, t1="QC KC")
    assert_won_within(state, 4)


CLUBS_UNDER = "AC 2C 3C 4C 5C 6C 6C 5C"
"""Cicely t1 in the locked layout: the down pile's AC..6C, then the up pile's 6C and 5C."""


def cicely_locked(stock: str = "", t1: str = CLUBS_UNDER, t2: str = "8S TS JS QS KS") -> State:
    """A Cicely layout in which every cell is full and no exposed card can ever move.

    Clubs up holds A..3 and clubs down K..7: both copies of 4C, 5C and 6C are in play, so
    the piles hold no rank twice and no transfer is possible until both have grown. The
    cells hold 7C..KC (for clubs up after 6C) and 9D. Spades, hearts and diamonds each hold
    A..7 up and K..4 down (17 cards, so no transfer ever), and their cards in play lie as
    t2 8S TS..KS, t3 3S 2S AS, t4 8H TH..KH, t5 3H 2H AH, t6 8D TD..KD, t7 3D 2D AD and
    t8 9S, each wanted card (4C, 6C, 8S, 3S, ...) buried. No exposed card fits a
    foundation, no column top is one rank from another exposed card of its suit (cells
    hold nothing one rank from a column top), and no foundation top is one rank from a
    column top.
    """
    return position(
        "cicely", heights={"f1": 3, "f2": 7, "f3": 7, "f4": 7, "f5": 7, "f6": 10, "f7": 10, "f8": 10},
        s=stock, t1=t1, t2=t2, t3="3S 2S AS", t4="8H TH JH QH KH", t5="3H 2H AH",
        t6="8D TD JD QD KD", t7="3D 2D AD", t8="9S",
        r1="7C", r2="8C", r3="9C", r4="TC", r5="JC", r6="QC", r7="KC", r8="9D")


def test_cicely_lost_after_the_stock_buried_a_five() -> None:
    # The locked layout (see cicely_locked) after a deal that put 9H on t1's 5C and 4C on
    # t2. 4C can go up (or clubs up's A..3 can be built down onto it and back), but then
    # clubs up needs 5C and clubs down 6C, all under 9H; 9H fits nowhere (8H and TH lie
    # buried, hearts up needs 8H), every cell is full and no column is empty. The clubs
    # piles hold 10 cards or fewer, never 13, so no transfer can help either: lost, with
    # legal moves left.
    state = cicely_locked(t1=CLUBS_UNDER + " 9H", t2="8S TS JS QS KS 4C")
    assert_has_moves(state)
    assert_lost(state)


@pytest.mark.parametrize("stock, outcome", [("9h 4c", Outcome.WON), ("4c 9h", Outcome.LOST)])
def test_cicely_stock_order(stock: str, outcome: Outcome) -> None:
    # The locked layout with 4C and 9H in the stock; dealing is the only legal move. The
    # deal gives the stock's top card to t1 and the next to t2. With 4C dealt first it lands
    # on 5C: 4C, 5C, 6C and the cells' 7C..KC go up, then t1's 6C..AC go down, leaving
    # seven free cells and an empty column, enough to dig out every buried card. With 9H
    # dealt first, 9H covers 5C and 4C lands on t2: that is the lost position above.
    state = cicely_locked(stock=stock)
    assert [str(m) for m in state.legal_moves] == ["deal"]
    if outcome is Outcome.WON:
        # Foundation cards may come back into play, so no length follows from the rules.
        assert_won_within(state, None)
    else:
        assert_lost(state)


# -- Kingsdown Eights ------------------------------------------------------------------------


def test_kingsdown_eights_won_through_an_empty_column() -> None:
    # Clubs: one pile holds A..J, the other A..K. KC lies on QC in r1: KC to an empty column,
    # then QC and KC up: 3 moves. Each card moving once into a column and once up is 4 (a
    # longer line would lift cards off the foundations for nothing).
    state = position("kingsdown-eights", heights={"f1": 11}, r1="QC KC")
    assert_won_within(state, 4)


BLACK_WALL = dict(t1="KC", t2="KC", t3="KS", t4="KS", t5="QC", t6="QC", t7="QS", t8="QS")
"""Every Kingsdown Eights column holds one black king or queen. With the four black piles
at A..T they wait for the black jacks, a king is built on nothing and a black queen only
on a red king, so while the jacks are out of reach no column ever empties."""


def test_kingsdown_eights_lost_with_kings_on_the_reserve() -> None:
    # The black wall (see BLACK_WALL); the jacks lie in r1 and r2 under QH, KH and QD, KD.
    # Hearts and diamonds each have one pile at A..J (wanting a queen) and one complete, so
    # a red king can go only to an empty column, and there is none: the red kings, and so
    # the queens and jacks under them, never move. The red jacks on the foundations can
    # still go onto the black queens (and back), so moves remain; lost.
    state = position("kingsdown-eights",
                     heights={"f1": 10, "f5": 10, "f2": 10, "f6": 10, "f3": 11, "f4": 11},
                     r1="JC JC QH KH", r2="JS JS QD KD", **BLACK_WALL)
    assert_has_moves(state)
    assert_lost(state)


@pytest.mark.parametrize("stock, outcome", [("qh kh qh", Outcome.WON), ("kh qh qh", Outcome.LOST)])
def test_kingsdown_eights_stock_order(stock: str, outcome: Outcome) -> None:
    # The black wall; the four black jacks lie in r1 under KH; both hearts piles hold A..J.
    # The stock holds QH, QH, KH; a deal puts all three on r1 in the order dealt. Dealt
    # QH, KH, QH: the top QH, KH, QH, KH go up one after another, then the jacks, then the
    # wall. Dealt QH, QH, KH: a king covers both queens, and as before it can never move.
    state = position("kingsdown-eights",
                     heights={"f1": 10, "f5": 10, "f2": 10, "f6": 10, "f3": 11, "f7": 11},
                     s=stock, r1="JC JC JS JS KH", **BLACK_WALL)
    assert_has_moves(state)
    if outcome is Outcome.WON:
        # Foundation cards may come back into play, so no length follows from the rules;
        # but every one of the 16 cards in play must go up.
        moves = assert_won_within(state, None)
        assert foundation_moves(moves) >= 16
    else:
        assert_lost(state)


# -- hint and is_winnable ------------------------------------------------------------------


def test_hint_is_the_first_move_of_a_win() -> None:
    # The Tournament spades position in round 2 (see test_tournament_redeal_limit). The
    # redeal wins at once; putting QS or KS into a cell first loses, since after the redeal
    # only one cell is free for TS and JS. The hint must be a move that keeps the win.
    state = tournament_spades(2)
    move = hint(state, BUDGET)
    assert move is not None and move in state.legal_moves
    assert solve(state.apply(move), BUDGET).outcome is Outcome.WON
    assert solve(state.apply("t1>r7"), BUDGET).outcome is Outcome.LOST


def test_hint_on_a_lost_position_is_none() -> None:
    state = position("grand-duchess", round=4, heights={"f1": 11, "f3": 12}, t1="QC KC", t2="KH")
    assert hint(state, BUDGET) is None


def test_is_winnable_verdicts() -> None:
    won = position("parisienne", round=3, heights={"f7": 11}, t1="2H AH")
    lost = position("parisienne", round=4, heights={"f7": 11}, t1="2H AH")
    assert is_winnable(won, BUDGET) is True
    assert is_winnable(lost, BUDGET) is False


def test_is_winnable_undecided_at_a_tiny_node_limit() -> None:
    # A real deal cannot be decided after expanding a single position.
    state = kibitz.game("cicely").deal(1)
    assert is_winnable(state, Limits(seconds=None, nodes=1)) is None
