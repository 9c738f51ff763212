"""The restarted digging first pass of Cicely, Kingsdown Eights and Duchess (``solver.search.first_pass``)."""

from __future__ import annotations

import importlib
from dataclasses import replace
from typing import Callable, Hashable

import pytest

import kibitz
from kibitz.cards import IDENTITY
from kibitz.moves import Move
from kibitz.solver import Limits, Outcome, SolveResult, solve, verify_win
from kibitz.solver.policy import Policy
from kibitz.solver.policies import policy_for
from kibitz.solver.policies.common import CELL_DEPTH, NOT_WANTED, CanonicalPolicy, Digging
from kibitz.solver.search import Looks, first_pass
from kibitz.state import State

search_module = importlib.import_module("kibitz.solver.search")  # the module, not the function of that name


def positions(slug: str, count: int) -> list[State]:
    """Positions met along the first moves of a few deals."""
    game = kibitz.game(slug)
    found = []
    for number in range(1, 4):
        state = game.deal(number)
        for _ in range(count):
            moves = list(state.legal_moves)
            if not moves:
                break
            found.append(state)
            state = state.apply(moves[len(found) % len(moves)])
    return found



def wanted_depth(pile: bytes, wanted: set[int]) -> int:
    """How deep under its top ``pile`` holds a wanted card (``NOT_WANTED`` when none)."""
    return next((k for k in range(len(pile)) if pile[-1 - k] & IDENTITY in wanted), NOT_WANTED)

@pytest.mark.parametrize("slug", ["cicely", "kingsdown-eights", "duchess"])
def test_digging_keeps_the_legal_non_lifting_moves_in_dig_order(slug: str) -> None:
    policy = policy_for(kibitz.game(slug))
    assert isinstance(policy, CanonicalPolicy)
    for state in positions(slug, 30):
        attempt = Digging(policy, 0)
        moves = attempt.ordered_moves(state)
        assert set(moves) <= set(state.legal_moves)
        assert not any(m.source.startswith("f") for m in moves)
        kinds = [0 if m.target.startswith("f") else 2 if m.is_deal else 1 for m in moves]
        assert kinds == sorted(kinds)
        wanted = attempt.wanted(state)
        scores = []
        for move in moves:
            if move.target.startswith("f") or move.is_deal:
                continue
            spec = state.game.piles[state.game.pile_index(move.source)]
            pile = state.piles[state.game.pile_index(move.source)]
            depth = wanted_depth(pile, wanted)
            scores.append(CELL_DEPTH if spec.cell else depth)
        assert scores == sorted(scores)


def test_random_restarts_play_moves_that_dig_nowhere_before_those_that_dig() -> None:
    """After the first attempt, Duchess and Cicely order the moves by the noise alone: a move
    off a pile that holds no wanted card sometimes comes before one whose pile shows a wanted
    card on top; Kingsdown Eights, digging, never does that."""
    for slug in ("cicely", "duchess", "kingsdown-eights"):
        policy = policy_for(kibitz.game(slug))
        assert isinstance(policy, CanonicalPolicy)
        count = 0
        for state in positions(slug, 40):
            for attempt in (1, 2, 3):
                digging = Digging(policy, attempt)
                wanted = digging.wanted(state)
                depths = []
                for move in digging.ordered_moves(state):
                    source = state.game.pile_index(move.source)
                    if move.target.startswith("f") or move.is_deal or source not in policy.dig_sources.values():
                        continue
                    pile = state.piles[source]
                    depths.append(wanted_depth(pile, wanted))
                count += any(a == NOT_WANTED and b == 0 for k, a in enumerate(depths) for b in depths[k + 1:])
        assert (count > 0) == policy.first_pass_settings.random_restarts, slug


def test_restarts_reorder_the_same_moves() -> None:
    policy = policy_for(kibitz.game("cicely"))
    differ = 0
    for state in positions("cicely", 30):
        first = Digging(policy, 0).ordered_moves(state)
        for attempt in (1, 2):
            again = Digging(policy, attempt).ordered_moves(state)
            assert sorted(again) == sorted(first)
            assert again == Digging(policy, attempt).ordered_moves(state)  # reproducible
            differ += again != first
    assert differ > 0


def test_the_first_pass_restarts_until_it_wins() -> None:
    game = kibitz.game("cicely")
    policy = policy_for(game)
    # Deal 9: the first attempts run out of their budgets, a later one wins.
    result = first_pass(game.deal(9), policy, Limits(seconds=None, nodes=30_000))
    assert result.outcome is Outcome.WON
    verify_win(game.deal(9), result.moves)
    budget = policy.first_pass_settings.budget
    assert budget is not None and result.nodes > 2 * budget
    again = first_pass(game.deal(9), policy, Limits(seconds=None, nodes=30_000))
    assert again.moves == result.moves and again.nodes == result.nodes


def test_node_limited_solves_are_reproducible() -> None:
    game = kibitz.game("kingsdown-eights")
    results = [solve(game.deal(3), Limits(seconds=None, nodes=20_000)) for _ in range(2)]
    assert results[0].outcome == results[1].outcome
    assert results[0].moves == results[1].moves and results[0].nodes == results[1].nodes


def test_attempt_budgets_grow_up_to_the_policys_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cicely's attempts get at most ``FirstPass.most`` nodes each; without the bound they grow on."""
    game = kibitz.game("cicely")
    state = game.deal(30806)  # the first pass does not win it within the limit
    policy = policy_for(game)
    assert policy.first_pass_settings.budget is not None and policy.first_pass_settings.most is not None
    caps: list[int | None] = []
    real_search = search_module.search

    def recording(state: State, policy: Policy, limits: Limits, finished: set[Hashable] | None = None,
                  looks: Looks | None = None) -> SolveResult:
        caps.append(limits.nodes)
        return real_search(state, policy, limits, finished, looks)

    monkeypatch.setattr(search_module, "search", recording)
    limit = 12 * policy.first_pass_settings.most
    assert first_pass(state, policy, Limits(seconds=None, nodes=limit)).outcome is Outcome.UNKNOWN
    budgets = [cap for cap in caps if cap is not None]
    assert len(budgets) == len(caps) > 10
    assert budgets[0] == policy.first_pass_settings.budget
    assert max(budgets) == policy.first_pass_settings.most
    assert budgets[:-1] == sorted(budgets[:-1])  # growing, then level (the last is what is left)
    assert budgets.count(policy.first_pass_settings.most) >= 5
    most = policy.first_pass_settings.most
    caps.clear()
    monkeypatch.setattr(policy, "first_pass_settings", replace(policy.first_pass_settings, most=None))
    first_pass(state, policy, Limits(seconds=None, nodes=limit))
    assert max(cap for cap in caps if cap is not None) > most


def test_a_budget_that_keeps_growing_stops_at_the_largest_node_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """Attempts that abandon a subtree and attempts that then find nothing left, in turn,
    grow the budget without spending it: under a time limit alone it stops at
    ``MOST_BUDGET`` (the native search's largest count, where its arithmetic saturates),
    where it grew without end and the caps made from it overflowed a float after some
    15,000 attempts."""
    game = kibitz.game("kingsdown-eights")
    policy = policy_for(game)
    budgets: list[int] = []

    def attempt(state: State, quick: Policy, limits: Limits, finished: set[Hashable] | None = None,
                looks: Looks | None = None) -> SolveResult:
        assert isinstance(quick, Digging) and limits.nodes is not None and quick.deal_cap is not None
        budgets.append(limits.nodes)
        if len(budgets) == 16_000:
            return SolveResult(Outcome.WON, nodes=1, states=1)
        if len(budgets) % 2:
            return SolveResult(Outcome.UNKNOWN, reason="subtree cap", nodes=1, states=1)
        return SolveResult(Outcome.LOST, nodes=1, states=1)

    monkeypatch.setattr(search_module, "search", attempt)
    assert first_pass(game.deal(7), policy, Limits(seconds=600)).outcome is Outcome.WON
    assert len(budgets) == 16_000 and budgets[0] == policy.first_pass_settings.budget
    assert budgets == sorted(budgets)
    assert budgets[-1] == search_module.MOST_BUDGET == 2**64 - 1
    assert budgets.count(search_module.MOST_BUDGET) > 10_000


class Recording(Digging):
    """A digging attempt that records the positions it searches from."""

    def __init__(self, policy: CanonicalPolicy, attempt: int) -> None:
        super().__init__(policy, attempt)
        self.expanded: list[State] = []

    def ordered_moves(self, state: State) -> list[Move]:
        self.expanded.append(state)
        return super().ordered_moves(state)


def test_later_attempts_skip_what_earlier_ones_searched_through() -> None:
    """``search``'s ``finished``: an attempt adds the positions it searched through, not
    those on its path when it stops, and a later attempt searches from none of them."""
    game = kibitz.game("kingsdown-eights")
    state = game.deal(20021)  # no attempt wins it within these limits
    policy = policy_for(game)
    limits = Limits(seconds=None, nodes=3_000)
    finished: set[Hashable] = set()
    first = Recording(policy, 1)
    assert search_module.search(state, first, limits, finished).outcome is Outcome.UNKNOWN
    assert finished and policy.key(first.expanded[0]) not in finished  # the root was on the path
    before = set(finished)
    later = Recording(policy, 1)  # the same order: it would search the same positions again
    search_module.search(state, later, limits, finished)
    assert len(later.expanded) > 100 and not {policy.key(s) for s in later.expanded} & before
    assert before < finished  # nothing searched through leaves it
    alone = Recording(policy, 1)
    search_module.search(state, alone, limits)
    assert [policy.key(s) for s in alone.expanded] == [policy.key(s) for s in first.expanded]  # without it


def _cards_dealt(state: State) -> int:
    """How far a position is past its deals: its stock's length, negated."""
    return -len(state.piles[state.game.stock])


def _round(state: State) -> int:
    """How far a position is past its redeals: its round."""
    return state.round


class _Recording(Digging):
    """A digging attempt that records ``past(position)`` for each position it expands, and
    ``None`` before each position whose subtree is capped (below a deal or a redeal)."""

    def __init__(self, full: CanonicalPolicy, past: Callable[[State], int], attempt: int,
                 deal_cap: int | None = None, redeal_cap: int | None = None) -> None:
        super().__init__(full, attempt, deal_cap, redeal_cap)
        self.past = past
        self.recorded: list[int | None] = []

    def ordered_moves(self, state: State) -> list[Move]:
        self.recorded.append(self.past(state))
        return super().ordered_moves(state)

    def subtree_budget(self, parent: State, child: State) -> int | None:
        budget = super().subtree_budget(parent, child)
        if budget is not None:
            self.recorded.append(None)
        return budget

    def went_past_the_start(self) -> bool:
        """Whether the search went past where it started (below a deal or a redeal)."""
        start = self.recorded[0]
        return start is not None and any(value is not None and value > start for value in self.recorded)

    def longest_run_past_the_start(self) -> int:
        """The most positions expanded in a row further past than the first one, counted
        from the last capped subtree's position."""
        start = self.recorded[0]
        assert start is not None
        longest = run = 0
        for value in self.recorded:
            run = 0 if value is None else run + 1 if value > start else 0
            longest = max(longest, run)
        return longest


@pytest.mark.parametrize("number", [5, 11])
def test_a_deal_cap_abandons_the_search_below_each_deal(number: int) -> None:
    """With a deal cap of ``c``, a digging attempt expands at most ``c + 2`` positions below a
    deal before it backs up above it (the deal's position, and the one whose count passes the
    cap); without it, it goes on below the first deal it meets."""
    game = kibitz.game("kingsdown-eights")
    policy = policy_for(game)
    assert isinstance(policy, CanonicalPolicy)
    cap = 150
    runs = {}
    for deal_cap in (cap, None):
        attempt = _Recording(policy, _cards_dealt, 1, deal_cap=deal_cap)
        assert attempt.caps_subtrees == (deal_cap is not None)
        search_module.search(game.deal(number), attempt, Limits(seconds=None, nodes=20_000))
        assert attempt.went_past_the_start(), "the search met no deal"
        runs[deal_cap] = attempt.longest_run_past_the_start()
    assert runs[cap] <= cap + 2 < runs[None]


def test_the_deal_cap_is_the_policys_share_of_an_attempts_budget() -> None:
    game = kibitz.game("kingsdown-eights")
    policy = policy_for(game)
    assert isinstance(policy, CanonicalPolicy) and policy.first_pass_settings.deal_cap is not None
    attempt = policy.first_pass(4, 10_001)
    assert isinstance(attempt, Digging) and attempt.attempt == 4
    assert attempt.deal_cap == int(10_001 * policy.first_pass_settings.deal_cap)
    state = game.deal(7)
    dealt = state.apply(next(m for m in state.legal_moves if m.is_deal))
    assert attempt.subtree_budget(state, dealt) == attempt.deal_cap
    played = state.apply(next(m for m in state.legal_moves if not m.is_deal))
    assert attempt.subtree_budget(state, played) is None
    unbounded = policy.first_pass(4)
    assert isinstance(unbounded, Digging) and unbounded.deal_cap is None and not unbounded.caps_subtrees
    for slug in ("cicely", "duchess"):
        other = policy_for(kibitz.game(slug))
        quick = other.first_pass(0, 10_000)
        assert isinstance(quick, Digging) and quick.deal_cap is None, slug


@pytest.mark.parametrize("ruleset", kibitz.RULESETS)
def test_a_redeal_cap_abandons_the_search_below_each_redeal(ruleset: str) -> None:
    """With a redeal cap of ``c``, a digging attempt expands at most ``c + 2`` positions of
    the next round in a row before it backs up above the redeal; without it, it goes on
    below the first redeal it meets."""
    game = kibitz.game("duchess", ruleset)
    policy = policy_for(game)
    assert isinstance(policy, CanonicalPolicy)
    cap = 60
    runs = {}
    for redeal_cap in (cap, None):
        attempt = _Recording(policy, _round, 0, redeal_cap=redeal_cap)
        assert attempt.caps_subtrees == (redeal_cap is not None)
        search_module.search(game.deal(244), attempt, Limits(seconds=None, nodes=20_000))
        assert attempt.went_past_the_start(), "the search met no redeal"
        runs[redeal_cap] = attempt.longest_run_past_the_start()
    assert runs[cap] <= cap + 2 < runs[None]
    share = policy.first_pass_settings.redeal_cap
    assert share is not None
    for attempt_number, expected in ((2, None), (3, int(10_001 * share)), (4, None), (7, int(10_001 * share))):
        quick = policy.first_pass(attempt_number, 10_001)
        assert isinstance(quick, Digging) and quick.deal_cap is None
        assert quick.redeal_cap == expected, attempt_number


@pytest.mark.parametrize("number", [2, 187])
def test_a_pass_left_with_only_abandoned_positions_forgets_them_and_goes_on(
        number: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Deals with few ways of reaching their first deal: the attempts soon find nothing to
    search but positions abandoned below a deal (kept as searched through). The pass then
    clears the table the attempts share and goes on with a larger budget, so larger caps,
    and wins; it does not end there, leaving the rest of the time to the full search."""
    game = kibitz.game("kingsdown-eights")
    policy = policy_for(game)
    parts: list[tuple[int, int | None, SolveResult]] = []  # (remembered, budget, result)
    real_search = search_module.search

    def recording(state: State, quick: Policy, limits: Limits, finished: set[Hashable] | None = None,
                  looks: Looks | None = None) -> SolveResult:
        remembered = 0 if finished is None else len(finished)
        result = real_search(state, quick, limits, finished, looks)
        parts.append((remembered, limits.nodes, result))
        return result

    monkeypatch.setattr(search_module, "search", recording)
    result = first_pass(game.deal(number), policy, Limits(seconds=None, nodes=50_000))
    assert result.outcome is Outcome.WON
    exhausted = [i for i, (_, _, part) in enumerate(parts) if part.outcome is Outcome.LOST]
    assert exhausted and exhausted[0] < len(parts) - 1, "no attempt was left with only abandoned positions"
    for i in exhausted:
        assert any(part.reason == "subtree cap" for _, _, part in parts[:i])
        remembered, budget, _ = parts[i + 1]
        assert remembered == 0  # the table was cleared
        assert budget is not None and budget > (parts[i][1] or 0)  # and the budget grew


def line_positions(slug: str, number: int) -> list[State]:
    """The positions along the winning line the solver finds for deal ``number``."""
    state = kibitz.game(slug).deal(number)
    result = solve(state, Limits(seconds=None, nodes=50_000))
    assert result.outcome is Outcome.WON, (slug, number, result.outcome)
    found = [state]
    for move in result.moves:
        found.append(found[-1].apply(move))
    return found


@pytest.mark.parametrize("slug", ["duchess", "kingsdown-eights"])
def test_the_first_pass_moves_between_tableau_piles_only_to_uncover_a_wanted_card(
        slug: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``FirstPass.uncovers``, the moves an attempt skips are exactly the moves from a
    tableau pile onto a non-empty one that leave on their source a card no foundation takes
    now; the other moves keep their order."""
    game = kibitz.game(slug)
    policy = policy_for(game)
    assert isinstance(policy, CanonicalPolicy) and policy.first_pass_settings.uncovers
    plain = type(policy)(game)  # policy_for keeps one policy per game
    monkeypatch.setattr(plain, "first_pass_settings", replace(plain.first_pass_settings, uncovers=False))
    tableau = {game.piles[i].name: i for i in game.tableau}
    skipped = kept = 0
    for number in (1, 3, 4):
        for state in line_positions(slug, number):
            for attempt in (0, 1):
                with_rule = Digging(policy, attempt).ordered_moves(state)
                without = Digging(plain, attempt).ordered_moves(state)
                wanted = Digging(policy, 0).wanted(state)
                expected = []
                for move in without:
                    source, target = tableau.get(move.source), tableau.get(move.target)
                    if source is not None and target is not None and state.piles[target]:
                        pile = state.piles[source]
                        if len(pile) > move.size and pile[-move.size - 1] & IDENTITY not in wanted:
                            skipped += 1
                            continue
                        kept += len(pile) > move.size
                    expected.append(move)
                if attempt == 0:  # later attempts draw their noise per move, so only the set agrees
                    assert with_rule == expected
                assert sorted(with_rule) == sorted(expected)
    assert skipped > 0 and kept > 0, (skipped, kept)


def test_a_first_pass_forgets_at_its_own_table_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever the limits' table, the attempts' shared table holds at most
    ``FIRST_PASS_TABLE`` positions before the pass forgets them (as with that table limit)."""
    game = kibitz.game("kingsdown-eights")
    monkeypatch.setattr(search_module, "FIRST_PASS_TABLE", 2_500)

    def passed(table: int | None) -> dict[str, object]:
        row = first_pass(game.deal(20021), policy_for(game), Limits(seconds=None, nodes=10_000, table=table)).as_dict()
        del row["seconds"]
        return row

    unset = passed(None)
    assert unset["peak_table"] == 2_500 and unset["outcome"] == "unknown"
    assert passed(1_000_000) == unset == passed(2_500)
    assert passed(1_000)["peak_table"] == 1_000


@pytest.mark.parametrize(("ruleset", "number"), [("standard", 96), ("pysolfc", 20), ("pysolfc", 86)])
def test_a_split_first_pass_wins_as_the_series_of_its_winning_move_alone(ruleset: str, number: int) -> None:
    """Where the position splits (Duchess before its base rank is chosen), each position
    where the split is made starts a series of attempts of its own: the series that wins
    (here not the first one's) plays the same attempts as the first pass from that position
    alone, so it wins with the same line, after the other series had their turns."""
    game = kibitz.game("duchess", ruleset)
    policy = policy_for(game)
    state = game.deal(number)
    leaves = search_module.split_leaves(policy, state)
    assert leaves is not None
    limits = Limits(seconds=None, nodes=60_000)
    split = first_pass(state, policy, limits)
    assert split.outcome is Outcome.WON
    verify_win(state, split.moves)
    winning = [k for k, (line, _) in enumerate(leaves) if split.moves[:len(line)] == line]
    assert len(winning) == 1 and winning[0] >= 1
    line, leaf = leaves[winning[0]]
    alone = first_pass(leaf, policy, limits)
    assert alone.outcome is Outcome.WON
    assert split.moves[len(line):] == alone.moves
    assert split.nodes > alone.nodes


def test_the_series_of_a_split_first_pass_take_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    """One attempt per leaf of the split in turn, in their order, each series with its own
    budget growing from the policy's first, and a table of an equal share of
    ``FIRST_PASS_TABLE``."""
    game = kibitz.game("duchess", "pysolfc")
    policy = policy_for(game)
    state = game.deal(20)
    leaves = search_module.split_leaves(policy, state)
    assert leaves is not None
    children = [leaf.key for _, leaf in leaves]
    assert len(children) >= 3
    calls: list[tuple[Hashable, int | None, int | None]] = []
    search = search_module.search

    def recorded(start: State, quick: Policy, limits: Limits, finished: set[Hashable] | None = None,
                 looks: Looks | None = None) -> SolveResult:
        calls.append((start.key, limits.nodes, limits.table))
        return search(start, quick, limits, finished, looks)

    monkeypatch.setattr(search_module, "search", recorded)
    budget = policy.first_pass_settings.budget
    assert budget is not None
    first_pass(state, policy, Limits(seconds=None, nodes=len(children) * budget * 3))
    assert len(calls) >= 2 * len(children)
    rounds = len(calls) // len(children)
    assert [start for start, _, _ in calls] == children * rounds + children[:len(calls) % len(children)]
    assert {table for _, _, table in calls} == {search_module.FIRST_PASS_TABLE // len(children)}
    assert [nodes for _, nodes, _ in calls[:len(children)]] == [budget] * len(children)
    grown = int(budget * policy.first_pass_settings.growth)
    assert [nodes for _, nodes, _ in calls[len(children):2 * len(children)]] == [grown] * len(children)


@pytest.mark.parametrize("number", [1, 3, 10])
def test_a_split_is_made_at_the_positions_where_the_base_is_chosen(number: int) -> None:
    """Under the pysolfc rules a reserve card may be built on the tableau before the base
    rank is chosen: the leaves of the split are the positions that follow such builds too,
    each once, none of them still split, each reached by its line; the first pass's series
    start there. Under the standard rules they are the deal's moves."""
    for ruleset in kibitz.RULESETS:
        game = kibitz.game("duchess", ruleset)
        policy = policy_for(game)
        state = game.deal(number)
        leaves = search_module.split_leaves(policy, state)
        assert leaves is not None
        for line, leaf in leaves:
            assert leaf.base is not None and not policy.splits_at(leaf)
            reached = state
            for move in line:
                assert move in reached.legal_moves
                reached = reached.apply(move)
            assert reached.key == leaf.key
        assert len({policy.key(leaf) for _, leaf in leaves}) == len(leaves)
        moves = policy.ordered_moves(state)
        bases = [move for move in moves if state.apply(move).base is not None]
        assert [line[-1] for line, _ in leaves if len(line) == 1] == bases
        if ruleset == "standard":
            assert bases == moves
        else:
            builds = [line for line, _ in leaves if len(line) > 1]
            assert builds and all(state.apply(line[0]).base is None for line in builds)
    assert search_module.split_leaves(policy, state.apply(bases[0])) is None
