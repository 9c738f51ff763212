"""Text from outside (a record, a file name, a request) made safe to print or log.

A terminal acts on control characters: ``ESC ]0;...BEL`` sets the window title,
``ESC [2J`` clears the screen, U+202E reverses what follows. :func:`printable`
shows every such character as a visible escape instead (``\\x1b``, ``\\u202e``), and
leaves all other text, accented letters and card suits included, as it is.
"""

from __future__ import annotations

import re

_UNPRINTABLE = re.compile(
    "[\x00-\x1f\x7f-\x9f"            # C0 and C1 controls, DEL
    "\u061c\u200e\u200f"             # bidirectional marks
    "\u2028\u2029"                   # line and paragraph separators
    "\u202a-\u202e\u2066-\u2069"     # bidirectional embeddings, overrides and isolates
    "\ufeff\ufff9-\ufffb]")          # byte-order mark, interlinear annotation


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` with every control character shown as an escape (``\\n`` kept if asked)."""
    if keep_newlines:
        return "\n".join(_UNPRINTABLE.sub(_escape, line) for line in text.split("\n"))
    return _UNPRINTABLE.sub(_escape, text)
