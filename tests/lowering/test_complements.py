"""Rules that differ in one literal's sign made one (tgpl.lowering.complements): `h :- B, L` and
`h :- B, not L` are `h :- B` in every state; rules alike in less than that are left as they were."""

from __future__ import annotations

from tgpl.lowering.complements import merged_complements
from tgpl.lowering.ir import Atom, Const, Distinct, Not, Program, Rule, Var

P, Q = Var("p"), Var("q")


def atom(name: str, *args) -> Atom:
    return Atom(name, tuple(args))


def test_a_pair_of_signs_is_one_rule_and_the_merged_rules_pair_again():
    rows, rest = atom("rows", P, Q), atom("cond_18", P, Q)
    a, b = atom("stone", Const("s0"), P), atom("stone", Const("s1"), P)
    head = atom("cond_17", P, Q)
    program = Program((
        Rule(head, (rows, rest, a, b)), Rule(head, (rows, rest, Not(a), b)),
        Rule(head, (rows, rest, a, Not(b))), Rule(head, (rows, rest, Not(a), Not(b))),
        Rule(atom("other", P), (atom("rows", P, P),)),
    ))
    merged = merged_complements(program)
    assert merged.rules == (Rule(head, (rows, rest)), Rule(atom("other", P), (atom("rows", P, P),)))


def test_rules_alike_in_less_are_left_as_they_were():
    a = atom("stone", Const("s0"), P)
    program = Program((
        Rule(atom("h", P), (atom("r", P), a)),
        Rule(atom("h", Q), (atom("r", Q), Not(atom("stone", Const("s0"), Q)))),  # other variable names
        Rule(atom("g", P), (atom("r", P), a, atom("t", P))),
        Rule(atom("g", P), (atom("r", P), atom("t", P), Not(a))),  # another order
        Rule(atom("k", P), (atom("r", P), Distinct(P, Const("x")))),
        Rule(atom("k", P), (atom("r", P), Not(atom("t", P)))),  # another literal
        Rule(atom("m", P), (atom("r", P), a)),
        Rule(atom("n", P), (atom("r", P), Not(a))),  # another head
    ))
    assert merged_complements(program) is program


def test_a_rule_pairs_once_and_a_copy_of_it_stays():
    a = atom("stone", Const("s0"), P)
    plain, negated, twice = (Rule(atom("h", P), (atom("r", P), a)), Rule(atom("h", P), (atom("r", P), Not(a))),
                             Rule(atom("h", P), (atom("r", P), a)))
    merged = merged_complements(Program((plain, negated, twice)))
    assert merged.rules == (Rule(atom("h", P), (atom("r", P),)), twice)
