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
    assert "'nonsense' is not a legal move (" in out
    assert "player 0: PlayerState#0.Tick(chosenTile: TrisGrid[2][2])" in out


def test_a_whole_game_against_the_first_agent_ends_with_a_result():
    result = play(["1"] * 5)
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().splitlines()[-1] in {"winner: player 0", "winner: player 1", "draw between players 0, 1"}


def test_objects_with_a_name_are_labelled_and_players_objects_are_listed(tmp_path):
    from tgpl.runtime import load_game
    from tgpl.play.display import describe_move, render_state

    src = (
        'game "t"; players 2;\n'
        "setup { for (number i = 0; i < 2; i += 1) { Card c = new Card(); c.Name = \"card \" + i; c.assign(0); }\n"
        "  Hand h = new Hand(); h.Gold = 3; h.assign(0); turn.use(\"T\"); turn.pass(0, \"P\"); }\n"
        "turn T { phase P { } }\n"
        "class Hand { number Gold = 0; }\n"
        "interactable Card { string Name = \"\";\n"
        "  action Play { trigger PlayerChoiceEvent { return true; } effect { winner 0; } } }\n"
    )
    path = tmp_path / "g.tgpl"
    path.write_text(src, encoding="utf-8")
    state = load_game(path).initial_state(0)
    assert [describe_move(state, m) for m in state.legal_moves()] == [
        "Card#0 (card 0).Play()", "Card#1 (card 1).Play()",
    ]
    view = render_state(state)
    assert "players' objects:\n" in view
    assert "  Hand#0 [player 0]: Gold=3" in view


def test_moves_played_by_agents_are_labelled_as_the_human_list_labels_them():
    """The lines of moves played name objects by their `Name`, whatever the seat (a random seat included)."""
    graph = str(Path(__file__).resolve().parents[2] / "examples" / "graph.tgpl")
    r = CliRunner().invoke(main, ["play", graph, "--players", "random,random", "--seed", "0", "--max-moves", "2"])
    played = [line for line in r.output.splitlines() if line.startswith("player ")]
    assert len(played) == 2
    assert all(line.endswith(")") and "Place#" in line and "(" in line.split("Place#")[1] for line in played), played
    assert played[0].startswith("player 0: Thief#0.Move(dest: Place#") and " (" in played[0]


def test_a_hidden_object_in_an_agents_move_is_not_labelled(tmp_path):
    """Redacted for the one human, a card the human cannot see keeps neither its number nor its `Name`."""
    src = (
        'game "t"; players 2;\n'
        "setup { Hand a = new Hand(); a.assign(0); Hand b = new Hand(); b.assign(1);\n"
        "  for (number i = 0; i < 2; i += 1) { Card c = new Card(); c.Name = \"secret \" + i; c.assign(1); b.Cards.add(c); }\n"
        "  turn.use(\"T\"); turn.pass(1, \"P\"); }\n"
        "turn T { phase P { } }\n"
        "class Hand { private List<Card> Cards = {}; }\n"
        "interactable Card { string Name = \"\";\n"
        "  action Play { trigger PlayerChoiceEvent { return true; } effect { winner 1; } } }\n"
    )
    path = tmp_path / "g.tgpl"
    path.write_text(src, encoding="utf-8")
    r = CliRunner().invoke(main, ["play", str(path), "--players", "human,first", "--seed", "0"], input="")
    played = [line for line in r.output.splitlines() if line.startswith("player 1:")]
    assert played and "secret" not in played[0], r.output
