"""A field's new value known to be one a field holds as it is: `this`, a
literal, a compound assignment's number, player or string is stored without testing its class,
and `this` or a literal given to a local's field without temporaries. Games play, and fail with
the same errors, as the plain reference."""

from __future__ import annotations

import textwrap

import pytest

from tgpl.runtime import load_game

from observed import EXAMPLES, compiled_with_sources, outcome, reference
from test_inline_sets import PLAYS as SET_PLAYS, SETS

KNOWN = """
game "t";
players 2;
interactable Token
{
    number V = 0; player Who = 0; string S = ""; bool B = false; Seat By = null; Token Next = null;
    List<number> L = {};
}
global class G { Token T = null; number N = 0; string Log = ""; number Mode = 0; }
class Seat
{
    action Mark
    {
        input Token t { return t.V < 4; }
        trigger PlayerChoiceEvent { return G.Mode == 0; }
        effect
        {
            t.By = this; t.B = true; t.S += "x"; t.V += 1.5; t.Who += 1; t.S = "y";
            G.N += t.V; G.Log += t.S; t.Next = null; t.V -= 0.5;
            List<number> l = {1}; t.L = l; t.L.add(5); l.add(2); G.N += t.L.length;
            turn.pass();
        }
    }
    action Mode1
    {
        trigger PlayerChoiceEvent { return G.Mode == 0; }
        effect { G.Mode = 1; turn.pass(); }
    }
    action Mode2
    {
        trigger PlayerChoiceEvent { return G.Mode == 0; }
        effect { G.Mode = 2; turn.pass(); }
    }
    action Mode3
    {
        trigger PlayerChoiceEvent { return G.Mode == 0; }
        effect { G.Mode = 3; turn.pass(); }
    }
    action Again
    {
        trigger PlayerChoiceEvent { return G.Mode == 1; }
        effect { G.T.By = this; G.T.Next.V += 1; turn.pass(); }
    }
    action Nulls
    {
        trigger PlayerChoiceEvent { return G.Mode == 2; }
        effect { G.T.S = null; G.T.S += "z"; G.T.Who += 3; G.Mode = 0; turn.pass(); }
    }
    action Frozen
    {
        input Token t { return Stamp(t: t); }
        trigger PlayerChoiceEvent { return G.Mode == 3; }
        effect { turn.pass(); }
    }
    // The checker refuses a write in a filter; one made by a function it calls is met at run time
    function Stamp { function input Token t; returns bool; effect { t.B = true; return true; } }
}
turn T { phase P { } default { return player.active() + 1; } }
setup
{
    G.T = new Token(); Token u = new Token();
    Seat s = new Seat(); s.assign(0); Seat r = new Seat(); r.assign(1);
    turn.use("T"); turn.pass(0, "P");
}
"""

PLAYS = [
    ["Seat#0.Mark(t: Token#0)", "Seat#1.Mark(t: Token#1)", "Seat#0.Mode1()", "Seat#1.Again()"],
    ["Seat#0.Mark(t: Token#1)", "Seat#1.Mark(t: Token#0)", "Seat#0.Mode2()", "Seat#1.Nulls()",
     "Seat#0.Mark(t: Token#0)"],
    ["Seat#0.Mark(t: Token#0)", "Seat#1.Mode3()"],
]


def _game(tmp_path, src: str):
    path = tmp_path / "game.tgpl"
    path.write_text(textwrap.dedent(src), encoding="utf-8")
    return path


@pytest.mark.parametrize("src, moves", [(KNOWN, m) for m in PLAYS] + [(SETS, m) for m in SET_PLAYS])
def test_known_values_play_and_fail_as_tested(tmp_path, monkeypatch, src, moves):
    path = _game(tmp_path, src)
    known = load_game(path)
    tested = reference(path)
    first = outcome(known, moves, str(path))
    assert first == outcome(tested, moves, str(path))


def test_the_plays_reach_what_they_test(tmp_path):
    """The plays end as written: the fields set as the effect says, then the errors (a null's field
    read by a compound assignment, `null + "z"`, a write while the moves are listed)."""
    path = _game(tmp_path, KNOWN)
    g = load_game(path)
    state = g.initial_state(0)
    for text in PLAYS[0][:2]:
        before = repr([sorted(state.world.fields(o).items()) for o in state.world.objects])
        for sibling in state.legal_moves():  # played and dropped: nothing of theirs reaches `state`
            state.apply(sibling)
        assert repr([sorted(state.world.fields(o).items()) for o in state.world.objects]) == before
        state = state.apply(text)
    t0 = state.world.fields(state.world.named("Token#0"))
    assert (t0["V"], t0["Who"], t0["S"], t0["B"], t0["By"].name, t0["Next"]) == (1.0, 1, "y", True, "Seat#0", None)
    g_fields = state.world.fields(state.world.globals["G"])
    assert (g_fields["N"], g_fields["Log"], t0["L"]) == (9.0, "yy", [1.0, 5.0, 2.0])
    ends = [outcome(g, moves, str(path)) for moves in PLAYS]
    assert [(o[0], len(o[1])) for o in ends] == [("error", 4), ("ok", 6), ("error", 2)], ends
    assert "of null" in ends[0][2] and "cannot change" in ends[2][2], ends


def test_tris_tick_stores_without_the_test(monkeypatch):
    """Tris's `Tick` gives `this` to a local's field and a number to a global's: no class test, and
    the tile's object is the local itself."""
    _, on = compiled_with_sources(EXAMPLES / "tris.tgpl", monkeypatch)
    tick_on = [src for src in on if "'AssignedTo'] = this" in src]
    assert tick_on
    assert not any("in _P" in src for src in tick_on)
