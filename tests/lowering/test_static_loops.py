"""A loop that reads nothing of the state once entered, a table from its way in (tgpl/asp/static_loops.py), and a
cell read as "any value but these" said as "not these values" (tgpl/lowering/one_value.py).

tests/data/lowering/flank.tgpl (a 4x4 midgame of Reversi's rules) searches its move's target coordinates with a
loop over the board that reads no disc: bisimulated with that loop a table; the rules that make each rewrite
exact (linear rules over facts; a value read only by `distinct`s, its object bound) are checked on small programs.
"""

from __future__ import annotations

from differential import Lowered, bisimulate
from tgpl.asp.ground_size import ground_size
from tgpl.asp.recursion import bind_recursion
from tgpl.asp.relaxed import relaxed_model
from tgpl.asp.gdl_to_asp import ClingoNames
from tgpl.asp.static_loops import static_loops
from tgpl.lowering.ir import Atom, Const, Distinct, Func, Not, Program, Rule, Var
from tgpl.lowering.lower import lower
from tgpl.lowering.one_value import one_value
from tgpl.pipeline import gdl_errors
from tgpl.runtime.game import load_game
from tgpl.runtime.snapshot import snapshot
from tgpl.verify.runtime_machine import RuntimeMachine
from tgpl.verify.graph import explore

from test_loop_writes import FLANK


def _repair(program: Program) -> Program:
    return bind_recursion(static_loops(program))


def test_flank_with_its_search_a_table_is_the_runtimes_game():
    game = load_game(str(FLANK))
    lowered = lower(game.program, snapshot(game.initial_state(0)), moves="auto", check=gdl_errors, repair=_repair)
    lowered.grounding = None
    program = lowered.program
    assert any(r.head.relation.startswith("tgpl_loop_") and r.is_fact for r in program.rules)
    assert any(isinstance(x, Not) and x.literal.relation == "true" for r in program.rules for x in r.body)
    assert not gdl_errors(program)
    runtime = explore(RuntimeMachine(game))
    assert runtime.complete
    assert bisimulate(Lowered(game, lowered, None)).states == runtime.states == 905
    plain = lower(game.program, snapshot(game.initial_state(0)), moves="auto", check=gdl_errors,
                  repair=bind_recursion).program
    assert ground_size(program).rules < ground_size(plain).rules


X, Y, N, M, W, P, S = (Var(n) for n in ("x", "y", "n", "m", "w", "p", "s"))
PLUS = [Rule(Atom("plus", (Const(str(i)), Const("1"), Const(str(i + 1))))) for i in range(4)]
SQUARES = [Rule(Atom("at", (Const(str(i)), Const(f"sq{i}")))) for i in range(4)]


def _game(*rules: Rule) -> Program:
    """A one-role game whose move names a square; `search` walks 0..3 to find it, `found` its index."""
    base = (
        Rule(Atom("role", (Const("r"),))),
        *(Rule(Atom("input", (Const("r"), Func("pick", (Const(f"sq{i}"),))))) for i in range(4)),
        *(Rule(Atom("base", (Func("cell", (Const(f"sq{i}"), Const(v))),))) for i in range(4) for v in ("a", "b")),
        *(Rule(Atom("init", (Func("cell", (Const(f"sq{i}"), Const("a"))),))) for i in range(4)),
        Rule(Atom("legal", (Const("r"), Func("pick", (S,)))), (Atom("at", (X, S)),)),
        Rule(Atom("next", (Func("cell", (S, Const("b"))),)), (Atom("found", (S, N)),)),
        Rule(Atom("terminal"), (Atom("true", (Func("cell", (Const("sq0"), Const("b"))),)),)),
        Rule(Atom("goal", (Const("r"), Const("100"))), ()),
        *PLUS, *SQUARES,
    )
    return Program(base + rules)


SEED = Rule(Atom("search", (W, Const("0"))), (Atom("does", (Const("r"), Func("pick", (W,)))),))
STEP = Rule(Atom("search", (W, M)), (Atom("search", (W, N)), Atom("at", (N, S)), Distinct(S, W),
                                     Atom("plus", (N, Const("1"), M))))
EXIT = Rule(Atom("found", (W, N)), (Atom("search", (W, N)), Atom("at", (N, W))))


def _found(program: Program) -> set[tuple[str, ...]]:
    names = ClingoNames()
    model = relaxed_model(program, names, ["#show found/2."], tables={})
    return {tuple(str(a) for a in s.arguments) for s in model if s.name == "found"}


def test_a_search_entered_from_the_move_is_a_table_of_its_way_in():
    program = _game(SEED, STEP, EXIT)
    out = static_loops(program)
    assert not any(r.head.relation == "search" for r in out.rules)
    tables = [r for r in out.rules if r.head.relation.startswith("tgpl_loop_") and r.is_fact]
    assert {tuple(map(str, r.head.args)) for r in tables} == {(f"sq{i}", f"sq{i}", str(i)) for i in range(4)}
    assert _found(out) == _found(program) == {(f"sq{i}", str(i)) for i in range(4)}
    assert not gdl_errors(out)


def test_loops_that_are_not_linear_over_facts_stay():
    reads_state = Rule(STEP.head, STEP.body + (Atom("true", (Func("cell", (S, Const("a"))),)),))
    two = Rule(Atom("search", (W, M)), (Atom("search", (W, N)), Atom("search", (S, N)), Atom("at", (N, S)),
                                        Atom("plus", (N, Const("1"), M))))
    negated = Rule(Atom("found", (W, N)), (Atom("at", (N, W)), Atom("at", (N, S)), Not(Atom("search", (S, N))),
                                           Atom("does", (Const("r"), Func("pick", (W,))))))
    for rules in ((SEED, reads_state, EXIT), (SEED, STEP, two, EXIT), (SEED, STEP, EXIT, negated)):
        program = _game(*rules)
        assert static_loops(program) == program


CELL = Atom("true", (Func("cell", (S, Var("v"))),))


def _one(*body) -> Program:
    return _game(Rule(Atom("other", (S,)), tuple(body)))


def test_any_value_but_one_is_not_that_value():
    out = one_value(_one(Atom("at", (X, S)), CELL, Distinct(Var("v"), Const("a"))))
    rule = next(r for r in out.rules if r.head.relation == "other")
    assert rule.body == (Atom("at", (X, S)), Atom("tgpl_cell_cell", (S,)),
                         Not(Atom("true", (Func("cell", (S, Const("a"))),))))
    assert {r.head.args for r in out.rules if r.head.relation == "tgpl_cell_cell"} == {
        (Const(f"sq{i}"),) for i in range(4)}


def test_a_value_read_elsewhere_or_an_object_bound_only_there_stays():
    cases = [
        _one(Atom("at", (X, S)), CELL, Distinct(Var("v"), Const("a")), Atom("at", (X, Var("v")))),  # read again
        _one(Atom("at", (X, Var("t"))), CELL, Distinct(Var("v"), Const("a"))),  # the object bound only by `true`
        _one(Atom("at", (X, S)), CELL),  # no distinct: any value at all
        _one(Atom("at", (X, S)), CELL, Distinct(Var("v"), Var("u"))),  # the other side unbound
    ]
    for program in cases:
        assert one_value(program) == program


def test_a_way_in_without_variables_is_a_table_too():
    """A seed whose head is ground (the loop entered one way, where the state allows): its table has no key."""
    entered = Atom("true", (Func("cell", (Const("sq0"), Const("a"))),))
    seed = Rule(Atom("search", (Const("sq2"), Const("0"))), (entered,))
    program = _game(seed, STEP, EXIT)
    out = static_loops(program)
    assert not any(r.head.relation == "search" for r in out.rules)
    assert _found(out) == _found(program) == {("sq2", "2")}
    assert not gdl_errors(out)


def test_the_loops_replaced_do_not_depend_on_pythons_hash_seed(tmp_path):
    """Reversi's relaxed program has two loops that share a relation; only the first is replaced. The first was
    the first of a set of relation names, so `to-gdl` wrote one table or the other by PYTHONHASHSEED (1 and 2
    differed): the same program must give the same GDL byte for byte."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    game = Path(__file__).resolve().parents[2] / "examples" / "reversi.tgpl"
    out = []
    for seed in ("1", "2"):
        kif = tmp_path / f"r{seed}.kif"
        env = dict(os.environ, PYTHONHASHSEED=seed)
        r = subprocess.run([sys.executable, "-m", "tgpl", "to-gdl", str(game), "--no-validate", "-o", str(kif)],
                           env=env, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        out.append(kif.read_bytes())
    assert out[0] == out[1]
