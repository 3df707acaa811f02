"""A capture that walks back over what the same move sowed, with the moves compiled (tgpl/lowering/compiled.py,
`SegmentCompiler.taken_numbers`).

A sowing writes one cell a seed, each an object known only at run time, so the ways through it wrote different
numbers of cells; a capture after it walks back from the last cell sown while a cell holds 2 or 3, reading
those very numbers. The compiled moves refused the capture loop ("a loop after the move wrote numbers on some
ways and not on others", or "a loop that reads 'Seeds' after the move wrote it"): the numbers a move wrote
stayed in its ways so that their ranges are found along each way, and could not ride through a loop that reads
them. They are now taken into views before such a loop (and where such ways meet), their values kept for the
range search under each way's body: the loop reads the sown seeds through the views.

tests/data/lowering/sow_capture.tgpl (a strip of six cells; the capture a `while` over an index, stopping at
the first cell) lowers so and validates; bisimulated whole it is the runtime's 8,244 states (a run of minutes,
not repeated here). A capture test changed in its GDL is found by the validation. Oware as a designer counts it
(tests/data/designers/oware_counted.tgpl) gets past its capture loops (test_designer_games_32.py).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from tgpl.asp.recursion import bind_recursion
from tgpl.cli import main
from tgpl.lowering.compiled import _without
from tgpl.lowering.ir import Atom, Const, Program, Rule, Var
from tgpl.lowering.lower import lower
from tgpl.runtime.game import load_game
from tgpl.runtime.snapshot import snapshot
from tgpl.validation import validate_translation

DATA = Path(__file__).resolve().parents[1] / "data"
SOW_CAPTURE = str(DATA / "lowering" / "sow_capture.tgpl")


@pytest.fixture(scope="module")
def sown():
    game = load_game(SOW_CAPTURE)
    return game, lower(game.program, snapshot(game.initial_state(0)), moves="compiled", repair=bind_recursion)


def test_the_capture_after_the_sowing_lowers_compiled_and_validates(tmp_path):
    out = tmp_path / "sow.kif"
    r = CliRunner().invoke(main, ["to-gdl", SOW_CAPTURE, "--moves", "compiled", "-o", str(out)])
    assert r.exit_code == 0, r.output
    head = out.read_text(encoding="utf-8").splitlines()[:2]
    assert head[1].startswith("; validated: ") and "to the end of the game" in head[1], head
    assert int(head[1].split(" steps compared")[0].rsplit(" ", 1)[1].replace(",", "")) >= 1000, head


def test_the_capture_loop_reads_the_sown_seeds_through_a_view(sown):
    """The loop's passes test the seeds as the sowing left them (a view of the move's writes), not the state."""
    _, lowered = sown
    loops = [r for r in lowered.program.rules if r.head.relation == "loop"]
    reads = {x.relation for r in loops for x in r.body if isinstance(x, Atom)}
    assert any(rel.startswith("seeds_view_") for rel in reads), reads


def test_a_capture_test_changed_in_the_gdl_is_found(sown):
    """Planted: the capture's test of 3 seeds in the GDL made a test of 1. The validation, the plays `to-gdl`
    runs, finds the other game; the GDL as lowered passes it."""
    game, lowered = sown
    assert validate_translation(game, lowered, 0).ok

    def planted(x):
        if isinstance(x, Atom) and x.relation.startswith("seeds_view_") and x.args[1] == Const("3"):
            return replace(x, args=(x.args[0], Const("1")))
        return x
    rules = tuple(replace(r, body=tuple(planted(x) for x in r.body)) if r.head.relation == "loop" else r
                  for r in lowered.program.rules)
    assert rules != lowered.program.rules
    result = validate_translation(game, replace(lowered, program=Program(rules)), 0)
    assert not result.ok and result.mismatch is not None



SOW_TOTAL = str(DATA / "lowering" / "sow_total.tgpl")


def test_a_counter_written_beside_the_sown_seed_is_bounded_by_the_check_after_the_loop(tmp_path):
    """tests/data/lowering/sow_total.tgpl: a move drops a seed in a cell chosen at run time and adds 2 to
    `Line.Count` (stepped by 2: not saturated), then a loop reads the seeds; only a check after the loop ends the
    game on the count. The seeds are taken into views before the loop and probed there, bounded by the input's
    filter (`at.Seeds < 3`); the count, of an object known when compiling, stays in the ways and is probed at
    their ends, past the check. Taken and probed before the loop too, it was refused: "'Count' (2..1000 so far)
    not bounded by the game"."""
    out = tmp_path / "total.kif"
    r = CliRunner().invoke(main, ["to-gdl", SOW_TOTAL, "--moves", "compiled", "-o", str(out)])
    assert r.exit_code == 0, r.output
    text = out.read_text(encoding="utf-8")
    head = text.splitlines()[:2]
    assert head[1].startswith("; validated: ") and "to the end of the game" in head[1], head
    counts = [int(line.split()[-1].rstrip(")")) for line in text.splitlines() if line.startswith("(base (count ")]
    assert counts and max(counts) <= 12 + 2, counts  # the check ends the game at 12: one step past it at most


def test_a_comparison_of_dropped_results_stays_in_the_range_search():
    """The counters' range search drops compiled functions' results (`_without`); a comparison of two of them
    (a generated game's `Score(x: B) > Score(x: c)` in a loop after the move wrote `Marks`) stays, bound by
    nothing: the search refuses its rule as unsafe. Dropped with them, as the first re-landing of these
    captures did, nothing found a row of the comparison's table, and the GDL's loop never ended where the
    runtime's did (its validation found it)."""
    x, y, z = Var("X"), Var("Y"), Var("Z")
    rule = Rule(Atom("seg|after", (x,)), (Atom("a", (x,)), Atom("Score|result", (y,)), Atom("Score|result", (z,)),
                                          Atom("#gt", (y, z))))
    [kept] = _without([rule], lambda lit, r: lit.relation.endswith("|result"))
    assert Atom("#gt", (y, z)) in kept.body, kept
