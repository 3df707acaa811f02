"""The logic IR: equality without spans, relation helpers, `or` expansion."""

from __future__ import annotations

from tgpl.frontend.diagnostics import Span
from tgpl.lowering.ir import (
    Atom, Const, Distinct, Func, Not, Or, Program, Rule, Var, expand_or, is_ground,
)


def at(line: int, col: int) -> Span:
    return Span("g.kif", line, col, line, col + 1)


def test_spans_do_not_take_part_in_equality():
    a = Atom("cell", (Const("1", at(1, 2)), Var("x", at(1, 4))), at(1, 1))
    b = Atom("cell", (Const("1"), Var("x")))
    assert a == b and hash(a) == hash(b)
    assert a.span == at(1, 1) and b.span is None


def test_terms():
    t = Func("mark", (Const("1"), Var("y")))
    assert str(t) == "(mark 1 ?y)"
    assert [v.name for v in t.variables()] == ["y"]
    assert not is_ground(t) and is_ground(Func("mark", (Const("1"), Const("2"))))
    assert Const("100").is_int and Const("-3").is_int
    assert not Const("007").is_int and not Const("x").is_int and not Const("-0").is_int


def test_rule_variables_in_order_of_first_occurrence():
    rule = Rule(Atom("p", (Var("x"),)), (Atom("q", (Var("y"), Var("x"))), Not(Atom("r", (Var("z"),)))))
    assert [v.name for v in rule.variables()] == ["x", "y", "z"]
    assert [(a.relation, pos) for a, pos in rule.body_atoms()] == [("q", True), ("r", False)]


def test_program_helpers():
    program = Program((
        Rule(Atom("role", (Const("x"),))),
        Rule(Atom("role", (Const("o"),))),
        Rule(Atom("line", (Var("x"),)), (Atom("row", (Var("m"), Var("x"))),)),
        Rule(Atom("terminal"), (Atom("line", (Const("x"),)),)),
    ))
    assert program.relations() == {"role": {1}, "line": {1}, "row": {2}, "terminal": {0}}
    assert program.defined() == {"role", "line", "terminal"}
    assert [str(a) for a in program.facts("role")] == ["(role x)", "(role o)"]
    assert len(program.rules_for("line")) == 1


def test_expand_or_gives_disjunctive_normal_form():
    head = Atom("p", (Var("x"),))
    rule = Rule(head, (
        Atom("q", (Var("x"),)),
        Or((Atom("a"), Not(Or((Atom("b"), Distinct(Var("x"), Const("c"))))))),
    ))
    assert expand_or(rule) == [
        Rule(head, (Atom("q", (Var("x"),)), Atom("a"))),
        Rule(head, (Atom("q", (Var("x"),)), Not(Atom("b")), Not(Distinct(Var("x"), Const("c"))))),
    ]


def test_double_negation_disappears():
    rule = Rule(Atom("p"), (Not(Not(Atom("q"))),))
    assert expand_or(rule) == [Rule(Atom("p"), (Atom("q"),))]
