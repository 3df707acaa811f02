"""The MCTS agent: strength against random play, determinism, any number of players, the spec parser."""

from __future__ import annotations

from pathlib import Path

import pytest

from tgpl.runtime import load_game
from tgpl.play.agents import FirstAgent, RandomAgent, automatic_agent
from tgpl.play.mcts import DEFAULT_ITERATIONS, MctsAgent
from tgpl.play.play import play

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _game(name: str):
    return load_game(EXAMPLES / name)


def test_mcts_never_loses_tris_to_random():
    """Ten games as the first player (bench/mcts.py plays a hundred on each seat)."""
    game = _game("tris.tgpl")
    results = [play(game, [MctsAgent(s, 0, 100), RandomAgent(s, 1)], s, "tris").state.goals for s in range(10)]
    assert all(goals[0] >= goals[1] for goals in results), results
    assert sum(goals[0] == 100 for goals in results) >= 7, results


def test_mcts_beats_random_at_connect_four():
    game = _game("connect4.tgpl")
    results = [play(game, [RandomAgent(s, 0), MctsAgent(s, 1, 12)], s, "c4").state.goals for s in range(3)]
    assert sum(goals[1] == 100 for goals in results) >= 2, results


def test_same_seed_same_moves_other_seed_other_moves():
    game = _game("tris.tgpl")

    def moves(seed: int) -> list[str]:
        outcome = play(game, [MctsAgent(seed, 0, 30), MctsAgent(seed, 1, 30)], seed, "tris")
        return [m["move"] for m in outcome.record.moves]

    assert moves(4) == moves(4)
    assert len({tuple(moves(s)) for s in range(4)}) > 1


def test_takes_an_immediate_win():
    """Player 0 (X) has two in the top row: the search finds the third whatever the seed."""
    g = _game("tris.tgpl")
    state = g.initial_state(0)
    for text in ["PlayerState#0.Tick(chosenTile: TrisGrid[0][0])", "PlayerState#1.Tick(chosenTile: TrisGrid[2][2])",
                 "PlayerState#0.Tick(chosenTile: TrisGrid[0][1])", "PlayerState#1.Tick(chosenTile: TrisGrid[2][1])"]:
        state = state.apply(text)
    for seed in range(3):
        move = MctsAgent(seed, 0, 60).choose(state, state.legal_moves())
        assert move.text == "PlayerState#0.Tick(chosenTile: TrisGrid[0][2])"


RACE = Path(__file__).resolve().parents[1] / "data" / "race.tgpl"


def test_three_players_each_node_for_its_mover():
    """A race to 3 for three players: the mover adds 1 or 2, reaching 3 wins. Seat 1 facing a total
    of 1 must add 2 (adding 1 lets seat 2 win): MCTS reads each node's statistics from its mover's goal."""
    g = load_game(RACE, 3)
    state = g.initial_state(0).apply("Race.One()")
    assert state.active_player == 1 and [m.text for m in state.legal_moves()] == ["Race.One()", "Race.Two()"]
    for seed in range(3):
        assert MctsAgent(seed, 1, 20).choose(state, state.legal_moves()).text == "Race.Two()"
    # and seat 0 at the start avoids both 1 (seat 1 adds 2) and 2 (seat 1 adds 1): every move loses,
    # yet the search runs on a three-player tree and returns a legal move.
    first = g.initial_state(0)
    assert MctsAgent(0, 0, 20).choose(first, first.legal_moves()) in first.legal_moves()


def test_spec_parser():
    assert isinstance(automatic_agent("random", 1, 0), RandomAgent)
    assert isinstance(automatic_agent("first", 1, 0), FirstAgent)
    default = automatic_agent("mcts", 1, 0)
    assert isinstance(default, MctsAgent) and default.iterations == DEFAULT_ITERATIONS
    assert automatic_agent("mcts:7", 1, 1).name == "mcts:7"
    for bad in ["mcts:0", "mcts:x", "mcts:", "random:3", "bob"]:
        with pytest.raises(ValueError):
            automatic_agent(bad, 1, 0)
