"""The reasoner's two modes, grounded once and grounded per state, measured in the same run.

    python bench/reasoner_modes.py [--playouts 20] [--turns 3] [--big] [--parse-each]

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
without each state's bound. With --parse-each, also the per-state mode as it
would be without its parsed-once rules: each query's Control parses the rules'
text (`Control.add`), the simple design the mode improves on.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import clingo  # noqa: E402

from tgpl.asp.kif import read_kif, read_kif_file  # noqa: E402
from tgpl.asp.per_state import StateQueries  # noqa: E402
from tgpl.asp.reasoner import GdlGame  # noqa: E402
from tgpl.lowering.ir import Program  # noqa: E402

MODES = ("once", "per-state")
PARSE_EACH = "parse-each"
"""The per-state mode with its rules parsed by every query (--parse-each)."""


class ParsedEachQuery(StateQueries):
    """A query that parses the rules' text into a fresh Control, facts as text: no parsed-once statements."""

    def solve(self, facts):
        ctl = clingo.Control(["--warn=none", "--models=1"])
        ctl.add("base", [], self.text)
        ctl.add("base", [], "".join(f"{f}.\n" for f in facts))
        ctl.ground([("base", [])])
        found = []
        ctl.solve(on_model=lambda m: found.append(m.symbols(shown=True)))
        return found[0]


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
    game = GdlGame(program, "per-state" if mode == PARSE_EACH else mode)
    if mode == PARSE_EACH:  # the same game, its queries made by the simple design
        game._queries._queries = ParsedEachQuery(program, game.names)
    game.initial_state()
    return game, time.perf_counter() - start


def measure(name: str, program: Program, playouts: int, turns: int, modes: tuple[str, ...] = MODES) -> None:
    games, setup = {}, {}
    for mode in modes:
        games[mode], setup[mode] = made(program, mode)
    seconds = {mode: 0.0 for mode in modes}
    results: dict[str, list] = {mode: [] for mode in modes}
    for turn in range(turns):
        order = modes if turn % 2 == 0 else modes[::-1]
        for mode in order:
            start = time.perf_counter()
            results[mode] = [playout(games[mode], seed) for seed in range(playouts)]
            seconds[mode] += time.perf_counter() - start
    same = all(results[mode] == results["once"] for mode in modes)
    rate = {mode: playouts * turns / seconds[mode] for mode in modes}
    moves = sum(steps for steps, _ in results["once"]) / max(playouts, 1)
    print(f"{name}: {len(program.rules)} rules, {moves:.1f} joint moves a playout, same playouts in both modes: "
          f"{'yes' if same else 'NO'}")
    for mode in modes:
        print(f"  {mode:<10} {rate[mode]:10.1f} playouts/s   (game and initial state made in "
              f"{setup[mode] * 1e3:.1f} ms)")
    print(f"  ratio per-state / grounded-once: {rate['per-state'] / rate['once']:.3f}"
          f"  (grounded once is {rate['once'] / rate['per-state']:.1f}x faster)")
    if PARSE_EACH in rate:
        print(f"  ratio per-state / per-state parsing its rules each query: "
              f"{rate['per-state'] / rate[PARSE_EACH]:.2f}")


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
    parser.add_argument("--parse-each", action="store_true",
                        help="also per state with the rules parsed by each query, as a simple design would")
    args = parser.parse_args()
    modes = MODES + ((PARSE_EACH,) if args.parse_each else ())
    for kif in ("tictactoe.kif", "connect4.kif"):
        program, _ = read_kif_file(ROOT / "examples" / "gdl" / kif)
        measure(f"examples/gdl/{kif}", program, args.playouts, args.turns, modes)
    from tgpl.pipeline import lower_game
    from tgpl.runtime import load_game

    lowered = lower_game(load_game(str(ROOT / "examples" / "connect4.tgpl"))).program
    measure("connect4.tgpl lowered (tgpl to-gdl)", lowered, args.playouts, args.turns, modes)
    if args.big:
        big_board(10)


if __name__ == "__main__":
    main()
