"""How much the strong agent and the chance to win search: a :class:`Setting`, by name.

A setting counts nodes, never time, so that the same observation and seed give the same
answer on any machine and under any load (with the same build). How many nodes one search
of a sampled deal gets is each game's own (a :class:`NodeTable`, by the game's family): for
the chance and the review enough that at the opening of a median deal at most one sampled
deal in ten is left undecided with the native kernel (:data:`SAMPLE_NODES`), for the strong
agent's moves what makes it play best (:data:`AGENT_NODES`); measured in ``docs/review.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from kibitz.families import Family

Method = Literal["hybrid", "hindsight", "vote"]
METHODS: tuple[Method, ...] = ("hybrid", "hindsight", "vote")

PYTHON_SAMPLE_NODES = 3_000
"""The most nodes one search of a sampled deal gets where the rules run in pure Python, some
thirty to a hundred times slower per node: the same answers would take minutes, so the pure
Python build leaves more sampled deals undecided (``docs/review.md`` says how many)."""


@dataclass(frozen=True)
class NodeTable:
    """Nodes of one search of a sampled deal, by the game's family, where the native kernel
    runs the rules; at most :data:`PYTHON_SAMPLE_NODES` where they run in pure Python."""

    by_family: tuple[tuple[Family, int], ...]
    default: int
    """For a game of no family named."""

    def __post_init__(self) -> None:
        if self.default < 1 or any(nodes < 1 for _, nodes in self.by_family):
            raise ValueError("a search needs at least one node")

    def nodes(self, family: Family | None, native: bool) -> int:
        """The nodes of one search of a sampled deal of a game of ``family`` whose rules run in
        the native kernel (``native``) or in pure Python."""
        nodes = dict(self.by_family).get(family, self.default) if family is not None else self.default
        return nodes if native else min(nodes, PYTHON_SAMPLE_NODES)

    def scaled(self, factor: int) -> NodeTable:
        """This table with ``factor`` times the nodes for every family."""
        return NodeTable(tuple((family, nodes * factor) for family, nodes in self.by_family), self.default * factor)


SAMPLE_NODES = NodeTable(((Family.GRAND_DUCHESS, 20_000), (Family.DUCHESS, 20_000), (Family.TOURNAMENT, 20_000),
                          (Family.CICELY, 50_000), (Family.KINGSDOWN_EIGHTS, 100_000)), 20_000)
"""For the chance to win and the review: the least of 5,000, 20,000, 50,000 and 100,000 nodes
that decides at least nine sampled deals in ten at the opening of a median deal, with room
to spare (``docs/review.md``)."""
AGENT_NODES = NodeTable(((Family.GRAND_DUCHESS, 700), (Family.DUCHESS, 20_000), (Family.TOURNAMENT, 20_000),
                         (Family.CICELY, 700), (Family.KINGSDOWN_EIGHTS, 100_000)), 700)
"""For the strong agent's own moves (the hint and study settings): the sample budget where it
makes the agent stronger, 700 nodes where it does not. Grand Duchess and Parisienne leave no
sample undecided with 700 already; Cicely played worse with 50,000 (more moves that keep
every sample won and make no progress: 14 wins of 20 against 20), ``docs/review.md``."""


@dataclass(frozen=True)
class Setting:
    """How much the strong agent and the chance to win search.

    Deals are drawn and solved from the position one at a time: at least ``least`` of them,
    then more while the searches have used fewer than ``spend`` searches' worth of nodes in
    all, up to ``samples``. Where the solver decides deals quickly, more are drawn; where it
    struggles, fewer; every count is of nodes, so the same observation and seed give the
    same answer on any machine (with the same build).
    """

    name: str
    samples: int
    """The most deals drawn to fit the observation."""
    nodes: int | NodeTable = SAMPLE_NODES
    """The solver's node budget for each search: a number, or each game's own."""
    least: int = 1
    """The fewest deals drawn."""
    spend: float | None = None
    """Nodes the searches from the position may use in all before no more deals are drawn,
    counted in searches' worth (``spend * nodes``; ``None``: always ``samples`` deals)."""
    candidates: int = 2
    """Moves scored in hindsight (``method="hybrid"``)."""
    method: Method = "hybrid"

    def __post_init__(self) -> None:
        if not 1 <= self.least <= self.samples or (isinstance(self.nodes, int) and self.nodes < 1) \
                or self.candidates < 1:
            raise ValueError("a setting needs 1 <= least <= samples deals, a node and a candidate")
        if self.spend is not None and not self.spend > 0:
            raise ValueError("a setting's spend must be positive")
        if self.method not in METHODS:
            raise ValueError(f"unknown method {self.method!r}; choose one of: {', '.join(METHODS)}")

    def but(self, **changes: object) -> Setting:
        """This setting with some fields changed."""
        return replace(self, **changes)  # type: ignore[arg-type]

    def scaled(self, factor: int) -> Setting:
        """This setting with ``factor`` times the nodes for each search of a sampled deal (the
        same samples, least, spend and candidates, so the searches from a position may use
        ``factor`` times the nodes in all), named ``study*10`` (:func:`scaled_name`); itself at 1.
        Where the rules run in pure Python each search still gets at most
        :data:`PYTHON_SAMPLE_NODES`."""
        if factor < 1:
            raise ValueError(f"a budget factor is a whole number from 1, not {factor}")
        if factor == 1:
            return self
        nodes = self.nodes * factor if isinstance(self.nodes, int) else self.nodes.scaled(factor)
        return replace(self, name=scaled_name(self.name, factor), nodes=nodes)

    def nodes_for(self, family: Family | None, native: bool) -> int:
        """The node budget of each search of a deal of a game of ``family`` whose rules run in
        the native kernel (``native``) or in pure Python."""
        return self.nodes if isinstance(self.nodes, int) else self.nodes.nodes(family, native)

    def budget_for(self, family: Family | None, native: bool) -> int | None:
        """Nodes the searches from a position may use in all (``None``: no bound)."""
        return None if self.spend is None else max(1, round(self.spend * self.nodes_for(family, native)))

    def as_dict(self) -> dict[str, object]:
        return {"name": self.name, "samples": self.samples, "least": self.least,
                "nodes": self.nodes if isinstance(self.nodes, int) else "the game's own",
                "spend": self.spend, "candidates": self.candidates, "method": self.method}


BUDGET_MARK = "*"
"""Between a setting's name and its budget factor: ``study*10``."""


def scaled_name(name: str, factor: int) -> str:
    """The name of setting ``name`` at ``factor`` times its nodes: ``study*10``; ``name`` at 1."""
    return name if factor == 1 else f"{name}{BUDGET_MARK}{factor}"


def budget_of(name: str) -> tuple[str, int]:
    """A setting's name split into the name it was scaled from and its budget factor:
    ``study*10`` gives ``("study", 10)``, ``study`` gives ``("study", 1)``."""
    base, mark, factor = name.rpartition(BUDGET_MARK)
    return (base, int(factor)) if mark and factor.isdigit() and factor.isascii() else (name, 1)


HINT = Setting("hint", samples=24, least=6, nodes=AGENT_NODES, spend=7, candidates=2)
"""The default: a hint in about a second on one core (``benchmarks/agent_speed.py``)."""
STUDY = Setting("study", samples=12, least=4, nodes=AGENT_NODES, spend=5, candidates=2)
"""Cheaper, for playing many games."""
SETTINGS = {setting.name: setting for setting in (HINT, STUDY)}
"""The strong agent's settings, by name."""
CHANCE = Setting("chance", samples=40, least=10, spend=28)
"""The chance to win from here (:func:`kibitz.agents.chance`): up to 40 deals, at least 10,
drawn until their searches have used 28 searches' worth of nodes; bounded by nodes, not time,
so that the same position, game so far and seed give the same chance on any machine and
under any load."""
