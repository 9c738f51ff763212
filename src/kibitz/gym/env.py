"""The environment: one game of patience in one ruleset, played an action at a time."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, SupportsIndex

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded

from kibitz.agents.observation import Observation, observe
from kibitz.deals import check_deal_number
from kibitz.errors import IllegalMoveError
from kibitz.gym.actions import ActionSet
from kibitz.gym.encoding import EncodedObservation, Encoding
from kibitz.moves import Move
from kibitz.registry import game as find_game
from kibitz.state import State
from kibitz.view import View

MAX_STEPS = 2000
"""The default step limit: kibitz's agents end a game in 50 to 300 moves, but moves that go
round in circles never end one."""
DEALS = range(1, 10**9 + 1)
"""The deal numbers :meth:`PatienceEnv.reset` draws from by default (as "new game" does)."""
IllegalAction = Literal["ignore", "raise"]


class PatienceEnv(gymnasium.Env[EncodedObservation, np.int64]):
    """A game of patience seen as a player sees it.

    ``reset(seed=S)`` deals a deal number drawn from ``deals`` with the generator seeded by
    ``S``; ``reset(options={"deal": N})`` deals PySolFC's deal ``N``. An observation is the
    player's view only (:mod:`kibitz.gym.encoding`); an action is a move of the game's fixed
    enumeration (:mod:`kibitz.gym.actions`), legal when ``info["action_mask"]`` says so. The
    reward is 1 for the move that wins the game, 0 otherwise; the episode terminates when the
    game is won or no legal move remains, and is truncated after ``max_steps`` steps (``None``:
    no limit), illegal ones included.

    An illegal action changes nothing: it costs a step, earns 0 and says so in
    ``info["illegal"]`` and ``info["reason"]`` (the rule that forbids it, in words). With
    ``illegal_action="raise"`` it raises :class:`kibitz.IllegalMoveError` instead. A step after
    the episode ended, or before the first reset, raises ``gymnasium.error.ResetNeeded``.

    ``info`` holds ``deal`` (the deal number: it tells the whole deck, so a fair player does not
    look at it), ``action_mask`` (``int8``, 1 for each legal action), ``moves_played`` and, after
    a step, ``move`` (the action's move in notation), ``illegal`` and ``reason``.
    :meth:`agent_observation` gives the position as kibitz's agents take it.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, game: str = "duchess", ruleset: str = "standard", *,
                 deals: Sequence[int] = DEALS, max_steps: int | None = MAX_STEPS,
                 illegal_action: IllegalAction = "ignore", render_mode: str | None = None) -> None:
        self.game = find_game(game, ruleset)
        """The game and ruleset played."""
        self.actions = ActionSet(self.game)
        """The enumeration of the moves (:mod:`kibitz.gym.actions`)."""
        self.encoding = Encoding(self.game)
        """The encoding of observations (:mod:`kibitz.gym.encoding`)."""
        self.deals = check_deals(deals)
        self.max_steps = max_steps
        if self.max_steps is not None and self.max_steps < 1:
            raise ValueError(f"max_steps {max_steps}: give at least 1 step, or None for no limit")
        if illegal_action not in ("ignore", "raise"):
            raise ValueError(f"illegal_action {illegal_action!r}: choose 'ignore' or 'raise'")
        self.illegal_action = illegal_action
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: the only render mode is 'ansi'")
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(len(self.actions))
        self.observation_space = self.encoding.space
        self._state: State | None = None
        self._deal = 0
        self._played: list[Move] = []
        self._earlier: list[View] = []
        self._steps = 0
        self._ended = False

    # -- the episode -----------------------------------------------------------------------

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[EncodedObservation, dict[str, Any]]:
        """Deal a new game: deal ``options["deal"]`` when given, else one drawn from ``deals``."""
        super().reset(seed=seed)
        unknown = set(options or ()) - {"deal"}
        if unknown:
            raise ValueError(f"reset options {sorted(unknown)}: the only option is 'deal'")
        if options and "deal" in options:
            number = check_deal_number(options["deal"])
        else:
            number = self.deals[int(self.np_random.integers(len(self.deals)))]
        self._state = self.game.deal(number)
        self._deal = number
        self._played = []
        self._earlier = []
        self._steps = 0
        self._ended = False
        return self._observation(), self._info()

    def step(self, action: SupportsIndex) -> tuple[EncodedObservation, float, bool, bool, dict[str, Any]]:
        """Play ``action``'s move (see the class docstring for an illegal one)."""
        state = self._current()
        if self._ended:
            raise ResetNeeded("the game is over: call reset() to deal a new one")
        index = int(action)
        if not 0 <= index < len(self.actions):
            raise ValueError(f"action {action}: the actions are 0 to {len(self.actions) - 1}")
        move = self.actions.moves[index]
        self._steps += 1
        reason = ""
        if state.is_legal(move):
            self._earlier.append(state.view())
            state = self._state = state.apply(move)
            self._played.append(move)
        else:
            reason = self.game.explain_illegal(state, move)
            if self.illegal_action == "raise":
                raise IllegalMoveError(f"action {index} ({move}): {reason}")
        won = state.is_won()
        terminated = won or not state.legal_moves
        truncated = not terminated and self.max_steps is not None and self._steps >= self.max_steps
        self._ended = terminated or truncated
        info = self._info()
        info.update(move=str(move), illegal=bool(reason), reason=reason)
        return self._observation(), 1.0 if won else 0.0, terminated, truncated, info

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the position as the terminal player draws it (no hidden card)."""
        if self.render_mode != "ansi":
            return None
        from kibitz.tui.drawing import draw
        return draw(self._current(), moves_played=len(self._played))

    # -- what a player may know --------------------------------------------------------------

    def agent_observation(self) -> Observation:
        """The position as :mod:`kibitz.agents` take it: the view, the legal moves, the moves
        played and the views seen earlier (``agent("greedy").choose(env.agent_observation(), rng)``)."""
        return observe(self._current(), self._played, self._earlier)

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The legal actions as booleans (the method sb3-contrib's ``MaskablePPO`` calls)."""
        return self._mask().astype(bool)

    def action_of(self, move: Move | str) -> int:
        """The action of ``move`` (a :class:`kibitz.Move` or its notation)."""
        if isinstance(move, str):
            move = Move.parse(move)
        try:
            return self.actions.action_of(move)
        except KeyError:
            raise IllegalMoveError(f"{move}: no action of {self.game.name} stands for this move, "
                                   "which is never legal") from None

    def move_of(self, action: SupportsIndex) -> Move:
        """The move ``action`` stands for."""
        return self.actions.moves[int(action)]

    # -- helpers ---------------------------------------------------------------------------

    def _current(self) -> State:
        if self._state is None:
            raise ResetNeeded("no game yet: call reset() first")
        return self._state

    def _mask(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        mask = np.zeros(len(self.actions), dtype=np.int8)
        index = self.actions.index
        for move in self._current().legal_moves:
            action = index.get(move)
            if action is None:
                raise AssertionError(f"{self.game!r}: the legal move {move} has no action")
            mask[action] = 1
        return mask

    def _observation(self) -> EncodedObservation:
        return self.encoding.encode(observe(self._current()))

    def _info(self) -> dict[str, Any]:
        return {"deal": self._deal, "action_mask": self._mask(), "moves_played": len(self._played)}


def check_deals(deals: Sequence[int]) -> Sequence[int]:
    """``deals`` if it is a non-empty sequence of deal numbers (a ``range`` is checked at its ends)."""
    try:
        count = len(deals)
    except OverflowError:
        raise ValueError("deals: too many deal numbers to draw from; give at most 2**63 - 1") from None
    if count == 0:
        raise ValueError("deals: give at least one deal number to draw from")
    for number in (deals[0], deals[-1]) if isinstance(deals, range) else deals:
        check_deal_number(number)
    if isinstance(deals, range) and deals.step < 1:
        raise ValueError("deals: give a range that counts up")
    return deals
