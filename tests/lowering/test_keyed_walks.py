"""A walk asked only whether its result is positive, keyed by where it stands (tgpl.lowering.keyed_walks).

Reversi's legal moves ask `Flips(...) > 0`, each direction's `FlipsIn` above 0: a backward relation keyed by the
square, the mover, the direction and the count's sign answers it, shared by every start (the move's flips walk
forwards from it: tests/lowering/test_walk_writes.py). tests/data/lowering/flank.tgpl is small enough to
bisimulate with the runtime.
"""

from __future__ import annotations

from pathlib import Path

from differential import Lowered, bisimulate
from tgpl.asp.kif import read_kif
from tgpl.asp.recursion import bind_recursion
from tgpl.lowering.keyed_walks import key_walks
from tgpl.pipeline import gdl_errors

ROOT = Path(__file__).resolve().parents[2]
FLANK = ROOT / "tests" / "data" / "lowering" / "flank.tgpl"


def _lowered(path: Path) -> Lowered:
    return Lowered.with_options(path, grounded_whole=True, moves="compiled", check=gdl_errors, repair=bind_recursion)


def _reads(program, relation: str) -> set[str]:
    return {a.relation for r in program.rules if r.head.relation == relation for a, _ in r.body_atoms()}


def test_flanks_legality_asks_the_keyed_walk_and_the_game_is_the_runtimes():
    lw = _lowered(FLANK)
    program = lw.lowered.program
    assert "flipsin_from" in program.defined()
    assert "flipsin" not in _reads(program, "flips_positive_exists")  # the start-keyed loop is the move's alone
    assert "flipsin_positive" in _reads(program, "flips_positive_exists")
    assert bisimulate(lw).states == 905


LINE = """
(role a)
(dir 1) (dir -1)
(STEP)
(<= (asked ?c) (cell ?c) (not (true (on ?c))))
(<= (walk ?d 0 ?n ?c) (asked ?c) (dir ?d) (next_to ?c ?d ?n))
(<= (walk ?d ?k2 ?n2 ?c) (walk ?d ?k ?n ?c) (true (on ?n)) (move ?d ?k ?c ?k2 ?n2))
(<= (run ?c ?d ?k) (walk ?d ?k ?n ?c) (not (true (on ?n))))
(<= (some ?c) (asked ?c) (dir ?d) (run ?c ?d ?k) (greater ?k 0))
(<= (legal a (go ?c)) (some ?c))
(<= (next (on ?c)) (does a (go ?c)))
(<= (next (on ?c)) (true (on ?c)))
(<= terminal (true (on 1)) (true (on 6)))
(<= (goal a 100) terminal)
"""
"""A walk along a line of six cells from each empty cell, while the cell ahead is taken: `run` its length,
asked only whether above 0. `next_to` is where a direction leads, `move` the step by start and count."""


CELLS = range(1, 7)


def _line(step_of) -> str:
    facts = [f"(cell {c}) (base (on {c})) (input a (go {c})) (greater {c} 0)" for c in CELLS]
    facts += [f"(next_to {c} {d} {c + d})" for c in CELLS for d in (1, -1) if c + d in CELLS]
    facts += [f"(move {d} {k} {c} {k + 1} {n})" for c in CELLS for d in (1, -1) for k in range(len(CELLS))
              if (n := step_of(c, d, k)) is not None]
    return LINE.replace("(STEP)", " ".join(facts))


def _along(c: int, d: int, k: int) -> int | None:
    n = c + (k + 2) * d
    return n if n in CELLS else None


def test_a_walk_whose_next_square_is_a_function_of_the_square_is_keyed():
    out = key_walks(read_kif(_line(_along)))
    assert "run" not in _reads(out, "some")
    keyed = [r for r in out.rules if r.head.relation == "run_from" and not r.is_fact]
    assert keyed and all("c" not in {v.name for v in r.head.variables()} for r in keyed)
    assert "walk" not in out.defined()  # no other reader: the start-keyed loop is gone


def test_a_walk_whose_next_square_depends_on_its_start_stays():
    """From cell 1 the walk on cell 4 jumps to cell 6, where from cell 2 it steps to cell 5: cell 4 has two
    futures in the same direction and sign, so only the start tells them apart, and keys gain nothing."""
    def skewed(c: int, d: int, k: int) -> int | None:
        return 6 if (c, d, k) == (1, 1, 2) else _along(c, d, k)
    program = read_kif(_line(skewed))
    assert key_walks(program) == program
