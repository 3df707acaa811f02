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

Timings on a shared machine vary from run to run, so each row is also given as
a ratio to a reference measured in the same run: a hand-written breadth-first
exploration of tic-tac-toe in plain Python (a tuple board, the 8 lines checked
after each move), which shares no code with tgpl.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tgpl.asp.bounded import BoundedSearch, bounded_verify  # noqa: E402
from tgpl.lowering.lower import QUERY_RELATION  # noqa: E402
from tgpl.pipeline import lower_game  # noqa: E402
from tgpl.asp.reasoner import GdlGame  # noqa: E402
from tgpl.asp.verify import GdlMachine  # noqa: E402
from tgpl.runtime import load_game  # noqa: E402
from tgpl.verify.runtime_machine import RuntimeMachine  # noqa: E402
from tgpl.verify.graph import explore, verify  # noqa: E402
from tgpl.cli import DEFAULT_ENGINE  # noqa: E402


LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def reference_explore() -> tuple[int, int]:
    """Every reachable tic-tac-toe position, breadth first, in plain Python: (states, terminal)."""
    start = ((None,) * 9, 0)
    seen = {start}
    frontier = [start]
    terminal = 0
    while frontier:
        following = []
        for board, player in frontier:
            if any(board[a] is not None and board[a] == board[b] == board[c] for a, b, c in LINES) \
                    or None not in board:
                terminal += 1
                continue
            for i in range(9):
                if board[i] is None:
                    nxt = (board[:i] + (player,) + board[i + 1:], 1 - player)
                    if nxt not in seen:
                        seen.add(nxt)
                        following.append(nxt)
        frontier = following
    return len(seen), terminal


def timed_reference(repeat: int) -> float:
    best = float("inf")
    for _ in range(10 * repeat):  # it is short: more runs for a steady best
        start = time.perf_counter()
        counts = reference_explore()
        best = min(best, time.perf_counter() - start)
    assert counts == (5478, 958), counts
    return best


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
    parser.add_argument("--no-connect4", dest="connect4", action="store_false",
                        help="skip Connect Four's bounded verify and query (about two minutes)")
    args = parser.parse_args()
    tris = load_game(ROOT / "examples" / "tris.tgpl")
    gdl = GdlGame.load(ROOT / "examples" / "gdl" / "tictactoe.kif")
    ref = timed_reference(args.repeat)
    lowered = lower_game(tris)
    texts = lowered.move_texts
    rows = [("runtime, examples/tris.tgpl", timed(lambda: RuntimeMachine(tris), args.repeat)),
            ("clingo, examples/tris.tgpl lowered", timed(
                lambda: GdlMachine(GdlGame(lowered.program), ["player 0", "player 1"], texts), args.repeat)),
            ("GDL reasoner, examples/gdl/tictactoe.kif", timed(lambda: GdlMachine(GdlGame(gdl.program)), args.repeat))]
    ref = min(ref, timed_reference(args.repeat))  # before and after, against drift in the machine's load
    print(f"{'complete verify of tic-tac-toe':42} {'explore':>9} {'total':>9} {'total / reference':>18}")
    print(f"{'reference: plain Python BFS (explore only)':42} {ref:8.3f}s {ref:8.3f}s {1.0:18.1f}")
    for name, (e, t, _) in rows:
        print(f"{name:42} {e:8.2f}s {t:8.2f}s {t / ref:18.1f}")
    (_, (_, rt, _)), (_, (_, ct, _)), (_, (_, gt, _)) = rows
    faster = "runtime" if rt < ct else "clingo"
    print(f"tris.tgpl, ratio runtime / clingo on the lowered game: {rt / ct:.2f} "
          f"(the {faster} is faster; tgpl verify --engine defaults to {DEFAULT_ENGINE})")
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
    if not args.connect4:
        return
    print()
    connect4 = load_game(ROOT / "examples" / "connect4.tgpl")
    start = time.perf_counter()
    c4 = lower_game(connect4)
    lowering = time.perf_counter() - start
    print(f"{'Connect Four (lowered in ' + format(lowering, '.1f') + ' s)':42} {'total':>9} {'/ reference':>15} {'solves':>7}")
    for horizon in (8, 10, 12):
        start = time.perf_counter()
        report = bounded_verify(c4.program, horizon)
        took = time.perf_counter() - start
        assert report.problems == [] and not report.complete, report.to_json()
        print(f"{'bounded verify, horizon ' + str(horizon):42} {took:8.1f}s {took / ref:15.0f} {report.solves:7}")
    # a query: a full column (its top cell taken) is reachable, after 6 moves
    query = "GameState.Board.At(c: 3, r: 0).Disc != null"
    start = time.perf_counter()
    source = (ROOT / "examples" / "connect4.tgpl").read_text()
    from tgpl.frontend.loader import load_program  # the query is appended as a function, as `tgpl query` does
    program = load_program(ROOT / "examples" / "connect4.tgpl",
                           text=source + f"\nfunction BenchQuery {{ returns bool; effect {{ return ({query}); }} }}\n")
    from tgpl.runtime.game import Game, compile_program

    q = lower_game(Game(program, compile_program(program)), 0, "BenchQuery")
    search = BoundedSearch(q.program)
    while search.ask(QUERY_RELATION) is None:
        search.extend()
    took = time.perf_counter() - start
    assert search.time == 6
    print(f"{'query: a full column (found after 6 moves)':42} {took:8.1f}s {took / ref:15.0f} {search.solves:7}")


if __name__ == "__main__":
    main()
