"""A `while` loop that reads what it writes, in the compiled moves: spelled out as a counted loop where the
evaluation bounds its passes (tgpl.lowering.while_passes).

tests/data/lowering/shove.tgpl pushes a token in at an end of a strip of four cells, its `Shove` walking from the
far end back with `while (x != at.X)`, each pass writing a cell with the mark of the one before it, which the next
pass writes in turn: Quixo's push (tests/data/designers/quixo.tgpl) cut down. The loop's condition reads only the
input and a local, so running `Shove` on every cell and seat bounds its passes (3), and the loop is spelled out pass
by pass as `for (k = 0; k < 3; k += 1) { if (C) { ... } else { break; } }`, each pass reading what the one before
wrote. Refused before ("a loop that reads 'Mark', which it writes, and is not a counted loop"), the moves spelled out
instead."""

from __future__ import annotations

from pathlib import Path

from differential import lowers_to_the_same_game
from to_gdl_runs import to_gdl, variant

SHOVE = Path(__file__).resolve().parents[1] / "data" / "lowering" / "shove.tgpl"


def test_a_while_that_reads_what_it_writes_is_compiled_pass_by_pass_and_is_the_runtimes_game():
    outcome, states = lowers_to_the_same_game(SHOVE.read_text(encoding="utf-8"), str(SHOVE), moves="compiled")
    assert outcome == "moves compiled" and states > 0


def test_a_walk_that_stops_on_the_state_it_writes_is_bounded_by_the_strip():
    """Stopping at the first empty cell too, the walk's condition reads the marks, which the passes write: read as
    unknown, each test goes both ways, and no way takes more than the strip's three passes."""
    text = SHOVE.read_text(encoding="utf-8").replace(
        "while (x != at.X)", "while (x != at.X && (Cells[x - dx][0] as Cell).Mark != null)")
    outcome, states = lowers_to_the_same_game(text, "shove_stops.tgpl", moves="compiled")
    assert outcome == "moves compiled" and states > 0


def test_a_walk_by_a_step_it_is_given_has_no_bound_and_is_refused_at_the_loop(tmp_path):
    """A number input has no values the evaluation can list: the passes are not bounded, the loop refused."""
    game = variant(tmp_path, SHOVE, ("function input Cell at;", "function input Cell at;\n"
                                     "        function input number step;"),
                   ("Shove(at: at, who: player);", "Shove(at: at, who: player, step: 1);"),
                   ("x -= dx;", "x -= dx * step;"), name="shove_steps.tgpl")
    r = to_gdl(tmp_path, game, "--moves", "compiled")
    assert r.exit_code == 2 and not r.kif, r.output
    assert ("shove_steps.tgpl:57:13: error: not lowerable: the moves cannot be compiled: a loop that reads 'Mark', "
            "which it writes, and is not a counted loop") in r.output, r.output
