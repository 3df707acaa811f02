"""Loops that write the state, compiled once (tgpl.lowering.compiled: `unrolled`, `writing_loop`).

Reversi as a designer writes it (examples/reversi.tgpl): the move's effect walks the eight
directions with a counted loop, asks `FlipsIn` how many discs each flanks (reading the board the
directions before it left) and turns them over with a loop `for (i = 1; i <= k; i += 1)`. Spelled out
move by move, that was 37,000 rules and four minutes on 6x6; compiled once, the eight directions are
spelled out pass by pass and the inner loop is a relation whose passes' writes are one view.
tests/data/lowering/flank.tgpl is a 4x4 midgame of the same rules, small enough to bisimulate.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import tgpl.lowering.compiled as compiled
from differential import Lowered, bisimulate, declares_base_and_input
from tgpl.asp.recursion import bind_recursion, unbound_recursive
from tgpl.lowering.horn import Unsupported
from tgpl.lowering.lower import lower
from tgpl.pipeline import gdl_errors
from tgpl.runtime.game import load_game, load_program
from tgpl.runtime.snapshot import snapshot
from tgpl.verify.runtime_machine import RuntimeMachine
from tgpl.verify.graph import explore

ROOT = Path(__file__).resolve().parents[2]
FLANK = ROOT / "tests" / "data" / "lowering" / "flank.tgpl"
REVERSI = ROOT / "examples" / "reversi.tgpl"


def _lowered(path: Path, moves: str = "auto") -> Lowered:
    return Lowered.with_options(path, grounded_whole=True, moves=moves, check=gdl_errors, repair=bind_recursion)


def test_flank_compiles_and_is_the_runtimes_game():
    lw = _lowered(FLANK)
    assert lw.lowered.stats["moves compiled"] == "yes"  # auto: a loop writes the state
    assert not gdl_errors(lw.lowered.program)
    runtime = explore(RuntimeMachine(lw.game))
    assert runtime.complete
    assert bisimulate(lw).states == runtime.states == 905


def test_a_loops_writes_dropped_are_another_game(monkeypatch):
    """Planted: the passes of a loop that writes come back to its head without their writes taken into a view
    (the discs flanked are never turned over): the bisimulation finds it."""
    def forgetful(self, rel, names, back):
        for c in back:
            c.store = ()
        compiled._FunctionCompiler.loop_back(self, rel, names, back)
    monkeypatch.setattr(compiled.SegmentCompiler, "loop_back", forgetful)
    with pytest.raises(AssertionError, match="differ|only in|fluents"):
        bisimulate(_lowered(FLANK, moves="compiled"))


def test_unrolled_passes_read_what_the_passes_before_wrote(monkeypatch):
    """Planted: the counted loop over the directions compiled as a relation with every pass reading the board
    before the move (what a loop that reads what it writes must not be): refused, since it reads `Disc`; with
    the refusal planted away too, another game, found."""
    monkeypatch.setattr(compiled.SegmentCompiler, "unrolled", lambda self, s, clauses, live: None)
    with pytest.raises(Unsupported, match="reads 'Disc', which it writes"):
        game = load_game(str(FLANK))
        compiled.compile_game(game.program, _universe(game))


def _universe(game):
    from tgpl.lowering.universe import Universe
    return Universe.from_snapshot(snapshot(game.initial_state(0)))


def test_passes_writing_values_that_differ_are_refused(tmp_path):
    """Two passes may write one object with values that differ (the last wins at run time): not a view."""
    source = FLANK.read_text().replace(
        "board.At(x: tx + i * dx, y: ty + i * dy).Disc = player;",
        "board.At(x: tx + i * dx, y: ty + i * dy).Disc = player;\n"
        "                    board.At(x: tx, y: ty).Disc = i;")
    assert source != FLANK.read_text()
    path = tmp_path / "differ.tgpl"
    path.write_text(source)
    program = load_program(str(path))
    if not program.ok:  # `Disc = i` is a player from a number: the checker may refuse it, which is fine too
        pytest.skip("the checker refuses the variant")
    game = load_game(str(path))
    with pytest.raises(Unsupported, match="values that may differ"):
        compiled.compile_game(game.program, _universe(game))


def test_reversi_lowers_compiled_to_valid_gdl_whose_rules_do_not_grow_with_the_board():
    """8x8 and 6x6 (tests/data/lowering/reversi6.tgpl): the same rules with a body, only the tables differ."""
    sizes = []
    for path in (REVERSI, ROOT / "tests" / "data" / "lowering" / "reversi6.tgpl"):
        lw = _lowered(path)
        assert lw.lowered.stats["moves compiled"] == "yes"
        program = lw.lowered.program
        assert not gdl_errors(program)
        assert declares_base_and_input(program)
        assert not unbound_recursive(program)
        sizes.append(sum(1 for r in program.rules if r.body))
    # the static fold folds 5 rules with a body into tables on both boards (tgpl.lowering.lower.fold_pays): the
    # larger board has no more rules
    assert sizes[0] <= sizes[1] <= 600 and sizes[1] - sizes[0] <= 5  # 448 when written; examples/gdl/reversi.kif: 43


INFECT = ROOT / "tests" / "data" / "lowering" / "infect.tgpl"


def test_a_loop_over_neighbours_that_reads_and_turns_them_is_the_runtimes_game():
    """Another style (tests/data/lowering/infect.tgpl): a counted loop over offsets that reads each neighbour's
    disc and turns it, spelled out pass by pass; and a count over the board at the end."""
    lw = _lowered(INFECT)
    assert lw.lowered.stats["moves compiled"] == "yes"
    assert not gdl_errors(lw.lowered.program)
    runtime = explore(RuntimeMachine(lw.game))
    assert runtime.complete
    assert bisimulate(lw).states == runtime.states == 297


def _independence(monkeypatch) -> list[bool]:
    """Runs of tgpl.lowering.footprint.passes_independent during a lowering, recorded."""
    import tgpl.lowering.footprint as footprint
    found: list[bool] = []
    original = footprint.passes_independent

    def recorded(*args, **kwargs):
        found.append(original(*args, **kwargs))
        return found[-1]
    monkeypatch.setattr(footprint, "passes_independent", recorded)
    return found


def _instances(program, fn: str) -> set[str]:
    """The relations of a compiled function's instances (`flipsin`, `flipsin_2`, ...; not its loops' relations)."""
    return {r.head.relation for r in program.rules
            if r.head.relation == fn or r.head.relation.startswith(fn + "_") and r.head.relation[len(fn) + 1:].isdigit()}


def test_passes_that_never_read_each_others_writes_read_the_board_the_loop_found(monkeypatch):
    """The eight directions of flank.tgpl: no pass reads a square another wrote (tgpl.lowering.footprint), so every
    pass reads the board as the loop found it, and `FlipsIn` is one instance in the effect instead of one per board
    view, the legal moves' (tgpl.asp.covers proves they asked what the move asks: tests/lowering/
    test_moving_calls.py). The game is still the runtime's (bisimulated)."""
    found = _independence(monkeypatch)
    lw = _lowered(FLANK, moves="compiled")
    assert found and all(found)
    assert len(_instances(lw.lowered.program, "flipsin")) == 1
    assert bisimulate(lw).states == 905


def test_passes_that_read_what_an_earlier_pass_wrote_read_its_views(monkeypatch, tmp_path):
    """A direction walked twice (the second pass reads the discs the first turned over): not independent; each pass
    reads the views of the passes before it, one instance each, and the game is the runtime's."""
    source = FLANK.read_text().replace("List<number> DX = {1, 1, 0, -1, -1, -1, 0, 1};",
                                       "List<number> DX = {1, 1, 1, -1, -1, -1, 0, 1};")
    assert source != FLANK.read_text()
    path = tmp_path / "twice.tgpl"
    path.write_text(source)
    found = _independence(monkeypatch)
    lw = _lowered(path, moves="compiled")
    assert found and not any(found)
    assert len(_instances(lw.lowered.program, "flipsin")) > 2
    runtime = explore(RuntimeMachine(lw.game))
    assert runtime.complete
    assert bisimulate(lw).states == runtime.states
