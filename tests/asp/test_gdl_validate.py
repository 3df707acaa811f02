"""The GDL validator: each restriction, on a small broken game, with its exact diagnostic."""

from __future__ import annotations

from pathlib import Path

import pytest

from tgpl.asp.kif import read_kif, read_kif_file
from tgpl.asp.validate import validate

ROOT = Path(__file__).resolve().parents[2]

# A complete, valid one-role game on lines 1-7; each case appends from line 8.
MINI = """\
(role a)
(base p) (input a go)
(init p)
(<= (legal a go) (true p))
(<= (next p) (does a go))
(<= (goal a 100) (true p))
(<= terminal (not (true p)))
"""


def headers(text: str) -> list[str]:
    return [d.header() for d in validate(read_kif(text, "g.kif"), "g.kif")]


def test_the_mini_game_is_valid():
    assert headers(MINI) == []


def test_the_tictactoe_baseline_is_valid():
    program, _ = read_kif_file(ROOT / "examples" / "gdl" / "tictactoe.kif")
    assert validate(program, "tictactoe.kif") == []


@pytest.mark.parametrize("extra, expected", [
    pytest.param(
        "(<= (q ?x) (not (r ?x)))",
        ["g.kif:8:8: error: unsafe rule: variable '?x' does not occur in a positive literal of the body"],
        id="unsafe-rule"),
    pytest.param(
        "(<= (q ?x) (true p) (distinct ?x p))",
        ["g.kif:8:8: error: unsafe rule: variable '?x' does not occur in a positive literal of the body"],
        id="unsafe-distinct"),
    pytest.param(
        "(<= (q ?x) (or (r ?x) (s ?y)))",
        ["g.kif:8:8: error: unsafe rule: variable '?x' does not occur in a positive literal of the body",
         "g.kif:8:26: error: unsafe rule: variable '?y' does not occur in a positive literal of the body"],
        id="unsafe-or"),
    pytest.param(
        "(<= q (not r))\n(<= r q)",
        ["g.kif:8:12: error: negation cycle: q -> not r -> q"],
        id="negation-cycle"),
    pytest.param(
        "(<= q (true p) (not q))",
        ["g.kif:8:21: error: negation cycle: q -> not q"],
        id="negation-self-loop"),
    pytest.param(
        "(<= (legal a stop) (does a go))",
        ["g.kif:8:20: error: 'legal' cannot depend on 'does': legal -> does"],
        id="does-in-legal"),
    pytest.param(
        "(<= moved (does a go))\n(<= terminal moved)",
        ["g.kif:9:14: error: 'terminal' cannot depend on 'does': terminal -> moved -> does"],
        id="does-behind-terminal"),
    pytest.param(
        "(<= (true q) (true p))",
        ["g.kif:8:5: error: 'true' cannot appear in the head of a rule"],
        id="true-in-head"),
    pytest.param(
        "(<= (does a go) (true p))",
        ["g.kif:8:5: error: 'does' cannot appear in the head of a rule"],
        id="does-in-head"),
    pytest.param(
        "(<= (goal a 150) (true p))",
        ["g.kif:8:13: error: goal value 150 is not in 0..100"],
        id="goal-150"),
    pytest.param(
        "(<= (goal a win) (true p))",
        ["g.kif:8:13: error: goal value 'win' is not an integer in 0..100"],
        id="goal-not-integer"),
    pytest.param(
        "(<= (q ?x) (true (f ?x)))\n(<= (q ?x ?y) (true (f ?x)) (true (f ?y)))",
        ["g.kif:9:5: error: relation 'q' has 2 arguments here but 1 at g.kif:8:5"],
        id="arity-clash"),
    pytest.param(
        "(<= (legal a) (true p))",
        ["g.kif:8:5: error: 'legal' takes 2 arguments, found 1"],
        id="keyword-arity"),
    pytest.param(
        "(<= (role b) (true p))",
        ["g.kif:8:5: error: 'role' must be given by facts only, not by a rule"],
        id="role-rule"),
    pytest.param(
        "(<= q (init p))",
        ["g.kif:8:7: error: 'init' cannot appear in the body of a rule"],
        id="init-in-body"),
    pytest.param(
        "(<= (init q) (true p))",
        ["g.kif:8:14: error: 'init' cannot depend on 'true': init -> true"],
        id="init-on-true"),
    pytest.param(
        "(r 1)\n(<= (p ?x ?w) (q ?x) (r ?w))\n(<= (q ?y) (p ?y ?z))",
        ["g.kif:10:18: error: recursion restriction: argument '?z' of the recursive literal '(p ?y ?z)' "
         "must be ground, an argument of the head, or a variable bound by a literal outside the recursion"],
        id="recursion-restriction"),
])
def test_broken_games(extra, expected):
    assert headers(MINI + extra) == expected


def test_recursion_through_a_bound_variable_is_allowed():
    assert headers(MINI + "(succ 1 2) (succ 2 3)\n(<= (lt ?x ?y) (succ ?x ?y))\n"
                          "(<= (lt ?x ?z) (lt ?x ?y) (succ ?y ?z))") == []


def test_missing_role():
    assert headers(MINI.replace("(role a)", "")) == ["g.kif:1:1: error: the game defines no 'role'"]


def test_missing_relations():
    assert headers("(role a)\n(init p)") == [
        "g.kif:1:1: error: the game defines no 'legal'",
        "g.kif:1:1: error: the game defines no 'next'",
        "g.kif:1:1: error: the game defines no 'goal'",
        "g.kif:1:1: error: the game defines no 'terminal'",
        "g.kif:1:1: warning: the game defines no 'base'; GGP players that need it must compute it",
        "g.kif:1:1: warning: the game defines no 'input'; GGP players that need it must compute it",
    ]
