"""Why a move is refused, in the player's words.

Beside a rule (a source, target, permit or stock-click rule, see :mod:`kibitz.rules`) a game
may declare its *reason*: a small function that takes an :class:`Attempt` (a move a player
tried) and says in one sentence why that rule refuses it, or ``None`` when the rule has
nothing against it or does not concern those piles. :func:`explain_illegal` asks the rules
in the order they decide a move (the piles, the sources, the permits, the targets), so every
refusal names the rule that forbids it; :func:`explain_card` says why a card cannot move, or
where it can go.

Cards are written as on their index, with suit symbols (``6♣``, ``10♥``). No sentence names
a card hidden from the player (:func:`kibitz.view.is_hidden`). Piles are named in notation
(``the tableau pile t2``), for a player who types moves; within :func:`spoken_piles`, as a
player says them (``tableau 2``), for one who does not (the browser).
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable, Iterator

from kibitz.cards import FACE_DOWN, IDENTITY, RANK_NAMES, RANK_SYMBOLS, SUIT_NAMES, Card, card_text
from kibitz.errors import IllegalMoveError, quoted
from kibitz.moves import DEAL, PILE_NAME, Move
from kibitz.piles import PileKind
from kibitz.view import is_hidden

if TYPE_CHECKING:
    from kibitz.rules import Game, State, Unit

Reason = Callable[["Attempt"], "str | None"]
"""Why one rule refuses an attempt, or ``None`` when it has nothing against it."""

_REASONS: dict[object, Reason] = {}


def reason_for(rule: object) -> Callable[[Reason], Reason]:
    """Declare, beside ``rule``, the function that says why that rule refuses an attempt."""

    def declare(reason: Reason) -> Reason:
        _REASONS[rule] = reason
        return reason
    return declare


def reason_of(rule: object) -> Reason | None:
    """The reason declared for ``rule``, if any."""
    return _REASONS.get(rule)


@dataclass(frozen=True)
class Attempt:
    """A move a player tried: ``size`` cards of pile ``source`` from ``position`` (the bottom
    moving card, counted from the bottom of the pile) onto pile ``target``.

    ``target`` is ``None`` for a click on the stock. ``by_index``: the move named its card by
    index (``r1#2>f3``). ``card`` is the moving card's identity and ``visible`` whether the
    player sees it: a reason never names a card that is not visible.
    """

    game: Game
    state: State
    source: int
    target: int | None
    size: int
    position: int
    by_index: bool = False

    @property
    def pile(self) -> bytes:
        """The cards of the source pile."""
        return self.state.piles[self.source]

    @property
    def card(self) -> Card:
        return self.pile[self.position] & IDENTITY

    @property
    def visible(self) -> bool:
        return self.can_see(self.source, self.position)

    def can_see(self, pile: int, position: int) -> bool:
        """Whether the player sees the card at ``position`` of ``pile``."""
        spec = self.game.piles[pile]
        return not is_hidden(spec.spread, spec.kind, self.state.piles[pile], position)

    @property
    def subject(self) -> str:
        """The moving cards as the sentence's subject: ``The 6♣``, ``The run from the 6♣``,
        ``The stock's top card`` or ``That card``."""
        if not self.visible:
            return "The stock's top card" if self.source == self.game.stock else "That card"
        if self.size > 1:
            return f"The run from the {card_text(self.card)}"
        return f"The {card_text(self.card)}"

    @property
    def source_kind(self) -> PileKind:
        return self.game.kinds[self.source]


# -- words --------------------------------------------------------------------------------

_SPOKEN: ContextVar[bool] = ContextVar("spoken_piles", default=False)


@contextmanager
def spoken_piles() -> Iterator[None]:
    """Within it, refusals name piles as a player says them (``tableau 2``), not in notation."""
    token = _SPOKEN.set(True)
    try:
        yield
    finally:
        _SPOKEN.reset(token)


def name_of_pile(game: Game, pile: int) -> str:
    """A pile's name in a sentence: ``t2``; within :func:`spoken_piles`, ``tableau 2``."""
    spec = game.piles[pile]
    return spec.spoken if _SPOKEN.get() else spec.name


def pile_words(game: Game, pile: int) -> str:
    """A pile as a player calls it: ``the foundation f1``, ``the tableau pile t2``, ``the cell r3``;
    within :func:`spoken_piles`, ``foundation 1``, ``tableau 2``, ``cell 3``, ``the stock``."""
    spec = game.piles[pile]
    if _SPOKEN.get():
        return spec.spoken
    kind = spec.kind
    if kind is PileKind.STOCK:
        return "the stock"
    if kind is PileKind.WASTE:
        return "the waste"
    if kind is PileKind.FOUNDATION:
        return f"the foundation {spec.name}"
    if kind is PileKind.TABLEAU:
        return f"the tableau pile {spec.name}"
    return f"the cell {spec.name}" if spec.cell else f"the reserve pile {spec.name}"


def kind_words(game: Game, pile: int) -> str:
    """Any pile of that kind: ``a foundation``, ``a tableau pile``, ``a cell``, ``the waste``."""
    spec = game.piles[pile]
    words = {PileKind.STOCK: "the stock", PileKind.WASTE: "the waste", PileKind.FOUNDATION: "a foundation",
             PileKind.TABLEAU: "a tableau pile", PileKind.RESERVE: "a cell" if spec.cell else "a reserve pile"}
    return words[spec.kind]


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def one_of(words: Iterable[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    items = list(words)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def cards_words(cards: Iterable[Card]) -> str:
    """Cards that a pile takes: ``a red 8``, ``the 4♠ or the 6♠``, ``nothing``."""
    identities = sorted(set(c & IDENTITY for c in cards))
    if not identities:
        return "nothing"
    ranks = {c % 13 for c in identities}
    suits = [c // 13 for c in identities]
    if len(ranks) == 1 and len(suits) == 2 and suits in ([0, 1], [2, 3]):
        colour = "black" if suits == [0, 1] else "red"
        rank = identities[0] % 13
        return f"a {colour} {RANK_NAMES[rank] if rank in (0, 10, 11, 12) else RANK_SYMBOLS[rank]}"
    return one_of(f"the {card_text(c)}" for c in identities)


def suit_words(suit: int) -> str:
    return SUIT_NAMES[suit]


NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def no_redeal_left(game: Game) -> str:
    """Why an empty stock cannot be clicked when the redeals are used up."""
    redeals = game.info.redeals
    if redeals == 0:
        return f"The stock is empty, and {game.name} has no redeal."
    if redeals == 1:
        return "The stock is empty, and its one redeal is used."
    if redeals == 2:
        return "The stock is empty, and both redeals are used."
    count = NUMBERS[redeals] if redeals < len(NUMBERS) else str(redeals)
    return f"The stock is empty, and all {count} redeals are used."


ONLY_DEALT_FROM_STOCK = "Cards leave the stock only when it is dealt."
NEVER_FROM_FOUNDATION = "In these rules, cards never leave the foundations."
NOT_LEGAL = "That move is not allowed now."
"""The last resort, when no rule says more (the tests check it is never needed)."""


# -- the refusal of a move ------------------------------------------------------------------

def pile_too_short(state: State, source: int) -> str:
    """``The foundation f1 is empty.`` or ``The tableau pile t3 holds only 2 cards.``"""
    count = len(state.piles[source])
    where = capital(pile_words(state.game, source))
    if count == 0:
        return f"{where} is empty."
    return f"{where} holds only {count} card{'s' if count > 1 else ''}."


def hidden_words(attempt: Attempt) -> str:
    """Why a hidden card cannot be played, naming neither it nor any hidden card."""
    if attempt.pile[attempt.position] & FACE_DOWN:
        return "That card is face down."
    return f"That card cannot be seen: only the top card of {pile_words(attempt.game, attempt.source)} shows."


def units_of(game: Game, state: State) -> list[Unit]:
    """Every movable unit of ``state``, as the game's source rules list them."""
    units: list[Unit] = []
    for rule in game.rules.sources:
        rule(game, state, units)
    return units


def is_unit(attempt: Attempt, units: list[Unit]) -> bool:
    """Whether the attempt moves a unit that a source rule lets move."""
    top = len(attempt.pile) - 1
    index = attempt.position if attempt.by_index and attempt.position != top else -1
    return any(source == attempt.source and count == attempt.size and at == index
               for source, count, at, _ in units)


def first_reason(rules: Iterable[object], attempt: Attempt) -> str | None:
    """The first thing one of ``rules`` says against ``attempt``."""
    for rule in rules:
        reason = reason_of(rule)
        if reason is not None:
            said = reason(attempt)
            if said is not None:
                return said
    return None


def why_not_source(attempt: Attempt) -> str:
    """Why the cards of an attempt cannot move at all (they are no movable unit)."""
    said = first_reason(attempt.game.rules.sources, attempt)
    if said is not None:
        return said
    kind = attempt.source_kind
    if kind is PileKind.STOCK:
        return ONLY_DEALT_FROM_STOCK
    if not attempt.visible:
        return hidden_words(attempt)
    if kind is PileKind.FOUNDATION:
        return NEVER_FROM_FOUNDATION
    return f"{attempt.subject} can't move from {pile_words(attempt.game, attempt.source)}."


ANY: frozenset[Card] = frozenset(range(52))
"""What an empty pile that takes any card takes."""


def takes(game: Game, state: State, target: int) -> frozenset[Card]:
    """The cards the game's target rules let pile ``target`` take now (before permits)."""
    wants: dict[int, list[int]] = {}
    anywhere: list[int] = []
    for rule in game.rules.targets:
        rule(game, state, wants, anywhere)
    if target in anywhere:
        return ANY
    return frozenset(card for card, piles in wants.items() if target in piles)


def why_not_target(attempt: Attempt) -> str:
    """Why the target pile does not take the attempt's cards (its card is visible)."""
    game, target = attempt.game, attempt.target
    assert target is not None
    said = first_reason(game.rules.targets, attempt)
    if said is not None:
        return said
    spec = game.piles[target]
    where = pile_words(game, target)
    if spec.cell and attempt.state.piles[target]:
        return f"{attempt.subject} can't go to {where}: it already holds a card, and a cell holds only one."
    kind = spec.kind
    if kind is PileKind.WASTE:
        return "Only the stock deals onto the waste."
    if kind is PileKind.STOCK:
        return "Nothing goes back into the stock."
    if kind is PileKind.TABLEAU:
        return f"Nothing is ever played onto the tableau in {game.name}: its piles are only dealt to."
    if kind is PileKind.RESERVE:
        return f"Nothing is ever played onto the reserve in {game.name}."
    return f"{attempt.subject} can't go to {where} now."


def why_not(attempt: Attempt) -> str:
    """Why a move of a movable unit to ``attempt.target`` is refused.

    A pile that takes no card now (a full cell, a complete foundation, a pile nothing is
    played onto) says so first; then the permits speak, then the target rules.
    """
    game, state, target = attempt.game, attempt.state, attempt.target
    assert target is not None
    wanted = takes(game, state, target)
    if not wanted:
        return why_not_target(attempt)
    permits = game.rules.permits
    if permits is not None:
        said = first_reason((permits,), attempt)
        if said is not None:
            return said
    if wanted is not ANY and attempt.card not in wanted:
        if not attempt.visible:  # whatever the rule, saying it would tell something of the card
            return f"{attempt.subject} can't go to {pile_words(game, target)} now."
        return why_not_target(attempt)
    return NOT_LEGAL


def why_no_deal(game: Game, state: State) -> str:
    """Why the stock cannot be clicked."""
    attempt = Attempt(game, state, game.stock, None, 0, 0)
    said = first_reason((game.rules.deal,), attempt)
    if said is not None:
        return said
    if not state.piles[game.stock]:
        return no_redeal_left(game)
    return "The stock can't be dealt now."


def explain_illegal(state: State, move: Move) -> str:
    """A sentence saying why ``move`` is not legal in ``state``, naming the rule that forbids it."""
    game = state.game
    if move.is_deal:
        return "Dealing is allowed now." if DEAL in state.legal_moves else why_no_deal(game, state)
    for name in (move.source, move.target):
        if name not in game.pile_names():
            return f"{game.name} has no pile {name if re.fullmatch(PILE_NAME, name) else quoted(name)}."
    source, target = game.pile_index(move.source), game.pile_index(move.target)
    if source == target:
        return "A card can't move onto its own pile."
    pile = state.piles[source]
    if move.size < 1:
        return "A move carries at least one card."
    if move.position is not None and move.position < 0:
        return "A card's index counts from 0 at the bottom of its pile."
    if (move.position if move.position is not None else move.size - 1) >= len(pile):
        return pile_too_short(state, source)
    if move.position is not None and move.position == len(pile) - 1:
        plain = Move(move.source, move.target)
        if plain in state.legal_moves:
            return f"The top card moves without an index: {plain}."
        return explain_illegal(state, plain)
    by_index = move.position is not None
    position = move.position if move.position is not None else len(pile) - move.size
    attempt = Attempt(game, state, source, target, move.size, position, by_index)
    if not is_unit(attempt, units_of(game, state)):
        return why_not_source(attempt)
    if move in state.legal_moves:
        return "That move is legal."
    return why_not(attempt)


def explain_card(state: State, pile_name: str, index: int) -> str:
    """For the card at ``index`` (from the bottom, from 0) of pile ``pile_name``: why it cannot
    move now, or where it can go. Raises :class:`IllegalMoveError` for no such card."""
    game = state.game
    source = game.pile_index(pile_name)
    pile = state.piles[source]
    if not 0 <= index < len(pile):
        raise IllegalMoveError(pile_too_short(state, source))
    top = len(pile) - 1
    size = len(pile) - index
    moves = [m for m in state.legal_moves if m.source == pile_name and not m.is_deal
             and (m.position == index if m.position is not None else m.size == size)]
    if moves:
        moving = Attempt(game, state, source, None, moves[0].size, index)
        targets = dict.fromkeys(name_of_pile(game, game.pile_index(m.target)) for m in moves)
        return f"{moving.subject} can go to {one_of(targets)}."
    units = units_of(game, state)
    run = Attempt(game, state, source, None, size, index)
    single = Attempt(game, state, source, None, 1, index, by_index=index != top)
    for tried in (single, run):
        if is_unit(tried, units):
            return _nowhere(tried)
    return why_not_source(run)


def _nowhere(attempt: Attempt) -> str:
    """Why a movable card has no legal move: what its foundations say (of a single card
    the player sees), and what an empty tableau pile says."""
    game, state = attempt.game, attempt.state
    candidates: list[int] = []
    if attempt.visible and attempt.size == 1:
        suit = attempt.card // 13
        candidates += [i for i, spec in enumerate(game.piles)
                       if spec.foundation is not None and spec.foundation.suit == suit and i != attempt.source]
    candidates += [i for i in game.tableau if not state.piles[i] and takes(game, state, i)][:1]
    if not candidates and not attempt.visible:
        candidates = list(game.foundations[:1])
    reasons: list[str] = []
    for target in candidates:
        said = why_not(Attempt(game, state, attempt.source, target, attempt.size, attempt.position,
                               attempt.by_index))
        if said not in reasons:
            reasons.append(said)
    if not reasons:
        return f"No pile takes {attempt.subject[0].lower()}{attempt.subject[1:]} now."
    return join_refusals(attempt.subject, reasons)


def join_refusals(subject: str, reasons: list[str]) -> str:
    """Sentences of refusal joined; those after the first that start "<subject> can't go to"
    go on it as "; nor to ..."."""
    head = f"{subject} can't go to "
    text = reasons[0]
    for reason in reasons[1:]:
        if reason.startswith(head) and text.startswith(head):
            text = f"{text[:-1]}; nor to {reason[len(head):]}"
        else:
            text = f"{text} {reason}"
    return text
