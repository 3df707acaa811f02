"""Turns and phases: turn.use, turn.pass, defaults, phase entry, stuck states."""

from __future__ import annotations

import pytest

from tgpl.play.agents import FirstAgent
from tgpl.runtime.errors import TGPLRuntimeError
from tgpl.play.play import StuckError, play


def texts(state) -> list[str]:
    return [m.text for m in state.legal_moves()]


def control(state) -> tuple:
    c = state.world.control
    return (c.player, c.turn, c.phase)


SEATS = """
class Seat
{
    action Go
    {
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            log("go " + player.active() + " in " + turn.active() + "." + turn.phase.active());
            turn.pass();
            log("after pass: " + player.active() + " " + turn.phase.active());
        }
    }
}
"""


def game_src(setup: str, turns: str, players: int = 3, defs: str = SEATS) -> str:
    return f"""
        game "t";
        players {players};
        {defs}
        {turns}
        setup
        {{
            for (number i = 0; i < {players}; i += 1) {{ Seat s = new Seat(); s.assign(i); }}
            {setup}
        }}
    """


TURN_T = """
turn T
{
    phase A { log("enter A for " + player.active()); }
    phase B { log("enter B for " + player.active()); }
    default { log("default"); return player.active() - 1; }
}
turn U { phase X { log("enter X"); } phase Y { log("enter Y"); } }
"""


def test_turn_use_without_a_phase_selects_the_first_phase_and_enters_nothing(start):
    state = start(game_src('turn.use("U"); log(turn.active() + "." + turn.phase.active());', TURN_T))
    assert state.log == ["U.X"]
    assert control(state) == (0, "U", "X")


def test_turn_use_with_a_phase_enters_it_after_setup(start):
    state = start(game_src('turn.use("T", "B"); log("used");', TURN_T))
    assert state.log == ["used", "enter B for 0"]
    assert control(state) == (0, "T", "B")


def test_turn_pass_to_a_player_and_phase_is_entered_after_the_block(start):
    state = start(game_src("""
        turn.use("T");
        turn.pass(2, "B");
        log("passed to " + player.active() + " in " + turn.phase.active());
    """, TURN_T))
    assert state.log == ["passed to 2 in B", "enter B for 2"]
    assert control(state) == (2, "T", "B")
    assert texts(state) == ["Seat#2.Go()"]


def test_the_last_pass_of_a_block_wins(start):
    state = start(game_src("""
        turn.use("T");
        turn.pass(2, "B");
        turn.pass(1, "A");
        turn.pass(0);
    """, TURN_T))
    assert state.log == ["enter A for 0"]
    assert control(state) == (0, "T", "A")


def test_turn_pass_runs_the_default_at_once_and_gives_the_returned_player_the_first_phase(start):
    state = start(game_src('turn.use("T"); turn.pass(1, "B");', TURN_T))
    assert state.log == ["enter B for 1"]
    after = state.apply("Seat#1.Go()")
    assert after.log[1:] == [
        "go 1 in T.B",
        "default",
        "after pass: 0 A",  # the default returned player 1 - 1 at once
        "enter A for 0",  # entered after the effect
    ]
    assert control(after) == (0, "T", "A")


def test_player_arithmetic_in_a_default_wraps_around(start):
    state = start(game_src('turn.use("T"); turn.pass(0, "A");', TURN_T))
    after = state.apply("Seat#0.Go()")
    assert control(after) == (2, "T", "A")


def test_control_stays_after_a_phase_without_pass(start):
    state = start(game_src('turn.use("T"); turn.pass(1, "A");', TURN_T))
    assert control(state) == (1, "T", "A")
    assert texts(state) == ["Seat#1.Go()"]


def test_a_default_that_passes_itself(start):
    state = start(game_src('turn.use("T"); turn.pass(0, "A");', """
        turn T
        {
            phase A { log("A for " + player.active()); }
            phase B { log("B for " + player.active()); turn.pass(); }
            default
            {
                if (turn.phase.active() == "A") { turn.pass(player.active(), "B"); }
                else { turn.pass(player.active() + 1, "A"); }
            }
        }
    """))
    after = state.apply("Seat#0.Go()")
    # A -> (default) B for the same player -> B's statements pass -> (default) A for the next
    assert after.log == ["A for 0", "go 0 in T.A", "after pass: 0 B", "B for 0", "A for 1"]
    assert control(after) == (1, "T", "A")


def test_turn_pass_without_a_phase_reenters_the_current_phase(start):
    state = start(game_src('turn.use("T"); turn.pass(0, "B"); ', """
        turn T
        {
            phase A { }
            phase B { log("B for " + player.active()); }
            default { turn.pass(player.active() + 1); }
        }
    """))
    after = state.apply("Seat#0.Go()")
    assert after.log[-1] == "B for 1"
    assert control(after) == (1, "T", "B")


def test_a_phase_with_inputs_and_an_effect(start):
    state = start(game_src('turn.use("T"); turn.pass(0, "Choose");', """
        turn T
        {
            phase Choose
            {
                input player target { return target != player.active(); }
                effect { log("target " + target); turn.pass(target, "Rest"); }
            }
            phase Rest { }
            default { return player.active() + 1; }
        }
    """))
    assert state.request.name == "target" and texts(state) == ["1", "2"]
    done = state.apply("2")
    assert done.log == ["target 2"]
    assert control(done) == (2, "T", "Rest")


def test_a_default_that_neither_returns_nor_passes_is_a_runtime_error(start):
    with pytest.raises(TGPLRuntimeError, match="neither returned a player nor passed the turn"):
        start(game_src('turn.use("T"); turn.pass();', "turn T { phase A { } default { log(\"nothing\"); } }"))


def test_turn_pass_before_turn_use_is_a_runtime_error(start):
    with pytest.raises(TGPLRuntimeError, match="no turn is active"):
        start(game_src("turn.pass(1);", TURN_T))


def test_a_phase_that_keeps_passing_to_itself_is_stopped(start):
    with pytest.raises(TGPLRuntimeError, match="control passed 10000 times"):
        start(game_src('turn.use("T"); turn.pass(0, "A");', """
            turn T { phase A { turn.pass(player.active() + 1, "A"); } }
        """))


def test_a_state_where_the_player_has_no_legal_move_is_stuck(game):
    g = game(game_src('turn.use("T"); turn.pass(0, "A");', "turn T { phase A { } default { return player.active() + 1; } }", players=2, defs="""
        class Seat
        {
            number Used = 0;
            action Go
            {
                require { return Used < 1; }
                trigger PlayerChoiceEvent { return true; }
                effect { Used += 1; turn.pass(); }
            }
        }
    """))
    with pytest.raises(StuckError) as info:
        play(g, [FirstAgent(), FirstAgent()], 0, "game.tgpl")
    assert str(info.value) == "stuck: player 0 has no legal move (turn T, phase A)"
    stuck = info.value.state
    assert not stuck.is_terminal and stuck.legal_moves() == []
    assert [stuck.world.fields(o)["Used"] for o in stuck.world.objects if o.cls.name == "Seat"] == [1, 1]


def test_winner_in_a_phase_ends_the_game(start):
    state = start(game_src('turn.use("T"); turn.pass(0, "A");', """
        turn T
        {
            phase A { }
            phase Check { if (player.active() == 1) { winner player.active(); } turn.pass(player.active() + 1, "A"); }
            default { turn.pass(player.active(), "Check"); }
        }
    """, players=2))
    one = state.apply("Seat#0.Go()")
    assert not one.is_terminal and control(one) == (1, "T", "A")
    two = one.apply("Seat#1.Go()")
    assert two.is_terminal
    assert two.ranking == [[1]]
    assert two.legal_moves() == [] and two.active_player is None
