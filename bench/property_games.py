"""Many generated games through the lowering, each explored completely beside the runtime.

    python bench/property_games.py [--seeds 1 2 3] [--examples 200] [--shrink] [--relations]
    python bench/property_games.py --board [--seeds 1 2 3] [--examples 20] [--check-gdl]

The property test of tests/lowering/test_property_games.py at a larger scale:
for each seed, `--examples` games from tests/lowering/gamegen.py go through the
checker and the lowering, and each lowered game is explored side by side with
the runtime (`bisimulate`). Prints, per seed, how many games were lowered,
refused or rejected,
their states, and the time; a game that differs is printed with its seed and
source (with `--shrink`, after hypothesis made it smaller) and the exit status is 1.
With `--relations`, each game is lowered with `--functions-as-relations`; with `--compiled`, with
`--moves compiled` (tgpl.lowering.compiled), where it is within that subset ("refused" otherwise).

With `--board`, the games are tests/lowering/boardgen.py's board games (walks, flanking, counts:
tests/lowering/test_board_games.py), each lowered with `--moves auto` and `compiled` and bisimulated, or
refused at a line of the game; any other exception fails it too (an internal error), printed with the
game. With `--check-gdl`, each emitted game also goes through `tgpl check-gdl`'s checks, whose errors are
tallied ("check-gdl errors") and the first game with them printed (they do not fail the run: a known bug,
test_board_games.py).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "lowering")]  # this checkout's tgpl, not an installed one

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402

from differential import lowers_to_the_same_game  # noqa: E402
from gamegen import games  # noqa: E402
from boardgen import boards, lowers_or_is_refused  # noqa: E402


def run(s: int, examples: int, shrink: bool, relations: bool = False,
        moves: str = "auto") -> tuple[Counter, list[int], str | None]:
    tally: Counter = Counter()
    sizes: list[int] = []
    failed: list[str] = []
    phases = [Phase.generate] + ([Phase.shrink] if shrink else [])

    @seed(s)
    @settings(max_examples=examples, deadline=None, database=None, phases=phases,
              suppress_health_check=list(HealthCheck))
    @given(games())
    def check(source: str) -> None:
        try:
            outcome, states = lowers_to_the_same_game(source, relations=relations, moves=moves)
        except AssertionError:
            failed.append(source)
            raise
        tally[outcome] += 1
        if outcome in ("lowered", "compiled", "moves compiled"):
            sizes.append(states)

    try:
        check()
    except AssertionError:
        return tally, sizes, failed[-1]
    return tally, sizes, None


def run_board(s: int, examples: int, shrink: bool, check_gdl: bool) -> tuple[Counter, list[int], str | None, str]:
    """`run` for boardgen's games: the tally (outcomes per way of lowering, shapes of the refused), states of
    those lowered, the failing game (with its error) if any, and the first game check-gdl found errors in."""
    tally: Counter = Counter()
    sizes: list[int] = []
    failed: list[str] = []
    flagged: list[str] = []
    phases = [Phase.generate] + ([Phase.shrink] if shrink else [])

    @seed(s)
    @settings(max_examples=examples, deadline=None, database=None, phases=phases,
              suppress_health_check=list(HealthCheck))
    @given(boards())
    def check(game) -> None:
        try:
            outcomes = lowers_or_is_refused(game.source, check_gdl)
        except Exception as e:  # a difference (AssertionError) or an internal error: both fail
            failed.append(f"{type(e).__name__}: {e}\nshapes: {' '.join(game.shapes)}\n{game.source}")
            raise AssertionError(str(e)) from e
        for o in outcomes:
            tally[f"{o.moves}: {o.result}"] += 1
            if o.result == "lowered":
                sizes.append(o.states)
            else:
                tally[f"refused: {o.refusal.split(': ', 1)[1][:80]}"] += 1
            if o.check_gdl:
                tally["check-gdl errors"] += 1
                if not flagged:
                    flagged.append(f"{o.check_gdl[0]}\nshapes: {' '.join(game.shapes)}\n{game.source}")

    try:
        check()
    except AssertionError:
        return tally, sizes, failed[-1] if failed else "(no game recorded)", flagged[0] if flagged else ""
    return tally, sizes, None, flagged[0] if flagged else ""


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--seeds", type=int, nargs="*", default=[1, 2, 3])
    args.add_argument("--examples", type=int, default=200)
    args.add_argument("--shrink", action="store_true", help="shrink a failing game before printing it")
    args.add_argument("--relations", action="store_true", help="lower with --functions-as-relations")
    args.add_argument("--compiled", action="store_true", help="lower with --moves compiled")
    args.add_argument("--board", action="store_true", help="board games (tests/lowering/boardgen.py) instead")
    args.add_argument("--check-gdl", action="store_true", help="with --board: also run check-gdl's checks")
    opts = args.parse_args()
    status = 0
    for s in opts.seeds:
        start = time.perf_counter()
        flagged = ""
        if opts.board:
            tally, sizes, failure, flagged = run_board(s, opts.examples, opts.shrink, opts.check_gdl)
        else:
            tally, sizes, failure = run(s, opts.examples, opts.shrink, opts.relations,
                                        "compiled" if opts.compiled else "auto")
        took = time.perf_counter() - start
        sizes.sort()
        median = sizes[len(sizes) // 2] if sizes else 0
        print(f"seed {s}: {dict(tally)}; states median {median}, max {max(sizes, default=0)}, "
              f"total {sum(sizes)}; {took:.1f} s")
        if failure is not None:
            status = 1
            print(f"seed {s}: the lowered game differs from the runtime's:\n{failure}")
        if flagged:
            print(f"seed {s}: check-gdl finds errors in the emitted GDL of:\n{flagged}")
    sys.exit(status)


if __name__ == "__main__":
    main()
