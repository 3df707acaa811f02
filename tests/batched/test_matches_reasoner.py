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


GRAPH = """
; Edges are added one a turn between four nodes; the game ends when d is reachable from a or after
; two edges. Reachability over undirected edges is a ground cycle (reach a -> reach b -> reach a): the
; engine's cyclic components, iterated to their least fixpoint.
(role builder)
(init (step 0))
(node a) (node b) (node c) (node d)
(pair a b) (pair a c) (pair b c) (pair b d) (pair c d)
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)
(<= (legal builder (add ?x ?y)) (pair ?x ?y) (not (true (edge ?x ?y))))
(<= (next (edge ?x ?y)) (does builder (add ?x ?y)))
(<= (next (edge ?x ?y)) (true (edge ?x ?y)))
(<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))
(<= (linked ?x ?y) (true (edge ?x ?y)))
(<= (linked ?x ?y) (true (edge ?y ?x)))
(reach a)
(<= (reach ?y) (reach ?x) (linked ?x ?y))
(<= terminal (reach d))
(<= terminal (true (step 2)))
(<= (goal builder 100) (reach d))
(<= (goal builder 0) (not (reach d)))
(<= (base (edge ?x ?y)) (pair ?x ?y))
(<= (base (step ?n)) (succ ?m ?n))
(base (step 0))
(<= (input builder (add ?x ?y)) (pair ?x ?y))
"""


def test_ground_cycles_reach_their_least_fixpoint(tmp_path) -> None:
    import tgpl.batched as batched
    from tgpl.asp.reasoner import GdlGame

    path = tmp_path / "graph.kif"
    path.write_text(GRAPH)
    env = batched.load(path)
    assert any(level.cyclic for level in env.network.state_levels)
    game = GdlGame.load(path)
    rng = np.random.default_rng(3)
    state = env.init(0, 200)
    references = [game.initial_state()] * 200
    outcomes = set()
    while True:
        for g, ref in enumerate(references):
            if ref is not None:
                assert bool(state.terminated[g]) == ref.is_terminal
                assert [None if v < 0 else int(v) for v in state.goals[g]] == ref.goals
                mine = {env.moves[0][i] for i in np.flatnonzero(state.legal_mask[g, 0])}
                assert mine == {str(m) for m in ref.legal_moves(game.roles[0])}
                if ref.is_terminal:
                    outcomes.add(ref.goals[0])
        if state.terminated.all():
            break
        moves = env.random_moves(state, rng)
        references = [None if ref is None or ref.is_terminal else ref.apply([env.moves[0][moves[g, 0]]])
                      for g, ref in enumerate(references)]
        state = env.step(state, moves)
    assert outcomes == {0, 100}
