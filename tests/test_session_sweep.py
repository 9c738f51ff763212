"""A seeded sweep of typed commands for the terminal player.

Random lines built from the command words, moves in notation, shorthands and card names,
garbage, huge numbers, NUL and escape sequences, very long lines and other unicode, with
file names in a temporary folder. ``PlaySession.handle`` must never raise; everything it
writes (without colour) must be free of raw control characters but newlines; and its
history must always be what replaying its moves from the start gives.
"""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

import kibitz
from kibitz import records
from kibitz.history import History
from kibitz.printable import printable
from kibitz.tui import PlaySession, ScriptedInput
from kibitz.tui import session as session_module

GAMES = [(info.slug, ruleset) for info in kibitz.games() for ruleset in kibitz.RULESETS]
COMMANDS = ["undo", "u", "redo", "new", "save", "load", "moves", "m", "auto", "a", "restart", "show",
            "help", "h", "?", "quit", "q", "exit", "deal", "d", "UNDO", "Redo", "Save", "LOAD", "help auto"]
ESCAPES = ["\x1b]0;TITLE\x07", "\x1b[2J", "\x1b[31m", "\u202e", "\x9b2J", "\x00", "\x07", "\r", "\x0b",
           "\x85", "\u2028", "\ufeff", "\x7f", "\x08" * 5, "\t"]
NUMBERS = ["1", "2", "3", "10", "0", "-1", "+2", "1.5", "1e3", "\u0663", "\uff13", "99999999999999999999",
           "100000000000000000000", "9" * 5000, "0" * 5000 + "2", "9" * 900, "1000000", "1000001", "#7", "1_000"]
LINES = 2500


def escapes(rng: random.Random) -> str:
    return "".join(rng.choices(ESCAPES, k=rng.randint(1, 3)))


def file_name(rng: random.Random, folder: Path) -> str:
    """A file name as a player might type it: one of a few in ``folder``, or a hostile one."""
    plain = rng.choice(["game.kibitz", "other.kibitz", "corrupt.kibitz", "escapes.kibitz", "folder",
                        "missing.kibitz", "new.kibitz"])
    kind = rng.randrange(10)
    if kind < 4:
        return str(folder / plain)
    if kind == 4:
        return f"'{folder / plain}'"
    if kind == 5:
        return str(folder / f"{plain}{escapes(rng)}")
    if kind == 6:
        return rng.choice(["~kibitz-no-such-user/x.kibitz", "~/", "\"\"", "''", "'", "/", ".", "a\0b",
                           "~\0", str(folder / "no" / "such" / "place.kibitz")])
    if kind == 7:
        return str(folder / ("n" * rng.choice([100, 300, 990])))
    if kind == 8 and Path("/dev/zero").exists() and rng.random() < 0.1:
        return "/dev/zero"
    return plain  # relative: the folder is the working directory


def garbage(rng: random.Random) -> str:
    alphabet = "tfrswd>#/0123456789 ACDHSKQJT" + "éß♠♥\u0663\U0001f0a1\u00a0" + "".join(ESCAPES)
    return "".join(rng.choices(alphabet, k=rng.choice([1, 3, 8, 30, 200, 1200, 20_000])))


def typed_line(rng: random.Random, session: PlaySession, folder: Path) -> str:
    """One random line of input."""
    state = session.state
    kind = rng.randrange(12)
    if kind <= 2 and state.legal_moves:
        move = rng.choice(state.legal_moves)
        return rng.choice([str(move), f"  {move}  ", str(move).upper(), move.source])
    if kind == 3:
        pile = rng.choice(["s", "w", *(f"{k}{n}" for k in "ftr" for n in range(1, 10))])
        target = rng.choice(["f", "t", "r", *(f"{k}{n}" for k in "ftr" for n in range(1, 10))])
        return rng.choice([f"{pile}>{target}", f"{pile}>{target}/{rng.choice(NUMBERS)}",
                           f"{pile}#{rng.choice(NUMBERS)}>{target}", pile,
                           f"{rng.choice('A23456789TJQK')}{rng.choice('CDHS')}>{target}"])
    if kind in (4, 5):
        word = rng.choice(["undo", "u", "redo", "new", "UNDO"])
        return f"{word} {rng.choice(NUMBERS)}"
    if kind == 6:
        return f"{rng.choice(['save', 'load', 'Save', 'LOAD'])} {file_name(rng, folder)}"
    if kind == 7:
        return f"{rng.choice(COMMANDS)} {escapes(rng)}{rng.choice(['', 'x', '3'])}"
    if kind == 8:
        return garbage(rng)
    if kind == 9:
        return escapes(rng) + rng.choice(COMMANDS) + escapes(rng)
    return rng.choice(COMMANDS)


def check_consistent(history: History) -> None:
    """The history is what replaying its line from the start gives, at the same place."""
    fresh = History(history.start, history.deal_number)
    for move in history.line:
        fresh.play(move)
    for _ in range(len(history.line) - history.move_count):
        fresh.undo()
    assert fresh.state == history.state and fresh.moves == history.moves
    assert history.deal_number is not None and history.start == history.game.deal(history.deal_number)


def prepare_folder(folder: Path) -> None:
    """Records for ``load`` to find: a good one, a corrupt one, one with escapes, a folder."""
    good = History.new(kibitz.game("duchess"), 5)
    good.play(good.state.legal_moves[0])
    records.save(good, folder / "game.kibitz")
    records.save(History.new(kibitz.game("cicely", "pysolfc"), 9), folder / "other.kibitz")
    (folder / "corrupt.kibitz").write_bytes((folder / "game.kibitz").read_bytes()[:-10] + b"\xff\x00")
    text = (folder / "other.kibitz").read_text().replace("rules-version: 1", "rules-version: \x1b]0;T\x07")
    (folder / "escapes.kibitz").write_text(text)
    (folder / "folder").mkdir()


def test_typed_command_sweep(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Thousands of random typed lines: no exception, no raw control character written, and
    a consistent history after every line."""
    rng = random.Random(20240602)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(session_module, "random_deal_number", lambda: rng.randint(1, 10**9))
    prepare_folder(tmp_path)
    output = io.StringIO()
    session = None
    left = 0
    for number in range(LINES):
        if session is None:
            slug, ruleset = rng.choice(GAMES)
            session = PlaySession(History.new(kibitz.game(slug, ruleset), rng.randint(1, 40_000)), output)
            session.introduce()
        line = typed_line(rng, session, tmp_path)
        start = output.tell()
        stays = session.handle(line)
        written = output.getvalue()[start:]
        assert printable(written, keep_newlines=True) == written, (number, line[:100], written[:500])
        check_consistent(session.history)
        if stays and line.strip():
            assert written, (number, line[:100])  # every line is answered (or drawn)
        else:
            left += 1
            session = None
    assert left > 10  # the sweep left the game many times, and started again


def test_typed_command_sweep_through_the_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same kind of lines through ``run`` with an echo, as piped input is shown."""
    rng = random.Random(7)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(session_module, "random_deal_number", lambda: rng.randint(1, 10**9))
    prepare_folder(tmp_path)
    output = io.StringIO()
    session = PlaySession(History.new(kibitz.game("tournament"), 3), output)
    lines = [typed_line(rng, session, tmp_path) for _ in range(300)]
    lines = [line for line in lines if line.strip().partition(" ")[0].lower() not in ("q", "quit", "exit")]
    assert session.run(ScriptedInput(lines, echo=output)) == 0
    text = output.getvalue()
    assert printable(text, keep_newlines=True) == text
    assert text.count("\n> ") == len(lines)  # every line echoed on a line of its own
    assert text.rstrip().rpartition("\n")[2].startswith("Goodbye. To play this deal again: kibitz play ")
    check_consistent(session.history)
