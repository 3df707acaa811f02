"""The range search's questions to clingo: one program for a whole search, counted, and bounded.

`satisfy.Solver` answers as `satisfiable` (each question written and grounded on its own) does, on random
formulas with literals of one cell, comparisons decided and left free; its `combinations` finds the same
combinations as one question each. Shut the Box (tests/data/designers/shutbox.tgpl) writes its two scores by
cases over every box, and its joint search asked each combination of their values with each roll's
comparisons: past 600 s before, it now lowers, within a budget of questions, as its dry run says. Past the budget, the search answers as it does when the counters cannot be searched together: the
ranges found apart, never narrower than the joint search's, or a located refusal.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

import tgpl.lowering.segments as segments
from tgpl.cli import main
from tgpl.lowering.lower import NotLowerable, game_logic
from tgpl.lowering.satisfy import Solver, satisfiable
from tgpl.lowering.symbolic import FALSE, TRUE, CmpLit, FluentLit, conj, disj, lit, neg

ROOT = Path(__file__).resolve().parents[2]
SHUTBOX = ROOT / "tests" / "data" / "designers" / "shutbox.tgpl"
KEYS = [FluentLit("o", f"a{i % 3}", i // 3) for i in range(9)] + [CmpLit("<", f"x{i}", 3) for i in range(5)]


def _formula(rng: random.Random, depth: int):
    if depth == 0 or rng.random() < 0.2:
        r = rng.random()
        return TRUE if r < 0.05 else FALSE if r < 0.1 else lit(rng.choice(KEYS))
    kind = rng.choice(("and", "or", "not"))
    if kind == "not":
        return neg(_formula(rng, depth - 1))
    parts = [_formula(rng, depth - 1) for _ in range(rng.randint(2, 3))]
    return conj(*parts) if kind == "and" else disj(*parts)


def _known(rng: random.Random):
    truth = {k: rng.choice((None, True, False)) for k in KEYS[9:]}
    return truth.get


def test_one_program_answers_as_a_program_per_question():
    rng, solver = random.Random(7), Solver()
    answers = set()
    for _ in range(400):
        a, b, known = _formula(rng, 4), _formula(rng, 4), _known(rng)
        answer = solver.satisfiable(a, b, known)
        assert answer == satisfiable(a, b, known)
        answers.add(answer)
    assert answers == {True, False}
    assert solver.questions <= 400  # FALSE roots are answered without clingo


def test_combinations_are_those_that_hold_one_at_a_time():
    rng, solver = random.Random(11), Solver()
    nonempty = 0
    for _ in range(150):
        a, known = _formula(rng, 4), _known(rng)
        rows = [[_formula(rng, 3) for _ in range(rng.randint(1, 4))] for _ in range(rng.randint(1, 3))]
        want = {c for c in itertools.product(*(range(len(r)) for r in rows))
                if satisfiable(a, conj(*(rows[i][j] for i, j in enumerate(c))), known)}
        assert solver.combinations(a, rows, known, 10_000) == want
        nonempty += bool(want)
    assert 0 < nonempty < 150
    # past `most` models, None: the caller asks one combination at a time
    rows = [[lit(k) for k in KEYS[:3]], [lit(k) for k in KEYS[3:6]]]
    assert solver.combinations(TRUE, rows, lambda k: None, 1) is None


def _race_logic():
    from tgpl.frontend.loader import load_program
    from tgpl.runtime.game import Game, compile_program
    from tgpl.runtime.snapshot import snapshot

    path = ROOT / "examples" / "race.tgpl"
    program = load_program(str(path), text=path.read_text())
    assert program.ok
    game = Game(program, compile_program(program))
    return game_logic(program, snapshot(game.initial_state(0)))


def _admissions(monkeypatch) -> list:
    """Every segments.Admission made from now on (each counts its questions to clingo), in a list."""
    asked: list[segments.Admission] = []
    init = segments.Admission.__init__

    def counted(self, *args, **kwargs):
        init(self, *args, **kwargs)
        asked.append(self)

    monkeypatch.setattr(segments.Admission, "__init__", counted)
    return asked


def test_past_the_question_budget_the_ranges_are_wider_or_refused(monkeypatch):
    """examples/race.tgpl's joint search asks clingo some twenty questions: with none allowed, the searches
    apart give its ranges, each holding the joint search's, or the game is refused, located."""
    asked = _admissions(monkeypatch)
    joint = {k: list(fl.domain) for k, fl in _race_logic().fluents.items() if fl.numeric}
    assert 0 < max(a.solver.questions for a in asked) <= segments.QUESTION_LIMIT
    monkeypatch.setattr(segments, "QUESTION_LIMIT", 0)
    asked.clear()
    try:
        apart = {k: list(fl.domain) for k, fl in _race_logic().fluents.items() if fl.numeric}
    except NotLowerable as e:
        assert e.span is not None and "questions to clingo" in e.reason
        return
    assert all(a.solver.questions == 0 for a in asked)
    assert set(apart) == set(joint)
    for k, domain in joint.items():
        assert set(domain) <= set(apart[k]), k


def test_past_the_work_budget_the_ranges_are_wider_or_refused(monkeypatch):
    """The joint search's work is counted in cases of the moves' writes (JOINT_WORK_LIMIT), not in states alone
    (Treasure's 20,000 states were past 600 s): with none allowed, every search that takes a move gives up
    ("work"), and race's ranges come from the search by counter, each holding the joint search's, or the game is
    refused, located."""
    joint = {k: list(fl.domain) for k, fl in _race_logic().fluents.items() if fl.numeric}
    whys: list[list[str]] = []
    search = segments._joint_search

    def told(logic, numeric, apart, limits, why, most, work):
        found = search(logic, numeric, apart, limits, why, most, work)
        whys.append(list(why))
        return found

    monkeypatch.setattr(segments, "_joint_search", told)
    monkeypatch.setattr(segments, "JOINT_WORK_LIMIT", 0)
    try:
        apart = {k: list(fl.domain) for k, fl in _race_logic().fluents.items() if fl.numeric}
    except NotLowerable as e:
        assert e.span is not None and "could not be bounded" in e.reason
        return
    assert whys and whys[0] == ["work"]
    assert set(apart) == set(joint)
    for k, domain in joint.items():
        assert set(domain) <= set(apart[k]), k


def test_shut_the_box_lowers_within_the_budget_as_its_dry_run_says(tmp_path, monkeypatch):
    """Its joint search asked a question per combination of its two scores' values and roll: more than 5,500
    by 600 s, unfinished. The dry run says it lowers, and it does, in one joint search."""
    asked = _admissions(monkeypatch)
    # spelled out: `auto` compiles its dice now (test_chance_out.py), where no joint search runs
    dry = CliRunner().invoke(main, ["to-gdl", "--dry-run", "--moves", "spelled", str(SHUTBOX)])
    assert dry.exit_code == 0 and "lowers" in dry.output, dry.output
    out = tmp_path / "shutbox.kif"
    # written without the validation, which adds some 11 s of CPU (playouts: test_chance_run_bound.py)
    r = CliRunner().invoke(main, ["to-gdl", str(SHUTBOX), "--moves", "spelled", "--no-validate", "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert "(init " in out.read_text()
    # one search, all of it joint: 181 questions (27 of them enumerations), where 1,402 were not its end
    assert len(asked) == 1 and 0 < asked[0].solver.questions <= 1_000
