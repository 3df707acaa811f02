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
    """One entry per clingo grounding from now on."""
    grounded: list[int] = []
    original_ground = clingo.Control.ground

    def ground(self, *args, **kwargs):
        grounded.append(1)
        return original_ground(self, *args, **kwargs)

    monkeypatch.setattr(clingo.Control, "ground", ground)
    return grounded


def unrolled(encoding, moves) -> list[Step]:
    """The reference: the encoding grounded for the times 0..len(moves) with the play's moves as facts, solved
    once (no externals, no step by step): what `AspTrace.run` must give, step for step."""
    names = encoding.names
    roles = [names.symbol(r) for r in encoding.roles]
    facts = "".join(f"does({r},{names.symbol(m)},{t}).\n" for t, joint in enumerate(moves)
                    for r, m in zip(roles, joint))
    ctl = clingo.Control(["--warn=none", "--models=2"])
    ctl.add("base", [], encoding.text + f"time(0..{len(moves)}).\n" + facts)
    ctl.ground([("base", [])])
    models = []
    ctl.solve(on_model=lambda m: models.append(m.symbols(atoms=True)))
    assert len(models) == 1
    legal = [[[] for _ in roles] for _ in range(len(moves) + 1)]
    goals = [[[] for _ in roles] for _ in range(len(moves) + 1)]
    terminal = [False] * (len(moves) + 1)
    for sym in models[0]:
        if sym.name == "terminal" and len(sym.arguments) == 1:
            terminal[sym.arguments[0].number] = True
        elif sym.name in ("legal", "goal") and len(sym.arguments) == 3 and sym.arguments[0] in roles:
            r, value, t = sym.arguments
            if sym.name == "legal":
                legal[t.number][roles.index(r)].append(names.term(value))
            else:
                goals[t.number][roles.index(r)].append(value.number if value.type is clingo.SymbolType.Number
                                                       else names.term(value))
    return [Step(t, tuple(tuple(sorted(ms, key=str)) for ms in legal[t]), terminal[t],
                 tuple(tuple(sorted(gs, key=str)) for gs in goals[t])) for t in range(len(moves) + 1)]


def test_forty_random_tictactoe_plays_through_one_grounding(groundings):
    game = GdlGame.load(TICTACTOE)
    game.initial_state()  # the reasoner grounds its own program first
    groundings.clear()
    trace = AspTrace(encode_asp(game.program))
    rng = random.Random(41)
    lengths = set()
    for _ in range(40):
        moves, states = random_play(game, rng)
        assert_same(game, trace, moves, states)
        lengths.add(len(moves))
    assert len(lengths) > 1
    assert groundings == [1] and trace.groundings == 1


def test_a_game_without_input_takes_its_moves_from_legal_and_without_base_its_fluents_as_reached(groundings):
    game = GdlGame.load(DATA / "gdl_defect_loop.kif")  # declares no input: the externals come from legal
    assert "input" not in game.program.defined() and "base" not in game.program.defined()
    game.initial_state()
    groundings.clear()
    trace = AspTrace(encode_asp(game.program))
    rng = random.Random(8)
    for _ in range(10):
        moves, states = random_play(game, rng, limit=12)
        assert_same(game, trace, moves, states)
    # no base: the fluents a play reaches first at time 3 are added, and grounded again, with the moves legal
    # can give with them
    assert trace._extra_fluents and len(groundings) == trace.groundings > 1


def test_the_grounding_is_one_step_whatever_the_length_of_the_plays():
    """The replay grounds the encoding for one step, not for a horizon: a play of 2 moves and one of 30 (moves
    past the end included) leave the same grounding, the size of the encoding grounded for 2 times at most."""
    game = GdlGame.load(TICTACTOE)
    encoding = encode_asp(game.program)
    x, o = game.roles
    cells = [Func("mark", (Const(str(i)), Const(str(j)))) for i in (1, 2, 3) for j in (1, 2, 3)]
    noop = Const("noop")
    trace = AspTrace(encoding)
    trace.run([(cells[0], noop), (noop, cells[4])])
    size = trace.size
    trace.run([(cells[0], noop), (noop, cells[4])] * 15)
    assert trace.size == size and trace.groundings == 1
    two = clingo.Control(["--warn=none"])  # every move an external at times 0 and 1: the horizon 2 of old
    two.add("base", [], encoding.text + "time(0..2).\n#external does(R,M,T) : input(R,M), time(T), T < 2.\n")
    two.ground([("base", [])])
    two.solve()
    assert size.rules < two.statistics["problem"]["lp"]["rules"]


def test_the_steps_are_those_of_the_encoding_unrolled_over_the_play():
    """Not only legal plays: an illegal move, a move outside input, moves after the end."""
    game = GdlGame.load(TICTACTOE)
    encoding = encode_asp(game.program)
    trace = AspTrace(encoding)
    rng = random.Random(12)
    x, o = game.roles
    cells = [Func("mark", (Const(str(i)), Const(str(j)))) for i in (1, 2, 3) for j in (1, 2, 3)]
    noop = Const("noop")
    plays = [random_play(game, rng)[0] for _ in range(5)]
    plays.append([(cells[0], noop), (noop, cells[0]), (cells[4], noop)])  # o marks x's cell
    plays.append([(cells[0], noop), (noop, cells[4])] * 5)  # ten moves: past the end
    plays.append([(Const("pass"), noop), (noop, cells[1])])  # not in input: added to the externals
    plays.append(plays[0])  # after the others, back to the first play
    plays.append([])
    for moves in plays:
        assert trace.run(moves) == unrolled(encoding, moves), moves
    assert trace.groundings == 2  # the first, and again with `pass`


@pytest.mark.parametrize("name", ["gdl_defect_stuck", "gdl_defect_loop", "gdl_defect_no_goal",
                                  "gdl_defect_unwinnable"])
def test_defect_games_step_as_unrolled(name):
    game = GdlGame.load(DATA / f"{name}.kif")
    encoding = encode_asp(game.program)
    trace = AspTrace(encoding)
    rng = random.Random(3)
    for _ in range(5):
        moves, _ = random_play(game, rng, limit=12)
        assert trace.run(moves) == unrolled(encoding, moves), moves
