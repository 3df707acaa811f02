"""Calls remembered while legal moves are listed (codegen._listing_site, Machine.listing): a call
whose target and arguments do not depend on the candidate (`Draughts.MustJump(side: player)` in a
filter run for 36 squares) runs once per listing, and a game plays exactly as without it: the
same moves, logs, keys and errors (where, what, and the loop-step limit)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tgpl.runtime import codegen, load_game
from tgpl.runtime.errors import TGPLRuntimeError
from tgpl.runtime.machine import Machine

from test_memo import playout  # everything observable along a random playout

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

FREE = """
game "t";
players 2;
tile Cell { number Value = 0; }
board B { group G { geometry square; grid { Cell, Cell, Cell, Cell; } } }
global class GameState
{
    B Board = null;
    // the free cells, counted by a loop: read while moves are listed, changed by every move
    function Free
    {
        function input player side;
        returns number;
        effect
        {
            number n = 0;
            for (number k = 0; k < 4; k += 1) { if ((Board.G[k][0] as Cell).Value == 0) { n += 1; } }
            return n + side;
        }
    }
    // null.Value once the first cell is taken: an error raised in a filter
    function Broken
    {
        function input player side;
        returns number;
        effect
        {
            Cell c = Board.G[0][0] as Cell;
            if (c.Value != 0) { c = null; }
            return c.Value + side;
        }
    }
}
class Seat
{
    action Take
    {
        input Cell c { return c.Value == 0 && GameState.Free(side: player) > 1 && GameState.Broken(side: player) >= 0; }
        trigger PlayerChoiceEvent { return true; }
        effect { c.Value = 1 + player; log("took, free " + GameState.Free(side: player)); turn.pass(); }
    }
    action Wait { trigger PlayerChoiceEvent { return true; } effect { turn.pass(); } }
}
turn T { phase P { } default { return player.active() + 1; } }
setup
{
    GameState.Board = new B();
    for (number p = 0; p < 2; p += 1) { Seat s = new Seat(); s.assign(p); }
    turn.use("T");
    turn.pass(0, "P");
}
"""


def without_listing(load, monkeypatch):
    """The game as compiled with no call remembered while moves are listed."""
    with monkeypatch.context() as patch:
        patch.setattr(codegen.BlockGenerator, "listing_worth", lambda self, e, fi: False)
        return load()


def remembered(state) -> int:
    """How many results the listing of `state`'s moves remembered."""
    seen: list[Machine] = []
    freeze = Machine.freeze

    def spy(m):
        freeze(m)
        seen.append(m)

    Machine.freeze = spy
    try:
        state.legal_moves()
    finally:
        Machine.freeze = freeze
    return sum(len(m.listing) for m in seen)


def outcome(g, moves: list[str]):
    """The legal moves after each of `moves`, and the log, or the error that stopped it."""
    try:
        state = g.initial_state(0)
        seen = [[m.text for m in state.legal_moves()]]
        for text in moves:
            state = state.apply(text)
            seen.append([m.text for m in state.legal_moves()])
        return "ok", seen, state.log
    except TGPLRuntimeError as e:
        return "error", e.render()


def test_draughts_remembers_its_capture_test_and_plays_the_same(monkeypatch):
    fast = load_game(EXAMPLES / "draughts.tgpl")
    slow = without_listing(lambda: load_game(EXAMPLES / "draughts.tgpl"), monkeypatch)
    start_fast, start_slow = fast.initial_state(0), slow.initial_state(0)
    assert remembered(start_fast) > 0 and remembered(start_slow) == 0
    for seed in range(2):
        assert playout(start_fast, seed, limit=60) == playout(start_slow, seed, limit=60)


def test_chess_and_tris_remember_nothing_while_listing():
    # their filters' calls all take the candidate (`CanMoveTo(to: to)`): nothing to share
    for name in ("chess/chess.tgpl", "tris.tgpl"):
        assert remembered(load_game(EXAMPLES / name).initial_state(0)) == 0


def test_a_remembered_call_follows_the_moves_and_raises_where_the_plain_run_raises(game, monkeypatch):
    fast = game(FREE)
    slow = without_listing(lambda: game(FREE, name="slow.tgpl"), monkeypatch)
    assert remembered(fast.initial_state(0)) == 2  # Free and Broken, once each for 4 candidates
    moves = ["Seat#0.Wait()", "Seat#1.Take(c: G[1][0])"]
    a, b = outcome(fast, moves), outcome(slow, moves)
    assert a == b and a[0] == "ok"
    assert a[1][-1] == ["Seat#0.Take(c: G[0][0])", "Seat#0.Take(c: G[2][0])", "Seat#0.Take(c: G[3][0])",
                        "Seat#0.Wait()"]
    moves = ["Seat#0.Take(c: G[0][0])"]
    a, b = outcome(fast, moves), outcome(slow, moves)
    assert a[0] == "error" and "cannot read 'Value' of null" in a[1] and "in function GameState.Broken" in a[1]
    assert a == (b[0], b[1].replace("slow.tgpl", "game.tgpl"))


@pytest.mark.parametrize("limit", [3, 4, 5, 8, 12, 13, 15, 16, 17, 20, 40, 100])
def test_remembered_calls_count_their_loop_steps(game, monkeypatch, limit):
    # Free counts 4 steps a call, run for each of 4 candidates: a lookup counts them again, and
    # the limit's error is raised where the plain run raises it, and only there
    results = []
    for name in ("fast.tgpl", "slow.tgpl"):
        load = lambda name=name: game(FREE, name=name)  # noqa: E731
        g = load() if name == "fast.tgpl" else without_listing(load, monkeypatch)
        g.step_limit = limit
        r = outcome(g, ["Seat#0.Wait()"])
        results.append(r if r[0] == "ok" else (r[0], r[1].replace(name, "game.tgpl")))
    assert results[0] == results[1]
