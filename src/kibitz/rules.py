"""The rules engine: a game is declared data plus a few named rule functions.

A :class:`Rules` value lists a game's piles, how a deal number becomes the
opening state, which cards may move (*sources*), which piles take which cards
(*targets*), an optional extra permission check, what a click on the stock does,
and what happens after a move. :class:`Game` turns those into legal-move
generation and :meth:`Game.apply` on a :class:`State` (a position, defined here beside the game
it asks for its moves; :mod:`kibitz.state` names it). The helpers below are the building blocks the
game files share; beside each rule is its reason (:mod:`kibitz.reasons`), which says in
words why that rule refuses a move, and its native counterpart (:mod:`kibitz.counterparts`),
from which the native kernel runs the game when it is built (:mod:`kibitz.native`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Callable, ClassVar, Iterable, Sequence

from kibitz.cards import (FACE_DOWN, IDENTITY, RANK_SYMBOLS, RANKS, Card, card_text, format_card, is_red, rank_of,
                          suit_of)
from kibitz.counterparts import (BuildsOn, EmptyPilesTakeAny, FoundationsTakeNext, StockClick, StockHasCards,
                                 TopCards, counterpart)
from kibitz.deals import check_deal_number
from kibitz.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from kibitz.facts import Facts
from kibitz.families import Family
from kibitz.moves import DEAL, Move, parse_move
from kibitz.native import Kernel, kernel_for
from kibitz.piles import Foundation, PileKind, PileSpec
from kibitz.reasons import (Attempt, capital, cards_words, explain_card, explain_illegal, kind_words, no_redeal_left,
                            name_of_pile, pile_too_short, pile_words, reason_for, suit_words)
from kibitz.reach import Reach
from kibitz.table import Table
from kibitz.view import View, is_hidden

Key = tuple[tuple[bytes, ...], int, int]
"""A state's hashable key (see :attr:`State.key`)."""


class State:
    """A position of a game: every pile, the round and the base rank.

    Piles are ``bytes`` (one byte per card, bottom to top, see :mod:`kibitz.cards`), so
    copying a state is copying a tuple of references, and a state's hash is built from the
    piles' cached hashes. ``round`` counts from 1 and goes up with each redeal; ``base`` is
    Duchess's base rank once chosen (``None`` otherwise).

    States are immutable; :meth:`apply` returns a new state. Two states are equal
    when they belong to the same game and ruleset and hold the same cards in the
    same places with the same faces, round and base. A state and its :class:`Game` refer
    to each other (a state asks its game for its moves; a game makes states), so both are
    defined here; :mod:`kibitz.state` is where the library names it. A state pickles as its
    one-line notation (:mod:`kibitz.notation` registers how).
    """

    __slots__ = ("game", "piles", "round", "base", "_legal")

    game: Game
    piles: tuple[bytes, ...]
    round: int
    base: int | None
    _legal: tuple[Move, ...] | None

    def __init__(self, game: Game, piles: tuple[bytes, ...], round: int = 1,
                 base: int | None = None) -> None:
        object.__setattr__(self, "game", game)
        object.__setattr__(self, "piles", piles)
        object.__setattr__(self, "round", round)
        object.__setattr__(self, "base", base)
        object.__setattr__(self, "_legal", None)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"State is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"State is immutable: cannot delete {name!r}")

    # -- identity -----------------------------------------------------------

    @property
    def key(self) -> Key:
        """A hashable key: equal states of one game have equal keys."""
        return (self.piles, self.round, -1 if self.base is None else self.base)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return (self.game is other.game and self.piles == other.piles
                and self.round == other.round and self.base == other.base)

    def __hash__(self) -> int:
        return hash((self.piles, self.round, self.base))

    def __repr__(self) -> str:
        return f"<State {self.game.slug}/{self.game.ruleset} round {self.round}>"

    def __str__(self) -> str:
        """The one-line form of :mod:`kibitz.notation`, which ``parse_state`` reads back."""
        game = self.game
        base = "-" if self.base is None else RANKS[self.base]
        fields = [game.slug, game.ruleset, f"round={self.round}", f"base={base}"]
        fields += [spec.name + "=" + ",".join(format_card(c) for c in pile)
                   for spec, pile in zip(game.piles, self.piles)]
        return " ".join(fields)

    # -- piles --------------------------------------------------------------

    def pile(self, name: str) -> bytes:
        """The cards of the pile named ``name`` (``t3``), bottom to top."""
        return self.piles[self.game.pile_index(name)]

    def cards(self, name: str) -> list[Card]:
        """The card identities of pile ``name``, bottom to top, without face bits."""
        return [c & IDENTITY for c in self.pile(name)]

    # -- rules (delegated to the game) ---------------------------------------

    @property
    def legal_moves(self) -> tuple[Move, ...]:
        """Every legal move, including ``deal`` when the stock may be clicked."""
        legal: tuple[Move, ...] | None = self._legal
        if legal is None:
            legal = self.game.generate_moves(self)
            object.__setattr__(self, "_legal", legal)
        return legal

    def is_legal(self, move: Move) -> bool:
        """True when ``move`` is legal here."""
        return move in self.legal_moves

    def apply(self, move: Move | str) -> State:
        """The state after ``move`` (a :class:`Move` or its text); raises on an illegal move."""
        return self.game.apply(self, move)

    def is_won(self) -> bool:
        """True when every card is on a foundation."""
        return self.game.is_won(self)

    def is_over(self) -> bool:
        """True when the game is won or no legal move remains."""
        return self.is_won() or not self.legal_moves

    def parse_move(self, text: str) -> Move:
        """Parse a move typed by a player, including shorthands (``t3>f``), and check it is legal."""
        return self.game.parse_move(self, text)

    def view(self) -> View:
        """What a player may see: hidden cards masked (:func:`kibitz.view.is_hidden`)."""
        game = self.game
        piles = tuple(
            tuple(None if is_hidden(spec.spread, spec.kind, pile, k) else pile[k] for k in range(len(pile)))
            for spec, pile in zip(game.piles, self.piles))
        return View(game.slug, game.ruleset, tuple(game.pile_names()), piles, self.round, self.base)


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
    family: Family | None = None
    """The family of games whose shape this one shares, if any."""
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
    reach: Reach
    """Which moves the game can ever allow, in either ruleset (both rulesets share one)."""
    facts: Facts
    """What these rules guarantee, for the algorithms that rely on it (each ruleset its own)."""
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

    state_type: ClassVar[type[State]] = State
    """The class of the game's states (the native kernel makes them: :mod:`kibitz.native`)."""

    def __init__(self, info: GameInfo, ruleset: str, rules: Rules) -> None:
        self.info = info
        self.ruleset = ruleset
        self.rules = rules
        self.piles = rules.layout
        self.table = rules.table
        self.reach = rules.reach
        self.facts = rules.facts
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
        self.kernel: Kernel | None = kernel_for(self)
        """The native kernel that runs this game's moves (:mod:`kibitz.native`), or ``None``
        for pure Python."""

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
        kernel = self.kernel
        if kernel is not None:
            return kernel.generate_moves(state, alike)
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
        kernel = self.kernel
        if kernel is not None:
            after = kernel.apply(state, move)
            if after is not None:
                return after
        if move not in state.legal_moves:
            raise IllegalMoveError(self.explain_illegal(state, move))
        return self.apply_unchecked(state, move)

    def apply_unchecked(self, state: State, move: Move) -> State:
        """The state after ``move``, which must be one of ``state.legal_moves``."""
        kernel = self.kernel
        if kernel is not None:
            return kernel.apply_unchecked(state, move)
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

    def on_foundations(self, state: State) -> int:
        """How many cards lie on the foundations."""
        piles = state.piles
        return sum(len(piles[i]) for i in self.foundations)

    def is_won(self, state: State) -> bool:
        """True when every card is on a foundation."""
        return self.on_foundations(state) == self.total_cards

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
            raise IllegalMoveError(explain_illegal(state, DEAL))
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
            raise IllegalMoveError(self._no_move_fits(state, source, index, target, count))
        if len(candidates) > 1:
            options = ", ".join(sorted(str(m) for m in candidates))
            raise AmbiguousMoveError(f"{stripped}: more than one move fits ({options}); say which")
        return candidates[0]

    def _no_move_fits(self, state: State, source: str, index: str | None, target: str | None,
                      count: str | None) -> str:
        """Why no legal move fits a shorthand: what the piles it names say, or why its card
        cannot move, or where it can go."""
        pile = state.pile(source)
        size = int(count) if count is not None else 1
        at = int(index) if index is not None else len(pile) - size
        if not 0 <= at < len(pile):
            return pile_too_short(state, self.pile_index(source))
        said = explain_card(state, source, at)
        if target is None:
            return said
        names = [spec.name for spec in self.piles if spec.name.startswith(target) and spec.name != source]
        if not names:
            return said
        kind = kind_words(self, self.pile_index(names[0]))
        if " can go to " in said:
            return f"That card can't go to {kind} now. {said}"
        if target == "f":
            return said
        tried = {explain_illegal(state, Move(source, name, size, None if index is None else at)) for name in names}
        if len(tried) == 1:
            return tried.pop()
        subject = Attempt(self, state, self.pile_index(source), None, size, at, index is not None).subject
        return f"No {kind[2:]} takes {subject[0].lower()}{subject[1:]} now."

    def explain_illegal(self, state: State, move: Move) -> str:
        """A sentence saying why ``move`` is not legal in ``state``, naming the rule that forbids it
        (see :mod:`kibitz.reasons`)."""
        return explain_illegal(state, move)

    def explain_card(self, state: State, pile_name: str, index: int) -> str:
        """Why the card at ``index`` of pile ``pile_name`` cannot move now, or where it can go."""
        return explain_card(state, pile_name, index)


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


@dataclass(frozen=True)
class Build:
    """How cards build on a pile: for each top card the cards it takes, and that rule in words."""

    takes: tuple[tuple[Card, ...], ...]
    words: str
    """How the pile builds, as in "the tableau builds ...": ``down in alternating colours``."""


DOWN_ALTERNATE = Build(_table(lambda c: _down_alternate(c, wrap=False)), "down in alternating colours")
"""For each top card, the cards that build on it down in alternating colours."""
DOWN_ALTERNATE_WRAP = Build(_table(lambda c: _down_alternate(c, wrap=True)),
                            "down in alternating colours, king on ace")
"""The same with king on ace."""
UP_OR_DOWN_IN_SUIT = Build(_table(_up_or_down_in_suit), "up or down in suit")
"""For each top card, the cards one rank above or below in its suit."""


def builds_down_alternate(lower: Card, upper: Card, wrap: bool) -> bool:
    """True when ``upper`` may lie on ``lower`` in a down, alternate-colour build."""
    table = DOWN_ALTERNATE_WRAP.takes if wrap else DOWN_ALTERNATE.takes
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
    counterpart(sources, TopCards(kinds))

    @reason_for(sources)
    def only_the_top(attempt: Attempt) -> str | None:
        if attempt.source_kind not in kinds or not attempt.visible:
            return None
        return covered(attempt, f"only the top card of {kind_words(attempt.game, attempt.source)} can move")
    return sources


def covered(attempt: Attempt, rule: str) -> str:
    """``The 9♠ is covered by the 4♥; <rule>.`` (the covering card named only when visible)."""
    above = attempt.position + 1
    if above >= len(attempt.pile):
        return f"{capital(rule)}."
    cover = f" by the {card_text(attempt.pile[above])}" if attempt.can_see(attempt.source, above) else ""
    return f"The {card_text(attempt.card)} is covered{cover}; {rule}."


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


counterpart(foundations_take_next, FoundationsTakeNext())


@reason_for(foundations_take_next)
def foundation_needs(attempt: Attempt) -> str | None:
    """The foundation's suit, direction and the card it takes next."""
    game, state, target = attempt.game, attempt.state, attempt.target
    spec = None if target is None else game.piles[target].foundation
    if target is None or spec is None:
        return None
    pile = state.piles[target]
    head = f"{attempt.subject} can't go to {pile_words(game, target)}"
    if len(pile) >= 13:
        return f"{head}: it is complete."
    first = spec.first if spec.first is not None else state.base
    card = attempt.card
    if not pile and first is None:
        if suit_of(card) == spec.suit:
            return None
        return f"{head}: it takes only {suit_words(spec.suit)}."
    if pile:
        rank = pile[-1] % 13 + spec.step
        if spec.wrap:
            rank %= 13
        elif not 0 <= rank <= 12:
            return f"{head}: it is complete."
    else:
        assert first is not None
        rank = first
    needed = spec.suit * 13 + rank
    if card == needed:
        return None
    how = foundation_words(spec, state.base)
    if not pile:
        return f"{head}: it {how}, so it starts with the {card_text(needed)}."
    return f"{head}: it {how}, and takes the {card_text(needed)} next."


def foundation_words(spec: Foundation, base: int | None) -> str:
    """How a foundation builds: ``builds up in clubs from the ace``."""
    direction = "up" if spec.step > 0 else "down"
    if spec.first is not None:
        start = {0: "the ace", 12: "the king"}.get(spec.first, f"the {RANK_SYMBOLS[spec.first]}")
    elif base is not None:
        start = f"the base rank ({RANK_SYMBOLS[base]})"
    else:
        start = "the base rank"
    wrap = ", ace after king" if spec.wrap else ""
    return f"builds {direction} in {suit_words(spec.suit)} from {start}{wrap}"


def builds_on(kind: PileKind, build: Build) -> TargetRule:
    """Target rule: each non-empty pile of ``kind`` takes the cards ``build`` lists for its top."""
    table = build.takes

    def targets(game: Game, state: State, wants: Wants, anywhere: list[int]) -> None:
        piles = state.piles
        for i in game.indices((kind,)):
            pile = piles[i]
            if pile:
                for c in table[pile[-1] & IDENTITY]:
                    wants.setdefault(c, []).append(i)
    counterpart(targets, BuildsOn(kind, table))

    @reason_for(targets)
    def what_builds(attempt: Attempt) -> str | None:
        target = attempt.target
        if target is None or attempt.game.kinds[target] is not kind:
            return None
        pile = attempt.state.piles[target]
        if not pile or attempt.card in table[pile[-1] & IDENTITY]:
            return None
        top = pile[-1] & IDENTITY
        name = name_of_pile(attempt.game, target)
        fits = cards_words(table[top])
        return (f"{attempt.subject} can't go on the {card_text(top)} in {name}: the {kind.name.lower()} "
                f"builds {build.words}, so " + ("no card goes on it." if fits == "nothing" else
                                                f"only {fits} goes on it."))
    return targets


def empty_piles_take_any(kind: PileKind) -> TargetRule:
    """Target rule: each empty pile of ``kind`` takes any card (sources may be restricted by ``permits``)."""

    def targets(game: Game, state: State, wants: Wants, anywhere: list[int]) -> None:
        piles = state.piles
        for i in game.indices((kind,)):
            if not piles[i]:
                anywhere.append(i)
    counterpart(targets, EmptyPilesTakeAny(kind))
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


counterpart(stock_has_cards, StockHasCards())


def deal_while_stock_lasts(deal: Callable[["Game", list[bytes]], None]) -> DealRule:
    """The stock click of a game without redeals: ``deal`` onto the piles while the stock has cards."""

    def stock_click(game: Game, state: State) -> State | None:
        if not state.piles[game.stock]:
            return None
        piles = list(state.piles)
        deal(game, piles)
        return State(game, tuple(piles), state.round, state.base)
    counterpart(stock_click, StockClick(deal))  # the counterpart of ``deal``: a Deal

    @reason_for(stock_click)
    def no_redeal(attempt: Attempt) -> str | None:
        return None if attempt.pile else no_redeal_left(attempt.game)
    return stock_click


def gather_face_down(piles: Iterable[bytes]) -> bytes:
    """A new stock from piles gathered in turn, each taken from its top and turned face down.

    The first pile's top card ends at the bottom of the new stock.
    """
    return b"".join(pile[::-1] for pile in piles).translate(FACE_DOWN_TABLE)
