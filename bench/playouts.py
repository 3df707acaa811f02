"""Random playouts per second, as a ratio to a hand-written Python tic-tac-toe.

    python bench/playouts.py [--seconds 3]

The reference is plain Python: a list board, the 8 lines checked after each
move, moves drawn with the same PCG32 generator the runtime uses. Each TGPL
game is played from its initial state (made once, as search starts from a
given state) by `legal_moves()` / `apply()` through the public state API.
Ratios compare runs in the same process. With `--rounds R` (default 1, the measure of the earlier
rounds) the reference and each game are measured in turn R times, `--seconds` each time, and each
rate is the best of its R: on the shared machine, a minute's load slows whichever is measured then,
and a single pass gave ratios 10 % apart from one run to the next.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's tgpl, not whichever one is installed

from tgpl.runtime import load_game  # noqa: E402
from tgpl.runtime.rng import Pcg32  # noqa: E402

EXAMPLES = ROOT / "examples"
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def reference_playout(rng: Pcg32) -> int:
    board = [None] * 9
    player = 0
    for _ in range(9):
        empty = [i for i in range(9) if board[i] is None]
        board[empty[rng.below(len(empty))]] = player
        if any(board[a] == board[b] == board[c] == player for a, b, c in LINES):
            return player
        player = 1 - player
    return -1


def tgpl_playout(start, rng: Pcg32) -> list[int]:
    """A random playout from `start`, as search and simulation run them."""
    state = start
    while not state.is_terminal:
        moves = state.legal_moves()
        state = state.apply(moves[rng.below(len(moves))])
    return state.goals


def rate(fn, seconds: float) -> float:
    """Playouts per second over about `seconds`."""
    rng = Pcg32(7)
    n, start = 0, time.perf_counter()
    while True:
        fn(rng, n)
        n += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return n / elapsed


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--seconds", type=float, default=3.0)
    args.add_argument("--rounds", type=int, default=1)
    opts = args.parse_args()

    runs = [("python tic-tac-toe (ref)", lambda rng, n: reference_playout(rng))]
    for name in ("tris.tgpl", "connect4.tgpl", "draughts.tgpl"):
        path = EXAMPLES / name
        if path.exists():
            start = load_game(path).initial_state(0)
            runs.append((name, lambda rng, n, start=start: tgpl_playout(start, rng)))
        else:
            runs.append((name, None))
    best = {name: 0.0 for name, _ in runs}
    for _ in range(max(1, opts.rounds)):
        for name, fn in runs:
            if fn is not None:
                best[name] = max(best[name], rate(fn, opts.seconds))
    ref = best[runs[0][0]]
    print(f"{'game':<28}{'playouts/s':>12}{'ratio to reference':>22}")
    for name, fn in runs:
        if fn is None:
            print(f"{name:<28}{'(missing)':>12}")
        else:
            print(f"{name:<28}{best[name]:>12,.1f}{best[name] / ref:>22.4f}")


if __name__ == "__main__":
    main()
