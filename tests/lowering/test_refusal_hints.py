"""Each refusal of the compiled moves that a designer game met names the rewrite (issue 34, tgpl.lowering.rewrites),
at its place, and the rewrite it names gets the game past that refusal: Halma's list of the hopping piece's cells
(tests/data/designers/halma5.tgpl) and `who + 1` in a function (halma5_flags.tgpl as first written). Oware's
capture after a sowing that writes one pit a seed (oware_counted.tgpl), once refused here, now compiles
(test_sown_captures.py)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from tgpl.cli import main
from tgpl.frontend import ast
from tgpl.frontend.loader import load_program
from tgpl.lowering.execute import changed_list_rewrite, changed_lists_read

DESIGNERS = Path(__file__).resolve().parents[1] / "data" / "designers"


def _compiled(game: Path, tmp_path: Path) -> tuple[int, str]:
    """`tgpl to-gdl GAME --moves compiled`: its exit code and its first error line, from the file's name on."""
    r = CliRunner().invoke(main, ["to-gdl", str(game), "--moves", "compiled", "-o", str(tmp_path / "out.kif")])
    errors = [line.rsplit("/", 1)[-1] for line in r.output.splitlines() if ": error:" in line]
    return r.exit_code, errors[0] if errors else ""


def _edited(tmp_path: Path, name: str, edits: list[tuple[str, str]]) -> Path:
    """The designer game `name` with each (old, new) text replaced, every old text present once."""
    text = (DESIGNERS / name).read_text()
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / name
    path.write_text(text)
    return path


def test_a_list_call_in_the_state_names_the_flag_rewrite(tmp_path):
    """`Game.Trail.clear()` is refused at the call with the flags a designer keeps instead (halma5_flags.tgpl
    follows it and lowers compiled: tests/lowering/test_designer_games_33.py)."""
    code, error = _compiled(DESIGNERS / "halma5.tgpl", tmp_path)
    assert code == 2
    assert error.startswith("halma5.tgpl:176:13: error: not lowerable: the moves cannot be compiled: clear() "
                            "changes the list 'Trail', and compiled moves keep no list that changes after setup: "
                            "keep a flag on each object instead (`bool Visited = false;` on the cell"), error


ARITH = ("c.Camp != null && c.Camp != who", "c.Camp == who + 1")


def test_player_arithmetic_in_a_function_names_the_input_rewrite(tmp_path):
    """`who + 1` in a function the move calls is refused there, naming the player given as an input; following it
    (`other: player + 1` where the move calls it) the game lowers compiled."""
    code, error = _compiled(_edited(tmp_path, "halma5_flags.tgpl", [ARITH]), tmp_path)
    assert code == 2
    assert "arithmetic on players: compute the player where the move calls the function and give it as an input " \
           "(`F(who: player, other: player + 1)`), or, with two players, compare with `!= who` at 116:21" in error
    rewritten = _edited(tmp_path, "halma5_flags.tgpl", [
        ("c.Camp != null && c.Camp != who", "c.Camp == other"),
        ("function input player who;\n", "function input player who;\n        function input player other;\n"),
        ("if (Game.Board.Arrived(who: player)", "if (Game.Board.Arrived(who: player, other: player + 1)"),
        ("mine = Game.Board.Arrived(who: player)", "mine = Game.Board.Arrived(who: player, other: player + 1)"),
        ("Arrived(who: player + 1)", "Arrived(who: player + 1, other: player)")])
    assert _compiled(rewritten, tmp_path) == (0, "")


def _reader_rewrite(program, function: str) -> str:
    """The rewrite `execute.changed_list_rewrite` names for the function `function`, which reads a list the moves
    change: as the spelled-out moves' refusal names it where a call of that function is too much work."""
    fn = next(n for m in program.modules for n in ast.walk(m.items)
              if isinstance(n, ast.FunctionDef) and n.name == function)
    [(name, change)] = changed_lists_read(program, fn)
    return changed_list_rewrite(program, name, change, fn)


SUMMED = "                total += Cards[i].Value;\n"
COMPARED = "                if (Cards[i].Value > total) { total = Cards[i].Value; }\n"


def test_the_rewrite_for_a_list_a_function_reads_follows_how_it_reads_it(tmp_path):
    """A hand whose cards are summed (Ends' `Total`) keeps the running total; the same hand read for its best card
    (each card compared) gets its items marked as held (the hand only fills); the kinds of piece a seat has left
    (Corners' `Shapes`, `Left.contains(s.Kind)`, numbers taken out) get the objects that setup makes, marked out."""
    summed = _reader_rewrite(load_program(DESIGNERS / "ends.tgpl"), "Total")
    assert summed.startswith("keep the value in a number the moves change (a running total, `Score += card.Value;` "
                             "in the move that changes 'Cards')"), summed
    compared = _reader_rewrite(load_program(_edited(tmp_path, "ends.tgpl", [(SUMMED, COMPARED)])), "Total")
    assert compared.startswith("mark the items it would hold with an attribute of the item (`bool Held`)"), compared
    kinds = _reader_rewrite(load_program(DESIGNERS / "corners.tgpl"), "Shapes")
    assert kinds.startswith("its items are values, which carry no attribute: make each an object setup creates "
                            "(`class Piece { number Kind = 0; bool Out = false; }`), keep them all in 'Left'"), kinds
    assert "running total" not in kinds


def test_a_hand_read_card_by_card_is_refused_at_the_call_with_the_marks_not_a_sum(tmp_path):
    """Ends with its hand's best card scored instead of the sum: refused at the same call (93:55) of the ranking,
    naming `Total` and the hand, with the rewrite for a list whose items are compared, not summed."""
    game = _edited(tmp_path, "ends.tgpl", [(SUMMED, COMPARED)])
    r = CliRunner().invoke(main, ["to-gdl", str(game), "--moves", "spelled", "-o", str(tmp_path / "out.kif")])
    assert r.exit_code == 2 and not (tmp_path / "out.kif").exists(), r.output
    assert "ends.tgpl:93:55: error: not lowerable: the values the calls on this way return make " in r.output
    assert ("phase Scoring calls Total, which reads the list 'Cards' that the moves change (`add` at 56:13): its "
            "value is spelled out for every content the list can have, a call forks the path once per value it can "
            "return, so the paths multiply call after call and every statement after them runs on each: mark the "
            "items it would hold with an attribute of the item (`bool Held`)") in r.output, r.output
    assert "Score += card.Value" not in r.output
