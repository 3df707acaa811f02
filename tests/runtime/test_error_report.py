"""Runtime errors shown like check errors (issue 36): the source line with a caret, the expression
that was null or out of range named, the call chain, and the moves that reach the error."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from tgpl.cli import main

REVERSI = Path(__file__).resolve().parents[2] / "examples" / "reversi.tgpl"
PLACE_START = """            number tx = 0;
            number ty = 0;
"""


def planted(tmp_path: Path, line: str, after: str = PLACE_START) -> Path:
    """Reversi with `line` planted after `after` (in Seat.Place's effect by default)."""
    text = REVERSI.read_text(encoding="utf-8")
    assert text.count(after) == 1
    path = tmp_path / "reversi.tgpl"
    path.write_text(text.replace(after, after + line + "\n"), encoding="utf-8")
    return path


def planted_line(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


def test_a_null_read_names_the_expression_that_was_null(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    line = "            if (board.Count(who: player) >= 4) { log(board.At(x: 9, y: 0).Disc); }"
    path = planted(tmp_path, line)
    row = planted_line(path, "board.At(x: 9, y: 0).Disc")
    col = line.index(".Disc") + 2
    result = CliRunner().invoke(main, ["play", "reversi.tgpl", "--players", "first,first", "--quiet"])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert lines[0] == (f"reversi.tgpl:{row}:{col}: runtime error: cannot read 'Disc' of null: "
                        "'board.At(x: 9, y: 0)' is null")
    assert lines[1] == f" {row} | {line}"
    assert lines[2] == " " * (len(str(row)) + 1) + " | " + " " * (col - 1) + "^^^^"
    assert lines[3].startswith("  in action Seat.Place at reversi.tgpl:")
    assert lines[4] == "  reached by these moves (tgpl play --moves FILE replays them):"
    moves = [m.strip() for m in lines[5:]]
    assert moves and all(m.startswith("Seat#") for m in moves)
    # The moves shown reach the same error when `--moves` replays them.
    (tmp_path / "moves.txt").write_text("\n".join(moves) + "\n", encoding="utf-8")
    again = CliRunner().invoke(main, ["play", "reversi.tgpl", "--players", "random,random", "--quiet",
                                      "--moves", "moves.txt"])
    assert again.exit_code == 1
    assert again.stderr == result.stderr


def test_an_index_out_of_range_names_the_index_and_the_list(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    line = "            number first = GameState.DX[tx - 1];"
    path = planted(tmp_path, line)
    row = planted_line(path, "GameState.DX[tx - 1]")
    col = line.index("GameState") + 1
    result = CliRunner().invoke(main, ["play", "reversi.tgpl", "--players", "first,first", "--quiet"])
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[0] == (f"reversi.tgpl:{row}:{col}: runtime error: index -1 out of range 0..7: "
                        "the index 'tx - 1' of 'GameState.DX'")
    assert lines[1] == f" {row} | {line}"
    assert lines[2].endswith(" | " + " " * (col - 1) + "^" * len("GameState.DX[tx - 1]"))
    assert lines[-2:] == ["  reached by these moves (tgpl play --moves FILE replays them):",
                          "    Seat#0.Place(target: Grid[3][2])"]


def test_replay_shows_the_error_with_its_source_line_and_moves(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "reversi.tgpl"
    path.write_text(REVERSI.read_text(encoding="utf-8"), encoding="utf-8")
    made = CliRunner().invoke(main, ["play", "reversi.tgpl", "--players", "first,first", "--quiet",
                                     "--max-moves", "8", "--record", "r.json"])
    assert made.exit_code == 3  # not ended after 8 moves
    line = "            if (board.Count(who: player) >= 4) { log(board.At(x: 9, y: 0).Disc); }"
    planted(tmp_path, line)
    result = CliRunner().invoke(main, ["replay", "r.json", "--ignore-digest"])
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[0].endswith("runtime error: cannot read 'Disc' of null: 'board.At(x: 9, y: 0)' is null")
    assert lines[1].endswith(line)
    record = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    shown = [m.strip() for m in lines[lines.index("  reached by these moves (tgpl play --moves FILE replays them):") + 1:]]
    assert shown == [m["move"] for m in record["moves"]][:len(shown)]


def test_analyze_shows_the_error_with_its_source_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    line = "            number first = GameState.DX[tx - 1];"
    planted(tmp_path, line)
    result = CliRunner().invoke(main, ["analyze", "reversi.tgpl", "--games", "1", "--players", "first,first"])
    assert result.exit_code == 1
    assert "runtime error: index -1 out of range 0..7: the index 'tx - 1' of 'GameState.DX'" in result.stdout
    assert f"| {line}" in result.stdout
