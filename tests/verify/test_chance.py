"""A game that shuffles is a chance game: `tgpl verify` explores the states of one seed and says so of its claims."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from tgpl.cli import main
from tgpl.frontend.after_setup import chance_sites
from tgpl.frontend.loader import load_program

DATA = Path(__file__).resolve().parents[1] / "data"
DICE = str(DATA / "dice.tgpl")  # one roll of a shuffled die decides: a 4 or more wins for the roller, else a draw
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _verify(*args: str):
    return CliRunner().invoke(main, ["verify", *args])


def test_the_shuffles_are_found_in_setup_and_in_play():
    assert [(s.line, s.col) for s in chance_sites(load_program(DICE))] == [(24, 13)]
    assert chance_sites(load_program(str(EXAMPLES / "tris.tgpl"))) == []
    # citadels shuffles its districts in setup and its characters every round
    assert len(chance_sites(load_program(str(EXAMPLES / "citadels" / "citadels.tgpl")))) == 2


def test_the_dice_games_value_is_claimed_for_its_seed_only():
    values = set()
    for seed in range(6):
        r = _verify(DICE, "--seed", str(seed))
        problems = [line for line in r.output.splitlines() if line.startswith("problem ")]
        assert r.exit_code == (1 if problems else 0), r.output  # a drawn roll: "never wins", for that seed
        assert all(line.endswith(f"(for seed {seed})") for line in problems)
        assert f"these are the states of seed {seed}, and the claims below hold for that seed only" in r.output
        assert "dice.tgpl:24:13" in r.output
        value = next(line for line in r.output.splitlines() if line.startswith("  value: "))
        assert value.endswith(f"(for seed {seed})")
        values.add(value.split("(for seed")[0])
    assert len(values) == 2  # the roll decides: some seeds give the roller the game, others a draw


def test_the_json_report_names_the_seed_and_a_game_without_chance_says_nothing():
    r = _verify(DICE, "--seed", "5", "--json")
    rep = json.loads(r.output)
    assert rep["chance"]["seed"] == 5 and rep["chance"]["sites"][0].endswith("dice.tgpl:24:13")
    plain = _verify(str(EXAMPLES / "tris.tgpl"))
    assert "chance" not in plain.output and "for seed" not in plain.output
    assert json.loads(_verify(str(EXAMPLES / "tris.tgpl"), "--json").output)["chance"] is None
