"""The human agent at the terminal: board, numbered moves, answers by number or text."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from tgpl.cli import main

TRIS = str(Path(__file__).resolve().parents[2] / "examples" / "tris.tgpl")


def play(answers: list[str]):
    return CliRunner().invoke(main, ["play", TRIS, "--players", "human,first", "--seed", "0"], input="\n".join(answers) + "\n")


def test_the_human_sees_the_board_and_numbered_moves():
    result = play(["5", "1", "1", "1"])
    out = result.output
    assert "TrisGrid:\n  . . .\n  . . .\n  . . ." in out  # the empty board first
    assert "player 0, your move:" in out
    assert "    5. PlayerState#0.Tick(chosenTile: TrisGrid[1][1])" in out
    assert "player 0: PlayerState#0.Tick(chosenTile: TrisGrid[1][1])" in out  # 5 picked the centre


def test_the_human_may_type_a_move_text_and_is_asked_again_after_a_wrong_answer():
    result = play(["nonsense", "PlayerState#0.Tick(chosenTile: TrisGrid[2][2])", "1", "1", "1"])
    out = result.output
    assert "'nonsense' is not a legal move: type its number (1-9) or its text" in out
    assert "player 0: PlayerState#0.Tick(chosenTile: TrisGrid[2][2])" in out


def test_a_whole_game_against_the_first_agent_ends_with_a_result():
    result = play(["1"] * 5)
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().splitlines()[-1] in {"winner: player 0", "winner: player 1", "draw between players 0, 1"}
