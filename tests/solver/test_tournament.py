"""The Tournament policy's rules on constructed positions, and against a plain search.

Each rule of :mod:`kibitz.solver.policies.tournament` is shown on a position built for it;
random last-round endgames (where the safe moves and proofs of loss act) are compared with
the plain exhaustive search.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Sequence

import pytest

import kibitz
from kibitz.moves import DEAL, Move
from kibitz.notation import format_state, parse_pile
from kibitz.solver import Limits, Outcome, solve, verify_win
from kibitz.solver.policies.common import CanonicalPolicy, always, when_no_deal_remains
from kibitz.solver.policies.tournament import LAST_ROUND_NODES, ROUND_NODES, CappedRounds, TournamentPolicy
from kibitz.solver.policies import policy_for
from kibitz.solver.policy import Policy
from kibitz.solver.search import SUBTREE_CAP, first_pass, search
from kibitz.state import State

SUITS = "CSHD"
RANKS = "A23456789TJQK"


def position(ruleset: str = "standard", *, heights: dict[str, tuple[int, int]] | None = None,
             columns: tuple[str, ...] = (), cells: tuple[str, ...] = (), stock: str = "",
             round: int = 3, game: str = "tournament") -> State:
    """A position: (up, down) heights per suit (default complete), columns and cells as text
    (cards comma-separated, bottom to top), the stock face down with its top last."""
    g = kibitz.game(game, ruleset)
    piles = [b""] * len(g.piles)
    heights = heights or {}
    for s, suit in enumerate(SUITS):
        u, d = heights.get(suit, (13, 13))
        piles[g.foundations[s]] = bytes(s * 13 + r for r in range(u))
        piles[g.foundations[s + 4]] = bytes(s * 13 + 12 - r for r in range(d))
    for i, text in zip(g.tableau, columns):
        piles[i] = parse_pile(text, ",")
    for i, text in zip(g.reserve, cells):
        piles[i] = parse_pile(text, ",")
    piles[g.stock] = bytes(c | 64 for c in parse_pile(stock, ","))
    return State(g, tuple(piles), round)


def policy(state: State) -> TournamentPolicy:
    return TournamentPolicy(state.game)


def complete(state: State) -> None:
    """Check that the position holds both copies of every card."""
    counts = Counter(c & 63 for pile in state.piles for c in pile)
    assert all(counts[c] == 2 for c in range(52)), sorted(c for c in range(52) if counts[c] != 2)


def reference(game: kibitz.Game) -> Policy:
    """Every legal move, no safe moves, no proofs of loss; keys that only sort the cells
    (and the columns once nothing is dealt again), as the soundness test checks for all games."""
    return CanonicalPolicy(game, tableau=when_no_deal_remains, reserve=always)


def plain(state: State) -> Outcome:
    result = search(state, reference(state.game), Limits(seconds=None, nodes=200_000))
    assert result.is_decided
    return result.outcome


# -- safe moves ----------------------------------------------------------------

def test_cell_card_fitting_across_a_gap_is_played() -> None:
    state = position(heights={"H": (4, 2)}, cells=("5H",), columns=("5H,6H,7H,8H,9H,TH,JH",), round=1)
    move = policy(state).safe_move(state)
    assert move is not None and str(move) == "r1>f3"


def test_cell_card_in_an_overlap_is_played() -> None:
    state = position(heights={"H": (8, 7)}, cells=("9H",), columns=("TH,JH,QH,KH",), round=1)
    move = policy(state).safe_move(state)
    assert move is not None and str(move) == "r1>f3"


def test_cell_card_waits_where_the_piles_meet() -> None:
    """With u + d == 13 the card would choose where the second copies start."""
    state = position(heights={"H": (4, 9)}, cells=("5H",), columns=("4H,3H,2H,AH,6H,7H,8H,9H,TH,JH,QH,KH",))
    assert policy(state).safe_move(state) is None


def test_starting_the_second_copies_from_a_cell_can_lose() -> None:
    """Why the rule above waits: the win starts the second hearts at the king (seven
    transfers, then the column plays down), while playing the cell's five first leaves
    one empty cell and the six under seven hearts."""
    state = position(heights={"H": (4, 9), "C": (11, 13), "S": (7, 13), "D": (11, 13)},
                     cells=("5H", "KC", "KD", "9S", "TS", "JS", "QS", "KS"),
                     columns=("8S,QD,QC,AH,2H,3H,4H,6H,7H,8H,9H,TH,JH,QH,KH",))
    complete(state)
    assert plain(state) is Outcome.WON
    assert plain(state.apply("r1>f3")) is Outcome.LOST
    assert solve(state).outcome is Outcome.WON


def test_column_card_in_an_overlap_is_played_in_the_last_round() -> None:
    state = position(heights={"H": (8, 7)}, columns=("8H,9H",))
    move = policy(state).safe_move(state)
    assert move is not None and str(move) == "t1>f3"


def test_column_card_is_not_played_before_the_last_round() -> None:
    """A redeal gathers the columns: which cards they hold decides the next layout."""
    state = position(heights={"H": (8, 7)}, columns=("8H,9H",), round=2)
    assert policy(state).safe_move(state) is None


def test_column_card_stays_when_its_column_would_be_refilled() -> None:
    """Emptying a column with cards in the stock refills it at once, shifting every later deal."""
    state = position(heights={"H": (8, 7)}, columns=("9H", "8H"), stock="TH,JH,QH,KH")
    assert policy(state).safe_move(state) is None
    empty_stock = position(heights={"H": (8, 7)}, columns=("9H", "8H"))
    move = policy(empty_stock).safe_move(empty_stock)
    assert move is not None and str(move) == "t1>f3"


def test_column_card_across_a_gap_is_not_played() -> None:
    """Across a gap the other copy may be the one to play; the search decides."""
    state = position(heights={"H": (4, 2)}, columns=("5H", "6H,5H"))
    assert policy(state).safe_move(state) is None


def test_no_safe_moves_in_the_pysolfc_ruleset() -> None:
    state = position("pysolfc", heights={"H": (8, 7)}, cells=("9H",), columns=("TH,JH,QH,KH",))
    assert policy(state).safe_move(state) is None


# -- transfers and move order --------------------------------------------------

def lifts(game: kibitz.Game, moves: Sequence[Move]) -> list[str]:
    """The moves that take a card from a foundation out of the foundations (into a cell)."""
    foundations = set(game.foundations)
    return [str(m) for m in moves if not m.is_deal
            and game.ends(m)[0] in foundations and game.ends(m)[1] not in foundations]


def test_the_pysolfc_first_pass_plays_the_standard_moves() -> None:
    """No card back into a cell, and the safe moves and proofs of the standard ruleset."""
    state = position("pysolfc", heights={"H": (8, 7), "C": (2, 1)}, cells=("9H",), columns=("TH,JH,QH,KH",))
    full = policy(state)
    quick = full.first_pass(0)
    assert isinstance(quick, CappedRounds)
    game = state.game
    assert lifts(game, full.ordered_moves(state)) and not lifts(game, quick.ordered_moves(state))
    assert full.safe_move(state) is None and str(quick.safe_move(state)) == "r1>f3"
    standard = TournamentPolicy(kibitz.game("tournament"))
    assert standard.first_pass(0).tournament is standard  # no twin where the foundations are final


@pytest.mark.parametrize("slug", ["tournament", "napoleons-flank"])
def test_the_pysolfc_first_pass_wins_with_legal_moves(slug: str) -> None:
    """Its wins replay in the pysolfc rules, and none takes a card back into a cell."""
    game = kibitz.game(slug, "pysolfc")
    won = 0
    for number in (3, 8, 12):
        result = first_pass(game.deal(number), policy_for(game), Limits(seconds=None, nodes=30_000))
        if result.outcome is Outcome.WON:
            won += 1
            verify_win(game.deal(number), result.moves)
            assert not lifts(game, result.moves)
    assert won >= 2


def test_transfers_only_towards_a_reachable_card() -> None:
    # Hearts meet (up A-6 wants the seven, down K-7 wants the six): transfers allowed.
    state = position(heights={"H": (6, 7)}, columns=("3H", "KC"), cells=("QC",),
                     round=1, stock="KS")
    moves = [str(m) for m in policy(state).ordered_moves(state)]
    assert "f3>f7" in moves  # towards the three of hearts
    assert "f7>f3" not in moves  # away from it: no heart above the split is reachable


def test_all_transfers_kept_in_pysolfc() -> None:
    state = position("pysolfc", heights={"H": (6, 7)}, columns=("3H", "KC"), round=1, stock="KS")
    moves = [str(m) for m in policy(state).ordered_moves(state)]
    assert "f3>f7" in moves and "f7>f3" in moves


def test_only_the_first_empty_cell_is_offered() -> None:
    state = position(heights={"H": (6, 7)}, columns=("3H,KC",), cells=("QC",), round=1, stock="KS")
    targets = {m.target for m in policy(state).ordered_moves(state) if m.source == "t1"}
    assert targets == {"r2"}


def test_foundation_moves_come_first_and_deal_late() -> None:
    state = position(heights={"H": (6, 6)}, columns=("KC,7H", "QC", "JC"), round=1, stock="KS")
    moves = policy(state).ordered_moves(state)
    assert str(moves[0]) == "t1>f3"
    assert moves.index(DEAL) > moves.index(next(m for m in moves if str(m) == "t1>f3"))


# -- proofs of loss ------------------------------------------------------------

BURIED_HEARTS = "7H,7H,8H,9H,TH,JH,QH,KH,AH,2H,3H,4H,5H,6H"
"""Hearts at (6, 6) want only a seven; both sevens lie under twelve hearts."""


def test_buried_suit_is_hopeless() -> None:
    """The king of clubs can still be played, but the hearts next move only when twelve
    hearts are in cells, and there are eight cells."""
    state = position(heights={"H": (6, 6), "C": (12, 13)}, columns=(BURIED_HEARTS, "KC"))
    complete(state)
    assert policy(state).is_hopeless(state)
    assert plain(state) is Outcome.LOST


def test_nothing_within_reach_is_hopeless() -> None:
    """Seven empty cells, and the nearest card that fits lies under twelve cards."""
    state = position(heights={"H": (6, 6), "C": (11, 13)}, cells=("KC",), columns=("QC," + BURIED_HEARTS,))
    complete(state)
    assert policy(state).is_hopeless(state)
    assert plain(state) is Outcome.LOST


def test_reachable_suit_is_not_hopeless() -> None:
    state = position(heights={"H": (6, 6), "C": (12, 13)}, columns=(BURIED_HEARTS[3:], "7H,KC"))
    complete(state)
    assert not policy(state).is_hopeless(state)


def test_not_hopeless_while_cards_remain_to_deal() -> None:
    state = position(heights={"H": (6, 6), "C": (12, 13)}, columns=(BURIED_HEARTS,), stock="KC")
    complete(state)
    assert not policy(state).is_hopeless(state)
    assert not policy(state).is_hopeless(position(heights={"H": (6, 6), "C": (12, 13)},
                                                  columns=(BURIED_HEARTS, "KC"), round=2))


def test_not_hopeless_in_pysolfc() -> None:
    state = position("pysolfc", heights={"H": (6, 6), "C": (12, 13)}, columns=(BURIED_HEARTS, "KC"))
    assert not policy(state).is_hopeless(state)


# -- agreement with the plain search on random endgames ------------------------

def endgame(rng: random.Random, ruleset: str, cards: int, stocked: int = 0) -> State:
    """A last-round position: ``cards`` cards taken off the tops of the foundations of two
    suits, dealt at random to the cells, six columns and (``stocked`` of them) the stock."""
    heights = {suit: [13, 13] for suit in SUITS}
    suits = rng.sample(SUITS, 2)
    missing: list[str] = []
    for _ in range(cards):
        suit = rng.choice(suits)
        pile = rng.randrange(2)
        if heights[suit][pile] == 0:
            pile = 1 - pile
        heights[suit][pile] -= 1
        rank = heights[suit][0] if pile == 0 else 12 - heights[suit][1]
        missing.append(RANKS[rank] + suit)
    rng.shuffle(missing)
    cells = missing[:rng.randrange(4, 9)]
    stock = missing[len(missing) - stocked:]
    columns: list[list[str]] = [[] for _ in range(6)]
    used = rng.randrange(1, 4)
    for c in missing[len(cells):len(missing) - stocked]:
        columns[rng.randrange(used)].append(c)
    return position(ruleset, heights={s: (u, d) for s, (u, d) in heights.items()}, cells=tuple(cells),
                    columns=tuple(",".join(col) for col in columns), stock=",".join(stock))


def endgames(ruleset: str, count: int, cards: int, stocked: int = 0) -> list[State]:
    rng = random.Random(f"tournament endgames {ruleset}" + (f" {stocked} in the stock" if stocked else ""))
    return [endgame(rng, ruleset, cards, stocked) for _ in range(count)]


@pytest.mark.parametrize("ruleset, cards, stocked", [("standard", 22, 0), ("pysolfc", 22, 0), ("standard", 26, 8)])
def test_agrees_with_plain_search_on_endgames(ruleset: str, cards: int, stocked: int) -> None:
    """Last-round positions with an empty stock, and (standard) with two packets to deal."""
    compared = {Outcome.WON: 0, Outcome.LOST: 0}
    for state in endgames(ruleset, 60, cards, stocked):
        complete(state)
        exact = search(state, reference(state.game), Limits(seconds=None, nodes=30_000))
        if not exact.is_decided:
            continue
        tuned = solve(state, Limits(seconds=None, nodes=300_000))
        assert tuned.outcome is exact.outcome, f"{tuned.outcome} != {exact.outcome} on {format_state(state)}"
        compared[exact.outcome] += 1
    assert min(compared.values()) >= 5, compared


def test_column_card_across_a_gap_over_its_twin_is_played() -> None:
    """The other copy lies under it: nothing else can reach the foundation first."""
    state = position(heights={"H": (4, 2)}, columns=("6H", "5H,7H,5H"))
    move = policy(state).safe_move(state)
    assert move is not None and str(move) == "t2>f3"
    assert policy(position(heights={"H": (4, 2)}, columns=("5H,6H", "7H,5H"))).safe_move(
        position(heights={"H": (4, 2)}, columns=("5H,6H", "7H,5H"))) is None


def test_dives_return_lines_that_win() -> None:
    """A dive proves nothing, but a line it returns must replay to a win."""
    game = kibitz.game("tournament", "standard")
    tournament = TournamentPolicy(game)
    start = game.deal(1)
    lines = [tournament.probe(start, attempt) for attempt in range(4)]
    assert any(line is not None for line in lines)
    for line in lines:
        if line is not None:
            state = start
            for move in line:
                state = state.apply(move)
            assert state.is_won()


# -- the capped first pass -------------------------------------------------------

class CapsEverything(CanonicalPolicy):
    """The reference policy with every subtree capped at ``budget`` nodes (``None``: no caps)."""

    caps_subtrees = True

    def __init__(self, game: kibitz.Game, budget: int | None) -> None:
        super().__init__(game, tableau=when_no_deal_remains, reserve=always)
        self.budget = budget

    def subtree_budget(self, parent: State, child: State) -> int | None:
        return self.budget


class RestartsCapped(Policy):
    """A first pass of :class:`CapsEverything` attempts whose cap doubles each time."""

    def __init__(self, game: kibitz.Game) -> None:
        super().__init__(game)
        self.attempts: list[int] = []

    def first_pass(self, attempt: int = 0, nodes: int | None = None, spent: int = 0) -> Policy | None:
        self.attempts.append(attempt)
        return CapsEverything(self.game, 1 << attempt)


def test_a_search_that_abandons_a_capped_subtree_proves_nothing() -> None:
    state = position(heights={"H": (6, 6), "C": (12, 13)}, columns=(BURIED_HEARTS, "KC"))
    limits = Limits(seconds=None, nodes=200_000)
    capped = search(state, CapsEverything(state.game, 1), limits)
    assert capped.outcome is Outcome.UNKNOWN and capped.reason == SUBTREE_CAP
    assert search(state, CapsEverything(state.game, None), limits).outcome is Outcome.LOST
    assert search(state, CapsEverything(state.game, 10**6), limits).outcome is Outcome.LOST


def test_the_first_pass_doubles_the_caps_until_nothing_is_abandoned() -> None:
    state = position(heights={"H": (6, 6), "C": (12, 13)}, columns=(BURIED_HEARTS, "KC"))
    policy = RestartsCapped(state.game)
    limits = Limits(seconds=None, nodes=200_000)
    result = first_pass(state, policy, limits)
    assert result.outcome is Outcome.UNKNOWN  # a first pass never proves a loss
    last = policy.attempts[-1]
    assert policy.attempts == list(range(last + 1)) and last >= 2
    assert search(state, CapsEverything(state.game, 1 << last), limits).outcome is Outcome.LOST
    assert search(state, CapsEverything(state.game, 1 << (last - 1)), limits).reason == SUBTREE_CAP


def test_capped_rounds_budgets() -> None:
    game = kibitz.game("tournament")
    full = TournamentPolicy(game)
    first, third = CappedRounds(full, 0), CappedRounds(full, 2)
    one, two, three = (position(round=r) for r in (1, 2, 3))
    assert first.subtree_budget(one, two) == ROUND_NODES
    assert first.subtree_budget(two, three) == LAST_ROUND_NODES
    assert first.subtree_budget(three, three) is None and first.subtree_budget(one, one) is None
    assert third.subtree_budget(one, two) == 4 * ROUND_NODES
    assert third.subtree_budget(two, three) == 4 * LAST_ROUND_NODES


def test_the_capped_first_pass_wins_where_the_full_search_is_still_looking() -> None:
    """Deal 9: the full search alone needs more than 50,000 nodes; the first pass does not."""
    game = kibitz.game("tournament")
    policy = TournamentPolicy(game)
    limits = Limits(seconds=None, nodes=50_000)
    quick = first_pass(game.deal(9), policy, limits)
    assert quick.outcome is Outcome.WON
    verify_win(game.deal(9), quick.moves)
    assert search(game.deal(9), policy, limits).outcome is Outcome.UNKNOWN


def test_the_capped_first_pass_plays_no_dives() -> None:
    """Dives cost more than the capped search takes to win; only the full search dives."""
    game = kibitz.game("tournament")
    full = TournamentPolicy(game)
    state = game.deal(9)
    for attempt in range(3):
        capped = CappedRounds(full, attempt)
        assert capped.probe(state, attempt + 1) is None and capped.probe_moves == 0
    assert full.probe_moves == 0
    full.probe(state, 1)
    assert full.probe_moves > 0
