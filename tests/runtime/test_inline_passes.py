"""`turn.pass()` spelled inline by generated code (`tgpl.runtime.passes`): games pass the turn, run
defaults and fail with the same errors as when every pass is the machine's call
(the plain reference)."""

from __future__ import annotations

import textwrap

import pytest

from tgpl.runtime import load_game

from observed import compiled_with_sources, outcome, reference

GAME = """
game "t";
players 3;
global class S { number Moves = 0; List<number> Xs = {1, 2}; }
class Seat
{
    action Go
    {
        trigger PlayerChoiceEvent { return true; }
        effect { S.Moves += 1; log("go " + player.active() + " " + turn.phase.active()); turn.pass(); }
    }
    action Far
    {
        trigger PlayerChoiceEvent { return S.Moves == 3; }
        effect { turn.pass(player.active() + 4, "A"); }           // a player past the last: the machine's
    }
    action Other
    {
        trigger PlayerChoiceEvent { return S.Moves == 5; }
        effect { turn.use("U"); turn.pass(); }                    // U has no default: an error
    }
    action Elsewhere
    {
        trigger PlayerChoiceEvent { return S.Moves == 6; }
        effect { turn.use("U"); turn.pass(player.active(), "A"); } // U has no phase A: an error
    }
    action Switch
    {
        trigger PlayerChoiceEvent { return S.Moves == 7; }
        effect { turn.use("U"); turn.pass(1, "C"); }
    }
}
turn T
{
    phase A { }
    phase B { log("in B"); turn.pass(player.active(), "A"); }
    default
    {
        number n = S.Moves;
        if (n == 2) { return player.active() + 2; }              // a player returned: the first phase
        if (n == 4) { S.Moves = S.Xs[n]; }                        // an error in the default
        if (n == 8) { return null; }                              // passes nothing: an error
        if (n == 1) { turn.pass(player.active() + 1, "B"); return null; }
        turn.pass(player.active() + 1, "A");
    }
}
turn U { phase C { } }
setup
{
    for (number p = 0; p < 3; p += 1) { Seat s = new Seat(); s.assign(p); }
    turn.use("T");
    turn.pass(0, "A");
}
"""

PLAYS = [
    ["Seat#0.Go()", "Seat#1.Go()", "Seat#0.Go()", "Seat#1.Go()", "Seat#2.Go()"],
    ["Seat#0.Go()", "Seat#1.Go()", "Seat#0.Go()", "Seat#1.Far()"],
    ["Seat#0.Go()", "Seat#1.Go()", "Seat#0.Go()", "Seat#1.Go()"],
]


def _game(tmp_path, src: str):
    path = tmp_path / "game.tgpl"
    path.write_text(textwrap.dedent(src), encoding="utf-8")
    return path


@pytest.mark.parametrize("moves", PLAYS)
def test_passes_play_and_fail_as_the_machine_passes(tmp_path, monkeypatch, moves):
    path = _game(tmp_path, GAME)
    inline, sources = compiled_with_sources(path, monkeypatch)
    assert any("m.turn_pass_default(" in s and "m.enter_pending = True" in s for s in sources)  # a pass, inline
    machine = reference(path)
    assert outcome(inline, moves, str(path)) == outcome(machine, moves, str(path))


@pytest.mark.parametrize("moves, error", [
    (["Seat#0.Go()", "Seat#1.Go()", "Seat#0.Go()", "Seat#1.Go()"], "index 4 out of range"),
])
def test_errors_in_a_default_name_it(tmp_path, moves, error):
    from tgpl.runtime import load_game

    path = _game(tmp_path, GAME)
    found = outcome(load_game(path), moves, str(path))
    assert found[0] == "error" and error in found[2] and "in default of turn T at" in found[2]


def _counted(src: str, moves: int) -> str:
    """GAME with the moves counted from `moves` at setup: each action's trigger reached at once."""
    return src.replace("number Moves = 0;", f"number Moves = {moves};")


@pytest.mark.parametrize("moves, plays", [
    (5, ["Seat#0.Other()"]),
    (6, ["Seat#0.Elsewhere()"]),
    (7, ["Seat#0.Switch()", "Seat#1.Go()"]),
    (7, ["Seat#0.Go()"]),
    (3, ["Seat#0.Far()", "Seat#1.Go()"]),
])
def test_every_way_out_of_a_pass_is_the_machines(tmp_path, monkeypatch, moves, plays):
    path = _game(tmp_path, _counted(GAME, moves))
    inline = load_game(path)
    machine = reference(path)
    a, b = outcome(inline, plays, str(path)), outcome(machine, plays, str(path))
    assert a == b


def test_the_ways_out_are_met(tmp_path, monkeypatch):
    """The cases above reach what they say (else they compare nothing)."""
    seen = []
    for moves, plays in [(5, ["Seat#0.Other()"]), (6, ["Seat#0.Elsewhere()"]), (7, ["Seat#0.Go()"])]:
        path = _game(tmp_path, _counted(GAME, moves))
        seen.append(outcome(load_game(path), plays, str(path)))
    assert seen[0][0] == "error" and "has no default block" in seen[0][2]
    assert seen[1][0] == "error" and "has no phase" in seen[1][2]
    assert seen[2][0] == "error" and "neither returned a player nor passed the turn" in seen[2][2]
