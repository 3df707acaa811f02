"""Complete `tgpl verify` on tic-tac-toe: through the TGPL runtime and through the GDL reasoner.

    python bench/verify.py [--repeat 3]

Times exploring every reachable state (tgpl.verify.graph.explore) and the
analyses (tgpl.verify.graph.verify: stuck states, cycles, goals, weak and
forced wins) on examples/tris.tgpl through the runtime, and on
examples/gdl/tictactoe.kif through the GDL reasoner (clingo, grounded once,
one solve per state), best of --repeat runs, and prints their ratio. Loading
and grounding are not timed. Both must find 5478 states and 958 terminal ones.

Then bounded verify (tgpl.asp.bounded: clingo multi-shot, ground step by step)
of examples/gdl/tictactoe.kif at horizons 5, 7 and 9, best of --repeat runs,
each as a ratio to the complete verify through the GDL reasoner measured in
the same run. Its grounding is timed: it is part of the bounded search.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tgpl.asp.bounded import bounded_verify  # noqa: E402
from tgpl.asp.reasoner import GdlGame  # noqa: E402
from tgpl.asp.verify import GdlMachine  # noqa: E402
from tgpl.runtime import load_game  # noqa: E402
from tgpl.runtime.verify import RuntimeMachine  # noqa: E402
from tgpl.verify.graph import explore, verify  # noqa: E402


def timed(make, repeat: int) -> tuple[float, float, dict]:
    best_explore = best_total = float("inf")
    report: dict = {}
    for _ in range(repeat):
        machine = make()
        start = time.perf_counter()
        graph = explore(machine)
        middle = time.perf_counter()
        report = verify(graph)
        end = time.perf_counter()
        best_explore, best_total = min(best_explore, middle - start), min(best_total, end - start)
    assert (report["states"], report["terminal"]) == (5478, 958) and report["value"] == "draw", report
    return best_explore, best_total, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    tris = load_game(ROOT / "examples" / "tris.tgpl")
    gdl = GdlGame.load(ROOT / "examples" / "gdl" / "tictactoe.kif")
    rows = [("runtime, examples/tris.tgpl", timed(lambda: RuntimeMachine(tris), args.repeat)),
            ("GDL reasoner, examples/gdl/tictactoe.kif", timed(lambda: GdlMachine(GdlGame(gdl.program)), args.repeat))]
    print(f"{'complete verify of tic-tac-toe':42} {'explore':>9} {'total':>9}")
    for name, (e, t, _) in rows:
        print(f"{name:42} {e:8.2f}s {t:8.2f}s")
    (_, (_, rt, _)), (_, (_, gt, _)) = rows
    faster = "runtime" if rt < gt else "GDL reasoner"
    print(f"ratio runtime / GDL reasoner: {rt / gt:.2f} (the {faster} is faster)")
    print()
    print(f"{'bounded verify of tictactoe.kif':42} {'total':>9} {'/ complete GDL':>15} {'solves':>7}")
    for horizon in (5, 7, 9):
        best = float("inf")
        for _ in range(args.repeat):
            start = time.perf_counter()
            report = bounded_verify(gdl.program, horizon)
            best = min(best, time.perf_counter() - start)
        assert report.problems == [] and report.complete == (horizon == 9), report.to_json()
        print(f"{'horizon ' + str(horizon):42} {best:8.3f}s {best / gt:15.3f} {report.solves:7}")


if __name__ == "__main__":
    main()
