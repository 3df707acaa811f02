"""The end of the game: winner, rankings and GDL goals."""

from __future__ import annotations

import pytest

from tgpl.runtime import goals_of
from tgpl.runtime.errors import TGPLRuntimeError


@pytest.mark.parametrize("ranking, players, goals", [
    ([[0], [1]], 2, [100, 0]),
    ([[1], [0]], 2, [0, 100]),
    ([[0, 1]], 2, [50, 50]),
    ([[0], [1], [2]], 3, [100, 50, 0]),
    ([[2], [0], [1]], 3, [50, 0, 100]),
    ([[1], [0, 2]], 3, [25, 100, 25]),
    ([[0, 1], [2]], 3, [75, 75, 0]),
    ([[0, 1, 2]], 3, [50, 50, 50]),
    ([[1]], 3, [25, 100, 25]),  # players left out share the last place
    ([[0], [1], [2], [3]], 4, [100, 67, 33, 0]),  # rounded half up
    ([[0]], 1, [100]),
    (None, 2, [0, 0]),
])
def test_goals_of(ranking, players, goals):
    assert goals_of(ranking, players) == goals


def test_a_single_winner(run_setup):
    state = run_setup("winner 1;", players=2)
    assert state.is_terminal
    assert state.ranking == [[1]]
    assert state.goals == [0, 100]
    assert state.legal_moves() == []
    assert state.active_player is None
    assert state.to_json()["goals"] == [0, 100]


def test_a_ranking_with_ties(run_setup):
    state = run_setup("winner { {1}, {0, 2} };", players=3)
    assert state.ranking == [[1], [0, 2]]
    assert state.goals == [25, 100, 25]


def test_a_draw_from_a_variable(run_setup):
    state = run_setup("List<List<player>> r = { {0, 1} }; winner r;", players=2)
    assert state.ranking == [[0, 1]]
    assert state.goals == [50, 50]


def test_three_players_in_order(run_setup):
    state = run_setup("winner { {2}, {1}, {0} };", players=3)
    assert state.goals == [0, 50, 100]


def test_winner_maps_player_expressions(run_setup):
    state = run_setup("winner player.active() - 1;", players=3)
    assert state.ranking == [[2]]


def test_a_one_player_game(run_setup):
    state = run_setup("winner 0;", players=1)
    assert state.goals == [100]


def test_a_null_winner_is_a_runtime_error(run_setup):
    with pytest.raises(TGPLRuntimeError, match="the winner is null"):
        run_setup("player p = null; winner p;")


def test_a_game_that_has_not_ended_has_no_ranking(start):
    state = start("""
        game "t";
        players 2;
        class Seat { action Go { trigger PlayerChoiceEvent { return true; } effect { winner player.active(); } } }
        turn T { phase P { } }
        setup { Seat s = new Seat(); s.assign(0); turn.use("T"); turn.pass(0, "P"); }
    """)
    assert not state.is_terminal and state.ranking is None
    assert state.to_json()["goals"] is None
    end = state.apply("Seat#0.Go()")
    assert end.is_terminal and end.ranking == [[0]] and end.goals == [100, 0]
