"""A move played through its plain spelling and settled by the segment's one loop (`Machine.play_plain`,
`Machine.settle`, with phases entered in place): games play, wait
for choices, resolve events and fail (message, place, stack) as through the machine's layers
(as the plain reference plays them)."""

from __future__ import annotations

import textwrap

import pytest

from tgpl.runtime import load_game
from tgpl.runtime.errors import TGPLRuntimeError
from tgpl.runtime.machine import Machine

from observed import reference

GAME = """game "s";
players 2;
global class S { number Moves = 0; List<number> Xs = {1, 2}; number Big = 1; }
event Bell { }
class Token { number v = 0; }
class Seat
{
    action Go
    {
        trigger PlayerChoiceEvent { return true; }
        effect { S.Moves += 1; turn.pass(); }
    }
    action Ask
    {
        trigger PlayerChoiceEvent { return S.Moves == 1; }
        effect { turn.pass(player.active(), "Ask"); }
    }
    action Echo
    {
        trigger PlayerChoiceEvent { return S.Moves == 1; }
        effect { turn.pass(player.active(), "Ring"); }
    }
    action Bad
    {
        trigger PlayerChoiceEvent { return S.Moves == 2; }
        effect { S.Moves = S.Xs[S.Moves + 3]; }
    }
    action Spin
    {
        trigger PlayerChoiceEvent { return S.Moves == 3; }
        effect { turn.pass(player.active(), "Loop"); }
    }
    action Grow
    {
        trigger PlayerChoiceEvent { return S.Moves == 4; }
        effect { turn.pass(player.active(), "Huge"); }
    }
    action Hear { trigger Bell { return true; } effect { log("heard " + player.active()); } }
}
turn T
{
    phase A { }
    phase B { log("in B"); turn.pass(player.active() + 1, "A"); }
    phase Ask
    {
        input Token q { return q.v < 2; }
        effect { log("q " + q.v); turn.pass(player.active() + 1, "A"); }
    }
    phase Ring { Bell b = new Bell(); event.throw(b); log("rang"); turn.pass(player.active() + 1, "A"); }
    phase Loop { turn.pass(player.active(), "Loop"); }
    phase Huge  // plain: entered by the fused segment itself
    {
        for (number i = 0; i < 1100; i += 1) { S.Big = S.Big * 2; }
        List<number> xs = {1};
        S.Moves = xs[S.Big];
    }
    default { turn.pass(player.active(), "B"); }
}
setup
{
    for (number p = 0; p < 2; p += 1) { Seat s = new Seat(); s.assign(p); }
    for (number i = 0; i < 3; i += 1) { Token t = new Token(); t.v = i; }
    turn.use("T");
    turn.pass(0, "A");
}
"""

GO = ["Seat#0.Go()", "Seat#1.Go()"]
PLAYS = [
    GO + GO,                                     # actions, a phase entered, a default, an empty phase
    ["Seat#0.Go()", "Seat#1.Ask()", "Token#1", "Seat#0.Go()"],  # a phase that asks
    ["Seat#0.Go()", "Seat#1.Echo()", "Seat#0.Go()"],  # a phase that needs a Frame throws an event
    GO + ["Seat#0.Bad()"],                       # an error in the action: its stack
    GO + ["Seat#0.Go()", "Seat#1.Spin()"],      # a cycle of passes: reported at the latest pass
    GO + GO + ["Seat#0.Grow()"],                 # an overflow in a phase entered
]


def _observed(g, plays: list[str]) -> list:
    """Everything seen along `plays`, played twice from one state (the second time, each move is one
    found before: `Game.played`): the moves listed, logs, keys, whether a choice waits, the error."""
    start = g.initial_state(0)
    seen = []
    for _ in range(2):
        state = start
        try:
            for text in plays:
                seen.append(([m.text for m in state.legal_moves()], state.key(), state.log, state.pending))
                state = state.apply(state.move_by_text(text))
            seen.append(([m.text for m in state.legal_moves()], state.key(), state.log, state.pending))
        except TGPLRuntimeError as e:
            seen.append(("error", e.render().replace(str(g.program.main_module.path), "game.tgpl")))
    return seen


def _game(tmp_path):
    path = tmp_path / "game.tgpl"
    path.write_text(textwrap.dedent(GAME), encoding="utf-8")
    return path


@pytest.mark.parametrize("plays", PLAYS)
def test_moves_found_before_play_as_through_the_layers(tmp_path, monkeypatch, plays):
    path = _game(tmp_path)
    fused_runs = []
    play_plain = Machine.play_plain
    monkeypatch.setattr(Machine, "play_plain", lambda m, known: (fused_runs.append(known), play_plain(m, known)))
    fused = _observed(load_game(path), plays)
    assert fused_runs  # moves were played through their plain spellings
    fused_runs.clear()
    layered = _observed(reference(path), plays)
    assert not fused_runs
    assert fused == layered


def test_the_cases_are_met(tmp_path):
    """The plays above reach what they say (else they compare nothing)."""
    g = load_game(_game(tmp_path))
    found = [_observed(g, plays) for plays in PLAYS]
    assert any(s[3] for s in found[1][:-1])  # a choice waited
    assert any(x.startswith("heard") for s in found[2] for x in s[2])  # the event was heard
    for i, expected in [(3, "index 5 out of range"), (4, "control passed"), (5, "grew past the doubles")]:
        errors = [s for s in found[i] if s[0] == "error"]
        assert len(errors) == 2 and errors[0] == errors[1] and expected in errors[0][1]
    assert "game.tgpl:26:" in [s for s in found[3] if s[0] == "error"][0][1]  # the action's line
    assert "in phase T.Huge" in [s for s in found[5] if s[0] == "error"][0][1]
    assert "in action Seat.Bad" in [s for s in found[3] if s[0] == "error"][0][1]
    assert "game.tgpl:50:" in [s for s in found[4] if s[0] == "error"][0][1]  # the latest pass
