"""Gymnasium environments for the seven games (``pip install 'kibitz[gym]'``).

Importing this package registers one environment per game and ruleset: ``kibitz/<Name>-v0``
for the standard ruleset and ``kibitz/<Name>-pysolfc-v0`` for PySolFC's, ``<Name>`` being the
game's name without spaces or apostrophes: ``GrandDuchess``, ``Parisienne``, ``Duchess``,
``Tournament``, ``NapoleonsFlank``, ``Cicely``, ``KingsdownEights`` (:data:`ENVIRONMENT_IDS`).
The version goes up whenever the rules, the observation encoding or the actions change, so
that results under one version are never mixed with another's.

>>> import gymnasium, kibitz.gym
>>> env = gymnasium.make("kibitz/Duchess-v0")
>>> observation, info = env.reset(seed=0)
>>> action = int(info["action_mask"].nonzero()[0][0])
>>> observation, reward, terminated, truncated, info = env.step(action)

``gymnasium.make("kibitz.gym:kibitz/Duchess-v0")`` imports the package itself. The
environment is :class:`PatienceEnv`: observations in :mod:`kibitz.gym.encoding`, actions in
:mod:`kibitz.gym.actions`.
"""

from __future__ import annotations

try:
    import gymnasium
except ModuleNotFoundError as error:  # pragma: no cover - exercised in a subprocess
    if error.name != "gymnasium":
        raise
    raise ModuleNotFoundError("kibitz.gym needs Gymnasium, an optional extra: pip install 'kibitz[gym]'",
                              name="gymnasium") from error

import kibitz
from kibitz.gym.actions import ActionSet
from kibitz.gym.encoding import COVERED_CARD, FACE_DOWN_CARD, NO_BASE, NO_CARD, Encoding
from kibitz.gym.env import DEALS, MAX_STEPS, PatienceEnv

VERSION = 0
"""The version of every environment id."""
RULES_VERSION = 1
"""The rules version (:attr:`kibitz.GameInfo.rules_version`) that :data:`VERSION` plays."""


def environment_id(slug: str, ruleset: str = "standard") -> str:
    """The id of a game's environment: ``kibitz/Duchess-v0``, ``kibitz/Duchess-pysolfc-v0``."""
    name = "".join(character for character in kibitz.find(slug).name if character.isalnum())
    suffix = "" if ruleset == "standard" else f"-{ruleset}"
    return f"kibitz/{name}{suffix}-v{VERSION}"


ENVIRONMENT_IDS: dict[str, tuple[str, str]] = {
    environment_id(info.slug, ruleset): (info.slug, ruleset)
    for info in kibitz.games() for ruleset in kibitz.RULESETS}
"""Each registered id with its game (slug) and ruleset."""

for _id, (_slug, _ruleset) in ENVIRONMENT_IDS.items():
    if _id not in gymnasium.registry:
        gymnasium.register(id=_id, entry_point="kibitz.gym.env:PatienceEnv",
                           kwargs={"game": _slug, "ruleset": _ruleset})

__all__ = ["COVERED_CARD", "DEALS", "ENVIRONMENT_IDS", "FACE_DOWN_CARD", "MAX_STEPS", "NO_BASE", "NO_CARD",
           "RULES_VERSION", "VERSION", "ActionSet", "Encoding", "PatienceEnv", "environment_id"]
