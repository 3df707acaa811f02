"""Chance nodes: `tgpl verify` explores every outcome of a game's draws, when they fit in --max-states, and
reports each seat's expected goal under optimal play (expectimax) and wins whatever the draws."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from tgpl.cli import main

ROOT = Path(__file__).resolve().parents[2]
PIG = ROOT / "examples" / "pig.tgpl"
DICE = ROOT / "tests" / "data" / "dice.tgpl"  # a shuffled list of six faces: 4 or more wins, else a draw
DECK = ROOT / "tests" / "data" / "default_deck.tgpl"


def _verify(*args: str):
    return CliRunner().invoke(main, ["verify", *args])


def _pig_win_probability(target: int = 10, sides: int = 6) -> float:
    """Pig by dynamic programming, independently of tgpl: W[i, j, k] is the chance that the player to move
    wins, with i banked, the opponent j, and k this turn; a 1 loses the turn, reaching the target wins at once,
    holding needs k > 0. Value iteration to a fixed point (two busts in a row come back to a state)."""
    states = [(i, j, k) for i in range(target) for j in range(target) for k in range(target - i)]
    w = {s: 0.0 for s in states}
    while True:
        change = 0.0
        for i, j, k in states:
            roll = (1 - w[(j, i, 0)]) / sides
            for d in range(2, sides + 1):
                roll += (1.0 if i + k + d >= target else w[(i, j, k + d)]) / sides
            best = max(roll, 1 - w[(j, i + k, 0)]) if k > 0 else roll
            change = max(change, abs(best - w[(i, j, k)]))
            w[(i, j, k)] = best
        if change < 1e-15:
            return w[(0, 0, 0)]


def test_pigs_expected_value_is_the_dynamic_programmings():
    r = _verify(str(PIG), "--json")
    assert r.exit_code == 0, r.output
    rep = json.loads(r.stdout)
    assert rep["complete"] and rep["chance"]["mode"] == "outcomes" and rep["chance_nodes"] > 0
    assert rep["loops_only_by_chance"] and rep["terminates"] and rep["well_formed"]
    p = _pig_win_probability()
    assert 0.6 < p < 0.8  # the first player's edge, to a target of 10
    assert abs(rep["expected_goal"]["player 0"] - 100 * p) < 1e-9
    assert abs(rep["expected_goal"]["player 1"] - 100 * (1 - p)) < 1e-9
    text = _verify(str(PIG)).output
    assert "every outcome of its draws explored" in text and "pig.tgpl:33:27" in text
    assert "every play ends with probability 1" in text
    assert f"expected goals under optimal play (expectimax over the chance nodes): player 0 {100 * p:.9f}" in text


def test_a_draws_outcomes_are_weighed_and_a_sure_win_holds_whatever_the_draws(tmp_path):
    rep = json.loads(_verify(str(DICE), "--json").stdout)
    assert rep["expected_goal"] == {"player 0": 75.0, "player 1": 25.0}  # half the faces win, half draw
    assert rep["value"] == "undetermined (no role can force a win)" and rep["guaranteed_goal"]["player 0"] == 50
    sure = tmp_path / "sure.tgpl"
    sure.write_text(DICE.read_text(encoding="utf-8").replace("die[0] >= 4", "die[0] >= 1"), encoding="utf-8")
    r = _verify(str(sure))
    assert "  value: win for player 0 whatever the chance outcomes" in r.output, r.output
    assert "player 0: weakly winnable, can force a win" in r.output
    deck = json.loads(_verify(str(DECK), "--json").stdout)  # 24 deals: whoever draws the higher card
    assert abs(deck["expected_goal"]["player 0"] - 50) < 1e-9 and deck["states"] == 1 + 24 + 24 + 24


def test_beyond_the_bound_one_seed_is_explored_and_labelled_so():
    r = _verify(str(PIG), "--max-states", "200", "--seed", "3")
    assert "these are the states of seed 3, one sample of its draws" in r.output, r.output
    assert "its outcomes make more than 200 states (--max-states)" in r.output
    assert "expected goals" not in r.output
    r = _verify(str(DICE), "--max-states", "100", "--json")  # a shuffle of six: 720 sequences of draws
    rep = json.loads(r.stdout)
    assert rep["chance"]["mode"] == "seed" and rep["chance"]["seed"] == 0
    assert rep["chance"]["sampled_because"] == "one move has more than 100 outcomes (--max-states)"


def test_the_chance_report_is_the_same_byte_for_byte():
    first, second = _verify(str(PIG), "--json"), _verify(str(PIG), "--json")
    assert first.stdout == second.stdout and '"expected_goal"' in first.stdout
