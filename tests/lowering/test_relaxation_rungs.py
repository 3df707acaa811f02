"""The compiled moves' counters' relaxation, grounded at growing bounds (tgpl.lowering.rungs).

A counter that nothing bounds is refused at the first bound where it is proven to pass every bound, not after a
grounding up to horn.BOUND (1000); a counter a test bounds past the first bound goes on to the next, and finds
the values it finds at horn.BOUND. The bounds grounded are counted (`CompiledGame.bounds`), never timed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import tgpl.lowering.compiled as compiled
import tgpl.lowering.horn as horn
import tgpl.lowering.rungs as rungs
from tgpl.lowering.ir import Atom, Const, Rule, Var
from tgpl.lowering.universe import Universe
from tgpl.runtime.game import load_game
from tgpl.runtime.snapshot import snapshot

GAME = Path(__file__).resolve().parents[1] / "data" / "lowering" / "counted_local.tgpl"


def _game(tmp_path: Path, text: str) -> compiled.CompiledGame:
    """The compiled game of `text` (checks where they run, no ranges given), as compile_game first makes it."""
    path = tmp_path / "game.tgpl"
    path.write_text(text)
    game = load_game(str(path))
    universe = Universe.from_snapshot(snapshot(game.initial_state(0)))
    return compiled.CompiledGame(game.program, universe, None, None, {})


def test_a_runaway_counter_is_refused_at_the_first_bound(tmp_path):
    """`Boxes += closed`, untested (only the game's end on `Lines` bounds play): refused, located at the write,
    after grounding at the first bound only (before: once, at horn.BOUND)."""
    text = GAME.read_text()
    g = _game(tmp_path, text)
    with pytest.raises(horn.Unsupported, match=f"numbers grow past {horn.BOUND} .*'Boxes' \\(2\\.\\.32 so far\\) "
                                               "not bounded by the game") as e:
        g.counter_ranges()
    assert g.bounds == [rungs.RUNGS[0]]
    assert e.value.overflow == {"Boxes"}
    line = text[:text.index("Boxes += closed;")].count("\n") + 1
    assert (e.value.span.line, e.value.span.col) == (line, text.splitlines()[line - 1].index("Boxes") + 1)


def test_a_counter_a_test_bounds_past_the_first_bound_is_not_named_beside_a_runaway(tmp_path):
    """With 40 lines to the end, `Lines` (tested, `Lines == TotalLines`) reaches the first bound beside `Boxes`:
    the refusal there names the runaway alone, as the relaxation at horn.BOUND would (`Lines` stops at 40)."""
    g = _game(tmp_path, GAME.read_text().replace("number TotalLines = 12;", "number TotalLines = 40;"))
    with pytest.raises(horn.Unsupported, match="relaxed: 'Boxes' \\(2\\.\\.32 so far\\) not bounded") as e:
        g.counter_ranges()
    assert g.bounds == [rungs.RUNGS[0]]
    assert e.value.overflow == {"Boxes"}


def test_a_counter_tested_past_the_first_bound_finds_what_it_finds_at_the_last(tmp_path, monkeypatch):
    """`Boxes` tested before the write (`Boxes <= 48`) passes 32 but not 256: the first bound's overflow is not
    taken for a runaway (the test reads the value), and the ranges found at 256 are those found grounding at
    horn.BOUND alone."""
    text = GAME.read_text().replace("Boxes += closed;", "if (Boxes <= 48) { Boxes += closed; }")
    g = _game(tmp_path, text)
    found = g.counter_ranges()
    # at 32 the relaxation without the comparisons' tables (`overflow_first`) overflows; at 256 it closes, and
    # the whole relaxation is grounded at 256 too
    assert g.bounds == [32, 256, 256]
    assert max(int(v.name) for _, v in found["num|Boxes"]) > 48
    monkeypatch.setattr(rungs, "RUNGS", ())
    alone = _game(tmp_path, text)
    assert alone.counter_ranges() == found
    assert alone.bounds == [horn.BOUND, horn.BOUND]


def test_a_value_a_rule_tests_is_not_followed():
    """The proof follows a value only where nothing but its copy or one step reads it: `V < 10` on the way
    stops it (the counter is bounded there), a step by a term read elsewhere carries it."""
    o, v, w, t = Var("O"), Var("V"), Var("W"), Var("T")
    read = Atom(horn.read_rel("N"), (o, v))
    stepped = Rule(Atom("num|N", (o, w)), (read, Atom("#step", (t,)), Atom("#plus", (v, t, w))))
    tested = Rule(Atom("num|N", (o, w)), (read, Atom("#lt", (v, Const("10"))), Atom("#plus", (v, Const("1"), w))))
    assert rungs.flow(stepped, 0, 1) == rungs.Flow(stepped, 0, 1, 1, 2)
    assert rungs.flow(tested, 0, 1) is None
    back = Rule(Atom(horn.read_rel("N"), (o, v)), (Atom("num|N", (o, v)),))
    proof = rungs.proof_relation("N")
    assert any(r.head.relation == proof for r in rungs.shadows([stepped, back], {"N"}))
    assert not any(r.head.relation == proof for r in rungs.shadows([tested, back], {"N"}))
