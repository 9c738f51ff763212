"""The native counterparts of the rule functions, as typed data.

Beside each rule function (a source, target, permit, stock-click, can-deal or after-move
rule of :mod:`kibitz.rules`, and the helpers those call) the rules declare what the native
kernel runs in its place: a small frozen value naming one of the kernel's building blocks
and its parameters, attached with :func:`counterpart` the way :func:`kibitz.reasons.reason_for`
attaches a reason. :mod:`kibitz.native` turns a game's counterparts into the kernel's spec
without looking at any function's or game's name; a rule without a counterpart keeps its
game in pure Python, and the tests name that rule.

Piles are named as the rules name them: a pile name (``"r1"``), a :class:`PileKind` (every
pile of that kind, in layout order) or :class:`Backwards` (the same, last first).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping, Sequence, TypeVar, Union

from kibitz.piles import PileKind

if TYPE_CHECKING:
    from kibitz.rules import Game

Json = Union[None, bool, int, float, str, Sequence["Json"], Mapping[str, "Json"]]
"""What a counterpart becomes in the kernel's spec."""
Takes = tuple[tuple[int, ...], ...]
"""A build table: for each card identity (0..51), the identities that build on it."""


class MissingCounterpart(LookupError):
    """A rule the game uses has no native counterpart (its name is in the message)."""


# -- the registry ------------------------------------------------------------------------------

class Counterpart:
    """A building block of the native kernel with its parameters."""

    def native(self, game: Game) -> Json:
        """This block as the kernel's spec writes it, piles resolved for ``game``."""
        raise NotImplementedError


_COUNTERPARTS: dict[object, Counterpart] = {}
Rule = TypeVar("Rule")
Block = TypeVar("Block", bound=Counterpart)


def counterpart(rule: Rule, block: Counterpart) -> Rule:
    """Declare ``block`` as the native counterpart of ``rule``; returns ``rule``."""
    _COUNTERPARTS[rule] = block
    return rule


def rule_name(rule: object) -> str:
    """A rule function's name as a message gives it: ``kibitz.games.duchess.permits_standard``."""
    return f"{getattr(rule, '__module__', '?')}.{getattr(rule, '__name__', repr(rule))}"


def counterpart_of(rule: object, kind: type[Block] = Counterpart) -> Block:  # type: ignore[assignment]
    """The counterpart of ``rule`` (itself when it is already a ``kind``); raises
    :class:`MissingCounterpart` naming the rule when it has none of that kind."""
    if isinstance(rule, kind):
        return rule
    found = _COUNTERPARTS.get(rule)
    if not isinstance(found, kind):
        what = "no native counterpart" if found is None else f"a counterpart that is no {kind.__name__}"
        raise MissingCounterpart(f"{rule_name(rule)} has {what}")
    return found


# -- piles ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Backwards:
    """Every pile of ``kind``, last first."""

    kind: PileKind


PileRef = Union[str, PileKind, Backwards]


def pile_indices(game: Game, piles: tuple[PileRef, ...]) -> list[int]:
    """The indices of ``piles`` in ``game``, in the order named."""
    found: list[int] = []
    for pile in piles:
        if isinstance(pile, PileKind):
            found += game.indices((pile,))
        elif isinstance(pile, Backwards):
            found += reversed(game.indices((pile.kind,)))
        else:
            found.append(game.pile_index(pile))
    return found


def piles_of(game: Game, kinds: tuple[PileKind, ...]) -> list[int]:
    """The indices of every pile of ``kinds``, in layout order (as the rules walk them)."""
    return list(game.indices(kinds))


def kind_names(kinds: tuple[PileKind, ...]) -> list[Json]:
    """Pile kinds as the spec names them (``Tableau``)."""
    return [kind.name.capitalize() for kind in kinds]


def tagged(tag: str, **fields: Json) -> Json:
    """A block of the spec: its name, with its parameters when it has any."""
    return {tag: dict(fields)} if fields else tag


# -- sources ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TopCards(Counterpart):
    """The face-up top card of each non-empty pile of ``kinds``."""

    kinds: tuple[PileKind, ...]

    def native(self, game: Game) -> Json:
        return tagged("TopCards", piles=piles_of(game, self.kinds))


@dataclass(frozen=True)
class EveryCardOfFaceUpPiles(Counterpart):
    """Every card of each pile of ``kinds`` whose top card is face up, one at a time."""

    kinds: tuple[PileKind, ...]

    def native(self, game: Game) -> Json:
        return tagged("EveryCardOfFaceUpPiles", piles=piles_of(game, self.kinds))


@dataclass(frozen=True)
class Runs(Counterpart):
    """The top card and every longer run at the top of each pile of ``kind`` built by ``takes``."""

    kind: PileKind
    takes: Takes

    def native(self, game: Game) -> Json:
        return tagged("Runs", piles=piles_of(game, (self.kind,)), build=table_json(self.takes))


@dataclass(frozen=True)
class TopCardAndWholeRun(Counterpart):
    """The top card of each pile of ``kind``, and the whole pile when it is one run built by ``takes``."""

    kind: PileKind
    takes: Takes

    def native(self, game: Game) -> Json:
        return tagged("TopCardAndWholeRun", piles=piles_of(game, (self.kind,)),
                      build=table_json(self.takes))


@dataclass(frozen=True)
class StockTop(Counterpart):
    """The stock's top card, face up or down."""

    def native(self, game: Game) -> Json:
        return tagged("StockTop", pile=game.stock)


def table_json(takes: Takes) -> Json:
    return [list(cards) for cards in takes]


# -- targets ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class FoundationsTakeNext(Counterpart):
    """Each foundation takes the next card of its suit and direction (as its layout says)."""

    def native(self, game: Game) -> Json:
        return "FoundationsTakeNext"


@dataclass(frozen=True)
class BuildsOn(Counterpart):
    """Each non-empty pile of ``kind`` takes the cards ``takes`` lists for its top card."""

    kind: PileKind
    takes: Takes

    def native(self, game: Game) -> Json:
        return tagged("BuildsOn", piles=piles_of(game, (self.kind,)), build=table_json(self.takes))


@dataclass(frozen=True)
class EmptyPilesTakeAny(Counterpart):
    """Each empty pile of ``kind`` takes any card."""

    kind: PileKind

    def native(self, game: Game) -> Json:
        return tagged("EmptyPilesTakeAny", piles=piles_of(game, (self.kind,)))


# -- permits ------------------------------------------------------------------------------------

class Test:
    """A test of a permit clause on a candidate move (source, target, card count)."""

    def native(self, game: Game) -> Json:
        raise NotImplementedError


@dataclass(frozen=True)
class BaseUnset(Test):
    """No base rank is chosen yet."""

    def native(self, game: Game) -> Json:
        return "BaseUnset"


@dataclass(frozen=True)
class SourceIs(Test):
    """The source pile is of one of ``kinds``."""

    kinds: tuple[PileKind, ...]

    def native(self, game: Game) -> Json:
        return tagged("SourceIn", kinds=kind_names(self.kinds))


@dataclass(frozen=True)
class TargetIs(Test):
    """The target pile is of one of ``kinds``."""

    kinds: tuple[PileKind, ...]

    def native(self, game: Game) -> Json:
        return tagged("TargetIn", kinds=kind_names(self.kinds))


@dataclass(frozen=True)
class TargetEmpty(Test):
    """The target pile is empty."""

    def native(self, game: Game) -> Json:
        return "TargetEmpty"


@dataclass(frozen=True)
class OneCard(Test):
    """One card moves."""

    def native(self, game: Game) -> Json:
        return "OneCard"


@dataclass(frozen=True)
class WholePile(Test):
    """The whole source pile moves."""

    def native(self, game: Game) -> Json:
        return "WholePile"


@dataclass(frozen=True)
class PilesEmpty(Test):
    """Every pile of ``kinds`` is empty."""

    kinds: tuple[PileKind, ...]

    def native(self, game: Game) -> Json:
        return tagged("Empty", piles=piles_of(game, self.kinds))


@dataclass(frozen=True)
class Not(Test):
    """``test`` does not hold."""

    test: Test

    def native(self, game: Game) -> Json:
        return {"Not": self.test.native(game)}


@dataclass(frozen=True)
class Never(Test):
    """Never holds: a clause that refuses."""

    def native(self, game: Game) -> Json:
        return "Never"


@dataclass(frozen=True)
class Clause:
    """When every test of ``when`` holds, the move is permitted exactly when every test of
    ``then`` holds (``when=()``: always)."""

    when: tuple[Test, ...]
    then: tuple[Test, ...]


@dataclass(frozen=True)
class Permits(Counterpart):
    """The first clause whose ``when`` holds decides; a move no clause applies to is permitted."""

    clauses: tuple[Clause, ...]

    def native(self, game: Game) -> Json:
        return {"clauses": [{"when": [test.native(game) for test in clause.when],
                             "then": [test.native(game) for test in clause.then]} for clause in self.clauses]}


# -- the stock ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Deal(Counterpart):
    """``passes`` times, ``packet`` cards from the stock onto each pile of ``order`` in turn,
    as far as the stock goes; piles of ``face_down`` get them face down, and piles of
    ``face_up_when_stock_empties`` turn face up when the deal empties the stock. It applies
    from round ``from_round`` on."""

    order: tuple[PileRef, ...]
    packet: int = 1
    passes: int = 1
    face_down: tuple[PileKind, ...] = ()
    face_up_when_stock_empties: tuple[PileKind, ...] = ()
    from_round: int = 1

    def native(self, game: Game) -> Json:
        return {"from_round": self.from_round, "order": pile_indices(game, self.order),
                "packet": self.packet, "passes": self.passes,
                "face_down": piles_of(game, self.face_down),
                "face_up_when_stock_empties": piles_of(game, self.face_up_when_stock_empties)}


@dataclass(frozen=True)
class DealsByRound(Counterpart):
    """Deals that change with the round: each applies from its ``from_round`` on."""

    deals: tuple[Deal, ...]

    def native(self, game: Game) -> Json:
        return [deal.native(game) for deal in self.deals]


@dataclass(frozen=True)
class Gather(Counterpart):
    """The piles a redeal gathers into the new stock, in turn (the first pile's top card
    ends at the bottom)."""

    piles: tuple[PileRef, ...]

    def native(self, game: Game) -> Json:
        return pile_indices(game, self.piles)


class RedealNeeds(enum.Enum):
    """What a redeal needs beyond an empty stock and a round to spare."""

    CARDS_TO_GATHER = "CardsToGather"
    GAME_NOT_WON = "GameNotWon"


@dataclass(frozen=True)
class Redeal:
    """A click on the empty stock: ``gather`` (a :class:`Gather`, or a rule function whose
    counterpart is one) into a new stock, face down, in a new round; the round's deal
    follows when ``deal_after``."""

    gather: object
    needs: RedealNeeds
    deal_after: bool


@dataclass(frozen=True)
class StockClick(Counterpart):
    """What a click on the stock does: ``deal`` (a :class:`Deal` or :class:`DealsByRound`, or a
    rule function whose counterpart is one) while the stock has cards, else ``redeal``.
    With ``needs_base`` the stock may be clicked only once the base rank is chosen."""

    deal: object
    redeal: Redeal | None = None
    needs_base: bool = False

    def native(self, game: Game) -> Json:
        deal = self.deal if isinstance(self.deal, (Deal, DealsByRound)) else counterpart_of(self.deal)
        if isinstance(deal, Deal):
            deals: Json = [deal.native(game)]
        elif isinstance(deal, DealsByRound):
            deals = deal.native(game)
        else:
            raise MissingCounterpart(f"{rule_name(self.deal)} has a counterpart that is no Deal")
        redeal: Json = None
        if self.redeal is not None:
            redeal = {"gather": counterpart_of(self.redeal.gather, Gather).native(game),
                      "needs": self.redeal.needs.value, "deal_after": self.redeal.deal_after}
        return {"needs_base": self.needs_base, "deals": deals, "redeal": redeal}


@dataclass(frozen=True)
class StockHasCards(Counterpart):
    """The stock may be clicked while it has cards (a game without redeals)."""

    def native(self, game: Game) -> Json:
        return "StockHasCards"


# -- after a move ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class ChooseBase(Counterpart):
    """The first card played to a foundation sets the base rank."""

    def native(self, game: Game) -> Json:
        return "ChooseBase"


@dataclass(frozen=True)
class Refill(Counterpart):
    """A pile of ``kind`` emptied by a move at once gets up to ``count`` cards from the stock."""

    kind: PileKind
    count: int

    def native(self, game: Game) -> Json:
        return tagged("Refill", piles=piles_of(game, (self.kind,)), count=self.count)

