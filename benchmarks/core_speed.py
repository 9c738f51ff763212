"""Core speed: legal-move generation plus apply, and state hashing, per game.

Random play-outs (seeded) of up to ``--moves`` moves from consecutive deal
numbers. A *cycle* is one ``state.legal_moves`` on a new state plus one
``state.apply`` of a legal move (checked). *Hashing* is the first hash of a new
state's key (piles freshly built, so no cached hash helps). Target: at least
50,000 cycles per second on one core for every game.

    .venv/bin/python benchmarks/core_speed.py [--seconds 2] [--ruleset standard]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

import kibitz
from kibitz.state import State

TARGET = 50_000


def play_outs(game: kibitz.Game, seconds: float, max_moves: int, seed: int) -> tuple[int, float, list[State], int]:
    """Play random games for ``seconds``; returns cycles, elapsed time, sampled states, play-outs."""
    rng = random.Random(seed)
    cycles = 0
    samples: list[State] = []
    number = 1
    deal_time = 0.0
    start = time.perf_counter()
    while time.perf_counter() - start - deal_time < seconds:
        before = time.perf_counter()
        state = game.deal(number)
        deal_time += time.perf_counter() - before
        number += 1
        for _ in range(max_moves):
            moves = state.legal_moves
            if not moves:
                break
            state = state.apply(moves[rng.randrange(len(moves))])
            cycles += 1
            if cycles % 16 == 0:
                samples.append(state)
    return cycles, time.perf_counter() - start - deal_time, samples, number - 1


def hashing_rate(states: list[State]) -> float:
    """First hashes of state keys per second, on fresh copies of ``states``."""
    fresh = [State(s.game, tuple(bytes(bytearray(p)) for p in s.piles), s.round, s.base) for s in states]
    start = time.perf_counter()
    for state in fresh:
        hash(state.key)
    return len(fresh) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=2.0, help="play-out time per game (default 2)")
    parser.add_argument("--moves", type=int, default=300, help="moves per play-out at most (default 300)")
    parser.add_argument("--ruleset", default="standard", choices=kibitz.RULESETS)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"kibitz {kibitz.__version__}, Python {platform.python_version()} on {platform.machine()}, "
          f"ruleset {args.ruleset}, {args.seconds:g} s per game, one core")
    print(f"{'game':18} {'cycles/s':>10} {'vs target':>9} {'play-outs':>9} {'moves/play-out':>14} {'hashes/s':>10}")
    rates = []
    for info in kibitz.games():
        game = kibitz.game(info.slug, args.ruleset)
        cycles, elapsed, samples, outs = play_outs(game, args.seconds, args.moves, args.seed)
        rate = cycles / elapsed
        rates.append(rate)
        print(f"{info.slug:18} {rate:10,.0f} {rate / TARGET:8.1f}x {outs:9} {cycles / outs:14.1f} "
              f"{hashing_rate(samples):10,.0f}")
    print(f"slowest game: {min(rates):,.0f} cycles/s ({min(rates) / TARGET:.1f}x the {TARGET:,} target); "
          f"median {statistics.median(rates):,.0f}")


if __name__ == "__main__":
    main()
