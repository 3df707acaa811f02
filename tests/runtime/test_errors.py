"""Runtime errors: where they are reported and how the commands show them."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from tgpl.cli import main
from tgpl.runtime import load_game
from tgpl.runtime.errors import TGPLRuntimeError

TEMPLATE = """\
game "t";
players 2;
class Box {{ number v = 0; }}
function F
{{
    returns number;
    effect
    {{
        {line}
        return 1;
    }}
}}
setup
{{
    F();
}}
"""

CASES = [
    ("Box b = null; log(b.v);", 9, 29, "cannot read 'v' of null"),
    ("List<number> xs = {1, 2}; log(xs[5]);", 9, 39, "index 5 out of range 0..1"),
    ("number z = 0; log(4 / z);", 9, 27, "division by zero"),
    ("number z = 0; log(4 % z);", 9, 27, "division by zero"),
    ("Box b = null; b.v = 3;", 9, 25, "cannot set 'v' of null"),
    ("Table<number> t = null; log(t[1]);", 9, 37, "cannot index null"),
    ("number n = null; if (n > 1) { }", 9, 30, "'>' of null and 1"),
    ("bool c = null; if (c) { }", 9, 28, "the condition is null, not a bool"),
    ("while (true) { }", 9, 9, "a loop ran past 100000 steps in one move (--max-steps): is it endless?"),
]


@pytest.mark.parametrize("line, row, col, message", CASES)
def test_runtime_errors_carry_the_location(tmp_path, line, row, col, message):
    path = tmp_path / "err.tgpl"
    path.write_text(TEMPLATE.format(line=line), encoding="utf-8")
    with pytest.raises(TGPLRuntimeError) as info:
        load_game(path).initial_state()
    err = info.value
    assert err.message == message
    assert (err.span.line, err.span.col) == (row, col)
    assert [f.what for f in err.stack] == ["setup", "function F"]


@pytest.mark.parametrize("line, row, col, message", CASES[:4])
def test_the_play_command_reports_a_runtime_error_without_a_traceback(tmp_path, monkeypatch, line, row, col, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "err.tgpl").write_text(TEMPLATE.format(line=line), encoding="utf-8")
    result = CliRunner().invoke(main, ["play", "err.tgpl", "--players", "first,first"])
    assert result.exit_code == 1
    assert result.stdout == ""
    # The expression at fault named, as the command shows it (tgpl.play.error_report)
    named = {"cannot read 'v' of null": "cannot read 'v' of null: 'b' is null",
             "index 5 out of range 0..1": "index 5 out of range 0..1: the index '5' of 'xs'"}.get(message, message)
    source = TEMPLATE.format(line=line).splitlines()[row - 1]
    lines = result.stderr.splitlines()
    assert lines[0] == f"err.tgpl:{row}:{col}: runtime error: {named}"
    assert lines[1] == f" {row} | {source}"
    assert lines[2].startswith("   | " + " " * (col - 1) + "^")
    assert lines[3:] == ["  in function F at err.tgpl:15:5", "  in setup", "  reached before any move"]
    assert "Traceback" not in result.output


def test_a_runtime_error_during_a_move(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "move.tgpl").write_text("""\
game "m";
players 2;
class Seat
{
    List<number> Xs = {};
    action Go
    {
        trigger PlayerChoiceEvent { return true; }
        effect { log(Xs[0]); }
    }
}
turn T { phase P { } }
setup { Seat s = new Seat(); s.assign(0); turn.use("T"); turn.pass(0, "P"); }
""", encoding="utf-8")
    result = CliRunner().invoke(main, ["play", "move.tgpl", "--players", "first,first"])
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[0] == "move.tgpl:9:22: runtime error: index 0 of an empty list: the index '0' of 'Xs'"
    assert "  in action Seat.Go at move.tgpl:6:5" in lines
    assert lines[-2:] == ["  reached by these moves (tgpl play --moves FILE replays them):", "    Seat#0.Go()"]


def test_the_replay_command_reports_a_runtime_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ok.tgpl").write_text('game "t";\nplayers 2;\nsetup { winner 0; }\n', encoding="utf-8")
    assert CliRunner().invoke(main, ["play", "ok.tgpl", "--players", "first,first", "--record", "r.json"]).exit_code == 0
    (tmp_path / "ok.tgpl").write_text('game "t";\nplayers 2;\nsetup { number z = 0; log(1 / z); }\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", "r.json", "--ignore-digest"])
    assert result.exit_code == 1
    assert "ok.tgpl:3:27: runtime error: division by zero" in result.stderr
    assert "Traceback" not in result.output


def test_a_game_with_check_errors_is_not_played(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.tgpl").write_text('game "t";\nplayers 2;\nsetup { log(nope); }\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["play", "bad.tgpl", "--players", "first,first"])
    assert result.exit_code == 2  # the command cannot do its job: `check` is the one that finds errors
    assert "bad.tgpl:3:13: error: undefined name 'nope'" in result.stderr


def test_a_failing_phase_input_is_a_runtime_error(run_setup):
    with pytest.raises(TGPLRuntimeError, match="an input has no candidate"):
        run_setup('turn.use("T", "P");', defs="""
            class Thing { }
            turn T { phase P { input Thing t; effect { } } }
        """)


def test_a_require_that_asks_for_input_is_a_runtime_error(start):
    state = start("""
        game "t";
        players 2;
        function Ask { input bool b; returns bool; effect { return b; } }
        class Seat
        {
            action Go
            {
                require { return Ask(); }
                trigger PlayerChoiceEvent { return true; }
                effect { }
            }
        }
        turn T { phase P { } }
        setup { Seat s = new Seat(); s.assign(0); turn.use("T"); turn.pass(0, "P"); }
    """)
    with pytest.raises(TGPLRuntimeError, match="'b' asks player 0 for input while the legal moves are listed"):
        state.legal_moves()


def test_endless_recursion_is_a_runtime_error(run_setup):
    with pytest.raises(TGPLRuntimeError, match="calls nested too deeply") as info:
        run_setup("log(Down(n: 1));", defs="""
            function Down { function input number n; returns number; effect { return Down(n: n + 1); } }
        """)
    rendered = info.value.render()
    assert "more calls" in rendered and len(rendered.splitlines()) == 22


def test_moderate_recursion_works(setup_log):
    assert setup_log("log(Sum(n: 100));", defs="""
        function Sum { function input number n; returns number; effect { if (n <= 0) { return 0; } return n + Sum(n: n - 1); } }
    """) == ["5050"]


def test_events_thrown_endlessly_are_stopped(run_setup):
    with pytest.raises(TGPLRuntimeError, match="more than 1000 events resolved"):
        run_setup("E e = new E(); event.throw(e);", defs="""
            event E { }
            global class G { action A { trigger E { return true; } effect { E next = new E(); event.throw(next); } } }
        """)
