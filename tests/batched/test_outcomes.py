"""Random playouts: reproducible, and their outcomes those of uniformly random play."""

from __future__ import annotations

import math

import numpy as np

from tests.batched.conftest import env_and_reasoner

Z99 = 2.5758293035489  # the two-sided 99 % quantile of the normal distribution
# Uniformly random tic-tac-toe, computed exactly over the game tree: first player 737/1260, second
# 363/1260, draws 160/1260 (58.5 %, 28.8 %, 12.7 %).
TRIS = {(100, 0): 737 / 1260, (0, 100): 363 / 1260, (50, 50): 160 / 1260}


def test_tris_outcomes_of_100000_random_games() -> None:
    env = env_and_reasoner("tris.tgpl")[0]
    result = env.random_playouts(seed=0, batch=100_000)
    assert result.finished.all() and not result.stuck.any()
    outcomes = result.outcomes()
    assert set(outcomes) == set(TRIS)
    for goals, p in TRIS.items():
        half_width = Z99 * math.sqrt(p * (1 - p) / result.games)
        assert abs(outcomes[goals] / result.games - p) <= half_width, (goals, outcomes[goals])


def test_same_seed_and_batch_same_games() -> None:
    env = env_and_reasoner("connect4.kif")[0]
    a = env.random_playouts(seed=5, batch=300)
    b = env.random_playouts(seed=5, batch=300)
    c = env.random_playouts(seed=6, batch=300)
    assert np.array_equal(a.goals, b.goals) and np.array_equal(a.lengths, b.lengths)
    assert not np.array_equal(a.lengths, c.lengths)


def test_the_games_do_not_depend_on_the_processes_playing_them() -> None:
    env = env_and_reasoner("tictactoe.kif")[0]
    one = env.random_playouts(seed=9, batch=40_000)
    two = env.random_playouts(seed=9, batch=40_000, jobs=2)
    assert np.array_equal(one.goals, two.goals) and np.array_equal(one.lengths, two.lengths)


def test_packed_and_bytes_layouts_play_the_same_games() -> None:
    import tgpl.batched as batched

    env = env_and_reasoner("tictactoe.kif")[0]
    other = batched.BatchedEnv(env.network, "bytes", env.path)
    a = env.random_playouts(seed=3, batch=777)
    b = other.random_playouts(seed=3, batch=777)
    assert np.array_equal(a.goals, b.goals) and np.array_equal(a.lengths, b.lengths)


def test_a_cap_on_steps_leaves_games_unfinished() -> None:
    env = env_and_reasoner("tictactoe.kif")[0]
    result = env.random_playouts(seed=1, batch=50, max_steps=3)
    assert not result.finished.any() and (result.lengths == 3).all()
    assert (result.goals == -1).all()
