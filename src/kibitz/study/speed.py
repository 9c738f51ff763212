"""The machine's speed on a fixed workload, measured at the start and the end of each study
run and stored with its results, so that studies run on different days or machines can be
compared: a time limit buys a slower machine fewer positions.

The workload is a node-limited search of two fixed deals that no limit of it decides
(Kingsdown Eights deal 922, Duchess deal 1154 under the pysolfc rules): the same positions
are searched on every machine by one solver version and build, and the speed is the nodes
searched per second of the process's processor time.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

WORKLOAD = (("kingsdown-eights", "standard", 922), ("duchess", "pysolfc", 1154))
"""The deals searched: game, ruleset, deal."""
NODES = {"native": 300_000, "python": 6_000}
"""Nodes searched per deal of the workload, by the build of the rules in use (about a
third of a second for the whole workload either way)."""
MOMENTS = ("start", "end")


@dataclass(frozen=True)
class Speed:
    """One measure: nodes searched in the workload and the processor seconds they took."""

    nodes: int
    seconds: float
    build: str
    """``native`` or ``python``: the rules the search ran on."""

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


def measure() -> Speed:
    """Search the workload once in this process and time it on the processor clock."""
    import kibitz
    from kibitz import native
    from kibitz.solver import Limits, solve
    build = native.build_of(kibitz.game(*WORKLOAD[0][:2]))
    nodes, seconds = 0, 0.0
    for game, ruleset, deal in WORKLOAD:
        state = kibitz.game(game, ruleset).deal(deal)
        started = time.process_time()
        result = solve(state, Limits(nodes=NODES[build], clock="cpu"))
        seconds += time.process_time() - started
        nodes += result.nodes
    return Speed(nodes, seconds, build)
