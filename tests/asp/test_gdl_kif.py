"""The KIF reader and the KIF and infix emitters."""

from __future__ import annotations

from pathlib import Path

import pytest

from tgpl.asp.kif import KifError, read_kif, read_kif_file, read_term, to_infix, to_kif
from tgpl.lowering.ir import Atom, Const, Distinct, Func, Not, Or, Program, Rule, Var

ROOT = Path(__file__).resolve().parents[2]
TICTACTOE = ROOT / "examples" / "gdl" / "tictactoe.kif"

EVERYTHING = """\
; every construct of the dialect
(role white) (ROLE Black)
(<= (legal ?W (move ?x ?y))
    (true (control ?w))   ; a comment after a literal
    (adjacent ?x ?y)
    (not (blocked ?y))
    (distinct ?x ?y)
    (or (free ?y) (and-not ?y) (not (or (p ?x) (q ?y)))))
(<= (open) (true (cell ?m ?n b)))
terminal
(<= terminal (not open))
(succ 1 2) (weird-name x_y 1st)
"""


def test_round_trip_of_the_baseline():
    program, _ = read_kif_file(TICTACTOE)
    assert read_kif(to_kif(program)) == program


def test_round_trip_of_every_construct():
    program = read_kif(EVERYTHING)
    text = to_kif(program, header="generated")
    assert text.startswith("; generated\n\n(role white)\n(role black)\n")
    assert read_kif(text) == program
    assert to_kif(read_kif(text), header="generated") == text  # emitting is deterministic


def test_reader_builds_the_ir():
    program = read_kif(EVERYTHING)
    legal = program.rules[2]
    assert legal.head == Atom("legal", (Var("w"), Func("move", (Var("x"), Var("y")))))
    assert legal.body[2] == Not(Atom("blocked", (Var("y"),)))
    assert legal.body[3] == Distinct(Var("x"), Var("y"))
    assert isinstance(legal.body[4], Or) and len(legal.body[4].literals) == 3
    assert program.rules[3] == Rule(Atom("open"), (Atom("true", (Func("cell", (Var("m"), Var("n"), Const("b"))),)),))
    assert program.rules[4] == Rule(Atom("terminal"))


def test_case_is_folded_as_ggp_base_identifies_names():
    program = read_kif("(ROLE Xplayer)\n(<= (Legal ?W NOOP) (Role ?w))")
    assert program.rules[0].head == Atom("role", (Const("xplayer"),))
    assert program.rules[1] == Rule(Atom("legal", (Var("w"), Const("noop"))), (Atom("role", (Var("w"),)),))


def test_spans_point_into_the_file():
    program = read_kif("(role x)\n(<= (p ?x)\n      (q ?x))", "g.kif")
    rule = program.rules[1]
    assert str(rule.span) == "g.kif:2:1"
    assert (rule.span.end_line, rule.span.end_col) == (3, 14)
    assert str(rule.body[0].span) == "g.kif:3:7"
    assert str(rule.body[0].args[0].span) == "g.kif:3:10"


@pytest.mark.parametrize("text, header", [
    ("(role x", "g.kif:1:1: error: '(' is never closed"),
    ("(role x))", "g.kif:1:9: error: unexpected ')': no '(' is open here"),
    ("(role x)\n(<= )", "g.kif:2:1: error: a rule needs a head: (<= head literal ...)"),
    ("(p (f))", "g.kif:1:4: error: function term '(f)' has no arguments; write 'f'"),
    ("(?x a)", "g.kif:1:2: error: variable '?x' cannot be a relation name"),
    ("(p (?f a))", "g.kif:1:5: error: variable '?f' cannot be a function name"),
    ("(p not)", "g.kif:1:4: error: 'not' is a keyword and cannot be a constant"),
    ("(not p)", "g.kif:1:1: error: a 'not' literal cannot stand alone: expected a fact or a rule"),
    ("(<= p\n   (not a b))", "g.kif:2:4: error: 'not' takes one literal, found 2"),
    ("(<= p (distinct a))", "g.kif:1:7: error: 'distinct' takes two terms, found 1"),
    ("(<= p (or))", "g.kif:1:7: error: 'or' needs at least one literal"),
    ("(p ?)", "g.kif:1:4: error: '?' needs a variable name after it"),
    ("()", "g.kif:1:1: error: empty list '()' where a fact was expected"),
    ("(<= p (<= a b))", "g.kif:1:7: error: a rule cannot appear inside a rule"),
    ("((p) a)", "g.kif:1:2: error: expected a relation name, found a list"),
    ("(<= p ?x)", "g.kif:1:7: error: variable '?x' cannot be a relation name"),
])
def test_reader_errors_have_locations(text, header):
    with pytest.raises(KifError) as e:
        read_kif(text, "g.kif")
    assert [d.header() for d in e.value.diagnostics] == [header]


def test_every_bad_form_is_reported():
    with pytest.raises(KifError) as e:
        read_kif("(role x)\n(?r a)\n(init p)\n(p not)\n", "g.kif")
    assert [str(d.span) for d in e.value.diagnostics] == ["g.kif:2:2", "g.kif:4:4"]


def test_comments_and_blank_input():
    assert read_kif("; nothing\n\n  ; at all\n") == Program(())
    assert read_kif("\ufeff(role x) ; BOM and comment") == Program((Rule(Atom("role", (Const("x"),))),))


def test_read_term():
    assert read_term("(MARK 1 ?x)") == Func("mark", (Const("1"), Var("x")))
    with pytest.raises(KifError, match="expected one term, found 2"):
        read_term("a b")


def test_emitter_refuses_names_that_would_not_read_back():
    for bad in (Const("X"), Const("a b"), Const("not"), Const("")):
        with pytest.raises(ValueError, match="cannot be written in KIF"):
            to_kif(Program((Rule(Atom("p", (bad,))),)))


def test_infix_matches_the_thesis_listings():
    program, _ = read_kif_file(TICTACTOE)
    text = to_infix(program)
    # Listing 2.1 and 2.2 of the thesis, verbatim.
    assert (
        "base(cell(M,N,x)) :- index(M) & index(N)\n"
        "base(cell(M,N,o)) :- index(M) & index(N)\n"
        "base(cell(M,N,b)) :- index(M) & index(N)\n"
    ) in text
    assert "line(X) :- row(M,X)\nline(X) :- column(M,X)\n" in text
    assert (
        "row(M,X) :-\n"
        "    true(cell(M,1,X)) &\n"
        "    true(cell(M,2,X)) &\n"
        "    true(cell(M,3,X))\n"
        "\n"
        "column(M,X) :-\n"
        "    true(cell(1,M,X)) &\n"
        "    true(cell(2,M,X)) &\n"
        "    true(cell(3,M,X))\n"
    ) in text


def test_infix_negation_distinct_or_and_odd_variables():
    program = read_kif("(<= (p ?row ?_x ?1) (q ?row ?_x ?1) (not (r ?row)) (or (distinct ?row a) s))")
    assert to_infix(program) == "p(Row,_x,V1) :-\n    q(Row,_x,V1) &\n    ~r(Row) &\n    (distinct(Row,a) | s)\n"
