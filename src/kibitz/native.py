"""The native kernel of the rules: legal moves and apply in Rust, by default when built.

``scripts/setup`` builds the extension module ``kibitz_native`` (the crate in ``native/``)
where ``cargo`` is present and installs it into ``.venv``. Each :class:`~kibitz.rules.Game`
then gets a *kernel*: :func:`spec_of` turns the game's rules into the kernel's spec through
the native counterpart declared beside each rule function (:mod:`kibitz.counterparts`), and
``Game.generate_moves``, ``Game.apply`` and ``Game.apply_unchecked`` run in the kernel, with
the same moves in the same order and the same states as the Python rules, which stay the
reference and the fallback. A game whose rules lack a counterpart runs in pure Python
(:data:`PYTHON_GAMES` says which and why).

Without the module, or with ``KIBITZ_PURE_PYTHON=1`` (which turns off every build) or
``KIBITZ_NATIVE=0`` (this one only), kibitz runs in pure Python; :data:`STATUS` says why.
"""

from __future__ import annotations

import importlib
import json
import os
from types import ModuleType
from typing import TYPE_CHECKING, Literal, Protocol, Sequence

from kibitz.counterparts import Json, MissingCounterpart, counterpart_of
from kibitz.moves import DEAL, Move

if TYPE_CHECKING:
    from kibitz.rules import Game, State

SPEC_VERSION = 9
"""The spec format this module writes and the interface it calls; the extension module must
read the same (version 2: `Search.solve` takes the clock of its time limit; 3: a policy may
cap the digging first pass below a deal, `first_pass_deal_cap`; 4: and below a redeal,
`first_pass_redeal_cap`; 5: Duchess's proof of loss, with the rules' `tableau_order_kept`;
6: a nested share of the digging pass's caps, `first_pass_nested_cap` and
`first_pass_nested_from`; 7: looks at the end games, `first_pass_look`,
`first_pass_look_margin` and `first_pass_look_from`; 8: a later growth of the first
pass's budgets, `first_pass_late_growth` and `first_pass_late_growth_from`; 9: the first
pass's settings as one object, `first_pass`, the fields of `kibitz.solver.policy.FirstPass`)."""
MODULE = "kibitz_native"

Build = Literal["native", "python"]



class Kernel(Protocol):
    """What ``kibitz_native.Kernel`` offers a :class:`~kibitz.rules.Game`."""

    def generate_moves(self, state: State, alike: Sequence[frozenset[int]] = ()) -> tuple[Move, ...]:
        """As ``Game.generate_moves``."""

    def apply(self, state: State, move: Move) -> State | None:
        """The state after ``move`` when it is legal, else ``None``."""

    def apply_unchecked(self, state: State, move: Move) -> State:
        """As ``Game.apply_unchecked``."""

    def is_won(self, state: State) -> bool:
        """As ``Game.is_won``."""

    def replay(self, state: State, moves: Sequence[Move]) -> tuple[int | None, bool]:
        """``moves`` replayed from ``state``, each checked against the legal moves: the index
        of the first illegal one (``None`` when all are legal), and whether the game ends won."""

    def count_moves(self, state: State, repeat: int = 1) -> int:
        """How many legal moves ``state`` has (no ``Move`` objects made), generated ``repeat`` times."""


_module: ModuleType | None = None
_problem = "not loaded yet"

PYTHON_GAMES: dict[str, str] = {}
"""Games (``slug/ruleset``) that run in pure Python although the kernel is on, and why."""
_GAMES: list[Game] = []
"""Every game a kernel was asked for (each asks when it is made): the games :func:`use` switches."""
_CHOSEN: Build | None = None
"""The build :func:`use` chose for every game, made before or after; ``None``: the environment's."""


def load() -> ModuleType | None:
    """The extension module, or ``None`` when it is missing or of another spec version
    (:func:`problem` says why). The environment is not consulted here."""
    global _module, _problem
    if _module is None and _problem == "not loaded yet":
        try:
            kibitz_native = importlib.import_module(MODULE)
        except ImportError as error:
            _problem = (f"not built ({error}); pip install 'kibitz[native]' installs it, or in a checkout "
                        "scripts/setup builds it where cargo (Rust) is present"
                        if error.name == MODULE else f"unusable ({error}); run scripts/setup again")
        else:
            version = getattr(kibitz_native, "SPEC_VERSION", None)
            if version == SPEC_VERSION:
                _module, _problem = kibitz_native, ""
            else:
                _problem = f"built for spec version {version}, not {SPEC_VERSION}; run scripts/setup again"
    return _module


def problem() -> str:
    """Why :func:`load` found no module (empty when it did)."""
    load()
    return _problem


def _status() -> tuple[bool, str]:
    if os.environ.get("KIBITZ_PURE_PYTHON"):
        return False, "off: KIBITZ_PURE_PYTHON is set"
    if os.environ.get("KIBITZ_NATIVE", "1") in ("0", "", "no", "off"):
        return False, "off: KIBITZ_NATIVE=0"
    module = load()
    if module is None:
        return False, f"off: {problem()}"
    return True, f"on: the rules run in {MODULE} (spec version {SPEC_VERSION})"


ACTIVE, STATUS = _status()
"""Whether new games get a kernel by default, and one line saying so (or why not)."""


def spec_of(game: Game) -> dict[str, Json]:
    """The kernel's spec of ``game``: every rule its moves use, as native counterparts.

    Raises :class:`~kibitz.counterparts.MissingCounterpart` naming the first rule that has none.
    """
    rules = game.rules
    where = f"{game.slug} ({game.ruleset})"

    def native(rule: object, role: str) -> Json:
        try:
            return counterpart_of(rule).native(game)
        except MissingCounterpart as error:
            raise MissingCounterpart(f"{where}: the {role} rule {error}") from None

    foundations: list[Json] = []
    for i in game.foundations:
        spec = game.piles[i].foundation
        assert spec is not None
        foundations.append({"pile": i, "suit": spec.suit, "step": spec.step, "first": spec.first, "wrap": spec.wrap})
    return {
        "kinds": [kind.name.capitalize() for kind in game.kinds],
        "stock": game.stock,
        "total_cards": game.total_cards,
        "redeals": game.info.redeals,
        "foundations": foundations,
        "sources": [native(rule, "source") for rule in rules.sources],
        "targets": [native(rule, "target") for rule in rules.targets],
        "permits": None if rules.permits is None else native(rules.permits, "permit"),
        "stock_click": native(rules.deal, "stock-click"),
        "can_deal": None if rules.can_deal is None else native(rules.can_deal, "can-deal"),
        "after_move": None if rules.after_move is None else native(rules.after_move, "after-move"),
    }


def kernel_for(game: Game, *, force: bool = False) -> Kernel | None:
    """A kernel running ``game``'s moves natively, or ``None`` for pure Python: when the
    kernel is off (unless ``force``), the module is missing, or a rule has no counterpart.
    The kernel makes the game's states of its class (``Game.state_type``)."""
    if not any(known is game for known in _GAMES):
        _GAMES.append(game)
    if not (force or (ACTIVE if _CHOSEN is None else _CHOSEN == "native")):
        return None
    module = load()
    if module is None:
        return None
    try:
        spec = spec_of(game)
    except MissingCounterpart as error:
        PYTHON_GAMES[f"{game.slug}/{game.ruleset}"] = str(error)
        return None
    kernel: Kernel = module.Kernel(json.dumps(spec), game, game.state_type, DEAL)
    return kernel


def use(build: Build) -> None:
    """Run every game, made before or after, natively (``"native"``, when the module is
    there) or in pure Python (``"python"``) from now on, whatever the environment says
    (tests and benchmarks compare the two in one process)."""
    global _CHOSEN
    _CHOSEN = build
    for game in _GAMES:
        game.kernel = kernel_for(game, force=True) if build == "native" else None


def build_of(game: Game) -> Build:
    """Which build runs ``game``'s moves."""
    return "native" if game.kernel is not None else "python"
