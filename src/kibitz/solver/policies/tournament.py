"""Tournament and Napoleon's Flank.

The solver sees every card, so both games (which differ only in what a player sees of the
columns) share this policy. Facts about the foundations that the rules below rely on:

- A suit has an up pile holding ranks ``0..u-1`` and a down pile holding ``13-d..12``.
  The up pile wants rank ``u``, the down pile rank ``12-d``.
- A foundation transfer is possible only when ``u + d == 13``: then every rank of the suit
  lies on the foundations exactly once, and transfers move the *split* (the rank where
  the two piles meet) anywhere. The remaining cards of the suit are one copy of each rank.
- With ``u + d < 13`` (a *gap*) the ranks ``u..12-d`` are on no foundation (both copies
  are in play) and no transfer is possible until the gap closes.
- With ``u + d > 13`` (an *overlap*) ranks ``13-d..u-1`` lie on both piles; every other
  rank has exactly one copy left in play, and no transfer is possible ever again, so the
  up pile can only grow by the one card of rank ``u`` and the down pile by the one card of
  rank ``12-d``.

In the standard ruleset no card ever leaves the foundations (transfers keep them there;
the rules declare it, ``Facts.foundations_final``),
so the number of cards on the foundations never goes down; every safe move adds a card to
them. That makes the search with safe moves complete: from a winnable settled position,
either a safe move adds a card or the first move of a shortest win leads to a position
whose shortest win is shorter (a well-founded order), so a won position stays reachable.
The pysolfc ruleset lets foundation tops back into empty cells; the arguments below do not
cover it, and its full search gets only the move order, the pruning of moves that repeat a
key, and the heuristic dives. Its first pass plays the standard ruleset's moves on the
pysolfc deal (``FirstPass.foundations_final``): no card back into a cell, with the safe
moves, proofs and transfer pruning, which hold for that restricted game. A win there is a
win in the pysolfc ruleset (every move it plays is legal there); what the first pass fails
to find is left to the full search.
"""

from __future__ import annotations

import random
from dataclasses import replace

from kibitz.cards import IDENTITY
from kibitz.moves import DEAL, Move
from kibitz.counterparts import counterpart
from kibitz.rules import Game
from kibitz.solver.native_search import Dives, MoveOrder, NativeSearch, Proofs, RoundCaps, SafeMoves
from kibitz.solver.policies.common import CanonicalPolicy, OverFull, always, when_no_deal_remains
from kibitz.solver.policy import Policy
from kibitz.solver.search import settle
from kibitz.state import State


DIVES = 16
"""Dives per probe: together about as costly as the positions expanded between probes."""
DIVE_LENGTH = 250
"""Most moves in a dive (a game takes about 150)."""
SKIPS = (0.02, 0.05, 0.1, 0.15, 0.25)
"""Chances that a dive leaves the move order at a position, varied from dive to dive."""
WIDTH = 3
"""A dive that leaves the move order takes one of the next ``WIDTH - 1`` moves."""
SUIT = bytes(c // 13 for c in range(52))
"""Suit of each card identity."""
ALL_RANKS = b"\x01" * 13
DEAL_ORDER = 50
"""Sort rank of the deal: after foundation moves, transfers and cell moves that dig
(``DIG_ORDER`` plus the cards to dig through), before cell moves that dig for nothing."""
DIG_ORDER = 30
NO_DIG = 200
LAST_ROUND_NODES = 100
"""Nodes the first attempt of the first pass spends below each start of the last round."""
ROUND_NODES = 300
"""Nodes the first attempt of the first pass spends below each start of the second round."""
FIRST_PASS_BUDGET = 100_000
"""Node budget of the first pass's first attempt (each restart doubles the caps)."""


class TournamentPolicy(CanonicalPolicy):
    """Cells are interchangeable; columns only once nothing will be dealt or refilled.

    Safe moves (foundations final: standard ruleset only, see :meth:`safe_move`), transfers
    only towards a card that could then be played (see :meth:`ordered_moves`), and a move
    order that plays to the foundations first and digs for playable cards before dealing. The full
    search gets 10% of the budget; first comes a pass that cuts short the search below
    each new round (:class:`CappedRounds`), restarted with doubled caps every
    ``FIRST_PASS_BUDGET`` nodes (growing by 1.3).
    """

    first_pass_settings = replace(CanonicalPolicy.first_pass_settings, share=0.9, budget=FIRST_PASS_BUDGET,
                                  foundations_final=True)
    """``foundations_final``: in the pysolfc ruleset the first pass plays as in the standard
    one (module docstring)."""

    def __init__(self, game: Game, *, as_final: bool = False) -> None:
        super().__init__(game, tableau=when_no_deal_remains, reserve=always)
        self.foundations_final = game.facts.foundations_final or as_final
        """Whether no card ever leaves the foundations but onto another (the standard
        ruleset; ``Game.facts``), or the policy plays as if none did (``as_final``, a first
        pass's): the safe moves, proofs of loss and transfer pruning below rely on it, and
        moves from a foundation into a cell are dropped."""
        self._first_pass_policy = self
        """The policy the first pass caps: this one, or its twin ``as_final``."""
        if self.first_pass_settings.foundations_final and not self.foundations_final:
            self._first_pass_policy = TournamentPolicy(game, as_final=True)
        f = game.foundations
        self.up = f[:4]
        self.down = f[4:]
        self.cells = game.reserve
        self.columns = game.tableau
        self.stock = game.stock
        self.last_round = game.info.redeals + 1
        self._is_foundation = tuple(i in f for i in range(len(game.piles)))
        self._is_cell = tuple(i in game.reserve for i in range(len(game.piles)))
        self._is_column = tuple(i in game.tableau for i in range(len(game.piles)))
        self._index = {spec.name: i for i, spec in enumerate(game.piles)}

    # -- foundations ----------------------------------------------------------

    def heights(self, state: State) -> list[tuple[int, int]]:
        """(u, d) per suit: the lengths of its up and down piles."""
        piles = state.piles
        return [(len(piles[self.up[s]]), len(piles[self.down[s]])) for s in range(4)]

    def target_for(self, card: int, heights: list[tuple[int, int]]) -> int | None:
        """A foundation that takes ``card`` now (the up pile first), or ``None``."""
        suit, rank = divmod(card & IDENTITY, 13)
        u, d = heights[suit]
        if u == rank:
            return self.up[suit]
        if 12 - d == rank:
            return self.down[suit]
        return None

    # -- safe moves -----------------------------------------------------------

    def safe_move(self, state: State) -> Move | None:
        """Foundations final (standard ruleset) only. Three kinds of card go to a foundation
        without branching.

        1. A cell card that fits a foundation, unless ``u + d == 13`` for its suit. Cells
           are never dealt to nor gathered, so only the foundations tell the two positions
           apart. Take any win from the position with the card left in its cell.
           *Overlap*: the card is the only copy of its rank left and only this foundation
           can ever take it, so the win plays this very card there later, and until then
           nothing else reaches that foundation; play it now and skip it then.
           *Gap* (say it fits the up pile at rank ``c``): until the win first plays a rank-``c``
           card, the up pile cannot change (no transfer is possible across the gap). If that
           first card goes onto the up pile, it is this card (skip it) or the other copy
           (which we instead put into the cell this card left free, a cell the win never
           used). If it goes onto the down pile, the two piles then meet and we transfer our
           ``c`` from the up pile onto the down pile first, then do the same.
           With ``u + d == 13`` the card would choose where the second copies of the suit
           start, which can be the wrong choice; it is left to the search.
        2. In the last round (no redeal left), a column's top card that is the only copy
           left of its rank for a foundation in an *overlap*, provided the column keeps a
           card or the stock is empty. The win must play this very card on that foundation
           later; nothing is gathered again, and every later deal lands on the column as
           before, so the position without the card lets every move of the win be made
           (the card below is freed sooner) except the card's own moves, which are skipped.
           The column empties no sooner than in the win (a card lies under ours), so refills
           happen at the same moments.
        3. In the last round, a column's top card that fits a foundation across a *gap*
           when the other copy of it lies below it in the same column. Until the win moves
           our card, the other copy is stuck and so the foundation cannot change. Then our
           card goes onto that foundation (the same), onto the other pile of its suit (the
           piles then meet; we transfer our card across, and have the same), or into a
           cell, where the win's position differs from ours by the cell move of rule 1.
        """
        if not self.foundations_final:
            return None
        piles = state.piles
        heights = self.heights(state)
        for i in self.cells:
            pile = piles[i]
            if pile:
                c = pile[0] & IDENTITY
                u, d = heights[c // 13]
                if u + d != 13:
                    target = self.target_for(c, heights)
                    if target is not None:
                        return self.game.move(i, target)
        if state.round >= self.last_round:
            stock_empty = not piles[self.stock]
            for i in self.columns:
                pile = piles[i]
                if pile and (stock_empty or len(pile) > 1):
                    c = pile[-1] & IDENTITY
                    u, d = heights[c // 13]
                    if u + d > 13 or (u + d < 13 and c in pile[:-1]):
                        target = self.target_for(c, heights)
                        if target is not None:
                            return self.game.move(i, target)
        return None

    # -- proofs of loss -------------------------------------------------------

    def is_hopeless(self, state: State) -> bool:
        """Foundations final (standard ruleset), nothing left to deal: some suit can never move again.

        With the stock empty and no redeal left, columns only shrink and (standard ruleset)
        cards leave the cells only for the foundations. Take a suit and the first moment
        its foundations next change: a card ``x`` of the suit is played that fits now (rank
        ``u`` up or ``12-d`` down; any rank when ``u + d == 13``, through transfers). At that
        moment every card of the suit now in a cell is still in a cell, and every card of
        the suit above ``x`` in its column has left the column and cannot have been played,
        so it is in a cell too. When even the cheapest ``x`` needs more cards in cells than
        there are cells, the suit never moves again and the position is lost.

        Also lost: no card of any suit that fits now is in a cell or within reach of the
        empty cells (each card taken off a column fills a cell until the next foundation
        move), so no foundation move is ever possible.
        """
        if not self.foundations_final or state.round < self.last_round:
            return False
        piles = state.piles
        if piles[self.stock]:
            return False
        fits = self.fitting(state)
        cells = len(self.cells)
        free = 0
        held = [0, 0, 0, 0]
        cheapest = [cells + 1] * 4
        playable = False
        for i in self.cells:
            pile = piles[i]
            if not pile:
                free += 1
            else:
                c = pile[0] & IDENTITY
                suit = SUIT[c]
                held[suit] += 1
                if fits[c]:
                    cheapest[suit] = 0
                    playable = True
        for i in self.columns:
            pile = piles[i]
            above = [0, 0, 0, 0]
            found = 0
            depth = 0
            for c in reversed(pile):
                c &= IDENTITY
                suit = SUIT[c]
                if fits[c] and not found & (1 << suit):
                    found |= 1 << suit
                    if above[suit] < cheapest[suit]:
                        cheapest[suit] = above[suit]
                    if depth <= free:
                        playable = True
                    if found == 15:
                        break
                above[suit] += 1
                depth += 1
        if not playable:
            return True
        return any(held[suit] + cheapest[suit] > cells
                   and len(piles[self.up[suit]]) + len(piles[self.down[suit]]) < 26
                   for suit in range(4))

    def fitting(self, state: State) -> bytearray:
        """For each card identity, 1 when it fits a foundation now or after transfers."""
        piles = state.piles
        fits = bytearray(52)
        for suit in range(4):
            u, d = len(piles[self.up[suit]]), len(piles[self.down[suit]])
            base = suit * 13
            if u + d == 13:
                fits[base:base + 13] = ALL_RANKS
            else:
                if u < 13:
                    fits[base + u] = 1
                if d < 13:
                    fits[base + 12 - d] = 1
        return fits

    # -- first pass ----------------------------------------------------------------

    def first_pass(self, attempt: int = 0, nodes: int | None = None, spent: int = 0) -> Policy | None:
        """The search with each new round capped (see :class:`CappedRounds`)."""
        return CappedRounds(self._first_pass_policy, attempt)

    # -- heuristic dives -------------------------------------------------------

    def probe(self, state: State, attempt: int) -> list[Move] | None:
        """A few dives from ``state`` that follow the move order but now and then take a
        later move (more often the more attempts were made); a dive stops at a repeated or
        moveless position. Proves nothing; a win is replayed like any other."""
        rng = random.Random(attempt)
        apply = self.game.apply_unchecked
        is_won = self.game.is_won
        for dive in range(DIVES):
            skip = SKIPS[(attempt + dive) % len(SKIPS)]
            current = state
            line: list[Move] = []
            seen = {self.key(current)}
            for _ in range(DIVE_LENGTH):
                moves = self.ordered_moves(current)
                if not moves:
                    break
                move = moves[0]
                if len(moves) > 1 and rng.random() < skip:
                    move = moves[rng.randrange(1, min(len(moves), WIDTH))]
                line.append(move)
                self.probe_moves += 1
                current = settle(self, apply(current, move), line)
                if is_won(current):
                    return line
                key = self.key(current)
                if key in seen:
                    break
                seen.add(key)
        return None

    # -- move order -----------------------------------------------------------

    def ordered_moves(self, state: State) -> list[Move]:
        """Foundation moves, then useful transfers, then cell moves that dig for a playable
        card, then the deal, then other cell moves.

        Dropped moves (proved no better):
        - A transfer in the standard ruleset unless it moves the suit's split towards the
          rank of a card of that suit now in a cell or on top of a column. Transfers touch
          nothing but the suit's two piles, so in any win they can be postponed until just
          before the suit's next foundation move, and a run of them can go straight from
          one split to the other; such a transfer moves towards the card then played,
          which is in a cell or on a column top at that moment.
        - A card from a cell to another cell (pysolfc): cells are interchangeable, so the
          position has the key of the one it came from.
        - A card to an empty cell other than the first: cells are interchangeable, so all
          those positions have one key.
        - A card from a foundation into a cell, in a policy that plays as if the foundations
          were final (``as_final``). Not proved no better: only a first pass plays so, and
          it proves nothing.
        """
        piles = state.piles
        heights = self.heights(state)
        index = self._index
        is_f, is_cell, is_col = self._is_foundation, self._is_cell, self._is_column
        final = self.foundations_final
        empty = [i for i in self.cells if not piles[i]]
        free = len(empty)
        first_empty = empty[0] if empty else -1
        # Ranks of suit s now reachable (cell cards and column tops), for transfers.
        reachable: list[list[int]] = [[], [], [], []]
        for i in self.cells:
            if piles[i]:
                c = piles[i][0] & IDENTITY
                reachable[c // 13].append(c % 13)
        for i in self.columns:
            if piles[i]:
                c = piles[i][-1] & IDENTITY
                reachable[c // 13].append(c % 13)
        dig: dict[int, int] = {}

        def depth_to_play(column: int) -> int:
            """Cards above the shallowest card in the column that fits a foundation now."""
            got = dig.get(column)
            if got is None:
                pile = piles[column]
                got = NO_DIG
                for k in range(1, min(len(pile), free + 1)):
                    c = pile[-1 - k] & IDENTITY
                    u, d = heights[c // 13]
                    if u + d == 13 or self.target_for(c, heights) is not None:
                        got = k
                        break
                dig[column] = got
            return got

        scored: list[tuple[int, int, Move]] = []
        for n, move in enumerate(state.game.generate_moves(state)):
            if move is DEAL or move.is_deal:
                scored.append((DEAL_ORDER, n, move))
                continue
            source, target = index[move.source], index[move.target]
            if is_f[target]:
                if is_f[source]:
                    if final:
                        suit = (source - self.up[0]) % 4
                        u, _ = heights[suit]
                        towards_down = source == self.up[suit]
                        ranks = reachable[suit]
                        if towards_down and not any(r < u - 1 for r in ranks):
                            continue
                        if not towards_down and not any(r > u for r in ranks):
                            continue
                    scored.append((20, n, move))
                elif is_col[source]:
                    scored.append((0, n, move))
                else:
                    scored.append((10, n, move))
            elif is_cell[target]:
                if is_cell[source] or target != first_empty or (final and is_f[source]):
                    continue
                if is_col[source]:
                    scored.append((DIG_ORDER + depth_to_play(source), n, move))
                else:
                    scored.append((NO_DIG, n, move))
        scored.sort()
        return [m for _, _, m in scored]


class CappedRounds(OverFull):
    """One attempt of the first pass: the full policy, but the search below each start of
    a new round is cut short.

    Each round is played out with a stock whose order was fixed by the end of the round
    before, and most ends of a round leave a next round that cannot be won. A depth-first
    search exhausts each such round before it tries another way to end the round before,
    and spends most of its time there. Capped, it moves on: attempt ``k`` abandons a
    round-3 start after ``LAST_ROUND_NODES * 2**k`` nodes and a round-2 start after
    ``ROUND_NODES * 2**k``, and finds most wins several times sooner. It proves nothing.
    It plays no dives (``probe``): the capped search already varies where it looks, and
    measured on deals 1-200, 1001-1200 and 2001-2200 at 2 s, dropping them took the median
    time per deal from 49-63 ms to 38-43 ms and the undecided deals from 13 to 6.
    """

    caps_subtrees = True

    def __init__(self, full: TournamentPolicy, attempt: int) -> None:
        super().__init__(full)
        self.tournament = full
        self.last_round_nodes = LAST_ROUND_NODES << attempt
        self.round_nodes = ROUND_NODES << attempt

    def subtree_budget(self, parent: State, child: State) -> int | None:
        if child.round == parent.round:
            return None
        return self.last_round_nodes if child.round >= self.tournament.last_round else self.round_nodes


counterpart(TournamentPolicy, NativeSearch(
    MoveOrder.TOURNAMENT, SafeMoves.TOURNAMENT, proofs=Proofs.TOURNAMENT,
    dives=Dives(DIVES, DIVE_LENGTH, SKIPS, WIDTH), round_caps=RoundCaps(LAST_ROUND_NODES, ROUND_NODES)))
