"""Python instructions a move of random playouts, by function: the load of the machine does not change them.

    python bench/instructions.py [GAME] [--playouts 50] [--top 25] [--lines FUNCTION]

Plays `--playouts` random playouts of GAME (default: examples/tris.tgpl) from its initial state as
`bench/playouts.py` does (the same PCG32 seed), after 20 to warm up, and counts the bytecode
instructions each function runs (`sys.settrace` with opcodes), per move played. On a shared
machine where wall-clock rates vary by a factor of 2 from minute to minute, these counts are what a
change to the hot path is compared by step by step; `bench/playouts.py` says what they add up to.
`--lines NAME` counts the lines of the functions whose file:name contains NAME instead
(for generated code, the file is the TGPL span of the block, e.g. `tris.tgpl:57:5>_direct`).
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's tgpl, not whichever one is installed

from tgpl.runtime import load_game  # noqa: E402
from tgpl.runtime.rng import Pcg32  # noqa: E402


def playouts(start, n: int) -> int:
    """`n` random playouts from `start`, as `bench/playouts.py` plays them; the moves played."""
    rng = Pcg32(7)
    moves = 0
    for _ in range(n):
        state = start
        while not state.is_terminal:
            legal = state.legal_moves()
            state = state.apply(legal[rng.below(len(legal))])
            moves += 1
    return moves


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("game", nargs="?", default=str(ROOT / "examples" / "tris.tgpl"))
    args.add_argument("--playouts", type=int, default=50)
    args.add_argument("--top", type=int, default=25)
    args.add_argument("--lines", default=None)
    opts = args.parse_args()

    start = load_game(opts.game).initial_state(0)
    playouts(start, 20)
    counts: collections.Counter = collections.Counter()
    calls: collections.Counter = collections.Counter()
    want = opts.lines

    def trace(frame, event, arg):
        frame.f_trace_opcodes = True
        code = frame.f_code
        where = (code.co_filename.rsplit("/", 1)[-1], code.co_name, code.co_firstlineno)
        if want is not None:
            if event == "opcode" and want in code.co_filename + code.co_name:
                counts[frame.f_lineno] += 1
        elif event == "opcode":
            counts[where] += 1
        elif event == "call":
            calls[where] += 1
        return trace

    sys.settrace(trace)
    moves = playouts(start, opts.playouts)
    sys.settrace(None)
    if want is not None:
        for line, n in sorted(counts.items(), key=lambda kv: kv[0] or 0):
            print(f"{n / moves:8.1f}  line {line}")
        print(f"{sum(counts.values()) / moves:8.1f}  in all, a move")
        return
    print(f"{moves} moves, {sum(counts.values()) / moves:.1f} instructions a move (the bench's own loop included)")
    print(f"{'a move':>8} {'calls':>6}  function")
    for (file, name, line), n in counts.most_common(opts.top):
        print(f"{n / moves:8.1f} {calls[(file, name, line)] / moves:6.2f}  {file}:{line} {name}")


if __name__ == "__main__":
    main()
