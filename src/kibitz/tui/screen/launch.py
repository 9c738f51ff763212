"""Opening the full-screen table from ``kibitz play``: a new or loaded game, or a stored game in
progress (``--continue``, ``--game-id``), each kept in the store shared with the browser."""

from __future__ import annotations

import argparse
import sqlite3
from typing import TextIO

from kibitz.errors import KibitzError
from kibitz.history import History
from kibitz.printable import printable
from kibitz.tui.screen.stored import GameKeeper, describe
from kibitz.tui.session import LineReader
from kibitz.web.commands import data_dir
from kibitz.web.store import Play

LEAVE_WORDS = ("q", "quit", "exit")


def open_keeper(option: str | None) -> GameKeeper:
    """The keeper of the data directory ``option`` (as ``kibitz serve --data-dir`` chooses it).
    It never deletes finished games: how long they stay is the server's to say (``--keep-finished``)."""
    directory = data_dir(option)
    try:
        return GameKeeper(directory, keep_finished_days=None)
    except (OSError, sqlite3.Error) as error:
        raise KibitzError(f"cannot use data directory {printable(str(directory))}: {error}") from None


def play_on_screen(args: argparse.Namespace, history: History, chosen: bool, out: TextIO) -> int:
    """Play ``history`` at the full-screen table, kept in the store: a game loaded from a record
    (``--load``) as a practice game, as the browser opens one."""
    keeper = open_keeper(args.data_dir)
    try:
        play = keeper.opened(history) if args.load is not None else keeper.start(history, chosen)
        return run_table(keeper, play, args, out)
    finally:
        keeper.close()


def continue_on_screen(args: argparse.Namespace, read: LineReader, out: TextIO) -> int:
    """Continue a stored game: ``--game-id``, else one chosen from the games in progress."""
    keeper = open_keeper(args.data_dir)
    try:
        game_id = args.game_id if args.game_id is not None else choose_stored(keeper, read, out)
        if game_id is None:
            return 0
        return run_table(keeper, keeper.resume(game_id), args, out)
    finally:
        keeper.close()


def choose_stored(keeper: GameKeeper, read: LineReader, out: TextIO) -> str | None:
    """Ask which game in progress to continue (``None``: none, or the player left)."""
    games = keeper.open_games()
    if not games:
        out.write(f"No games in progress in {printable(str(keeper.store.path.parent))}. "
                  "Start one with: kibitz play GAME\n")
        return None
    out.write("Games in progress (in the terminal or the browser), most recent first:\n")
    for number, game in enumerate(games, 1):
        out.write(f"  {number:>2}. {describe(game)}\n")
    while True:
        try:
            answer = read(f"Which game? 1 to {len(games)} (Enter: 1, q: leave) ").strip().lower()
        except EOFError:
            return None
        if answer in LEAVE_WORDS:
            return None
        if answer == "":
            return str(games[0]["id"])
        if answer.isdigit() and 1 <= int(answer) <= len(games):
            return str(games[int(answer) - 1]["id"])
        out.write(f"Type a number from 1 to {len(games)}, or q.\n")


def run_table(keeper: GameKeeper, play: Play, args: argparse.Namespace, out: TextIO) -> int:
    """Run the table on ``play`` until the player leaves; then say where the game is kept."""
    from kibitz.tui.screen.app import TableApp

    TableApp(play.history, four_colours=args.four_colours, chosen=play.chosen, keeper=keeper).run()
    kept = keeper.play
    if kept is not None and kept.result is None and kept.history.move_count and not keeper.detached:
        out.write("The game is kept: continue it with 'kibitz play --continue' or in the browser "
                  "('kibitz serve').\n")
    return 0
