"""Writing a file so that an old file of that name is never left half-overwritten."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomically(path: Path, text: str, newline: str | None = None) -> None:
    """Write ``text`` (UTF-8; ``newline`` as :func:`open` takes it) to a new file beside
    ``path``, then put it in the place of ``path`` in one step; the new file is removed if
    anything fails. Raises :class:`OSError` when the folder cannot take the file."""
    folder = path.parent if str(path.parent) else Path(".")
    fd, temporary = tempfile.mkstemp(prefix=path.name, suffix=".kibitz.tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline=newline) as file:
            file.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
