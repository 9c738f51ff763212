"""Playing in a terminal: the layout drawing and the play loop."""

from kibitz.tui.drawing import colour_wanted, draw
from kibitz.tui.session import COMMANDS_HELP, PlaySession, ScriptedInput, choose_game

__all__ = ["COMMANDS_HELP", "PlaySession", "ScriptedInput", "choose_game", "colour_wanted", "draw"]
