"""The batched engine says what the GDL reasoner says: legal moves, next states, terminal and goals.

Games are walked in lockstep: the batched environment draws random moves for B games, the reasoner
(tgpl.asp.reasoner, grounded once) plays the same moves in each, and every state of every game is compared.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.batched.conftest import env_and_reasoner

# (game, games walked in lockstep, states compared at least)
CASES = [("tris.tgpl", 150, 1000), ("connect4.tgpl", 60, 1000), ("tictactoe.kif", 150, 1000),
         ("connect4.kif", 60, 1000), ("reversi.kif", 4, 200)]


@pytest.mark.parametrize("name,games,least", CASES, ids=[c[0] for c in CASES])
def test_every_state_agrees(name: str, games: int, least: int) -> None:
    env, game = env_and_reasoner(name)
    rng = np.random.default_rng(11)
    state = env.init(0, games)
    references = [game.initial_state()] * games
    compared = 0
    while True:
        legal = state.legal_mask
        observation = state.observation
        for g, ref in enumerate(references):
            if ref is None:
                continue
            where = f"{name}, game {g}, step {state.steps[g]}"
            assert bool(state.terminated[g]) == ref.is_terminal, where
            assert {env.fluents[i] for i in np.flatnonzero(observation[g])} == {str(f) for f in ref.fluents}, where
            assert [None if v < 0 else int(v) for v in state.goals[g]] == ref.goals, where
            for r, role in enumerate(env.roles):
                mine = {env.moves[r][i] for i in np.flatnonzero(legal[g, r])}
                assert mine == {str(m) for m in ref.legal_moves(game.roles[r])}, where
            compared += 1
        if state.terminated.all():
            break
        moves = env.random_moves(state, rng)
        references = [None if ref is None or ref.is_terminal else
                      ref.apply([env.moves[r][moves[g, r]] for r in range(len(env.roles))])
                      for g, ref in enumerate(references)]
        state = env.step(state, moves)
    assert compared >= least
