"""The ``kibitz`` command: list the games, draw a deal, play in the terminal, replay a record,
solve deals, run winnability studies, play agents for the odds and ask an agent for a hint.

``main(argv)`` returns the exit status: 0 on success, 2 for a usage error or bad
input (unknown game or ruleset, bad deal number, corrupt record), with one line
on standard error and never a traceback; 130 when interrupted with Ctrl-C. Text from
outside (an argument, a file name, a record, a piped line) is shown with its control
characters as visible escapes (:func:`kibitz.printable.printable`), never acted on.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Callable, NoReturn, Sequence

from kibitz import records
from kibitz.analysis.commands import add_commands as add_analysis_commands
from kibitz.autoplay import SAFE_RULE
from kibitz.deals import MAX_DEAL_NUMBER, parse_deal_number, random_deal_number
from kibitz.errors import KibitzError, UnknownGameError
from kibitz.history import History
from kibitz.notation import layout_of
from kibitz.printable import printable
from kibitz.registry import game as find_game, games
from kibitz.rules import RULESETS
from kibitz.study.commands import add_commands as add_solver_commands
from kibitz.tui.drawing import LEGEND, colour_wanted, draw
from kibitz.tui.session import COMMANDS_HELP, MAX_LINE, LineReader, PlaySession, choose_game
from kibitz.web.commands import add_commands as add_web_commands

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130

DESCRIPTION = """\
kibitz plays seven patience games with their exact rules and PySolFC's deal
numbers: Grand Duchess, Parisienne, Duchess, Tournament, Napoleon's Flank,
Cicely and Kingsdown Eights."""

EPILOG = f"""\
Each command has its own help, with examples: kibitz play --help

rulesets: {', '.join(RULESETS)}. 'standard' follows the historical rules,
'pysolfc' reproduces PySolFC's behaviour exactly. Deal numbers are whole
numbers from 1 to {MAX_DEAL_NUMBER} (20 digits); deal N is PySolFC's game N.

examples:
  kibitz games
  kibitz deal grand-duchess 1
  kibitz play duchess --deal 12345
  kibitz replay mygame.kibitz --show
  kibitz solve duchess 1
  kibitz hint duchess 1 --moves "r2>f1"
  kibitz review mygame.kibitz
  kibitz study duchess --deals 1-1000 && kibitz report
  kibitz odds duchess --deals 1-500 --agent greedy"""

GAMES_EPILOG = """\
Any listed name, slug or alias selects a game, in any case.

examples:
  kibitz games
  kibitz play "Duchess of Luynes"      (an alias of grand-duchess)"""

DEAL_EPILOG = """\
The drawing shows what a player sees: face-down cards as ##, squared piles as
their top card and a count. --json prints the whole layout object instead
(every card, hidden ones in lower case), as one compact line.

examples:
  kibitz deal grand-duchess 1
  kibitz deal tournament 31999 --ruleset pysolfc
  kibitz deal duchess 7 --json"""

PLAY_EPILOG = f"""\
At a terminal, kibitz play opens the full-screen table (keys and mouse; ? lists
the keys), whose games are kept with the browser's (kibitz serve) in the same
data directory: --continue picks up a game in progress from either. --plain,
or input or output that is not a terminal, plays line by line as below.

Without GAME, kibitz lists the games and asks which. Without --deal it picks a
random deal, whose number (which tells where every card lies) it shows when the
game ends or you leave it, so that you can play it again. Suits are
drawn in colour on a terminal unless --no-color is given or NO_COLOR is set.

{COMMANDS_HELP}

{SAFE_RULE}

examples:
  kibitz play
  kibitz play grand-duchess --deal 1
  kibitz play tournament --ruleset pysolfc
  kibitz play --load mygame.kibitz
  kibitz play --continue
  kibitz play duchess --plain"""

REPLAY_EPILOG = """\
The record is checked line by line: its checksum, and every move replayed
through the rules. A corrupt, truncated or edited record is refused (exit
status 2) with the line at fault.

examples:
  kibitz replay mygame.kibitz
  kibitz replay mygame.kibitz --show"""


class VersionAction(argparse.Action):
    """``kibitz --version``: what this kibitz is (:func:`kibitz.about.describe`), then exit."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        from kibitz.about import describe
        sys.stdout.write(describe() + "\n")
        parser.exit()


class UsageError(KibitzError):
    """Options that do not go together."""


class ArgumentParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on standard error, exit status 2."""

    def error(self, message: str) -> NoReturn:
        # The message may quote the arguments as typed ("unrecognized arguments: ...").
        self.exit(EXIT_USAGE, f"{self.prog}: {printable(message)} (see '{self.prog} --help')\n")


def build_parser() -> ArgumentParser:
    """The parser of the ``kibitz`` command and its subcommands."""
    formatter = argparse.RawDescriptionHelpFormatter
    parser = ArgumentParser(prog="kibitz", description=DESCRIPTION, epilog=EPILOG,
                            formatter_class=formatter)
    parser.add_argument("--version", action=VersionAction, nargs=0,
                        help="print the version, the build in use and the solver, rules and agent versions")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")

    games_parser = commands.add_parser("games", help="list the games, their aliases and PySolFC ids", description="List the games "
                                       "with their aliases, PySolFC ids and a one-line description.",
                                       epilog=GAMES_EPILOG, formatter_class=formatter)
    games_parser.set_defaults(run=run_games)

    deal_parser = commands.add_parser("deal", help="draw the opening layout of a numbered deal (or print it as JSON)",
                                      description="Draw the opening layout of deal NUMBER of GAME.",
                                      epilog=DEAL_EPILOG, formatter_class=formatter)
    deal_parser.add_argument("game", metavar="GAME", help="game name, slug or alias")
    deal_parser.add_argument("number", metavar="NUMBER", help=f"deal number, 1 to {MAX_DEAL_NUMBER}")
    _add_ruleset(deal_parser)
    deal_parser.add_argument("--json", action="store_true",
                             help="print the layout object as compact JSON (every card, hidden ones too)")
    _add_no_color(deal_parser)
    deal_parser.set_defaults(run=run_deal)

    play_parser = commands.add_parser("play", help="play a game in the terminal",
                                      description="Play a game in the terminal.",
                                      epilog=PLAY_EPILOG, formatter_class=formatter)
    play_parser.add_argument("game", metavar="GAME", nargs="?",
                             help="game name, slug or alias (asked for when left out)")
    play_parser.add_argument("--deal", metavar="N",
                             help="deal number (random when left out: its number is shown when the game ends)")
    _add_ruleset(play_parser)
    play_parser.add_argument("--load", metavar="RECORD",
                             help="resume a saved game record instead of starting a deal")
    _add_no_color(play_parser)
    play_parser.add_argument("--screen", action="store_true",
                             help="play on the full-screen table (keys and mouse), even when it is not the default")
    play_parser.add_argument("--plain", action="store_true",
                             help="play line by line (typed moves, for screen readers and scripts)")
    play_parser.add_argument("--continue", dest="resume", action="store_true",
                             help="list the games in progress (of the terminal and the browser) and continue one")
    play_parser.add_argument("--game-id", metavar="ID", help="continue the stored game ID (as the browser names it)")
    play_parser.add_argument("--data-dir", metavar="DIR",
                             help="where games and statistics are kept, shared with 'kibitz serve' "
                                  "(default: $KIBITZ_DATA_DIR, else the user's data directory)")
    play_parser.add_argument("--four-colours", action="store_true",
                             help="on the full-screen table: each suit in its own colour")
    play_parser.set_defaults(run=run_play)

    replay_parser = commands.add_parser("replay", help="check a saved game record and show how it went",
                                        description="Load and verify a saved game record; print "
                                        "the game, the deal, the number of moves and the result.",
                                        epilog=REPLAY_EPILOG, formatter_class=formatter)
    replay_parser.add_argument("record", metavar="RECORD", help="a record file written by 'save'")
    replay_parser.add_argument("--show", action="store_true",
                               help="also print each move with the layout after it")
    _add_no_color(replay_parser)
    replay_parser.set_defaults(run=run_replay)
    add_analysis_commands(commands, formatter, _add_ruleset)
    add_solver_commands(commands, formatter)
    add_web_commands(commands, formatter)
    return parser


def _add_ruleset(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ruleset", metavar="R", default="standard",
                        help=f"rules to play by: {' or '.join(RULESETS)} (default: standard)")


def _add_no_color(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-color", action="store_true", help="never draw suits in colour")


def check_ruleset(ruleset: str) -> str:
    """``ruleset`` if it is known; raises :class:`UnknownGameError` otherwise."""
    if ruleset not in RULESETS:
        raise UnknownGameError(f"unknown ruleset {ruleset!r}; choose one of: {', '.join(RULESETS)}")
    return ruleset


# -- the commands ----------------------------------------------------------------

def run_games(args: argparse.Namespace) -> int:
    """``kibitz games``."""
    infos = games()
    width = max(len(info.slug) for info in infos)
    out = sys.stdout
    for info in infos:
        aliases = f"; also {', '.join(info.aliases)}" if info.aliases else ""
        out.write(f"{info.slug.ljust(width)}  {info.name} (PySolFC #{info.pysolfc_id}{aliases})\n")
        out.write(f"{'':{width}}  {info.description}\n")
    out.write(f"\nRulesets: {', '.join(RULESETS)}. Start one with: kibitz play GAME\n")
    return 0


def run_deal(args: argparse.Namespace) -> int:
    """``kibitz deal GAME NUMBER``."""
    game = find_game(args.game, check_ruleset(args.ruleset))
    number = parse_deal_number(args.number)
    state = game.deal(number)
    if args.json:
        sys.stdout.write(json.dumps(layout_of(state), separators=(",", ":")) + "\n")
        return 0
    colour = colour_wanted(sys.stdout, args.no_color)
    sys.stdout.write(draw(state, colour=colour, deal_number=number) + "\n\n" + LEGEND + "\n")
    return 0


def terminal_reader() -> LineReader:
    """:func:`input`, with line editing, when standard input is a terminal; otherwise
    :func:`piped_reader`, which shows each line read as a terminal would."""
    if sys.stdin is None or not sys.stdin.isatty():
        return piped_reader
    try:
        import readline  # noqa: F401  (enables editing and history in input())
    except ImportError:
        pass
    return typed_line


def typed_line(prompt: str) -> str:
    """:func:`input`; bytes typed that are not text (in the terminal's encoding) make a line
    of U+FFFD, which the game answers like any other wrong line."""
    try:
        return input(prompt)
    except UnicodeDecodeError:
        return "\ufffd"


def read_piped_line() -> str:
    """The next line of piped standard input, ``""`` at its end.

    Bytes that are not text become U+FFFD, and a line too long for any command is cut (the
    rest of it read and dropped), so that neither stops the game nor fills the memory.
    """
    stdin = sys.stdin
    if stdin is None:
        return ""
    buffer = getattr(stdin, "buffer", None)
    if buffer is None:  # a text stream with no bytes beneath it
        return stdin.readline()
    limit = 4 * MAX_LINE + 4  # more characters than MAX_LINE, however they are encoded
    raw: bytes = buffer.readline(limit)
    if len(raw) == limit and not raw.endswith(b"\n"):
        while (rest := buffer.readline(limit)) and not rest.endswith(b"\n"):
            pass
    return raw.decode(stdin.encoding or "utf-8", "replace")


def piped_reader(prompt: str) -> str:
    """Read a line of piped input; write the prompt and the line to standard output, so
    that a transcript shows each command on its own line (a terminal echoes them)."""
    sys.stdout.write(prompt)
    line = read_piped_line()
    if not line:
        sys.stdout.write("\n")
        raise EOFError
    line = line.rstrip("\r\n")
    sys.stdout.write(printable(line) + "\n")
    return line


def run_play(args: argparse.Namespace, read: LineReader | None = None) -> int:
    """``kibitz play [GAME]``."""
    read = read or terminal_reader()
    ruleset = check_ruleset(args.ruleset)
    colour = colour_wanted(sys.stdout, args.no_color)
    screen = full_screen_wanted(args)
    if args.resume or args.game_id is not None:
        if args.game is not None or args.deal is not None or args.load is not None:
            raise UsageError("--continue and --game-id open a stored game: give no GAME, --deal or --load with them")
        from kibitz.tui.screen.launch import continue_on_screen  # Textual loads only for the full-screen table
        return continue_on_screen(args, read, sys.stdout)
    if args.load is not None:
        if args.game is not None or args.deal is not None:
            raise UsageError("--load resumes a saved game: give no GAME or --deal with it")
        history = records.load(args.load)
        chosen = True
    else:
        number = parse_deal_number(args.deal) if args.deal is not None else None
        name = args.game
        if name is None:
            info = choose_game(read, sys.stdout)
            if info is None:
                return 0
            name = info.slug
        game = find_game(name, ruleset)
        history = History.new(game, number if number is not None else random_deal_number())
        chosen = number is not None   # a random deal's number is shown when the game ends
    if screen:
        from kibitz.tui.screen.launch import play_on_screen  # Textual loads only for the full-screen table
        return play_on_screen(args, history, chosen, sys.stdout)
    return PlaySession(history, sys.stdout, colour=colour, chosen=chosen).run(read)


def full_screen_wanted(args: argparse.Namespace) -> bool:
    """Whether ``kibitz play`` opens the full-screen table: when asked for (``--screen``,
    ``--continue``, ``--game-id``), else when standard input and output are both a terminal;
    never with ``--plain``."""
    asked = args.screen or args.resume or args.game_id is not None
    if args.plain:
        if asked:
            raise UsageError("--plain plays line by line: give no --screen, --continue or --game-id with it")
        return False
    return asked or all(stream is not None and stream.isatty() for stream in (sys.stdin, sys.stdout))


def run_replay(args: argparse.Namespace) -> int:
    """``kibitz replay RECORD``."""
    history = records.load(args.record)
    game, state = history.game, history.state
    out = sys.stdout
    if state.is_won():
        result = "won"
    elif state.is_over():
        result = "over (no moves left)"
    else:
        result = "in progress"
    out.write(f"game: {game.name} ({game.slug}, {game.ruleset} rules)\n")
    out.write(f"deal: {history.deal_number}\n")
    out.write(f"moves: {len(history.moves)}\n")
    out.write(f"result: {result}\n")
    if args.show:
        colour = colour_wanted(out, args.no_color)
        moves = history.moves
        position = history.restart()  # redo then steps through the positions already replayed
        out.write("\nopening\n" + draw(position, colour=colour, deal_number=history.deal_number,
                                       moves_played=0) + "\n")
        for k, move in enumerate(moves, 1):
            position = history.redo()
            out.write(f"\nmove {k}: {move}\n" + draw(position, colour=colour,
                                                     deal_number=history.deal_number,
                                                     moves_played=k) + "\n")
    return 0


# -- entry point -------------------------------------------------------------------

def main(argv: Sequence[str] | None = None) -> int:
    """Run ``kibitz`` with ``argv`` (default: the command line); return the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit:
        return exit.code if isinstance(exit.code, int) else (0 if exit.code is None else EXIT_USAGE)
    if args.command is None:
        sys.stderr.write("kibitz: choose a command: games, deal, play, replay, solve, hint, review, study, report, odds, "
                         "results or serve (see 'kibitz --help')\n")
        return EXIT_USAGE
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except KibitzError as error:
        # The message may quote a file name, a record or an argument: never act on their controls.
        sys.stderr.write(f"kibitz {args.command}: {printable(str(error))}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        sys.stderr.write("\n")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return 1


def _silence_stdout() -> None:
    """After the reader of our output went away, send what is left nowhere (no second error at exit)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
