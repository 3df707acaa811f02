"""The vector-environment API: shapes, names, stepping, illegal moves refused, ended games left alone."""

from __future__ import annotations

import numpy as np
import pytest


def test_shapes_and_names(tris_env) -> None:
    env = tris_env
    state = env.init(seed=0, batch=5)
    assert state.legal_mask.shape == (5, len(env.roles), env.num_moves)
    assert state.observation.shape == (5, len(env.fluents))
    assert state.terminated.shape == (5,) and not state.terminated.any()
    assert state.rewards.shape == (5, len(env.roles)) and (state.rewards == 0).all()
    for r in range(len(env.roles)):
        for i, name in enumerate(env.moves[r]):
            assert env.move_index(env.roles[r], name) == i and env.move_name(r, i) == name
    with pytest.raises(KeyError, match="no move"):
        env.move_index(0, "(not a move)")


def test_step_plays_the_chosen_moves_and_ended_games_stay(tris_env) -> None:
    env = tris_env
    rng = np.random.default_rng(0)
    state = env.init(0, 64)
    before = state
    while not state.terminated.all():
        moves = env.random_moves(state, rng)
        assert state.legal_mask[np.arange(64)[:, None], np.arange(len(env.roles)), moves][~state.terminated].all()
        after = env.step(state, moves)
        frozen = state.terminated
        assert np.array_equal(after.observation[frozen], state.observation[frozen])
        state = after
    assert (state.rewards.sum(axis=1) == 100).all()  # Tris: 100 to the winner, 50 each in a draw
    assert not np.array_equal(before.observation, state.observation)


def test_an_illegal_move_is_refused(tris_env) -> None:
    env = tris_env
    state = env.init(0, 3)
    moves = env.random_moves(state, np.random.default_rng(0))
    mover = int(np.flatnonzero(state.legal_mask[0].sum(axis=1) > 1)[0])
    illegal = int(np.flatnonzero(~state.legal_mask[0, mover, :len(env.moves[mover])])[0]) if \
        (~state.legal_mask[0, mover, :len(env.moves[mover])]).any() else None
    waiting = 1 - mover
    moves[1, waiting] = int(np.flatnonzero(~state.legal_mask[1, waiting, :len(env.moves[waiting])])[0])
    with pytest.raises(ValueError, match="game 1: move .* is not legal for role"):
        env.step(state, moves)
    with pytest.raises(ValueError, match="shape"):
        env.step(state, moves[:, :1])
    assert illegal is None or illegal >= 0
