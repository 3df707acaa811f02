"""`players min..max;`: a game for a range of player counts (language.md, decision 71)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from tgpl.cli import main
from tgpl.frontend import ast
from tgpl.frontend.loader import load_program
from tgpl.frontend.parser import parse_text
from tgpl.runtime import load_game
from tgpl.runtime.game import Game, compile_program

# Every player in turn logs the count; the last one ends the game with player 0 first.
RANGE = """\
game "r";
players 3..5;
setup
{
    log("players: " + player.all().length);
    turn.use("T");
    turn.pass(0, "A");
}
class Seat
{
    action Go
    {
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            log("player " + player);
            if (player == player.all().length - 1) { winner 0; }
            turn.pass(player + 1, "A");
        }
    }
}
turn T { phase A { } }
"""

SEATS = 'for (number p = 0; p < player.all().length; p += 1) { Seat s = new Seat(); s.assign(p); }'


def write(tmp_path, src: str = RANGE, name: str = "r.tgpl"):
    src = src.replace('log("players: "', SEATS + '\n    log("players: "')
    path = tmp_path / name
    path.write_text(src, encoding="utf-8")
    return path


def parse_players(src: str) -> ast.PlayersDirective:
    result = parse_text(src, "t.tgpl")
    assert not result.diagnostics
    (item,) = [i for i in result.module.items if isinstance(i, ast.PlayersDirective)]
    return item


def diagnostics(tmp_path, players: str) -> list[tuple]:
    path = tmp_path / "c.tgpl"
    path.write_text(f'game "c";\n{players}\nsetup {{ }}\n', encoding="utf-8")
    return [(d.span.line, d.span.col, d.severity.value, d.message) for d in load_program(path).diagnostics]


# ------------------------------------------------------------------ parsing
def test_a_range_parses_and_4_dot_dot_7_is_not_a_fraction():
    item = parse_players('game "t";\nplayers 4..7;\nsetup { }\n')
    assert isinstance(item.count, ast.NumberLit) and item.count.value == 4
    assert isinstance(item.maximum, ast.NumberLit) and item.maximum.value == 7


def test_spaced_range_and_plain_count():
    item = parse_players('game "t";\nplayers 2 .. 3;\nsetup { }\n')
    assert (item.count.value, item.maximum.value) == (2, 3)
    item = parse_players('game "t";\nplayers 2;\nsetup { }\n')
    assert item.count.value == 2 and item.maximum is None


# ------------------------------------------------------------------ checking
def test_a_valid_range_is_clean(tmp_path):
    assert diagnostics(tmp_path, "players 4..7;") == []
    assert diagnostics(tmp_path, "players 3..3;") == []


def test_the_minimum_may_not_exceed_the_maximum(tmp_path):
    assert diagnostics(tmp_path, "players 5..3;") == [
        (2, 1, "error", "the player range 5..3 is empty: the minimum exceeds the maximum")
    ]


def test_each_bound_needs_at_least_one_player_and_a_number(tmp_path):
    assert diagnostics(tmp_path, "players 0..3;") == [(2, 9, "error", "a game needs at least one player")]
    assert diagnostics(tmp_path, 'players 2.."x";') == [(2, 12, "error", "'players' needs a number, not string")]
    assert diagnostics(tmp_path, "players 2..3.5;") == [(2, 12, "warning", "'players 3.5' is truncated to 3")]


# ------------------------------------------------------------------ runtime
def test_compiled_players_is_a_range(tmp_path):
    program = load_program(write(tmp_path))
    assert compile_program(program).players == range(3, 6)
    plain = tmp_path / "p.tgpl"
    plain.write_text('game "p";\nplayers 2;\nsetup { winner 0; }\n', encoding="utf-8")
    assert compile_program(load_program(plain)).players == range(2, 3)


@pytest.mark.parametrize("count", [3, 4, 5])
def test_the_game_runs_with_any_count_in_range(tmp_path, count):
    game = load_game(write(tmp_path), count)
    state = game.initial_state(0)
    assert state.log == [f"players: {count}"]
    while not state.is_terminal:
        state = state.apply(state.legal_moves()[0])
    assert len(state.goals) == count and state.goals[0] == 100


def test_the_default_is_the_minimum_and_counts_outside_are_rejected(tmp_path):
    path = write(tmp_path)
    assert load_game(path).players == 3
    program = load_program(path)
    compiled = compile_program(program)
    for bad in (2, 6):
        with pytest.raises(ValueError, match="is for 3 to 5 players, not"):
            Game(program, compiled, bad)


# ------------------------------------------------------------------ command line
def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_play_seats_as_many_players_as_listed_and_replay_uses_the_record(tmp_path):
    path = write(tmp_path)
    record = tmp_path / "five.json"
    result = run("play", str(path), "--players", "random,random,random,random,random", "--record", str(record), "--quiet")
    assert result.exit_code == 0, result.output
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["players"] == ["random"] * 5
    assert data["log"][0] == "players: 5" and len(data["moves"]) == 5
    assert len(data["result"]["goals"]) == 5
    result = run("replay", str(record))
    assert result.exit_code == 0, result.output
    assert "ok, 5 moves" in result.stdout


def test_play_seats_the_minimum_when_fewer_agents_are_listed(tmp_path):
    path = write(tmp_path)
    result = run("play", str(path), "--players", "first", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["log"][0] == "players: 3"
    record = tmp_path / "min.json"
    result = run("play", str(path), "--players", "random,random,random", "--record", str(record), "--quiet")
    assert result.exit_code == 0
    assert json.loads(record.read_text(encoding="utf-8"))["log"][0] == "players: 3"


def test_play_rejects_more_players_than_the_maximum(tmp_path):
    result = run("play", str(write(tmp_path)), "--players", ",".join(["random"] * 6))
    assert result.exit_code == 2
    assert "the game has 3 to 5 players, not 6" in result.output


def test_replay_rejects_a_record_with_a_count_outside_the_range(tmp_path):
    path = write(tmp_path)
    record = tmp_path / "r.json"
    assert run("play", str(path), "--players", "random,random,random,random", "--record", str(record), "--quiet").exit_code == 0
    data = json.loads(record.read_text(encoding="utf-8"))
    data["players"] = ["random"] * 7
    record.write_text(json.dumps(data), encoding="utf-8")
    result = run("replay", str(record))
    assert result.exit_code == 1
    assert "the record has 7 players" in result.stderr
