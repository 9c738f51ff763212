"""The ``kibitz solve``, ``kibitz hint`` and ``kibitz review`` commands: the analysis layer on
the command line.

This is the referee's side: it reads a position (a deal and moves, the one-line state form,
or a record file) and asks the analysis layer, which shows the agents only the player's
observation. The agents and the solver are imported when a command runs, so the rest of the
command line starts as fast as before.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any, Callable

from kibitz import native
from kibitz.arguments import positive_seconds, whole_number
from kibitz.deals import MAX_DEAL_NUMBER, parse_deal_number
from kibitz.errors import KibitzError, quoted
from kibitz.moves import Move
from kibitz.registry import find, game as find_game
from kibitz.rules import RULESETS

if TYPE_CHECKING:
    from kibitz.state import State

MAX_SEED = 2**64 - 1
"""The largest ``--seed``."""
AGENT_NAMES = ("strong", "greedy", "random")
SETTING_NAMES = ("hint", "study")
DEFAULT_TIMEOUT = 10.0

SOLVE_EPILOG = """\
The solver sees every card (face down or not) and plays by the rules; it answers
won (with the winning moves), lost (proved: no sequence of moves wins) or
unknown (a limit was reached first). The moves are in the notation of the
PySolFC transcripts, so a pysolfc win can be replayed in PySolFC itself.

examples:
  kibitz solve duchess 1
  kibitz solve grand-duchess 42 --ruleset pysolfc --timeout 60 --json"""

HINT_EPILOG = """\
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

REVIEW_EPILOG = """\
The review judges every move of the game in RECORD (a file written by 'save'
in the terminal player or downloaded from the browser's):

- the fair chance before each move: the share of deals that fit what the
  player had seen by then which the solver, seeing every card, can still win
  (an upper bound of the player's chance; an undecided deal is never counted
  as lost);
- each move's cost: on the same sampled deals, how many the strong agent's
  move keeps winnable that the played move does not; a clear cost of at least
  10, 20 or 30 points is an inaccuracy, a mistake or a blunder;
- the accuracy (the share of the winning chance kept) and the luck (the
  chance at the first move, beside the game's average);
- seeing every card: whether the deal could be won at all, and the point of
  no return, the first move after which it could not.

Every search is bounded by nodes: the same record, --seed and build give the
same review on any machine. docs/review.md says how each figure is made.

examples:
  kibitz review mygame.kibitz
  kibitz review mygame.kibitz --json --seed 7"""


class HintError(KibitzError):
    """A position or option the hint command cannot use."""


def add_commands(commands: argparse._SubParsersAction,  # type: ignore[type-arg]
                 formatter: type[argparse.HelpFormatter],
                 add_ruleset: Callable[[argparse.ArgumentParser], None]) -> None:
    """Add ``solve``, ``hint`` and ``review`` to the ``kibitz`` parser."""
    solve = commands.add_parser("solve", help="decide whether a deal can be won, and how",
                                description="Solve deal NUMBER of GAME with full knowledge of the cards.",
                                epilog=SOLVE_EPILOG, formatter_class=formatter)
    solve.add_argument("game", metavar="GAME", help="game name, slug or alias")
    solve.add_argument("number", metavar="NUMBER", help=f"deal number, 1 to {MAX_DEAL_NUMBER}")
    add_ruleset(solve)
    solve.add_argument("--timeout", type=positive_seconds, default=DEFAULT_TIMEOUT, metavar="S",
                       help=f"give up after S seconds (default {DEFAULT_TIMEOUT:g})")
    solve.add_argument("--json", action="store_true",
                       help="print one JSON object: outcome, moves, counters, build (native or python)")
    solve.set_defaults(run=run_solve)

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

    review = commands.add_parser("review", help="the review of a saved game: where it was lost",
                                 description="Review the game of a record file: the fair chance before every "
                                 "move, the moves that gave it away, accuracy, luck and the point of no return.",
                                 epilog=REVIEW_EPILOG, formatter_class=formatter)
    review.add_argument("record", metavar="RECORD", help="a record file written by 'save' (or the browser's)")
    review.add_argument("--seed", type=whole_number(0, MAX_SEED), default=0, metavar="S",
                        help="seed of the sampled deals (default 0)")
    review.add_argument("--json", action="store_true", help="print one JSON object (see docs/review.md)")
    review.set_defaults(run=run_review)


# -- solve ----------------------------------------------------------------------------------

def run_solve(args: argparse.Namespace) -> int:
    """``kibitz solve GAME NUMBER``."""
    from kibitz.analysis.position import solve_deal
    game = find_game(args.game, args.ruleset)
    number = parse_deal_number(args.number)
    result = solve_deal(game.deal(number), args.timeout)
    if args.json:
        data = {"game": game.slug, "ruleset": game.ruleset, "deal": number, "build": native.build_of(game),
                **result.as_dict()}
        sys.stdout.write(json.dumps(data) + "\n")
        return 0
    out = sys.stdout
    verdict = {"won": "WON: a winning line exists", "lost": "LOST: no sequence of legal moves wins",
               "unknown": f"UNKNOWN: stopped at the {result.reason}"}[result.outcome.value]
    out.write(f"{game.name}, deal #{number} ({game.ruleset} rules): {verdict}\n")
    if result.moves:
        out.write(f"moves ({len(result.moves)}):\n")
        line = ""
        for move in result.moves:
            if len(line) + len(str(move)) > 76:
                out.write(line.rstrip() + "\n")
                line = ""
            line += f"{move} "
        out.write(line.rstrip() + "\n")
    out.write(f"{result.nodes:,} nodes, {result.states:,} distinct positions, "
              f"{result.seconds:.3f} s, table peak {result.peak_table:,}\n")
    return 0


# -- hint -----------------------------------------------------------------------------------

def position(args: argparse.Namespace) -> tuple[State, int | None, list[Move], list[State]]:
    """The position the arguments name: the state, the deal number (``None`` for a state),
    the moves played from there to it and the positions before it."""
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
    earlier: list[State] = []
    for k, text in enumerate(args.moves.split(), 1):
        try:
            move = state.parse_move(text)
        except KibitzError as error:
            raise HintError(f"--moves: move {k} ({quoted(text)}): {error}") from None
        earlier.append(state)
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
        data.update(agent_answer(earlier + [state], played, args.agent, args.setting, args.seed))
    if args.json:
        sys.stdout.write(json.dumps(data) + "\n")
    else:
        sys.stdout.write(format_answer(game.name, data))
    return 0


def agent_answer(states: list[State], played: list[Move], name: str, setting_name: str,
                 seed: int) -> dict[str, Any]:
    """The agent's decision, from the observation of the last of ``states`` only."""
    from kibitz.agents import SETTINGS
    from kibitz.analysis.position import fair_hint, observation_of
    found = fair_hint(observation_of(states, played), seed, name, SETTINGS[setting_name])
    answer: dict[str, Any] = {
        "move": str(found.move), "agent": name, "seed": seed, "reason": found.reason,
        "considered": [{"move": str(move), "score": round(score, 6)} for move, score in found.considered],
        "score": found.measure, "samples": found.samples, "searches": found.searches}
    if found.setting is not None:
        answer["setting"] = found.setting.as_dict()
    return answer


def peek_answer(state: State) -> dict[str, Any]:
    """The solver's move, seeing every card: the first move of a winning line."""
    from kibitz.analysis.position import solver_answer
    found = solver_answer(state)
    return {"move": None if found.move is None else str(found.move), "agent": "solver", "reason": found.reason,
            "outcome": found.outcome.value, "nodes": found.result.nodes}


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


# -- review ---------------------------------------------------------------------------------

def run_review(args: argparse.Namespace) -> int:
    """``kibitz review RECORD``: the whole review, seeing every card (a record's deal is known),
    with progress on standard error; Ctrl-C stops it (exit status 130)."""
    from kibitz import records
    from kibitz.analysis.review import FinalChance, MoveReview, new_review, review_events
    from kibitz.analysis.text import report
    history = records.load(args.record)
    start, moves = history.start, history.moves
    review = new_review(start, moves, args.seed, history.deal_number, sees_every_card=True)
    progress = sys.stderr if sys.stderr.isatty() else None   # a terminal only: not into a log
    total = len(moves)
    for event in review_events(start, moves, args.seed, sees_every_card=True):
        review.add(event)
        if progress is not None:
            if isinstance(event, MoveReview):
                progress.write(f"\rreviewing: move {event.index + 1} of {total}")
            elif isinstance(event, FinalChance):
                progress.write("\rreviewing: the point of no return (the solver, seeing every card)")
            progress.flush()
    if progress is not None:
        progress.write("\r" + " " * 72 + "\r")
    if args.json:
        sys.stdout.write(json.dumps(review.as_dict()) + "\n")
    else:
        sys.stdout.write(report(review, history.states) + "\n")
    return 0
