"""Playing in a terminal: the layout drawing, safe automatic moves and the play loop."""

from kibitz.tui.autoplay import SAFE_RULE, autoplay, is_safe, safe_move
from kibitz.tui.drawing import colour_wanted, draw
from kibitz.tui.session import COMMANDS_HELP, PlaySession, ScriptedInput, choose_game

__all__ = ["COMMANDS_HELP", "SAFE_RULE", "PlaySession", "ScriptedInput", "autoplay",
           "choose_game", "colour_wanted", "draw", "is_safe", "safe_move"]
