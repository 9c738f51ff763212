"""How much the strong agent and the chance to win search: a :class:`Setting`, by name."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

Method = Literal["hybrid", "hindsight", "vote"]
METHODS: tuple[Method, ...] = ("hybrid", "hindsight", "vote")


@dataclass(frozen=True)
class Setting:
    """How much the strong agent and the chance to win search.

    Deals are drawn and solved from the position one at a time: at least ``least`` of them,
    then more while the searches have used fewer than ``budget`` nodes in all, up to
    ``samples``. Where the solver decides deals quickly, more are drawn; where it struggles,
    fewer; every count is of nodes, so the same observation and seed give the same answer on
    any machine.
    """

    name: str
    samples: int
    """The most deals drawn to fit the observation."""
    nodes: int
    """The solver's node budget for each search."""
    least: int = 1
    """The fewest deals drawn."""
    budget: int | None = None
    """Nodes the searches from the position may use in all before no more deals are drawn
    (``None``: always ``samples`` deals)."""
    candidates: int = 2
    """Moves scored in hindsight (``method="hybrid"``)."""
    method: Method = "hybrid"

    def __post_init__(self) -> None:
        if not 1 <= self.least <= self.samples or self.nodes < 1 or self.candidates < 1:
            raise ValueError("a setting needs 1 <= least <= samples deals, a node and a candidate")
        if self.budget is not None and self.budget < 1:
            raise ValueError("a setting's node budget must be positive")
        if self.method not in METHODS:
            raise ValueError(f"unknown method {self.method!r}; choose one of: {', '.join(METHODS)}")

    def but(self, **changes: object) -> Setting:
        """This setting with some fields changed."""
        return replace(self, **changes)  # type: ignore[arg-type]

    def as_dict(self) -> dict[str, object]:
        return {"name": self.name, "samples": self.samples, "least": self.least, "nodes": self.nodes,
                "budget": self.budget, "candidates": self.candidates, "method": self.method}


HINT = Setting("hint", samples=24, least=6, nodes=700, budget=5_000, candidates=2)
"""The default: a hint in about a second on one core (``benchmarks/agent_speed.py``)."""
STUDY = Setting("study", samples=12, least=4, nodes=600, budget=3_000, candidates=2)
"""Cheaper, for playing many games."""
SETTINGS = {setting.name: setting for setting in (HINT, STUDY)}
"""The strong agent's settings, by name."""
CHANCE = Setting("chance", samples=40, least=10, nodes=700, budget=20_000)
"""The chance to win from here (:func:`kibitz.agents.chance`): up to 40 deals, at least 10,
drawn until their searches have used 20,000 nodes; bounded by nodes, not time, so that the
same position, game so far and seed give the same chance on any machine and under any load."""
