"""Chess lowered to GDL and played on the project's reasoner: perft against python-chess.

    python bench/chess_gdl.py [--depth 3] [--kiwipete-depth 2]

Lowers examples/chess (set up from a FEN as tests/examples/chess_fen.py does) with
`tgpl to-gdl`'s defaults, its moves compiled (tgpl.lowering.compiled), without the
validation, and reports the time and the rules with a body; then counts the leaves
of the legal-move tree on the GDL reasoner, one state grounded at a time
(tgpl.asp.per_state), from the initial position and from "Kiwipete", and the same
with python-chess in the same run. The counts must agree (20, 400, 8,902; Kiwipete
48, 2,039). Issue 11's done-when: fewer than 1,500 rules, under 60 s to emit.
Needs python-chess (`pip install chess`, in the `dev` extra).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# this file's folder holds bench/chess.py: keep `import chess` from finding it instead of python-chess
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
import chess  # noqa: E402

sys.path.insert(0, str(HERE.parent))  # this checkout's tgpl, not whichever one is installed
sys.path.insert(0, str(HERE.parent / "tests" / "examples"))
from chess_fen import KIWIPETE, START, chess_perft, game_for  # noqa: E402

from tgpl.lowering.lower import lower  # noqa: E402
from tgpl.runtime.snapshot import snapshot  # noqa: E402
from tgpl.validation import reasoner_for  # noqa: E402


def perft(state, depth: int) -> int:
    """Leaves of the legal-move tree (the last level counted, not played)."""
    if state.is_terminal:
        return 0
    moves = state.joint_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(after, depth - 1) for _, after in state.successors())  # grounded 64 at a time


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--depth", type=int, default=3)
    args.add_argument("--kiwipete-depth", type=int, default=2)
    opts = args.parse_args()
    print(f"{'position':<10} {'lower s':>8} {'rules':>6} {'depth':>5} {'nodes':>8} {'GDL s':>8} "
          f"{'python-chess s':>15} {'ratio':>8}")
    for name, fen, depth in (("initial", START, opts.depth), ("kiwipete", KIWIPETE, opts.kiwipete_depth)):
        game = game_for(fen)
        start = time.perf_counter()
        lowered = lower(game.program, snapshot(game.initial_state(0)))
        t_lower = time.perf_counter() - start
        rules = sum(1 for r in lowered.program.rules if r.body)
        gdl = reasoner_for(lowered)
        state = gdl.initial_state()
        start = time.perf_counter()
        ours = perft(state, depth)
        t_ours = time.perf_counter() - start
        start = time.perf_counter()
        theirs = chess_perft(chess.Board(fen), depth)
        t_theirs = time.perf_counter() - start
        assert ours == theirs, (name, ours, theirs)
        print(f"{name:<10} {t_lower:>8.1f} {rules:>6} {depth:>5} {ours:>8} {t_ours:>8.1f} {t_theirs:>15.3f} "
              f"{t_ours / t_theirs:>7.0f}x", flush=True)


if __name__ == "__main__":
    main()
