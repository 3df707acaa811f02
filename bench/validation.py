"""Translation validation (tgpl.validation) as `tgpl to-gdl` and `tgpl to-asp` run it, on Tris, Connect Four and Hex.

    python bench/validation.py [--steps 1000] [--games tris,connect4,hex,chess/chess]

For each game: the lowering (not part of the validation), then the validation
with the given steps (--validate-steps), without and with the ASP encoding
(to-asp), how long it took and what it covered: the bisimulation's states, or
the playouts, those to the end of the game, the steps compared and the deepest
(the same on every run: counted, never timed). Timings on a shared machine vary from run to run, so the Tris row is also
given as a ratio to a reference measured in the same run: the runtime's
complete exploration of Tris (`tgpl verify`'s, tgpl.verify.graph.explore on
tgpl.verify.runtime_machine.RuntimeMachine), which the bisimulation contains. A game
played one state at a time (chess, its moves compiled) has no to-asp row: its
time-indexed encoding is too large to ground (docs/lowering.md, "Chess").
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tgpl.asp.asp_emit import encode_asp  # noqa: E402
from tgpl.pipeline import lower_game  # noqa: E402
from tgpl.runtime import load_game  # noqa: E402
from tgpl.verify.runtime_machine import RuntimeMachine  # noqa: E402
from tgpl.validation import validate_translation  # noqa: E402
from tgpl.verify.graph import explore  # noqa: E402


def reference(tris) -> float:
    start = time.perf_counter()
    g = explore(RuntimeMachine(tris))
    took = time.perf_counter() - start
    assert g.complete and g.states == 5478
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1000, help="the steps the playouts compare (--validate-steps)")
    parser.add_argument("--games", default="tris,connect4,hex")
    args = parser.parse_args()
    tris = load_game(ROOT / "examples" / "tris.tgpl")
    ref = reference(tris)
    print(f"reference: the runtime explores Tris (5,478 states) in {ref:.2f} s")
    print(f"{'game':10} {'lowering':>9} {'command':7} {'time':>7} {'/ ref':>6}  what was validated")
    for name in args.games.split(","):
        game = tris if name == "tris" else load_game(ROOT / "examples" / f"{name}.tgpl")
        start = time.perf_counter()
        lowered = lower_game(game)
        lowering = time.perf_counter() - start
        commands = [("to-gdl", None)]
        if lowered.grounding is None:
            commands.append(("to-asp", encode_asp(lowered.program)))
        for command, asp in commands:
            result = validate_translation(game, lowered, 0, args.steps, asp=asp)
            assert result.ok, result.mismatch
            print(f"{name:10} {lowering:8.2f}s {command:7} {result.seconds:6.1f}s {result.seconds / ref:6.1f}  "
                  f"{result.summary()}")
    print(f"reference again: {reference(tris):.2f} s")


if __name__ == "__main__":
    main()
