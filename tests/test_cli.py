"""The ``kibitz`` command line, run in-process through ``main(argv)`` and as a subprocess."""

from __future__ import annotations

import builtins
import hashlib
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import kibitz
from kibitz import records
from kibitz.cli import main, typed_line
from kibitz.history import History
from kibitz.notation import layout_of
from kibitz.printable import printable

Capture = pytest.CaptureFixture[str]


def run(capsys: Capture, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def feed(monkeypatch: pytest.MonkeyPatch, *lines: str) -> None:
    """Make standard input hold these lines."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in lines)))


def subprocess_kibitz(*argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kibitz", *argv], input=stdin,
                          capture_output=True, text=True, timeout=60)


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


# -- games and deal ------------------------------------------------------------------

def test_games_lists_every_game(capsys: Capture) -> None:
    code, out, err = run(capsys, "games")
    assert code == 0 and err == ""
    for info in kibitz.games():
        assert re.search(rf"^{info.slug} +{re.escape(info.name)} \(PySolFC #{info.pysolfc_id}", out, re.M)
        assert info.description in out
        for alias in info.aliases:
            assert alias in out


def test_deal_json_is_the_compact_layout(capsys: Capture) -> None:
    code, out, err = run(capsys, "deal", "Duchess of Luynes", "1", "--ruleset", "pysolfc", "--json")
    expected = layout_of(kibitz.game("grand-duchess", "pysolfc").deal(1))
    assert code == 0 and err == ""
    assert out == json.dumps(expected, separators=(",", ":")) + "\n"


def test_deal_draws_what_a_player_sees(capsys: Capture) -> None:
    code, out, err = run(capsys, "deal", "grand-duchess", "1")
    assert code == 0 and err == ""
    assert "Grand Duchess - deal #1 - standard rules" in out
    assert re.search(r"\br1 ##$", out, re.M) and re.search(r"\br2 ##$", out, re.M)
    assert "3D" not in out  # r1's face-down card
    assert [re.search(rf"\bt{k} (\S+)$", out, re.M).group(1) for k in range(1, 5)] == [  # type: ignore[union-attr]
        "5H", "JC", "KH", "5S"]
    assert "98 cards" in out and "\x1b" not in out


def test_deal_colours_only_a_terminal(capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    for argv, env, coloured in [((), None, True), (("--no-color",), None, False), ((), "1", False)]:
        terminal = Terminal()
        monkeypatch.setattr(sys, "stdout", terminal)
        if env is None:
            monkeypatch.delenv("NO_COLOR", raising=False)
        else:
            monkeypatch.setenv("NO_COLOR", env)
        assert main(["deal", "grand-duchess", "1", *argv]) == 0
        assert ("\x1b[31mKH\x1b[0m" in terminal.getvalue()) is coloured, (argv, env)
    terminal = Terminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert main(["deal", "grand-duchess", "1", "--json"]) == 0
    assert "\x1b" not in terminal.getvalue()


BAD = [
    (["deal", "no-such-game", "1"], "unknown game 'no-such-game'"),
    (["deal", "duchess", "1", "--ruleset", "strict"], "unknown ruleset 'strict'"),
    (["deal", "duchess", "0"], "deal numbers start at 1"),
    (["deal", "duchess", "-3"], "not a number"),
    (["deal", "duchess", "abc"], "not a number"),
    (["deal", "duchess", "123456789012345678901"], "at most 20 digits"),
    (["play", "no-such-game", "--deal", "1"], "unknown game"),
    (["play", "duchess", "--deal", "0"], "deal numbers start at 1"),
    (["play", "duchess", "--deal", "1x"], "not a number"),
    (["play", "--ruleset", "nope"], "unknown ruleset"),
    (["play", "duchess", "--load", "x.kibitz"], "--load"),
    (["replay", "/no/such/record.kibitz"], "cannot read"),
    (["deal", "duchess"], "required: NUMBER"),
    (["shuffle"], "invalid choice"),
    ([], "choose a command"),
]


@pytest.mark.parametrize("argv,message", BAD, ids=[" ".join(a) or "nothing" for a, _ in BAD])
def test_errors_are_one_line_and_exit_2(capsys: Capture, argv: list[str], message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert message in err and len(err.splitlines()) == 1 and "Traceback" not in err


def test_help_for_every_command(capsys: Capture) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0 and all(name in out for name in ("games", "deal", "play", "replay"))
    for command in ("games", "deal", "play", "replay"):
        code, out, _ = run(capsys, command, "--help")
        assert code == 0 and "examples:" in out and f"kibitz {command}" in out
    code, out, _ = run(capsys, "play", "--help")
    assert "auto" in out and "safe" in out and "undo" in out and "NO_COLOR" in out


# -- play ----------------------------------------------------------------------------

def test_play_a_numbered_deal(capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    feed(monkeypatch, "moves", "t3>f7", "t1>f1", "undo", "quit")
    code, out, err = run(capsys, "play", "grand-duchess", "--deal", "1")
    assert code == 0 and err == ""
    assert "deal #1" in out and "kibitz play grand-duchess --deal 1" in out
    assert "t3>f7 (KH)" in out and "1 move" in out
    assert "The 5♥ can't go to the foundation f1" in out and "Goodbye" in out


def test_play_without_a_deal_shows_a_replayable_number_on_leaving(capsys: Capture,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    feed(monkeypatch, "show")
    code, out, _ = run(capsys, "play", "tournament", "--no-color")
    assert code == 0
    assert "Tournament, a random deal (standard rules): its number is shown when the game ends." in out
    number = int(re.search(r"kibitz play tournament --deal (\d+)", out).group(1))  # type: ignore[union-attr]
    assert out.rstrip().endswith(f"--deal {number}")
    assert number < 10**4 or out.count(str(number)) == 1   # only when leaving (a short number may turn up by chance)
    code, drawing, _ = run(capsys, "deal", "tournament", str(number))
    board = drawing.split("\n\n")
    assert all(part in out for part in board[1:5])  # same stock, foundations, cells and tableau


def test_play_asks_which_game(capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    feed(monkeypatch, "twelve", "7", "quit")
    code, out, _ = run(capsys, "play", "--deal", "5", "--ruleset", "pysolfc")
    assert code == 0
    assert "Which game" in out and "unknown game 'twelve'" in out
    assert "Kingsdown Eights, deal #5 (pysolfc rules)" in out
    assert "kibitz play kingsdown-eights --deal 5 --ruleset pysolfc" in out


def test_play_leaves_cleanly_at_end_of_input(capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    feed(monkeypatch)
    assert run(capsys, "play")[0] == 0
    feed(monkeypatch)
    code, out, err = run(capsys, "play", "cicely", "--deal", "2")
    assert code == 0 and "Goodbye" in out and err == ""


def test_play_ctrl_c_exits_without_traceback(capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupt(prompt: str = "") -> str:
        raise KeyboardInterrupt
    monkeypatch.setattr(builtins, "input", interrupt)

    class InterruptedPipe(io.StringIO):
        def readline(self, size: int | None = -1) -> str:
            raise KeyboardInterrupt
    for stdin in (Terminal(), InterruptedPipe()):   # input() at a terminal, else piped lines
        monkeypatch.setattr(sys, "stdin", stdin)
        code, out, err = run(capsys, "play", "duchess", "--deal", "2")
        assert code == 130 and "Traceback" not in out + err
        code, out, err = run(capsys, "play")
        assert code == 130 and "Traceback" not in out + err


def test_save_then_replay_and_resume(capsys: Capture, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "my game.kibitz"
    feed(monkeypatch, "r1>f4", "deal", "deal", f"save {path}", "quit")
    code, out, _ = run(capsys, "play", "duchess", "--deal", "1")
    assert code == 0 and "Saved 3 moves" in out
    state = kibitz.game("duchess").deal(1).apply("r1>f4").apply("deal").apply("deal")
    assert records.load(path).state == state

    code, out, err = run(capsys, "replay", str(path))
    assert code == 0 and err == ""
    assert out.splitlines() == ["game: Duchess (duchess, standard rules)", "deal: 1", "moves: 3",
                                "result: in progress"]

    code, out, _ = run(capsys, "replay", str(path), "--show")
    assert code == 0 and "opening" in out
    assert [line for line in out.splitlines() if line.startswith("move ")] == [
        "move 1: r1>f4", "move 2: deal", "move 3: deal"]
    assert "base rank K" in out and "\x1b" not in out

    feed(monkeypatch, "undo 3", "moves", "quit")
    code, out, _ = run(capsys, "play", "--load", str(path))
    assert code == 0 and "3 moves" in out and "Legal moves (4)" in out


def test_replay_reports_a_finished_game(capsys: Capture, tmp_path: Path) -> None:
    history = History.new(kibitz.game("grand-duchess"), 1)
    while history.state.legal_moves:
        moves = history.state.legal_moves
        history.play(next((m for m in moves if not m.is_deal), moves[-1]))
    path = records.save(history, tmp_path / "over.kibitz")
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0 and "result: over (no moves left)" in out
    assert f"moves: {len(history.moves)}" in out


@pytest.mark.parametrize("change,message", [
    (lambda text: text.replace("deal\n", "r2>f1\n", 1), "checksum"),
    (lambda text: text.rsplit("\n", 2)[0] + "\n", "truncated"),
    (lambda text: "hello\n", "not a kibitz game record"),
])
def test_replay_rejects_a_tampered_record(capsys: Capture, tmp_path: Path, change: object, message: str) -> None:
    history = History.new(kibitz.game("duchess"), 1)
    for move in ("r1>f4", "deal", "deal"):
        history.play(move)
    path = records.save(history, tmp_path / "game.kibitz")
    path.write_text(change(path.read_text()))  # type: ignore[operator]
    code, out, err = run(capsys, "replay", str(path))
    assert code == 2 and out == ""
    assert message in err and len(err.splitlines()) == 1 and "Traceback" not in err


# -- as a real process ------------------------------------------------------------

def test_subprocess_errors_have_no_traceback() -> None:
    for argv in (["deal", "nope", "1"], ["deal", "duchess", "0"], ["play", "duchess", "--ruleset", "x"]):
        result = subprocess_kibitz(*argv)
        assert result.returncode == 2 and result.stdout == ""
        assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr


def test_subprocess_play_session() -> None:
    result = subprocess_kibitz("play", "duchess", "--deal", "1", stdin="r1>f4\ndeal\nmoves\nbogus\nquit\n")
    assert result.returncode == 0 and result.stderr == ""
    assert "base rank K" in result.stdout and "Legal moves" in result.stdout
    assert "move 'bogus': not a move" in result.stdout
    # Piped commands show on their own lines, as a terminal echoes them.
    lines = result.stdout.splitlines()
    assert "> r1>f4" in lines and "> bogus" in lines
    assert lines[lines.index("> bogus") + 1].startswith("move 'bogus': not a move")
    result = subprocess_kibitz("play", "duchess", "--deal", "1", stdin="")
    assert result.returncode == 0 and "\nGoodbye" in result.stdout


class ClosedPipe(io.StringIO):
    def write(self, text: str) -> int:
        raise BrokenPipeError


def test_a_closed_output_pipe_is_not_an_error_trace(capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    assert main(["games"]) == 1
    assert capsys.readouterr().err == ""


# -- hostile arguments, files and input ------------------------------------------------

ESCAPES = "\x1b]0;TITLE\x07\x1b[2J\u202e"
"""Sets the window title, clears the screen, reverses what follows."""


def one_clean_line(err: str) -> None:
    """A single line of error, its controls escaped, and no traceback."""
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err[:500]
    assert printable(err.rstrip("\n")) == err.rstrip("\n"), err


def test_replay_quotes_a_sealed_records_controls_escaped(capsys: Capture, tmp_path: Path) -> None:
    """A record whose rules-version line holds escape sequences, checksum and all, had them
    written raw to the terminal by ``replay`` and ``play --load``."""
    path = records.save(History.new(kibitz.game("duchess"), 1), tmp_path / "game.kibitz")
    lines = path.read_text().split("\n")[:-2]
    lines[3] = f"rules-version: {ESCAPES}"
    digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()
    path.write_text("\n".join(lines + [f"end: sha256 {digest}"]) + "\n")
    for argv in (["replay", str(path)], ["play", "--load", str(path)]):
        code, out, err = run(capsys, *argv)
        assert code == 2 and out == ""
        one_clean_line(err)
        assert "rules version \\x1b]0;TITLE\\x07\\x1b[2J\\u202e of Duchess" in err


def test_file_names_with_controls_are_quoted_escaped(capsys: Capture, tmp_path: Path) -> None:
    """A record's file name is quoted escaped in the CLI's errors."""
    code, out, err = run(capsys, "replay", str(tmp_path / f"x{ESCAPES}.kibitz"))
    assert code == 2 and "cannot read" in err
    one_clean_line(err)


@pytest.mark.parametrize("argv", [["replay", "/dev/zero"], ["play", "--load", "/dev/zero"]])
def test_an_endless_file_is_refused_at_the_size_limit(capsys: Capture, argv: list[str]) -> None:
    """``kibitz replay /dev/zero`` read until memory ran out."""
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    code, out, err = run(capsys, *argv)
    assert code == 2 and "larger than a record can be (more than 10,000,000 bytes)" in err
    one_clean_line(err)


def test_unrecognized_arguments_are_quoted_escaped(capsys: Capture) -> None:
    """argparse wrote unrecognized arguments back raw."""
    code, out, err = run(capsys, "games", ESCAPES)
    assert code == 2 and "unrecognized arguments: \\x1b]0;TITLE" in err
    one_clean_line(err)


def test_piped_commands_are_echoed_escaped(capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    """Piped input is shown as a terminal shows what is typed: its controls visible, not acted on."""
    feed(monkeypatch, f"r1>t3{ESCAPES}", f"save {ESCAPES}\0", "undo " + "9" * 5000, "quit")
    code, out, err = run(capsys, "play", "cicely", "--deal", "1")
    assert code == 0 and err == ""
    assert "> r1>t3\\x1b]0;TITLE\\x07\\x1b[2J\\u202e" in out.splitlines()
    assert printable(out, keep_newlines=True) == out


@pytest.mark.parametrize("argv", [
    ["deal", "duchess", "0" * 5000 + "1"],
    ["solve", "duchess", "0" * 5000 + "1", "--timeout", "0.001"],
    ["study", "duchess", "--deals", "1", "--workers", "99999999999999"],
    ["study", "duchess", "--deals", "1", "--nodes", "9" * 5000],
    ["study", "duchess", "--deals", "1", "--nodes", "99999999999999999999999999"],
    ["study", "duchess", "--deals", "1", "--batch", "-1"],
    ["study", "duchess", "--deals", "1-" + "9" * 5000],
    ["study", "duchess", "--deals", "0" * 5000 + "2-1"],
], ids=["deal-zeros", "solve-zeros", "workers", "nodes-digits", "nodes-sqlite", "batch", "deals", "deals-order"])
def test_huge_numbers_are_one_line_errors(capsys: Capture, tmp_path: Path, argv: list[str]) -> None:
    """Numbers the CLI converted whole (a deal number with 5000 leading zeros, --workers beyond a
    C int, --nodes beyond SQLite's integers) ended in tracebacks."""
    if argv[0] in ("study", "report"):
        argv = argv + ["--db", str(tmp_path / "study.db")]
    code, out, err = run(capsys, *argv)
    if argv[0] in ("deal", "solve"):  # deal 1, its leading zeros dropped
        assert code == 0 and err == "" and "deal #1" in out
        return
    assert code == 2 and out == ""
    one_clean_line(err)
    assert len(err) < 300
    assert not (tmp_path / "study.db").exists()


def test_report_on_a_file_that_is_no_database(capsys: Capture, tmp_path: Path) -> None:
    """A results file that is not SQLite ended in sqlite3.DatabaseError's traceback."""
    path = tmp_path / f"notes{ESCAPES}.txt"
    path.write_text("shopping list\n" * 100)
    code, out, err = run(capsys, "report", "--db", str(path))
    assert code == 2 and "cannot open the results file" in err
    one_clean_line(err)
    assert path.read_text() == "shopping list\n" * 100


def test_results_file_that_is_a_folder(capsys: Capture, tmp_path: Path) -> None:
    """A folder given as the results file is refused in one line, and left as it was."""
    for argv in (["report"], ["study", "duchess", "--deals", "1", "--nodes", "1"]):
        code, out, err = run(capsys, *argv, "--db", str(tmp_path))
        assert code == 2 and "is a folder or a device, not a results file" in err
        one_clean_line(err)
    assert list(tmp_path.iterdir()) == []


def test_study_names_its_results_file_escaped(capsys: Capture, tmp_path: Path) -> None:
    """``study`` and ``report`` wrote the --db name back raw."""
    db = str(tmp_path / f"results{ESCAPES}.db")
    code, out, err = run(capsys, "study", "duchess", "--deals", "1", "--nodes", "1", "--workers", "1",
                         "--db", db)
    assert code == 0 and "done: 1 deals solved" in err and "results\\x1b]0;TITLE" in err
    assert printable(err, keep_newlines=True) == err.replace("\r", "")
    code, out, err = run(capsys, "report", "--db", db, "--game", "cicely")
    assert code == 0 and "holds no results for --game cicely" in out
    assert printable(out, keep_newlines=True) == out


def test_piped_bytes_that_are_not_text_and_endless_lines(capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    """Piped input that is not UTF-8 ended in UnicodeDecodeError's traceback (where standard
    input decodes strictly, as under most UTF-8 locales); a line with no end was read whole."""
    data = b"r1>t3\n\xff\xfe bad\n" + b"\0" * 200_000 + b"\nundo\nquit\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="strict"))
    code, out, err = run(capsys, "play", "cicely", "--deal", "1")
    assert code == 0 and err == ""
    assert "move '\ufffd\ufffd bad': not a move" in out
    assert out.count("That line is longer than any command") == 1
    assert "> undo" in out.splitlines() and out.rstrip().endswith("kibitz play cicely --deal 1")
    assert len(out) < 100_000 and printable(out, keep_newlines=True) == out


def test_typed_bytes_that_are_not_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """At a terminal, a line that does not decode is answered as a wrong line, not a traceback."""
    def undecodable(prompt: str) -> str:
        raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")

    monkeypatch.setattr(builtins, "input", undecodable)
    assert typed_line("> ") == "\ufffd"
