"""What each fast path of the runtime gains: the tree as it is against the tree with one fast path
taken out, in one process, timed alternately.

    python bench/fast_paths.py [--rounds 7] [--games tris,c4,draughts,chess] [PATH...]

A fast path is kept while it pays (docs/runtime.md, "Speed"): this takes each one out by a patch
(`PATCHES`: the generator or the game told not to take it), loads the games again under the patch
and times the same work both ways, round after round, alternating which goes first. Each figure is
the best CPU time (`time.process_time`, which the load of a shared machine disturbs much less than
the wall clock) without the path over the best with it: 1.05 means it saves 5 %. `none` takes
nothing out: its figures are the noise. The work is deterministic, and the results of both ways are
compared (`DIFFERENT` where they are not: a patch that changed what a game does, not how fast).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's tgpl, not whichever one is installed
sys.path.insert(0, str(ROOT / "tests" / "examples"))

from tgpl.runtime import codegen, compiler, defaults, direct, game as game_module, load_game  # noqa: E402
from tgpl.runtime.rng import Pcg32  # noqa: E402

BG = codegen.BlockGenerator


def _patch(obj, name: str, value):
    """(take out, put back) for `obj.name = value`."""
    old = getattr(obj, name)
    return (lambda: setattr(obj, name, value)), (lambda: setattr(obj, name, old))


def _plan_without_data(*args):
    plan = _QUICK(*args)
    return plan if plan is None else dataclasses.replace(plan, data=None)


def _apply_through_run(self, move):
    """`State.apply` without its path for a move found before (`Game.played`)."""
    if isinstance(move, str):
        move = self.move_by_text(move)
    if self.request is not None:
        return game_module.State._run(self.game, self.base, self.first, [*self.choices, move.value])
    return game_module.State._run(self.game, self.world, move, [])


_QUICK = game_module.quick
PATCHES = {
    "none": ((lambda: None), (lambda: None)),
    "hoisted reads": _patch(BG, "hoisted", lambda self, *a: None),
    "inline calls": _patch(BG, "maybe_inlined", lambda self, call, *a: call),
    "fixed tables": _patch(BG, "fixed_table_at", lambda self, *a: None),
    "flat views": _patch(codegen.flat_views, "widths", lambda *a: None),
    "prefiltered pools": _patch(BG, "prefiltered", lambda self, *a: None),
    "fixed expressions": _patch(BG, "fixed", lambda self, e: None),
    "list items": _patch(BG, "quick_item", lambda self, safe, *a: safe),
    "listing sites": _patch(BG, "listing_worth", lambda self, *a: False),
    "inline turn.pass()": _patch(BG, "turn_pass", lambda self, *a: False),
    "direct calls": _patch(compiler.Compiler, "direct_callee", lambda self, *a: False),
    "poly dispatch": _patch(direct, "poly_site", lambda generic, poly, n, span: generic),
    "tabulated defaults": _patch(defaults, "control_only", lambda *a: False),
    "listing plans": _patch(game_module, "quick", lambda *a: None),
    "plans per world": _patch(game_module, "_plans_of", lambda game, world: None),
    "listing without machine": _patch(game_module, "quick", _plan_without_data),
    "one-segment moves": _patch(game_module.State, "apply", _apply_through_run),
}


def _playouts(start, n: int) -> list:
    rng = Pcg32(7)
    out = []
    for _ in range(n):
        state = start
        while not state.is_terminal:
            moves = state.legal_moves()
            state = state.apply(moves[rng.below(len(moves))])
        out.append(tuple(state.goals))
    return out


def _perft(state, depth: int) -> int:
    return 1 if depth == 0 else sum(_perft(state.apply(m), depth - 1) for m in state.legal_moves())


def _work(games: list[str]) -> dict:
    """Each game's work, its game loaded now (under the patch in force, if any)."""
    from chess_fen import KIWIPETE, START, game_for, state_for

    work = {}
    for name in games:
        if name == "chess":
            game_for.cache_clear()  # loaded again, not the game of the other way
            start, kiwi = state_for(START), state_for(KIWIPETE)
            work["chess perft(2) x3"] = lambda s=start: [_perft(s, 2) for _ in range(3)]
            work["kiwipete perft(2)"] = lambda s=kiwi: _perft(s, 2)
        else:
            file, n = {"tris": ("tris.tgpl", 1000), "c4": ("connect4.tgpl", 120), "draughts": ("draughts.tgpl", 3)}[name]
            start = load_game(ROOT / "examples" / file).initial_state(0)
            work[f"{name} x{n}"] = lambda s=start, n=n: _playouts(s, n)
    return work


def _timed(fn, patch=None):
    take, back = patch or (lambda: None, lambda: None)
    take()
    try:
        t = time.process_time()
        value = fn()
        return time.process_time() - t, value
    finally:
        back()


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("paths", nargs="*", help=f"the fast paths to take out (default: all): {', '.join(PATCHES)}")
    args.add_argument("--rounds", type=int, default=7)
    args.add_argument("--games", default="tris,c4,draughts,chess")
    opts = args.parse_args()
    games = opts.games.split(",")
    with_it = _work(games)
    for name in opts.paths or list(PATCHES):
        patch = PATCHES[name]
        patch[0]()
        try:
            without = _work(games)
        finally:
            patch[1]()
        figures = []
        for work, fn in with_it.items():
            a = [_timed(fn)]  # a first run of each, not counted: the memos filled, the code warm
            b = [_timed(without[work], patch)]
            for r in range(opts.rounds):
                for first in ((True, False) if r % 2 == 0 else (False, True)):
                    if first:
                        a.append(_timed(fn))
                    else:
                        b.append(_timed(without[work], patch))
            same = "" if a[-1][1] == b[-1][1] else " DIFFERENT"
            figures.append(f"{work} {min(t for t, _ in b[1:]) / min(t for t, _ in a[1:]):.3f}{same}")
        print(f"{name:<24} " + "  ".join(figures), flush=True)


if __name__ == "__main__":
    main()
