"""Differential test: the time-indexed encoding against the reasoner, along random plays."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tgpl.asp.asp_emit import encode_asp
from tgpl.asp.asp_trace import AspTrace
from tgpl.asp.reasoner import GdlGame
from tgpl.lowering.ir import Const, Func

ROOT = Path(__file__).resolve().parents[2]
TICTACTOE = ROOT / "examples" / "gdl" / "tictactoe.kif"
DATA = ROOT / "tests" / "data"


def random_play(game: GdlGame, rng: random.Random, limit: int = 50):
    state = game.initial_state()
    states, moves = [state], []
    while not state.is_terminal and state.legal_moves() and len(moves) < limit:
        joint = rng.choice(state.legal_moves())
        state = state.apply(joint)
        moves.append(joint)
        states.append(state)
    return moves, states


def assert_same(game: GdlGame, trace: AspTrace, moves, states) -> None:
    steps = trace.run(moves)
    assert len(steps) == len(states) == len(moves) + 1
    for step, state in zip(steps, states):
        assert step.terminal == state.is_terminal, step.time
        if not state.is_terminal:  # the reasoner gives no legal moves in a terminal state
            for i, role in enumerate(game.roles):
                assert sorted(map(str, step.legal[i])) == sorted(map(str, state.legal_moves(role))), step.time
        assert [g[0] if len(g) == 1 else None for g in step.goals] == state.goals, step.time


def test_fifty_random_tictactoe_playouts_agree_with_the_reasoner():
    game = GdlGame.load(TICTACTOE)
    trace = AspTrace(encode_asp(game.program))
    rng = random.Random(2026)
    lengths = set()
    for _ in range(50):
        moves, states = random_play(game, rng)
        assert states[-1].is_terminal
        assert_same(game, trace, moves, states)
        lengths.add(len(moves))
    assert len(lengths) > 1  # plays of different lengths, wins and draws among them


@pytest.mark.parametrize("name", ["gdl_defect_stuck", "gdl_defect_loop", "gdl_defect_no_goal",
                                  "gdl_defect_unwinnable"])
def test_defect_games_agree_with_the_reasoner(name):
    game = GdlGame.load(DATA / f"{name}.kif")
    trace = AspTrace(encode_asp(game.program))
    rng = random.Random(7)
    for _ in range(5):
        moves, states = random_play(game, rng, limit=12)
        assert_same(game, trace, moves, states)


def test_a_move_for_each_role_is_required():
    game = GdlGame.load(TICTACTOE)
    trace = AspTrace(encode_asp(game.program))
    with pytest.raises(ValueError):
        trace.run([(Func("mark", (Const("1"), Const("1"))),)])
