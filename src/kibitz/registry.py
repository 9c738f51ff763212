"""The game registry: every game by slug, name or alias, in both rulesets."""

from __future__ import annotations

import importlib
import unicodedata
from dataclasses import dataclass

from kibitz.errors import UnknownGameError
from kibitz.games import GAME_MODULES
from kibitz.rules import RULESETS, Game, GameInfo, Rules


@dataclass(frozen=True)
class Entry:
    """A registered game: its metadata and one :class:`Game` per ruleset."""

    info: GameInfo
    rulesets: dict[str, Game]


_REGISTRY: dict[str, Entry] = {}
_NAMES: dict[str, str] = {}
_loaded = False


def normalize_name(name: str) -> str:
    """Lookup form of a name: case-folded, accents, apostrophes and spacing dropped."""
    text = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    text = text.casefold().replace("'", "").replace("\u2019", "")
    return "-".join(text.replace("_", " ").replace("-", " ").split())


def register(info: GameInfo, rulesets: dict[str, Rules]) -> None:
    """Add a game. Its slug, name and aliases must not collide with another game's."""
    if set(rulesets) != set(RULESETS):
        raise ValueError(f"{info.slug}: rulesets must be exactly {RULESETS}")
    entry = Entry(info, {name: Game(info, name, rules) for name, rules in rulesets.items()})
    names = (info.slug, info.name, *info.aliases)
    for name in names:  # check every name first, so a refused game leaves nothing behind
        key = normalize_name(name)
        if _NAMES.get(key, info.slug) != info.slug:
            raise ValueError(f"{name!r} already names {_NAMES[key]}")
    for name in names:
        _NAMES[normalize_name(name)] = info.slug
    _REGISTRY[info.slug] = entry


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for module_name in GAME_MODULES:
        module = importlib.import_module(f"kibitz.games.{module_name}")
        register(module.INFO, {"standard": module.STANDARD, "pysolfc": module.PYSOLFC})


def games() -> list[GameInfo]:
    """Every registered game, in the order of the rules."""
    _load()
    return [entry.info for entry in _REGISTRY.values()]


def find(name: str) -> GameInfo:
    """The game with this slug, name or alias (any case); raises :class:`UnknownGameError`."""
    _load()
    slug = _NAMES.get(normalize_name(name))
    if slug is None:
        known = ", ".join(_REGISTRY)
        raise UnknownGameError(f"unknown game {name!r}; the games are: {known}")
    return _REGISTRY[slug].info


def game(name: str, ruleset: str = "standard") -> Game:
    """The playable game named ``name`` in ``ruleset`` (``standard`` or ``pysolfc``)."""
    info = find(name)
    rulesets = _REGISTRY[info.slug].rulesets
    if ruleset not in rulesets:
        raise UnknownGameError(f"unknown ruleset {ruleset!r}; choose one of: {', '.join(RULESETS)}")
    return rulesets[ruleset]


def rulesets_alike(name: str, ruleset: str) -> tuple[str, ...]:
    """Every ruleset of the game named ``name`` whose rules are those of ``ruleset`` (equal
    :class:`Rules` values), in the order of :data:`RULESETS`: a game whose two rulesets agree
    gives both. Results under one of them hold for all; they are stored under the first."""
    rules = game(name, ruleset).rules
    return tuple(other for other in RULESETS if game(name, other).rules == rules)
