"""Each refusal of the compiled moves that a designer game met names the rewrite (issue 34, tgpl.lowering.rewrites),
at its place, and the rewrite it names gets the game past that refusal: Halma's list of the hopping piece's cells
(tests/data/designers/halma5.tgpl) and `who + 1` in a function (halma5_flags.tgpl as first written). Oware's
capture after a sowing that writes one pit a seed (oware_counted.tgpl), once refused here, now compiles
(test_sown_captures.py)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from tgpl.cli import main

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
