"""Game records: a small text file that saves a game and resumes it.

::

    kibitz game record 1
    game: duchess
    ruleset: standard
    rules-version: 1
    deal: 12345
    moves: 3
    r4>f2
    deal
    w>t1
    end: sha256 5f1c...

The ``end`` line carries the SHA-256 of every line above it, so a truncated or
edited file is caught; every move is replayed through the rules on loading, so
an illegal move is caught with its line number. A record is loaded whole or not
at all.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from kibitz.deals import check_deal_number, parse_deal_number
from kibitz.errors import KibitzError, RecordError
from kibitz.history import History
from kibitz.moves import Move, parse_move
from kibitz.rules import Game

MAGIC = "kibitz game record 1"
HEADER = ("game", "ruleset", "rules-version", "deal", "moves")
MAX_RECORD_BYTES = 10_000_000


@dataclass(frozen=True)
class Record:
    """A game: which game and ruleset, the deal number and the moves played."""

    game: Game
    deal: int
    moves: tuple[Move, ...]

    def history(self, first_line: int | None = None) -> History:
        """Replay the moves into a :class:`History`; an illegal move raises :class:`RecordError`
        (naming its line when the moves start at line ``first_line`` of a file)."""
        history = History.new(self.game, self.deal)
        for k, move in enumerate(self.moves):
            try:
                history.play(move)
            except KibitzError as error:
                where = f"line {first_line + k}: " if first_line is not None else ""
                raise RecordError(f"{where}move {k + 1} ({move}): {error}") from None
        return history


def record_of(history: History) -> Record:
    """The record of a history up to its current state."""
    if history.deal_number is None:
        raise RecordError("only a game started from a deal number can be saved as a record")
    return Record(history.game, history.deal_number, history.moves)


def _checksum(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


def format_record(record: Record) -> str:
    """The text of a record, ending with a newline."""
    info = record.game.info
    lines = [MAGIC, f"game: {info.slug}", f"ruleset: {record.game.ruleset}",
             f"rules-version: {info.rules_version}", f"deal: {check_deal_number(record.deal)}",
             f"moves: {len(record.moves)}", *(str(move) for move in record.moves)]
    return "\n".join(lines + [f"end: sha256 {_checksum(lines)}"]) + "\n"


def parse_record(text: str) -> Record:
    """Parse and verify a record; every problem raises :class:`RecordError` saying what and where."""
    from kibitz.registry import find as find_info, game as find_game
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"record is {len(text)} bytes, more than a record can be ({MAX_RECORD_BYTES})")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or lines[0].strip() != MAGIC:
        raise RecordError(f"line 1: not a kibitz game record (expected {MAGIC!r})")
    header: dict[str, str] = {}
    for number, name in enumerate(HEADER, 2):
        if number > len(lines):
            raise RecordError(f"line {number}: record is truncated (expected '{name}: ...')")
        key, colon, value = lines[number - 1].partition(":")
        if not colon or key.strip() != name:
            raise RecordError(f"line {number}: expected '{name}: ...', found {lines[number - 1]!r}")
        header[name] = value.strip()
    try:
        info = find_info(header["game"])
    except KibitzError as error:
        raise RecordError(f"line 2: {error}") from None
    try:
        game = find_game(info.slug, header["ruleset"])
    except KibitzError as error:
        raise RecordError(f"line 3: {error}") from None
    if header["rules-version"] != str(game.info.rules_version):
        raise RecordError(f"line 4: record made under rules version {header['rules-version']} of "
                          f"{game.name}; this kibitz plays version {game.info.rules_version}")
    try:
        deal = parse_deal_number(header["deal"])
    except KibitzError as error:
        raise RecordError(f"line 5: {error}") from None
    if not (header["moves"].isascii() and header["moves"].isdigit()):
        raise RecordError(f"line 6: move count {header['moves']!r} is not a number")
    count = int(header["moves"])
    first_move_line = len(HEADER) + 2
    end_line = first_move_line + count
    if len(lines) < end_line:
        raise RecordError(f"line {len(lines) + 1}: record is truncated "
                          f"({len(lines) - first_move_line + 1} of {count} moves, no end line)")
    end = lines[end_line - 1]
    if not end.startswith("end: sha256 "):
        raise RecordError(f"line {end_line}: expected the end line after {count} moves, found {end!r}")
    if len(lines) > end_line:
        raise RecordError(f"line {end_line + 1}: text after the end line")
    if end.removeprefix("end: sha256 ").strip() != _checksum(lines[:end_line - 1]):
        raise RecordError(f"line {end_line}: checksum does not match; the record was changed after saving")
    moves = []
    for number in range(first_move_line, end_line):
        try:
            moves.append(parse_move(lines[number - 1]))
        except KibitzError as error:
            raise RecordError(f"line {number}: {error}") from None
    record = Record(game, deal, tuple(moves))
    record.history(first_move_line)
    return record


def save(history: History, path: str | Path) -> Path:
    """Write the record of ``history`` to ``path`` atomically (an old file is never half-overwritten)."""
    path = Path(path)
    text = format_record(record_of(history))
    folder = path.parent if str(path.parent) else Path(".")
    fd, temporary = tempfile.mkstemp(prefix=path.name, suffix=".kibitz.tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


def load(path: str | Path) -> History:
    """Read and verify a record file and return its game, at the last move played."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise RecordError(f"{path}: cannot read ({error.strerror})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RecordError(f"{path}: not a text file (byte {error.start} is not UTF-8)") from None
    try:
        return parse_record(text).history()
    except RecordError as error:
        raise RecordError(f"{path}: {error}") from None
