"""How much the strong agent and the chance to win search: a :class:`Setting`, by name."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

Method = Literal["hybrid", "hindsight", "vote"]
METHODS: tuple[Method, ...] = ("hybrid", "hindsight", "vote")


@dataclass(frozen=True)
class Setting:
    """How much the strong agent and :func:`chance` search."""

    name: str
    samples: int
    """Deals drawn to fit the observation."""
    nodes: int
    """The solver's node budget for each search."""
    candidates: int = 3
    """Moves scored in hindsight (``method="hybrid"``)."""
    method: Method = "hybrid"

    def __post_init__(self) -> None:
        if self.samples < 1 or self.nodes < 1 or self.candidates < 1:
            raise ValueError("a setting needs at least one sample, one node and one candidate")
        if self.method not in METHODS:
            raise ValueError(f"unknown method {self.method!r}; choose one of: {', '.join(METHODS)}")

    def but(self, **changes: object) -> Setting:
        """This setting with some fields changed."""
        return replace(self, **changes)  # type: ignore[arg-type]


HINT = Setting("hint", samples=12, nodes=1_500, candidates=3)
"""The default: a hint in about a second on one core (``benchmarks/agent_speed.py``)."""
STUDY = Setting("study", samples=6, nodes=600, candidates=2)
"""Cheaper, for playing many games."""
SETTINGS = {setting.name: setting for setting in (HINT, STUDY)}

