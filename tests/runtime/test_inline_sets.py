"""A field given a value that is not a list or table is set inline by generated code
(`BlockGenerator.store_member`): games play, and fail with the same errors, as when every field
is set by `Machine.set_member` (the plain reference)."""

from __future__ import annotations

import textwrap

import pytest

from tgpl.runtime import load_game
from tgpl.runtime.errors import TGPLRuntimeError

from observed import outcome, reference

SETS = """
game "t";
players 1;
interactable Token { number V = 0; List<number> L = {}; Token Next = null; Token Other = null; }
global class G { Token T = null; number N = 0; }
class Seat
{
    action Set
    {
        input Token t { return t.V < 3; }
        trigger PlayerChoiceEvent { return true; }
        effect { t.V += 1; t.Next = t; V2(); turn.pass(); }
    }
    action Give
    {
        trigger PlayerChoiceEvent { return G.N == 0; }
        effect { List<number> l = {1, 2}; G.T.L = l; l.add(3); G.N = G.T.L.length; turn.pass(); }
    }
    action Null
    {
        trigger PlayerChoiceEvent { return G.N == 3; }
        effect { G.T.Other.V = 1; turn.pass(); }
    }
    action Frozen
    {
        input Token t { return Freeze(t: t); }
        trigger PlayerChoiceEvent { return G.N == 4; }
        effect { turn.pass(); }
    }
    function V2 { returns; effect { G.N += 1; } }
    // The checker refuses a write in a filter; one made by a function it calls is met at run time
    function Freeze { function input Token t; returns bool; effect { t.V = 5; return true; } }
}
turn T { phase P { } default { return 0; } }
setup { G.T = new Token(); Token u = new Token(); Seat s = new Seat(); s.assign(0); turn.use("T"); turn.pass(0, "P"); }
"""

PLAYS = [
    ["Seat#0.Give()", "Seat#0.Set(t: Token#0)"],
    ["Seat#0.Set(t: Token#1)", "Seat#0.Set(t: Token#1)", "Seat#0.Set(t: Token#0)", "Seat#0.Null()"],
    ["Seat#0.Give()", "Seat#0.Set(t: Token#1)"],
    ["Seat#0.Set(t: Token#0)", "Seat#0.Set(t: Token#1)", "Seat#0.Set(t: Token#1)", "Seat#0.Set(t: Token#0)", "Seat#0.Give()"],
]


@pytest.mark.parametrize("moves", PLAYS)
def test_sets_play_and_fail_as_set_by_the_machine(tmp_path, monkeypatch, moves):
    path = tmp_path / "game.tgpl"
    path.write_text(textwrap.dedent(SETS), encoding="utf-8")
    inline = load_game(path)
    machine = reference(path)
    assert outcome(inline, moves, str(path)) == outcome(machine, moves, str(path))


def test_the_errors_are_met(tmp_path):
    path = tmp_path / "game.tgpl"
    path.write_text(textwrap.dedent(SETS), encoding="utf-8")
    g = load_game(path)
    state = g.initial_state(0)
    for move in PLAYS[1][:-1]:
        state = state.apply(move)
    with pytest.raises(TGPLRuntimeError, match="null"):
        state.apply("Seat#0.Null()")
    state = g.initial_state(0)
    for move in ["Seat#0.Set(t: Token#0)"] * 3 + ["Seat#0.Set(t: Token#1)"]:
        state = state.apply(move)
    with pytest.raises(TGPLRuntimeError, match="require, trigger or filter cannot"):
        state.legal_moves()
