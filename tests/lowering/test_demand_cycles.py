"""A call's demand loosened where it made a negation cycle (tgpl.lowering.horn.loosened, compile_game).

tests/data/lowering/atari3.tgpl is Atari Go on 3 x 3 whose `Allowed` asks `Captures`, which reads `Breathes` of
each enemy neighbour under `not` (the "some pass returns" of its loop), and then asks `Breathes` where `Captures`
is false. With the moves compiled, both reach one instance of `Breathes`, whose demand so read its own results
through negation: GDL forbids it, and the game was refused ("negation cycle: captures -> not captures_exists ->
... -> breathes_call -> captures"). Compiled again with the demands asked without the results and negations the
caller read, it lowers and validates: a function's answer for a row of arguments does not depend on which other
rows are asked, and its result is still read under the caller's whole body.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import tgpl.lowering.compiled as compiled_module
from tgpl.lowering import horn
from tgpl.lowering.horn import Unsupported
from tgpl.lowering.ir import Atom, Const, Distinct, Not, Var
from to_gdl_runs import to_gdl

ATARI3 = Path(__file__).resolve().parents[1] / "data" / "lowering" / "atari3.tgpl"
COMPILED = ("--moves", "compiled", "--max-seconds", "300")


def test_atari3_lowers_with_its_demands_loosened_and_validates(tmp_path):
    r = to_gdl(tmp_path, ATARI3, *COMPILED)
    assert r.exit_code == 0, r.output
    kif = r.kif
    lines = kif.splitlines()
    assert lines[1].startswith("; validated: "), lines[1]
    assert "to the end of the game" in lines[1] and "steps compared" in lines[1], lines[1]
    assert "breathes" in kif  # Breathes is rules with variables, not spelled out


def test_without_the_loosening_the_same_game_is_a_negation_cycle(tmp_path, monkeypatch):
    """The refusal the loosening mends: with `loosened` giving the body back as it is, the compiled rules break
    GDL's stratification and `--moves compiled` refuses the game, exit 2, located."""
    monkeypatch.setattr(horn, "loosened", lambda args, body: body)
    r = to_gdl(tmp_path, ATARI3, *COMPILED)
    assert r.exit_code == 2, r.output
    assert "negation cycle" in r.output and "breathes_call" in r.output, r.output
    assert "atari3.tgpl:" in r.output and "Traceback" not in r.output
    assert not r.out.exists()


P, W, R = Var("P"), Var("W"), Var("R")


def test_results_and_negations_leave_the_demand():
    body = (Atom("allowed|call", (P, W)), Atom("captures|result", (P, W, Const("no"))),
            Not(Atom("allowed|exists1", (P,))), Distinct(P, Const("null")))
    assert horn.loosened((P, P, W), body) == (Atom("allowed|call", (P, W)), Distinct(P, Const("null")))


def test_a_result_that_binds_an_argument_stays():
    """`n = Next(p); Breathes(n)`: the result binds the argument, and a demand without it would be unsafe."""
    n = Var("N")
    body = (Atom("f|call", (P,)), Atom("next|result", (P, n)), Atom("other|result", (P, R)))
    assert horn.loosened((n,), body) == (Atom("f|call", (P,)), Atom("next|result", (P, n)))


def test_a_body_nothing_else_binds_is_left_as_it_is():
    """A variable bound only by the negated literal's own context (no positive atom left to bind it): the body is
    not loosened."""
    body = (Not(Atom("seen|result", (P,))),)
    assert horn.loosened((P,), body) == body


def _planted_retries(tmp_path: Path, problem) -> list[bool]:
    """compile_game on shifts.tgpl with `problem(demands)` reported by the first check and none after (`demands`:
    the relations the emitter made the compiled functions' demands, `cango_call`...): whether each compilation
    had its demands loosened."""
    from tgpl.lowering.compiled import compile_game
    from tgpl.lowering.universe import Universe
    from tgpl.runtime.game import load_game
    from tgpl.runtime.snapshot import snapshot

    game = load_game(str(Path(__file__).resolve().parents[1] / "data" / "lowering" / "shifts.tgpl"))
    universe = Universe.from_snapshot(snapshot(game.initial_state(0)))
    loose: list[bool] = []
    made = []

    def check(program):
        loose.append(seen_loose[-1])
        return [problem(made[-1].demands)] if len(loose) == 1 else []

    seen_loose = [False]
    real = compiled_module.CompiledGame

    class Recording(real):
        def lowered(self, foresee=None):
            seen_loose.append(self.hc.loose_demands)
            made.append(super().lowered(foresee))
            return made[-1]

    compile_game(game.program, universe, check, make=Recording)
    return loose


def _problem(message: str, code: str, about: tuple[str, ...]):
    from tgpl.frontend.diagnostics import Diagnostic, Severity, Span
    return Diagnostic(Severity.ERROR, Span("<gdl>", 1, 1, 1, 1), message, (), code, about)


def test_the_retry_keys_on_the_problems_kind_not_its_words(tmp_path):
    """compile_game loosens the demands where `check` reports a negation cycle through a call's demand, read from
    the problem's code and relations: a message reworded (here, not naming the cycle at all) still retries, and a
    message that names a cycle without the code does not."""
    def cycle(demands):
        assert demands  # shifts.tgpl's `CanGo` and `HasMove` are compiled functions, called
        return _problem("planted, in other words", "negation-cycle", ("captures", "not captures_exists", min(demands)))
    assert _planted_retries(tmp_path, cycle) == [False, True]
    with pytest.raises(Unsupported, match="planted"):
        _planted_retries(tmp_path, lambda d: _problem("planted: negation cycle: a -> not b_call -> a", "", ()))
    with pytest.raises(Unsupported, match="planted"):  # a cycle not through a call's demand
        _planted_retries(tmp_path, lambda d: _problem("planted", "negation-cycle", ("a", "b")))


def test_a_demand_is_what_the_emitter_made_one_not_a_name(tmp_path):
    """A relation named like a demand (`b_call`: a TGPL function `B_call`, or one the tidying made) that the
    emitter did not make a call's demand is no reason to retry; the emitter's own are, whatever their names."""
    with pytest.raises(Unsupported, match="planted"):
        _planted_retries(tmp_path, lambda d: _problem("planted", "negation-cycle", ("a", "not b_call", "a")))
    assert _planted_retries(tmp_path, lambda d: _problem("planted", "negation-cycle", ("a", "not " + max(d), "a"))) \
        == [False, True]


def test_an_operand_of_arithmetic_keeps_the_result_that_binds_it():
    """`d = step * dx`, `step` a result: arithmetic binds only its result (the relaxation computes it from the
    operands), so the result that gives `step` stays, as the relaxation could not ground the demand without it."""
    step, dx, d = Var("S"), Var("D"), Var("E")
    body = (Atom("f|loop", (P, dx)), Atom("count|result", (P, step)), Atom("#times", (step, dx, d)),
            Atom("#plus", (P, d, R)))
    assert horn.loosened((R,), body) == body
    without = (Atom("f|loop", (P, dx)), Atom("count|result", (P, step)), Atom("#plus", (P, dx, R)))
    assert horn.loosened((R,), without) == (Atom("f|loop", (P, dx)), Atom("#plus", (P, dx, R)))
