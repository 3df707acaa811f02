"""Determinism, game records, replay, the play/replay commands and exploration."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tgpl.cli import main
from tgpl.runtime import IllegalMove, explore, load_game
from tgpl.play.agents import FirstAgent, RandomAgent, ScriptAgent
from tgpl.play.play import play, replay
from tgpl.play.record import Record

ROOT = Path(__file__).resolve().parents[2]
TRIS = ROOT / "examples" / "tris.tgpl"

# Draw cards from a shuffled deck, choose where to put some: randomness, moves and choices.
DRAW = """\
game "draw";
players 2;

interactable Card { number Value = 0; }
stack Deck
{
    returns Card;
    default
    {
        for (number i = 1; i <= 6; i += 1) { Card c = new Card(); c.Value = i; push(c); }
        shuffle();
    }
}
global class Tabletop { Deck D = null; }
class Hand
{
    number Points = 0;
    action Draw
    {
        require { return Tabletop.D.length > 0; }
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            Card c = Tabletop.D.pop();
            input bool keep;
            if (keep) { Points += c.Value; }
            log("player " + player + " drew " + c.Value);
            turn.pass();
        }
    }
    action Stop
    {
        trigger PlayerChoiceEvent { return Tabletop.D.length < 4; }
        effect
        {
            log("stop");
            winner player;
        }
    }
}
turn Play { phase Go { } default { return player.active() + 1; } }
setup
{
    Tabletop.D = new Deck();
    for (number p = 0; p < 2; p += 1) { Hand h = new Hand(); h.assign(p); }
    turn.use("Play");
    turn.pass(0, "Go");
}
"""


@pytest.fixture
def draw_game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "draw.tgpl").write_text(DRAW, encoding="utf-8")
    return load_game("draw.tgpl")


def random_record(game, seed: int) -> Record:
    agents = [RandomAgent(seed, p) for p in range(game.players)]
    return play(game, agents, seed, "draw.tgpl").record


def test_the_same_seed_gives_byte_identical_records(draw_game):
    first = random_record(draw_game, 7).to_json()
    second = random_record(draw_game, 7).to_json()
    assert first == second
    data = json.loads(first)
    assert data["format"] == 1 and data["game"] == "draw" and data["seed"] == 7
    assert data["players"] == ["random", "random"]
    assert data["source_digest"].startswith("sha256:")
    assert data["result"]["goals"] in ([100, 0], [0, 100])
    assert first.endswith("}\n") and '\n "format": 1,' in first  # one-space indentation, sorted keys


def test_different_seeds_usually_give_different_games(draw_game):
    records = {random_record(draw_game, seed).to_json() for seed in range(6)}
    assert len(records) >= 4


def test_a_record_holds_moves_choices_and_the_log(draw_game):
    record = random_record(draw_game, 3)
    moves = record.moves
    assert moves[0]["player"] == 0 and moves[0]["move"] == "Hand#0.Draw()"
    assert moves[1] == {"player": 0, "move": moves[1]["move"]} and moves[1]["move"] in ("false", "true")
    assert any(line.startswith("player 0 drew ") for line in record.log)
    assert record.result["ranking"] in ([[0]], [[1]])


def test_replay_accepts_a_record_and_reaches_the_same_state(draw_game):
    outcome = play(draw_game, [RandomAgent(11, 0), RandomAgent(11, 1)], 11, "draw.tgpl")
    record = Record.from_json(outcome.record.to_json())
    state = replay(draw_game, record)
    assert state.is_terminal
    assert state.key() == outcome.state.key()
    assert state.log == record.log
    assert {"ranking": state.ranking, "goals": state.goals} == record.result


def tampered(record: Record, change) -> Record:
    data = json.loads(record.to_json())
    change(data["moves"])
    return Record.from_json(json.dumps(data))


def test_replay_rejects_a_changed_move(draw_game):
    record = random_record(draw_game, 2)
    bad = tampered(record, lambda moves: moves[2].update(move="Hand#0.Draw()"))
    with pytest.raises(IllegalMove) as info:
        replay(draw_game, bad)
    assert info.value.reason.startswith("move 3: ")
    assert "Hand#0 does not belong to player 1" in info.value.reason


def test_replay_rejects_a_bad_choice(draw_game):
    record = random_record(draw_game, 2)
    bad = tampered(record, lambda moves: moves[1].update(move="maybe"))
    with pytest.raises(IllegalMove, match="^illegal move 'maybe'") as info:
        replay(draw_game, bad)
    assert info.value.reason.startswith("move 2: field 'move': expected a value for 'keep' by player 0")


def test_replay_rejects_a_move_by_the_wrong_player(draw_game):
    record = random_record(draw_game, 2)
    bad = tampered(record, lambda moves: moves[2].update(player=0))
    with pytest.raises(IllegalMove) as info:
        replay(draw_game, bad)
    assert info.value.reason == "move 3: field 'player': it is player 1's decision, not player 0's"


def test_replay_rejects_an_extra_move(draw_game):
    record = random_record(draw_game, 2)
    n = len(record.moves)
    bad = tampered(record, lambda moves: moves.append(dict(moves[-1])))
    with pytest.raises(IllegalMove) as info:
        replay(draw_game, bad)
    assert info.value.reason == f"move {n + 1}: the game was already over"


def test_a_malformed_record_is_rejected():
    with pytest.raises(ValueError, match="format 1"):
        Record.from_json('{"format": 2}')
    with pytest.raises(ValueError, match="field 'moves' is missing"):
        Record.from_json('{"format": 1, "game": "x"}')


def test_scripted_moves_are_played_first(draw_game):
    script = ScriptAgent(["# opening", "Hand#0.Draw()", "true", "", "Hand#1.Draw()", "false"])
    outcome = play(draw_game, [FirstAgent(), FirstAgent()], 0, "draw.tgpl", script=script)
    assert [m["move"] for m in outcome.record.moves[:4]] == ["Hand#0.Draw()", "true", "Hand#1.Draw()", "false"]
    assert outcome.state.is_terminal


def test_a_scripted_move_that_is_not_legal_stops_the_game(draw_game):
    with pytest.raises(IllegalMove, match="does not belong to player 0"):
        play(draw_game, [FirstAgent(), FirstAgent()], 0, "draw.tgpl", script=ScriptAgent(["Hand#1.Draw()"]))


# ------------------------------------------------------------------ the command line
def cli(*args: str):
    return CliRunner().invoke(main, list(args))


def test_cli_play_record_then_replay(draw_game, tmp_path):
    result = cli("play", "draw.tgpl", "--players", "random,random", "--seed", "4", "--record", "game.json", "--quiet")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("winner: player ")
    text = (tmp_path / "game.json").read_text(encoding="utf-8")
    again = cli("play", "draw.tgpl", "--players", "random,random", "--seed", "4", "--record", "again.json", "--quiet")
    assert again.exit_code == 0
    assert (tmp_path / "again.json").read_text(encoding="utf-8") == text
    record = json.loads(text)
    assert record["path"] == "draw.tgpl" and record["seed"] == 4

    ok = cli("replay", "game.json")
    assert ok.exit_code == 0, ok.output
    assert ok.stdout == f"game.json: ok, {len(record['moves'])} moves; {result.stdout.strip()}\n"


def test_cli_replay_reports_the_first_illegal_move(draw_game, tmp_path):
    assert cli("play", "draw.tgpl", "--players", "first,first", "--record", "game.json", "--quiet").exit_code == 0
    data = json.loads((tmp_path / "game.json").read_text(encoding="utf-8"))
    data["moves"][0]["move"] = "Hand#1.Draw()"
    (tmp_path / "bad.json").write_text(json.dumps(data), encoding="utf-8")
    result = cli("replay", "bad.json")
    assert result.exit_code == 1
    assert result.stderr == "bad.json: error: illegal move 'Hand#1.Draw()': move 1: field 'move': Hand#1 does not belong to player 0\n"


def test_cli_replay_reports_a_different_result(draw_game, tmp_path):
    assert cli("play", "draw.tgpl", "--players", "first,first", "--record", "game.json", "--quiet").exit_code == 0
    data = json.loads((tmp_path / "game.json").read_text(encoding="utf-8"))
    data["result"] = {"ranking": [[1]], "goals": [0, 100]} if data["result"]["ranking"] == [[0]] else {"ranking": [[0]], "goals": [100, 0]}
    (tmp_path / "bad.json").write_text(json.dumps(data), encoding="utf-8")
    result = cli("replay", "bad.json")
    assert result.exit_code == 1
    assert "the replay ends with" in result.stderr


def test_cli_replay_refuses_a_changed_source_unless_asked(draw_game, tmp_path):
    assert cli("play", "draw.tgpl", "--players", "first,first", "--record", "game.json", "--quiet").exit_code == 0
    path = tmp_path / "draw.tgpl"
    path.write_text(path.read_text(encoding="utf-8") + "\n// a comment\n", encoding="utf-8")
    result = cli("replay", "game.json")
    assert result.exit_code == 1
    assert "game.json: error: field 'source_digest': the game's source changed" in result.stderr
    assert cli("replay", "game.json", "--ignore-digest").exit_code == 0


def test_cli_play_with_a_moves_file(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "opening.txt").write_text(
        "# player 0 takes the left column\n"
        "PlayerState#0.Tick(chosenTile: TrisGrid[0][0])\n"
        "PlayerState#1.Tick(chosenTile: TrisGrid[1][0])\n"
        "\n"
        "PlayerState#0.Tick(chosenTile: TrisGrid[0][1])\n"
        "PlayerState#1.Tick(chosenTile: TrisGrid[1][1])\n"
        "PlayerState#0.Tick(chosenTile: TrisGrid[0][2])\n",
        encoding="utf-8",
    )
    result = cli("play", str(TRIS), "--players", "first,first", "--moves", "opening.txt", "--record", "r.json")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "player 0: PlayerState#0.Tick(chosenTile: TrisGrid[0][0])"
    assert lines[4] == "player 0: PlayerState#0.Tick(chosenTile: TrisGrid[0][2])"
    assert lines[-1] == "winner: player 0"
    assert len(json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["moves"]) == 5


def test_cli_play_stops_at_an_illegal_scripted_move(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.txt").write_text(
        "PlayerState#0.Tick(chosenTile: TrisGrid[0][0])\nPlayerState#1.Tick(chosenTile: TrisGrid[0][0])\n",
        encoding="utf-8",
    )
    result = cli("play", str(TRIS), "--players", "first,first", "--moves", "bad.txt", "--quiet")
    assert result.exit_code == 1
    assert "illegal move 'PlayerState#1.Tick(chosenTile: TrisGrid[0][0])'" in result.stderr
    assert "filter 1 of input 'chosenTile' (line 166) rejects TrisGrid[0][0]" in result.stderr


def test_cli_play_json_prints_the_final_state(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = cli("play", "examples/tris.tgpl", "--players", "first,first", "--json")
    assert result.exit_code == 0
    state = json.loads(result.stdout)
    assert state["terminal"] is True and state["ranking"] == [[0]] and state["goals"] == [100, 0]
    assert state["legal_moves"] == []


def test_cli_play_reports_a_stuck_game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "stuck.tgpl").write_text(
        'game "s";\nplayers 2;\nturn T { phase P { } }\nsetup { turn.use("T"); turn.pass(1, "P"); }\n', encoding="utf-8"
    )
    result = cli("play", "stuck.tgpl", "--players", "first,first")
    assert result.exit_code == 1
    assert result.stderr == "stuck.tgpl: error: stuck: player 1 has no legal move (turn T, phase P)\n"


def test_the_same_moves_give_the_same_state_key():
    game = load_game(TRIS)
    a = game.initial_state().apply("PlayerState#0.Tick(chosenTile: TrisGrid[0][0])")
    b = game.initial_state().apply("PlayerState#0.Tick(chosenTile: TrisGrid[0][0])")
    c = game.initial_state().apply("PlayerState#0.Tick(chosenTile: TrisGrid[1][0])")
    assert a.key() == b.key() and hash(a.key()) == hash(b.key())
    assert a.key() != c.key()
    # two orders of the same ticks reach the same position
    x = a.apply("PlayerState#1.Tick(chosenTile: TrisGrid[2][2])").apply("PlayerState#0.Tick(chosenTile: TrisGrid[1][0])")
    y = c.apply("PlayerState#1.Tick(chosenTile: TrisGrid[2][2])").apply("PlayerState#0.Tick(chosenTile: TrisGrid[0][0])")
    assert x.key() == y.key()


def test_explore_tris():
    result = explore(load_game(TRIS))
    assert result["states"] == 5478
    assert result["terminal"] == 958
    assert result["complete"] is True
    assert result["outcomes"] == {"player 0": 626, "player 1": 316, "draw": 16}


def test_cli_play_reads_moves_from_standard_input(monkeypatch):
    monkeypatch.chdir(ROOT)
    moves = "PlayerState#0.Tick(chosenTile: TrisGrid[2][2])\nPlayerState#1.Tick(chosenTile: TrisGrid[0][0])\n"
    result = CliRunner().invoke(main, ["play", "examples/tris.tgpl", "--players", "first,first", "--moves", "-"], input=moves)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[:2] == ["player 0: PlayerState#0.Tick(chosenTile: TrisGrid[2][2])",
                         "player 1: PlayerState#1.Tick(chosenTile: TrisGrid[0][0])"]
    # then the first agents take the first free tile: [1][0] for player 0
    assert lines[2] == "player 0: PlayerState#0.Tick(chosenTile: TrisGrid[1][0])"
