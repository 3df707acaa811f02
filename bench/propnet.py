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
of each game, moves drawn with the runtime's PCG32 from `--seed`, measured in eight interleaved turns, every
game of the run in each (so a change of the machine's load weighs on all alike), as playouts/s and the ratio lowered / hand-written.
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
TURNS = 8

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


def print_sizes(title: str, a: PropnetSize, b: PropnetSize) -> None:
    print(f"\n{title}")
    print(f"{'propositional network':<28}{'lowered':>10}{'hand-written':>14}{'lowered/hand':>14}")
    for label, attr in ROWS:
        x, y = getattr(a, attr), getattr(b, attr)
        ratio = f"{x / y:>14.2f}" if y else f"{'-':>14}"
        print(f"{label:<28}{x:>10,}{y:>14,}{ratio}")


def lowered_program(tgpl_name: str) -> Program:
    return lower_game(load_game(EXAMPLES / tgpl_name)).program


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--only", default=DEFAULT, help=f"comma-separated pairs among {','.join(PAIRS)}")
    args.add_argument("--playouts", type=int, default=40, help="random playouts of each game")
    args.add_argument("--seed", type=int, default=7, help="seed of the playouts' PCG32")
    args.add_argument("--kif", nargs="+", type=Path, help="KIF files to compare two by two: LOWERED HAND-WRITTEN")
    opts = args.parse_args()
    pairs: list[tuple[str, str, str]] = []  # (title, lowered's key, hand-written's key)
    programs: dict[str, Program] = {}
    if opts.kif:
        if len(opts.kif) % 2:
            args.error("--kif takes files two by two: LOWERED HAND-WRITTEN ...")
        for low, hand in zip(opts.kif[::2], opts.kif[1::2]):
            for path in (low, hand):
                if str(path) not in programs:
                    programs[str(path)] = read_gdl(path)[0]
            pairs.append((f"{low} vs {hand}", str(low), str(hand)))
    else:
        names = [n.strip() for n in opts.only.split(",") if n.strip()]
        unknown = sorted(set(names) - set(PAIRS))
        if unknown:
            args.error(f"unknown pair {', '.join(unknown)}; the pairs are {', '.join(PAIRS)}")
        for name in names:
            tgpl_name, kif_name = PAIRS[name]
            programs[tgpl_name] = lowered_program(tgpl_name)
            programs[kif_name] = read_gdl(EXAMPLES / "gdl" / kif_name)[0]
            pairs.append((f"{name}: lowered examples/{tgpl_name} vs hand-written examples/gdl/{kif_name}",
                          tgpl_name, kif_name))
    sizes = {key: propnet_size(program) for key, program in programs.items()}
    for title, low, hand in pairs:
        print_sizes(title, sizes[low], sizes[hand])
    speed = playouts_per_second({key: GdlGame(p) for key, p in programs.items()}, opts.playouts, opts.seed)
    print(f"\nrandom playouts on the GDL reasoner, {opts.playouts} of each game, seed {opts.seed}, "
          f"in {TURNS} interleaved turns")
    for key in programs:
        print(f"  {key:<40}{speed[key]:>10.1f} playouts/s")
    print(f"\n{'lowered':<40}{'components ratio':>18}{'playouts/s ratio':>18}")
    for _, low, hand in pairs:
        print(f"{low:<40}{sizes[low].components / sizes[hand].components:>18.2f}"
              f"{speed[low] / speed[hand]:>18.2f}")

if __name__ == "__main__":
    main()
