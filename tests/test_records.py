"""Game records: saving, loading, and refusing anything corrupt, truncated or tampered with."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import random
import re
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import kibitz
from kibitz import records
from kibitz.errors import InvalidMoveError, RecordError
from kibitz.history import History, ReplayError
from kibitz.moves import Move, parse_move
from kibitz.printable import printable
from kibitz.records import (MAGIC, Record, format_record, load, parse_history, parse_record, record_of,
                            save)
from kibitz.rules import Game

from conftest import GAMES_AND_RULESETS


def played(slug: str, ruleset: str = "standard", deal: int = 1, moves: int = 40,
           seed: int = 0) -> History:
    """A history of up to ``moves`` random legal moves from deal ``deal``."""
    history = History.new(kibitz.game(slug, ruleset), deal)
    rng = random.Random(seed)
    for _ in range(moves):
        legal = history.state.legal_moves
        if not legal:
            break
        history.play(rng.choice(legal))
    return history


@pytest.fixture
def kingsdown() -> History:
    """Kingsdown Eights #1 after ``r5>f4``, ``r3>t5`` and ``deal``."""
    history = History.new(kibitz.game("kingsdown-eights"), 1)
    for move in ("r5>f4", "r3>t5", "deal"):
        history.play(move)
    return history


@pytest.fixture
def kingsdown_text(kingsdown: History) -> str:
    """The record text of the ``kingsdown`` history."""
    return format_record(record_of(kingsdown))


def sealed(lines: list[str]) -> str:
    """A record from its lines above the end line, with a correct checksum."""
    digest = hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()
    return "\n".join(lines + [f"end: sha256 {digest}"]) + "\n"


def body(text: str) -> list[str]:
    """The lines of a record above its end line."""
    return text.split("\n")[:-2]


def refused(text: str) -> str:
    """The message of the RecordError that parsing ``text`` raises."""
    with pytest.raises(RecordError) as caught:
        parse_record(text)
    return str(caught.value)


# -- the format ----------------------------------------------------------------

def test_record_text(kingsdown_text: str) -> None:
    """Magic line, header in order, one move a line, then the checksum of everything above."""
    lines = kingsdown_text.split("\n")
    assert lines[:9] == [MAGIC, "game: kingsdown-eights", "ruleset: standard", "rules-version: 1",
                         "deal: 1", "moves: 3", "r5>f4", "r3>t5", "deal"]
    assert lines[10] == "" and len(lines) == 11
    digest = hashlib.sha256("\n".join(lines[:9]).encode()).hexdigest()
    assert lines[9] == f"end: sha256 {digest}"
    assert sealed(lines[:9]) == kingsdown_text


def test_parse_record(kingsdown_text: str) -> None:
    """Parsing gives the game, deal and moves back."""
    record = parse_record(kingsdown_text)
    assert record.game is kibitz.game("kingsdown-eights")
    assert record.deal == 1
    assert record.moves == (Move("r5", "f4"), Move("r3", "t5"), kibitz.DEAL)


def test_final_newline_optional(kingsdown_text: str) -> None:
    """A record whose last newline was lost still loads: nothing of it is missing."""
    assert parse_record(kingsdown_text.rstrip("\n")) == parse_record(kingsdown_text)


def test_empty_game(tmp_path: Path) -> None:
    """A game with no moves yet saves and loads."""
    history = History.new(kibitz.game("duchess", "pysolfc"), 32000)
    loaded = load(save(history, tmp_path / "new.kibitz"))
    assert loaded.state == history.state
    assert loaded.moves == ()
    assert "moves: 0" in (tmp_path / "new.kibitz").read_text()


def test_history_without_deal_number() -> None:
    """A game not started from a deal number cannot be recorded."""
    history = History(kibitz.game("cicely").deal(4))
    with pytest.raises(RecordError, match="deal number"):
        record_of(history)


# -- save and load -------------------------------------------------------------

@pytest.mark.parametrize("slug,ruleset", GAMES_AND_RULESETS)
def test_save_load_every_game(tmp_path: Path, slug: str, ruleset: str) -> None:
    """A record from each game and ruleset loads back to the same moves and state."""
    history = played(slug, ruleset, deal=11, moves=80, seed=3)
    assert len(history.moves) > 5
    path = save(history, tmp_path / f"{slug}.kibitz")
    loaded = load(path)
    assert loaded.state == history.state
    assert loaded.moves == history.moves
    assert loaded.deal_number == 11
    assert loaded.game is history.game
    assert loaded.start == history.start


def test_save_load_reserve_index_moves(tmp_path: Path) -> None:
    """Grand Duchess ``r1#K>fN`` moves and a redeal are saved and replayed."""
    history = History.new(kibitz.game("grand-duchess", "pysolfc"), 1)
    while history.state.pile("s"):
        history.play("deal")
    indexed = [m for m in history.state.legal_moves if m.position is not None]
    assert indexed
    history.play(indexed[0])
    history.play("deal")
    assert history.state.round == 2
    loaded = load(save(history, tmp_path / "gd.kibitz"))
    assert loaded.moves == history.moves and loaded.state == history.state
    assert f"\n{indexed[0]}\n" in (tmp_path / "gd.kibitz").read_text()


def test_save_after_undo(tmp_path: Path, kingsdown: History) -> None:
    """A record holds the moves up to the current state, not the undone ones."""
    kingsdown.undo()
    loaded = load(save(kingsdown, tmp_path / "undone.kibitz"))
    assert loaded.moves == (Move("r5", "f4"), Move("r3", "t5"))
    assert loaded.state == kingsdown.state


def test_loaded_history_can_undo(tmp_path: Path, kingsdown: History) -> None:
    """A loaded game resumes at its last move, with every move available to undo."""
    loaded = load(save(kingsdown, tmp_path / "k.kibitz"))
    assert loaded.undo() == kingsdown.undo()
    loaded.restart()
    assert loaded.state == kingsdown.start


def test_save_overwrites(tmp_path: Path, kingsdown: History) -> None:
    """Saving over a record replaces it and leaves no temporary file."""
    path = tmp_path / "game.kibitz"
    path.write_text("old content\n")
    save(kingsdown, path)
    assert path.read_text() == format_record(record_of(kingsdown))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.kibitz"]


def test_save_accepts_str_path(tmp_path: Path, kingsdown: History) -> None:
    """A path may be given as text."""
    assert load(str(save(kingsdown, str(tmp_path / "s.kibitz")))).state == kingsdown.state


@pytest.mark.parametrize("where", ["write", "replace"])
def test_failed_save_keeps_the_old_file(tmp_path: Path, kingsdown: History,
                                        monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    """A save that fails midway leaves the old record whole and no temporary file."""
    path = tmp_path / "game.kibitz"
    old = played("duchess", moves=10)
    save(old, path)
    before = path.read_bytes()

    if where == "write":
        real_fdopen = os.fdopen

        class FailingFile:
            """A file that writes part of the text, then fails."""

            def __init__(self, fd: int) -> None:
                self.file = real_fdopen(fd, "w", encoding="utf-8")

            def __enter__(self) -> FailingFile:
                return self

            def __exit__(self, *exc: object) -> None:
                self.file.close()

            def write(self, text: str) -> int:
                self.file.write(text[:20])
                self.file.flush()
                raise OSError(28, "No space left on device")

        def failing_fdopen(fd: int, *args: Any, **kwargs: Any) -> FailingFile:
            return FailingFile(fd)

        monkeypatch.setattr(os, "fdopen", failing_fdopen)
    else:
        def failing_replace(*args: Any) -> None:
            raise OSError(13, "Permission denied")

        monkeypatch.setattr(os, "replace", failing_replace)

    with pytest.raises(OSError):
        save(kingsdown, path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.kibitz"]
    monkeypatch.undo()
    assert load(path).moves == old.moves


def test_interrupted_save_keeps_the_old_file(tmp_path: Path, kingsdown: History,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Even an interrupt (not an OSError) during a save cleans up and keeps the old record."""
    path = tmp_path / "game.kibitz"
    save(played("cicely", moves=5), path)
    before = path.read_bytes()

    def interrupted(*args: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        save(kingsdown, path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.kibitz"]


# -- corrupt records -------------------------------------------------------------

def test_wrong_magic(kingsdown_text: str) -> None:
    """The first line must be the magic line."""
    for first in ("kibitz game record 2", "kibitz record", "", "# kibitz game record 1"):
        text = sealed([first] + body(kingsdown_text)[1:])
        assert refused(text).startswith("line 1:")


@pytest.mark.parametrize("dropped,name", [(1, "game"), (2, "ruleset"), (3, "rules-version"),
                                          (4, "deal"), (5, "moves")])
def test_missing_header_field(kingsdown_text: str, dropped: int, name: str) -> None:
    """A header line left out: the message names the line and the field expected there."""
    lines = body(kingsdown_text)
    del lines[dropped]
    message = refused(sealed(lines))
    assert message.startswith(f"line {dropped + 1}:")
    assert f"'{name}: ...'" in message


def test_header_fields_out_of_order(kingsdown_text: str) -> None:
    """The header fields come in a fixed order."""
    lines = body(kingsdown_text)
    lines[1], lines[2] = lines[2], lines[1]
    message = refused(sealed(lines))
    assert message.startswith("line 2:") and "'game: ...'" in message and "ruleset: standard" in message
    lines = body(kingsdown_text)
    lines[4], lines[5] = lines[5], lines[4]
    assert refused(sealed(lines)).startswith("line 5:")


def test_header_without_colon(kingsdown_text: str) -> None:
    """A header line must be ``name: value``."""
    lines = body(kingsdown_text)
    lines[4] = "deal 1"
    assert refused(sealed(lines)).startswith("line 5:")


def test_unknown_game(kingsdown_text: str) -> None:
    """An unknown game is refused on its line, listing the games."""
    lines = body(kingsdown_text)
    lines[1] = "game: freecell"
    message = refused(sealed(lines))
    assert message.startswith("line 2:")
    assert "'freecell'" in message and "kingsdown-eights" in message


def test_game_alias_accepted(kingsdown_text: str) -> None:
    """The game line may use any name of the game."""
    lines = body(kingsdown_text)
    lines[1] = "game: Kingsdown Eights"
    assert parse_record(sealed(lines)) == parse_record(kingsdown_text)


def test_unknown_ruleset(kingsdown_text: str) -> None:
    """An unknown ruleset is refused on its line, listing the rulesets."""
    lines = body(kingsdown_text)
    lines[2] = "ruleset: house"
    message = refused(sealed(lines))
    assert message.startswith("line 3:")
    assert "'house'" in message and "standard" in message and "pysolfc" in message


@pytest.mark.parametrize("version", ["2", "0", "", "one", "1.0"])
def test_other_rules_version(kingsdown_text: str, version: str) -> None:
    """A record made under another rules version is refused: its moves may mean something else."""
    lines = body(kingsdown_text)
    lines[3] = f"rules-version: {version}"
    message = refused(sealed(lines))
    assert message.startswith("line 4:") and "version" in message


@pytest.mark.parametrize("deal", ["0", "-1", "", "abc", "1.5", "1e3", "123456789012345678901", "\u0661"])
def test_bad_deal_number(kingsdown_text: str, deal: str) -> None:
    """The deal must be a positive number of at most 20 digits."""
    lines = body(kingsdown_text)
    lines[4] = f"deal: {deal}"
    message = refused(sealed(lines))
    assert message.startswith("line 5:") and "deal number" in message


@pytest.mark.parametrize("count", ["three", "", "-3", "3.0", "+3", "\u00b3", "\u0663"])
def test_non_numeric_move_count(kingsdown_text: str, count: str) -> None:
    """The move count must be a plain number (never a crash on odd digits)."""
    lines = body(kingsdown_text)
    lines[5] = f"moves: {count}"
    message = refused(sealed(lines))
    assert message.startswith("line 6:") and "move count" in message


@pytest.mark.parametrize("count,line", [("2", 9), ("4", 11), ("0", 7)])
def test_wrong_move_count(kingsdown_text: str, count: str, line: int) -> None:
    """A move count that does not match the moves: the end line is not where it should be."""
    lines = body(kingsdown_text)
    lines[5] = f"moves: {count}"
    message = refused(sealed(lines))
    assert message.startswith(f"line {line}:")


def cuts(text: str) -> list[tuple[str, int]]:
    """Places to cut ``text``: (description, length kept)."""
    lines = text.split("\n")
    start = [sum(len(line) + 1 for line in lines[:k]) for k in range(len(lines))]
    end_line = len(lines) - 2
    return [
        ("inside the magic line", 6),
        ("after the magic line", start[1]),
        ("inside the game line", start[1] + 8),
        ("inside rules-version", start[3] + 7),
        ("after the deal line", start[5]),
        ("after the header", start[6]),
        ("inside the first move", start[6] + 2),
        ("among the moves", start[7]),
        ("inside the last move", start[8] + 2),
        ("before the end line", start[end_line]),
        ("inside 'end:'", start[end_line] + 3),
        ("inside the checksum", start[end_line] + 12 + 30),
        ("one digit short", len(text) - 2),
    ]


def test_truncated_records(kingsdown_text: str) -> None:
    """A record cut anywhere before its last digit is refused, naming a line."""
    for where, keep in cuts(kingsdown_text):
        message = refused(kingsdown_text[:keep])
        assert re.match(r"line \d+: ", message), (where, message)
        if "checksum" in where or "digit" in where:
            assert message.startswith("line 10: checksum does not match"), (where, message)
        elif where in ("among the moves", "before the end line", "after the header"):
            assert "truncated" in message, (where, message)


def test_every_truncation_refused(kingsdown_text: str) -> None:
    """No proper prefix of a record (bar the final newline) parses."""
    for keep in range(len(kingsdown_text) - 1):
        with pytest.raises(RecordError):
            parse_record(kingsdown_text[:keep])


def test_truncated_file(tmp_path: Path, kingsdown_text: str) -> None:
    """Loading a cut file names the file and the line."""
    path = tmp_path / "cut.kibitz"
    path.write_text(kingsdown_text[:kingsdown_text.index("deal\n")])
    with pytest.raises(RecordError) as caught:
        load(path)
    message = str(caught.value)
    assert str(path) in message and "line 9: record is truncated" in message


@pytest.mark.parametrize("line,replacement", [(6, "r5>f8"), (7, "r8>t1"), (8, "r3>t5")])
def test_edited_move(kingsdown_text: str, line: int, replacement: str) -> None:
    """A move changed after saving (even to another legal move) breaks the checksum."""
    lines = kingsdown_text.split("\n")
    lines[line] = replacement
    message = refused("\n".join(lines))
    assert message.startswith("line 10: checksum does not match")


def test_edited_checksum(kingsdown_text: str) -> None:
    """A changed checksum digit is caught."""
    digit = kingsdown_text[-2]
    edited = kingsdown_text[:-2] + ("0" if digit != "0" else "1") + "\n"
    assert refused(edited).startswith("line 10: checksum does not match")


def test_edited_move_with_fresh_checksum_is_illegal(kingsdown_text: str) -> None:
    """An edit sealed with a recomputed checksum is caught by replaying: line and move are named."""
    lines = body(kingsdown_text)
    lines[7] = "r8>t2"
    message = refused(sealed(lines))
    assert message.startswith("line 8: move 2 (r8>t2):")
    assert message.endswith("The 2♠ can't go on the 5♥ in t2: the tableau builds down in alternating colours, "
                            "so only a black 4 goes on it.")


def test_malformed_move_with_fresh_checksum(kingsdown_text: str) -> None:
    """A move line that is no move at all is named with its line."""
    for bad in ("r3>t", "t9>t1", "", "DEAL"):
        lines = body(kingsdown_text)
        lines[6] = bad
        message = refused(sealed(lines))
        assert message.startswith("line 7:"), (bad, message)


def test_later_illegal_move(kingsdown_text: str) -> None:
    """Replaying checks every move, not only the first."""
    lines = body(kingsdown_text)
    lines[8] = "r5>f8"
    message = refused(sealed(lines))
    assert message.startswith("line 9: move 3 (r5>f8):")


@pytest.mark.parametrize("extra", ["x", "\n", "\nr1>t1", "end: sha256 0\n", "\n\n"])
def test_text_after_end_line(kingsdown_text: str, extra: str) -> None:
    """Nothing may follow the end line."""
    message = refused(kingsdown_text + extra)
    assert message.startswith(("line 10:", "line 11:")), message


def test_binary_file(tmp_path: Path) -> None:
    """A file that is not UTF-8 text is refused, naming the file."""
    path = tmp_path / "binary.kibitz"
    path.write_bytes(bytes(range(256)))
    with pytest.raises(RecordError) as caught:
        load(path)
    assert str(path) in str(caught.value) and "UTF-8" in str(caught.value)


def test_utf8_garbage(tmp_path: Path) -> None:
    """A UTF-8 file that is not a record is refused on line 1."""
    path = tmp_path / "garbage.kibitz"
    path.write_bytes(b"\x00\x01\x02 PK\x03\x04 caf\xc3\xa9\n")
    with pytest.raises(RecordError) as caught:
        load(path)
    assert "line 1: not a kibitz game record" in str(caught.value)


def test_empty_file(tmp_path: Path) -> None:
    """An empty file is refused on line 1."""
    path = tmp_path / "empty.kibitz"
    path.write_bytes(b"")
    with pytest.raises(RecordError, match="line 1"):
        load(path)


def test_missing_file(tmp_path: Path) -> None:
    """A file that does not exist is a RecordError naming it."""
    path = tmp_path / "nowhere.kibitz"
    with pytest.raises(RecordError) as caught:
        load(path)
    assert str(path) in str(caught.value) and "cannot read" in str(caught.value)


def test_directory_is_not_a_record(tmp_path: Path) -> None:
    """A folder given as a record is a RecordError, not another exception."""
    with pytest.raises(RecordError):
        load(tmp_path)


def test_failed_load_returns_nothing(tmp_path: Path, kingsdown_text: str) -> None:
    """A record whose last move is illegal is refused whole, though its first moves replay."""
    lines = body(kingsdown_text)
    lines[8] = "r5>f8"
    path = tmp_path / "bad.kibitz"
    path.write_text(sealed(lines))
    with pytest.raises(RecordError) as caught:
        load(path)
    assert "move 3 (r5>f8)" in str(caught.value)
    lines[8] = "deal"
    path.write_text(sealed(lines))
    assert len(load(path).moves) == 3


def test_record_value_replays() -> None:
    """A Record value can replay itself; an illegal move names its number."""
    game = kibitz.game("kingsdown-eights")
    good = Record(game, 1, (Move("r5", "f4"),))
    assert good.history().moves == (Move("r5", "f4"),)
    bad = Record(game, 1, (Move("r5", "f4"), Move("r5", "f8")))
    with pytest.raises(RecordError, match=r"move 2 \(r5>f8\)"):
        bad.history()


# -- hostile files: size, names, controls, editors' line ends --------------------------

def test_load_reads_no_more_than_the_size_limit_of_dev_zero() -> None:
    """/dev/zero never ends: it is refused at the size limit, not read until memory runs out."""
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    with pytest.raises(RecordError) as caught:
        load("/dev/zero")
    assert f"{records.MAX_RECORD_BYTES:,} bytes" in str(caught.value)


def test_load_stops_reading_a_pipe_at_the_size_limit(tmp_path: Path) -> None:
    """A pipe that keeps writing is read up to the limit and one byte, then refused."""
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes here")
    fifo = tmp_path / "endless.kibitz"
    os.mkfifo(fifo)
    written = 0

    def write_forever() -> None:
        nonlocal written
        chunk = b"x" * 65536
        try:
            with open(fifo, "wb") as pipe:
                while written < 4 * records.MAX_RECORD_BYTES:
                    pipe.write(chunk)
                    written += len(chunk)
        except BrokenPipeError:  # the reader closed its end: what the test expects
            pass

    writer = threading.Thread(target=write_forever, daemon=True)
    writer.start()
    with pytest.raises(RecordError, match="larger than a record can be"):
        load(fifo)
    writer.join(timeout=30)
    assert not writer.is_alive()
    assert written <= records.MAX_RECORD_BYTES + (1 << 20) + 65536  # a pipe's buffer at most, and a chunk


def test_a_file_one_byte_over_the_limit_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    kingsdown_text: str) -> None:
    """The limit is exact: a record of the limit's size loads, one byte more is refused."""
    path = tmp_path / "exact.kibitz"
    path.write_text(kingsdown_text)
    monkeypatch.setattr(records, "MAX_RECORD_BYTES", len(kingsdown_text))
    assert load(path).moves == parse_record(kingsdown_text).moves
    path.write_text(kingsdown_text + "\n")
    with pytest.raises(RecordError, match=f"more than {len(kingsdown_text):,} bytes"):
        load(path)


def test_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file that cannot be opened is a RecordError saying why (even when run as root)."""
    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(records, "open", refuse, raising=False)
    with pytest.raises(RecordError, match=r"cannot read \(Permission denied\)"):
        load(tmp_path / "locked.kibitz")


@pytest.mark.parametrize("name", ["a\0b", "game.kibitz\0", "\0"])
def test_a_file_name_with_nul_is_a_record_error(tmp_path: Path, kingsdown: History, name: str) -> None:
    """No file can have a NUL in its name: loading or saving one says so, as a RecordError."""
    with pytest.raises(RecordError, match="NUL") as caught:
        load(tmp_path / name)
    assert "\0" not in str(caught.value)
    with pytest.raises(RecordError, match="NUL"):
        save(kingsdown, tmp_path / name)
    assert list(tmp_path.iterdir()) == []


def test_save_refuses_a_record_too_large_to_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game whose record would pass the size limit is not saved (it could never be loaded),
    and the file saved before stays."""
    path = tmp_path / "long.kibitz"
    short = played("duchess", moves=2)
    save(short, path)
    before = path.read_bytes()
    monkeypatch.setattr(records, "MAX_RECORD_BYTES", len(before) + 20)
    with pytest.raises(RecordError, match="more than a record can be"):
        save(played("duchess", moves=40), path)
    assert path.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["long.kibitz"]


def test_save_refuses_to_replace_a_folder(tmp_path: Path, kingsdown: History) -> None:
    """Saving onto a folder is a RecordError; the folder and its files stay."""
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "kept.kibitz").write_text("x")
    with pytest.raises(RecordError, match="folder"):
        save(kingsdown, folder)
    assert [p.name for p in folder.iterdir()] == ["kept.kibitz"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games"]


TERMINAL_ATTACK = "\x1b]0;TITLE\x07\x1b[2J\u202e\x9b31m"
"""Sets the window title, clears the screen, reverses the text, starts a colour (C1 CSI)."""


@pytest.mark.parametrize("line", [2, 3, 4, 5, 6, 7, 9])
def test_controls_in_a_sealed_record_never_reach_the_message(kingsdown_text: str, line: int) -> None:
    """Escape sequences in any line of a record whose checksum is right are quoted escaped."""
    lines = body(kingsdown_text)
    key = lines[line - 1].partition(":")[0] + ": " if 2 <= line <= 6 else ""
    lines[line - 1] = key + TERMINAL_ATTACK
    message = refused(sealed(lines))
    assert message.startswith(f"line {line}:"), message
    assert printable(message) == message and "\\x1b" in message


def test_rules_version_with_controls_is_quoted_escaped(kingsdown_text: str, tmp_path: Path) -> None:
    """The rules-version line was quoted raw: ESC ]0; ... BEL set the terminal's title."""
    lines = body(kingsdown_text)
    lines[3] = "rules-version: " + TERMINAL_ATTACK
    path = tmp_path / "title.kibitz"
    path.write_text(sealed(lines))
    with pytest.raises(RecordError) as caught:
        load(path)
    message = str(caught.value)
    assert "line 4: record made under rules version \\x1b]0;TITLE\\x07\\x1b[2J\\u202e\\x9b31m" in message
    assert printable(message) == message


def test_file_name_with_controls_is_quoted_escaped(tmp_path: Path, kingsdown_text: str) -> None:
    """A file name is quoted escaped in every message about the file."""
    path = tmp_path / f"game{TERMINAL_ATTACK}.kibitz"
    for content in (None, b"\xff", b"", kingsdown_text[:50].encode()):
        if content is not None:
            path.write_bytes(content)
        with pytest.raises(RecordError) as caught:
            load(path)
        message = str(caught.value)
        assert printable(message) == message and "game\\x1b]0;TITLE" in message, message


def test_long_lines_are_quoted_short(kingsdown_text: str) -> None:
    """A line of a million characters is quoted by its start and its length, not whole."""
    for line in (2, 6, 7, 10):
        lines = body(kingsdown_text) + ["end: sha256 0"]
        lines[line - 1] = "x" * 1_000_000
        text = "\n".join(lines) + "\n"
        message = refused(sealed(lines[:-1]) if line < 10 else text)
        assert message.startswith(f"line {line}:") and len(message) < 300, message[:300]
        assert "1,000,000 characters" in message


@pytest.mark.parametrize("count", ["9" * 5000, "1" + "0" * 4400, "9" * 100])
def test_a_move_count_of_thousands_of_digits(kingsdown_text: str, count: str) -> None:
    """A move count of 5000 digits was converted, and Python's digit limit raised ValueError."""
    lines = body(kingsdown_text)
    lines[5] = f"moves: {count}"
    message = refused(sealed(lines))
    assert message.startswith("line 6:") and len(message) < 300, message[:300]
    assert f"{len(count) + len('moves: '):,} characters" in message or "more than a record can hold" in message


def test_a_move_count_with_leading_zeros_is_still_a_count(kingsdown_text: str) -> None:
    """Leading zeros do not count towards the bound on the move count's digits."""
    lines = body(kingsdown_text)
    lines[5] = "moves: " + "0" * 150 + "3"
    assert parse_record(sealed(lines)).moves == parse_record(kingsdown_text).moves


@pytest.mark.parametrize("move", ["t1>t2/" + "9" * 5000, "r1#" + "9" * 5000 + ">f1", "x" * 50])
def test_a_move_line_of_thousands_of_characters(kingsdown_text: str, move: str) -> None:
    """A move with a card count of 5000 digits raised ValueError: it is a RecordError on its line."""
    lines = body(kingsdown_text)
    lines[7] = move
    message = refused(sealed(lines))
    assert message.startswith("line 8:") and len(message) < 300, message[:300]


def test_parse_move_bounds_the_card_count_before_converting_it() -> None:
    """``parse_move`` checks the length of a card count before it converts it."""
    with pytest.raises(InvalidMoveError, match="out of range"):
        parse_move("t1>t2/" + "9" * 5000)


# -- byte-order marks and CRLF line ends ----------------------------------------------

@pytest.mark.parametrize("bom,newline", [("\ufeff", "\n"), ("", "\r\n"), ("\ufeff", "\r\n")],
                         ids=["bom", "crlf", "bom-crlf"])
def test_editors_bom_and_crlf_load(tmp_path: Path, bom: str, newline: str) -> None:
    """A record saved again by an editor (a byte-order mark, CRLF line ends) loads, and its
    checksum still verifies: it covers the lines joined by LF."""
    history = played("grand-duchess", "pysolfc", deal=5, moves=30, seed=2)
    text = format_record(record_of(history))
    edited = bom + text.replace("\n", newline)
    path = tmp_path / "edited.kibitz"
    path.write_bytes(edited.encode("utf-8"))
    loaded = load(path)
    assert loaded.moves == history.moves and loaded.state == history.state
    assert parse_record(edited) == parse_record(text)
    assert parse_record(edited.rstrip("\r\n")) == parse_record(text)


def test_crlf_record_still_catches_an_edit(tmp_path: Path, kingsdown_text: str) -> None:
    """CRLF line ends are forgiven; a changed move is not."""
    edited = "\ufeff" + kingsdown_text.replace("r3>t5", "r3>t6").replace("\n", "\r\n")
    assert refused(edited).startswith("line 10: checksum does not match")
    edited = kingsdown_text.replace("\n", "\r\n").replace("deal\r\n", "deal\r\r\n")
    assert refused(edited).startswith("line 10: checksum does not match")


# -- loading replays once ---------------------------------------------------------------

def test_load_replays_the_moves_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Loading parsed and replayed the record, then replayed it all again: now once."""
    history = played("kingsdown-eights", deal=3, moves=40, seed=5)
    path = save(history, tmp_path / "once.kibitz")
    calls: Counter[str] = Counter()
    for name in ("deal", "apply_unchecked", "generate_moves"):
        original = getattr(Game, name)

        def counted(*args: Any, _name: str = name, _original: Any = original, **kwargs: Any) -> Any:
            calls[_name] += 1
            return _original(*args, **kwargs)

        monkeypatch.setattr(Game, name, counted)
    loaded = load(path)
    assert loaded.moves == history.moves and loaded.state == history.state
    assert calls["deal"] == 1
    assert calls["apply_unchecked"] <= len(history.moves)
    assert calls["generate_moves"] <= len(history.moves)


def test_parse_record_still_verifies_every_move(kingsdown_text: str) -> None:
    """``parse_record`` gives a Record and refuses an illegal move with its line, as before."""
    lines = body(kingsdown_text)
    lines[8] = "r5>f8"
    assert refused(sealed(lines)).startswith("line 9: move 3 (r5>f8):")
    assert isinstance(parse_record(kingsdown_text), Record)
    assert parse_history(kingsdown_text).moves == parse_record(kingsdown_text).moves


def load_speed_script() -> Any:
    """``scripts/record_load_speed.py`` as a module (it writes the largest kind of record)."""
    path = Path(__file__).parent.parent / "scripts" / "record_load_speed.py"
    spec = importlib.util.spec_from_file_location("record_load_speed", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("slug,deal", [("cicely", 1), ("kingsdown-eights", 3)])
def test_back_and_forth_record_generates_each_move_once(monkeypatch: pytest.MonkeyPatch, slug: str,
                                                         deal: int) -> None:
    """A record that goes back and forth between two positions (the most moves a record can
    hold) works out the legal moves of each position once, and keeps one copy of each."""
    moves = 20_000
    text = load_speed_script().back_and_forth_record(slug, deal, moves)
    generated = 0
    original = Game.generate_moves

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal generated
        generated += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(Game, "generate_moves", counted)
    history = parse_history(text)
    assert history.move_count == moves and generated <= 4
    monkeypatch.undo()
    here = history.state
    history.undo()
    history.undo()
    assert history.state is here
    history.restart()
    first = history.start.apply(history.line[0])
    assert history.redo() == first and history.redo() == history.start


def test_replay_error_names_the_move() -> None:
    """``History.replay`` refuses an illegal move with its number; the moves before it replay."""
    game = kibitz.game("kingsdown-eights")
    start = game.deal(1)
    with pytest.raises(ReplayError) as caught:
        History.replay(start, [Move("r5", "f4"), Move("r5", "f8")], 1)
    assert caught.value.number == 2 and str(caught.value).startswith("move 2 (r5>f8): ")
    replayed = History.replay(start, [Move("r5", "f4"), Move("r3", "t5")], 1)
    assert replayed.state == start.apply("r5>f4").apply("r3>t5") and replayed.deal_number == 1
