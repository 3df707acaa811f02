"""Propositional-network size of the GDL the lowering emits, against hand-written GDL, and playout speed.

    python bench/propnet.py [--only tris,connect4] [--playouts 40] [--seed 7]
    python bench/propnet.py --kif LOWERED.kif HAND-WRITTEN.kif [...]

For each pair, the `.tgpl` example is lowered in this run (`tgpl.pipeline.lower_game`, as `tgpl to-gdl`
lowers it; to-gdl also validates it) and the hand-written GDL is read from examples/gdl:

- `tris`: examples/tris.tgpl against examples/gdl/tictactoe.kif
- `connect4`: examples/connect4.tgpl against examples/gdl/connect4.kif
- `reversi`: examples/reversi.tgpl against examples/gdl/reversi.kif (the lowering takes a quarter of an
  hour on 2 shared cores; not in the default `--only`)

`--kif A B ...` compares KIF files instead, two by two (a lowered game written by `tgpl to-gdl`, say
before and after a change, against its hand-written GDL).

Printed for each game: the propositional network's components (tgpl.asp.propnet: built from clingo's
grounding, constants propagated, what no player reads removed; propositions = bases + inputs + views,
gates = and + or + not, one transition per base) and the ratio lowered / hand-written; then random
playouts on the project's GDL reasoner (tgpl.asp.reasoner.GdlGame, grounded once): `--playouts` playouts
of each game, moves drawn with the runtime's PCG32 from `--seed`, measured in four interleaved turns (so a
change of the machine's load weighs on both alike), as playouts/s and the ratio lowered / hand-written.
The playouts are counted, the time is measured: only the ratio means anything on a shared machine.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's tgpl, not whichever one is installed

from tgpl.asp.propnet import PropnetSize, propnet_size  # noqa: E402
from tgpl.asp.reasoner import GdlGame, read_gdl  # noqa: E402
from tgpl.lowering.ir import Program  # noqa: E402
from tgpl.pipeline import lower_game  # noqa: E402
from tgpl.runtime import load_game  # noqa: E402
from tgpl.runtime.rng import Pcg32  # noqa: E402

EXAMPLES = ROOT / "examples"
PAIRS = {"tris": ("tris.tgpl", "tictactoe.kif"), "connect4": ("connect4.tgpl", "connect4.kif"),
         "reversi": ("reversi.tgpl", "reversi.kif")}
DEFAULT = "tris,connect4"
TURNS = 4

ROWS = (("bases (true)", "bases"), ("inputs (does)", "inputs"), ("views", "views"),
        ("and gates", "ands"), ("or gates", "ors"), ("not gates", "nots"), ("transitions", "transitions"),
        ("propositions", "propositions"), ("gates", "gates"), ("components", "components"))


def playouts_per_second(games: dict[str, GdlGame], count: int, seed: int) -> dict[str, float]:
    """`count` random playouts of each game from its initial state, in TURNS interleaved turns."""
    starts = {name: game.initial_state() for name, game in games.items()}
    rngs = {name: Pcg32(seed) for name in games}
    spent = dict.fromkeys(games, 0.0)
    done = dict.fromkeys(games, 0)
    for turn in range(TURNS):
        for name in games:
            n = count * (turn + 1) // TURNS - done[name]
            began = time.perf_counter()
            for _ in range(n):
                state = starts[name]
                while not state.is_terminal:
                    moves = state.legal_moves()
                    state = state.apply(moves[rngs[name].below(len(moves))])
            spent[name] += time.perf_counter() - began
            done[name] += n
    return {name: done[name] / spent[name] for name in games}


def compare(title: str, lowered: Program, written: Program, playouts: int, seed: int) -> tuple[float, float]:
    """Print the two networks and their speeds; return (components ratio, playout speed ratio)."""
    a, b = propnet_size(lowered), propnet_size(written)
    speed = playouts_per_second({"lowered": GdlGame(lowered), "written": GdlGame(written)}, playouts, seed)
    print(f"\n{title}")
    print(f"{'propositional network':<28}{'lowered':>10}{'hand-written':>14}{'lowered/hand':>14}")
    for label, attr in ROWS:
        x, y = getattr(a, attr), getattr(b, attr)
        ratio = f"{x / y:>14.2f}" if y else f"{'-':>14}"
        print(f"{label:<28}{x:>10,}{y:>14,}{ratio}")
    size_ratio = a.components / b.components
    speed_ratio = speed["lowered"] / speed["written"]
    print(f"{'playouts/s (GDL reasoner)':<28}{speed['lowered']:>10.1f}{speed['written']:>14.1f}{speed_ratio:>14.2f}"
          f"   ({playouts} playouts each, seed {seed})")
    return size_ratio, speed_ratio


def lowered_program(tgpl_name: str) -> Program:
    return lower_game(load_game(EXAMPLES / tgpl_name)).program


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--only", default=DEFAULT, help=f"comma-separated pairs among {','.join(PAIRS)}")
    args.add_argument("--playouts", type=int, default=40, help="random playouts of each game")
    args.add_argument("--seed", type=int, default=7, help="seed of the playouts' PCG32")
    args.add_argument("--kif", nargs="+", type=Path, help="KIF files to compare two by two: LOWERED HAND-WRITTEN")
    opts = args.parse_args()
    summary: list[tuple[str, float, float]] = []
    if opts.kif:
        if len(opts.kif) % 2:
            args.error("--kif takes files two by two: LOWERED HAND-WRITTEN ...")
        for low, hand in zip(opts.kif[::2], opts.kif[1::2]):
            ratios = compare(f"{low} vs {hand}", read_gdl(low)[0], read_gdl(hand)[0], opts.playouts, opts.seed)
            summary.append((low.name, *ratios))
    else:
        names = [n.strip() for n in opts.only.split(",") if n.strip()]
        unknown = sorted(set(names) - set(PAIRS))
        if unknown:
            args.error(f"unknown pair {', '.join(unknown)}; the pairs are {', '.join(PAIRS)}")
        for name in names:
            tgpl_name, kif_name = PAIRS[name]
            ratios = compare(f"{name}: lowered examples/{tgpl_name} vs hand-written examples/gdl/{kif_name}",
                             lowered_program(tgpl_name), read_gdl(EXAMPLES / "gdl" / kif_name)[0],
                             opts.playouts, opts.seed)
            summary.append((name, *ratios))
    print(f"\n{'game':<20}{'components ratio':>18}{'playouts/s ratio':>18}")
    for name, size_ratio, speed_ratio in summary:
        print(f"{name:<20}{size_ratio:>18.2f}{speed_ratio:>18.2f}")


if __name__ == "__main__":
    main()
