"""Translation validation (tgpl.validation) as `tgpl to-gdl` and `tgpl to-asp` run it, on Tris, Connect Four and Hex.

    python bench/validation.py [--seconds 10] [--games tris,connect4,hex,chess/chess]

For each game: the lowering (not part of the validation), then the validation
with the given budget, without and with the ASP encoding (to-asp), and what it
covered: the bisimulation's states, or the playouts, steps compared and depth
cut. Timings on a shared machine vary from run to run, so the Tris row is also
given as a ratio to a reference measured in the same run: the runtime's
complete exploration of Tris (`tgpl verify`'s, tgpl.verify.graph.explore on
tgpl.runtime.verify.RuntimeMachine), which the bisimulation contains. A game
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
from tgpl.runtime.verify import RuntimeMachine  # noqa: E402
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
    parser.add_argument("--seconds", type=float, default=10.0, help="the validation budget (--validate-seconds)")
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
            result = validate_translation(game, lowered, 0, args.seconds, asp=asp)
            assert result.ok, result.mismatch
            print(f"{name:10} {lowering:8.2f}s {command:7} {result.seconds:6.1f}s {result.seconds / ref:6.1f}  "
                  f"{result.summary()}")
    print(f"reference again: {reference(tris):.2f} s")


if __name__ == "__main__":
    main()
