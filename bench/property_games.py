"""Many generated games through the lowering, each explored completely beside the runtime.

    python bench/property_games.py [--seeds 1 2 3] [--examples 200] [--shrink] [--relations]

The property test of tests/lowering/test_property_games.py at a larger scale:
for each seed, `--examples` games from tests/lowering/gamegen.py go through the
checker and the lowering, and each lowered game is explored side by side with
the runtime (`bisimulate`). Prints, per seed, how many games were lowered,
refused or rejected,
their states, and the time; a game that differs is printed with its seed and
source (with `--shrink`, after hypothesis made it smaller) and the exit status is 1.
With `--relations`, each game is lowered with `--functions-as-relations`; with `--compiled`, with
`--moves compiled` (tgpl.lowering.compiled), where it is within that subset ("refused" otherwise).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "lowering"))

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402

from differential import lowers_to_the_same_game  # noqa: E402
from gamegen import games  # noqa: E402


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


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--seeds", type=int, nargs="*", default=[1, 2, 3])
    args.add_argument("--examples", type=int, default=200)
    args.add_argument("--shrink", action="store_true", help="shrink a failing game before printing it")
    args.add_argument("--relations", action="store_true", help="lower with --functions-as-relations")
    args.add_argument("--compiled", action="store_true", help="lower with --moves compiled")
    opts = args.parse_args()
    status = 0
    for s in opts.seeds:
        start = time.perf_counter()
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
    sys.exit(status)


if __name__ == "__main__":
    main()
