"""Files the commands write (issue 36): made whole through a temporary file, yet with the mode any
ordinary file gets, 0666 less the umask (0644 usually), not the temporary file's 0600; and no Python
`None` in what verify prints."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from tgpl.cli import main

TRIS = str(Path(__file__).resolve().parents[1] / "examples" / "tris.tgpl")


@pytest.fixture
def umask():
    """Sets the process's umask for a test, and puts the old one back."""
    old = os.umask(0o022)
    os.umask(old)

    def set_to(mask: int) -> None:
        os.umask(mask)

    yield set_to
    os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("mask, expected", [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_every_command_that_writes_a_file_respects_the_umask(tmp_path, umask, mask, expected):
    umask(mask)
    record, kif, lp = tmp_path / "r.json", tmp_path / "tris.kif", tmp_path / "tris.lp"
    runs = [
        ["play", TRIS, "--players", "first,first", "--quiet", "--record", str(record)],
        ["to-gdl", TRIS, "--no-validate", "-o", str(kif)],
        ["to-asp", TRIS, "--no-validate", "-o", str(lp)],
    ]
    for args in runs:
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
    assert [oct(mode(p)) for p in (record, kif, lp)] == [oct(expected)] * 3
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".tgpl-")]  # no temporary file left


def test_a_file_written_again_keeps_the_umask_mode(tmp_path, umask):
    umask(0o022)
    out = tmp_path / "tris.kif"
    out.write_text("old\n", encoding="utf-8")
    os.chmod(out, 0o600)
    assert CliRunner().invoke(main, ["to-gdl", TRIS, "--no-validate", "-o", str(out)]).exit_code == 0
    assert mode(out) == 0o644 and out.read_text(encoding="utf-8").startswith(";")


def test_verify_says_no_goal_in_words_not_none():
    """An incomplete check has reached no terminal state: it said 'best goal None'."""
    result = CliRunner().invoke(main, ["verify", TRIS, "--max-states", "10"])
    assert result.exit_code == 0, result.output
    assert "None" not in result.stdout
    assert "  player 0: no win found yet (no terminal state reached yet)" in result.stdout.splitlines()


def test_bounded_verify_names_the_roles_as_the_complete_check_does():
    """Bounded verify of a .tgpl game said `player_1` (its GDL role) where complete verify says `player 1`."""
    game = str(Path(__file__).resolve().parent / "data" / "defect_unwinnable.tgpl")
    bounded = CliRunner().invoke(main, ["verify", game, "--horizon", "6"])
    complete = CliRunner().invoke(main, ["verify", game])
    assert bounded.exit_code == complete.exit_code == 1
    for result in (bounded, complete):
        assert "player_" not in result.stdout
        assert "  player 1: NEVER wins (best goal 0)" in "\n".join(result.stdout.splitlines())
    assert "problem (unwinnable): player 1 never wins (best goal 0)" in bounded.stdout.splitlines()


RACE = str(Path(__file__).resolve().parent / "data" / "race.tgpl")  # players 2..3


def test_verify_examines_the_player_count_asked_and_says_which():
    """A `players 2..3` game was verified for 2 only, silently."""
    default = CliRunner().invoke(main, ["verify", RACE])
    assert default.exit_code == 0, default.output
    assert ("  players: examined for 2 (the game allows 2 to 3; --players N examines another count): the claims "
            "below hold for that count only") in default.stdout.splitlines()
    assert "player 2:" not in default.stdout
    three = CliRunner().invoke(main, ["verify", RACE, "--players", "3", "--json"])
    assert three.exit_code == 1, three.output  # with three, player 0 can never win: a problem
    import json

    rep = json.loads(three.stdout)
    assert rep["players"] == {"examined": 3, "allowed": [2, 3]}
    assert sorted(rep["weakly_winnable"]) == ["player 0", "player 1", "player 2"]
    refused = CliRunner().invoke(main, ["verify", RACE, "--players", "4"])
    assert refused.exit_code == 2 and "the game has 2 to 3 players, not 4" in refused.output


def test_verify_of_a_game_of_one_count_says_nothing_of_players():
    result = CliRunner().invoke(main, ["verify", TRIS, "--json", "--max-states", "10"])
    import json

    assert json.loads(result.stdout)["players"] is None
