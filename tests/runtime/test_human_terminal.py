"""Human play at the terminal (issue 36): a wrong answer explained as precisely as `--moves` explains
a line, a cell typed by name accepted, each log line printed once, and the end of the input a clean
stop with the record saved."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from tgpl.cli import main

REVERSI = str(Path(__file__).resolve().parents[2] / "examples" / "reversi.tgpl")


def play(game: str, answers: list[str], *extra: str):
    return CliRunner().invoke(main, ["play", game, "--players", "human,first", *extra],
                              input="".join(a + "\n" for a in answers))


def test_a_cell_typed_that_no_move_takes_is_explained_like_a_moves_line(tmp_path):
    result = play(REVERSI, ["Grid[0][0]"])
    assert ("'Grid[0][0]' is not a legal move (as Seat#0.Place(target: Grid[0][0]): filter 1 of input 'target' "
            "(line 171) rejects Grid[0][0])") in result.stdout
    assert "there is no object ''" not in result.output
    # --moves says the same of the whole move text
    (tmp_path / "m.txt").write_text("Seat#0.Place(target: Grid[0][0])\n", encoding="utf-8")
    script = CliRunner().invoke(main, ["play", REVERSI, "--moves", str(tmp_path / "m.txt"), "--players", "first,first"])
    assert script.exit_code == 1
    assert "filter 1 of input 'target' (line 171) rejects Grid[0][0]" in script.stderr


def test_a_wrong_number_says_how_the_moves_are_numbered():
    result = play(REVERSI, ["12"])
    assert "'12' is not a legal move (there is no move 12: the moves are numbered 1 to 4)" in result.stdout


def test_a_cell_typed_by_name_is_the_move_that_takes_it():
    result = play(REVERSI, ["Grid[3][2]"])
    assert "player 0: Seat#0.Place(target: Grid[3][2])" in result.stdout


def test_an_action_typed_without_its_object_is_explained():
    result = play(REVERSI, ["Place(target: Grid[0][0])", "Place(target: Grid[2][3])"])
    assert "(as Seat#0.Place(target: Grid[0][0]): filter 1 of input 'target' (line 171) rejects Grid[0][0])" \
        in result.stdout
    assert "player 0: Seat#0.Place(target: Grid[2][3])" in result.stdout


def test_the_end_of_the_input_stops_cleanly_and_saves_the_record(tmp_path):
    record = tmp_path / "r.json"
    result = play(REVERSI, ["1", "1"], "--record", str(record))
    assert result.exit_code == 3  # the game did not end
    assert "Aborted!" not in result.output and "Traceback" not in result.output
    assert result.stderr.splitlines()[-1] == f"{REVERSI}: end of input: the game stopped after 4 moves; the record is in {record}"
    moves = [m["move"] for m in json.loads(record.read_text(encoding="utf-8"))["moves"]]
    assert len(moves) == 4 and moves[0] == "Seat#0.Place(target: Grid[3][2])"
    assert CliRunner().invoke(main, ["replay", str(record)]).exit_code == 0


LOGGING = """\
game "l";
players 2;
global class G { number N = 0; }
class Seat
{
    action Go
    {
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            G.N += 1;
            log("move " + G.N);
            if (G.N == 4) { winner 0; }
            turn.pass();
        }
    }
}
turn T { phase P { } default { turn.pass(player.active() + 1, "P"); } }
setup
{
    for (number p = 0; p < 2; p += 1) { Seat s = new Seat(); s.assign(p); }
    turn.use("T");
    turn.pass(0, "P");
}
"""


def test_each_log_line_is_printed_once(tmp_path):
    game = tmp_path / "log.tgpl"
    game.write_text(LOGGING, encoding="utf-8")
    result = play(str(game), ["1", "1"])
    assert result.exit_code == 0, result.output
    for n in range(1, 5):
        assert result.stdout.count(f"move {n}\n") == 1, result.stdout
    assert "  log: move 1" in result.stdout.splitlines()


def test_a_forced_move_is_played_with_a_notice():
    game = str(Path(__file__).resolve().parents[1] / "data" / "forgotten_draw.tgpl")
    # 1 + 1 against `first`'s 1 + 1: the forgotten draw, then only Pass is legal, for ever
    result = play(game, ["1", "1"], "--max-moves", "8")
    assert result.exit_code == 3
    lines = result.stdout.splitlines()
    assert lines.count("  the only legal move, played: Seat#0.Pass()") == 2  # moves 5 and 7 are the human's
    assert "player 0: Seat#0.Pass()" in lines
