"""Random playouts: reproducible, and their outcomes those of uniformly random play."""

from __future__ import annotations

import math

import numpy as np

from tests.batched.conftest import env_and_reasoner

Z99 = 2.5758293035489  # the two-sided 99 % quantile of the normal distribution
# Uniformly random tic-tac-toe, computed exactly over the game tree: first player 737/1260, second
# 363/1260, draws 160/1260 (58.5 %, 28.8 %, 12.7 %).
TRIS = {(100, 0): 737 / 1260, (0, 100): 363 / 1260, (50, 50): 160 / 1260}


def assert_tris_rates(result) -> None:
    """Every game of `result` (random Tris playouts) finished, each outcome's rate within the 99 % interval of
    the exact one; the NumPy and the jax backends' tests share it."""
    assert result.finished.all() and not result.stuck.any()
    outcomes = result.outcomes()
    assert set(outcomes) == set(TRIS)
    for goals, p in TRIS.items():
        half_width = Z99 * math.sqrt(p * (1 - p) / result.games)
        assert abs(outcomes[goals] / result.games - p) <= half_width, (goals, outcomes[goals])


def test_tris_outcomes_of_100000_random_games() -> None:
    env = env_and_reasoner("tris.tgpl")[0]
    assert_tris_rates(env.random_playouts(seed=0, batch=100_000))


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


def test_connect_four_outcomes_agree_with_the_runtime() -> None:
    """100,000 batched games against 1,000 runtime games (seeded PCG32 moves, as bench/playouts.py plays
    them): each outcome's rates are within the 99 % interval of their difference."""
    from tgpl.runtime import load_game
    from tgpl.runtime.rng import Pcg32

    from tests.batched.conftest import GAMES

    game = load_game(GAMES["connect4.tgpl"])
    start = game.initial_state(0)
    rng = Pcg32(2024)
    runtime: dict[tuple[int, ...], int] = {}
    played = 1000
    for _ in range(played):
        state = start
        while not state.is_terminal:
            moves = state.legal_moves()
            state = state.apply(moves[rng.below(len(moves))])
        key = tuple(int(v) for v in state.goals)
        runtime[key] = runtime.get(key, 0) + 1
    env = env_and_reasoner("connect4.tgpl")[0]
    result = env.random_playouts(seed=0, batch=100_000)
    assert result.finished.all()
    mine = result.outcomes()
    assert set(runtime) <= set(mine) and len(mine) == 3  # first wins, second wins, draw
    for goals, count in mine.items():
        p_b, p_r = count / result.games, runtime.get(goals, 0) / played
        pooled = (count + runtime.get(goals, 0)) / (result.games + played)
        half_width = Z99 * math.sqrt(pooled * (1 - pooled) * (1 / result.games + 1 / played))
        assert abs(p_b - p_r) <= half_width, (goals, p_b, p_r)
