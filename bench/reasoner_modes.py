"""The reasoner's two modes, grounded once and grounded per state, measured in the same run.

    python bench/reasoner_modes.py [--playouts 20] [--turns 3] [--big]

For each game, N seeded random playouts (seeds 0..N-1, `random.Random`) are
played in both modes, in alternating turns so that a shared machine's load
falls on both alike; the report gives each mode's playouts/s and the ratio
per-state / grounded-once, and checks that both modes played the same playouts
(the same length and goals for each seed). The time to make the game and its
initial state is given apart (grounding once is paid there).

Games: the hand-written examples/gdl/tictactoe.kif and examples/gdl/connect4.kif,
and Connect Four lowered from examples/connect4.tgpl in this run (`tgpl to-gdl`'s
rules, through tgpl.pipeline). With --big, also a few moves of tic-tac-toe on a
59x59 board without base/input, which only the per-state mode can play (its
grounding for every state at once is over --max-ground): moves/s, with and
without each state's bound.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tgpl.asp.kif import read_kif, read_kif_file  # noqa: E402
from tgpl.asp.reasoner import GdlGame  # noqa: E402
from tgpl.lowering.ir import Program  # noqa: E402

MODES = ("once", "per-state")


def playout(game: GdlGame, seed: int) -> tuple[int, tuple]:
    """A seeded random playout: its length and final goals (the same in both modes)."""
    rng = random.Random(seed)
    state = game.initial_state()
    steps = 0
    while not state.is_terminal:
        state = state.apply(rng.choice(state.legal_moves()))
        steps += 1
    return steps, tuple(state.goals)


def made(program: Program, mode: str) -> tuple[GdlGame, float]:
    """The game and its initial state, and the seconds that took."""
    start = time.perf_counter()
    game = GdlGame(program, mode)
    game.initial_state()
    return game, time.perf_counter() - start


def measure(name: str, program: Program, playouts: int, turns: int) -> None:
    games, setup = {}, {}
    for mode in MODES:
        games[mode], setup[mode] = made(program, mode)
    seconds = {mode: 0.0 for mode in MODES}
    results: dict[str, list] = {mode: [] for mode in MODES}
    for turn in range(turns):
        order = MODES if turn % 2 == 0 else MODES[::-1]
        for mode in order:
            start = time.perf_counter()
            results[mode] = [playout(games[mode], seed) for seed in range(playouts)]
            seconds[mode] += time.perf_counter() - start
    same = results["once"] == results["per-state"]
    rate = {mode: playouts * turns / seconds[mode] for mode in MODES}
    moves = sum(steps for steps, _ in results["once"]) / max(playouts, 1)
    print(f"{name}: {len(program.rules)} rules, {moves:.1f} joint moves a playout, same playouts in both modes: "
          f"{'yes' if same else 'NO'}")
    for mode in MODES:
        print(f"  {mode:<10} {rate[mode]:10.1f} playouts/s   (game and initial state made in "
              f"{setup[mode] * 1e3:.1f} ms)")
    print(f"  ratio per-state / grounded-once: {rate['per-state'] / rate['once']:.3f}"
          f"  (grounded once is {rate['once'] / rate['per-state']:.1f}x faster)")


def big_board(moves: int) -> None:
    """A few moves of the 59x59 board, per state only."""
    text = (ROOT / "examples" / "gdl" / "tictactoe.kif").read_text(encoding="utf-8").replace(
        "(index 3)", "\n".join(f"(index {i})" for i in range(3, 60)))
    text = "\n".join(line for line in text.splitlines() if not line.startswith(("(<= (base", "(<= (input")))
    program = read_kif(text)
    for label, max_ground in (("each state bounded", 10_000_000), ("no bound", None)):
        start = time.perf_counter()
        game = GdlGame(program, "per-state", max_ground)
        state = game.initial_state()
        ready = time.perf_counter() - start
        rng = random.Random(0)
        start = time.perf_counter()
        for _ in range(moves):
            state = state.apply(rng.choice(state.legal_moves()))
        elapsed = time.perf_counter() - start
        print(f"tic-tac-toe 59x59 per state ({label}): initial state in {ready * 1e3:.0f} ms, "
              f"{moves / elapsed:.1f} moves/s over {moves} moves")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--playouts", type=int, default=20, help="seeded playouts per game, mode and turn")
    parser.add_argument("--turns", type=int, default=3, help="alternating turns per mode")
    parser.add_argument("--big", action="store_true", help="also a few moves of the 59x59 board, per state")
    args = parser.parse_args()
    for kif in ("tictactoe.kif", "connect4.kif"):
        program, _ = read_kif_file(ROOT / "examples" / "gdl" / kif)
        measure(f"examples/gdl/{kif}", program, args.playouts, args.turns)
    from tgpl.pipeline import lower_game
    from tgpl.runtime import load_game

    lowered = lower_game(load_game(str(ROOT / "examples" / "connect4.tgpl"))).program
    measure("connect4.tgpl lowered (tgpl to-gdl)", lowered, args.playouts, args.turns)
    if args.big:
        big_board(10)


if __name__ == "__main__":
    main()
