"""Depth-first search with a transposition table, for any game and position."""

from __future__ import annotations

import time
from typing import Hashable

from kibitz.moves import Move
from kibitz.solver.policy import Policy
from kibitz.solver.result import Limits, Outcome, SolveResult
from kibitz.state import State

TIME_CHECK_EVERY = 512
"""Nodes between clock readings."""


class _Frame:
    __slots__ = ("state", "moves", "next", "line")

    def __init__(self, state: State, moves: list[Move], line: list[Move]) -> None:
        self.state = state
        self.moves = moves
        self.next = 0
        self.line = line
        """The moves from the parent frame's state to this one (the branch, then safe moves)."""


def settle(policy: Policy, state: State) -> tuple[State, list[Move]]:
    """Play safe moves until none is left; returns the state and the moves played."""
    played: list[Move] = []
    move = policy.safe_move(state)
    while move is not None:
        state = state.game.apply_unchecked(state, move)
        played.append(move)
        move = policy.safe_move(state)
    return state, played


def search(state: State, policy: Policy, limits: Limits) -> SolveResult:
    """Search for a win from ``state``; the winning line is not yet replayed (see ``solve``)."""
    started = time.perf_counter()
    deadline = None if limits.seconds is None else started + limits.seconds
    node_limit = limits.nodes
    table_limit = limits.table
    game = state.game
    apply = game.apply_unchecked
    is_won = game.is_won
    key_of = policy.key
    seen: set[Hashable] = set()
    nodes = 0

    def result(outcome: Outcome, moves: tuple[Move, ...] = (), reason: str | None = None) -> SolveResult:
        return SolveResult(outcome, moves, reason, nodes, len(seen), time.perf_counter() - started, len(seen))

    root, prelude = settle(policy, state)
    if is_won(root):
        return result(Outcome.WON, tuple(prelude))
    seen.add(key_of(root))
    if policy.is_hopeless(root):
        return result(Outcome.LOST)
    frames = [_Frame(root, policy.ordered_moves(root), prelude)]
    nodes = 1
    while frames:
        frame = frames[-1]
        if frame.next >= len(frame.moves):
            frames.pop()
            continue
        move = frame.moves[frame.next]
        frame.next += 1
        child = apply(frame.state, move)
        line = [move]
        safe = policy.safe_move(child)
        while safe is not None:
            child = apply(child, safe)
            line.append(safe)
            safe = policy.safe_move(child)
        if is_won(child):
            path = [m for f in frames for m in f.line] + line
            return result(Outcome.WON, tuple(path))
        key = key_of(child)
        if key in seen:
            continue
        if len(seen) >= table_limit:
            return result(Outcome.UNKNOWN, reason="memory limit")
        seen.add(key)
        if policy.is_hopeless(child):
            continue
        nodes += 1
        if nodes % TIME_CHECK_EVERY == 0:
            if deadline is not None and time.perf_counter() > deadline:
                return result(Outcome.UNKNOWN, reason="time limit")
        if node_limit is not None and nodes >= node_limit:
            return result(Outcome.UNKNOWN, reason="node limit")
        frames.append(_Frame(child, policy.ordered_moves(child), line))
    return result(Outcome.LOST)
