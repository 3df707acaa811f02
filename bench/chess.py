"""Chess perft in TGPL (examples/chess), timed as a ratio to python-chess.

    python bench/chess.py [--depth 3] [--kiwipete-depth 2]

Counts the leaves of the legal-move tree from the initial position (and from
"Kiwipete") through the public state API, `legal_moves()` / `apply()`, and
the same with python-chess (push / pop over `legal_moves`) in the same run.
The counts must agree (20, 400, 8902, 197281; Kiwipete 48, 2039, 97862).
Needs python-chess (`pip install chess`, in the `dev` extra).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# this file is bench/chess.py: keep `import chess` from finding it instead of python-chess
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
import chess  # noqa: E402

sys.path.insert(0, str(HERE.parent))  # this checkout's tgpl, not whichever one is installed
sys.path.insert(0, str(HERE.parent / "tests" / "examples"))
from chess_fen import KIWIPETE, START, chess_perft, perft, state_for  # noqa: E402


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--depth", type=int, default=3)
    args.add_argument("--kiwipete-depth", type=int, default=2)
    opts = args.parse_args()
    print(f"{'position':<10} {'depth':>5} {'nodes':>8} {'tgpl s':>8} {'python-chess s':>15} {'ratio':>7}")
    for name, fen, depth in (("initial", START, opts.depth), ("kiwipete", KIWIPETE, opts.kiwipete_depth)):
        state = state_for(fen)  # loads and compiles the game outside the timing
        ours, t_ours = timed(lambda: perft(state, depth))
        theirs, t_theirs = timed(lambda: chess_perft(chess.Board(fen), depth))
        assert ours == theirs, (name, ours, theirs)
        print(f"{name:<10} {depth:>5} {ours:>8} {t_ours:>8.2f} {t_theirs:>15.3f} {t_ours / t_theirs:>6.0f}x")


if __name__ == "__main__":
    main()
