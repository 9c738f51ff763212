"""A seeded sweep of hostile record files: valid records of several games, mutated.

Each mutation is loaded from a file. ``records.load`` must either return a history equal to a
fresh replay of its moves, or raise :class:`RecordError` with a message free of raw control
characters; any other exception fails the sweep, naming the seed and the mutation.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from pathlib import Path
from typing import Callable

import pytest

import kibitz
from kibitz import records
from kibitz.errors import RecordError
from kibitz.history import History
from kibitz.printable import printable

BASES = [("duchess", "standard", 7, 60), ("grand-duchess", "pysolfc", 3, 80), ("cicely", "standard", 11, 50),
         ("kingsdown-eights", "pysolfc", 2, 70), ("tournament", "standard", 5, 40), ("parisienne", "standard", 1, 0)]
"""(game, ruleset, deal, random moves) of the records mutated."""

ESCAPES = ["\x1b]0;TITLE\x07", "\x1b[2J", "\x1b[31m", "\u202e", "\x9b2J", "\x00", "\x07", "\r", "\x0b",
           "\x85", "\u2028", "\ufeff", "\x7f", "\x1b]8;;http://example.invalid\x1b\\"]
"""Control characters and escape sequences a hostile record might hold."""

HUGE_NUMBERS = ["9" * 5000, "1" + "0" * 4400, "0" * 5000 + "3", "99999999999999999999", "100000000000000000000",
                "18446744073709551616", "-1", "0", "+3", "3.0", "1e9", "\u0663", "\uff13", "3" * 9]

MUTATIONS = 3000


def played_record(slug: str, ruleset: str, deal: int, moves: int, folder: Path) -> tuple[bytes, History]:
    """The bytes of a saved record of ``moves`` random legal moves (seeded by the deal), and its game."""
    history = History.new(kibitz.game(slug, ruleset), deal)
    rng = random.Random(deal)
    for _ in range(moves):
        legal = history.state.legal_moves
        if not legal:
            break
        history.play(rng.choice(legal))
    path = records.save(history, folder / f"{slug}-{ruleset}-{deal}.kibitz")
    return path.read_bytes(), history


def reseal(data: bytes) -> bytes:
    """``data`` with its end line replaced by one whose checksum is right, so that only the
    header checks and the replay can refuse it (invalid UTF-8 stays as it is)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if lines and lines[-1].startswith("end:"):
        lines.pop()
    digest = hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()
    return "\n".join(lines + [f"end: sha256 {digest}"]).encode("utf-8") + b"\n"


def lines_of(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def joined(lines: list[bytes]) -> bytes:
    return b"\n".join(lines)


Mutation = Callable[[random.Random, bytes], bytes]


def flip_bytes(rng: random.Random, data: bytes) -> bytes:
    if not data:
        return b"\x80"
    changed = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        changed[rng.randrange(len(changed))] ^= 1 << rng.randrange(8)
    return bytes(changed)


def truncate(rng: random.Random, data: bytes) -> bytes:
    return data[:rng.randrange(len(data) + 1)]


def duplicate_line(rng: random.Random, data: bytes) -> bytes:
    lines = lines_of(data)
    k = rng.randrange(len(lines))
    return joined(lines[:k + 1] + [lines[k]] + lines[k + 1:])


def remove_line(rng: random.Random, data: bytes) -> bytes:
    lines = lines_of(data)
    del lines[rng.randrange(len(lines))]
    return joined(lines)


def swap_lines(rng: random.Random, data: bytes) -> bytes:
    lines = lines_of(data)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return joined(lines)


def swap_moves(rng: random.Random, data: bytes) -> bytes:
    """Two move lines exchanged: each move is still a move, most are no longer legal there."""
    lines = lines_of(data)
    moves = range(6, len(lines) - 2)
    if len(moves) < 2:
        return swap_lines(rng, data)
    i, j = rng.sample(moves, 2)
    lines[i], lines[j] = lines[j], lines[i]
    return joined(lines)


def insert_controls(rng: random.Random, data: bytes) -> bytes:
    at = rng.randrange(len(data) + 1)
    return data[:at] + rng.choice(ESCAPES).encode("utf-8") + data[at:]


def controls_in_a_line(rng: random.Random, data: bytes) -> bytes:
    """A header value or a move replaced by escape sequences (the header names kept)."""
    lines = lines_of(data)
    if len(lines) < 3:
        return insert_controls(rng, data)
    k = rng.randrange(1, len(lines) - 1)
    key = lines[k].partition(b":")[0] + b": " if k < 6 else b""
    lines[k] = key + "".join(rng.choices(ESCAPES, k=rng.randint(1, 3))).encode("utf-8")
    return joined(lines)


def huge_number(rng: random.Random, data: bytes) -> bytes:
    """The ``moves:`` or ``deal:`` or ``rules-version:`` value, or a move's count or index,
    replaced by a huge or odd number."""
    lines = lines_of(data)
    number = rng.choice(HUGE_NUMBERS).encode("utf-8")
    where = rng.choice(["moves", "deal", "rules-version", "move"])
    if where == "move" and len(lines) > 8:
        k = rng.randrange(6, len(lines) - 2)
        lines[k] = rng.choice([b"t1>t2/", b"r1#", b"t3>f1/"]) + number + (b">f1" if lines[k] == b"r1#" else b"")
    else:
        k = {"rules-version": 3, "deal": 4}.get(where, 5)
        lines += [b""] * (k + 1 - len(lines))
        lines[k] = where.encode() + b": " + number
    return joined(lines)


def invalid_utf8(rng: random.Random, data: bytes) -> bytes:
    at = rng.randrange(len(data) + 1)
    return data[:at] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80\x80"]) + data[at:]


def nul_bytes(rng: random.Random, data: bytes) -> bytes:
    at = rng.randrange(len(data) + 1)
    return data[:at] + b"\0" * rng.randint(1, 3) + data[at:]


def bom_and_crlf(rng: random.Random, data: bytes) -> bytes:
    """What an editor may do to a record: a byte-order mark, CRLF line ends, or both."""
    kind = rng.randrange(3)
    if kind != 1:
        data = b"\xef\xbb\xbf" + data
    if kind != 0:
        data = data.replace(b"\n", b"\r\n")
    return data


def other_move(rng: random.Random, data: bytes) -> bytes:
    """A move line replaced by another move in notation (legal somewhere, rarely here)."""
    lines = lines_of(data)
    if len(lines) <= 8:
        return huge_number(rng, data)
    k = rng.randrange(6, len(lines) - 2)
    pile = rng.choice(["s", "w", *(f"{kind}{n}" for kind in "ftr" for n in range(1, 9))])
    target = rng.choice([f"{kind}{n}" for kind in "ftr" for n in range(1, 9)])
    lines[k] = rng.choice(["deal", f"{pile}>{target}", f"{pile}>{target}/{rng.randint(1, 13)}",
                           f"{pile}#{rng.randint(0, 30)}>{target}", f"  {pile}>{target}  "]).encode()
    return joined(lines)


def garbage_line(rng: random.Random, data: bytes) -> bytes:
    lines = lines_of(data)
    k = rng.randrange(len(lines))
    alphabet = "abcdeft123456789>#/: \t" + "é♠\u0663\U0001f0a1" + "".join(ESCAPES)
    lines[k] = "".join(rng.choices(alphabet, k=rng.choice([1, 5, 40, 300, 70_000]))).encode("utf-8")
    return joined(lines)


def tail_changes(rng: random.Random, data: bytes) -> bytes:
    """The end line dropped or doubled, text after it, or the final newline lost."""
    kind = rng.randrange(4)
    if kind == 0:
        return data.rstrip(b"\n").rpartition(b"\n")[0] + b"\n"
    if kind == 1:
        return data + data.rstrip(b"\n").rpartition(b"\n")[2] + b"\n"
    if kind == 2:
        return data + rng.choice([b"\n", b"x", b"\n\n", b"r1>t1\n"])
    return data.rstrip(b"\n")


MUTATORS: list[Mutation] = [flip_bytes, truncate, duplicate_line, remove_line, swap_lines, swap_moves,
                            insert_controls, controls_in_a_line, huge_number, invalid_utf8, nul_bytes,
                            bom_and_crlf, other_move, garbage_line, tail_changes]


def replayed_afresh(history: History) -> History:
    """The moves of ``history`` played one by one from a fresh deal, as a player would."""
    assert history.deal_number is not None
    fresh = History.new(history.game, history.deal_number)
    for move in history.moves:
        fresh.play(move)
    return fresh


def test_hostile_record_sweep(tmp_path: Path) -> None:
    """Many mutated records: each loads as a fresh replay of its moves, or is refused with a
    RecordError whose message holds no raw control character; never another exception."""
    rng = random.Random(20240601)
    bases = [played_record(*base, folder=tmp_path) for base in BASES]
    outcomes: Counter[str] = Counter()
    path = tmp_path / "mutated.kibitz"
    for number in range(MUTATIONS):
        data, original = bases[number % len(bases)]
        steps = [rng.choice(MUTATORS) for _ in range(rng.choice([1, 1, 1, 2, 3]))]
        for mutate in steps:
            data = mutate(rng, data)
        sealed = rng.random() < 0.5
        if sealed:
            data = reseal(data)
        path.unlink(missing_ok=True)  # a fresh file: rewriting one in place can wait on the disk
        path.write_bytes(data)
        what = f"mutation {number}: {'+'.join(m.__name__ for m in steps)}{' resealed' if sealed else ''}"
        try:
            loaded = records.load(path)
        except RecordError as error:
            message = str(error)
            assert printable(message) == message, (what, message)
            assert len(message) < 1000, (what, message[:1000])
            outcomes["replay" if " move " in message and "(" in message else
                      "checksum" if "checksum" in message else "refused"] += 1
            continue
        fresh = replayed_afresh(loaded)
        assert (loaded.start, loaded.state, loaded.moves) == (fresh.start, fresh.state, fresh.moves), what
        if steps == [bom_and_crlf]:
            assert loaded.moves == original.moves and loaded.state == original.state, what
        outcomes["loaded"] += 1
    # The sweep reached every outcome: records loaded, refused by the checksum, by the replay
    # of a move, and by the other checks.
    assert all(outcomes[kind] >= 10 for kind in ("loaded", "checksum", "replay", "refused")), outcomes


@pytest.mark.parametrize("slug,ruleset,deal", [base[:3] for base in BASES[:3]])
def test_every_single_byte_flip_of_a_record_is_caught(tmp_path: Path, slug: str, ruleset: str,
                                                      deal: int) -> None:
    """Flipping any one bit of a short record's bytes gives a RecordError (the checksum, or a
    line no longer a record's) or, where the flip makes no difference to the text read, the
    same game."""
    data, original = played_record(slug, ruleset, deal, 6, tmp_path)
    rng = random.Random(deal)
    path = tmp_path / "flipped.kibitz"
    for at in range(len(data)):
        changed = bytearray(data)
        changed[at] ^= 1 << rng.randrange(8)
        path.unlink(missing_ok=True)
        path.write_bytes(bytes(changed))
        try:
            loaded = records.load(path)
        except RecordError as error:
            assert printable(str(error)) == str(error)
            continue
        # Only flips that leave the meaning alone may load: spacing around a header value.
        assert loaded.moves == original.moves and loaded.state == original.state, (at, bytes(changed))
