"""How the search treats a game: canonical keys, move order, safe moves, proofs of loss.

A :class:`Policy` only reads states and asks the core for legal moves; each game's
policy (in :mod:`kibitz.solver.policies`) overrides what its rules allow it to.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Hashable

from kibitz.moves import Move
from kibitz.piles import PileKind
from kibitz.rules import Game
from kibitz.state import State


@dataclass(frozen=True)
class FirstPass:
    """The settings of a policy's quick first pass (:meth:`Policy.first_pass`), declared once
    per policy class (:attr:`Policy.first_pass_settings`) and sent as they are to the native
    search (``kibitz.solver.native_search.search_spec``)."""

    share: float = 0.5
    """Share of the time and node budget given to the first pass, when there is one."""
    budget: int | None = None
    """Node budget of the first pass's first attempt; each restart gets :attr:`growth` times
    more (see :func:`kibitz.solver.search.first_pass`). ``None``: one attempt."""
    growth: float = 1.3
    """Growth of the first pass's node budget from one attempt to the next."""
    late_growth: float | None = None
    """The growth once the first pass has searched :attr:`late_growth_from` nodes; ``None``:
    :attr:`growth` throughout."""
    late_growth_from: int = 0
    """Nodes the first pass searches before :attr:`late_growth` applies."""
    most: int | None = None
    """The largest node budget of a first-pass attempt: the budget grows up to it and stays
    there. ``None``: no such bound."""
    digs: bool = False
    """Whether the first pass is the digging one: restarted attempts of
    ``kibitz.solver.policies.common.Digging`` (``CanonicalPolicy.first_pass``)."""
    random_restarts: bool = False
    """Whether the digging first pass's attempts after the first play random lines instead
    of digging (``Digging``): the moves neither to a foundation nor the deal in an order
    drawn from the noise alone."""
    deal_cap: float | None = None
    """Share of a first-pass attempt's node budget after which the digging pass abandons the
    search below a deal (``Digging.subtree_budget``); ``None``: no such cap."""
    redeal_cap: float | None = None
    """Share of a first-pass attempt's node budget after which the digging pass abandons the
    search below a redeal (the next round begins), in every other attempt (the odd ones), so
    that the attempts between still search each round to the end; ``None``: no such cap."""
    nested_cap: float | None = None
    """Share of what an enclosing capped subtree has left that a capped subtree inside it
    gets at most (``nested_cap`` of the digging pass's attempts), in the attempts made after
    the first pass has searched :attr:`nested_from` nodes; ``None``: no such share. Without
    it, the first deal's cap and the last deal's are the same share of the attempt's budget,
    so the first position after the last deal that an attempt reaches below a first deal
    takes the whole of that deal's budget."""
    nested_from: int = 0
    """Nodes the first pass searches before :attr:`nested_cap` applies."""
    look: int | None = None
    """Nodes of the first look at each end game (a position after which nothing is dealt)
    that a digging first-pass attempt reaches below a capped deal (``look`` of its attempts);
    ``None``: no looks."""
    look_from: int = 0
    """Nodes the first pass searches before :attr:`look` applies."""
    look_margin: int = 0
    """How many fewer cards on the foundations than the best look of the first pass so far a
    look may reach and still go on (see :func:`kibitz.solver.search.search`)."""
    uncovers: bool = False
    """Whether the digging first pass plays a move between two non-empty tableau piles only
    when the card it leaves on top of its source is one that some foundation takes now
    (``Digging.ordered_moves``). Such a move only changes which pile its cards lie on, and
    the search can come back to it with the cards that made it useful."""
    foundations_final: bool = False
    """Whether the first pass plays as if no card ever left the foundations but onto another
    (``Facts.foundations_final``) where the rules let them back, dropping those moves and
    using the safe moves and proofs that rely on it. A policy that sets it builds its first
    pass over such a twin of itself (the Tournament policy does; the native search reads it
    from the spec). Each move the pass plays is legal, so its wins are wins; it proves
    nothing (a first pass never does)."""


class Policy:
    """The plain policy: the state's own key, foundation moves first, no shortcuts.

    Sound for every game; the per-game policies make the search faster. With the compiled
    build in use (:mod:`kibitz.compiled`), Python code cannot subclass the policies: set
    ``KIBITZ_PURE_PYTHON=1`` to write one.
    """

    first_pass_settings: ClassVar[FirstPass] = FirstPass()
    """The settings of :meth:`first_pass`, one declaration per policy class: each game's
    policy overrides those its pass changes (``dataclasses.replace`` of its parent's)."""
    nested_cap: float | None = None
    """In a first-pass attempt: the share of what the innermost capped subtree holding a
    position has left that a capped subtree below that position gets at most
    (:func:`kibitz.solver.search.search`); ``None``: subtrees get their own budgets alone."""
    look: int | None = None
    """In a first-pass attempt: the nodes of the first look below an end game
    (:meth:`look_budget`), or ``None``."""
    look_margin = 0
    """In a first-pass attempt: the full policy's ``FirstPass.look_margin``."""
    attempts_share_moves = False
    """Whether this policy is a first-pass attempt that plays the same moves as the other
    attempts, only in its own order, so that later attempts may skip the positions earlier
    ones searched through (see :func:`kibitz.solver.search.first_pass`)."""
    probe_moves = 0
    """Moves played by :meth:`probe` so far; the search counts them as nodes."""
    caps_subtrees = False
    """Whether the search asks :meth:`subtree_budget` (only for a first pass)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        kinds = game.kinds
        self._rank_of_target = {
            spec.name: (0 if kinds[i] is PileKind.FOUNDATION else 1) for i, spec in enumerate(game.piles)}
        self._foundation_names = frozenset(game.piles[i].name for i in game.foundations)

    def key(self, state: State) -> Hashable:
        """A key equal for positions that are the same for winning purposes."""
        return state.key

    def ordered_moves(self, state: State) -> list[Move]:
        """The moves to try, most promising first (a subset of the legal moves only where
        the rest are proved no better)."""
        foundations = self._foundation_names
        moves = list(state.game.generate_moves(state))
        moves.sort(key=lambda m: 2 if m.is_deal else (
            1 if m.source in foundations or m.target not in foundations else 0))
        return moves

    def safe_move(self, state: State) -> Move | None:
        """A move that never turns a winnable position into a lost one, to play without branching."""
        return None

    def is_hopeless(self, state: State) -> bool:
        """True only when the position is proved lost by a quick static argument."""
        return False

    def splits_at(self, state: State) -> bool:
        """True when the moves of ``state`` lead to positions that share few successors
        (an early, lasting choice), so that the search should try each with a growing
        node budget in turn instead of exhausting the first before looking at the next.
        Only a matter of speed: the verdict is the same either way."""
        return False

    def subtree_budget(self, parent: State, child: State) -> int | None:
        """Most nodes the search may expand below ``child`` (reached from ``parent``)
        before it abandons ``child``, or ``None`` for no cap of its own. Asked only when
        :attr:`caps_subtrees` is set, which is only for a first pass: a search that
        abandoned anything proves nothing."""
        return None

    def look_budget(self, parent: State, child: State) -> int | None:
        """Nodes of a first look below ``child`` (reached from ``parent``, where a capped
        subtree begins): the search goes on below it past them only when the look did as well
        as the best look before it (:func:`kibitz.solver.search.search`); ``None`` for no look."""
        return None

    def look_score(self, state: State) -> int:
        """How far a position got, for a look: its cards on the foundations."""
        return self.game.on_foundations(state)

    def probe(self, state: State, attempt: int) -> list[Move] | None:
        """A bounded heuristic try for a winning line from ``state`` (it proves nothing).

        The search calls it on its settled root before searching and again after every
        ``TIME_CHECK_EVERY`` positions it expands, with ``attempt`` counting the calls (so a
        probe can vary its choices and stay reproducible). Each call should cost about as
        much as expanding that many positions. A line it returns is replayed like any other.
        A probe adds the moves it plays to :attr:`probe_moves`.
        """
        return None

    def first_pass(self, attempt: int = 0, nodes: int | None = None, spent: int = 0) -> Policy | None:
        """An optional policy for a quick first search that may only find wins.

        It may drop any moves (it proves nothing); a win it finds is replayed like any
        other, and when it finds none the full search runs with the remaining budget.
        With ``first_pass_settings.budget`` set, the first pass is a series of restarts:
        ``attempt`` counts them, and each attempt should order its moves differently.
        ``nodes`` is the node budget of the attempt, when it has one; ``spent`` the nodes
        the first pass searched before it.
        """
        return None
