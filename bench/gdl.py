"""Random playouts per second of the GDL reasoner, beside the runtime, as ratios to plain Python.

    python bench/gdl.py [--seconds 3] [GAME.kif ...]

The reference is bench/playouts.py's hand-written Python tic-tac-toe, measured
in the same run. The GDL reasoner (tgpl.asp.reasoner, clingo grounded once)
plays examples/gdl/tictactoe.kif, the GDL that `tgpl to-gdl` emits for
examples/tris.tgpl (lowered in the same run) and any other KIF files given, through its
public API (`legal_moves()` joint moves, `apply`); the runtime plays
examples/tris.tgpl the same way. Both start from an initial state made once,
as search starts from a given state; moves are drawn with the runtime's PCG32.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from playouts import EXAMPLES, rate, reference_playout  # noqa: E402

from tgpl.asp.reasoner import GdlGame  # noqa: E402
from tgpl.pipeline import lower_game  # noqa: E402
from tgpl.runtime import load_game  # noqa: E402


def playout(start, rng) -> list:
    """A random playout from `start`; runtime and GDL states share this interface."""
    state = start
    while not state.is_terminal:
        moves = state.legal_moves()
        state = state.apply(moves[rng.below(len(moves))])
    return state.goals


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--seconds", type=float, default=3.0)
    args.add_argument("games", nargs="*", type=Path, help="more GDL games to measure")
    opts = args.parse_args()

    ref = rate(lambda rng, n: reference_playout(rng), opts.seconds)
    print(f"{'game':<36}{'playouts/s':>12}{'ratio to reference':>22}")
    print(f"{'python tic-tac-toe (ref)':<36}{ref:>12,.0f}{1.0:>22.5f}")

    for path in [EXAMPLES / "gdl" / "tictactoe.kif", *opts.games]:
        start = time.perf_counter()
        game = GdlGame.load(path)
        load = time.perf_counter() - start
        start_state = game.initial_state()
        r = rate(lambda rng, n, s=start_state: playout(s, rng), opts.seconds)
        label = f"gdl {path.name} (load {load * 1000:.0f} ms)"
        print(f"{label:<36}{r:>12,.1f}{r / ref:>22.5f}")

    start = time.perf_counter()
    lowered = lower_game(load_game(EXAMPLES / "tris.tgpl"))
    game = GdlGame(lowered.program)
    load = time.perf_counter() - start
    start_state = game.initial_state()
    r = rate(lambda rng, n, s=start_state: playout(s, rng), opts.seconds)
    label = f"gdl lowered tris.tgpl (load {load * 1000:.0f} ms)"
    print(f"{label:<36}{r:>12,.1f}{r / ref:>22.5f}")

    tris = load_game(EXAMPLES / "tris.tgpl").initial_state(0)
    r = rate(lambda rng, n: playout(tris, rng), opts.seconds)
    print(f"{'runtime tris.tgpl':<36}{r:>12,.1f}{r / ref:>22.5f}")


if __name__ == "__main__":
    main()
