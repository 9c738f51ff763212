"""kibitz: exact rules, PySolFC-compatible deals and a solver for seven classic patience games.

>>> import kibitz
>>> game = kibitz.game("duchess")            # any name or alias, any case
>>> state = game.deal(1)                     # PySolFC's deal #1
>>> move = state.legal_moves[0]
>>> state = state.apply(move)                # a new state; the old one is unchanged
"""

from kibitz import compiled

compiled.install()  # the compiled solver modules, when built and fresh (see kibitz.compiled)

from kibitz.cards import format_card, parse_card
from kibitz.errors import (AmbiguousMoveError, DealNumberError, IllegalMoveError,
                           InvalidMoveError, KibitzError, NotationError, RecordError,
                           UnknownGameError)
from kibitz.moves import DEAL, Move, parse_move
from kibitz.registry import find, game, games
from kibitz.rules import RULESETS, Game, GameInfo
from kibitz.state import State
from kibitz import notation  # noqa: F401,E402  (a state pickles as its notation, which it registers)

__version__ = "0.2.0"

__all__ = [
    "DEAL", "RULESETS", "AmbiguousMoveError", "DealNumberError", "Game", "GameInfo",
    "IllegalMoveError", "InvalidMoveError", "KibitzError", "Move", "NotationError",
    "RecordError", "State", "UnknownGameError", "find", "format_card", "game", "games",
    "parse_card", "parse_move",
]
