"""A move's writes along a keyed walk, walked forwards from where it stands (tgpl.lowering.walk_writes).

A move that asks a walk's count and writes the first k squares of its line (Reversi's flips) joined the walk
keyed by its start and count with the writing loop's table per count. Once the walk is keyed backwards
(tgpl.lowering.keyed_walks), such a reader asks a forward walk keyed by the square it stands on, seeded where
the walk is positive, and a table of what each step writes; a reader whose table ignores the count reads the
table without it. Checked here on a line of six cells in KIF (the rewritten game bisimilar to the one it came
from, `tgpl compare`) and on examples/reversi.tgpl against the runtime (`to-gdl`'s validation).
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from differential import Lowered, bisimulate
from tgpl.asp.kif import read_kif, to_kif
from tgpl.cli import main
from tgpl.lowering.keyed_walks import key_walks
from tgpl.pipeline import lower_game
from tgpl.runtime.game import load_game

ROOT = Path(__file__).resolve().parents[2]
FLANK = ROOT / "tests" / "data" / "lowering" / "flank.tgpl"

CELLS = range(1, 7)

LINE = """
(role a)
(dir 1) (dir -1)
(init (on 3)) (init (on 4))
(FACTS)
(<= (asked ?c) (cell ?c) (not (true (on ?c))))
(<= (walk ?d 0 ?n ?c) (asked ?c) (dir ?d) (next_to ?c ?d ?n))
(<= (walk ?d ?k2 ?n2 ?c) (walk ?d ?k ?n ?c) (true (on ?n)) (move ?d ?k ?c ?k2 ?n2))
(<= (run ?c ?d ?k) (walk ?d ?k ?n ?c) (not (true (on ?n))))
(<= (run ?c ?d 0) (walk ?d ?k ?n ?c) (true (on ?n)) (edge ?d ?n))
(<= (some ?c) (asked ?c) (dir ?d) (run ?c ?d ?k) (greater ?k 0))
(<= (legal a (go ?c)) (some ?c))
(<= (legal a wait) (not (canplay)))
(<= canplay (some ?c))
(<= (next (on ?c)) (does a (go ?c)))
(<= (next (on ?c)) (true (on ?c)))
(<= (next (mark ?o)) (does a (go ?c)) (dir ?d) (run ?c ?d ?k) (wrote ?c ?d ?k ?o))
(<= (next (mark ?o)) (true (mark ?o)))
(<= (next (turns ?t)) (does a (go ?c)) (dir ?d) (run ?c ?d ?k) (after ?c ?d ?k ?t))
(<= terminal (not canplay))
(<= (goal a 100) (true (mark 2)))
(<= (goal a 0) (not (true (mark 2))))
"""
"""A walk along a line of six cells from each empty cell while the cell ahead is taken (tests/lowering/
test_keyed_walks.py's; one that reaches the end of the line taken gives 0, as a compiled loop's every row steps
or exits), a move onto a cell from which some walk is positive, which marks the cells `wrote` says
for the count its walk gives (the walk's cells: the squares it stepped over) and records the table `after`
gives (the same whatever the count: the cell's parity)."""


def _line(wrote) -> str:
    facts = [f"(cell {c}) (base (on {c})) (base (mark {c})) (input a (go {c})) (greater {c} 0)" for c in CELLS]
    facts += ["(input a wait) (base (turns 0)) (base (turns 1))"]
    facts += [f"(next_to {c} {d} {c + d})" for c in CELLS for d in (1, -1) if c + d in CELLS]
    facts += [f"(move {d} {k} {c} {k + 1} {c + (k + 2) * d})" for c in CELLS for d in (1, -1)
              for k in range(len(CELLS)) if c + (k + 2) * d in CELLS]
    facts += [f"(edge {d} {n})" for n in CELLS for d in (1, -1) if n + d not in CELLS]
    steps = [(c, d, k) for c in CELLS for d in (1, -1) for k in range(len(CELLS)) if c + k * d in CELLS]
    facts += [f"(wrote {c} {d} {k} {o})" for c, d, k in steps for o in wrote(c, d, k)]
    facts += [f"(after {c} {d} {k} {c % 2})" for c, d, k in steps]
    return LINE.replace("(FACTS)", " ".join(facts))


def _passed(c: int, d: int, k: int) -> list[int]:
    return [c + i * d for i in range(1, k + 1)]


def _relations(program) -> set[str]:
    return {a.relation for r in program.rules for a, _ in r.body_atoms()}


def _bisimilar(tmp_path: Path, a, b) -> None:
    (tmp_path / "a.kif").write_text(to_kif(a))
    (tmp_path / "b.kif").write_text(to_kif(b))
    result = CliRunner().invoke(main, ["compare", str(tmp_path / "a.kif"), str(tmp_path / "b.kif"), "--json"])
    assert result.exit_code == 0, result.output


def test_the_cells_a_walk_passes_are_written_by_a_walk_keyed_by_its_square(tmp_path):
    program = read_kif(_line(_passed))
    out = key_walks(program)
    assert "walk" not in out.defined() and "run" not in out.defined()  # no reader keeps the start-keyed loop
    walks = [r for r in out.rules if r.head.relation.startswith("run_walk") and not r.is_fact]
    assert walks and all("c" not in {v.name for v in r.head.variables()} for r in walks)
    assert "after" not in _relations(out)  # the table that ignores the count is read without it
    _bisimilar(tmp_path, program, out)


def test_writes_that_are_not_a_prefix_of_the_walk_keep_the_count():
    """Only the last cell passed: the k-th step's write replaces the one before, so no table keyed by where a
    step stands gives them, and the reader keeps the walk keyed by its start and count."""
    def last(c: int, d: int, k: int) -> list[int]:
        return [c + k * d] if k else []
    out = key_walks(read_kif(_line(last)))
    assert "walk" in out.defined() and "wrote" in _relations(out)
    assert not any(r.head.relation.startswith("run_walk") for r in out.rules)


def test_reversis_flips_walk_forwards_from_the_square_and_agree_with_the_runtime(tmp_path):
    """examples/reversi.tgpl: each direction's flips (the views of the discs turned) a forward walk keyed by the
    square, the direction, the mover and its player, and the state after each direction's loop read without the
    count: the loop keyed by start and count is gone. `to-gdl` checks the GDL against the runtime (1,000 steps
    and more) before writing it."""
    out = tmp_path / "reversi.kif"
    result = CliRunner().invoke(main, ["to-gdl", str(ROOT / "examples" / "reversi.tgpl"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    program = read_kif(out.read_text())
    assert "flipsin_loop" not in program.defined() and "flipsin" not in program.defined()
    writers = [r for r in program.rules if r.head.relation in ("disc_view", "disc_changed") and not r.is_fact
               and any(a.relation.startswith("flipsin_walk") for a, _ in r.body_atoms())]
    assert len(writers) == 16  # per direction, the disc written and the disc changed
    assert "validated" in out.read_text().splitlines()[1]


def test_where_the_ranges_narrowed_a_tables_counts_the_reader_keeps_the_count_and_the_game_is_the_runtimes():
    """tests/data/lowering/flank.tgpl (Reversi 4x4 from a midgame): in some directions the lowering's ranges left
    counts out of the move's tables that the walk's relaxed rows can give, so no rewriting of those readers is
    shown exact and they read the count as they did (the loop stays); the others walk forwards. Bisimilar to the
    runtime."""
    game = load_game(str(FLANK))
    lowered = lower_game(game, moves="compiled")  # the writing loops as tables, as to-gdl lowers them
    program = lowered.program
    views = [r for r in program.rules if r.head.relation == "disc_view" and not r.is_fact]
    forward = [r for r in views if any(a.relation.startswith("flipsin_walk") for a, _ in r.body_atoms())]
    counted = [r for r in views if any(a.relation == "flipsin" for a, _ in r.body_atoms())]
    assert forward and counted and "flipsin_loop" in program.defined()
    lowered.grounding = None  # small: the reasoner grounds it whole
    assert bisimulate(Lowered(game, lowered, None)).states == 905
