"""The game's average: the share of its deals the solver wins from the opening, seeing every
card (``kibitz/data/winnability.json``, written from the rows kept for ``docs/winnability.md``
by ``kibitz report --pages docs``). It is what
the fair chance at a deal's first move comes to on average over the deals, so a review shows
it beside that chance, the deal's luck."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from kibitz.errors import KibitzError

FORMAT = "kibitz-winnability"


@dataclass(frozen=True)
class Average:
    """How many of a game's studied deals the solver won, proved lost and left undecided."""

    deals: int
    won: int
    lost: int
    unknown: int

    @property
    def share(self) -> float:
        """The share of the decided deals that were won."""
        decided = self.won + self.lost
        return self.won / decided if decided else 0.0

    def as_dict(self) -> dict[str, object]:
        return {"deals": self.deals, "won": self.won, "lost": self.lost, "unknown": self.unknown,
                "share": round(self.share, 6)}


@lru_cache(maxsize=None)
def _averages() -> dict[tuple[str, str], Average]:
    text = (resources.files("kibitz") / "data" / "winnability.json").read_text("utf-8")
    data = json.loads(text)
    if data.get("format") != FORMAT:
        raise KibitzError(f"kibitz/data/winnability.json is not a {FORMAT} file")
    return {(line["game"], line["ruleset"]): Average(line["deals"], line["won"], line["lost"], line["unknown"])
            for line in data["lines"]}


def average(slug: str, ruleset: str) -> Average | None:
    """The studied winnability of game ``slug`` in ``ruleset`` (``None``: not studied)."""
    return _averages().get((slug, ruleset))
