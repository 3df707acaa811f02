"""A phase with no inputs whose effect needs no Frame is entered through its plain spelling
(`RPhase.plain`, `Machine.enter_phase`). Games play, wait and key their states exactly as when
every phase is entered through a Frame (the plain reference)."""

from __future__ import annotations

import textwrap

import pytest

from tgpl.runtime import load_game
from tgpl.runtime.errors import TGPLRuntimeError

from observed import EXAMPLES, reference

PHASES = """
game "t";
players 2;
interactable Token { }
global class Box { number Count = 0; number Sum = 0; Token Picked = null; }
function Ask { returns number; effect { input Token t; return 1; } }
class Seat
{
    action Add
    {
        require { return Box.Count < 3; }
        trigger PlayerChoiceEvent { return true; }
        effect { Box.Count += 1; turn.pass(player.active(), "Sum"); }
    }
    // plain: a choice asked in a function it calls
    action Call
    {
        require { return Box.Count == 1; }
        trigger PlayerChoiceEvent { return true; }
        effect { Box.Sum = Box.Sum + Ask(); turn.pass(player.active() + 1, "Move"); }
    }
    // plain, its input given by the move
    action Give
    {
        input Token t;
        require { return Box.Count == 0 && Box.Sum < 200; }
        trigger PlayerChoiceEvent { return true; }
        effect { Box.Picked = t; Box.Sum = Box.Sum + 100; turn.pass(player.active() + 1, "Move"); }
    }
    // plain, but its second input is the other player's: asked as it runs, through its Frame
    action Offer
    {
        input Token t;
        player [player.active() + 1] input bool agree;
        require { return Box.Count == 0; }
        trigger PlayerChoiceEvent { return true; }
        effect { if (agree) { Box.Sum = Box.Sum + 1000; } turn.pass(player.active() + 1, "Move"); }
    }
    // not plain: it names its event
    action Loud
    {
        trigger PlayerChoiceEvent { return Box.Count == 3; }
        effect { if (event.active == 0) { turn.pass(player.active(), "Shout"); } else { turn.pass(player.active(), "Shout"); } }
    }
}
global class Desk
{
    action Vet
    {
        input Token pick;
        effect { Box.Sum = Box.Sum + 10; }
    }
}
turn T
{
    phase Move { }
    // a plain phase: a choice asked in a function it calls, its caller halfway through an expression
    phase Sum
    {
        number before = Box.Sum;
        if (Box.Count == 2) { Box.Sum = before + Ask(); }
        for (number i = 0; i < 2; i += 1) { Box.Sum += i; }
        turn.pass(player.active() + 1, "Move");
    }
    // not plain: an action called as a statement is a site the phase's Frame describes
    phase Shout
    {
        Desk.Vet();
        List<number> none = {};
        Box.Sum = none[Box.Sum];
        turn.pass(player.active() + 1, "Move");
    }
}
setup
{
    Token one = new Token();
    Token two = new Token();
    Seat s = new Seat(); s.assign(0);
    Seat t = new Seat(); t.assign(1);
    turn.use("T");
    turn.pass(0, "Move");
}
"""


@pytest.fixture
def two(tmp_path, monkeypatch):
    """The game above compiled with plain phases, and with every phase entered through a Frame."""
    path = tmp_path / "game.tgpl"
    path.write_text(textwrap.dedent(PHASES), encoding="utf-8")
    return load_game(path), reference(path)


def _phases(game) -> dict:
    return {name: p.plain is not None for name, p in game.compiled.turns["T"].phases.items()}


def _actions(game) -> dict:
    return {ra.name: ra.plain is not None for rc in game.compiled.classes_by_id() for ra in rc.actions.values()}


def test_which_phases_and_actions_are_plain(two):
    plain, framed = two
    assert _phases(plain) == {"Move": False, "Sum": True, "Shout": False}
    assert _actions(plain) == {"Add": True, "Call": True, "Give": True, "Offer": True, "Loud": False, "Vet": True}
    assert not any(_phases(framed).values()) and not any(_actions(framed).values())
    tris = load_game(EXAMPLES / "tris.tgpl")
    assert tris.compiled.turns["GameTurn"].phases["WinCheckPhase"].plain is not None


def _everything(game) -> list:
    """Every state reachable within a few moves, breadth first: its moves, key, view, or the error."""
    out = []
    frontier = [game.initial_state(0)]
    for _ in range(6):
        following = []
        for state in frontier:
            out.append((state.key(), state.to_json(), state.resume is None, state.pending))
            for move in state.legal_moves():
                try:
                    following.append(state.apply(move))
                except TGPLRuntimeError as e:
                    out.append(("error", move.text, e.render()))
        frontier = following
    return out


def test_states_and_keys_are_those_of_framed_phases(two):
    plain, framed = two
    seen = _everything(plain)
    assert seen == _everything(framed)
    # a choice asked below the plain phase's call: keyed by its history (undescribed); one asked
    # by the action the framed phase calls as a statement: described
    waiting = {(s[1]["phase"], s[1]["waiting_for"]["input"]): s[2] for s in seen if s[0] != "error" and s[3]}
    assert waiting == {("Sum", "t"): True, ("Shout", "pick"): False, ("Move", "t"): True, ("Move", "agree"): False}
    assert any(s[0] == "error" and "index" in s[2] for s in seen)  # the error in the framed phase
