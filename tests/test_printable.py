"""``printable``: text from outside made safe to show on a terminal, and ``quoted`` for messages."""

from __future__ import annotations

import pytest

from kibitz.errors import quoted
from kibitz.printable import printable


@pytest.mark.parametrize("text,shown", [
    ("\x1b]0;TITLE\x07", "\\x1b]0;TITLE\\x07"),
    ("\x1b[2J", "\\x1b[2J"),
    ("a\x00b", "a\\x00b"),
    ("\x9b31m", "\\x9b31m"),
    ("\x7f\x85", "\\x7f\\x85"),
    ("abc\u202edef", "abc\\u202edef"),
    ("\u2066\u2069\u200e\u061c", "\\u2066\\u2069\\u200e\\u061c"),
    ("\ufeffgame", "\\ufeffgame"),
    ("line\u2028two", "line\\u2028two"),
    ("one\ntwo\r\n", "one\\x0atwo\\x0d\\x0a"),
])
def test_controls_become_visible_escapes(text: str, shown: str) -> None:
    assert printable(text) == shown


def test_ordinary_text_is_left_alone() -> None:
    """Accented letters, card suits, other scripts and spaces stay as they are."""
    text = "Café ♠♥♦♣ 10♠ Ünïcödé 日本 \u0663 tab-free  spaced"
    assert printable(text) == text


def test_newlines_kept_when_asked() -> None:
    assert printable("a\x1b\nb\r\n", keep_newlines=True) == "a\\x1b\nb\\x0d\n"


def test_printable_is_idempotent() -> None:
    """Escaping escaped text changes nothing: a message may pass through it twice."""
    text = "".join(chr(code) for code in range(0, 0x3000, 7))
    once = printable(text, keep_newlines=True)
    assert printable(once, keep_newlines=True) == once and printable(printable(text)) == printable(text)


def test_quoted_cuts_long_text_and_escapes_controls() -> None:
    assert quoted("t1>f1") == "'t1>f1'"
    assert quoted("\x1b[2J") == "'\\x1b[2J'"
    long = quoted("9" * 5000)
    assert long == f"'{'9' * 40}'... (5,000 characters)"
    assert quoted("x" * 61, 60).endswith("... (61 characters)") and quoted("x" * 60, 60) == repr("x" * 60)
    assert printable(quoted("\u202e" * 100)) == quoted("\u202e" * 100)
