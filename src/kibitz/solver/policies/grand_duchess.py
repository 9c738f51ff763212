"""Grand Duchess and Parisienne: forced foundation moves in the last round, proofs of loss.

Terms. Each suit has two *lanes*: its up foundation (next rank ``u``, its length) and its
down foundation (next rank ``12 - d``). A lane *can ever take* a card of its suit when it
has not passed the card's rank. Both lanes end with 13 cards, so each takes exactly one
copy of every rank; a rank both of whose copies are still in play gives one to each lane.

Two facts carry every rule here (standard ruleset: the rules declare their foundations final
and no foundation transfers, ``Game.facts``):

Play-now. Within one round (no redeal in between), if some winning line plays a card X
from where it lies now to lane F, playing X to F at once also wins. Proof: replay the same
line without its move of X. Deals put cards on the piles whatever lies beneath; a card
dealt onto X in the line had to be played before X, and is still a top card when the line
plays it; F takes nothing else before X (it needs X's rank, and the other copy going
there would leave no room for X); X's lane being further on only allows more. When the
line plays X the two positions become equal.

Last round. After the third redeal nothing is gathered again, so every card still in play
must reach a lane during this round. If every card that could fill a given need is
playable to it now, some winning line fills it with one of them, so by play-now one of
those moves wins: the others need not be tried (see :meth:`GrandDuchessPolicy._cover`).

Earlier rounds have no such rule: a card left in play is gathered and changes the order
of the next stock, so holding a card back is a real choice there.

In the pysolfc ruleset (``Facts.foundation_transfers``) a foundation's top card may move
to the other lane of its suit when it fits, which happens exactly when the suit's lanes
hold 13 cards between them (one copy of every rank). Then lanes are not fixed, so the
rules above are used only for suits whose lanes hold 14 or more (no transfer can ever
happen in them again).
"""

from __future__ import annotations

import random
import zlib

from kibitz.cards import FACE_DOWN
from kibitz.counterparts import counterpart
from kibitz.moves import DEAL, Move
from kibitz.rules import FACE_DOWN_TABLE, FACE_UP, Game
from kibitz.solver.native_search import MoveOrder, NativeSearch, Playouts, Proofs, SafeMoves
from kibitz.solver.policies.common import CanonicalPolicy, never, when_no_deal_remains
from kibitz.state import State

Play = tuple[int, int, int]
"""A playable card: (pile index, index in the pile or -1 for the top card, card identity)."""

PROBE_STEPS = 15000
"""Moves played by one probe (whole playouts, so a little more)."""
HOLDS = (0.0, 0.02, 0.0, 0.05)
"""Per playout in turn: the chance of dealing while a card could be played (rounds 1-3)."""


class GrandDuchessPolicy(CanonicalPolicy):
    """Tableau piles are interchangeable only once nothing will be dealt again; the two
    reserve piles never are (they are dealt and gathered in a fixed order)."""

    def __init__(self, game: Game) -> None:
        super().__init__(game, tableau=when_no_deal_remains, reserve=never)
        up = [0] * 4
        down = [0] * 4
        for i in game.foundations:
            spec = game.piles[i].foundation
            assert spec is not None
            if spec.step > 0:
                up[spec.suit] = i
            else:
                down[spec.suit] = i
        self.up: tuple[int, ...] = tuple(up)
        self.down: tuple[int, ...] = tuple(down)
        self.transfers = game.facts.foundation_transfers
        """Whether a foundation's top card may move to the other lane (pysolfc)."""
        self.foundations_final = game.facts.foundations_final
        """Whether cards never leave the foundations (but for transfers): every rule below
        needs it."""
        self.last_round = game.info.redeals + 1
        self._up_lanes = tuple(tuple(bytes(range(suit * 13, suit * 13 + n)) for n in range(14))
                               for suit in range(4))
        """Each suit's up foundation holding ``n`` cards, for each ``n``."""
        self._down_lanes = tuple(tuple(bytes(range(suit * 13 + 12, suit * 13 + 12 - n, -1)) for n in range(14))
                                 for suit in range(4))
        """Each suit's down foundation holding ``n`` cards, for each ``n``."""
        self._cover_of: State | None = None
        self._last_cover: list[Move] | None = None
        """The last position asked about and its cover (the search asks for the safe move,
        then for the ordered moves of the same position)."""

    # -- reading a position ---------------------------------------------------

    def _plays(self, state: State) -> list[Play]:
        """Every card that may go to a foundation if a lane wants it: tableau tops and,
        once the reserve is face up, every reserve card."""
        piles = state.piles
        plays: list[Play] = []
        for i in self.game.tableau:
            pile = piles[i]
            if pile:
                plays.append((i, -1, pile[-1] & 63))
        for i in self.game.reserve:
            pile = piles[i]
            if pile and not pile[-1] & FACE_DOWN:
                top = len(pile) - 1
                for k, c in enumerate(pile):
                    plays.append((i, k if k < top else -1, c & 63))
        return plays

    def _fixed(self, ups: list[int], downs: list[int], suit: int) -> bool:
        """Whether the suit's lanes are fixed for good (always without transfers, never
        where cards may leave the foundations)."""
        return self.foundations_final and (not self.transfers or ups[suit] + downs[suit] >= 14)

    def _cover(self, state: State) -> list[Move] | None:
        """In the last round: the smallest set of moves one of which wins if any line wins.

        Two kinds of set, each by the last-round fact and play-now:

        - Need of lane F (rank r of suit s): every copy of that card still in play is
          playable to F now. Some winning line gives F one of them; so one of these
          moves wins. With one copy left in play the move is safe.
        - A playable card X: every lane that can ever take X takes it now (both lanes
          need its rank). Some winning line places X; so X to one of them wins.
        """
        if state.round < self.last_round:
            return None
        if state is self._cover_of:
            return self._last_cover
        cover = self._find_cover(state)
        self._cover_of, self._last_cover = state, cover
        return cover

    def _find_cover(self, state: State) -> list[Move] | None:
        """The work of :meth:`_cover` (last round only)."""
        piles = state.piles
        up, down = self.up, self.down
        ups = [len(piles[i]) for i in up]
        downs = [len(piles[i]) for i in down]
        plays = self._plays(state)
        if not plays:
            return None
        best: list[Move] | None = None
        move = self.game.move
        by_card: dict[int, list[Play]] = {}
        for p in plays:
            by_card.setdefault(p[2], []).append(p)
        for c, where in by_card.items():
            suit, rank = divmod(c, 13)
            if not self._fixed(ups, downs, suit):
                continue
            u, d = ups[suit], downs[suit]
            takes_up = u == rank
            takes_down = 12 - d == rank
            if not (takes_up or takes_down):
                continue
            placed = (rank < u) + (rank > 12 - d)
            in_play = 2 - placed
            if takes_up and takes_down:
                # Both lanes need this rank (both copies in play).
                if len(where) == 2:
                    cover = [move(p[0], f, 1, p[1]) for p in where for f in (up[suit],)]
                else:
                    p = where[0]
                    cover = [move(p[0], up[suit], 1, p[1]), move(p[0], down[suit], 1, p[1])]
            elif len(where) == in_play:
                f = up[suit] if takes_up else down[suit]
                cover = [move(p[0], f, 1, p[1]) for p in where]
            else:
                continue
            if best is None or len(cover) < len(best):
                best = cover
                if len(best) == 1:
                    return best
        return best

    def _playout(self, state: State, rng: random.Random, hold: float) -> tuple[list[Move] | None, int]:
        """One random game from ``state``; returns the line if it wins, and its length.

        A random foundation move each time, or a deal with chance ``hold`` (rounds 1-3);
        in the last round a card whose other copy is placed goes first (as the safe move).
        Foundation transfers are never used. The piles are kept as lists here; every deal
        and redeal is the game's own (``Game.apply_unchecked`` of the deal).
        """
        game = self.game
        piles = state.piles
        up, down, move = self.up, self.down, game.move
        tableau, reserve = game.tableau, game.reserve
        stock = piles[game.stock]
        columns = [list(piles[i].translate(FACE_UP)) for i in tableau]
        fans = [list(piles[i].translate(FACE_UP)) for i in reserve]
        ups = [len(piles[i]) for i in up]
        downs = [len(piles[i]) for i in down]
        fans_open = any(p and not p[-1] & FACE_DOWN for p in (piles[i] for i in reserve))
        round = state.round
        last = self.last_round
        fixed = 14 if self.transfers else 13
        left = len(stock) + sum(map(len, columns)) + sum(map(len, fans))
        line: list[Move] = []
        choices: list[tuple[int, int, int, int]] = []
        while left:
            choices.clear()
            forced = None
            for j in range(4):
                column = columns[j]
                if column:
                    c = column[-1]
                    suit, rank = divmod(c, 13)
                    if ups[suit] == rank:
                        choices.append((0, j, -1, suit))
                    if 12 - downs[suit] == rank:
                        choices.append((1, j, -1, suit))
            if fans_open:
                for j in range(2):
                    fan = fans[j]
                    top = len(fan) - 1
                    for k in range(top + 1):
                        suit, rank = divmod(fan[k], 13)
                        if ups[suit] == rank:
                            choices.append((0, 4 + j, k if k < top else -1, suit))
                        if 12 - downs[suit] == rank:
                            choices.append((1, 4 + j, k if k < top else -1, suit))
            if round >= last:
                for choice in choices:
                    if ups[choice[3]] + downs[choice[3]] >= fixed:
                        forced = choice
                        break
            can_deal = bool(stock) or round < last
            if forced is None and choices and not (can_deal and hold and rng.random() < hold):
                forced = choices[rng.randrange(len(choices))]
            if forced is not None:
                lane, j, k, suit = forced
                target = down[suit] if lane else up[suit]
                if j < 4:
                    columns[j].pop()
                    line.append(move(tableau[j], target))
                else:
                    fan = fans[j - 4]
                    line.append(move(reserve[j - 4], target, 1, k))
                    del fan[k]
                if lane:
                    downs[suit] += 1
                else:
                    ups[suit] += 1
                left -= 1
                continue
            if not can_deal:
                return None, len(line)
            line.append(DEAL)
            after = game.apply_unchecked(
                self._as_state(state, stock, columns, fans, fans_open, ups, downs, round), DEAL)
            piles = after.piles
            stock = piles[game.stock]
            columns = [list(piles[i].translate(FACE_UP)) for i in tableau]
            fans = [list(piles[i].translate(FACE_UP)) for i in reserve]
            fans_open = any(p and not p[-1] & FACE_DOWN for p in (piles[i] for i in reserve))
            round = after.round
        return line, len(line)

    def _as_state(self, state: State, stock: bytes, columns: list[list[int]], fans: list[list[int]],
                  fans_open: bool, ups: list[int], downs: list[int], round: int) -> State:
        """The position of a playout (the stock as the rules left it, the reserve face down
        until it opens)."""
        game = self.game
        piles = list(state.piles)
        piles[game.stock] = stock
        for suit in range(4):
            piles[self.up[suit]] = self._up_lanes[suit][ups[suit]]
            piles[self.down[suit]] = self._down_lanes[suit][downs[suit]]
        for i, column in zip(game.tableau, columns):
            piles[i] = bytes(column)
        for i, fan in zip(game.reserve, fans):
            piles[i] = bytes(fan) if fans_open else bytes(fan).translate(FACE_DOWN_TABLE)
        return State(game, tuple(piles), round, state.base)

    # -- the policy -------------------------------------------------------------

    def probe(self, state: State, attempt: int) -> list[Move] | None:
        """Random playouts (see :meth:`_playout`), seeded by the position and ``attempt``."""
        rng = random.Random(zlib.crc32(b"".join(state.piles)) * 7919 + state.round * 101 + attempt)
        steps = 0
        count = attempt * 7
        while steps < PROBE_STEPS:
            line, played = self._playout(state, rng, HOLDS[count % len(HOLDS)])
            self.probe_moves += played
            if line is not None:
                return line
            steps += played + 1
            count += 1
        return None


    def safe_move(self, state: State) -> Move | None:
        cover = self._cover(state)
        if cover is not None and len(cover) == 1:
            return cover[0]
        return None

    def ordered_moves(self, state: State) -> list[Move]:
        cover = self._cover(state)
        if cover is not None:
            return cover
        moves = list(state.game.generate_moves(state))
        moves.sort(key=lambda m: 2 if m.is_deal else (1 if m.source[0] == "f" else 0))
        return moves

    def is_hopeless(self, state: State) -> bool:
        if state.round < self.last_round:
            return False
        return self._stuck(state)

    def _stuck(self, state: State) -> bool:
        """Last round: some card can never be played (see the rule in the body)."""
        # A card is dead when a dead card lies above it in its tableau pile, or when every
        # lane that can ever take it first needs a rank whose copies in play all lie below
        # it in its own pile or are dead. Dead cards never reach a foundation: the pile
        # order is fixed (deals only add on top), so a card below another can only be
        # played after it. Any dead card means the position is lost. Cards still in the
        # stock are never marked and count as available (they may be played as soon as
        # they are dealt), and so do reserve cards.
        piles = state.piles
        ups = [len(piles[i]) for i in self.up]
        downs = [len(piles[i]) for i in self.down]
        columns = [[c & 63 for c in piles[i]] for i in self.game.tableau]
        where: dict[int, list[tuple[int, int]]] = {}
        for j, col in enumerate(columns):
            for k, c in enumerate(col):
                where.setdefault(c, []).append((j, k))
        free = {c & 63 for i in (self.game.stock, *self.game.reserve) for c in piles[i]}
        dead: set[tuple[int, int]] = set()
        changed = True
        while changed:
            changed = False
            for j, col in enumerate(columns):
                for k in range(len(col) - 1, -1, -1):
                    if (j, k) in dead:
                        continue
                    if (j, k + 1) in dead or self._blocked(col[k], j, k, ups, downs, where, free, dead):
                        dead.add((j, k))
                        changed = True
        return bool(dead)

    def _blocked(self, c: int, j: int, k: int, ups: list[int], downs: list[int],
                 where: dict[int, list[tuple[int, int]]], free: set[int],
                 dead: set[tuple[int, int]]) -> bool:
        """Whether no lane can take card ``c`` at (pile ``j``, height ``k``): each first needs
        a rank none of whose copies in play can be played before ``c``."""
        suit, rank = divmod(c, 13)
        if not self._fixed(ups, downs, suit):
            return False
        u, d = ups[suit], downs[suit]
        lanes = []
        if u <= rank:
            lanes.append(range(u, rank))
        if 12 - d >= rank:
            lanes.append(range(12 - d, rank, -1))
        for needed in lanes:
            ok = True
            for b in needed:
                card = suit * 13 + b
                if card in free:
                    continue
                if all((jj == j and kk < k) or (jj, kk) in dead for jj, kk in where.get(card, ())):
                    ok = False
                    break
            if ok:
                return False
        return True


counterpart(GrandDuchessPolicy, NativeSearch(
    MoveOrder.GRAND_DUCHESS, SafeMoves.GRAND_DUCHESS, proofs=Proofs.GRAND_DUCHESS,
    playouts=Playouts(PROBE_STEPS, HOLDS)))
