"""The play loop: a game in a terminal, driven by lines of input.

:class:`PlaySession` reads commands through a *line reader* (a function that
takes a prompt and returns a line, raising :class:`EOFError` at the end, like
:func:`input`) and writes everything to an output stream, so the same loop runs
in a terminal and in tests (:class:`ScriptedInput`).
"""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, TextIO

from kibitz import records
from kibitz.cards import format_card, parse_card
from kibitz.deals import parse_deal_number, random_deal_number
from kibitz.difficulty import LEVELS, level_named, pick
from kibitz.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, KibitzError, quoted
from kibitz.history import History
from kibitz.moves import Move, parse_move
from kibitz.printable import printable
from kibitz.registry import find, games
from kibitz.rules import GameInfo
from kibitz.state import State
from kibitz.autoplay import SAFE_RULE, autoplay, finishing_moves, moving_card
from kibitz.tui.assists import Assists, Finished
from kibitz.tui.drawing import LEGEND, describe_move, draw, plural

if TYPE_CHECKING:
    from kibitz.analysis import Review

LineReader = Callable[[str], str]
"""Returns the next line typed after showing a prompt; raises :class:`EOFError` at the end."""

PROMPT = "> "
LINE_WIDTH = 78
MAX_LINE = 1000
"""The longest line of input acted on, in characters (a file name included)."""
MAX_STEPS = 10**6
"""The most moves one ``undo N`` or ``redo N`` takes."""

COMMANDS_HELP = """\
Type a move, or a command:
  t3>f5           move the top card of t3 to foundation f5
  t3>f, t3>t      the same, to the one foundation (tableau pile) that takes it
  t3              the one legal move of t3's top card
  t2>t4/3         move the top three cards of t2 onto t4 as one unit (Duchess)
  r1#2>f3         move the card at index 2 of r1 (counted from the bottom, from 0)
  6S, 6S>f, 6S>f2 move a card you can see by name: its one legal move, or the
                  one to a foundation (to f2); of two copies in one pile, the
                  one nearer the top moves
  deal, d         deal from the stock, or redeal when it is empty and redeals remain
  moves, m        list the legal moves
  auto, a         play the cards that can safely go to the foundations (help auto)
  finish          play the end out to the foundations, once every card is
                  seen and the foundations alone can take them all
  hint            the next move of a strong player who sees only what you see
                  (it tries its ideas on deals that fit what you see)
  chance          the chance to win from here: the share of deals that fit
                  what you see which a player knowing every card could win
                  (an upper bound of your chance)
  analysis        ask the solver, which sees every card, face down or not
                  (also: hint --peek); the game then counts as assisted
  review          the review of the moves played: the chance to win before
                  each move, the moves that gave it away (with the better
                  move), accuracy and luck; once the game has ended, also
                  the move after which the deal could no longer be won
                  (the solver, seeing every card); review --peek asks
                  that during a game (it then counts as assisted)
  goto N          show the table after move N, with the review's word on
                  the move played there
  stats           this session's games: won, accuracy, blunders, games
                  you could have won
  undo [N], u     take back the last move (or N moves)
  redo [N]        play undone moves again
  restart         back to the opening deal (redo replays the moves)
  new [N]         a new deal of this game: number N, or a random one (whose
                  number is shown when the game ends)
  new easy|medium|hard|any [winnable]
                  a random rated deal of that level (rated by how often a
                  strong player wins it); winnable: only deals the solver
                  proved can be won; its number is shown when the game ends
  save FILE       save the game as a record file
  load FILE       resume a saved record (it is checked move by move)
  show            draw the layout again
  help, ?         this text (help auto: what auto plays)
  quit, q         leave the game (end of input and Ctrl-C leave too)
Piles: s stock, w waste, f1-f8 foundations, t1-t8 tableau, r1-r8 reserve."""


class ScriptedInput:
    """A line reader that returns the given lines in turn, then raises :class:`EOFError`.

    With an ``echo`` stream, each prompt and line is written to it, as a terminal shows them.
    """

    def __init__(self, lines: Iterable[str], echo: TextIO | None = None) -> None:
        self._lines: Iterator[str] = iter(lines)
        self.echo = echo

    def __call__(self, prompt: str) -> str:
        line = next(self._lines, None)
        if line is None:
            raise EOFError
        if self.echo is not None:
            self.echo.write(prompt + printable(line) + "\n")
        return line


def replay_command(history: History) -> str:
    """The shell command that starts this game's deal again."""
    game = history.game
    command = f"kibitz play {game.slug} --deal {history.deal_number}"
    return command + (f" --ruleset {game.ruleset}" if game.ruleset != "standard" else "")


def wrap_items(items: list[str], indent: str = "  ", width: int = LINE_WIDTH) -> list[str]:
    """Items laid out in lines of at most ``width`` characters, never split."""
    lines: list[str] = []
    line = ""
    for item in items:
        candidate = f"{line}   {item}" if line else indent + item
        if line and len(candidate) > width:
            lines.append(line)
            candidate = indent + item
        line = candidate
    if line:
        lines.append(line)
    return lines


CARD_MOVE = re.compile(r"([a2-9tjqk][cshd])(?:>([ftr][1-8]?))?")


def card_move(state: State, text: str) -> Move | None:
    """The legal move of a card named by the player: ``6S`` or ``6S>f`` or ``6S>f2``.

    Returns ``None`` when ``text`` does not name a card. Only cards the player
    can see are considered (never the hidden top of the stock). When copies of the card in
    one pile could make the same move, the one nearest the top moves. Raises
    :class:`IllegalMoveError` when no legal move fits and :class:`AmbiguousMoveError`
    when several different ones do.
    """
    match = CARD_MOVE.fullmatch(text.strip().lower())
    if match is None:
        return None
    card = parse_card(match.group(1).upper())
    target = match.group(2)
    view = state.view()
    candidates = [m for m in state.legal_moves if not m.is_deal and m.size == 1
                  and moving_card(state, m) == card
                  and view.pile(m.source)[-1 if m.position is None else m.position] is not None
                  and (target is None or m.target == target or m.target[0] == target)]
    name = format_card(card)
    if not candidates:
        where = f" to {target}" if target else ""
        raise IllegalMoveError(f"{text.strip()}: {name} cannot move{where} now "
                               "(type moves for the legal moves)")
    if len({(m.source, m.target) for m in candidates}) > 1:
        options = ", ".join(str(m) for m in candidates)
        raise AmbiguousMoveError(f"{text.strip()}: {name} can make more than one move ({options}); say which")
    return max(candidates, key=lambda m: len(state.pile(m.source)) if m.position is None else m.position)


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


class PlaySession(Assists):
    """One player at the table: a game in progress and the commands that act on it.

    ``handle`` takes one line of input and returns ``False`` when the player leaves;
    ``run`` reads lines until then. All output goes to ``output``.
    """

    def __init__(self, history: History, output: TextIO, *, colour: bool = False, chosen: bool = True) -> None:
        self.history = history
        self.output = output
        self.colour = colour
        self.chosen = chosen
        """Whether the deal was chosen by number; a random deal's number is shown when the game ends."""
        self.ended = False
        """Whether the game has ended (won or no move left) at some point, or was given up."""
        self.assisted = False
        """Whether the solver, which sees every card, was asked about this game."""
        self.seed_text = secrets.token_hex(8)
        """What the seeds of this game's searches are made from, with the move count."""
        self.finished: list[Finished] = []
        """The games of this session that ended, for ``stats``."""
        self.counted = False
        """Whether the current game is in :attr:`finished`."""
        self.reviewed: Review | None = None
        """The last review of the current game."""
        self._commands: dict[str, Callable[[str], bool]] = {
            "moves": self.list_moves, "m": self.list_moves,
            "auto": self.auto, "a": self.auto,
            "finish": self.finish,
            "hint": self.hint,
            "chance": self.chance,
            "analysis": self.analysis,
            "review": self.review,
            "goto": self.goto,
            "stats": self.stats,
            "undo": self.undo, "u": self.undo,
            "redo": self.redo,
            "restart": self.restart,
            "new": self.new,
            "save": self.save,
            "load": self.load,
            "show": self.show_command,
            "help": self.help, "?": self.help, "h": self.help,
            "quit": self.quit, "q": self.quit, "exit": self.quit,
        }

    @property
    def is_deal_shown(self) -> bool:
        """Whether the deal number may be shown: chosen by number, or the game has ended."""
        return self.chosen or self.ended or self.state.is_over()

    def _start(self, history: History, chosen: bool) -> None:
        """Play ``history`` from now on, a game of its own (the one left is given up, and a
        random deal's number is shown)."""
        if not self.is_deal_shown and self.history.deal_number is not None:
            self.say(f"The game left was deal #{self.history.deal_number}.")
        self.give_up()
        self.history = history
        self.chosen = chosen
        self.ended = self.assisted = self.counted = False
        self.reviewed = None
        self.seed_text = secrets.token_hex(8)

    def say(self, text: str = "") -> None:
        """Write one or more lines, control characters (from typed text, a file name or a record)
        shown as visible escapes; only :meth:`show` writes the drawing's colours."""
        self.output.write(printable(text, keep_newlines=True) + "\n")

    # -- showing the game ------------------------------------------------------

    def introduce(self) -> None:
        """Name the game and deal (and how to replay it), then draw the layout."""
        history = self.history
        game = history.game
        if history.deal_number is not None and self.is_deal_shown:
            self.say(f"{game.name}, deal #{history.deal_number} ({game.ruleset} rules). "
                     f"To play this deal again: {replay_command(history)}")
        elif history.deal_number is not None:
            self.say(f"{game.name}, a random deal ({game.ruleset} rules): its number is shown when the game ends.")
        else:
            self.say(f"{game.name} ({game.ruleset} rules)")
        self.say(LEGEND)
        self.say("Type a move like t1>f1, 'moves' to list the legal moves, 'help' for commands.")
        self.say()
        self.show()

    def give_up(self) -> None:
        """Count the current game as given up (lost) if it was started and has not been counted."""
        if self.history.move_count and not self.counted:
            self.ended = self.counted = True
            self.record_end(self.history.game.name)

    def show(self) -> None:
        """Draw the layout, then say whether the game is won or over."""
        self.ended = self.ended or self.state.is_over()
        if self.state.is_over() and not self.counted:
            self.counted = True
            self.record_end(self.history.game.name)
        deal_number = self.history.deal_number if self.is_deal_shown else None
        self.output.write(draw(self.state, colour=self.colour, deal_number=deal_number,
                               moves_played=self.history.move_count) + "\n")
        status = self.status()
        if status:
            self.say()
            self.say(status)

    def status(self) -> str | None:
        """The announcement of a won or lost game, or ``None`` while play goes on."""
        state = self.state
        moves = self.history.move_count
        number = self.history.deal_number
        assisted = " (assisted: the solver, which sees every card, was asked)" if self.assisted else ""
        if state.is_won():
            deal = f" deal #{number}" if number is not None else ""
            return f"You won{deal} in {plural(moves, 'move')}{assisted}! Type review for how you played."
        if state.is_over():
            deal = f" (deal #{number})" if number is not None and not self.chosen else ""
            return (f"No moves left: game over{deal}{assisted}. Type review to see where the game was lost, "
                    "undo to take moves back, restart, or new for another deal.")
        return None

    # -- the loop --------------------------------------------------------------

    def run(self, read: LineReader) -> int:
        """Introduce the game and handle lines until the player leaves.

        Returns 0 after ``quit`` or the end of input, 130 after Ctrl-C.
        """
        self.introduce()
        while True:
            try:
                line = read(PROMPT)
            except EOFError:
                self.say()
                self.goodbye()
                return 0
            except KeyboardInterrupt:
                self.say()
                self.goodbye()
                return 130
            if not self.handle(line):
                return 0

    def handle(self, line: str) -> bool:
        """Act on one line of input; ``False`` when the player leaves."""
        text = line.strip()
        if not text:
            return True
        if len(text) > MAX_LINE:
            self.say(f"That line is longer than any command, move or file name here "
                     f"(at most {MAX_LINE:,} characters).")
            return True
        word, _, argument = text.partition(" ")
        command = self._commands.get(word.lower())
        if command is not None:
            return command(argument.strip())
        return self.play(text)

    def goodbye(self) -> None:
        """Leave: a random deal's number is shown now (the game is given up)."""
        if self.history.deal_number is not None:
            self.ended = True
            self.say(f"Goodbye. To play this deal again: {replay_command(self.history)}")
        else:
            self.say("Goodbye.")

    # -- commands (each returns False to leave) ------------------------------

    def play(self, text: str) -> bool:
        """Play a move typed in notation, a shorthand, or by card (``6S>f``)."""
        try:
            try:
                move = self.state.parse_move(text)
            except InvalidMoveError as error:
                by_card = card_move(self.state, text)
                if by_card is None:
                    raise InvalidMoveError(f"{error}; or a card (6S, 6S>f2); "
                                           "type help for the commands") from None
                move = by_card
        except KibitzError as error:
            self.say(str(error))
            return True
        self.history.play(move)
        self.show()
        return True

    def list_moves(self, argument: str) -> bool:
        """List the legal moves, each with the card it moves."""
        moves = self.state.legal_moves
        if not moves:
            self.say("No legal moves.")
            return True
        self.say(f"Legal moves ({len(moves)}):")
        for line in wrap_items([describe_move(self.state, move) for move in moves]):
            self.say(line)
        return True

    def auto(self, argument: str) -> bool:
        """Play every safe move to the foundations."""
        played = autoplay(self.history)
        if not played:
            self.say("auto: no card can safely go to the foundations now (help auto says when one can).")
            return True
        self.say(f"auto played {plural(len(played), 'move')}: "
                 + ", ".join(str(move) for move in played))
        self.show()
        return True

    def finish(self, argument: str) -> bool:
        """Play the rest of the game to the foundations, when its end is certain."""
        moves = finishing_moves(self.state)
        if not moves:
            self.say("finish: the end is not certain yet (a card is hidden, or the foundations alone "
                     "cannot take every card now)." if moves is None else "finish: the game is already won.")
            return True
        for move in moves:
            self.history.play(move)
        self.say(f"finish played {plural(len(moves), 'move')}.")
        self.show()
        return True

    def _count(self, argument: str, command: str) -> int | None:
        """The number of moves typed after ``undo`` or ``redo`` (1 if none), from 1 to
        :data:`MAX_STEPS`; ``None``, having said why, for anything else."""
        if not argument:
            return 1
        digits = argument.lstrip("0")  # int() refuses thousands of digits, leading zeros too
        if (argument.isascii() and argument.isdigit() and len(digits) <= len(str(MAX_STEPS))
                and 0 < int(digits or "0") <= MAX_STEPS):
            return int(digits)
        self.say(f"{command}: {quoted(argument)} is not a number of moves from 1 to {MAX_STEPS:,} (e.g. {command} 3)")
        return None

    def undo(self, argument: str) -> bool:
        """Take back one move, or N."""
        return self._step(argument, "undo")

    def redo(self, argument: str) -> bool:
        """Play again one undone move, or N."""
        return self._step(argument, "redo")

    def _step(self, argument: str, command: str) -> bool:
        count = self._count(argument, command)
        if count is None:
            return True
        step = self.history.undo if command == "undo" else self.history.redo
        done = 0
        try:
            for _ in range(count):
                step()
                done += 1
        except KibitzError as error:
            if done == 0:
                self.say(str(error))
                return True
            self.say(f"{command}: only {plural(done, 'move')} to {command}")
        self.show()
        return True

    def restart(self, argument: str) -> bool:
        """Back to the opening; the moves stay available to redo."""
        self.history.restart()
        self.say("Back to the opening deal; redo replays the moves.")
        self.show()
        return True

    def new(self, argument: str) -> bool:
        """A new deal of the same game and ruleset: number N, a random deal, or a random rated
        deal of a level (``new easy``, ``new hard winnable``, ``new winnable``)."""
        words = argument.lower().split()
        game = self.history.game
        try:
            if words and all(word in (*LEVELS, "any", "winnable") for word in words):
                levels = [word for word in words if word != "winnable"]
                if len(levels) > 1:
                    raise KibitzError("name one level: easy, medium, hard or any")
                number = pick(game.slug, game.ruleset, level_named(levels[0] if levels else None),
                              "winnable" in words).deal
                argument = ""
            else:
                number = parse_deal_number(argument) if argument else random_deal_number()
        except KibitzError as error:
            self.say(str(error))
            return True
        self._start(History.new(game, number), chosen=bool(argument))
        self.introduce()
        return True

    def _file(self, argument: str, command: str) -> Path | None:
        """The file the player named after ``command`` (quotes dropped, ``~`` expanded), or
        ``None``, having said why, when no file can have that name."""
        name = _unquote(argument)
        if not name.strip():
            self.say(f"{command}: give a file name, e.g. {command} mygame.kibitz")
            return None
        if "\0" in name:
            self.say(f"{command}: {quoted(name)}: a file name cannot hold a NUL character")
            return None
        return Path(os.path.expanduser(name))  # an unknown ~user stays as typed

    def save(self, argument: str) -> bool:
        """Save the game so far as a record file."""
        path = self._file(argument, "save")
        if path is None:
            return True
        try:
            records.save(self.history, path)
        except KibitzError as error:
            self.say(f"save: {error}")
            return True
        except OSError as error:
            self.say(f"save: cannot write {path} ({error.strerror or error})")
            return True
        moves = self.history.move_count
        self.say(f"Saved {plural(moves, 'move')} to {path}; "
                 f"resume with: load {path} (or kibitz play --load {path})")
        return True

    def load(self, argument: str) -> bool:
        """Resume a saved record in place of the current game."""
        path = self._file(argument, "load")
        if path is None:
            return True
        try:
            history = records.load(path)
        except KibitzError as error:
            self.say(f"load: {error}")
            return True
        self._start(history, chosen=True)
        moves = history.move_count
        self.say(f"Loaded {path}: {plural(moves, 'move')} replayed and checked.")
        self.introduce()
        return True

    def show_command(self, argument: str) -> bool:
        """Draw the layout again."""
        self.show()
        return True

    def help(self, argument: str) -> bool:
        """The commands, or what auto plays."""
        self.say(SAFE_RULE if argument.lower() == "auto" else COMMANDS_HELP)
        return True

    def quit(self, argument: str) -> bool:
        """Leave."""
        self.goodbye()
        return False


def choose_game(read: LineReader, output: TextIO) -> GameInfo | None:
    """Ask which game to play (by number or name); ``None`` when the player leaves."""
    infos = games()
    output.write("Which game would you like to play?\n")
    width = max(len(info.name) for info in infos)
    for k, info in enumerate(infos, 1):
        output.write(f"  {k}. {info.name.ljust(width)}  {info.description}\n")
    while True:
        try:
            answer = read("Game (number or name, q to quit): ").strip()
        except EOFError:
            output.write("\n")
            return None
        if not answer:
            continue
        if answer.lower() in ("q", "quit", "exit"):
            return None
        if answer.isascii() and answer.isdigit():
            number = answer.lstrip("0")
            if len(number) <= len(str(len(infos))) and 1 <= int(number or "0") <= len(infos):
                return infos[int(number) - 1]
            shown = answer if len(answer) <= 20 else f"{answer[:20]}... ({len(answer):,} digits)"
            output.write(f"There is no game {shown}: choose 1 to {len(infos)}, or type a name.\n")
            continue
        if len(answer) > MAX_LINE:
            output.write(f"No game has a name of {len(answer):,} characters: "
                         f"choose 1 to {len(infos)}, or type a name.\n")
            continue
        try:
            return find(answer)
        except KibitzError as error:
            output.write(printable(str(error)) + "\n")
