"""The kibitz solver: decides whether a position can be won, with full knowledge of the cards.

"Thoughtful" play in the literature's sense: the search sees every card, face down
or not, but moves only by the rules. A reported win is replayed through the rules
before it is returned. The solver is a client of the core; the core never imports it.

>>> import kibitz
>>> from kibitz.solver import solve, Limits
>>> result = solve(kibitz.game("duchess").deal(1), Limits(seconds=5))
>>> result.outcome.value in ("won", "lost", "unknown")
True
"""

from __future__ import annotations

from dataclasses import replace

from kibitz.moves import Move
from kibitz.solver import interrupts
from kibitz.solver.native_search import solve_natively
from kibitz.solver.policies import policy_for
from kibitz.solver.policy import Policy
from kibitz.solver.result import Limits, Outcome, SolveResult
from kibitz.solver.search import first_pass, search
from kibitz.state import State

SOLVER_VERSION = 22
"""Bumped whenever a change could alter a verdict or the moves returned; stored with study results.
(Version 7 changed only Kingsdown Eights: its first pass's budget grows by 1.1 per restart.
Version 8 changed only Tournament and Napoleon's Flank in the pysolfc ruleset: their first
pass plays the standard ruleset's moves, ``FirstPass.foundations_final``. Version 9 changed only
Duchess and Cicely: their first pass's budget grows by 1.1 per restart, as in Kingsdown
Eights. Version 10 changed only the digging first pass of Duchess, Cicely and Kingsdown
Eights: its attempts skip the positions earlier attempts searched through, and in Cicely no
attempt gets more than 1,000 nodes, ``FirstPass.most``. Version 11 changed only
the first pass of Duchess and Cicely: its attempts after the first play random lines instead
of digging for the wanted cards, ``FirstPass.random_restarts``. Version 12 changed
only Kingsdown Eights: each attempt of its first pass abandons the search below a deal after
a quarter of its budget, ``FirstPass.deal_cap``. Version 13 changed only the first
pass of Duchess and Kingsdown Eights: it moves cards between two non-empty tableau piles
only to uncover a card a foundation takes, ``FirstPass.uncovers``; in Duchess's
pysolfc ruleset, where only whole piles move between tableau piles, nothing changed.
Version 14 changed only Kingsdown Eights, the one game with a deal cap: when an attempt of
its first pass finds nothing left to search but what the attempts abandoned below a deal,
the pass forgets what they searched through and goes on, where it used to end and leave
the rest of the limits to the full search. Version 15 changed only Duchess: every other
attempt of its first pass abandons the search below a redeal after 1% of its budget,
``FirstPass.redeal_cap``. Version 16: the native search's table holds up to 32,000,000
positions, where it held 4,000,000 as Python's does (:data:`~kibitz.solver.result.NATIVE_TABLE`),
and Duchess under the pysolfc rules proves a loss where its tableau piles hold cards that
must reach the foundations in a circle (``policies.duchess.order_deadlocked``). Version 17
changed Duchess, the one game whose search splits: where the first pass's position splits,
each position where the base rank is chosen starts a series of attempts of its own
(``search.split_leaves``), and the series take turns, one attempt each (``search.first_pass``);
and Kingsdown Eights's first pass gets 97% of the limits instead of 90%
(``KingsdownEightsPolicy``'s ``FirstPass.share``). Version 18 changed only Kingsdown Eights, the
one game with a deal cap: once its first pass has searched 2,000,000 nodes, a deal below
another deal gets at most a quarter of what the outer deal's subtree has left
(``FirstPass.nested_cap``). Version 19 changed only Kingsdown Eights, the one game
that looks at its end games: once its first pass has searched 2,000,000 nodes, the search
below a position right after the last deal begins with a look of 1,000 nodes, and goes on
only where the look got about as many cards onto the foundations as the best look before
it (``FirstPass.look``). Version 20 changed only Kingsdown Eights: once its first
pass has searched 2,000,000 nodes, an attempt's budget that grows grows by 1.6 instead of
1.1 (``FirstPass.late_growth``), and its first pass gets 99% of the limits instead
of 97%. Version 21 changed no search, only the native kernel's speed: it generates moves
with the piles that want each card as bits, seeds the digging noise from the board's own
buffer instead of joining its piles, and sorts less. A node-limited search is the same
step by step; one limited by time gets further. Version 22 changed no search either: the
native kernel is built for the machine's processor and guided by a profile of its own runs
(``scripts/build_native``), so that one limited by time gets further again. The settings
named ``FirstPass.<field>`` above, each policy's ``first_pass_settings`` now, were attributes
of the policies when those versions were made: ``Policy.first_pass_<field>``, with
``first_pass_final`` for ``foundations_final``, and ``CanonicalPolicy.random_restarts``.)"""


class SolverBugError(AssertionError):
    """A winning line that does not replay through the rules: a bug, never an answer."""


def verify_win(state: State, moves: tuple[Move, ...]) -> None:
    """Replay ``moves`` from ``state`` with full legality checks; raise unless they win.

    Where the game's rules run natively the kernel replays the line (the same moves listed
    and applied as ``State.legal_moves`` and ``Game.apply_unchecked`` do, without making a
    state per move)."""
    kernel = state.game.kernel
    if kernel is not None:
        illegal, won = kernel.replay(state, moves)
    else:
        illegal, won = _replay(state, moves)
    if illegal is not None:
        raise SolverBugError(f"winning line does not replay: move {illegal + 1} ({moves[illegal]}) is illegal")
    if not won:
        raise SolverBugError(f"winning line of {len(moves)} moves does not end in a won position")


def _replay(state: State, moves: tuple[Move, ...]) -> tuple[int | None, bool]:
    """The index of the first of ``moves`` that is not legal where it is played (``None``
    when all are), and whether the line ends won."""
    apply = state.game.apply_unchecked  # each move is checked against the legal moves first
    for k, move in enumerate(moves):
        if move not in state.legal_moves:
            return k, False
        state = apply(state, move)
    return None, state.is_won()


def without_loops(state: State, moves: tuple[Move, ...]) -> tuple[Move, ...]:
    """``moves`` with every stretch that comes back to an earlier position cut out."""
    apply = state.game.apply_unchecked
    line: list[Move] = []
    positions = [state]
    index = {state.key: 0}
    for move in moves:
        state = apply(state, move)
        earlier = index.get(state.key)
        if earlier is not None:
            for dropped in positions[earlier + 1:]:
                del index[dropped.key]
            del positions[earlier + 1:]
            del line[earlier:]
            continue
        line.append(move)
        positions.append(state)
        index[state.key] = len(line)
    return tuple(line)


def solve(state: State, limits: Limits | None = None) -> SolveResult:
    """Decide ``state``: won (with the moves), lost (proved), or unknown (a limit was hit).

    A winning line has its loops cut out and is replayed through the rules before it is returned.
    Ctrl-C stops the search between two nodes and raises ``KeyboardInterrupt``
    (``kibitz.solver.interrupts``).
    """
    with interrupts.deferred():
        result = _solve(state, limits or Limits())
        if result.outcome is Outcome.WON:
            verify_win(state, result.moves)
    return result


def _solve(state: State, limits: Limits) -> SolveResult:
    """The first pass and the full search of ``solve``, a winning line with its loops cut
    out (by the kernel, when the search runs natively) but not yet replayed."""
    policy = policy_for(state.game)
    natively = solve_natively(state, policy, limits)  # the same search, in the native kernel
    if natively is not None:
        return natively
    result = _search(state, policy, limits)
    if result.outcome is Outcome.WON:
        result = replace(result, moves=without_loops(state, result.moves))
    return result


def _search(state: State, policy: Policy, limits: Limits) -> SolveResult:
    """The first pass and the full search in Python, the winning line as found."""
    if policy.first_pass() is None:
        return search(state, policy, limits)
    first = first_pass(state, policy, limits.share(policy.first_pass_settings.share))
    if first.outcome is Outcome.WON or first.reason == interrupts.INTERRUPTED:
        return first
    return search(state, policy, limits.after(first)).following(first)


def hint(state: State, limits: Limits | None = None) -> Move | None:
    """The first move of a winning line, or ``None`` when none was found within the limits."""
    result = solve(state, limits)
    if result.outcome is Outcome.WON and result.moves:
        return result.moves[0]
    return None


def is_winnable(state: State, limits: Limits | None = None) -> bool | None:
    """True (a win exists), False (proved lost) or None (undecided within the limits)."""
    outcome = solve(state, limits).outcome
    return None if outcome is Outcome.UNKNOWN else outcome is Outcome.WON


__all__ = ["Limits", "Outcome", "SOLVER_VERSION", "SolveResult", "SolverBugError",
           "hint", "is_winnable", "solve", "verify_win"]
