"""Agents that see only what a player sees, and the chance to win from here.

An agent is given an :class:`Observation` (made from a state by :func:`observe`, the
referee's side) and a :class:`random.Random`, and returns a legal move; the same
observation and seed give the same move. The agents, by name (:data:`AGENTS`):

- ``random``: uniform among the legal moves;
- ``greedy``: safe moves first, then a one-move evaluation (:mod:`kibitz.agents.greedy`);
- ``strong``: searches deals sampled to fit the observation (:mod:`kibitz.agents.strong`).

:func:`chance` estimates the chance to win from here from the same samples. The agents are
imported when first asked for, so that importing this package does not load the solver.

>>> import random, kibitz
>>> from kibitz.agents import agent, observe
>>> state = kibitz.game("duchess").deal(1)
>>> move = agent("greedy").choose(observe(state), random.Random(0))
>>> move in state.legal_moves
True
"""

from __future__ import annotations

import random

from kibitz.agents.base import Agent, Chance, Decision, NoMoveError
from kibitz.agents.observation import Observation, observe
from kibitz.agents.setting import CHANCE, HINT, SETTINGS, STUDY, Setting
from kibitz.errors import KibitzError

AGENTS = ("random", "greedy", "strong")
"""Every agent by name; only ``strong`` uses the :class:`Setting` it is made with."""
SEARCHING = ("strong",)
"""The agents that search with the solver: their moves also depend on the solver's version."""
AGENT_VERSIONS: dict[str, int] = {"random": 1, "greedy": 1, "strong": 3}
"""Each agent's version, bumped whenever a change to that agent, its setting or the play-out
could alter the moves it plays; stored with every game the odds play
(:mod:`kibitz.study.odds`), so that the games of a changed agent are never counted with the
old ones. Strong 2: its samples keep the cards the player saw earlier in the game
(:func:`kibitz.agents.sampling.remembered`). Strong 3: each search of a sampled deal gets the
game's own node budget (:data:`kibitz.agents.setting.SAMPLE_NODES`), where it got 600 or 700
nodes in every game."""


class UnknownAgentError(KibitzError):
    """No agent has that name."""


def agent(name: str, setting: Setting = HINT) -> Agent:
    """The agent named ``name`` (one of :data:`AGENTS`)."""
    if name == "random":
        from kibitz.agents.uniform import RandomAgent
        return RandomAgent()
    if name == "greedy":
        from kibitz.agents.greedy import GreedyAgent
        return GreedyAgent()
    if name == "strong":
        from kibitz.agents.strong import StrongAgent
        return StrongAgent(setting)
    raise UnknownAgentError(f"unknown agent {name!r}; the agents are: {', '.join(AGENTS)}")


def chance(observation: Observation, rng: random.Random, setting: Setting = CHANCE) -> Chance:
    """The chance to win from here, from the deals that fit ``observation`` that ``setting``
    draws (see :class:`Chance` for what it means)."""
    from kibitz.agents.strong import chance as estimate
    return estimate(observation, rng, setting)


__all__ = ["AGENTS", "AGENT_VERSIONS", "Agent", "CHANCE", "Chance", "Decision", "HINT", "NoMoveError", "Observation",
           "SEARCHING", "SETTINGS", "STUDY", "Setting", "UnknownAgentError", "agent", "chance", "observe"]
