"""Each refusal of the compiled moves that a designer game met names the rewrite (issue 34, tgpl.lowering.rewrites),
at its place, and the rewrite it names gets the game past that refusal: Halma's list of the hopping piece's cells
(tests/data/designers/halma5.tgpl), `who + 1` in a function (halma5_flags.tgpl as first written), and Oware's
capture after a sowing that writes one pit a seed (oware_counted.tgpl)."""

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


SOWN_BY_PLACE = ("""            pit.Seeds = 0;
            number at = pit.Index;
            for (number k = 0; k < 16; k += 1)
            {
                if (hand > 0)
                {
                    at = (at + 1) % 8;
                    if (at == pit.Index) { at = (at + 1) % 8; }
                    Board.Ring[at].Seeds += 1;
                    hand -= 1;
                }
            }
""", """            number start = pit.Index;
            for (number j = 0; j < 8; j += 1)
            {
                number r = hand - (j - start + 8) % 8 + 7;
                number c = (r - r % 7) / 7;
                if (j == start) { c = 0 - hand; }
                Board.Ring[j].Seeds += c;
            }
            number at = (start + (hand - 1) % 7 + 1) % 8;
""")


def test_a_loop_after_uneven_writes_names_the_writes_by_place(tmp_path):
    """Oware's capture loop after a sowing that writes one pit a seed is refused at the loop, naming writes of each
    pit once by its place; following it (every pit gets its seeds at once) the loop is no longer refused for that,
    but for reading the seeds the move wrote, which has no rewrite named yet."""
    code, error = _compiled(DESIGNERS / "oware_counted.tgpl", tmp_path)
    assert code == 2
    assert error == ("oware_counted.tgpl:148:13: error: not lowerable: the moves cannot be compiled: a loop after the "
                     "move wrote numbers on some ways and not on others: write the same numbers on every way before "
                     "the loop: a write of an object known only at run time (`Ring[at].Seeds += 1` in a loop, once a "
                     "seed) is one more on some ways; write each object once, by its place (`for (number j = 0; j < 8; "
                     "j += 1) { Ring[j].Seeds += ...; }`), or run the loop before those writes")
    code, error = _compiled(_edited(tmp_path, "oware_counted.tgpl", [SOWN_BY_PLACE]), tmp_path)
    assert code == 2
    assert error.endswith("error: not lowerable: the moves cannot be compiled: a loop that reads 'Seeds' after the "
                          "move wrote it"), error
