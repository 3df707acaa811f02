"""The budget of one control state (execute.STATE_WORK): parts of conditions its legal moves and moves may build.

tests/data/lowering/gains.tgpl (examples/treasure.tgpl counting only its cards worth more than nothing) compares
its two hands' totals, sums over the cards of lists held in the state, in its turn's default: spelled out, every
length of both hands is a path and every total a case. The lowering was refused by its whole budget
(execute.WORK_LIMIT) after a minute and 2 GB, and the dry run, whose budget ran out inside that control state,
said "undecided" (exit 2). Now both stop where the state passes its own budget, at the same statement, with the
same message: the dry run exits 1 (the game has a problem), `to-gdl` 2 (not lowerable), each within seconds.
Treasure itself, whose loop adds every card's value, keeps a running total instead (decision 113,
tests/lowering/test_list_sums.py). The budgets are counts of parts, so the tests below set smaller ones on a
small game to see each side meet them.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from tgpl.cli import main
from tgpl.lowering import execute, lowerable

ROOT = Path(__file__).resolve().parents[2]
GAINS = str(ROOT / "tests" / "data" / "lowering" / "gains.tgpl")
HANDS = str(ROOT / "tests" / "data" / "lowering" / "hands.tgpl")  # 37,428 parts in its costliest control state
REFUSAL = ("error: not lowerable: the lowering built conditions of more than {:,} parts for the legal moves and the "
           "moves of one control state (here, in ")


def _first_error(output: str) -> str:
    return next(line for line in output.splitlines() if ": error: " in line)


def test_gains_is_refused_by_the_dry_run_as_by_the_lowering_at_its_totals():
    dry = CliRunner().invoke(main, ["to-gdl", GAINS, "--dry-run"])
    assert dry.exit_code == 1, dry.output
    lowered = CliRunner().invoke(main, ["to-gdl", GAINS, "--no-validate", "-o", "/dev/null"])
    assert lowered.exit_code == 2, lowered.output
    first = _first_error(lowered.output)
    assert first == _first_error(dry.output)
    assert first.startswith("tests/data/lowering/gains.tgpl:104:43: " + REFUSAL.format(execute.STATE_WORK)), first
    assert "(here, in Total)" in first and "the loop reads the list 'Cards', which the moves change" in first
    assert "does not lower: 1 refusal" in dry.output and "NO  function  Hand.Total          refused" in dry.output


def test_a_game_that_lowers_is_refused_where_one_state_passes_a_smaller_budget(monkeypatch):
    """hands.tgpl lowers (tests/lowering/test_lowered_lists.py); under a budget below its costliest control
    state the lowering refuses it, located, and the dry run says the same."""
    monkeypatch.setattr(execute, "STATE_WORK", 20_000)
    lowered = CliRunner().invoke(main, ["to-gdl", HANDS, "--no-validate", "-o", "/dev/null"])
    assert lowered.exit_code == 2, lowered.output
    first = _first_error(lowered.output)
    assert "hands.tgpl:" in first and REFUSAL.format(20_000) in first
    dry = CliRunner().invoke(main, ["check", "--lowerable", HANDS])
    assert dry.exit_code == 1, dry.output
    assert _first_error(dry.output) == first


def test_the_dry_runs_budget_lets_the_state_under_way_meet_the_lowerings(monkeypatch):
    """The dry run's budget of parts (lowerable.PARTS) passed inside a control state: the state runs on to the
    lowering's budget of one state, which refuses it, rather than the dry run stopping there undecided."""
    monkeypatch.setattr(execute, "STATE_WORK", 20_000)
    monkeypatch.setattr(lowerable, "PARTS", 5_000)
    dry = CliRunner().invoke(main, ["check", "--lowerable", HANDS])
    assert dry.exit_code == 1, dry.output
    assert REFUSAL.format(20_000) in _first_error(dry.output)
    assert "undecided" not in dry.output


def test_under_the_budget_the_dry_run_stops_between_states(monkeypatch):
    """Past the dry run's budget of parts, no further control state begins: hands.tgpl, whose costliest state
    stays under the lowering's budget, gets the sampled run's estimate, not a refusal."""
    monkeypatch.setattr(lowerable, "PARTS", 5_000)
    dry = CliRunner().invoke(main, ["check", "--lowerable", HANDS, "--json"])
    assert dry.exit_code in (0, 2), dry.output
    assert "not lowerable" not in dry.output and "estimated" in dry.output
