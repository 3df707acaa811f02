"""A turn's default block runs through its plain spelling (`Machine.turn_pass_default`: no Frame,
its value returned as it is): the same players, phases, logs and errors as the block run on a
Frame (generated code off)."""

from __future__ import annotations


from tgpl.runtime import RuntimeOptions
from tgpl.runtime.errors import TGPLRuntimeError

GAME = """
game "t";
players 3;
global class S { number Moves = 0; List<number> Xs = {1, 2}; }
class Seat
{
    action Go
    {
        trigger PlayerChoiceEvent { return true; }
        effect { S.Moves += 1; log("go " + player.active()); turn.pass(); }
    }
}
turn T
{
    phase A { }
    phase B { }
    default
    {
        number n = S.Moves;
        if (n == 2) { return player.active() + 2; }              // a player returned: the first phase
        if (n == 4) { S.Moves = S.Xs[n]; }                        // an error in the default
        if (n == 1) { turn.pass(player.active() + 1, "B"); return null; }
        turn.pass(player.active() + 1, "A");
    }
}
setup
{
    for (number p = 0; p < 3; p += 1) { Seat s = new Seat(); s.assign(p); }
    turn.use("T");
    turn.pass(0, "A");
}
"""


def _play(g):
    state = g.initial_state(0)
    seen = []
    try:
        for _ in range(6):
            seen.append((state.active_player, state.world.control.phase, tuple(state.log)))
            state = state.apply(state.legal_moves()[0])
    except TGPLRuntimeError as e:
        seen.append(e.render())
    return seen


def test_a_default_plays_the_same_through_its_plain_spelling(game, monkeypatch):
    fast = game(GAME)
    assert getattr(fast.compiled.turns["T"].default, "direct", None) is not None
    slow = game(GAME, options=RuntimeOptions.reference())
    assert getattr(slow.compiled.turns["T"].default, "direct", None) is None
    a, b = _play(fast), _play(slow)
    assert a == b
    assert [x[:2] for x in a[:4]] == [(0, "A"), (1, "B"), (0, "A"), (1, "A")]
    assert "index 4 out of range" in a[-1] and "in default of turn T at" in a[-1] and "in action Seat.Go" in a[-1]
