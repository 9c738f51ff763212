"""The solver's search in the native kernel (``kibitz.solver.native_search``) searches exactly
as the Python solver: the same outcome, moves and counters under node limits, the digging
first pass's seeded noise, Tournament's capped first pass, dives and proofs of loss included."""

from __future__ import annotations

import json
import random
from dataclasses import asdict, fields, replace
from typing import Any, Iterator

import pytest

import kibitz
from kibitz import native
from kibitz.moves import Move
from kibitz.solver import Limits, Outcome, SolverBugError, solve, verify_win
from kibitz.solver import result
from kibitz.solver import native_search
from kibitz.solver.native_search import search_of
from kibitz.solver.policies import policy_for
from kibitz.solver.policies.cicely import CicelyPolicy
from kibitz.solver.policy import FirstPass, Policy
from kibitz.solver.search import first_pass, split_leaves
from kibitz.state import State
from tests.hard_deal import HARD_DEAL
from tests.solver.reduce import crossing_position

pytestmark = pytest.mark.skipif(native.load() is None, reason="the native kernel is not built")

NATIVE_SEARCH = ("grand-duchess", "parisienne", "duchess", "cicely", "kingsdown-eights", "tournament", "napoleons-flank")
"""The games whose policies declare a native counterpart."""
PLAYOUTS = ("grand-duchess", "parisienne")
"""The games whose probes are random playouts."""


@pytest.fixture
def on_both() -> Iterator[None]:
    """Leaves every game in pure Python after the test."""
    yield
    native.use("python")


def solved(slug: str, ruleset: str, number: int, nodes: int) -> dict[str, object]:
    result = solve(kibitz.game(slug, ruleset).deal(number), Limits(seconds=None, nodes=nodes)).as_dict()
    del result["seconds"]
    return result


def test_which_policies_search_natively(on_both: None) -> None:
    native.use("native")
    for info in kibitz.games():
        for ruleset in kibitz.RULESETS:
            search = search_of(policy_for(kibitz.game(info.slug, ruleset)))
            assert (search is not None) == (info.slug in NATIVE_SEARCH), info.slug
    native.use("python")
    assert search_of(policy_for(kibitz.game("duchess"))) is None  # the rules run in Python


def test_the_kernel_reads_every_setting_of_the_first_pass(on_both: None) -> None:
    """The spec carries each policy's ``FirstPass`` whole, as one object, and the kernel
    refuses a first pass with a setting it does not read (none can be declared for the
    Python search alone) or without a count it needs."""
    native.use("native")
    module = native.load()
    assert module is not None
    names = {field.name for field in fields(FirstPass)}
    for slug in NATIVE_SEARCH:
        policy = policy_for(kibitz.game(slug))
        spec = native_search.search_spec(policy)
        settings = asdict(policy.first_pass_settings)
        assert spec["first_pass"] == settings and set(settings) == names, slug
        assert not any(key.startswith("first_pass_") for key in spec), slug
    policy = policy_for(kibitz.game("kingsdown-eights"))
    spec = native_search.search_spec(policy)
    settings = asdict(policy.first_pass_settings)
    module.Search(policy.game.kernel, json.dumps(spec))
    unread = {**settings, "unread": 1}
    missing = {name: value for name, value in settings.items() if name != "look_from"}
    for first_pass_spec in (unread, missing):
        with pytest.raises(ValueError, match="unread|look_from"):
            module.Search(policy.game.kernel, json.dumps({**spec, "first_pass": first_pass_spec}))


@pytest.mark.parametrize("slug", NATIVE_SEARCH)
@pytest.mark.parametrize("ruleset", kibitz.RULESETS)
def test_node_limited_solves_are_the_same_as_in_python(slug: str, ruleset: str, on_both: None) -> None:
    """Limits that stop the first pass early, after a few restarts (with noise), and in the
    full search; Duchess splits at its base rank in both."""
    cases = [(number, nodes) for number in (1, 2, 5, 6) for nodes in (150, 4000)]
    expected = [solved(slug, ruleset, number, nodes) for number, nodes in cases]
    native.use("native")
    assert search_of(policy_for(kibitz.game(slug, ruleset))) is not None
    assert [solved(slug, ruleset, number, nodes) for number, nodes in cases] == expected
    if slug not in PLAYOUTS:  # their first probe wins most deals at once: see below
        assert {row["outcome"] for row in expected} >= {"unknown"}


@pytest.mark.parametrize("slug", NATIVE_SEARCH)
@pytest.mark.parametrize("ruleset", kibitz.RULESETS)
def test_keys_from_reused_pile_hashes_are_the_keys_from_scratch(slug: str, ruleset: str, on_both: None) -> None:
    """The native search hashes only the piles a move changed and keeps the others' hashes
    from the parent, and makes a child's key before its board to skip positions met
    before: along walks of every kind of move (deals, foundation moves and moves that empty
    a pile included) both keys are the one made from scratch."""
    native.use("native")
    game = kibitz.game(slug, ruleset)
    search = search_of(policy_for(game))
    assert search is not None
    walked = 0
    for number in (3, 4, 7, 8, 9):
        steps, mismatches = search.reused_key_mismatches(game.deal(number), 400)
        assert mismatches == 0, (slug, ruleset, number)
        walked += steps
    assert walked >= 50  # the walks went somewhere


@pytest.mark.parametrize("ruleset", kibitz.RULESETS)
def test_tournament_caps_rounds_and_dives_as_in_python(ruleset: str, on_both: None) -> None:
    """Limits that end in the capped first pass, and in the full search, whose dives from the
    root count as nodes (so a solve stopped by its node limit has spent more)."""
    cases = [(number, nodes) for number in (2, 4) for nodes in (900, 12_000)]
    expected = [solved("tournament", ruleset, number, nodes) for number, nodes in cases]
    native.use("native")
    assert [solved("tournament", ruleset, number, nodes) for number, nodes in cases] == expected
    assert any(row["reason"] == "node limit" and int(str(row["nodes"])) > nodes
               for row, (_, nodes) in zip(expected, cases))


@pytest.mark.parametrize("ruleset", kibitz.RULESETS)
def test_grand_duchess_plays_out_and_proves_as_in_python(ruleset: str, on_both: None) -> None:
    """Deals that the playouts do not win at once: the search with its covers, proofs of
    loss and playouts every few hundred positions runs to its node limit in both."""
    cases = {"standard": [(69, 60_000), (2004, 20_000), (2004, 300)],
             "pysolfc": [(4, 60_000), (2003, 20_000), (2003, 300)]}[ruleset]
    expected = [solved("grand-duchess", ruleset, number, nodes) for number, nodes in cases]
    native.use("native")
    assert [solved("grand-duchess", ruleset, number, nodes) for number, nodes in cases] == expected
    assert {row["outcome"] for row in expected} >= {"unknown"}


def test_long_first_passes_are_the_same_as_in_python(on_both: None) -> None:
    """Limits at which Cicely's attempts reach ``FirstPass.most`` (after about 5,700 nodes)
    and stay there, and at which Kingsdown Eights's and Duchess's attempts skip many
    positions that earlier attempts searched through (``first_pass``'s ``finished``)."""
    most = policy_for(kibitz.game("cicely")).first_pass_settings.most
    assert most is not None
    cases = [("cicely", 30806, 12 * most), ("cicely", 9, 6 * most), ("kingsdown-eights", 20021, 25_000),
             ("duchess", 143, 25_000)]
    expected = [solved(slug, "standard", number, nodes) for slug, number, nodes in cases]
    native.use("native")
    assert [solved(slug, "standard", number, nodes) for slug, number, nodes in cases] == expected
    assert [row["outcome"] for row in expected] == ["unknown", "won", "unknown", "unknown"]


def test_a_first_pass_whose_table_fills_goes_on_as_in_python(on_both: None) -> None:
    """The positions a first pass's attempts searched through fill the table: the pass
    forgets them and restarts, in both builds alike."""
    game = kibitz.game("kingsdown-eights")
    limits = Limits(seconds=None, nodes=12_000, table=2_500)
    quick = first_pass(game.deal(20021), policy_for(game), limits.share(0.9))
    assert (quick.outcome, quick.reason, quick.peak_table) == (Outcome.UNKNOWN, "node limit", 2_500)

    def solved_within() -> dict[str, object]:
        row = solve(game.deal(20021), limits).as_dict()
        del row["seconds"]
        return row

    expected = solved_within()
    native.use("native")
    assert solved_within() == expected


def test_a_first_pass_left_with_only_abandoned_positions_goes_on_as_in_python(on_both: None) -> None:
    """Kingsdown Eights deals whose attempts soon find nothing to search but positions they
    abandoned below a deal: both builds clear the attempts' table at the same point and go on
    alike (see ``first_pass``)."""
    cases = [(2, 3_000), (2, 20_000), (187, 20_000), (91, 6_000)]
    expected = [solved("kingsdown-eights", "standard", number, nodes) for number, nodes in cases]
    native.use("native")
    assert [solved("kingsdown-eights", "standard", number, nodes) for number, nodes in cases] == expected
    assert {row["outcome"] for row in expected} == {"won", "unknown"}


@pytest.mark.parametrize("ruleset", kibitz.RULESETS)
def test_a_first_pass_capped_below_redeals_is_the_same_as_in_python(
        ruleset: str, on_both: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Duchess deals whose first pass meets the redeal in many attempts: the odd ones abandon
    the search below it after their share of the budget (``FirstPass.redeal_cap``), in both
    builds alike, and the cap changes what the Python search does."""
    cases = [(244, 20_000), (282, 30_000), (1154, 12_000)]
    expected = [solved("duchess", ruleset, number, nodes) for number, nodes in cases]
    native.use("native")
    assert [solved("duchess", ruleset, number, nodes) for number, nodes in cases] == expected
    native.use("python")
    policy = policy_for(kibitz.game("duchess", ruleset))
    monkeypatch.setattr(policy, "first_pass_settings", replace(policy.first_pass_settings, redeal_cap=None))
    assert [solved("duchess", ruleset, number, nodes) for number, nodes in cases] != expected


@pytest.mark.parametrize("slug", ["cicely", "kingsdown-eights", "tournament", "duchess"])
def test_a_full_table_stops_the_search_as_in_python(slug: str, on_both: None) -> None:
    """The native table keeps 128-bit hashes of the keys, Python the keys: both fill after
    the same positions and report the same counters."""
    def memory_limited() -> list[dict[str, object]]:
        rows = []
        for number in (88, 3):
            row = solve(kibitz.game(slug).deal(number), Limits(seconds=None, table=150)).as_dict()
            del row["seconds"]
            rows.append(row)
        return rows

    expected = memory_limited()
    native.use("native")
    assert memory_limited() == expected
    assert any(row["reason"] == "memory limit" for row in expected)


def test_an_unset_table_limit_is_each_builds_own(on_both: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """``Limits.table`` left unset: Python's search holds up to ``PYTHON_TABLE`` positions,
    the native one up to ``NATIVE_TABLE``; each build reads its own."""
    monkeypatch.setattr(result, "PYTHON_TABLE", 150)
    monkeypatch.setattr(result, "NATIVE_TABLE", 1_000_000)
    state = kibitz.game("kingsdown-eights").deal(20021)
    limits = Limits(seconds=None, nodes=20_000)

    def row() -> dict[str, object]:
        solved = solve(state, limits).as_dict()
        del solved["seconds"]
        return solved

    in_python = row()
    assert (in_python["reason"], in_python["peak_table"]) == ("memory limit", 150)
    native.use("native")
    natively = row()
    assert natively["reason"] != "memory limit" and natively["peak_table"] > 150
    monkeypatch.setattr(result, "NATIVE_TABLE", 150)
    assert row() == in_python


def test_duchess_order_deadlocks_prune_alike(on_both: None) -> None:
    """Random pysolfc positions with a base card under another card in the tableau
    (``order_deadlocked``): node-limited solves agree in both builds, and the rule proves
    some of them lost at once."""
    rng = random.Random("duchess order deadlocks in both builds")
    states = [crossing_position(rng) for _ in range(40)]
    policy = policy_for(states[0].game)

    def rows() -> list[dict[str, object]]:
        solved = [solve(state, Limits(seconds=None, nodes=3_000)).as_dict() for state in states]
        for row in solved:
            del row["seconds"]
        return solved

    expected = rows()
    native.use("native")
    assert rows() == expected
    assert sum(policy.is_hopeless(state) for state in states) >= 5
    assert sum(row["outcome"] == "lost" and row["nodes"] == 0 for row in expected) >= 5


def test_a_policy_of_another_class_searches_in_python(on_both: None) -> None:
    native.use("native")
    game = kibitz.game("cicely")

    class Tweaked(CicelyPolicy):
        """A subclass: its search may differ, so it has no native counterpart."""

    assert search_of(Tweaked(game)) is None
    assert search_of(policy_for(game)) is not None


def test_a_native_search_stops_at_its_time_limit(on_both: None) -> None:
    native.use("native")
    result = solve(kibitz.game("kingsdown-eights").deal(HARD_DEAL), Limits(seconds=0.05))
    assert result.outcome.value == "unknown" and result.reason == "time limit"
    assert 0.04 < result.seconds < 1.0


@pytest.mark.parametrize("build", ["python", "native"])
def test_a_winning_line_is_replayed_with_every_check(build: str, on_both: None) -> None:
    """``verify_win`` (the kernel's replay in the native build) accepts the solver's line and
    names the first illegal move of a broken one, or says that a cut line does not win."""
    native.use(build)
    state = kibitz.game("cicely").deal(1)
    result = solve(state, Limits(seconds=None, nodes=100_000))
    assert result.outcome.value == "won"
    moves = result.moves
    verify_win(state, moves)
    with pytest.raises(SolverBugError, match="does not end in a won position"):
        verify_win(state, moves[:-1])
    broken = moves[:5] + moves[4:]  # the fifth move played twice
    first_illegal = _first_illegal(state, broken)
    assert first_illegal is not None
    with pytest.raises(SolverBugError, match=rf"move {first_illegal + 1} \("):
        verify_win(state, broken)


def _first_illegal(state: State, moves: tuple[Move, ...]) -> int | None:
    """The index of the first of ``moves`` that is not legal where it is played (the rules' own check)."""
    for k, move in enumerate(moves):
        if not state.is_legal(move):
            return k
        state = state.apply(move)
    return None


def test_a_first_pass_split_below_builds_is_the_same_as_in_python(on_both: None) -> None:
    """Duchess deals whose cards may be built on the tableau before the base rank is chosen
    (pysolfc rules): both builds split the first pass at the same positions (``split_leaves``,
    those that only reorder another's moves left out) and take the same turns."""
    policy = policy_for(kibitz.game("duchess", "pysolfc"))
    leaves = [split_leaves(policy, policy.game.deal(number)) for number in (3, 19, 31)]
    assert all(found is not None and len(found) > 8 for found in leaves)
    cases = [(number, nodes) for number in (3, 19, 31) for nodes in (3_000, 40_000)]
    expected = [solved("duchess", "pysolfc", number, nodes) for number, nodes in cases]
    native.use("native")
    assert [solved("duchess", "pysolfc", number, nodes) for number, nodes in cases] == expected


def same_in_both_and_changed_by(policy: Policy, settings: dict[str, Any], switch_off: str,
                                monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``settings`` in the Kingsdown Eights ``policy``'s first pass (fields of its
    ``FirstPass``), both builds give the same node-limited results on four deals, and
    setting the field ``switch_off`` to ``None`` changes what the Python search gives (so
    that the settings are tried at all)."""
    monkeypatch.setattr(policy, "first_pass_settings", replace(policy.first_pass_settings, **settings))
    monkeypatch.setattr(native_search, "_SEARCHES", {})  # the native spec is read afresh
    cases = [(2, 20_000), (91, 6_000), (187, 20_000), (20021, 25_000)]
    expected = [solved("kingsdown-eights", "standard", number, nodes) for number, nodes in cases]
    native.use("native")
    assert [solved("kingsdown-eights", "standard", number, nodes) for number, nodes in cases] == expected
    native.use("python")
    switched_off: dict[str, Any] = {switch_off: None}
    monkeypatch.setattr(policy, "first_pass_settings", replace(policy.first_pass_settings, **switched_off))
    assert [solved("kingsdown-eights", "standard", number, nodes) for number, nodes in cases] != expected


@pytest.mark.parametrize("nested_from", [0, 4_000])
def test_a_first_pass_with_nested_deal_caps_is_the_same_as_in_python(
        nested_from: int, on_both: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Kingsdown Eights with the nested share of its deal caps (``FirstPass.nested_cap``)
    from the first node, or from a point the pass reaches after a few attempts: both builds
    cap the last deal alike, and the share changes what the Python search does."""
    policy = policy_for(kibitz.game("kingsdown-eights"))
    same_in_both_and_changed_by(policy, {"nested_from": nested_from}, "nested_cap", monkeypatch)


@pytest.mark.parametrize("look, margin, look_from", [(300, 0, 0), (150, 3, 4_000)])
def test_a_first_pass_with_looks_at_the_end_games_is_the_same_as_in_python(
        look: int, margin: int, look_from: int, on_both: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Kingsdown Eights with short looks at its end games (``FirstPass.look``), some of
    which go on and some not, from the first node or from a point the pass reaches after
    a few attempts: both builds end and extend the looks alike, and the looks change what
    the Python search does."""
    policy = policy_for(kibitz.game("kingsdown-eights"))
    settings = {"look": look, "look_margin": margin, "look_from": look_from}
    same_in_both_and_changed_by(policy, settings, "look", monkeypatch)


@pytest.mark.parametrize("growth, growth_from", [(2.0, 0), (1.6, 4_000)])
def test_a_first_pass_with_a_later_growth_is_the_same_as_in_python(
        growth: float, growth_from: int, on_both: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Kingsdown Eights with another growth of its attempts' budgets
    (``FirstPass.late_growth``), from the first node or from a point the pass reaches
    after a few attempts: both builds grow the budgets alike, and the growth changes what
    the Python search does."""
    policy = policy_for(kibitz.game("kingsdown-eights"))
    settings = {"late_growth": growth, "late_growth_from": growth_from}
    same_in_both_and_changed_by(policy, settings, "late_growth", monkeypatch)
