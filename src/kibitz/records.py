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
at all, and never read beyond :data:`MAX_RECORD_BYTES`. A byte-order mark and CRLF
line ends, which editors may add, are read as if absent.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from kibitz.deals import check_deal_number, parse_deal_number
from kibitz.errors import KibitzError, RecordError, quoted
from kibitz.files import write_atomically
from kibitz.history import History, ReplayError
from kibitz.moves import Move, parse_move
from kibitz.printable import printable
from kibitz.registry import find as find_info, game as find_game
from kibitz.rules import Game

MAGIC = "kibitz game record 1"
HEADER = ("game", "ruleset", "rules-version", "deal", "moves")
FIRST_MOVE_LINE = len(HEADER) + 2
"""The line of a record's first move."""
MAX_RECORD_BYTES = 10_000_000
"""The largest record read or written, in bytes (some 1.6 million moves)."""
MAX_HEADER_LINE = 200
"""The longest header line read, in characters (a game's name is far shorter)."""
MAX_MOVE_LINE = 40
"""The longest move line read, in characters (``r1#123>f8`` has 9)."""


@dataclass(frozen=True)
class Record:
    """A game: which game and ruleset, the deal number and the moves played."""

    game: Game
    deal: int
    moves: tuple[Move, ...]

    def history(self, first_line: int | None = None) -> History:
        """Replay the moves into a :class:`History`; an illegal move raises :class:`RecordError`
        (naming its line when the moves start at line ``first_line`` of a file)."""
        try:
            return History.replay(self.game.deal(self.deal), self.moves, self.deal)
        except ReplayError as error:
            where = f"line {first_line + error.number - 1}: " if first_line is not None else ""
            raise RecordError(f"{where}{error}") from None


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
    record = _read_record(text)
    record.history(FIRST_MOVE_LINE)
    return record


def parse_history(text: str) -> History:
    """Parse and verify a record and return its game at the last move played (each move is
    replayed once, for the check and the history alike)."""
    return _read_record(text).history(FIRST_MOVE_LINE)


def _read_record(text: str) -> Record:
    """The record in ``text``, its moves not replayed yet; :class:`RecordError` for any other problem.

    A byte-order mark at the start and CRLF line ends (an editor's) are read as if absent;
    the checksum covers the lines joined by LF. The moves are read a block of lines at a
    time: a record of a million moves never becomes a list of a million lines.
    """
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"record is {len(text):,} characters, more than a record can be "
                          f"({MAX_RECORD_BYTES:,} bytes)")
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").removesuffix("\n")
    lines = text.split("\n", FIRST_MOVE_LINE - 1)
    rest = lines.pop() if len(lines) == FIRST_MOVE_LINE else None  # the moves and the end line
    if not lines or lines[0].strip() != MAGIC:
        raise RecordError(f"line 1: not a kibitz game record (expected {MAGIC!r})")
    header: dict[str, str] = {}
    for number, name in enumerate(HEADER, 2):
        if number > len(lines):
            raise RecordError(f"line {number}: record is truncated (expected '{name}: ...')")
        line = lines[number - 1]
        if len(line) > MAX_HEADER_LINE:
            raise RecordError(f"line {number}: {quoted(line, 60)} is too long for a '{name}: ...' line "
                              f"(at most {MAX_HEADER_LINE} characters)")
        key, colon, value = line.partition(":")
        if not colon or key.strip() != name:
            raise RecordError(f"line {number}: expected '{name}: ...', found {quoted(line, 60)}")
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
        raise RecordError(f"line 4: record made under rules version {printable(header['rules-version'])} "
                          f"of {game.name}; this kibitz plays version {game.info.rules_version}")
    try:
        deal = parse_deal_number(header["deal"])
    except KibitzError as error:
        raise RecordError(f"line 5: {error}") from None
    digits = header["moves"]
    if not (digits.isascii() and digits.isdigit()):
        raise RecordError(f"line 6: move count {quoted(digits)} is not a number")
    significant = digits.lstrip("0")  # int() refuses thousands of digits, leading zeros too
    if len(significant) > len(str(MAX_RECORD_BYTES)):
        raise RecordError(f"line 6: move count {quoted(digits)} is more than a record can hold")
    count = int(significant or "0")
    end_line = FIRST_MOVE_LINE + count
    line_count = len(lines) + (0 if rest is None else rest.count("\n") + 1)
    if line_count < end_line:
        raise RecordError(f"line {line_count + 1}: record is truncated "
                          f"({line_count - FIRST_MOVE_LINE + 1} of {count} moves, no end line)")
    if line_count > end_line:
        end = text.split("\n")[end_line - 1]
    else:
        assert rest is not None
        moves_text, _, end = rest.rpartition("\n")
    if not end.startswith("end: sha256 "):
        raise RecordError(f"line {end_line}: expected the end line after {count} moves, found {quoted(end, 60)}")
    if line_count > end_line:
        raise RecordError(f"line {end_line + 1}: text after the end line")
    above_end = text[:len(text) - len(end) - 1]
    if end.removeprefix("end: sha256 ").strip() != hashlib.sha256(above_end.encode("utf-8")).hexdigest():
        raise RecordError(f"line {end_line}: checksum does not match; the record was changed after saving")
    moves = _parse_moves(_lines(moves_text), FIRST_MOVE_LINE) if count else []
    return Record(game, deal, tuple(moves))


def _lines(text: str, block: int = 1 << 20) -> Iterator[str]:
    """The lines of ``text`` (split at LF), split a block of about ``block`` characters at a time."""
    start = 0
    while (cut := text.find("\n", start + block)) >= 0:
        yield from text[start:cut].split("\n")
        start = cut + 1
    yield from text[start:].split("\n")


def _parse_moves(lines: Iterable[str], first_line: int) -> list[Move]:
    """The moves of ``lines`` (the first at line ``first_line``); each distinct line is parsed
    once, so that a long record shares a few move values."""
    parsed: dict[str, Move] = {}
    moves: list[Move] = []
    for number, line in enumerate(lines, first_line):
        move = parsed.get(line)
        if move is None:
            if len(line) > MAX_MOVE_LINE:
                raise RecordError(f"line {number}: {quoted(line, 60)} is not a move (too long)")
            try:
                move = parse_move(line)
            except KibitzError as error:
                raise RecordError(f"line {number}: {error}") from None
            parsed[line] = move
        moves.append(move)
    return moves


def _has_nul(path: Path) -> bool:
    return "\0" in str(path)


def save(history: History, path: str | Path) -> Path:
    """Write the record of ``history`` to ``path`` atomically (an old file is never half-overwritten).

    A name that cannot be a file's, a folder or device in the way, and a game too long to load
    again raise :class:`RecordError`; a failed write raises :class:`OSError`.
    """
    path = Path(path)
    name = printable(str(path))
    if _has_nul(path):
        raise RecordError(f"{name}: cannot write (a file name cannot hold a NUL character)")
    record = record_of(history)
    text = format_record(record)
    size = len(text.encode("utf-8"))
    if size > MAX_RECORD_BYTES:
        raise RecordError(f"{name}: not saved: the record of {len(record.moves):,} moves would be "
                          f"{size:,} bytes, more than a record can be ({MAX_RECORD_BYTES:,})")
    if path.exists() and not path.is_file():
        raise RecordError(f"{name}: cannot write (it is a folder or a device, not a record file)")
    write_atomically(path, text)
    return path


def _read(path: Path) -> bytes:
    """The bytes of the file at ``path``: at most one more than :data:`MAX_RECORD_BYTES` (enough
    for :func:`history_of_file` to refuse a larger file, or device, or pipe)."""
    name = printable(str(path))
    if _has_nul(path):
        raise RecordError(f"{name}: cannot read (a file name cannot hold a NUL character)")
    try:
        with open(path, "rb") as file:
            raw = file.read(MAX_RECORD_BYTES + 1)
    except OSError as error:
        raise RecordError(f"{name}: cannot read ({printable(error.strerror or str(error))})") from None
    return raw


def load(path: str | Path) -> History:
    """Read and verify a record file and return its game, at the last move played."""
    path = Path(path)
    return history_of_file(_read(path), printable(str(path)))


def history_of_file(raw: bytes, name: str) -> History:
    """Verify the bytes of a record file called ``name`` (as shown in a refusal) and return its
    game, at the last move played: what :func:`load` checks once the file is read, for a file
    that arrives otherwise (sent to the browser player). Every problem raises :class:`RecordError`
    naming the file and, when it lies in a line, the line."""
    if len(raw) > MAX_RECORD_BYTES:
        raise RecordError(f"{name}: larger than a record can be (more than {MAX_RECORD_BYTES:,} bytes)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RecordError(f"{name}: not a text file (byte {error.start} is not UTF-8)") from None
    try:
        return parse_history(text)
    except RecordError as error:
        raise RecordError(f"{name}: {error}") from None
