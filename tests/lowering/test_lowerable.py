"""The dry run (`tgpl to-gdl --dry-run`, `tgpl check --lowerable`): what lowers, how, and what does not, at once.

Its verdict must be the lowering's own where both are quick (the same games lowered whole, the same first
refusal at the same place), each refusal located with a hint, and past its budget its estimate must be the
lowering's order of magnitude and refuse what the lowering's budgets would. Budgets here are counts
(statements), never seconds.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import tgpl.lowering.execute as execute
from tgpl.cli import main
from tgpl.frontend.loader import load_program
from tgpl.limits import LimitReached, Limits
import tgpl.lowering.lowerable as lowerable
from tgpl.lowering.lowerable import assess
from tgpl.lowering.lower import NotLowerable
from tgpl.pipeline import assess_game, lower_game
from tgpl.runtime.game import Game, compile_program
from tgpl.runtime.snapshot import snapshot

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "lowering"
EXAMPLES = ROOT / "examples"
DESIGNERS = ROOT / "tests" / "data" / "designers"


def _game(path: Path) -> Game:
    program = load_program(str(path))
    assert program.ok, program.diagnostics
    return Game(program, compile_program(program))


def _dry(path: Path, *args: str):
    return CliRunner().invoke(main, ["to-gdl", "--dry-run", str(path), *args])


# ---------------------------------------------------------------------- refusals, located, with a hint
@pytest.mark.parametrize("name, where, said, hint", [
    ("chance.tgpl", "chance.tgpl:52:13", "reshuffle() after setup is not lowerable", "shuffle and deal in setup only"),
    ("unbounded.tgpl", "unbounded.tgpl:31:13", "Tabletop.Steps takes more than 256 values",
     "bound the number by the game"),
    ("grow.tgpl", "grow.tgpl:14:5", "Tabletop.Marks may hold more than 16 items", "bound how long the list grows"),
])
def test_a_game_outside_the_subset_is_refused_where_and_why(name, where, said, hint):
    r = _dry(DATA / name)
    assert r.exit_code == 1, r.output
    err = r.stderr
    assert f"{where}: error: not lowerable: {said}" in err
    assert "^" in err and "note: hint: " + hint in err
    assert 'docs/lowering.md, "Writing games that lower"' in err
    assert f"{DATA / name}: does not lower: 1 refusal" in r.stdout


def test_the_refusal_is_the_part_of_the_game_it_is_in():
    r = _dry(DATA / "chance.tgpl", "--json")
    assert r.exit_code == 1
    answer = json.loads(r.stdout)
    assert answer["verdict"] == "refused" and not answer["lowers"]
    (refusal,) = answer["refusals"]
    assert (refusal["line"], refusal["column"], refusal["predicted"]) == (52, 13, False)
    parts = {p["name"]: p for p in answer["parts"]}
    assert not parts["Seat.Stir"]["lowers"] and parts["Seat.Stir"]["refusals"] == [refusal]
    assert parts["T.P"]["lowers"] and parts["T.P"]["kind"] == "phase"


# ---------------------------------------------------------------------- the same verdict as the lowering
# examples/cards.tgpl, its deck dealt by random (language decision 102), is undecided by the dry run: the search
# of its ranges over the cards dealt passes the dry run's 5,000 steps; gift.tgpl is a dealt deck it decides
AGREE = [EXAMPLES / "tris.tgpl", DATA / "gift.tgpl", DATA / "counter.tgpl", DATA / "quiet.tgpl",
         DATA / "chance.tgpl", DATA / "unbounded.tgpl", DATA / "grow.tgpl", DATA / "selfcall.tgpl"]


@pytest.mark.parametrize("path", AGREE, ids=lambda p: p.name)
def test_the_dry_run_says_what_the_lowering_does(path):
    game = _game(path)
    answer = assess_game(game)
    assert not answer.estimated  # small games: run whole within the budget, the lowering's own verdict
    try:
        lower_game(game, global_checks=False)
    except NotLowerable as e:
        assert not answer.lowers
        first = answer.refusals[0]
        assert (first.span, first.reason) == (e.span, e.reason)
    else:
        assert answer.lowers, [r.reason for r in answer.refusals]


def test_moves_compiled_where_the_compiled_subset_refuses():
    game = _game(DATA / "grow.tgpl")
    answer = assess_game(game, moves="compiled")
    with pytest.raises(NotLowerable) as e:
        lower_game(game, moves="compiled", global_checks=False)
    assert [r.reason for r in answer.refusals] == [e.value.reason]
    assert answer.refusals[0].reason.startswith("the moves cannot be compiled")


def test_a_game_whose_loop_writes_is_compiled_and_its_functions_are_rules():
    answer = assess_game(_game(DATA / "flank.tgpl"))
    assert answer.lowers and answer.moves == "compiled" and answer.why == "a loop writes the state"
    functions = [p for p in answer.parts if p.kind == "function"]
    assert functions and any(p.strategy == "rules with variables (compiled function)" for p in functions)
    assert answer.figures["segment rules"] > 0


# ---------------------------------------------------------------------- past the budget: an estimate
def test_the_estimate_is_the_lowerings_order_of_magnitude():
    game = _game(EXAMPLES / "connect4.tgpl")
    whole = assess_game(game)
    assert whole.lowers and not whole.estimated
    start = snapshot(game.initial_state(0))
    sampled = assess(game.program, start, steps=3_000)
    assert sampled.estimated and sampled.lowers, sampled.notes
    ratio = sampled.figures["statements estimated"] / whole.figures["statements"]
    assert 0.5 <= ratio <= 2.0, (ratio, sampled.figures, whole.figures)
    assert sampled.figures["moves estimated"] == whole.figures["moves"]


def test_an_estimate_past_the_lowerings_budget_is_refused_as_the_lowering_refuses(monkeypatch):
    game = _game(EXAMPLES / "connect4.tgpl")
    full = assess_game(game).figures["statements"]
    monkeypatch.setattr(execute, "STEP_LIMIT", full // 2)  # past the dry run's budget: its estimate must see it
    monkeypatch.setattr(lowerable, "ESTIMATE_ERROR", 1)  # any estimate past the budget refused (the test below)
    monkeypatch.setattr(lowerable, "SAMPLE_MORE", 0)  # two moves of each action: the sample stays within it
    answer = assess(game.program, snapshot(game.initial_state(0)), steps=3_000)
    assert not answer.lowers and answer.estimated
    (refusal,) = answer.refusals
    assert refusal.predicted and "would run about" in refusal.reason and "Connect4Board." in refusal.reason
    assert refusal.span is not None and refusal.span.file.endswith("connect4.tgpl")
    with pytest.raises(NotLowerable) as e:
        lower_game(game, global_checks=False)
    assert "more than" in e.value.reason and "statements" in e.value.reason


def test_a_sample_runs_on_past_the_moves_that_pay_for_what_later_ones_share(monkeypatch):
    """Amazons (tests/data/designers) lowers spelled out (66,294 statements, 20 s). The first nine of its 1,456
    opening moves take 386 statements each, most of the others 6 (they share the calls the first ones made):
    estimated from two moves of each action, it was refused ("would run about 1,073,533 statements"); the sample
    now goes on while cheap and takes the cost of its later half for the moves it does not run."""
    game = _game(DESIGNERS / "amazons.tgpl")
    answer = assess(game.program, snapshot(game.initial_state(0)), moves="spelled")
    assert answer.estimated and answer.verdict == "lowers" and not answer.refusals
    assert answer.figures["statements estimated"] < execute.STEP_LIMIT // 2
    monkeypatch.setattr(lowerable, "SAMPLE_MORE", 0)
    answer = assess(game.program, snapshot(game.initial_state(0)), moves="spelled")
    assert answer.verdict != "lowers" and answer.figures["statements estimated"] > execute.STEP_LIMIT


def test_an_estimate_near_the_budget_is_undecided_not_a_refusal():
    """Teeko lowers spelled out (about 222,000 statements); its sample's moves take 2,249 statements each where
    the later moves of a control state average 400 (they share the calls the first ones made), so the estimate,
    734,002, passed the lowering's 500,000 and the dry run said "does not lower" of a game that lowers."""
    game = _game(DESIGNERS / "teeko.tgpl")
    answer = assess(game.program, snapshot(game.initial_state(0)))
    assert answer.estimated and answer.figures["statements estimated"] > execute.STEP_LIMIT
    assert answer.verdict == "undecided" and not answer.refusals, answer.notes
    assert any("less than 3 times" in n for n in answer.notes)


def test_the_sampled_run_cuts_a_loop_the_state_bounds_as_the_lowering_does():
    """Kalah's sowing, `while (hand > 0)` with `hand` read from the state, is cut by the lowering after a few
    passes until the ranges bound it (segments.lowered_logic); the sampled run ran it uncut to the executor's
    1,000 passes, and refused Kalah, which lowers, for a value grown too deep (or a loop without a bound)."""
    game = _game(DESIGNERS / "kalah.tgpl")
    answer = assess(game.program, snapshot(game.initial_state(0)))
    assert answer.estimated and not answer.refusals, [r.reason for r in answer.refusals]
    assert answer.verdict == "undecided"  # the passes past the cut are not counted: no claim either way


# ---------------------------------------------------------------------- the two doors, the limits, JSON
def test_check_lowerable_and_to_gdl_dry_run_give_one_answer():
    a = CliRunner().invoke(main, ["check", "--lowerable", "--json", str(EXAMPLES / "tris.tgpl")])
    b = _dry(EXAMPLES / "tris.tgpl", "--json")
    assert a.exit_code == 0 and b.exit_code == 0
    (entry,) = json.loads(a.stdout)
    assert entry["lowerable"] == json.loads(b.stdout)
    assert entry["lowerable"]["verdict"] == "lowers" and entry["lowerable"]["moves"] == "spelled"
    kinds = {p["kind"] for p in entry["lowerable"]["parts"]}
    assert kinds == {"action", "phase", "function"}
    text = CliRunner().invoke(main, ["check", "--lowerable", str(EXAMPLES / "tris.tgpl")])
    assert text.exit_code == 0 and "tris.tgpl: lowers; its moves spelled out" in text.stdout
    assert "PlayerState.Tick" in text.stdout and "9 ways to fill its inputs" in text.stdout


def test_check_lowerable_of_a_game_with_errors_is_status_1(tmp_path):
    bad = tmp_path / "bad.tgpl"
    bad.write_text('game "bad";\nplayers 2;\nsetup { undefinedName = 1; }\n', encoding="utf-8")
    r = CliRunner().invoke(main, ["check", "--lowerable", str(bad)])
    assert r.exit_code == 1 and "bad.tgpl:3:" in r.stderr
    r = _dry(bad)
    assert r.exit_code == 2  # to-gdl's rule: a game with errors is a game it cannot do its job with


def test_json_goes_with_dry_run_only():
    r = CliRunner().invoke(main, ["to-gdl", "--json", str(EXAMPLES / "tris.tgpl")])
    assert r.exit_code == 2 and "--json goes with --dry-run" in r.output


def test_the_dry_run_stops_at_its_limits():
    game = _game(EXAMPLES / "connect4.tgpl")
    ticks = iter(range(10**9))
    limits = Limits(max_seconds=200, clock=lambda: float(next(ticks)))  # a second a check: stops after 200 checks
    with pytest.raises(LimitReached) as e:
        assess_game(game, limits=limits)
    assert e.value.stage == "lowering (symbolic execution)"  # the lowering's own stage, where the dry run was
    assert e.value.elapsed == 200


def test_past_max_seconds_the_command_says_where_it_was():
    r = _dry(EXAMPLES / "connect4.tgpl", "--max-seconds", "0.000001")
    assert r.exit_code == 2 and "error: stopped while" in r.stderr


def test_a_sampled_run_that_cannot_finish_is_undecided_not_a_verdict():
    """Hex's win check, a flood run once after the moves meet, passes a budget of 1,000 statements by itself: the
    estimate is then a lower bound within the lowering's budgets, which decides nothing (status 2)."""
    from tgpl.cli import _dry_run_status

    game = _game(EXAMPLES / "hex.tgpl")
    answer = assess(game.program, snapshot(game.initial_state(0)), steps=1_000)
    assert answer.verdict == "undecided" and not answer.lowers and not answer.refusals
    assert _dry_run_status(answer) == 2
    assert any(n.startswith("undecided:") and "Connects" in n for n in answer.notes)
    assert assess_game(game).verdict == "lowers"  # with the default budget, run whole


def test_the_dry_runs_figures_do_not_depend_on_what_the_process_allocated_before():
    """Sets of formulas once iterated by address: Connect Four's parts were 58,736 or 58,738 or 58,740 after
    other work in the same process (CI ran this file after two thousand tests)."""
    figures = set()
    held = []
    for n in range(8):
        held.append([object() for _ in range(n * 977)])  # moves the heap, as earlier tests do
        b = _dry(EXAMPLES / "connect4.tgpl", "--json")
        assert b.exit_code == 0, b.output
        figures.add(json.dumps(json.loads(b.stdout)["figures"], sort_keys=True))
    assert len(figures) == 1, figures
