"""`tgpl analyze --engine batched`: the runtime analysis's figures for random play, and its refusals."""

from __future__ import annotations

import json

from click.testing import CliRunner

from tests.batched.conftest import EXAMPLES
from tgpl.cli import main

TRIS = str(EXAMPLES / "tris.tgpl")


def test_tris_figures_are_those_of_random_tic_tac_toe() -> None:
    done = CliRunner().invoke(main, ["analyze", TRIS, "--engine", "batched", "--games", "30000", "--json"])
    assert done.exit_code == 0, done.output
    s = json.loads(done.stdout)
    assert s["engine"] == "batched" and s["games"] == s["finished"] == 30_000 and s["unfinished"] == 0
    wins = s["seats"][0]["wins"]
    assert wins["low"] <= 737 / 1260 <= wins["high"]
    assert s["drawishness"]["low"] <= 160 / 1260 <= s["drawishness"]["high"]
    assert sorted(map(int, s["length"]["histogram"])) == [5, 6, 7, 8, 9]
    assert [m["mean"] for m in s["branching"]["by_move"]] == [9, 8, 7, 6, 5, 4, 3, 2, 1]
    assert s["branching"]["forced"] == s["length"]["histogram"]["9"]  # the ninth move has one empty cell
    assert s["actions"] is None and s["most_frequent_state"] is None


def test_the_text_report_leaves_out_what_the_gdl_does_not_keep() -> None:
    done = CliRunner().invoke(main, ["analyze", TRIS, "--engine", "batched", "--games", "500"])
    assert done.exit_code == 0, done.output
    assert "batched engine" in done.stdout and "first-player advantage" in done.stdout
    assert "actions never played" not in done.stdout


def test_a_cap_on_moves_makes_unfinished_games_and_exit_1() -> None:
    done = CliRunner().invoke(main, ["analyze", TRIS, "--engine", "batched", "--games", "200", "--max-moves", "4"])
    assert done.exit_code == 1
    assert "unfinished: 200 games still going after 4 moves" in done.stdout


def test_other_agents_and_runtime_options_are_usage_errors() -> None:
    for extra in (["--players", "mcts,random"], ["--report", "out"], ["--score", "Points"]):
        done = CliRunner().invoke(main, ["analyze", TRIS, "--engine", "batched", *extra])
        assert done.exit_code == 2 and ("random agents only" in done.output or "runtime" in done.output)


def test_a_chance_game_is_refused_with_exit_2() -> None:
    done = CliRunner().invoke(main, ["analyze", str(EXAMPLES / "treasure.tgpl"), "--engine", "batched"])
    assert done.exit_code == 2 and "GDL-II" in done.output and "Traceback" not in done.output
