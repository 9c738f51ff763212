"""The rules engine: a game is declared data plus a few named rule functions.

A :class:`Rules` value lists a game's piles, how a deal number becomes the
opening state, which cards may move (*sources*), which piles take which cards
(*targets*), an optional extra permission check, what a click on the stock does,
and what happens after a move. :class:`Game` turns those into legal-move
generation and :meth:`Game.apply`. The helpers below are the building blocks the
game files share.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Sequence

from kibitz.cards import FACE_DOWN, IDENTITY, Card, format_card, is_red, rank_of, suit_of
from kibitz.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from kibitz.moves import DEAL, Move, parse_move
from kibitz.piles import Foundation, PileKind, PileSpec
from kibitz.state import State
from kibitz.table import Table
from kibitz.view import is_hidden

Unit = tuple[int, int, int, int]
"""A movable unit: (pile index, card count, index from the bottom or -1, bottom card)."""
Wants = dict[int, list[int]]
"""For each card identity, the piles that would take it."""

SourceRule = Callable[["Game", State, list[Unit]], None]
TargetRule = Callable[["Game", State, Wants, list[int]], None]
PermitRule = Callable[["Game", State, int, int, int], bool]
DealRule = Callable[["Game", State], "State | None"]
AfterMoveRule = Callable[["Game", list[bytes], int, int, "int | None"], "int | None"]
OpeningRule = Callable[["Game", int], State]

RULESETS = ("standard", "pysolfc")


@dataclass(frozen=True)
class GameInfo:
    """What a game is, independent of its rulesets."""

    slug: str
    name: str
    aliases: tuple[str, ...]
    packs: int
    redeals: int
    pysolfc_id: int
    description: str
    rules_version: int = 1


@dataclass(frozen=True)
class Rules:
    """The rule functions of one game in one ruleset (see the module docstring)."""

    layout: tuple[PileSpec, ...]
    opening: OpeningRule
    sources: tuple[SourceRule, ...]
    targets: tuple[TargetRule, ...]
    deal: DealRule
    """The state after a click on the stock, or ``None`` when no click is allowed."""
    table: Table
    """Where the piles lie on the table (both rulesets share one)."""
    can_deal: Callable[["Game", State], bool] | None = None
    """Whether a click on the stock is allowed, when that is cheaper to tell than to make
    the click (it must agree with ``deal``); ``None``: move generation asks ``deal``."""
    permits: PermitRule | None = None
    """Extra check of (state, source, target, count) beyond what targets want."""
    after_move: AfterMoveRule | None = None
    """Effects of a card move: edits the piles in place, returns the base rank."""
    notes: tuple[str, ...] = field(default=())

    def but(self, **changes: object) -> Rules:
        """These rules with some functions replaced (how a ruleset differs)."""
        return replace(self, **changes)  # type: ignore[arg-type]


class Game:
    """One game in one ruleset: legal moves, apply, won and over.

    Algorithms need only :meth:`deal`, ``state.legal_moves`` and ``state.apply``.
    """

    def __init__(self, info: GameInfo, ruleset: str, rules: Rules) -> None:
        self.info = info
        self.ruleset = ruleset
        self.rules = rules
        self.piles = rules.layout
        self.table = rules.table
        self._index = {spec.name: i for i, spec in enumerate(self.piles)}
        kinds = [spec.kind for spec in self.piles]
        self.kinds = tuple(kinds)
        self.stock = self._index["s"]
        self.waste = self._index.get("w")
        self.foundations = tuple(i for i, k in enumerate(kinds) if k is PileKind.FOUNDATION)
        self.tableau = tuple(i for i, k in enumerate(kinds) if k is PileKind.TABLEAU)
        self.reserve = tuple(i for i, k in enumerate(kinds) if k is PileKind.RESERVE)
        self.total_cards = 52 * info.packs
        self._foundation_specs: tuple[tuple[int, Foundation], ...] = tuple(
            (i, spec.foundation) for i, spec in enumerate(self.piles) if spec.foundation)
        self._moves: dict[int, Move] = {}
        self._resolved: dict[Move, tuple[int, int]] = {}
        self._kind_cache: dict[tuple[PileKind, ...], tuple[int, ...]] = {}

    # -- description ---------------------------------------------------------

    @property
    def slug(self) -> str:
        return self.info.slug

    @property
    def name(self) -> str:
        return self.info.name

    def __repr__(self) -> str:
        return f"<Game {self.info.slug} ruleset={self.ruleset}>"

    def pile_index(self, name: str) -> int:
        """Index in ``state.piles`` of the pile named ``name``."""
        try:
            return self._index[name]
        except KeyError:
            names = " ".join(spec.name for spec in self.piles)
            raise IllegalMoveError(f"{self.name} has no pile {name!r} (piles: {names})") from None

    def indices(self, kinds: tuple[PileKind, ...]) -> tuple[int, ...]:
        """Indices of the piles of these kinds, in layout order."""
        cached = self._kind_cache.get(kinds)
        if cached is None:
            cached = tuple(i for i, k in enumerate(self.kinds) if k in kinds)
            self._kind_cache[kinds] = cached
        return cached

    def pile_names(self) -> list[str]:
        return [spec.name for spec in self.piles]

    # -- play ----------------------------------------------------------------

    def deal(self, number: object) -> State:
        """The opening state of deal ``number`` (PySolFC's game number), a whole number from
        1 to 20 digits; anything else raises :class:`DealNumberError` (hence ``object``)."""
        from kibitz.deals import check_deal_number
        return self.rules.opening(self, check_deal_number(number))

    def move(self, source: int, target: int, count: int = 1, index: int = -1) -> Move:
        """The (shared) move value for pile indices ``source`` and ``target``."""
        code = ((source * 32 + target) * 1024) + (512 + index if index >= 0 else count)
        move = self._moves.get(code)
        if move is None:
            move = Move(self.piles[source].name, self.piles[target].name, count,
                        index if index >= 0 else None)
            self._moves[code] = move
            self._resolved[move] = (source, target)
        return move

    def ends(self, move: Move) -> tuple[int, int]:
        """The pile indices of a move's source and target (not of a deal, which has none)."""
        resolved = self._resolved.get(move)
        if resolved is None:  # a move value made elsewhere (parsed, or built by hand)
            resolved = (self.pile_index(move.source), self.pile_index(move.target))
            self._resolved[move] = resolved
        return resolved

    def generate_moves(self, state: State, alike: Sequence[frozenset[int]] = ()) -> tuple[Move, ...]:
        """Every legal move of ``state`` (prefer ``state.legal_moves``, which caches).

        ``alike``: groups of piles that the caller treats as interchangeable (a search whose
        keys ignore their order). A card that may go to any empty pile then goes only to the
        first empty pile of each group: the others would give the same position with its
        piles renamed.
        """
        rules = self.rules
        wants: Wants = {}
        anywhere: list[int] = []
        for target_rule in rules.targets:
            target_rule(self, state, wants, anywhere)
        if alike and len(anywhere) > 1:
            anywhere = first_of_each_group(anywhere, alike)
        units: list[Unit] = []
        for source_rule in rules.sources:
            source_rule(self, state, units)
        permits = rules.permits
        moves: list[Move] = []
        get = wants.get
        make = self.move
        for source, count, index, c in units:
            wanted = get(c)
            targets = wanted + anywhere if wanted else anywhere
            for target in targets:
                if target != source and (permits is None or permits(self, state, source, target, count)):
                    moves.append(make(source, target, count, index))
        can_deal = rules.can_deal
        if can_deal(self, state) if can_deal is not None else rules.deal(self, state) is not None:
            moves.append(DEAL)
        return tuple(moves)

    def apply(self, state: State, move: Move | str) -> State:
        """The state after a legal ``move``; raises :class:`IllegalMoveError` otherwise."""
        if isinstance(move, str):
            move = parse_move(move)
        if move not in state.legal_moves:
            raise IllegalMoveError(self.explain_illegal(state, move))
        return self.apply_unchecked(state, move)

    def apply_unchecked(self, state: State, move: Move) -> State:
        """The state after ``move``, which must be one of ``state.legal_moves``."""
        if move.target == "":
            after = self.rules.deal(self, state)
            assert after is not None, "deal applied where it is not legal"
            return after
        source, target = self.ends(move)
        piles = list(state.piles)
        pile = piles[source]
        if move.position is not None:
            moving = pile[move.position:move.position + 1]
            piles[source] = pile[:move.position] + pile[move.position + 1:]
        else:
            moving = pile[-move.size:]
            piles[source] = pile[:-move.size]
        if source == self.stock:
            moving = moving.translate(FACE_UP)
        piles[target] += moving
        base = state.base
        if self.rules.after_move is not None:
            base = self.rules.after_move(self, piles, source, target, base)
        return State(self, tuple(piles), state.round, base)

    def is_won(self, state: State) -> bool:
        """True when every card is on a foundation."""
        piles = state.piles
        return sum(len(piles[i]) for i in self.foundations) == self.total_cards

    # -- reading moves typed by people --------------------------------------

    def parse_move(self, state: State, text: str) -> Move:
        """A legal move from canonical text or a shorthand.

        Shorthands: ``t3>f`` (the one foundation that takes it), ``t3>t``,
        ``r2>r``, and ``t3`` alone (the one legal move of that pile's top card).
        """
        stripped = text.strip().lower()
        if stripped in ("d", "deal", "s", "redeal"):
            if DEAL in state.legal_moves:
                return DEAL
            raise IllegalMoveError("deal: the stock cannot be dealt now"
                                   + ("" if state.pile("s") else " (the stock is empty and no redeal is left)"))
        try:
            move = parse_move(stripped)
        except InvalidMoveError:
            if not _is_shorthand(stripped):
                raise
            return self._parse_shorthand(state, text, stripped)
        if move not in state.legal_moves:
            raise IllegalMoveError(self.explain_illegal(state, move))
        return move

    def _parse_shorthand(self, state: State, text: str, stripped: str) -> Move:
        match = _SHORTHAND.fullmatch(stripped)
        assert match is not None
        source, index, target, count = match.groups()
        candidates = [m for m in state.legal_moves if not m.is_deal and m.source == source
                      and (target is None or m.target == target or m.target[0] == target)
                      and (index is None or m.position == int(index))
                      and (count is None or m.size == int(count))]
        if target is None and count is None and index is None:
            singles = [m for m in candidates if m.size == 1 and m.position is None]
            candidates = singles or candidates
        if not candidates:
            raise IllegalMoveError(f"{stripped}: no legal move fits" + self._moves_from(state, source))
        if len(candidates) > 1:
            options = ", ".join(sorted(str(m) for m in candidates))
            raise AmbiguousMoveError(f"{stripped}: more than one move fits ({options}); say which")
        return candidates[0]

    def _moves_from(self, state: State, source: str) -> str:
        moves = sorted(str(m) for m in state.legal_moves if m.source == source and not m.is_deal)
        return f" (legal from {source}: {', '.join(moves)})" if moves else f" (nothing can move from {source})"

    def explain_illegal(self, state: State, move: Move) -> str:
        """A sentence saying why ``move`` is not legal in ``state``."""
        text = str(move)
        if move.is_deal:
            if state.piles[self.stock]:
                return "deal: the stock cannot be dealt now"
            return "deal: the stock is empty and no redeal is left"
        for name in (move.source, move.target):
            if name not in self._index:
                return f"{text}: {self.name} has no pile {name}"
        pile = state.piles[self._index[move.source]]
        if not pile:
            return f"{text}: {move.source} is empty"
        if move.position is not None and move.position >= len(pile):
            return f"{text}: {move.source} has only {len(pile)} cards"
        if move.size > len(pile):
            return f"{text}: {move.source} has only {len(pile)} cards"
        position = move.position if move.position is not None else len(pile) - move.size
        moving = pile[position]
        if moving & FACE_DOWN:
            return f"{text}: that card is face down"
        spec = self.piles[self._index[move.source]]
        if is_hidden(spec.spread, spec.kind, pile, position):
            return f"{text}: that card cannot be seen (only the top card of {move.source} shows)"
        what = format_card(moving)
        return (f"{text}: {move.target} does not take {what} from {move.source} here"
                + self._moves_from(state, move.source))


_SHORTHAND = re.compile(r"(s|w|[ftr][1-8])(?:#(\d{1,3}))?(?:>([ftr][1-8]?))?(?:/([1-9]\d{0,2}))?")


def first_of_each_group(piles: list[int], groups: Sequence[frozenset[int]]) -> list[int]:
    """``piles`` without those that follow another pile of the same group."""
    kept: list[int] = []
    taken: set[int] = set()
    for i in piles:
        for k, group in enumerate(groups):
            if i in group:
                if k not in taken:
                    taken.add(k)
                    kept.append(i)
                break
        else:
            kept.append(i)
    return kept


def _is_shorthand(text: str) -> bool:
    """True for ``t3``, ``t3>f``, ``r1#2>f`` and the like: a source with no full target."""
    match = _SHORTHAND.fullmatch(text)
    if match is None:
        return False
    _, index, target, count = match.groups()
    return (target is None or len(target) == 1) and not (index is not None and count is not None)


FACE_UP = bytes(i & ~FACE_DOWN if i < 128 else i for i in range(256))
"""``bytes.translate`` table turning cards face up."""
FACE_DOWN_TABLE = bytes(i | FACE_DOWN if i < 64 else i for i in range(256))
"""``bytes.translate`` table turning cards face down."""


# -- building blocks: cards ----------------------------------------------------

def _table(rule: Callable[[Card], Sequence[Card]]) -> tuple[tuple[Card, ...], ...]:
    return tuple(tuple(rule(c)) for c in range(52))


def _down_alternate(top: Card, wrap: bool) -> list[Card]:
    rank = rank_of(top) - 1
    if rank < 0:
        if not wrap:
            return []
        rank = 12
    suits = (0, 1) if is_red(top) else (2, 3)
    return [suit * 13 + rank for suit in suits]


def _up_or_down_in_suit(top: Card) -> list[Card]:
    rank, suit = rank_of(top), suit_of(top)
    return [suit * 13 + r for r in (rank - 1, rank + 1) if 0 <= r < 13]


DOWN_ALTERNATE = _table(lambda c: _down_alternate(c, wrap=False))
"""For each top card, the cards that build on it down in alternating colours."""
DOWN_ALTERNATE_WRAP = _table(lambda c: _down_alternate(c, wrap=True))
"""The same with king on ace."""
UP_OR_DOWN_IN_SUIT = _table(_up_or_down_in_suit)
"""For each top card, the cards one rank above or below in its suit."""


def builds_down_alternate(lower: Card, upper: Card, wrap: bool) -> bool:
    """True when ``upper`` may lie on ``lower`` in a down, alternate-colour build."""
    table = DOWN_ALTERNATE_WRAP if wrap else DOWN_ALTERNATE
    return (upper & IDENTITY) in table[lower & IDENTITY]


# -- building blocks: sources -------------------------------------------------

def top_cards(*kinds: PileKind) -> SourceRule:
    """Source rule: the face-up top card of every non-empty pile of these kinds."""

    def sources(game: Game, state: State, units: list[Unit]) -> None:
        piles = state.piles
        for i in game.indices(kinds):
            pile = piles[i]
            if pile and not pile[-1] & FACE_DOWN:
                units.append((i, 1, -1, pile[-1]))
    sources.__name__ = "top_cards_" + "_".join(k.name.lower() for k in kinds)
    return sources


# -- building blocks: targets -------------------------------------------------

def foundations_take_next(game: Game, state: State, wants: Wants, anywhere: list[int]) -> None:
    """Target rule: each foundation takes the next card of its suit and direction."""
    piles = state.piles
    for i, spec in game._foundation_specs:
        pile = piles[i]
        n = len(pile)
        if n == 0:
            first = spec.first if spec.first is not None else state.base
            if first is None:  # base rank not chosen yet: any card of the suit
                for rank in range(13):
                    wants.setdefault(spec.suit * 13 + rank, []).append(i)
                continue
            rank = first
        elif n >= 13:
            continue
        else:
            rank = pile[-1] % 13 + spec.step
            if spec.wrap:
                rank %= 13
            elif not 0 <= rank <= 12:
                continue
        wants.setdefault(spec.suit * 13 + rank, []).append(i)


def builds_on(kind: PileKind, table: tuple[tuple[Card, ...], ...]) -> TargetRule:
    """Target rule: each non-empty pile of ``kind`` takes the cards ``table`` lists for its top."""

    def targets(game: Game, state: State, wants: Wants, anywhere: list[int]) -> None:
        piles = state.piles
        for i in game.indices((kind,)):
            pile = piles[i]
            if pile:
                for c in table[pile[-1] & IDENTITY]:
                    wants.setdefault(c, []).append(i)
    return targets


def empty_piles_take_any(kind: PileKind) -> TargetRule:
    """Target rule: each empty pile of ``kind`` takes any card (sources may be restricted by ``permits``)."""

    def targets(game: Game, state: State, wants: Wants, anywhere: list[int]) -> None:
        piles = state.piles
        for i in game.indices((kind,)):
            if not piles[i]:
                anywhere.append(i)
    return targets


# -- building blocks: dealing -------------------------------------------------

def stock_bytes(indices: Iterable[int]) -> bytes:
    """A face-down stock from creation indices (last on top)."""
    return bytes((i % 52) | FACE_DOWN for i in indices)


def deal_cards(stock: bytes, n: int) -> tuple[bytes, bytes]:
    """Take ``n`` cards from the top of ``stock``, face up, in the order dealt.

    Returns (dealt cards, first dealt first; remaining stock).
    """
    n = min(n, len(stock))
    if n == 0:
        return b"", stock
    dealt = stock[len(stock) - n:][::-1].translate(FACE_UP)
    return dealt, stock[:len(stock) - n]


def stock_has_cards(game: Game, state: State) -> bool:
    """``Rules.can_deal`` of a game without redeals: the stock has cards."""
    return bool(state.piles[game.stock])


def deal_while_stock_lasts(deal: Callable[["Game", list[bytes]], None]) -> DealRule:
    """The stock click of a game without redeals: ``deal`` onto the piles while the stock has cards."""

    def stock_click(game: Game, state: State) -> State | None:
        if not state.piles[game.stock]:
            return None
        piles = list(state.piles)
        deal(game, piles)
        return State(game, tuple(piles), state.round, state.base)
    return stock_click


def gather_face_down(piles: Iterable[bytes]) -> bytes:
    """A new stock from piles gathered in turn, each taken from its top and turned face down.

    The first pile's top card ends at the bottom of the new stock.
    """
    return b"".join(pile[::-1] for pile in piles).translate(FACE_DOWN_TABLE)
