"""A search with an early return in nested loops, compiled as "some way reaches the return" (issue 34,
tgpl.lowering.searches, language decision 120).

pegs.tgpl's `AnyJump` (two nested `for`s over the board, the second from `y = x`, an `if`, a `for` over the six
directions holding `return true;`, then `return false;`) compiled with the direction loop's "no pass returned" as
`not` of its relation, inside the `y` loop's relation, which that `not` then reads: a negation cycle, and
`--moves compiled` refused the game at 1:1. Two small games in other designers' styles had the same cycle
(crowded.tgpl: a `while` over the rows around a `for` over the columns around a `for` over the directions;
spaced.tgpl: a number search, `return 1;` / `return 0;`, over pairs `j = i + 1` against a list of gaps). They now
lower, validated or bisimulated; a function not of the form is refused located at its `return` in the loops.
"""

from __future__ import annotations

from pathlib import Path

from differential import lowers_to_the_same_game
from to_gdl_runs import rules_with_a_body, to_gdl, variant
from tgpl.frontend.loader import load_program
from tgpl.lowering.searches import search_form

DATA = Path(__file__).resolve().parents[1] / "data"
PEGS = DATA / "designers" / "pegs.tgpl"
CROWDED = DATA / "lowering" / "crowded.tgpl"
SPACED = DATA / "lowering" / "spaced.tgpl"


def function(path: Path, name: str):
    program = load_program(str(path), text=path.read_text(encoding="utf-8"))
    assert program.ok
    return next(f.defn for f in program.functions if f.name == name)


def test_the_form_is_one_constant_in_the_loops_and_another_last():
    """AnyJump and Spaced are searches (true / false, 1 / 0), located at their `return` inside the loops; a
    function with no return inside a loop (PegsLeft's count, HoleAt) or an early return of the last constant
    (Between's `return null` is its last, but it returns a call inside the loop) is not."""
    found = search_form(function(PEGS, "AnyJump"))
    assert found is not None and found.found.value is True and found.otherwise.value is False
    assert found.early.span.line == 108
    spaced = search_form(function(SPACED, "Spaced"))
    assert spaced is not None and (spaced.found.value, spaced.otherwise.value) == (1, 0)
    for name in ("PegsLeft", "HoleAt", "Between"):
        assert search_form(function(PEGS, name)) is None, name


def test_pegs_lowers_compiled_and_validated(tmp_path):
    """Refused at 1:1 before (negation cycle through anyjump's loop); now its AnyJump is a positive `found`
    and the game lowers, validated against the runtime by its playouts, far under issue 34's 2,000 rules
    (the spelled-out lowering writes about 10,000). `PegsLeft() == 1` compiles as a counted loop."""
    run = to_gdl(tmp_path, PEGS, "--moves", "compiled", "--max-seconds", "600")
    kif = run.written()
    assert "; validated:" in kif
    assert "(<= anyjump_s0_found" in kif and "(not anyjump_s0_found)" in kif
    assert "anyjump_s0_exists" not in kif
    assert rules_with_a_body(kif) < 200


def test_auto_compiles_pegs_for_its_count_over_a_triangle_of_holes(tmp_path):
    """`PegsLeft` counts over a triangle of holes, `for (number y = x; y < 5; ...)` inside `x < 5`: the inner loop
    from an expression counts as its bound's passes (25 in all), past COUNTED_CELLS, so `auto` compiles the
    moves (625 ways to fill Jump's inputs, past WALKED_MOVES) rather than spelling a case for every board with
    one peg (9,429 rules with a body)."""
    from tgpl.lowering.lower import COUNTED_CELLS, board_count_passes
    from tgpl.runtime.game import load_game

    assert board_count_passes(load_game(str(PEGS)).program) == 25 >= COUNTED_CELLS
    run = to_gdl(tmp_path, PEGS, "--max-seconds", "600")
    kif = run.written()
    assert "; Played one state at a time (its moves compiled)" in kif
    assert rules_with_a_body(kif) < 200


def test_a_while_around_the_search_is_bisimulated():
    outcome, states = lowers_to_the_same_game(CROWDED.read_text(encoding="utf-8"), str(CROWDED), moves="compiled")
    assert outcome == "moves compiled" and states > 50


def test_a_number_search_over_pairs_is_bisimulated():
    outcome, states = lowers_to_the_same_game(SPACED.read_text(encoding="utf-8"), str(SPACED), moves="compiled")
    assert outcome == "moves compiled" and states > 50


def test_a_search_not_of_the_form_is_refused_at_its_return(tmp_path):
    """An early `return false;` at the top of crowded.tgpl's CanPut breaks the form (two constants before the
    last statement): the cycle stays, and the refusal is located in CanPut and names its `return true;` with
    the rewrite, not 1:1; nothing is written."""
    game = variant(tmp_path, CROWDED, ("        number r = 0;\n        while",
                                       "        if (who == null) { return false; }\n        number r = 0;\n        while"))
    run = to_gdl(tmp_path, game, "--moves", "compiled", "--no-validate", "--max-seconds", "600")
    assert run.exit_code == 2 and run.kif == ""
    assert ":1:1:" not in run.output
    assert "crowded.tgpl:77:9: error: not lowerable" in run.output  # CanPut's `while`
    assert "a loop that returns from inside another loop" in run.output and "at 90:34" in run.output
    assert "hint: return one constant from inside the loops" in run.output
