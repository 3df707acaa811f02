"""The GDL validator: each restriction, on a small broken game, with its exact diagnostic."""

from __future__ import annotations

from pathlib import Path

import pytest

from tgpl.asp.kif import read_kif, read_kif_file
from tgpl.asp.validate import negation_cycles, validate
from tgpl.lowering.ir import Atom, Const, Program, Rule

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


def test_a_negation_cycle_is_told_to_programs_by_its_kind_and_hops():
    """What compile_game acts on (tgpl.lowering.compiled): the kind and the cycle's hops, not the message's words."""
    [d] = validate(read_kif(MINI + "(<= q (not r))\n(<= r q)", "g.kif"), "g.kif")
    assert (d.code, d.about) == ("negation-cycle", ("q", "not r", "q"))


def test_the_negation_cycles_alone_are_validates_own():
    """negation_cycles, what the lowering asks before its costly repair: validate's negation cycles, the other
    errors (here an unsafe rule and the recursion restriction) left out."""
    game = read_kif(MINI + "(<= q (not r))\n(<= r q)\n(<= (s ?x) (s ?y) (true p))\n(<= (t ?z) (not q))", "g.kif")
    everything = validate(game, "g.kif")
    assert {d.code for d in everything} > {"negation-cycle"}
    assert negation_cycles(game) == [d for d in everything if d.code == "negation-cycle"] != []


def test_the_tictactoe_baseline_is_valid():
    program, _ = read_kif_file(ROOT / "examples" / "gdl" / "tictactoe.kif")
    assert validate(program, "tictactoe.kif") == []


# Each case: lines appended to MINI (from line 8), and every diagnostic of the result.
RESTRICTIONS = [
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
]


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


# ------------------------------------------------------------------ vocabulary
VOCABULARY = [
    pytest.param(
        "(<= (q (f a)) (true p))\n(<= (q (f a b)) (true p))",
        ["g.kif:9:8: error: function 'f' has 2 arguments here but 1 at g.kif:8:8"],
        id="function-arity"),
    pytest.param(  # ggp-base's prover unifies (rank x) with (rank x y) and throws on the reverse
        "(base (result (rank a)))\n(<= (next (result (rank a a))) (true p))",
        ["g.kif:9:19: error: function 'rank' has 2 arguments here but 1 at g.kif:8:15"],
        id="function-arity-in-fluents"),
    pytest.param(
        "(<= (q ?x) (true (cell ?x)) (does a (mark ?x)))\n"
        "(<= (r ?x) (true (cell ?x)) (not (true (cell (mark ?x ?x) ?x))))",
        ["g.kif:9:40: error: function 'cell' has 2 arguments here but 1 at g.kif:8:18",
         "g.kif:9:46: error: function 'mark' has 2 arguments here but 1 at g.kif:8:37"],
        id="function-arity-nested-under-not"),
    pytest.param(
        "(<= (q ?x) (true (f ?x)) (or (true (g ?x)) (distinct ?x (f ?x ?x))))",
        ["g.kif:8:57: error: function 'f' has 2 arguments here but 1 at g.kif:8:18"],
        id="function-arity-in-distinct-under-or"),
    pytest.param(
        "(<= (q (true p)) (true p))",
        ["g.kif:8:8: error: 'true' is a GDL keyword: it names a relation, never a function"],
        id="keyword-as-function"),
    pytest.param(  # legal GDL that ggp-base's validator warns about ("are you using 'true' correctly?")
        "(<= (q (cell a)) (true p))\n(<= (cell a b) (true p))",
        ["g.kif:9:5: warning: 'cell' is a relation here but a function with 1 argument at g.kif:8:8"],
        id="relation-and-function"),
    pytest.param(  # legal GDL: a constant never unifies with a function term
        "(<= (q rank) (true p))\n(<= (q (rank a)) (true p))",
        ["g.kif:9:8: warning: 'rank' is a function with 1 argument here but a constant at g.kif:8:8"],
        id="constant-and-function"),
    pytest.param(
        "(role #$%^&*)",
        ["g.kif:8:7: error: constant '#$%^&*' is not a KIF word: "
         "use letters, digits and ! $ % & * + - . / < = > ? @ _ ~"],
        id="constant-not-a-word"),
    pytest.param(
        "(role a\x00b)",
        ["g.kif:8:7: error: constant 'a\\x00b' is not a KIF word: "
         "use letters, digits and ! $ % & * + - . / < = > ? @ _ ~"],
        id="nul-in-constant"),
    pytest.param(
        "(role a\x1fb\u00a0c)",  # not white space for GGP readers: part of the word
        ["g.kif:8:7: error: constant 'a\\x1fb\\xa0c' is not a KIF word: "
         "use letters, digits and ! $ % & * + - . / < = > ? @ _ ~"],
        id="control-and-no-break-space"),
    pytest.param(
        "(<= (q (f|g a)) (true p))\n(<= (pré a) (true p))",
        ["g.kif:8:8: error: function 'f|g' is not a KIF word: use letters, digits and ! $ % & * + - . / < = > ? @ _ ~",
         "g.kif:9:5: error: relation 'pré' is not a KIF word: use letters, digits and ! $ % & * + - . / < = > ? @ _ ~"],
        id="names-not-words"),
    pytest.param(
        "(<= 42 (true p))",
        ["g.kif:8:5: error: '42' is a number and cannot name a relation"],
        id="number-as-head"),
    pytest.param(
        "(<= (q (-1.5e3 a)) (true p))",
        ["g.kif:8:8: error: '-1.5e3' is a number and cannot name a function"],
        id="number-as-function"),
    pytest.param(
        "(<= (q 1st x-y <=>) (true p))",
        [],
        id="odd-but-valid-words"),
]


def test_keywords_and_variables_built_into_the_ir_are_not_names():
    program = read_kif(MINI, "g.kif")
    odd = Rule(Atom("or", (Const("?x"),)), (Atom("true", (Const("p"),)),))
    assert [d.header() for d in validate(Program(program.rules + (odd,)), "g.kif")] == [
        "<gdl>:1:1: error: 'or' is a keyword and cannot be a relation",
        "<gdl>:1:1: error: constant '?x' starts with '?', which makes it a variable",
    ]


# ------------------------------------------------------------- base and input
DECLARED = [
    pytest.param(
        "(<= (next q) (true p))",
        ["g.kif:8:5: error: fluent 'q' is not in base, but this rule can make it true"],
        id="next"),
    pytest.param(
        "(init (cell 1 b))",
        ["g.kif:8:1: error: fluent '(cell 1 b)' is not in base, but this rule can make it true"],
        id="init"),
    pytest.param(
        "(<= (legal a (stop ?x)) (true p) (index ?x))\n(index 1)",
        ["g.kif:8:5: error: move '(stop 1)' of role 'a' is not in input, but this rule can make it legal"],
        id="legal"),
    pytest.param(  # the relaxed game has no negation: a body that can never hold still counts
        "(<= (next q) (true p) (not (true p)))",
        ["g.kif:8:5: error: fluent 'q' is not in base, but this rule can make it true"],
        id="relaxed"),
    pytest.param(  # base itself is computed with its negations
        "(<= (base q) (not blocked))\nblocked\n(<= (next q) (true p))",
        ["g.kif:10:5: error: fluent 'q' is not in base, but this rule can make it true"],
        id="base-with-negation"),
    pytest.param(
        "(<= (base q) (not blocked))\n(<= (next q) (true p))",
        [],
        id="base-with-negation-listing-it"),
    pytest.param(  # the rule named is the one that makes the fluent, not the frame rule keeping it
        "(<= (next (c ?x)) (true (c ?x)))\n(<= (next (c 1)) (true p))",
        ["g.kif:9:5: error: fluent '(c 1)' is not in base, but this rule can make it true"],
        id="not-the-frame-rule"),
    pytest.param(  # the relaxed game grounds only what init, next and legal read positively; a helper read
        "(<= (next q) (true p) (not busy))\n(<= busy (true p))",  # under `not` as well changes nothing
        ["g.kif:8:5: error: fluent 'q' is not in base, but this rule can make it true"],
        id="relaxed-helper-under-not"),
    pytest.param(  # a relation read both ways is grounded for its positive reads
        "(<= (next (r ?x)) (helper ?x) (not (helper 2)))\n(<= (helper ?x) (index ?x))\n(index 1)",
        ["g.kif:8:5: error: fluent '(r 1)' is not in base, but this rule can make it true"],
        id="relaxed-read-both-ways"),
]


@pytest.mark.parametrize("extra, expected", RESTRICTIONS + VOCABULARY + DECLARED)
def test_diagnostics_of_a_game(extra, expected):
    assert headers(MINI + extra) == expected


def test_only_the_first_few_missing_fluents_are_listed():
    diagnostics = validate(read_kif(MINI + "(n 1) (n 2) (n 3) (n 4) (n 5) (n 6) (n 7)\n"
                                           "(<= (next (c ?x)) (n ?x))", "g.kif"), "g.kif")
    assert [d.header() for d in diagnostics] == [
        f"g.kif:9:5: error: fluent '(c {i})' is not in base, but this rule can make it true" for i in range(1, 6)]
    assert [d.notes for d in diagnostics] == [()] * 4 + [("2 more fluents not in base",)]


def test_games_without_base_and_input_are_not_checked_for_them():
    text = MINI.replace("(base p) (input a go)", "") + "(<= (next q) (true p))"
    assert headers(text) == [
        "g.kif:1:1: warning: the game defines no 'base'; GGP players that need it must compute it",
        "g.kif:1:1: warning: the game defines no 'input'; GGP players that need it must compute it",
    ]
