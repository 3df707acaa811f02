"""Kalah written as a designer would (tests/data/lowering/others/kalah.tgpl): pits are objects linked in a ring
and sowing is a `while` loop over the seeds in hand, a count read from the state.

The runtime plays it; the lowering does not take it yet, and must say so where the loop is, not fail: its
symbolic execution built `hand - 1 - 1 - ...` pass after pass until hashing the value ran out of Python's
stack (a RecursionError traceback from `to-gdl` and from `to-gdl --dry-run`)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from tgpl.cli import main
from tgpl.runtime.game import load_game
from tgpl.runtime.verify import RuntimeMachine
from tgpl.verify.graph import explore

KALAH = str(Path(__file__).resolve().parents[1] / "data" / "lowering" / "others" / "kalah.tgpl")
LOOP = "kalah.tgpl:112:13: error: not lowerable: a value grew too deep to follow on symbolic paths"


def test_the_runtime_plays_every_play_to_its_end():
    g = explore(RuntimeMachine(load_game(KALAH)), 1_000)
    assert g.complete and g.states == 24
    ends = [i for i in range(g.states) if g.terminal[i]]
    assert ends and all(sorted(g.goals[i]) in ([0, 100], [50, 50]) for i in ends)


def test_the_sowing_loop_is_refused_where_it_is():
    r = CliRunner().invoke(main, ["to-gdl", KALAH, "--no-validate"])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert LOOP in r.stderr and "while (hand > 0)" in r.stderr


def test_the_dry_run_says_the_same():
    r = CliRunner().invoke(main, ["to-gdl", KALAH, "--dry-run"])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert LOOP in r.stderr and "NO  action    Seat.Sow" in r.stdout
