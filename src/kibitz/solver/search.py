"""Depth-first search with a transposition table, for any game and position."""

from __future__ import annotations

from dataclasses import replace
from typing import Hashable

from kibitz.moves import Move
from kibitz.solver import interrupts
from kibitz.solver.policy import Policy
from kibitz.solver.result import FIRST_PASS_TABLE, NODE_LIMIT, TIME_LIMIT, Budget, Limits, Outcome, SolveResult
from kibitz.state import State

TIME_CHECK_EVERY = 512
"""Nodes between clock readings (and checks for Ctrl-C, ``kibitz.solver.interrupts``)."""


class _Frame:
    __slots__ = ("state", "key", "moves", "next", "line", "abandon_after", "promote_to")

    def __init__(self, state: State, key: Hashable, moves: list[Move], line: list[Move],
                 abandon_after: int | None = None, promote_to: int | None = None) -> None:
        self.state = state
        self.key = key
        self.moves = moves
        self.next = 0
        self.line = line
        """The moves from the parent frame's state to this one (the branch, then safe moves)."""
        self.abandon_after = abandon_after
        """Node count past which the innermost capped subtree holding this frame is
        abandoned (``Policy.subtree_budget``), or ``None``."""
        self.promote_to = promote_to
        """Where a look begins (``Policy.look_budget``), while it lasts: the node count its
        subtree is abandoned past when the look goes on."""


class Looks:
    """The best look of a first pass so far (``Policy.look_budget``), which its attempts share."""

    __slots__ = ("best",)

    def __init__(self) -> None:
        self.best = 0
        """The most cards on the foundations any look has reached."""

    def goes_on(self, score: int, margin: int) -> bool:
        """Whether a look that reached ``score`` goes on: it reached the best less ``margin``
        (the best is raised to ``score`` either way)."""
        on = score + margin >= self.best
        self.best = max(self.best, score)
        return on


def settle(policy: Policy, state: State, played: list[Move]) -> State:
    """Play the policy's safe moves until none is left: the state reached, with the moves
    played added to ``played`` (every search and probe settles a position this way)."""
    apply = state.game.apply_unchecked
    move = policy.safe_move(state)
    while move is not None:
        state = apply(state, move)
        played.append(move)
        move = policy.safe_move(state)
    return state


MEMORY_LIMIT = "memory limit"
"""The reason of a search whose transposition table reached its limit of positions (:meth:`Limits.table_limit`)."""

SUBTREE_CAP = "subtree cap"
"""The reason of a search that abandoned capped subtrees (``Policy.subtree_budget``)."""


def first_pass(state: State, policy: Policy, limits: Limits) -> SolveResult:
    """The policy's quick first pass (``Policy.first_pass``): won, or unknown.

    With a ``budget`` in the policy's settings (``Policy.first_pass_settings``), attempts 0,
    1, 2, ... each search afresh with a node budget growing by their ``growth`` (up to their
    ``most``), until one wins, one ends before its budget, or the limits are reached. An
    attempt that abandoned capped subtrees (``Policy.subtree_budget``) is followed by the
    next one too, with the same budget: the next capped-rounds attempt caps less, and the
    next digging attempt skips what its forerunners abandoned.
    Restarts tame heavy tails: a depth-first search whose first choices were wrong can
    spend its whole budget below them, while a search that starts differently often wins
    at once. Nothing the first pass sees is a proof of loss.

    A first pass whose attempts share their moves (``Policy.attempts_share_moves``, the
    digging pass) remembers the positions they searched through without a win (see
    :func:`search`'s ``finished``): the attempts play the same moves in other orders, so a
    later one skips them. They share one table (of at most ``FIRST_PASS_TABLE`` positions,
    whatever the limits' own); when it is full, the pass forgets them and goes on. It
    forgets them too when an attempt finds nothing left to search but positions that it or
    an earlier one abandoned (capped subtrees, which stay in the table as searched
    through): the pass goes on with a larger budget, so larger caps, instead of ending with
    what could be the start of every winning line abandoned.

    Where the position splits (``Policy.splits_at``, after its safe moves), each position
    where the split is made (:func:`split_leaves`) starts a series of attempts of its own,
    and the series take turns, one attempt each (see :class:`_Attempts`); their tables
    share ``FIRST_PASS_TABLE`` equally.
    """
    table = min(limits.table_limit(native=False), FIRST_PASS_TABLE)
    spent = Budget(limits)  # each series searches with its own table limit
    looks = Looks()  # the series share the best look
    leaves = split_leaves(policy, state)
    if leaves is None:
        series = [_Attempts(policy, state, (), table, looks)]
    else:
        share = max(1, table // max(1, len(leaves)))
        series = [_Attempts(policy, leaf, line, share, looks) for line, leaf in leaves]
    reason = NODE_LIMIT
    while series:
        going_on = []
        for attempts in series:
            part = attempts.next(spent)
            if part is None:
                return spent.result(Outcome.UNKNOWN, reason=spent.reason)
            if part.outcome is Outcome.WON:
                return spent.result(Outcome.WON, attempts.line + part.moves)
            if part.reason in (TIME_LIMIT, interrupts.INTERRUPTED):
                return spent.result(Outcome.UNKNOWN, reason=part.reason)
            reason = attempts.reason
            if attempts.going_on:
                going_on.append(attempts)
        series = going_on
    return spent.result(Outcome.UNKNOWN, reason=reason)


def split_leaves(policy: Policy, state: State) -> list[tuple[tuple[Move, ...], State]] | None:
    """The positions below ``state`` where its split is made, each with the moves to it, or
    ``None`` where ``state`` does not split (``Policy.splits_at``, after safe moves).

    The moves of a split position lead to positions that split no more (leaves), or split
    again (in Duchess's pysolfc rules, a card built on the tableau before the base rank is
    chosen), whose moves are followed in turn; a position met twice counts once. Leaves
    come depth first, in the policy's order of the moves. A leaf whose last move, played
    earlier on its line, leads on by the same other moves to the same position is left
    out: the leaf that move leads to there reaches everything it does (in Duchess, where
    the base card lay on top of its reserve pile before the last builds)."""
    prelude: list[Move] = []
    root = settle(policy, state, prelude)
    game = state.game
    if game.is_won(root) or not policy.splits_at(root):
        return None
    apply = game.apply_unchecked
    leaves: list[tuple[tuple[Move, ...], State]] = []
    met = {policy.key(root)}

    def follow(position: State, line: tuple[Move, ...]) -> None:
        for move in policy.ordered_moves(position):
            child = apply(position, move)
            played: list[Move] = []
            settled = settle(policy, child, played)
            key = policy.key(settled)
            if key in met:
                continue
            met.add(key)
            if not game.is_won(settled) and policy.splits_at(settled):
                follow(settled, (*line, move, *played))
            elif not reached_first(line[len(prelude):], move, key):
                leaves.append(((*line, move), child))

    def reached_first(between: tuple[Move, ...], last: Move, key: Hashable) -> bool:
        """Whether the leaf ``key``, reached from the root by ``between`` and then ``last``,
        is also reached with ``last`` played earlier, after only the first ``k`` of
        ``between``: every line from it is one from the leaf that ``last`` leads to there."""
        for k in range(len(between)):
            position = root
            for move in (*between[:k], last, *between[k:]):
                if move not in policy.ordered_moves(position):
                    break
                position = apply(position, move)
            else:
                if policy.key(settle(policy, position, [])) == key:
                    return True
        return False

    follow(root, tuple(prelude))
    return leaves


class _Attempts:
    """The first pass's series of attempts from one position (see :func:`first_pass`): its
    budget, its attempt count, and the table its attempts share."""

    def __init__(self, policy: Policy, start: State, line: tuple[Move, ...], table: int, looks: Looks) -> None:
        self.policy = policy
        self.start = start
        self.line = line
        """The moves from the first pass's position to :attr:`start`."""
        self.table = table
        """The most positions the attempts' shared table holds."""
        self.looks = looks
        self.budget = policy.first_pass_settings.budget
        self.attempt = 0
        self.finished: set[Hashable] | None = None
        self.abandoned = False
        """An attempt abandoned a subtree since the shared table was last cleared."""
        self.going_on = True
        """Whether the series has another attempt to make."""
        self.reason = NODE_LIMIT
        """Why the last attempt ended undecided."""

    def next(self, spent: Budget) -> SolveResult | None:
        """Make the next attempt within what ``spent`` leaves, and count it there: its
        result (``None`` when nothing is left); :attr:`going_on` says whether the series
        goes on after it."""
        policy = self.policy
        part_limits = spent.remaining(self.budget)
        if part_limits is None:
            return None
        quick = policy.first_pass(self.attempt, part_limits.nodes, spent.nodes)
        if quick is None:
            self.going_on = False
            return SolveResult(Outcome.UNKNOWN, reason=NODE_LIMIT)
        if self.finished is None and quick.attempts_share_moves:
            self.finished = set()
        finished = self.finished
        remembered = 0 if finished is None else len(finished)
        part = search(self.start, quick, replace(part_limits, table=self.table), finished, self.looks)
        spent.add(part)
        if part.outcome is Outcome.WON:
            return part
        self.reason = part.reason or "first pass exhausted"
        capped = part.reason == SUBTREE_CAP
        full = remembered > 0 and part.reason == MEMORY_LIMIT  # the table the attempts share
        # Nothing left but what the attempts abandoned: forget it all and look again, deeper.
        exhausted = self.abandoned and part.outcome is Outcome.LOST
        if (full or exhausted) and finished is not None:
            finished.clear()
            self.abandoned = False
        self.abandoned = self.abandoned or (capped and finished is not None)
        cap = part_limits.nodes
        budget = self.budget
        if not capped and not full and not exhausted and (
                budget is None or cap is None or part.outcome is Outcome.LOST
                or part.reason != NODE_LIMIT or cap < budget):
            self.going_on = False
            return part
        self.attempt += 1
        if budget is not None and not capped:
            settings = policy.first_pass_settings
            late = settings.late_growth
            growth = late if late is not None and spent.nodes >= settings.late_growth_from else settings.growth
            grown = budget * growth
            budget = MOST_BUDGET if grown >= MOST_BUDGET else int(grown)
            if settings.most is not None:
                budget = min(budget, settings.most)
            self.budget = budget
        return part


MOST_BUDGET = 2**64 - 1
"""The largest budget of a first-pass attempt, whatever its growth (the native search's
largest node count): attempts that abandon a subtree and attempts that then find nothing
left can take turns, the budget growing with each pair while the nodes spent stay few."""

FIRST_BUDGET = 2_000
"""Node budget of each alternative in the first pass of a split search; it grows fourfold."""


def search(state: State, policy: Policy, limits: Limits, finished: set[Hashable] | None = None,
           looks: Looks | None = None) -> SolveResult:
    """Search for a win from ``state``; the winning line is not yet replayed (see ``solve``).

    ``finished``, when given, holds the keys of positions that earlier searches with the
    same moves (attempts of a first pass, in other orders) searched through without a win:
    they are skipped, as positions met before are, and this search adds those it searches
    through, but not those still on its path when it stops. A position searched through
    may have been cut short where its lines came back to a position then on the path, so a
    search given ``finished`` may miss a win; only a first pass, which proves nothing, gives one.

    Where a capped subtree begins and the policy gives a look (``Policy.look_budget``), the
    search abandons it after the look's nodes, unless the most cards on the foundations
    (``Policy.look_score``) of the look's positions is at least the best of the looks before
    it (``looks``, shared by a first pass's attempts), less the policy's ``look_margin``:
    then it goes on with the subtree's own budget. So the search spends its budget below the
    positions whose first nodes got furthest, instead of below the first ones it reaches.
    """
    prelude: list[Move] = []
    root = settle(policy, state, prelude)
    if not state.game.is_won(root) and policy.splits_at(root):
        return _split_search(root, prelude, policy, limits, finished, looks)
    return _search(state, policy, limits, finished, looks)


def _split_search(root: State, prelude: list[Move], policy: Policy, limits: Limits,
                  finished: set[Hashable] | None, looks: Looks | None) -> SolveResult:
    """Try each move of ``root`` with a node budget that grows fourfold per pass.

    Each alternative gets its own complete depth-first search (own table), so a verdict of
    *lost* for an alternative is a full proof; the position is lost when every alternative
    is. Given ``finished`` (a first pass's), the alternatives share it and prove nothing.
    """
    spent = Budget(limits)
    apply = root.game.apply_unchecked
    alternatives = [(move, apply(root, move)) for move in policy.ordered_moves(root)]
    budget = FIRST_BUDGET
    while alternatives:
        still_open = []
        for move, child in alternatives:
            part_limits = spent.remaining(budget)
            if part_limits is None:
                return spent.result(Outcome.UNKNOWN, reason=spent.reason)
            part = _search(child, policy, part_limits, finished, looks)
            spent.add(part)
            if part.outcome is Outcome.WON:
                return spent.result(Outcome.WON, tuple(prelude) + (move,) + part.moves)
            if part.outcome is Outcome.UNKNOWN:
                cap = part_limits.nodes
                if part.reason != NODE_LIMIT or (cap is not None and cap < budget):
                    return spent.result(Outcome.UNKNOWN, reason=part.reason)
                still_open.append((move, child))
        alternatives = still_open
        budget *= 4
    return spent.result(Outcome.LOST)


def _search(state: State, policy: Policy, limits: Limits, finished: set[Hashable] | None = None,
            looks: Looks | None = None) -> SolveResult:
    """Depth-first search with one transposition table (``finished``, when given; see :func:`search`)."""
    clock = Budget(limits)
    started, deadline, now = clock.started, clock.deadline, clock.now
    node_limit = limits.nodes
    table_limit = limits.table_limit(native=False)
    game = state.game
    apply = game.apply_unchecked
    is_won = game.is_won
    key_of = policy.key
    seen: set[Hashable] = set() if finished is None else finished
    known = len(seen)
    nodes = 0
    caps = policy.caps_subtrees
    nested = policy.nested_cap
    abandoned = False
    frames: list[_Frame] = []
    if looks is None:
        looks = Looks()
    looking = False  # a look is under way: the frame where it began has ``promote_to``
    look_best = 0  # the most cards on the foundations of its positions

    def result(outcome: Outcome, moves: tuple[Move, ...] = (), reason: str | None = None,
               open_child: Hashable | None = None) -> SolveResult:
        """The result; stopped undecided with ``finished`` given, the positions still on the
        path (and ``open_child``, a position counted but not searched) leave the table."""
        done = SolveResult(outcome, moves, reason, nodes, len(seen) - known, now() - started, len(seen))
        if finished is not None and outcome is Outcome.UNKNOWN:
            for frame in frames:
                seen.discard(frame.key)
            if open_child is not None:
                seen.discard(open_child)
        return done

    prelude: list[Move] = []
    root = settle(policy, state, prelude)
    if is_won(root):
        return result(Outcome.WON, tuple(prelude))
    root_key = key_of(root)
    seen.add(root_key)
    if policy.is_hopeless(root):
        return result(Outcome.LOST)
    probes = 0
    probed = policy.probe_moves
    found = policy.probe(root, probes)
    nodes = policy.probe_moves - probed
    if found is not None:
        return result(Outcome.WON, tuple(prelude + found))
    frames.append(_Frame(root, root_key, policy.ordered_moves(root), prelude))
    nodes += 1
    while frames:
        frame = frames[-1]
        if frame.abandon_after is not None and nodes > frame.abandon_after:
            mark = frame.abandon_after
            bottom = len(frames) - 1
            while bottom > 0 and frames[bottom - 1].abandon_after == mark:
                bottom -= 1
            promote_to = frames[bottom].promote_to
            if promote_to is not None:  # a look ends
                frames[bottom].promote_to = None
                looking = False
                if looks.goes_on(look_best, policy.look_margin):
                    for inner in frames[bottom:]:
                        inner.abandon_after = promote_to
                    continue
            while frames and frames[-1].abandon_after == mark:
                if frames.pop().promote_to is not None:
                    looking = False
            abandoned = True
            continue
        if frame.next >= len(frame.moves):
            if frames.pop().promote_to is not None:
                looking = False
            continue
        move = frame.moves[frame.next]
        frame.next += 1
        line = [move]
        child = settle(policy, apply(frame.state, move), line)
        if is_won(child):
            path = [m for f in frames for m in f.line] + line
            return result(Outcome.WON, tuple(path))
        key = key_of(child)
        if key in seen:
            continue
        if len(seen) >= table_limit:
            return result(Outcome.UNKNOWN, reason=MEMORY_LIMIT)
        seen.add(key)
        if policy.is_hopeless(child):
            continue
        nodes += 1
        if nodes % TIME_CHECK_EVERY == 0:
            if deadline is not None and now() > deadline:
                return result(Outcome.UNKNOWN, reason=TIME_LIMIT, open_child=key)
            if interrupts.requested():
                return result(Outcome.UNKNOWN, reason=interrupts.INTERRUPTED, open_child=key)
            probes += 1
            probed = policy.probe_moves
            found = policy.probe(root, probes)
            nodes += policy.probe_moves - probed
            if found is not None:
                return result(Outcome.WON, tuple(prelude + found))
        if node_limit is not None and nodes >= node_limit:
            return result(Outcome.UNKNOWN, reason=NODE_LIMIT, open_child=key)
        if looking:
            look_best = max(look_best, policy.look_score(child))
        abandon_after = frame.abandon_after
        promote_to = None
        if caps:
            budget = policy.subtree_budget(frame.state, child)
            if budget is not None:
                if abandon_after is not None and nested is not None:
                    budget = min(budget, int(max(0, abandon_after - nodes) * nested))
                if abandon_after is None or nodes + budget < abandon_after:
                    abandon_after = nodes + budget
                look = policy.look_budget(frame.state, child)
                if look is not None and (abandon_after is None or nodes + look < abandon_after):
                    promote_to, abandon_after = abandon_after, nodes + look
                    looking = True
                    look_best = policy.look_score(child)
        frames.append(_Frame(child, key, policy.ordered_moves(child), line, abandon_after, promote_to))
    return result(Outcome.UNKNOWN, reason=SUBTREE_CAP) if abandoned else result(Outcome.LOST)
