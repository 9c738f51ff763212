"""The ``kibitz hint`` command: an agent's move for a position, or the solver's with ``--peek``.

This is the referee's side: it reads the position (a deal and moves, or the one-line state
form), and shows the agent only its observation. The agents are imported when the command
runs, so the rest of the command line starts as fast as before.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import TYPE_CHECKING, Any

from kibitz.deals import MAX_DEAL_NUMBER, parse_deal_number
from kibitz.errors import KibitzError, quoted
from kibitz.moves import Move
from kibitz.registry import find, game as find_game
from kibitz.rules import RULESETS
from kibitz.study.commands import whole_number

if TYPE_CHECKING:
    from kibitz.state import State
    from kibitz.view import View

MAX_SEED = 2**64 - 1
"""The largest ``--seed``."""
PEEK_NODES = 200_000
"""The solver's node budget with ``--peek``."""
AGENT_NAMES = ("strong", "greedy", "random")
SETTING_NAMES = ("hint", "study")

HINT_EPILOG = f"""\
The position is deal NUMBER of GAME after the --moves given, or the one-line
state STATE (as 'kibitz solve' and the records write it; GAME must name its
game), after the --moves given. The agent sees only what a player sees: the
cards face up, how many cards each pile hides, and the legal moves. The strong
agent (the default) samples deals that fit what it sees and searches them with
the solver; the same position and --seed give the same move. --peek asks the
solver instead, which sees every card, face down or not: its move can give
hidden cards away, and the output says it peeked.

examples:
  kibitz hint duchess 1
  kibitz hint duchess 1 --moves "r2>f1 deal" --json
  kibitz hint tournament 31999 --agent greedy --seed 7
  kibitz hint duchess 1 --peek
  kibitz hint cicely --state "cicely standard round=1 base=- s=... r8=QD" --json"""


class HintError(KibitzError):
    """A position or option the hint command cannot use."""


def add_commands(commands: argparse._SubParsersAction,  # type: ignore[type-arg]
                 formatter: type[argparse.HelpFormatter]) -> None:
    """Add ``hint`` to the ``kibitz`` parser."""
    hint = commands.add_parser("hint", help="an agent's move for a position (it sees only what a player sees)",
                               description="Print the move an agent chooses for a position of GAME.",
                               epilog=HINT_EPILOG, formatter_class=formatter)
    hint.add_argument("game", metavar="GAME", help="game name, slug or alias")
    hint.add_argument("number", metavar="NUMBER", nargs="?", help=f"deal number, 1 to {MAX_DEAL_NUMBER}")
    hint.add_argument("--state", metavar="STATE", help="the position in the one-line state form, instead of NUMBER")
    hint.add_argument("--moves", metavar="MOVES", default="", help='moves played first, e.g. "t3>f1 deal"')
    hint.add_argument("--ruleset", metavar="R", default=None,
                      help=f"with NUMBER: {' or '.join(RULESETS)} (default: standard); a STATE names its own")
    hint.add_argument("--agent", choices=AGENT_NAMES, default="strong", help="who answers (default: strong)")
    hint.add_argument("--setting", choices=SETTING_NAMES, default="hint",
                      help="the strong agent's search: hint (default, about a second) or study (cheaper)")
    hint.add_argument("--seed", type=whole_number(0, MAX_SEED), default=0, metavar="S",
                      help="seed of the agent's generator (default 0)")
    hint.add_argument("--peek", action="store_true", help="ask the solver, which sees every card, instead")
    hint.add_argument("--json", action="store_true", help="print one JSON object with a 'move' field")
    hint.set_defaults(run=run_hint)


def position(args: argparse.Namespace) -> tuple[State, int | None, list[Move], list[View]]:
    """The position the arguments name: the state, the deal number (``None`` for a state),
    the moves played from there to it and the views of the positions before it."""
    from kibitz.notation import parse_state
    info = find(args.game)
    if (args.number is None) == (args.state is None):
        raise HintError("give either a deal NUMBER or --state STATE")
    if args.state is not None:
        state = parse_state(args.state)
        if state.game.slug != info.slug:
            raise HintError(f"the state is a position of {state.game.name}, not of {info.name}")
        if args.ruleset is not None and args.ruleset != state.game.ruleset:
            raise HintError(f"the state is in the {state.game.ruleset} ruleset, not {quoted(args.ruleset)}")
        number = None
    else:
        ruleset = args.ruleset or "standard"
        if ruleset not in RULESETS:
            raise HintError(f"unknown ruleset {quoted(ruleset)}; choose one of: {', '.join(RULESETS)}")
        number = parse_deal_number(args.number)
        state = find_game(info.slug, ruleset).deal(number)
    played: list[Move] = []
    earlier: list[View] = []
    for k, text in enumerate(args.moves.split(), 1):
        try:
            move = state.parse_move(text)
        except KibitzError as error:
            raise HintError(f"--moves: move {k} ({quoted(text)}): {error}") from None
        earlier.append(state.view())
        state = state.apply(move)
        played.append(move)
    return state, number, played, earlier


def run_hint(args: argparse.Namespace) -> int:
    """``kibitz hint GAME (NUMBER | --state STATE)``."""
    state, number, played, earlier = position(args)
    game = state.game
    data: dict[str, Any] = {"game": game.slug, "ruleset": game.ruleset, "deal": number,
                            "moves_played": len(played), "peek": bool(args.peek)}
    if state.is_over():
        data.update(move=None, reason="the game is won" if state.is_won() else "no legal move is left")
    elif args.peek:
        data.update(peek_answer(state))
    else:
        data.update(agent_answer(state, played, earlier, args.agent, args.setting, args.seed))
    if args.json:
        sys.stdout.write(json.dumps(data) + "\n")
    else:
        sys.stdout.write(format_answer(game.name, data))
    return 0


def agent_answer(state: State, played: list[Move], earlier: list[View], name: str, setting_name: str,
                 seed: int) -> dict[str, Any]:
    """The agent's decision, from the observation of ``state`` only."""
    from kibitz.agents import SETTINGS, agent, observe
    setting = SETTINGS[setting_name]
    decision = agent(name, setting).decide(observe(state, played, earlier), random.Random(seed))
    answer: dict[str, Any] = {
        "move": str(decision.move), "agent": name, "seed": seed, "reason": decision.reason,
        "considered": [{"move": str(move), "score": round(score, 6)} for move, score in decision.scores],
        "score": decision.measure,
        "samples": decision.samples, "searches": decision.searches}
    if name == "strong":
        answer["setting"] = setting.as_dict()
    return answer


def peek_answer(state: State) -> dict[str, Any]:
    """The solver's move, seeing every card: the first move of a winning line."""
    from kibitz.solver import Limits, Outcome, solve
    result = solve(state, Limits(seconds=None, nodes=PEEK_NODES))
    move = str(result.moves[0]) if result.outcome is Outcome.WON and result.moves else None
    reason = {Outcome.WON: "the first move of a winning line",
              Outcome.LOST: "no move wins: the position is lost",
              Outcome.UNKNOWN: f"no winning line found within {PEEK_NODES:,} nodes"}[result.outcome]
    return {"move": move, "agent": "solver", "reason": reason, "outcome": result.outcome.value,
            "nodes": result.nodes}


def format_answer(name: str, data: dict[str, Any]) -> str:
    """The answer as a few lines of text."""
    where = f"deal #{data['deal']}" if data["deal"] is not None else "the position given"
    if data["moves_played"]:
        where += f" after {data['moves_played']} move(s)"
    head = f"{name}, {where} ({data['ruleset']} rules): "
    if data["move"] is None and "agent" not in data:
        return head + f"no move: {data['reason']}\n"
    lines = [head + (data["move"] or "no move")]
    if data["peek"]:
        lines.append(f"solver, which sees every card (peek): {data['reason']}")
    else:
        agent = f"{data['agent']} agent, seed {data['seed']}"
        if "setting" in data:
            agent += f", {data['setting']['name']} setting"
        lines.append(f"{agent}: {data['reason']}")
        considered = data["considered"][:6]
        if considered:
            share = data["score"] != "greedy evaluation"
            lines.append(f"considered ({data['score']}): " + ", ".join(
                f"{c['move']} {c['score']:.0%}" if share else f"{c['move']} {c['score']:g}" for c in considered))
    return "\n".join(lines) + "\n"
