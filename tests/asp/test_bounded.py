"""Bounded verification with clingo's multi-shot solving: tic-tac-toe, the planted defects, the command."""

from __future__ import annotations

import json
import re
from pathlib import Path

import clingo
import pytest
from click.testing import CliRunner

from tgpl.asp.bounded import BoundedSearch, bounded_verify
from tgpl.asp.kif import read_kif_file
from tgpl.asp.reasoner import GdlGame
from tgpl.cli import main

ROOT = Path(__file__).resolve().parents[2]
TICTACTOE = ROOT / "examples" / "gdl" / "tictactoe.kif"
DATA = ROOT / "tests" / "data"


def program(path: Path):
    return read_kif_file(path)[0]


def replay(game: GdlGame, witness) -> list:
    """The states a witness goes through; every joint move must be legal."""
    states = [game.initial_state()]
    for joint in witness.moves:
        states.append(states[-1].apply(joint))
    return states


@pytest.fixture(scope="module")
def ttt() -> GdlGame:
    return GdlGame.load(TICTACTOE)


def test_tictactoe_both_roles_win_within_5_moves(ttt):
    report = bounded_verify(ttt.program, 5)
    assert report.searched == 5 and not report.complete and report.problems == []
    assert report.stuck is None and report.bad_goal is None and report.cycle is None
    assert report.going is not None and len(report.going.witness) == 5
    assert not replay(ttt, report.going.witness)[-1].is_terminal
    # xplayer needs 5 joint moves (3 marks); oplayer needs 6, beyond the horizon.
    x_win = report.wins["xplayer"].witness
    end = replay(ttt, x_win)[-1]
    assert len(x_win) == 5 and end.is_terminal and end.goals == [100, 0]
    assert report.wins["oplayer"] is None


def test_tictactoe_oplayer_wins_within_6_moves(ttt):
    report = bounded_verify(ttt.program, 6)
    o_win = report.wins["oplayer"].witness
    end = replay(ttt, o_win)[-1]
    assert len(o_win) == 6 and end.is_terminal and end.goals == [0, 100]
    assert [line.split(" | ")[0] == "noop" for line in o_win.lines] == [False, True] * 3


def test_tictactoe_every_play_ends_within_9_moves(ttt):
    report = bounded_verify(ttt.program, 9)
    assert report.complete and report.searched == 9 and report.going is None
    assert report.stuck is None and report.cycle is None and report.bad_goal is None
    assert all(w is not None for w in report.wins.values()) and report.problems == []
    longer = bounded_verify(ttt.program, 12)  # the search stops when every play has ended
    assert longer.complete and longer.searched == 9


def test_tictactoe_a_play_is_still_going_after_8_moves(ttt):
    report = bounded_verify(ttt.program, 8)
    assert not report.complete
    states = replay(ttt, report.going.witness)
    assert len(states) == 9 and not any(s.is_terminal for s in states)


def test_stuck_state_is_found_and_replayed():
    game = GdlGame.load(DATA / "gdl_defect_stuck.kif")
    report = bounded_verify(game.program, 6)
    assert report.stuck is not None and "a has no legal move" in report.stuck.message
    end = replay(game, report.stuck.witness)[-1]
    assert not end.is_terminal and end.legal_moves("a") == []
    assert len(report.stuck.witness) == 2  # the shortest way there
    assert "stuck" in [p.kind for p in report.problems]


def test_stuck_state_is_beyond_a_short_horizon():
    report = bounded_verify(program(DATA / "gdl_defect_stuck.kif"), 1)
    assert report.stuck is None and report.problems == []


def test_endless_play_is_found_and_replayed():
    game = GdlGame.load(DATA / "gdl_defect_loop.kif")
    report = bounded_verify(game.program, 8)
    assert report.cycle is not None and not report.complete
    states = replay(game, report.cycle.witness)
    assert states[-1] in states[:-1] and not any(s.is_terminal for s in states)
    assert [p.kind for p in report.problems] == ["cycle"]
    # Below the loop's length, bounded mode only sees a play still going.
    short = bounded_verify(game.program, 5)
    assert short.cycle is None and short.problems == [] and short.going is not None
    assert not replay(game, short.going.witness)[-1].is_terminal


def test_terminal_state_without_goal_is_found_and_replayed():
    game = GdlGame.load(DATA / "gdl_defect_no_goal.kif")
    report = bounded_verify(game.program, 5)
    assert report.bad_goal is not None and "b has no single goal" in report.bad_goal.message
    end = replay(game, report.bad_goal.witness)[-1]
    assert end.is_terminal and end.goals[1] is None


def test_unwinnable_role_is_found_when_every_play_ends():
    game = GdlGame.load(DATA / "gdl_defect_unwinnable.kif")
    report = bounded_verify(game.program, 5)
    assert report.complete and report.wins["a"] is not None and report.wins["b"] is None
    [problem] = report.problems
    assert (problem.kind, problem.role) == ("unwinnable", "b") and "best goal 0" in problem.message
    end = replay(game, problem.witness)[-1]
    assert end.is_terminal and end.goals[1] == 0
    # Before every play has ended, a missing win is not (yet) a problem.
    assert bounded_verify(game.program, 2).problems == []


def test_move_text_callback_writes_the_witness():
    report = bounded_verify(program(DATA / "gdl_defect_stuck.kif"), 4, move_text=lambda j: str(j[0]).upper())
    assert report.stuck.witness.lines == ("STEP", "NOOP")


def test_progress_is_reported_per_step():
    seen = []
    bounded_verify(program(TICTACTOE), 3, progress=lambda n, h: seen.append((n, h)))
    assert seen == [(0, 3), (1, 3), (2, 3), (3, 3)]


def test_steps_are_ground_once(monkeypatch):
    search = BoundedSearch(program(TICTACTOE))
    grounded = []
    original = clingo.Control.ground

    def spy(self, parts, *args, **kwargs):
        grounded.extend((name, tuple(a.number for a in params)) for name, params in parts)
        return original(self, parts, *args, **kwargs)

    monkeypatch.setattr(clingo.Control, "ground", spy)
    for _ in range(3):
        search.extend()
        assert search.ask("gdl_going") is not None
    assert grounded == [("step", (1,)), ("check", (1,)), ("step", (2,)), ("check", (2,)),
                        ("step", (3,)), ("check", (3,))]


def test_asp_package_imports_neither_runtime_nor_cli():
    for path in (ROOT / "tgpl" / "asp").glob("*.py"):
        imports = re.findall(r"^\s*(?:from|import)\s+(tgpl\.\w+)", path.read_text(encoding="utf-8"), re.M)
        assert not {"tgpl.runtime", "tgpl.cli"} & set(imports), path


# -------------------------------------------------------------------- CLI
def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_cli_bounded_tictactoe():
    result = run("verify", str(TICTACTOE), "--horizon", "9")
    assert result.exit_code == 0, result.output
    assert "bounded, up to 9 moves" in result.output
    assert "every play ends within 9 moves" in result.output
    assert "xplayer: wins after 5 moves" in result.output and "oplayer: wins after 6 moves" in result.output
    assert result.output.endswith(f"{TICTACTOE}: no problem found (bounded, up to 9 moves)\n")


def test_cli_bounded_defect_json_and_witness_files(tmp_path):
    game = str(DATA / "gdl_defect_stuck.kif")
    result = run("verify", game, "--horizon", "5", "--json", "--witness-dir", str(tmp_path))
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert report["mode"] == "bounded" and report["horizon"] == 5 and not report["ok"]
    assert report["problems"][0]["kind"] == "stuck"
    assert (tmp_path / "01-stuck.txt").read_text().splitlines() == ["step | noop", "noop | step"]


def test_cli_bounded_user_errors(tmp_path):
    tgpl_game = run("verify", str(ROOT / "examples" / "citadels" / "citadels.tgpl"), "--horizon", "3")
    assert tgpl_game.exit_code == 2 and "scoring.tgpl:55:63: error: not lowerable: " in tgpl_game.output
    missing = run("verify", str(tmp_path / "none.kif"), "--horizon", "3")
    assert missing.exit_code == 2 and "none.kif:1:1: error: cannot read" in missing.output
    bad = tmp_path / "bad.kif"
    bad.write_text("(role a)\n(<= (legal a go) (does a go))\n", encoding="utf-8")
    invalid = run("verify", str(bad), "--horizon", "3")
    assert invalid.exit_code == 2 and f"{bad}:2:18: error: 'legal' cannot depend on 'does'" in invalid.output
    negative = run("verify", str(TICTACTOE), "--horizon", "-1")
    assert negative.exit_code == 2
    for r in (tgpl_game, missing, invalid, negative):
        assert "Traceback" not in r.output


def test_cli_to_asp(tmp_path):
    out = tmp_path / "ttt.lp"
    result = run("to-asp", str(TICTACTOE), "-o", str(out))
    assert result.exit_code == 0 and result.output == ""
    printed = run("to-asp", str(TICTACTOE))
    assert printed.exit_code == 0 and printed.output == out.read_text(encoding="utf-8")
    assert "legal(W,mark(M,N),T) :- holds(cell(M,N,b),T), holds(control(W),T)." in printed.output
    missing = run("to-asp", str(tmp_path / "none.kif"))
    assert missing.exit_code == 2 and "none.kif:1:1: error: cannot read" in missing.output
