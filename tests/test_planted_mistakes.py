"""Mistakes planted in a game written by others (issue 36, "Done when"): each gets a located message
that names it, at check time where the checker can see it, else at run time with the source line.

The game is examples/reversi.tgpl; each case replaces one line of it as a designer's slip would.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tgpl.cli import main

REVERSI = Path(__file__).resolve().parents[1] / "examples" / "reversi.tgpl"


def planted(tmp_path: Path, old: str, new: str) -> tuple[str, str]:
    """reversi.tgpl with `old` (once in it) replaced by `new`, written to tmp_path; its text."""
    text = REVERSI.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    text = text.replace(old, new)
    (tmp_path / "reversi.tgpl").write_text(text, encoding="utf-8")
    return "reversi.tgpl", text


def row_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


CHECK_CASES = [
    pytest.param("board.Flips(x: x, y: y, who: player) > 0;", "board.Flip(x: x, y: y, who: player) > 0;",
                 "board.Flip(", "error: ReversiBoard has no member 'Flip'; did you mean 'Flips'?", id="wrong-name"),
    pytest.param("            number tx = 0;\n", "            number tx = 0\n", "number tx = 0",
                 "error: expected ';' before identifier 'number'", id="missing-semicolon"),
    pytest.param("            return Grid[x][y] as Square;\n        }\n    }\n",
                 "            return Grid[x][y] as Square;\n    }\n", "if (x < 0 || y < 0",
                 "error: this '{' is never closed", id="missing-brace"),
    pytest.param("board.Flips(x: x, y: y, who: player) > 0;", "board.Flips(x: x, y: y) > 0;", "board.Flips(x: x, y: y)",
                 "error: missing argument 'who' of function 'Flips'", id="missing-input"),
    pytest.param("for (number i = 1; i <= k; i += 1)", "for (number i = 1; i <= k; i + 1)", "i <= k; i + 1",
                 "error: the value of this loop step is never used: the step changes nothing", id="endless-for"),
    pytest.param("Square s = Grid[x][y] as Square;", "Square s = Grid[x][8] as Square;", "Grid[x][8]",
                 "error: index 8 is outside group 'Grid': its second index runs 0..7 (a 8 x 8 grid)",
                 id="index-out-of-range"),
    pytest.param("    List<number> DX = {1, 1, 0, -1, -1, -1, 0, 1};", "    Table<number, number> DX = {1, 1, 0, -1, -1, -1, 0, 1};",
                 "Table<number, number> DX", "error: a Table takes one type, its values' (any value but null is a "
                 "key): write 'Table<number>'", id="map-written-with-a-key-type"),
    pytest.param('            turn.pass(player, "EndPhase");\n        }\n    }\n\n    // A player with no move passes',
                 '        }\n    }\n\n    // A player with no move passes', "", "", id="forgotten-pass-is-fine-here"),
]


@pytest.mark.parametrize("old, new, where, message", CHECK_CASES)
def test_check_names_the_planted_mistake_where_it_is(tmp_path, monkeypatch, old, new, where, message):
    monkeypatch.chdir(tmp_path)
    path, text = planted(tmp_path, old, new)
    result = CliRunner().invoke(main, ["check", path])
    if not message:  # Pass still passes control: one move forgetting it is a design, not provably a slip
        assert result.exit_code == 0 and "no move ever passes control" not in result.output
        return
    assert result.exit_code == 1
    first = result.stderr.splitlines()[0]
    if where.startswith("if (x < 0"):  # reported at the `{` before that line
        assert first.startswith(f"{path}:{row_of(text, where) - 1}:")
    else:
        assert first.startswith(f"{path}:{row_of(text, where)}:")
    assert first.endswith(message)
    assert "Traceback" not in result.output


def test_a_forgotten_turn_pass_everywhere_is_warned_of(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = REVERSI.read_text(encoding="utf-8")
    for call in ('turn.pass(player, "EndPhase");', "turn.pass();", 'turn.pass(player.active() + 1, "MovePhase");'):
        text = text.replace(call, "")
    (tmp_path / "reversi.tgpl").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "reversi.tgpl"])
    assert result.exit_code == 0  # a warning
    assert f"reversi.tgpl:{row_of(text, 'action Place')}:12: warning: no move ever passes control" in result.stderr


def test_an_endless_while_loop_stops_at_run_time_with_its_source_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path, text = planted(tmp_path, "                n += 1;\n", "")
    result = CliRunner().invoke(main, ["play", path, "--players", "first,first", "--quiet"])
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    row = row_of(text, "while (s != null && s.Disc != null")
    assert lines[0].startswith(f"{path}:{row}:") and "a loop ran past 100000 steps in one move" in lines[0]
    assert lines[1] == f" {row} | {text.splitlines()[row - 1]}"
    assert "^" in lines[2]


def test_a_computed_index_out_of_range_stops_at_run_time_naming_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path, text = planted(tmp_path, "number dx = GameState.DX[d];", "number dx = GameState.DX[d + 1];")
    result = CliRunner().invoke(main, ["play", path, "--players", "first,first", "--quiet"])
    assert result.exit_code == 1
    first = result.stderr.splitlines()[0]
    assert first == (f"{path}:{row_of(text, 'GameState.DX[d + 1]')}:29: runtime error: index 8 out of range 0..7: "
                     "the index 'd + 1' of 'GameState.DX'")


def test_a_forgotten_draw_is_found_by_analyze_with_its_seeds(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    game = Path(__file__).resolve().parent / "data" / "forgotten_draw.tgpl"
    result = CliRunner().invoke(main, ["analyze", str(game), "--games", "20", "--max-moves", "20", "--json"])
    assert result.exit_code == 1
    s = json.loads(result.stdout)
    assert s["unfinished"] > 0 and len(s["unfinished_games"]["seeds"]) == s["unfinished"]


def test_forgotten_passes_into_a_phase_leave_it_never_entered(tmp_path, monkeypatch):
    """Both moves forget `turn.pass(player, "EndPhase")`: the end check that phase holds never runs (the
    phase itself still passes control, so 'no move ever passes control' does not apply)."""
    monkeypatch.chdir(tmp_path)
    text = REVERSI.read_text(encoding="utf-8").replace('            turn.pass(player, "EndPhase");\n', "")
    (tmp_path / "reversi.tgpl").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "reversi.tgpl"])
    assert result.exit_code == 0  # a warning
    assert (f"reversi.tgpl:{row_of(text, 'phase EndPhase')}:11: warning: phase 'EndPhase' is never entered: no "
            "turn.pass or turn.use that can run names it, and it is not the first phase of turn 'Play'") \
        in result.stderr.splitlines()
    assert "no move ever passes control" not in result.stderr


def test_a_table_written_with_its_key_type_is_one_error_not_ten(tmp_path, monkeypatch):
    """Dots and boxes' first draft wrote `Table<number, Table<number, Line>>` twice: ten errors followed."""
    monkeypatch.chdir(tmp_path)
    boxes = REVERSI.parents[1] / "tests" / "data" / "designers" / "boxes.tgpl"
    text = boxes.read_text(encoding="utf-8").replace("Table<Table<Line>>", "Table<number, Table<number, Line>>")
    (tmp_path / "boxes.tgpl").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "boxes.tgpl"])
    assert result.exit_code == 1
    errors = [line for line in result.stderr.splitlines() if ": error: " in line]
    fix = "error: a Table takes one type, its values' (any value but null is a key): write 'Table<Table<Line>>'"
    assert errors == [f"boxes.tgpl:{row_of(text, name)}:5: {fix}" for name in ("> h = {}", "> v = {}")], result.stderr


@pytest.mark.parametrize("players", ["human,random", "random,random"])
def test_a_runtime_error_in_setup_is_located_with_a_human_seat_too(tmp_path, monkeypatch, players):
    """Setup runs before the first move is asked for; with one human seat play also keeps setup's state to word
    the moves it prints, and a runtime error there is reported as elsewhere, not as a traceback."""
    monkeypatch.chdir(tmp_path)
    path, text = planted(tmp_path, "        seat.assign(p);\n", "        seat.assign(p);\n        GameState.DX[p + 8] = 0;\n")
    result = CliRunner().invoke(main, ["play", path, "--players", players], input="\n")
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.splitlines()
    assert lines[0].startswith(f"{path}:{row_of(text, 'GameState.DX[p + 8]')}:") and "runtime error" in lines[0]
    assert "in setup" in result.stderr and "Traceback" not in result.stderr
