"""Loops after a compiled move's own writes (tgpl/lowering/compiled.py, `CompiledCompiler._stmt`).

A walk that reads the board after the move wrote it (a five-in-a-row's run counted from the stone just
placed, hasami shogi's sandwich walked from the square just reached) was refused with compiled moves: "a loop
after the move's writes". The move's writes are now taken into views first (`collapse`), which the walk
reads; the numbers it wrote (kept in the ways for their ranges) ride through the walk's relation (`carrying`).
A loop that writes an attribute of `this` by its name (`Captured += 1`) is a loop that writes the state: it was
taken for one that does not, and its passes' counts were lost (the validation found it); such a count is now
a local of the loop while it runs (`counters_in`). And a move that ends
the game (`if (run >= 3) { winner me; }`) before an `if` left to the next decision (`if (Claims == 7) { winner
draw }`, tgpl.lowering.deferral) gave the ended state both results: the check is not asked where the state
holds a result.

After a join of ways that each wrote the count of `this` (a direction's ways, capturing or not), the join's
relation held `this` and the object of the count's write as two arguments, and the next loop could not tell
that the count was `this`'s: refused. The join now holds them as one (`_this_objects`). Hasami's `Captured` is
never read by the game: it is no state (decision 109), and no longer runs past every bound.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from differential import Lowered, bisimulate
from to_gdl_runs import rules_with_a_body
from tgpl.asp.recursion import bind_recursion
from tgpl.asp.validate import validate
from tgpl.cli import main
from tgpl.lowering.lower import lower
from tgpl.runtime.game import load_game
from tgpl.runtime.snapshot import snapshot
from tgpl.verify.runtime_machine import RuntimeMachine
from tgpl.verify.graph import explore

DATA = Path(__file__).resolve().parents[1] / "data"
RUNS = str(DATA / "lowering" / "runs.tgpl")
HASAMI = str(DATA / "designers" / "hasami.tgpl")


def compiled_is_the_runtimes(path: str):
    """The game at `path` lowered with its moves compiled, bisimulated with its runtime (whose graph is complete);
    the lowered game."""
    game = load_game(path)
    lowered = lower(game.program, snapshot(game.initial_state(0)), moves="compiled", repair=bind_recursion)
    assert lowered.stats["moves compiled"] == "yes"
    runtime = explore(RuntimeMachine(game))
    assert runtime.complete
    assert bisimulate(Lowered(game, lowered, None)).states == runtime.states
    return lowered


def test_a_walk_over_the_cell_just_claimed_lowers_compiled_and_is_the_runtimes_game():
    """runs.tgpl: the run is counted from the claimed cell, whose owner the move has just written."""
    lowered = compiled_is_the_runtimes(RUNS)
    assert [d.message for d in validate(lowered.program) if d.is_error] == []


def test_the_command_validates_the_compiled_walk(tmp_path):
    out = tmp_path / "runs.kif"
    r = CliRunner().invoke(main, ["to-gdl", RUNS, "--moves", "compiled", "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert "; validated: " in out.read_text(encoding="utf-8")
    r = CliRunner().invoke(main, ["check-gdl", str(out)])
    assert r.exit_code == 0 and r.output.strip().endswith(": ok"), r.output


def test_hasami_lowers_with_its_moves_compiled_validated_and_passes_check_gdl(tmp_path):
    """hasami.tgpl, as a designer wrote it: four capture directions, each a walk and a loop that clears the
    sandwich stepping `Captured`. `auto` compiles its moves (a loop writes the state); validated by plays to the
    end of the game, at least 1,000 steps compared; at most 2,000 rules with a body (145 when written). Its
    `Captured`, read by no rule, is no state (decision 109)."""
    out = tmp_path / "hasami.kif"
    r = CliRunner().invoke(main, ["to-gdl", HASAMI, "-o", str(out)])
    assert r.exit_code == 0, r.output
    text = out.read_text(encoding="utf-8")
    head = text.splitlines()[:4]
    assert head[1].startswith("; validated: ") and "to the end of the game" in head[1], head
    assert int(head[1].split(" steps compared")[0].rsplit(" ", 1)[1].replace(",", "")) >= 1000, head
    assert head[2] == "; Not lowered: Army.Captured (written, never read).", head  # decision 109
    assert "its moves compiled" in head[3], head
    assert rules_with_a_body(text) <= 2000
    r = CliRunner().invoke(main, ["check-gdl", "--grounding", "per-state", str(out)])
    assert r.exit_code == 0 and r.output.strip().endswith(": ok"), r.output


def test_a_count_of_this_stepped_after_a_join_of_directions_is_the_runtimes_game():
    """sweeps.tgpl: four directions, each a walk and a loop that clears what it closed stepping `Taken` of `this`.
    The third direction's loop came after the join of the ways of the first two, whose relation held `this` and
    the object of the count's write apart: refused ("a loop after the move wrote numbers on some ways and not on
    others"). Bisimulated now."""
    compiled_is_the_runtimes(str(DATA / "lowering" / "sweeps.tgpl"))


def test_a_count_the_game_never_reads_is_no_state_and_the_runtimes_game():
    """unread.tgpl: `Claimed += 1` on every claim, read by no rule. Bounded by no test, its values ran past every
    bound ("numbers grow past 1000 ... 'Claimed'"): now no state (decision 109), the moves compiled, bisimulated
    with the runtime's states keyed without it."""
    compiled_is_the_runtimes(str(DATA / "lowering" / "unread.tgpl"))


def test_a_count_stepped_in_a_loop_that_clears_the_board_is_a_local_of_the_loop():
    """sweep.tgpl: `for (k = 0; k < n; ...) { q.Owner = null; Taken += 1; ... }`. `Taken` (of `this`, by its
    name) is a local of the loop while it runs, carried from pass to pass and written where the loop ends,
    saturated at 3 (the game ends there) as its writes are: the compiled moves are the runtime's game."""
    compiled_is_the_runtimes(str(DATA / "lowering" / "sweep.tgpl"))
