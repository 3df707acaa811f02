"""The `tgpl check` command: exit status, human-readable and JSON output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tgpl.cli import main

ROOT = Path(__file__).resolve().parents[1]

BAD = """\
game "t";
players 2;
setup
{
    number unused = 1;
    log(nope);
}
"""

WARNS = """\
game "t";
players 2;
setup
{
    number unused = 1;
}
"""


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.tgpl").write_text(BAD, encoding="utf-8")
    (tmp_path / "warns.tgpl").write_text(WARNS, encoding="utf-8")
    return tmp_path


def test_check_the_tris_example_is_ok(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = run("check", "examples/tris.tgpl")
    assert result.exit_code == 0
    assert result.stdout == "examples/tris.tgpl: ok\n"
    assert result.stderr == ""


def test_check_several_good_files(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = run("check", "examples/tris.tgpl", "examples/cards.tgpl")
    assert result.exit_code == 0
    assert result.stdout == "examples/tris.tgpl: ok\nexamples/cards.tgpl: ok\n"


def test_errors_exit_1_with_location_source_line_and_caret(in_tmp):
    result = run("check", "bad.tgpl")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "bad.tgpl:5:12: warning: variable 'unused' is never used",
        " 5 |     number unused = 1;",
        "   |            ^^^^^^",
        "bad.tgpl:6:9: error: undefined name 'nope'",
        " 6 |     log(nope);",
        "   |         ^^^^",
        "bad.tgpl: 1 error, 1 warning",
    ]


def test_notes_are_printed_under_the_caret(in_tmp):
    (in_tmp / "dup.tgpl").write_text('game "t";\nplayers 2;\nsetup { }\nclass C { }\nclass C { }\n', encoding="utf-8")
    result = run("check", "dup.tgpl")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "dup.tgpl:5:7: error: duplicate definition of 'C'",
        " 5 | class C { }",
        "   |       ^",
        "  note: first defined at dup.tgpl:4:7",
        "dup.tgpl: 1 error",
    ]


def test_json_output(in_tmp):
    result = run("check", "--json", "bad.tgpl")
    assert result.exit_code == 1
    assert result.stderr == ""
    assert json.loads(result.stdout) == [
        {
            "severity": "warning", "file": "bad.tgpl", "line": 5, "column": 12, "end_line": 5, "end_column": 18,
            "message": "variable 'unused' is never used", "notes": [],
        },
        {
            "severity": "error", "file": "bad.tgpl", "line": 6, "column": 9, "end_line": 6, "end_column": 13,
            "message": "undefined name 'nope'", "notes": [],
        },
    ]


def test_json_output_of_a_clean_file_is_an_empty_list(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = run("check", "--json", "examples/tris.tgpl")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == []


def test_json_collects_every_file(in_tmp):
    result = run("check", "--json", "warns.tgpl", "bad.tgpl")
    assert result.exit_code == 1
    assert [(d["file"], d["line"], d["severity"]) for d in json.loads(result.stdout)] == [
        ("warns.tgpl", 5, "warning"),
        ("bad.tgpl", 5, "warning"),
        ("bad.tgpl", 6, "error"),
    ]


def test_missing_file_exits_1_without_a_traceback(in_tmp):
    result = run("check", "missing.tgpl")
    assert result.exit_code == 1
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert result.stderr.splitlines() == [
        "missing.tgpl:1:1: error: cannot read 'missing.tgpl': no such file or directory",
        "missing.tgpl: 1 error",
    ]


def test_missing_file_in_json(in_tmp):
    result = run("check", "--json", "missing.tgpl")
    assert result.exit_code == 1
    (d,) = json.loads(result.stdout)
    assert (d["severity"], d["file"], d["line"], d["column"]) == ("error", "missing.tgpl", 1, 1)
    assert d["message"] == "cannot read 'missing.tgpl': no such file or directory"


def test_warnings_alone_exit_0(in_tmp):
    result = run("check", "warns.tgpl")
    assert result.exit_code == 0
    assert result.stdout == "warns.tgpl: ok\n"
    assert result.stderr.splitlines() == [
        "warns.tgpl:5:12: warning: variable 'unused' is never used",
        " 5 |     number unused = 1;",
        "   |            ^^^^^^",
        "warns.tgpl: 1 warning",
    ]


def test_one_bad_file_among_good_ones_fails(in_tmp):
    (in_tmp / "good.tgpl").write_text('game "t";\nplayers 2;\nsetup { }\n', encoding="utf-8")
    result = run("check", "good.tgpl", "bad.tgpl")
    assert result.exit_code == 1
    assert result.stdout == "good.tgpl: ok\n"
    assert "bad.tgpl:6:9: error: undefined name 'nope'" in result.stderr.splitlines()


def test_check_needs_a_file():
    result = run("check")
    assert result.exit_code == 2
    assert "Missing argument 'FILES...'" in result.stderr


def test_check_rejects_a_directory(in_tmp):
    (in_tmp / "dir.tgpl").mkdir()
    result = run("check", "dir.tgpl")
    assert result.exit_code == 2
    assert "is a directory" in result.stderr
    assert "Traceback" not in result.output
