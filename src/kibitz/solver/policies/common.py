"""Shared pieces of the per-game policies: canonical keys and when piles are interchangeable.

Canonical keys treat interchangeable things as equal:

- The two copies of a card are already one identity in the state.
- A foundation's cards follow from its length (and the base rank), so keys keep lengths.
- Where a game has two foundations of a suit that both build up from the ace
  (Kingsdown Eights), their order is dropped.

Positions merged under one key must have the same moves up to a renaming of piles:
the search explores one of them and skips the rest. (Splits of a suit between its up and
down foundations that differ only by transfers are equally winnable, but their moves
differ, so merging them would lose wins; they are kept apart.)
- Piles of one kind are interchangeable when no future deal, redeal or refill can tell
  them apart (for instance reserve fans that are never dealt to); their order is dropped.
"""

from __future__ import annotations

import zlib
from dataclasses import replace
from typing import Callable, Hashable

from kibitz.cards import IDENTITY
from kibitz.counterparts import counterpart
from kibitz.moves import Move
from kibitz.rules import Game
from kibitz.solver.native_search import Interchangeable
from kibitz.solver.policy import Policy
from kibitz.state import State

GroupRule = Callable[[Game, State], bool]
"""Whether a group of piles is interchangeable in this state."""


def always(game: Game, state: State) -> bool:
    return True


def never(game: Game, state: State) -> bool:
    return False


def when_stock_empty(game: Game, state: State) -> bool:
    return not state.piles[game.stock]


def when_no_deal_remains(game: Game, state: State) -> bool:
    """Stock empty and no redeal left: nothing will be dealt again."""
    return not state.piles[game.stock] and state.round > game.info.redeals


for _rule, _when in ((always, "Always"), (never, "Never"), (when_stock_empty, "WhenStockEmpty"),
                     (when_no_deal_remains, "WhenNoDealRemains")):
    counterpart(_rule, Interchangeable(_when))  # the native search's reading of each group rule


NOT_WANTED = 99
"""Depth given to a pile that holds no card a foundation takes now."""
CELL_DEPTH = 5
"""Depth given to a move out of a cell."""
DIG_NOISE = 3.0
"""Width of the noise added to depths after the first attempt."""
FIRST_ATTEMPT_BUDGET = 500
"""Node budget of the first digging attempt (see ``FirstPass.budget``)."""
MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
"""splitmix64's increment: 2**64 divided by the golden ratio, odd."""


class SplitMix64:
    """The splitmix64 generator: draw ``k`` mixes ``seed + k * GOLDEN_GAMMA`` (mod 2**64).

    A counter hash, so seeding costs nothing and each draw a few integer operations; the
    native search draws the same numbers (``native/src/search/noise.rs``).
    """

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def random(self) -> float:
        """The next draw as a float in [0, 1) with 53 bits."""
        self.state = (self.state + GOLDEN_GAMMA) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        z ^= z >> 31
        return (z >> 11) * (1.0 / 9007199254740992.0)


class CanonicalPolicy(Policy):
    """A policy whose key drops what cannot matter (see the module docstring).

    Where its first pass ``digs`` (``first_pass_settings``), the search starts with a quick
    first pass of restarted :class:`Digging` attempts with growing node budgets, which finds
    most wins quickly, and gives it 90% of the budget. Measured at 2 s per deal (one
    process, another busy): on Cicely deals 1-200 it won 195 with a median of 21 ms, where a
    single keep-the-foundations search in the rules' order had won 28 of deals 1-30 and the
    full search alone 21; on Kingsdown Eights deals 1-50 it won 32, against 10 before; on
    Duchess deals 1-100 it won 99, against 93 without it, and 16 of the first 20 deals
    left undecided at 10 s by the plain search. The full search keeps a 10% share for the
    positions it can exhaust: it alone proves losses.
    """

    first_pass_settings = replace(Policy.first_pass_settings, share=0.9, budget=FIRST_ATTEMPT_BUDGET)

    def __init__(self, game: Game, *, tableau: GroupRule, reserve: GroupRule) -> None:
        super().__init__(game)
        self.tableau_interchangeable = tableau
        self.reserve_interchangeable = reserve
        specs = [game.piles[i].foundation for i in game.foundations]
        specs_by_pile = {i: spec for i, spec in zip(game.foundations, specs) if spec is not None}
        self.same_suit_pairs: tuple[tuple[int, int], ...] = ()
        if len(specs) == 8 and all(s is not None and s.step == +1 and s.first == 0 for s in specs):
            self.same_suit_pairs = tuple((game.foundations[k], game.foundations[k + 4]) for k in range(4))
        self.single = tuple(i for i in game.foundations
                            if not any(i in pair for pair in self.same_suit_pairs))
        # For the digging first pass: each foundation's (index, suit base, first rank, step),
        # and the piles whose depth to a wanted card orders the moves (cells excepted).
        self.next_ranks = tuple((i, spec.foundation.suit * 13, spec.foundation.first, spec.foundation.step)
                                for i, spec in enumerate(game.piles) if spec.foundation is not None)
        self.dig_sources = {game.piles[i].name: i for i in game.tableau + game.reserve if not game.piles[i].cell}
        # For the per-game move orders: pile sets and each suit's foundations.
        self.foundation_set = frozenset(game.foundations)
        self.tableau_set = frozenset(game.tableau)
        self.reserve_set = frozenset(game.reserve)
        self.suit_piles = tuple(tuple(i for i in game.foundations if specs_by_pile[i].suit == s)
                                for s in range(4))

    def key(self, state: State) -> Hashable:
        game = self.game
        piles = state.piles
        lengths = [len(piles[i]) for i in self.single]
        for first, second in self.same_suit_pairs:
            a, b = len(piles[first]), len(piles[second])
            lengths += (a, b) if a <= b else (b, a)
        tableau = [piles[i] for i in game.tableau]
        if self.tableau_interchangeable(game, state):
            tableau.sort()
        reserve = [piles[i] for i in game.reserve]
        if self.reserve_interchangeable(game, state):
            reserve.sort()
        head = bytes(lengths) + bytes((state.round, 255 if state.base is None else state.base))
        waste = piles[game.waste] if game.waste is not None else b""
        return b"\xff".join([head, piles[game.stock], waste, *tableau, *reserve])

    def first_pass(self, attempt: int = 0, nodes: int | None = None, spent: int = 0) -> Policy | None:
        """Attempt ``attempt`` of the digging first pass, when the policy's first pass
        ``digs`` (:class:`~kibitz.solver.policy.FirstPass`), with its caps below a deal and,
        in odd attempts, below a redeal (``deal_cap`` and ``redeal_cap`` of ``nodes``) where
        the policy has them, and the ``nested_cap`` share once ``spent`` reaches
        ``nested_from``, and ``look`` once it reaches ``look_from``."""
        settings = self.first_pass_settings
        if not settings.digs:
            return None

        def cap(share: float | None) -> int | None:
            return None if share is None or nodes is None else int(nodes * share)

        redeal_share = settings.redeal_cap if attempt % 2 == 1 else None
        nested = settings.nested_cap if spent >= settings.nested_from else None
        look = settings.look if spent >= settings.look_from else None
        return Digging(self, attempt, cap(settings.deal_cap), cap(redeal_share), nested, look)


class OverFull(Policy):
    """A first-pass attempt over a full policy (``Policy.first_pass``): the full policy's
    key, move order, safe moves, proofs of loss and split points, unless overridden."""

    def __init__(self, full: Policy) -> None:
        super().__init__(full.game)
        self.full = full

    def key(self, state: State) -> Hashable:
        return self.full.key(state)

    def ordered_moves(self, state: State) -> list[Move]:
        return self.full.ordered_moves(state)

    def safe_move(self, state: State) -> Move | None:
        return self.full.safe_move(state)

    def is_hopeless(self, state: State) -> bool:
        return self.full.is_hopeless(state)

    def splits_at(self, state: State) -> bool:
        return self.full.splits_at(state)


class Digging(OverFull):
    """One attempt of the quick first pass over a full policy (``Policy.first_pass``).

    The full policy's key, safe moves and proofs of loss, but no card ever leaves a
    foundation, and the moves are tried in a digging order: moves to a foundation first
    and the deal last; the others by how deep their source pile holds a card that some
    foundation takes now (a move off a pile whose next card plays comes first), moves out
    of cells at depth ``CELL_DEPTH``. Attempts after the first add seeded noise to the
    depths, so each restart digs in another order; where the policy restarts at random
    (``FirstPass.random_restarts``), they give every move depth 0, so the noise alone orders
    them. The noise (:class:`SplitMix64`) depends only on the position and the attempt, so
    results are reproducible. It may miss wins, so it is only used to find them.

    Where the policy's first pass ``uncovers``, a move between two non-empty tableau
    piles is played only when it uncovers a card that some foundation takes now.

    With ``deal_cap`` set, the attempt abandons the search below a deal after that many
    nodes (``subtree_budget``), and with ``nested_cap`` set, below a deal inside such a
    subtree after that share of what the subtree has left, if sooner. An abandoned
    position stays among those the attempts searched through, so later attempts do not
    come back to it: each way of reaching a deal gets one capped look, and the pass moves
    on to other ways of playing before it.

    With ``look`` set (the policy's ``FirstPass.look``), a capped subtree whose position is
    an end game (nothing is dealt after it, while something was before) begins with a look
    of that many nodes (``look_budget``; see :func:`kibitz.solver.search.search`).
    """

    attempts_share_moves = True

    def __init__(self, full: CanonicalPolicy, attempt: int, deal_cap: int | None = None,
                 redeal_cap: int | None = None, nested_cap: float | None = None,
                 look: int | None = None) -> None:
        super().__init__(full)
        self.canonical = full
        """The full policy, with its digging tables."""
        self.attempt = attempt
        self.deal_cap = deal_cap
        """Most nodes searched below a deal, or ``None``."""
        self.redeal_cap = redeal_cap
        """Most nodes searched below a redeal, or ``None``."""
        self.nested_cap = nested_cap
        """The share of what the enclosing capped subtree has left that a capped subtree
        inside it gets at most (``Policy.nested_cap``), or ``None``."""
        self.caps_subtrees = deal_cap is not None or redeal_cap is not None
        self.look = look
        """Nodes of the first look below an end game (``look_budget``), or ``None``."""
        settings = full.first_pass_settings
        self.look_margin = settings.look_margin
        self._random_restarts = settings.random_restarts
        self._uncovers = settings.uncovers
        self._stock = full.game.stock
        self._tableau = {full.game.piles[i].name: i for i in full.game.tableau}

    def wanted(self, state: State) -> set[int]:
        """Identities of the cards that some foundation takes now."""
        piles = state.piles
        wanted = set()
        for i, suit, first, step in self.canonical.next_ranks:
            if first is None:  # the base rank chosen in play; these foundations wrap
                if state.base is not None and len(piles[i]) < 13:
                    wanted.add(suit + (state.base + step * len(piles[i])) % 13)
                continue
            rank = first + step * len(piles[i])
            if 0 <= rank < 13:
                wanted.add(suit + rank)
        return wanted

    def ordered_moves(self, state: State) -> list[Move]:
        piles = state.piles
        foundations = self._foundation_names
        depth: dict[str, int] = {}
        by_depth = not (self.attempt and self._random_restarts)
        uncovers = self._uncovers
        wanted = self.wanted(state) if by_depth or uncovers else set()
        for name, i in self.canonical.dig_sources.items() if by_depth else ():
            pile = piles[i]
            found = NOT_WANTED
            for k in range(len(pile)):
                if pile[-1 - k] & IDENTITY in wanted:
                    found = k
                    break
            depth[name] = found
        noise = None
        if self.attempt:
            noise = SplitMix64(zlib.crc32(b"\xff".join(piles)) ^ (self.attempt * 0x9E3779B1))
        ranked = []
        for n, move in enumerate(self.full.ordered_moves(state)):
            if move.source in foundations:
                continue
            if uncovers and self.uncovers_nothing(piles, move, wanted):
                continue
            if move.is_deal:
                ranked.append((2, 0.0, n, move))
            elif move.target in foundations:
                ranked.append((0, 0.0, n, move))
            else:
                score = float(depth.get(move.source, CELL_DEPTH)) if by_depth else 0.0
                if noise is not None:
                    score += noise.random() * DIG_NOISE
                ranked.append((1, score, n, move))
        ranked.sort()
        return [move for *_, move in ranked]

    def uncovers_nothing(self, piles: tuple[bytes, ...], move: Move, wanted: set[int]) -> bool:
        """Whether ``move`` goes from a tableau pile to a non-empty one (its cards from the
        top) and leaves on its source a card outside ``wanted``: a move the pass skips
        where the policy's first pass ``uncovers``."""
        source, target = self._tableau.get(move.source), self._tableau.get(move.target)
        if source is None or target is None or move.position is not None or not piles[target]:
            return False
        pile = piles[source]
        return len(pile) > move.size and pile[-move.size - 1] & IDENTITY not in wanted

    def look_budget(self, parent: State, child: State) -> int | None:
        """``look`` below an end game (``when_no_deal_remains`` holds in ``child`` and not
        in ``parent``), else ``None``."""
        game = self.game
        if self.look is None or not when_no_deal_remains(game, child) or when_no_deal_remains(game, parent):
            return None
        return self.look

    def subtree_budget(self, parent: State, child: State) -> int | None:
        """``redeal_cap`` below a redeal (the round went up), ``deal_cap`` below a deal (the
        stock shrank), else no cap of its own."""
        if child.round > parent.round:
            return self.redeal_cap
        stock = self._stock
        return self.deal_cap if len(child.piles[stock]) < len(parent.piles[stock]) else None
