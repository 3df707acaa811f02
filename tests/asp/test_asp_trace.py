"""Differential test: the time-indexed encoding against the reasoner, along random plays."""

from __future__ import annotations

import random
from pathlib import Path

import clingo
import pytest

from tgpl.asp.asp_emit import encode_asp
from tgpl.asp.asp_trace import AspTrace, Step
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


@pytest.fixture
def groundings(monkeypatch) -> list[int]:
    """The horizon of every clingo grounding from now on (the trace passes it as `--const=horizon=N`)."""
    grounded: list[int] = []
    original_init, original_ground = clingo.Control.__init__, clingo.Control.ground

    def init(self, arguments=(), *args, **kwargs):
        self._spied_horizon = next((int(a.split("=")[-1]) for a in arguments if a.startswith("--const=horizon=")),
                                   None)
        original_init(self, arguments, *args, **kwargs)

    def ground(self, *args, **kwargs):
        grounded.append(self._spied_horizon)
        return original_ground(self, *args, **kwargs)

    monkeypatch.setattr(clingo.Control, "__init__", init)
    monkeypatch.setattr(clingo.Control, "ground", ground)
    return grounded


def per_play(encoding, moves) -> list[Step]:
    """The reference: a fresh trace for each play, grounded for exactly that play."""
    return AspTrace(encoding, horizon=len(moves)).run(moves)


def test_forty_random_tictactoe_plays_through_one_grounding(groundings):
    game = GdlGame.load(TICTACTOE)
    game.initial_state()  # the reasoner grounds its own program first
    groundings.clear()
    trace = AspTrace(encode_asp(game.program), horizon=9)
    rng = random.Random(41)
    lengths = set()
    for _ in range(40):
        moves, states = random_play(game, rng)
        assert_same(game, trace, moves, states)
        lengths.add(len(moves))
    assert len(lengths) > 1
    assert groundings == [9] and trace.groundings == 1


def test_a_game_without_input_is_grounded_once_with_moves_from_legal(groundings):
    game = GdlGame.load(DATA / "gdl_defect_loop.kif")  # declares no input: the externals come from legal
    assert "input" not in game.program.defined()
    game.initial_state()
    groundings.clear()
    trace = AspTrace(encode_asp(game.program), horizon=12)
    rng = random.Random(8)
    for _ in range(10):
        moves, states = random_play(game, rng, limit=12)
        assert_same(game, trace, moves, states)
    assert groundings == [12]


def test_without_a_horizon_the_first_play_sets_it_and_longer_ones_double_it(groundings):
    game = GdlGame.load(TICTACTOE)
    encoding = encode_asp(game.program)
    game.initial_state()
    groundings.clear()
    trace = AspTrace(encoding)
    assert groundings == [] and trace.horizon is None
    rng = random.Random(5)
    plays = [random_play(game, rng) for _ in range(30)]
    moves, states = max(plays, key=lambda p: len(p[0]))
    assert len(moves) == 9
    for n in (2, 3, 5, 9, 4, 0):
        assert_same(game, trace, moves[:n], states[:n + 1])
    assert groundings == [2, 4, 8, 16] and trace.horizon == 16 and trace.groundings == 4
    for moves, states in plays:
        assert_same(game, trace, moves, states)
    assert len(groundings) == 4


def test_the_steps_are_those_of_grounding_each_play_alone():
    """Not only legal plays: an illegal move, a move outside input, moves after the end."""
    game = GdlGame.load(TICTACTOE)
    encoding = encode_asp(game.program)
    trace = AspTrace(encoding, horizon=9)
    rng = random.Random(12)
    x, o = game.roles
    cells = [Func("mark", (Const(str(i)), Const(str(j)))) for i in (1, 2, 3) for j in (1, 2, 3)]
    noop = Const("noop")
    plays = [random_play(game, rng)[0] for _ in range(5)]
    plays.append([(cells[0], noop), (noop, cells[0]), (cells[4], noop)])  # o marks x's cell
    plays.append([(cells[0], noop), (noop, cells[4])] * 5)  # ten moves: past the horizon, past the end
    plays.append([(Const("pass"), noop), (noop, cells[1])])  # not in input: added to the externals
    plays.append(plays[0])  # after the others, back to the first play
    for moves in plays:
        assert trace.run(moves) == per_play(encoding, moves), moves
    assert trace.horizon == 18 and trace.groundings == 3  # 9, 18, 18 with `pass`
