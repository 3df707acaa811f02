"""The checker's warnings about how control moves (issue 36), on small games written the way a designer
would: a move that never passes control and can be played again and again (the forgotten `turn.pass()` in
one action of several), and phases no code can enter."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from tgpl.cli import main
from tgpl.frontend.loader import load_program

DICE = """\
game "dice race";
players 2;
global class Race
{
    number Total = 0;
    action Step
    {
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            Race.Total += 1;
            if (Race.Total >= 10) { winner player.active(); }
            turn.pass();
        }
    }
    action Leap
    {
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            Race.Total += 3;
            if (Race.Total >= 10) { winner player.active(); }
        }
    }
}
turn T { phase P { } default { return player.active() + 1; } }
setup { turn.use("T"); turn.pass(0, "P"); }
"""

PHASES = """\
game "phases";
players 2;
global class G
{
    number Rolled = 0;
    number Score = 0;
    action Roll
    {
        trigger PlayerChoiceEvent { return turn.phase.active() == "RollPhase"; }
        effect
        {
            G.Rolled = 3;
            turn.pass(player, "MovePhase");
        }
    }
    action Move
    {
        trigger PlayerChoiceEvent { return turn.phase.active() == "MovePhase"; }
        effect
        {
            G.Score += G.Rolled;
            if (G.Score >= 9) { winner player; }
            turn.pass();
        }
    }
}
turn T
{
    phase RollPhase { }
    phase MovePhase { }
    phase ScorePhase
    {
        if (G.Score >= 9) { winner player.active(); }
        turn.pass(player.active(), "BonusPhase");
    }
    phase BonusPhase { G.Score += 1; turn.pass(); }
    default { return player.active() + 1; }
}
setup { turn.use("T"); turn.pass(0, "RollPhase"); }
"""

KEEPS = ("move 'Leap' never passes control: it calls no turn.pass or turn.use, does not end the game, and nothing "
         "it does can make it illegal, so the same player may play it again and again")


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def diagnostics(tmp_path, text: str) -> list[tuple]:
    (tmp_path / "g.tgpl").write_text(text, encoding="utf-8")
    return [(d.span.line, d.span.col, d.severity.value, d.message) for d in load_program("g.tgpl").diagnostics]


def test_a_move_that_forgot_its_turn_pass_is_warned_at_its_name(tmp_path):
    assert diagnostics(tmp_path, DICE) == [(16, 12, "warning", KEEPS)]
    checked = CliRunner().invoke(main, ["check", "g.tgpl"])
    assert checked.exit_code == 0  # a warning: the game runs
    assert " 16 |     action Leap\n    |            ^^^^\n" in checked.stderr
    # what it warns of: player 0 leaps to 9, then leaps again and wins; player 1 never moved
    (tmp_path / "leaps.txt").write_text("Race.Leap()\n" * 4, encoding="utf-8")
    played = CliRunner().invoke(main, ["play", "g.tgpl", "--moves", "leaps.txt", "--players", "first,first"])
    assert played.stdout.count("player 0: Race.Leap()") == 4 and "player 1: Race" not in played.stdout
    assert "winner: player 0" in played.stdout


def test_a_move_that_passes_through_what_it_calls_or_throws_is_not_warned(tmp_path):
    # through a function that passes
    called = DICE.replace("            Race.Total += 3;\n", "            Race.Total += 3;\n            Race.End();\n")
    called = called.replace("    action Leap\n", "    function End { returns; effect { turn.pass(); } }\n    action Leap\n")
    assert diagnostics(tmp_path, called) == []
    # through an event whose listener passes
    thrown = DICE.replace("            Race.Total += 3;\n", "            Race.Total += 3;\n            event.throw(new Leapt());\n")
    thrown = thrown.replace("turn T", "event Leapt { }\nglobal class Referee\n{\n    action Next { trigger Leapt { return true; } "
                                      "effect { turn.pass(); } }\n}\nturn T")
    assert diagnostics(tmp_path, thrown) == []


def test_a_move_the_state_can_make_illegal_is_a_design(tmp_path):
    """Draw, then play: a move that keeps control but whose require it can make false is left alone."""
    limited = DICE.replace("        trigger PlayerChoiceEvent { return true; }\n        effect\n        {\n"
                           "            Race.Total += 3;",
                           "        require { return Race.Total < 3; }\n        trigger PlayerChoiceEvent { return true; }\n"
                           "        effect\n        {\n            Race.Total += 3;")
    assert "require { return Race.Total < 3; }" in limited
    assert diagnostics(tmp_path, limited) == []
    ending = DICE.replace("            if (Race.Total >= 10) { winner player.active(); }\n        }",
                          "            winner player.active();\n        }")
    assert diagnostics(tmp_path, ending) == []


def test_a_move_gated_by_the_phase_it_never_leaves_is_warned(tmp_path):
    """Roll is legal in RollPhase only, but without its pass to MovePhase it stays there: rolled for ever."""
    stuck = PHASES.replace('            turn.pass(player, "MovePhase");\n', "")
    found = [d for d in diagnostics(tmp_path, stuck) if "Roll" in d[3]]
    assert found == [(7, 12, "warning", KEEPS.replace("Leap", "Roll"))]


def test_phases_no_code_enters_are_warned_of_each(tmp_path):
    assert diagnostics(tmp_path, PHASES) == [
        (31, 11, "warning", "phase 'ScorePhase' is never entered: no turn.pass or turn.use that can run names it, "
                            "and it is not the first phase of turn 'T'"),
        (36, 11, "warning", "phase 'BonusPhase' is never entered: no turn.pass or turn.use that can run names it "
                            "(only phase 'ScorePhase', never entered either, name it), and it is not the first phase "
                            "of turn 'T'"),
    ]
    checked = CliRunner().invoke(main, ["check", "g.tgpl"])
    assert " 31 |     phase ScorePhase\n    |           ^^^^^^^^^^\n" in checked.stderr


def test_a_phase_entered_by_name_or_first_or_by_a_computed_pass_is_not_warned(tmp_path):
    entered = PHASES.replace("            turn.pass();\n        }\n    }\n}",
                             '            turn.pass(player, "ScorePhase");\n        }\n    }\n}')
    assert 'turn.pass(player, "ScorePhase")' in entered
    assert diagnostics(tmp_path, entered) == []  # Score enters Bonus, which passes on
    named = PHASES.replace('phase BonusPhase { G.Score += 1; turn.pass(); }', 'phase BonusPhase { turn.pass(); }')
    computed = named.replace('turn.pass(0, "RollPhase");', 'string first = "RollPhase"; turn.pass(0, first);')
    assert diagnostics(tmp_path, computed) == []  # a phase named at run time could be any


def test_a_game_with_errors_gets_no_phase_warning(tmp_path):
    """Code a syntax error dropped may be the pass that enters a phase: nothing is said of phases then."""
    broken = PHASES.replace("            G.Rolled = 3;\n", "            G.Rolled = 3\n")
    found = diagnostics(tmp_path, broken)
    assert found and all(d[2] == "error" for d in found)
