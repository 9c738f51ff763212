"""Text forms of states: the transcript layout object and a one-line state form.

The one-line form names the game and ruleset, the round and base rank, then
every pile as ``name=cards`` with cards comma-separated bottom to top, upper case
face up and lower case face down::

    grand-duchess pysolfc round=1 base=- s=ac,6s,...,kc f1= ... t1=5H ... r1=3d r2=5h

``parse_state(format_state(s)) == s`` for every state.
"""

from __future__ import annotations

import copyreg
from collections import Counter
from typing import Any

from kibitz.cards import IDENTITY, RANKS, format_card, parse_card
from kibitz.errors import KibitzError, NotationError
from kibitz.piles import PileKind
from kibitz.registry import game as find_game
from kibitz.rules import Game
from kibitz.state import State

HIDDEN = "??"
"""How a view writes a card the player may not see."""


def format_pile(pile: bytes, separator: str = " ") -> str:
    """Cards bottom to top, lower case when face down."""
    return separator.join(format_card(c) for c in pile)


def parse_pile(text: str, separator: str | None = None) -> bytes:
    """Inverse of :func:`format_pile`."""
    return bytes(parse_card(code) for code in text.split(separator) if code)


def _base_text(base: int | None) -> str | None:
    return None if base is None else RANKS[base]


def _parse_base(text: str | None, where: str) -> int | None:
    if text is None or text == "-":
        return None
    if len(text) != 1 or text.upper() not in RANKS:
        raise NotationError(f"{where}: base {text!r} is not a rank ({RANKS} or -)")
    return RANKS.index(text.upper())


# -- the transcript layout object ---------------------------------------------

def layout_of(state: State) -> dict[str, Any]:
    """The layout object of the PySolFC transcript format."""
    game = state.game
    piles = state.piles
    return {
        "stock": format_pile(piles[game.stock]),
        "waste": format_pile(piles[game.waste]) if game.waste is not None else "",
        "foundations": [format_pile(piles[i]) for i in game.foundations],
        "tableau": [format_pile(piles[i]) for i in game.tableau],
        "reserve": [format_pile(piles[i]) for i in game.reserve],
        "round": state.round,
        "base": _base_text(state.base),
    }


def state_from_layout(game: Game, layout: dict[str, Any]) -> State:
    """A state from a transcript layout object (checked like :func:`parse_state`)."""
    try:
        piles = [b""] * len(game.piles)
        piles[game.stock] = parse_pile(layout["stock"])
        if game.waste is not None:
            piles[game.waste] = parse_pile(layout["waste"])
        elif layout.get("waste"):
            raise NotationError(f"{game.name} has no waste")
        for group, key in ((game.foundations, "foundations"), (game.tableau, "tableau"),
                           (game.reserve, "reserve")):
            texts = layout[key]
            if len(texts) != len(group):
                raise NotationError(f"layout {key}: {len(texts)} piles, {game.name} has {len(group)}")
            for i, text in zip(group, texts):
                piles[i] = parse_pile(text)
        round = layout["round"]
        if isinstance(round, bool) or not isinstance(round, int):
            raise NotationError(f"layout: round {round!r} is not a whole number")
        state = State(game, tuple(piles), round, _parse_base(layout.get("base"), "layout"))
    except KeyError as missing:
        raise NotationError(f"layout: missing {missing}") from None
    check_state(state)
    return state


# -- the one-line form ----------------------------------------------------------

def format_state(state: State) -> str:
    """The one-line text of a state (see the module docstring); ``str(state)`` gives it too."""
    return str(state)


def parse_state(text: str) -> State:
    """Parse the one-line form; raises :class:`NotationError` saying what is wrong."""
    tokens = text.split()
    if len(tokens) < 4:
        raise NotationError("state: expected 'GAME RULESET round=N base=B pile=cards ...'")
    try:
        game = find_game(tokens[0], tokens[1])
    except KibitzError as error:
        raise NotationError(f"state: {error}") from None
    fields: dict[str, str] = {}
    for token in tokens[2:]:
        name, equals, value = token.partition("=")
        if not equals:
            raise NotationError(f"state: {token!r} is not name=value")
        if name in fields:
            raise NotationError(f"state: {name} given twice")
        fields[name] = value
    expected = ["round", "base", *game.pile_names()]
    unknown = [name for name in fields if name not in expected]
    missing = [name for name in expected if name not in fields]
    if unknown or missing:
        raise NotationError(f"state: {game.slug}" + (f"; unknown fields {unknown}" if unknown else "")
                            + (f"; missing fields {missing}" if missing else ""))
    if not (fields["round"].isascii() and fields["round"].isdigit()):
        raise NotationError(f"state: round={fields['round']!r} is not a number")
    piles = []
    for name in game.pile_names():
        try:
            piles.append(parse_pile(fields[name], ","))
        except NotationError as error:
            raise NotationError(f"state: pile {name}: {error}") from None
    state = State(game, tuple(piles), int(fields["round"]), _parse_base(fields["base"], "state"))
    check_state(state)
    return state


def check_state(state: State) -> None:
    """Raise :class:`NotationError` unless the state holds exactly the game's cards and a valid round."""
    game = state.game
    counts = Counter(c & IDENTITY for pile in state.piles for c in pile)
    wrong = sorted(c for c in range(52) if counts[c] != game.info.packs)
    if wrong:
        detail = ", ".join(f"{format_card(c)} x{counts[c]}" for c in wrong[:6])
        raise NotationError(f"state: each card must appear {game.info.packs} time(s); found {detail}"
                            + (" ..." if len(wrong) > 6 else ""))
    if not 1 <= state.round <= game.info.redeals + 1:
        raise NotationError(f"state: round {state.round} is outside 1..{game.info.redeals + 1}")
    if state.base is not None and not any(
            spec.foundation and spec.foundation.first is None for spec in game.piles):
        raise NotationError(f"state: {game.name} has no base rank")
    for spec, pile in zip(game.piles, state.piles):
        if spec.kind is PileKind.FOUNDATION and len(pile) > 13:
            raise NotationError(f"state: {spec.name} holds {len(pile)} cards (at most 13)")
        if spec.cell and len(pile) > 1:
            raise NotationError(f"state: cell {spec.name} holds {len(pile)} cards (at most 1)")


def _pickled(state: State) -> tuple[Any, ...]:
    """How a state pickles: as its one-line form, which :func:`parse_state` reads back."""
    return (parse_state, (format_state(state),))


copyreg.pickle(State, _pickled)
