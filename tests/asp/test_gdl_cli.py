"""`tgpl check-gdl`: exit status, human-readable and JSON output."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from tgpl.cli import main

ROOT = Path(__file__).resolve().parents[2]
TICTACTOE = str(ROOT / "examples" / "gdl" / "tictactoe.kif")

BROKEN = """\
(role a)
(base p) (input a go)
(init p)
(<= (legal a go) (does a go))
(<= (next p) (does a go))
(<= (goal a 150) (true p))
(<= terminal (not (true p)))
"""


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_the_baseline_is_valid():
    result = run("check-gdl", TICTACTOE)
    assert result.exit_code == 0, result.output
    assert result.output == f"{TICTACTOE}: ok\n"


def test_a_broken_game_fails_with_located_errors(tmp_path):
    path = tmp_path / "broken.kif"
    path.write_text(BROKEN, encoding="utf-8")
    result = run("check-gdl", str(path))
    assert result.exit_code == 1
    assert f"{path}:4:18: error: 'legal' cannot depend on 'does': legal -> does\n" in result.output
    assert " 4 | (<= (legal a go) (does a go))\n   |                  ^^^^^^^^^^^\n" in result.output
    assert f"{path}:6:13: error: goal value 150 is not in 0..100" in result.output
    assert result.output.endswith(f"{path}: 2 errors\n")
    assert "Traceback" not in result.output


def test_json_output(tmp_path):
    path = tmp_path / "broken.kif"
    path.write_text(BROKEN, encoding="utf-8")
    result = run("check-gdl", str(path), "--json")
    assert result.exit_code == 1
    found = json.loads(result.output)
    assert [(d["line"], d["column"], d["message"]) for d in found] == [
        (4, 18, "'legal' cannot depend on 'does': legal -> does"),
        (6, 13, "goal value 150 is not in 0..100"),
    ]
    ok = run("check-gdl", TICTACTOE, "--json")
    assert ok.exit_code == 0 and json.loads(ok.output) == []


def test_warnings_alone_pass(tmp_path):
    path = tmp_path / "nobase.kif"
    path.write_text(BROKEN.replace("(base p) (input a go)", "").replace(
        "(legal a go) (does a go)", "(legal a go) (true p)").replace("150", "100"), encoding="utf-8")
    result = run("check-gdl", str(path))
    assert result.exit_code == 0, result.output
    assert "warning: the game defines no 'base'" in result.output
    assert result.output.endswith(f"{path}: 2 warnings\n{path}: ok\n")


def test_malformed_kif_and_missing_files(tmp_path):
    path = tmp_path / "bad.kif"
    path.write_text("(role a)\n(<= (p ?x)\n", encoding="utf-8")
    result = run("check-gdl", str(path))
    assert result.exit_code == 1
    assert f"{path}:2:1: error: '(' is never closed" in result.output
    missing = run("check-gdl", str(tmp_path / "none.kif"))
    assert missing.exit_code == 1
    assert "none.kif': no such file or directory" in missing.output
    assert "Traceback" not in missing.output
