"""A slow, plain reference of the rules in RULES.md, to check the engine against.

Nothing here uses the engine's rule code (``kibitz.games`` or the helpers of
``kibitz.rules``). The reference reads only a state's piles, round and base and
the names of the game's piles, and decides every candidate move one at a time,
game by game, straight from the text of the rules. Speed is not a goal.

A pile is a list of card bytes, bottom to top: the card's identity
``suit * 13 + rank`` (suits C S H D, rank 0 = ace .. 12 = king) plus 64 when it
lies face down. Pile names follow the rules: ``s``, ``w``, ``f1..f8``,
``t1..t8``, ``r1..r8``; a name's first letter is its kind.

Where RULES.md is silent the engine follows PySolFC 3.6, and so does this
reference; every such place is marked "RULES.md is silent".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from kibitz import DEAL, Move, State
from kibitz.deals import fisher_yates, shuffle

RANKS = "A23456789TJQK"
SUITS = "CSHD"
FACE_DOWN = 64
"""The bit a face-down card carries in a pile byte."""
ACE, KING = 0, 12

Outcome = tuple[tuple[bytes, ...], int, int | None]
"""What a state holds: its piles (in the game's pile order), round and base rank."""


# -- cards ----------------------------------------------------------------------

def identity(card: int) -> int:
    """The card without its face-down bit."""
    return card & 63


def rank(card: int) -> int:
    return identity(card) % 13


def suit(card: int) -> int:
    return identity(card) // 13


def is_red(card: int) -> bool:
    """Hearts and diamonds are red, clubs and spades black."""
    return suit(card) >= 2


def is_face_down(card: int) -> bool:
    return bool(card & FACE_DOWN)


def code(card: int) -> str:
    """``TD``: rank then suit."""
    return RANKS[rank(card)] + SUITS[suit(card)]


def turned_up(card: int) -> int:
    return identity(card)


def turned_down(card: int) -> int:
    return identity(card) | FACE_DOWN


# -- the facts of each game taken from RULES.md ---------------------------------

@dataclass(frozen=True)
class GameFacts:
    """What the rules say about a game, independent of its rulesets."""

    packs: int
    redeals: int
    cells: bool
    """The reserve piles are one-card cells."""
    squared_tableau: bool
    """The tableau piles are squared: only their top card is visible."""


FACTS = {
    "grand-duchess": GameFacts(packs=2, redeals=3, cells=False, squared_tableau=False),
    "parisienne": GameFacts(packs=2, redeals=3, cells=False, squared_tableau=False),
    "duchess": GameFacts(packs=1, redeals=1, cells=False, squared_tableau=False),
    "tournament": GameFacts(packs=2, redeals=2, cells=True, squared_tableau=False),
    "napoleons-flank": GameFacts(packs=2, redeals=2, cells=True, squared_tableau=True),
    "cicely": GameFacts(packs=2, redeals=0, cells=True, squared_tableau=False),
    "kingsdown-eights": GameFacts(packs=2, redeals=0, cells=False, squared_tableau=True),
}


# -- a state as plain lists -------------------------------------------------------

@dataclass
class Table:
    """A state as mutable lists keyed by pile name, for deciding and playing moves."""

    slug: str
    ruleset: str
    names: list[str]
    piles: dict[str, list[int]]
    round: int
    base: int | None

    @classmethod
    def of(cls, state: State) -> Table:
        names = [spec.name for spec in state.game.piles]
        return cls(state.game.slug, state.game.ruleset, names,
                   {name: list(pile) for name, pile in zip(names, state.piles)},
                   state.round, state.base)

    def copy(self) -> Table:
        return Table(self.slug, self.ruleset, self.names,
                     {name: list(pile) for name, pile in self.piles.items()}, self.round, self.base)

    def kind(self, letter: str) -> list[str]:
        """The names of the piles of one kind (``"t"``), in layout order."""
        return [name for name in self.names if name[0] == letter]

    @property
    def stock(self) -> list[int]:
        return self.piles["s"]

    def outcome(self) -> Outcome:
        return tuple(bytes(self.piles[name]) for name in self.names), self.round, self.base

    def take(self, count: int) -> list[int]:
        """Up to ``count`` cards off the top of the stock, face up, first dealt first."""
        dealt: list[int] = []
        while self.stock and len(dealt) < count:
            dealt.append(turned_up(self.stock.pop()))
        return dealt

    def is_won(self) -> bool:
        """Every card on a foundation."""
        return all(not cards for name, cards in self.piles.items() if name[0] != "f")


def stock_dealing(order: list[int]) -> list[int]:
    """A face-down stock (bottom to top) that deals ``order`` first to last."""
    return [turned_down(c) for c in reversed(order)]


# -- foundations ------------------------------------------------------------------

def foundation_plan(slug: str, name: str) -> tuple[int, int, int | None]:
    """(suit, step, first rank) of foundation ``name``; first is None when the base decides."""
    index = int(name[1:]) - 1
    if slug == "duchess":  # f1..f4 by suit C S H D, up from the base rank
        return index, +1, None
    if slug == "kingsdown-eights":  # all eight up from the ace, two per suit
        return index % 4, +1, ACE
    # "up and down": f1..f4 up from the ace, f5..f8 down from the king
    return (index, +1, ACE) if index < 4 else (index - 4, -1, KING)


def foundation_takes(table: Table, name: str, card: int) -> bool:
    """True when foundation ``name`` accepts ``card`` as its next card."""
    wanted_suit, step, first = foundation_plan(table.slug, name)
    pile = table.piles[name]
    if suit(card) != wanted_suit or len(pile) >= 13:
        return False
    if not pile:
        if table.slug == "duchess":
            # Before the base rank is chosen any card of the suit starts it.
            return table.base is None or rank(card) == table.base
        return rank(card) == first
    following = rank(pile[-1]) + step
    if table.slug == "duchess":
        following %= 13  # continuous: the ace follows the king
    return rank(card) == following


# -- tableau builds -----------------------------------------------------------------

def one_lower_other_colour(lower: int, upper: int, *, wrap: bool) -> bool:
    """``upper`` may lie on ``lower`` in a down build of alternating colours."""
    wanted = rank(lower) - 1
    if wanted < 0 and wrap:
        wanted = KING
    return rank(upper) == wanted and is_red(upper) != is_red(lower)


def one_apart_same_suit(lower: int, upper: int) -> bool:
    """``upper`` may lie on ``lower`` in a build up or down by suit (no wrap)."""
    return suit(upper) == suit(lower) and abs(rank(upper) - rank(lower)) == 1


def is_duchess_sequence(cards: list[int]) -> bool:
    """Each card one rank lower (K on A) and of the other colour than the card below it."""
    return all(one_lower_other_colour(below, above, wrap=True)
               for below, above in zip(cards, cards[1:]))


# -- which cards a move lifts -----------------------------------------------------------

def lifted(table: Table, move: Move) -> list[int] | None:
    """The cards ``move`` would take from its source, or None if the source cannot give them."""
    pile = table.piles[move.source]
    if move.position is not None:
        # The '#K' form names a card that is not the top card.
        if move.size != 1 or not 0 <= move.position < len(pile) - 1:
            return None
        return [pile[move.position]]
    if not 1 <= move.size <= len(pile):
        return None
    return pile[-move.size:]


# -- Grand Duchess and Parisienne ------------------------------------------------------------

def grand_duchess_allows(table: Table, move: Move, cards: list[int]) -> bool:
    """Tableau tops and face-up reserve cards go to the foundations; nothing else receives."""
    source, target = move.source[0], move.target[0]
    if target != "f" or len(cards) != 1:
        return False
    if move.position is not None and source != "r":
        return False
    if source == "f" and table.ruleset != "pysolfc":
        return False  # foundation transfer: pysolfc difference (b)
    if source not in "trf":
        return False
    return foundation_takes(table, move.target, cards[0])


def grand_duchess_deal(table: Table) -> bool:
    """Deal six (r1, t1..t4, r2) in rounds 1-3, four in round 4; redeal when the stock is empty."""
    if not table.stock:
        # RULES.md is silent on a won game with redeals left; as in PySolFC it is over.
        if table.round > FACTS[table.slug].redeals or table.is_won():
            return False
        tableau = table.kind("t")
        # t1 onto t2, that onto t3, that onto t4, turned over: the bottom card of t4
        # is dealt first and the top card of t1 last.
        tableau_order = [c for name in reversed(tableau) for c in table.piles[name]]
        r1, r2 = (table.piles[name] for name in table.kind("r"))
        if table.ruleset == "standard":
            order = tableau_order + r1 + r2  # the reserve goes under the stock, r1 first
        else:
            order = r2 + r1 + tableau_order  # pysolfc difference (a): r2, then r1, on top
        table.piles["s"] = stock_dealing(order)
        for name in tableau + table.kind("r"):
            table.piles[name] = []
        table.round += 1
    if table.round <= FACTS[table.slug].redeals:
        for name in ("r1", "t1", "t2", "t3", "t4", "r2"):
            for card in table.take(1):
                table.piles[name].append(turned_down(card) if name[0] == "r" else card)
        if not table.stock:  # this deal emptied the stock: the reserve turns face up
            for name in table.kind("r"):
                table.piles[name] = [turned_up(c) for c in table.piles[name]]
    else:  # round 4: no reserve
        for name in table.kind("t"):
            table.piles[name] += table.take(1)
    return True


# -- Duchess --------------------------------------------------------------------------------

def duchess_space_takes(table: Table, move: Move, cards: list[int]) -> bool:
    """Whether an empty tableau pile accepts these cards from ``move.source``."""
    source = move.source[0]
    reserve_gone = not any(table.piles[name] for name in table.kind("r"))
    if source == "r":
        return True
    if table.ruleset == "standard":
        if source == "w":
            return reserve_gone
        if source == "s":
            return reserve_gone and not table.piles["w"]
        return False  # nothing else may enter a space, not even a tableau card
    # pysolfc difference (c)
    if source == "t":
        return move.size == len(table.piles[move.source]) and is_duchess_sequence(cards)
    if source == "w":
        return reserve_gone
    return False


def duchess_allows(table: Table, move: Move, cards: list[int]) -> bool:
    """Reserve, waste, tableau (and in standard the stock top into a space), after the base rule."""
    source, target = move.source[0], move.target[0]
    if move.position is not None or source == "f":
        return False  # cards never leave a foundation
    if target not in "ft":
        return False  # nothing is built on the reserve, waste or stock
    single = len(cards) == 1
    if source in "rws" and not single:
        return False  # only the top card of the reserve, the waste or the stock moves
    if table.base is None:
        # The first move must be a reserve top card to its foundation; pysolfc
        # difference (a) also lets reserve top cards go to the tableau.
        if source != "r":
            return False
        if target == "f":
            return foundation_takes(table, move.target, cards[0])
        if table.ruleset != "pysolfc":
            return False
    if target == "f":
        return single and source != "s" and foundation_takes(table, move.target, cards[0])
    target_pile = table.piles[move.target]
    if not target_pile:
        return duchess_space_takes(table, move, cards)
    if source == "s":
        return False  # the stock top card only ever fills a space
    if not one_lower_other_colour(target_pile[-1], cards[0], wrap=True):
        return False  # builds down in alternating colours, K on A
    if source in "rw":
        return True
    # source is a tableau pile
    if not is_duchess_sequence(cards):
        return False
    if table.ruleset == "pysolfc":
        return move.size == len(table.piles[move.source])  # difference (b): whole piles only
    return True


def duchess_deal(table: Table) -> bool:
    """One card to the waste; in round 1 an empty stock turns the waste over (no card dealt)."""
    if table.base is None:
        return False  # no deal before the base rank is chosen
    if table.stock:
        table.piles["w"] += table.take(1)
        return True
    if table.round <= FACTS["duchess"].redeals and table.piles["w"]:
        # Turned over: the waste's bottom card becomes the top of the new stock.
        table.piles["s"] = stock_dealing(table.piles["w"])
        table.piles["w"] = []
        table.round += 1
        return True
    return False


# -- Tournament and Napoleon's Flank ----------------------------------------------------------

def tournament_allows(table: Table, move: Move, cards: list[int]) -> bool:
    """Tableau tops, cell cards and foundation tops to foundations; tableau tops to empty cells."""
    source, target = move.source[0], move.target[0]
    if move.position is not None or len(cards) != 1 or source not in "trf":
        return False
    if target == "f":
        return foundation_takes(table, move.target, cards[0])
    if target == "r":
        if table.piles[move.target]:
            return False
        # pysolfc difference (b): a cell also takes a foundation top or another cell's card.
        return source == "t" or table.ruleset == "pysolfc"
    return False  # nothing is built on the tableau


def tournament_deal(table: Table) -> bool:
    """Four cards onto each column; with the stock empty, redeal (needs a card in the tableau)."""
    tableau = table.kind("t")
    if not table.stock:
        if table.round > FACTS[table.slug].redeals or not any(table.piles[n] for n in tableau):
            return False
        # t6 onto t5 ... onto t1, turned over: the bottom card of t1 is dealt first.
        order = [c for name in tableau for c in table.piles[name]]
        table.piles["s"] = stock_dealing(order)
        for name in tableau:
            table.piles[name] = []
        table.round += 1
    for name in tableau:
        table.piles[name] += table.take(4)
    return True


# -- Cicely -------------------------------------------------------------------------------------

def cicely_allows(table: Table, move: Move, cards: list[int]) -> bool:
    """Tableau tops, cell cards and foundation tops to a foundation, a tableau pile or an empty cell."""
    source, target = move.source[0], move.target[0]
    if move.position is not None or len(cards) != 1 or source not in "trf":
        return False
    card = cards[0]
    target_pile = table.piles[move.target]
    if target == "f":
        return foundation_takes(table, move.target, card)
    if target == "t":
        # RULES.md is silent on wrapping; as in PySolFC an ace and a king do not touch.
        return not target_pile or one_apart_same_suit(target_pile[-1], card)
    if target == "r":
        return not target_pile
    return False


def cicely_deal(table: Table) -> bool:
    """Four round-robin passes over t1..t8 while the stock has cards."""
    if not table.stock:
        return False
    for _ in range(4):
        for name in table.kind("t"):
            table.piles[name] += table.take(1)
    return True


# -- Kingsdown Eights ---------------------------------------------------------------------------

def kingsdown_allows(table: Table, move: Move, cards: list[int]) -> bool:
    """Reserve and tableau tops to a foundation or the tableau; foundation tops to the tableau
    or the twin foundation."""
    source, target = move.source[0], move.target[0]
    if move.position is not None or len(cards) != 1 or source not in "trf":
        return False
    card = cards[0]
    target_pile = table.piles[move.target]
    if target == "f":
        return foundation_takes(table, move.target, card)
    if target == "t":
        # RULES.md is silent on wrapping; as in PySolFC no king goes on an ace.
        return not target_pile or one_lower_other_colour(target_pile[-1], card, wrap=False)
    return False  # nothing is built on the reserve


def kingsdown_deal(table: Table) -> bool:
    """Four cards onto each reserve pile in turn while the stock has cards."""
    if not table.stock:
        return False
    for name in table.kind("r"):
        table.piles[name] += table.take(4)
    return True


# -- the games --------------------------------------------------------------------------------

Allows = Callable[[Table, Move, list[int]], bool]
Deal = Callable[[Table], bool]

RULES: dict[str, tuple[Allows, Deal]] = {
    "grand-duchess": (grand_duchess_allows, grand_duchess_deal),
    "parisienne": (grand_duchess_allows, grand_duchess_deal),
    "duchess": (duchess_allows, duchess_deal),
    "tournament": (tournament_allows, tournament_deal),
    "napoleons-flank": (tournament_allows, tournament_deal),
    "cicely": (cicely_allows, cicely_deal),
    "kingsdown-eights": (kingsdown_allows, kingsdown_deal),
}


def shapes(table: Table, source: str) -> list[tuple[int, int | None]]:
    """Every lift one could name from ``source``: each size (top cards), then each '#K'
    position of a reserve pile, as (size, position)."""
    count = len(table.piles[source])
    found: list[tuple[int, int | None]] = [(size, None) for size in range(1, count + 1)]
    if source[0] == "r":
        found += [(1, position) for position in range(count)]
    return found


def candidate_moves(table: Table) -> Iterator[Move]:
    """Every move one could name: each source x target x size, each '#K' of a reserve pile, and deal."""
    for source in table.names:
        lifts = shapes(table, source)
        for target in table.names:
            if target != source:
                for size, position in lifts:
                    yield Move(source, target, size, position)
    yield DEAL


def playable(table: Table, source: str, cards: list[int] | None) -> list[int] | None:
    """``cards`` lifted from ``source`` if they may be played at all, whatever the target;
    else None."""
    if cards is None:
        return None
    if source == "s":  # only standard Duchess plays the stock's top card (into a space)
        return cards if table.slug == "duchess" and table.ruleset == "standard" else None
    # A face-down card cannot be played; the stock's top card is turned as it moves.
    return None if any(is_face_down(c) for c in cards) else cards


def allows(table: Table, move: Move) -> bool:
    """The reference legality of one move in ``table``."""
    allows_card_move, deal = RULES[table.slug]
    if move == DEAL:
        return deal(table.copy())
    if move.source == move.target or move.source not in table.piles or move.target not in table.piles:
        return False
    cards = playable(table, move.source, lifted(table, move))
    return cards is not None and allows_card_move(table, move, cards)


def judged_moves(table: Table) -> tuple[set[Move], list[Move]]:
    """Every candidate move (:func:`candidate_moves`, in its order), split into those
    :func:`allows` allows and the rest; each source's lifts are read once, not once per target."""
    allows_card_move, _ = RULES[table.slug]
    legal: set[Move] = set()
    illegal: list[Move] = []
    for source in table.names:
        lifts = [(size, position, playable(table, source, lifted(table, Move(source, source, size, position))))
                 for size, position in shapes(table, source)]
        for target in (name for name in table.names if name != source):
            for size, position, cards in lifts:
                move = Move(source, target, size, position)
                if cards is not None and allows_card_move(table, move, cards):
                    legal.add(move)
                else:
                    illegal.append(move)
    (legal.add if allows(table, DEAL) else illegal.append)(DEAL)
    return legal, illegal


def legal_moves(state: State) -> set[Move]:
    """Every legal move of ``state``, found by trying every candidate."""
    return judged_moves(Table.of(state))[0]


def outcome_of(state: State) -> Outcome:
    """The piles, round and base of an engine state, in the reference's terms."""
    return tuple(state.piles), state.round, state.base


def after(state: State, move: Move) -> Outcome:
    """What playing the legal ``move`` in ``state`` must give."""
    table = Table.of(state)
    if move == DEAL:
        dealt = RULES[table.slug][1](table)
        assert dealt, f"reference: deal is not legal in {state}"
        return table.outcome()
    assert allows(table, move), f"reference: {move} is not legal"
    pile = table.piles[move.source]
    if move.position is not None:
        cards = [pile.pop(move.position)]
    else:
        cards = pile[-move.size:]
        del pile[-move.size:]
    if move.source == "s":
        cards = [turned_up(c) for c in cards]
    table.piles[move.target] += cards
    if table.slug == "duchess" and table.base is None and move.target[0] == "f":
        table.base = rank(cards[0])  # the first card to a foundation sets the base rank
    if table.slug in ("tournament", "napoleons-flank") and move.source[0] == "t" and not pile:
        pile += table.take(4)  # an emptied column is refilled at once
    return table.outcome()


def is_won(state: State) -> bool:
    return Table.of(state).is_won()


# -- what a player may see ------------------------------------------------------------------------

def is_squared(slug: str, name: str) -> bool:
    """Squared piles show only their top card (foundations are squared but show their build)."""
    if name[0] in "sw":
        # The stock lies face down. RULES.md is silent on the Duchess waste; as in
        # PySolFC it is a squared pile showing only its top card.
        return True
    return name[0] == "t" and FACTS[slug].squared_tableau


def is_hidden(state: State, name: str, position: int) -> bool:
    """A card the player may not see: face down, or under the top of a squared non-foundation pile."""
    pile = state.piles[[spec.name for spec in state.game.piles].index(name)]
    if is_face_down(pile[position]):
        return True
    return is_squared(state.game.slug, name) and position != len(pile) - 1


# -- openings -------------------------------------------------------------------------------------

def shuffled_pack(slug: str, ruleset: str, number: int) -> list[int]:
    """The stock before the opening deal: creation indices, last on top, after the game's adjustment."""
    packs = FACTS[slug].packs
    pack, generator = shuffle(number, packs)
    if slug == "parisienne":
        # The first-pack aces and kings start the foundations; the rest keep their order.
        pack = [i for i in pack if not (i < 52 and i % 13 in (ACE, KING))]
    if slug in ("tournament", "napoleons-flank"):
        def cells_lack_ace_and_king() -> bool:
            return not any(i % 13 in (ACE, KING) for i in pack[-8:])
        if ruleset == "standard":
            while cells_lack_ace_and_king():
                fisher_yates(pack, generator)
        elif cells_lack_ace_and_king():
            nearest_bottom = next(k for k, i in enumerate(pack) if i % 13 in (ACE, KING))
            pack.append(pack.pop(nearest_bottom))
    return pack


def opening(slug: str, ruleset: str, names: list[str], number: int) -> Outcome:
    """The opening layout of deal ``number`` for piles ``names``, dealt as the rules describe."""
    pack = shuffled_pack(slug, ruleset, number)
    table = Table(slug, ruleset, names, {name: [] for name in names}, 1, None)
    table.piles["s"] = [turned_down(i % 52) for i in pack]
    if slug in ("grand-duchess", "parisienne"):
        if slug == "parisienne":
            for name in table.kind("f"):
                wanted_suit, _, first = foundation_plan(slug, name)
                assert first is not None
                table.piles[name] = [wanted_suit * 13 + first]
        grand_duchess_deal(table)
    elif slug == "duchess":
        for _ in range(3):
            for name in table.kind("r"):
                table.piles[name] += table.take(1)
        for name in table.kind("t"):
            table.piles[name] += table.take(1)
    elif slug in ("tournament", "napoleons-flank"):
        for name in table.kind("r"):
            table.piles[name] += table.take(1)
        for name in table.kind("t"):
            table.piles[name] += table.take(4)  # packets, not round-robin
    elif slug == "cicely":
        for name in table.kind("r"):
            table.piles[name] += table.take(1)
        cicely_deal(table)
    elif slug == "kingsdown-eights":
        for name in table.kind("t"):
            table.piles[name] += table.take(1)
        kingsdown_deal(table)
    return table.outcome()


# -- layout invariants ----------------------------------------------------------------------------

def layout_problems(state: State) -> list[str]:
    """What is wrong with a reachable state's layout, by the rules (empty when all is well)."""
    table = Table.of(state)
    facts = FACTS[table.slug]
    problems = []
    if not 1 <= table.round <= facts.redeals + 1:
        problems.append(f"round {table.round} outside 1..{facts.redeals + 1}")
    for name in table.kind("f"):
        building = Table(table.slug, table.ruleset, table.names, {name: []}, table.round, table.base)
        for card in table.piles[name]:
            if is_face_down(card) or not foundation_takes(building, name, card):
                problems.append(f"{name} is not a build: {[code(c) for c in table.piles[name]]}")
                break
            building.piles[name].append(card)
    if not all(is_face_down(c) for c in table.stock):
        problems.append("a stock card lies face up")
    for name in table.names:
        if name[0] in "ftw" and any(is_face_down(c) for c in table.piles[name]):
            problems.append(f"{name} holds a face-down card")
        if name[0] == "r" and facts.cells and len(table.piles[name]) > 1:
            problems.append(f"cell {name} holds {len(table.piles[name])} cards")
    if table.slug in ("grand-duchess", "parisienne"):
        reserve = [c for name in table.kind("r") for c in table.piles[name]]
        if table.round > facts.redeals and reserve:
            problems.append("the reserve holds cards in round 4")
        if any(is_face_down(c) != bool(table.stock) for c in reserve):
            problems.append("the reserve is not face down exactly while the stock has cards")
    elif any(is_face_down(c) for name in table.kind("r") for c in table.piles[name]):
        problems.append("a reserve card lies face down")
    if table.slug == "duchess":
        started = any(table.piles[name] for name in table.kind("f"))
        if started != (table.base is not None):
            problems.append(f"base {table.base} but foundations started: {started}")
    elif table.base is not None:
        problems.append(f"{table.slug} has no base rank, found {table.base}")
    return problems

