"""Functions that read only run optimistically (tgpl.runtime.readonly, codegen's
`optimistic_fast`): their scalar field reads are one lookup with no test, and a read that needs
the machine (a null, a fixed object) starts the call again the general way. Games play exactly
as with the general spelling: the same moves, logs, keys and errors (where, what, the loop-step
limit)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tgpl.runtime import codegen, load_game
from tgpl.runtime.errors import TGPLRuntimeError
from tgpl.runtime.rng import Pcg32

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def optimistic(game) -> set[str]:
    c = game.compiled
    fs = list(c.functions.values()) + [rf for rc in c.classes_by_id() for rf in rc.functions.values()]
    return {rf.what for rf in fs if rf.effect is not None and getattr(rf.effect, "fast", None) is not None
            and rf.effect.fast.__name__ == "_fast_opt"}


@pytest.fixture
def general(monkeypatch):
    """load(path) -> the game compiled without optimistic spellings."""

    def load(path, players=None):
        with monkeypatch.context() as mp:
            mp.setattr(codegen, "OPTIMISTIC", False)
            return load_game(path, players)

    return load


def playout(state, seed: int, limit: int = 400) -> list:
    """Everything observable along a random playout: moves, logs, keys, the ranking."""
    rng = Pcg32(seed)
    seen = []
    for _ in range(limit):
        if state.is_terminal:
            break
        moves = state.legal_moves()
        seen.append(([m.text for m in moves], state.key(), tuple(state.log)))
        if not moves:
            break
        state = state.apply(moves[rng.below(len(moves))])
    seen.append((state.ranking, state.key(), tuple(state.log)))
    return seen


def test_which_example_functions_run_optimistically(general):
    chess = optimistic(load_game(EXAMPLES / "chess" / "chess.tgpl"))
    assert {"function Chess.CanMove", "function Chess.Reaches", "function Chess.Attacked",
            "function Chess.Slides"} <= chess
    assert "function Chess.Go" not in chess  # it moves the pieces
    assert optimistic(load_game(EXAMPLES / "tris.tgpl")) == {"function WinCheck"}
    assert optimistic(general(EXAMPLES / "chess" / "chess.tgpl")) == set()


@pytest.mark.parametrize("name, seeds, limit", [
    ("tris.tgpl", range(4), 400),
    ("connect4.tgpl", range(2), 400),
    ("draughts.tgpl", range(2), 60),
    ("chess/chess.tgpl", range(2), 12),
    ("hex.tgpl", range(2), 400),
    ("citadels/citadels.tgpl", range(1), 40),
])
def test_examples_play_the_same_optimistically_and_not(general, name, seeds, limit):
    players = 4 if name.startswith("citadels") else None
    fast = load_game(EXAMPLES / name, players)
    slow = general(EXAMPLES / name, players)
    for seed in seeds:
        assert playout(fast.initial_state(seed), seed, limit) == playout(slow.initial_state(seed), seed, limit)


GAME = """
game "t";
players 1;
tile Cell { number Value = 0; Cell Next = null; }
board B
{
    group G { geometry square; grid { Cell, Cell, Cell; } }
    // reads only: the value after `c`'s, looping first to count steps
    function NextValue
    {
        function input Cell c;
        function input number loops;
        returns number;
        effect
        {
            number s = 0;
            for (number k = 0; k < loops; k += 1) { s += 1; }
            return c.Next.Value + s;
        }
    }
    // reads only: a field of the move's PlayerChoiceEvent (a fixed object, not in the world's table)
    function Mover
    {
        function input PlayerChoiceEvent e;
        function input number loops;
        returns number;
        effect
        {
            number s = 0;
            for (number k = 0; k < loops; k += 1) { s += 1; }
            return e.active + s;
        }
    }
}
global class GameState { B Board = null; }
class Seat
{
    action First
    {
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            number v = GameState.Board.NextValue(c: GameState.Board.G[0][0] as Cell, loops: 30);
            log("value " + v);
            turn.pass();
        }
    }
    action Last
    {
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            number v = GameState.Board.NextValue(c: GameState.Board.G[2][0] as Cell, loops: 30);
            log("value " + v);
            turn.pass();
        }
    }
    action Event
    {
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            number v = GameState.Board.Mover(e: event as PlayerChoiceEvent, loops: 30);
            v += GameState.Board.Mover(e: event as PlayerChoiceEvent, loops: 30);
            log("mover " + v);
            turn.pass();
        }
    }
}
turn T { phase P { } default { return 0; } }
setup
{
    GameState.Board = new B();
    (GameState.Board.G[0][0] as Cell).Next = GameState.Board.G[1][0] as Cell;
    (GameState.Board.G[1][0] as Cell).Value = 8;
    Seat s = new Seat(); s.assign(0);
    turn.use("T");
    turn.pass(0, "P");
}
"""


def _outcome(g, moves: list[str], name: str):
    state = g.initial_state(0)
    try:
        for move in moves:
            state = state.apply(move)
        return ("ok", tuple(state.log), state.key())
    except TGPLRuntimeError as e:
        return ("error", e.render().replace(name, "game.tgpl"))


@pytest.fixture
def both(game, monkeypatch):
    """The test game compiled optimistically and not."""
    fast = game(GAME, name="fast.tgpl")
    monkeypatch.setattr(codegen, "OPTIMISTIC", False)
    slow = game(GAME, name="slow.tgpl")
    monkeypatch.setattr(codegen, "OPTIMISTIC", True)
    assert optimistic(fast) == {"function B.NextValue", "function B.Mover"} and optimistic(slow) == set()
    return fast, slow


@pytest.mark.parametrize("moves", [["Seat#0.First()"], ["Seat#0.Last()"], ["Seat#0.Event()", "Seat#0.First()"]])
def test_reads_that_need_the_machine_come_out_the_same(both, moves):
    fast, slow = both
    a, b = _outcome(fast, moves, "fast.tgpl"), _outcome(slow, moves, "slow.tgpl")
    assert a == b
    if moves == ["Seat#0.Last()"]:  # a null's field: the error, where and with its call stack
        assert a[0] == "error" and "cannot read 'Value' of null" in a[1] and "in function B.NextValue" in a[1]
    else:
        assert a[0] == "ok"


@pytest.mark.parametrize("limit", [30, 31, 45, 61, 62, 63, 100])
def test_a_run_given_up_gives_its_loop_steps_back(both, limit):
    # Mover loops 30 steps (31 counted with the test ending the loop, counted per pass), then
    # reads a field of a fixed object, which starts it again: the steps of the first run are
    # given back, so the limit's error comes where the general spelling raises it
    fast, slow = both
    outcomes = []
    for name, g in (("fast.tgpl", fast), ("slow.tgpl", slow)):
        g.step_limit = limit
        outcomes.append(_outcome(g, ["Seat#0.Event()"], name))
    assert outcomes[0] == outcomes[1]
    assert any(o[0] == "ok" for o in outcomes) or limit < 100
