"""The table's clock of active play: it runs while the game is played on the table, and stops
while a page is open over it or once the game has ended; shown as m:ss (h:mm:ss past the hour),
as the browser shows it."""

from __future__ import annotations

import time
from typing import Callable


def clock_words(seconds: float) -> str:
    """``seconds`` as the status line shows them: ``4:07``, or ``1:02:07`` past the hour."""
    whole = max(0, int(seconds))
    minutes, second = divmod(whole, 60)
    if minutes < 60:
        return f"{minutes}:{second:02d}"
    hours, minute = divmod(minutes, 60)
    return f"{hours}:{minute:02d}:{second:02d}"


class PlayClock:
    """Seconds of active play, advanced by :meth:`tick` (the table calls it once a second).

    ``now``: where the time is read from, in seconds (a test drives it by hand)."""

    def __init__(self, seconds: float = 0.0, now: Callable[[], float] = time.monotonic) -> None:
        self.now = now
        self.seconds = max(0.0, seconds)
        self.last = now()
        """When the clock last looked at the time."""

    def tick(self, running: bool) -> float:
        """Count the time since the last tick if the game was being played (``running``), and
        return the seconds of play so far."""
        now = self.now()
        if running:
            self.seconds += max(0.0, now - self.last)
        self.last = now
        return self.seconds

    def set(self, seconds: float) -> None:
        """Start again from ``seconds`` (a new game, or the store's count)."""
        self.seconds = max(0.0, seconds)
        self.last = self.now()

    def words(self) -> str:
        return clock_words(self.seconds)
