"""A move's calls answered by the legal moves' instances, where proved (tgpl.lowering.compiled `moving_twins`,
tgpl.asp.covers), and relations one rule reads unfolded into it (tgpl.lowering.unfold).

Reversi's move asks `FlipsIn` of its target in each direction, which its legality (`Flips`) asked in the same
state: the move reads those answers instead of a walk of its own, demanded under `does`. The flanking games of
tests/data/lowering/flank.tgpl are small enough to bisimulate with the runtime.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import tgpl.lowering.compiled as compiled
from differential import Lowered, bisimulate
from tgpl.asp.covers import covers
from tgpl.asp.kif import read_kif
from tgpl.asp.recursion import bind_recursion
from tgpl.lowering.ir import Atom, Const, Func, Program, Rule, Var
from tgpl.lowering.unfold import unfold_single_readers
from tgpl.pipeline import gdl_errors

ROOT = Path(__file__).resolve().parents[2]
FLANK = ROOT / "tests" / "data" / "lowering" / "flank.tgpl"
MOVE_CALL = "number k = board.FlipsIn(x: tx, y: ty, dx: dx, dy: dy, who: player);"


def _lowered(path: Path) -> Lowered:
    return Lowered.with_options(path, grounded_whole=True, moves="compiled", check=gdl_errors, repair=bind_recursion)


def _under_does(program: Program) -> set[str]:
    """The relations that depend on `does`, directly or not."""
    reads: dict[str, set[str]] = {}
    for r in program.rules:
        reads.setdefault(r.head.relation, set()).update(a.relation for a, _ in r.body_atoms())
    found = {"does"}
    while True:
        more = {rel for rel, rs in reads.items() if rs & found} - found
        if not more:
            return found
        found |= more


def _walks_under_does(program: Program) -> set[str]:
    return {rel for rel in _under_does(program) if rel.startswith("flipsin")}


def test_the_moves_flips_are_the_legal_moves_and_the_game_the_runtimes():
    lw = _lowered(FLANK)
    assert not _walks_under_does(lw.lowered.program)  # no walk of the move's own
    assert bisimulate(lw).states == 905


def _neighbour(tmp_path: Path) -> Path:
    """Flank with the move asking FlipsIn of its target's neighbour, which may hold a disc: legality asks it only
    of empty squares. The passes then read what others wrote (each its own instance); the first reads the state."""
    source = FLANK.read_text()
    assert MOVE_CALL in source
    path = tmp_path / "neighbour.tgpl"
    path.write_text(source.replace(MOVE_CALL, MOVE_CALL.replace("x: tx,", "x: tx + 1,")))
    return path


def test_a_move_asking_what_legality_did_not_keeps_its_own_walk(tmp_path, monkeypatch):
    proved = []

    def proving(*args, **kwargs):
        proved.append(covers(*args, **kwargs))
        return proved[-1]
    monkeypatch.setattr(compiled, "covers", proving)
    lw = _lowered(_neighbour(tmp_path))
    assert proved == [False]
    assert "flipsin" in _walks_under_does(lw.lowered.program)  # the first pass's own walk
    assert bisimulate(lw).states == 118


def test_without_the_proof_the_move_would_miss_its_answers(tmp_path, monkeypatch):
    """Planted: the proof said yes to the neighbour's calls: the first pass reads the legal moves' instance, which
    has no answer for an occupied square, another game, which the bisimulation finds."""
    monkeypatch.setattr(compiled, "covers", lambda *args, **kwargs: True)
    lw = _lowered(_neighbour(tmp_path))
    assert "flipsin" not in _walks_under_does(lw.lowered.program)
    with pytest.raises(AssertionError, match="only in"):
        bisimulate(lw)


GAME = """
(role a)
(base (cell 1 b)) (base (cell 1 x)) (base (cell 2 b)) (base (cell 2 x))
(input a (mark 1)) (input a (mark 2))
(<= (legal a (mark ?c)) (true (cell ?c b)))
(<= (asked ?c) (true (cell ?c b)))
(<= (marked ?c) (does a (mark ?c)))
(<= (elsewhere ?d) (does a (mark ?c)) (true (cell ?d b)) (distinct ?c ?d))
(<= (full ?c) (true (cell ?c x)))
(<= (next (cell ?c x)) (does a (mark ?c)))
(<= terminal (true (cell 1 x)) (true (cell 2 x)))
(<= (goal a 100) terminal)
"""


def test_covers_proves_what_every_legal_move_asks_and_refutes_the_rest():
    program = read_kif(GAME)
    assert covers(program, [], {"marked": "asked"})  # a mark is legal on an empty cell only
    assert covers(program, [], {"elsewhere": "asked"})
    assert not covers(program, [], {"marked": "full"})
    assert not covers(program, [], {"asked": "marked"})  # an empty cell need not be marked
    probe = Rule(Atom("probe", (Var("c"),)), (Atom("does", (Const("a"), Func("mark", (Var("c"),)))),))
    assert not covers(program, [probe], {"probe": "full"}, max_ground=1)  # past the budget: not asked, no


def test_a_relation_one_rule_reads_is_unfolded_into_it():
    program = read_kif("""
        (n 0) (n 1) (n 2) (plus 0 1 1) (plus 1 1 2)
        (<= (step ?x) (n ?x) (true (on ?x)))
        (<= (step ?x) (n ?x) (not (true (off ?x))))
        (<= (after ?y) (step ?x) (plus ?x 1 ?y))
        (<= terminal (after 2))
    """)
    out = unfold_single_readers(program)
    assert "step" not in {r.head.relation for r in out.rules}
    after = [r for r in out.rules if r.head.relation == "after"]
    assert len(after) == 2 and all(any(a.relation == "plus" for a, _ in r.body_atoms()) for r in after)


def test_a_relation_read_twice_or_under_not_stays():
    program = read_kif("""
        (n 0) (n 1)
        (<= (step ?x) (n ?x) (true (on ?x)))
        (<= (after ?x) (step ?x))
        (<= (other ?x) (step ?x))
        (<= (gone ?x) (n ?x) (true (on ?x)))
        (<= (left ?x) (n ?x) (not (gone ?x)))
        (<= terminal (after 1) (other 0) (left 0))
    """)
    defined = {r.head.relation for r in unfold_single_readers(program).rules}
    assert {"step", "gone"} <= defined


def test_an_unfolding_that_multiplies_the_instances_stays():
    """The reader joins each row of `pick` with every `n`: unfolded, the rule would have 30 x 30 x 30 instances
    where the two it replaces have 30 x 30 each."""
    values = " ".join(f"(n {i})" for i in range(30))
    program = read_kif(values + """
        (init (on 0 0)) (<= (next (on ?x ?y)) (n ?x) (n ?y))
        (<= (pick ?x) (n ?x) (n ?y) (true (on ?x ?y)))
        (<= (pair ?x ?z) (pick ?x) (n ?z))
        (<= terminal (pair 0 0))
    """)
    assert "pick" in {r.head.relation for r in unfold_single_readers(program).rules}
