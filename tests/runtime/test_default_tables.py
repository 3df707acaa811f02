"""A turn's `default` that reads only the control, tabulated (`tgpl.runtime.defaults`): which defaults are,
and that games pass the turn, enter phases and fail (message, place, stack, the pass a cycle is reported at)
as when every default runs (the plain reference)."""

from __future__ import annotations

import textwrap

import pytest

from tgpl.runtime import load_game

from observed import outcome, reference

GAME = """
game "d";
players 3;
global class S { number Moves = 0; }
class Seat
{
    action Go
    {
        trigger PlayerChoiceEvent { return true; }
        effect { S.Moves += 1; log("go " + player.active() + " " + turn.phase.active()); turn.pass(); }
    }
    action Spin
    {
        trigger PlayerChoiceEvent { return S.Moves == 1; }
        effect { turn.pass(player.active(), "Loop"); }
    }
}
turn T
{
    phase A { }
    phase B { log("in B"); turn.pass(); }
    phase Loop { turn.pass(); }
    default
    {
        player p = player.active();
        string ph = turn.phase.active();
        if (ph == "A") { turn.pass(p, "B"); }
        else if (ph == "Loop") { turn.pass(p + 1, "Loop"); }            // a cycle: reported at this pass
        else if (p == 2 && turn.active() == "T") { turn.pass(p, "C"); }  // T has no phase C: an error
        else { turn.pass(p + 1, "A"); }
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
    ["Seat#0.Go()", "Seat#1.Go()", "Seat#2.Go()"],          # the default's own error, the third time
    ["Seat#0.Go()", "Seat#1.Spin()"],                        # a cycle of passes through the table
    ["Seat#0.Go()", "Seat#1.Go()"],
]

# defaults that are not tabulated: each reads or does something beyond the control
NOT_TABULATED = [
    "number n = S.Moves; turn.pass(player.active() + 1, \"A\");",          # a field
    "if (player.active() == 0) { S.Moves = 1; } turn.pass(0, \"A\");",   # a field set
    "for (number i = 0; i < 1; i += 1) { } turn.pass(0, \"A\");",          # a loop
    "log(\"d\"); turn.pass(0, \"A\");",                                      # a call
    "turn.pass();",                                                          # the default again
]


# defaults that return a player (`Machine.turn_pass_default`), one after passing, and a cycle through one
RETURNS = """
game "r";
players 3;
global class S { number Moves = 0; }
class Seat
{
    action Go
    {
        trigger PlayerChoiceEvent { return true; }
        effect { S.Moves += 1; log("go " + player.active() + " " + turn.phase.active()); turn.pass(); }
    }
    action Spin
    {
        trigger PlayerChoiceEvent { return S.Moves == 2; }
        effect { turn.use("L"); turn.pass(); }
    }
}
turn T
{
    phase A { }
    phase B { }
    default
    {
        if (turn.phase.active() == "A") { turn.pass(player.active(), "B"); return player.active() + 2; }
        return player.active() + 1;
    }
}
turn L
{
    phase Start { turn.pass(); }  // the first phase: a player returned enters it again, a cycle
    default { return player.active(); }  // one outcome, first kept at Spin's pass, then used at Start's
}
setup
{
    for (number p = 0; p < 3; p += 1) { Seat s = new Seat(); s.assign(p); }
    turn.use("T");
    turn.pass(0, "A");
}
"""

RETURNS_PLAYS = [
    ["Seat#0.Go()", "Seat#2.Go()", "Seat#1.Go()", "Seat#0.Go()"],
    ["Seat#0.Go()", "Seat#2.Go()", "Seat#1.Spin()"],
]


def _game(tmp_path, src: str):
    path = tmp_path / "game.tgpl"
    path.write_text(textwrap.dedent(src), encoding="utf-8")
    return path


def test_which_defaults_are_tabulated(tmp_path):
    turn = load_game(_game(tmp_path, GAME)).compiled.turns["T"]
    assert turn.control_only and turn.outcomes == {}  # none seen yet


@pytest.mark.parametrize("body", NOT_TABULATED)
def test_defaults_that_do_more_are_not(tmp_path, body):
    start = GAME.index("    default\n")
    end = GAME.index("turn U")
    src = GAME[:start] + "    default { " + body + " }\n}\n" + GAME[end:]
    g = load_game(_game(tmp_path, src))
    assert not g.compiled.turns["T"].control_only and g.compiled.turns["T"].outcomes is None


@pytest.mark.parametrize("moves", PLAYS)
def test_tabulated_defaults_play_and_fail_as_run(tmp_path, monkeypatch, moves):
    path = _game(tmp_path, GAME)
    tabled = load_game(path)
    run = reference(path)
    assert run.compiled.turns["T"].outcomes is None
    first = outcome(tabled, moves, str(path))
    assert tabled.compiled.turns["T"].outcomes  # the outcomes were seen...
    again = outcome(tabled, moves, str(path))  # ...and now taken from the table
    expected = outcome(run, moves, str(path))
    assert first == expected and again == expected


@pytest.mark.parametrize("moves", RETURNS_PLAYS)
def test_defaults_that_return_a_player_play_and_fail_as_run(tmp_path, monkeypatch, moves):
    path = _game(tmp_path, RETURNS)
    tabled = load_game(path)
    assert all(t.control_only for t in tabled.compiled.turns.values())
    run = reference(path)
    first = outcome(tabled, moves, str(path))
    again = outcome(tabled, moves, str(path))
    assert first == outcome(run, moves, str(path)) and again == first


def test_returned_cases_are_met(tmp_path):
    path = _game(tmp_path, RETURNS)
    g = load_game(path)
    played = outcome(g, RETURNS_PLAYS[0], str(path))
    assert played[0] == "ok" and played[2] == ["go 0 A", "go 2 A", "go 1 A", "go 0 A"]
    cycle = outcome(g, RETURNS_PLAYS[1], str(path))
    assert cycle[0] == "error" and "control passed" in cycle[2] and "game.tgpl:30:19" in cycle[2]  # the pass in Start
    table = g.compiled.turns["T"].outcomes
    assert table[(0, "A", 3)][:2] == (2, "A") and table[(0, "A", 3)][2] is not None  # passed, then returned
    assert all(out[2] is None for out in g.compiled.turns["L"].outcomes.values())  # returned only


def test_the_cases_are_met(tmp_path):
    """The plays above reach the error and the cycle they say (else they compare nothing)."""
    path = _game(tmp_path, GAME)
    g = load_game(path)
    for _ in range(2):  # the second time through the table
        error = outcome(g, PLAYS[0], str(path))
        assert error[0] == "error" and "turn T has no phase" in error[2] and "in default of turn T" in error[2]
        cycle = outcome(g, PLAYS[1], str(path))
        assert cycle[0] == "error" and "control passed" in cycle[2] and "game.tgpl:28:34" in cycle[2]
    table = g.compiled.turns["T"].outcomes
    assert table[(0, "A", 3)][:2] == (0, "B") and table[(0, "B", 3)][:2] == (1, "A")
    assert not any(key[:2] == (2, "B") for key in table)  # the error is never kept


def test_tris_default_is_tabulated():
    from observed import EXAMPLES

    g = load_game(EXAMPLES / "tris.tgpl")
    state = g.initial_state(0)
    for _ in range(3):
        state = state.apply(state.legal_moves()[0])
    assert g.compiled.turns["GameTurn"].control_only
    assert set(g.compiled.turns["GameTurn"].outcomes) == {(0, "TickPhase", 2), (0, "WinCheckPhase", 2),
                                                            (1, "TickPhase", 2), (1, "WinCheckPhase", 2)}
