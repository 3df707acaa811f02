"""Rules per object become one rule over a class only when that is exact."""

from __future__ import annotations

from tgpl.asp.kif import read_kif, to_kif
from tgpl.lowering.generalize import generalize
from tgpl.lowering.ir import Program

CLASSES = {"tile": ["a", "b", "c"], "seat": ["s0", "s1"]}


def rules(text: str):
    return list(read_kif(text).rules)


def test_rules_for_every_member_become_one_rule_with_the_class():
    out, facts = generalize(rules("""
        (<= (legal p (mark a)) (true (cell a blank)))
        (<= (legal p (mark b)) (true (cell b blank)))
        (<= (legal p (mark c)) (true (cell c blank)))
    """), CLASSES)
    assert to_kif(Program(tuple(out))).strip() == "(<= (legal p (mark ?tile)) (tile ?tile) (true (cell ?tile blank)))"
    assert [str(f.head) for f in facts] == ["(tile a)", "(tile b)", "(tile c)"]


def test_a_missing_member_or_a_different_rule_keeps_them_ground():
    missing = rules("""
        (<= (legal p (mark a)) (true (cell a blank)))
        (<= (legal p (mark b)) (true (cell b blank)))
    """)
    assert generalize(missing, CLASSES) == (missing, [])
    different = rules("""
        (<= (legal p (mark a)) (true (cell a blank)))
        (<= (legal p (mark b)) (true (cell b blank)))
        (<= (legal p (mark c)) (true (cell a blank)))
    """)
    assert generalize(different, CLASSES) == (different, [])


def test_small_classes_and_declarations_stay():
    two = rules("(<= (legal s0 go) (true (turn s0)))\n(<= (legal s1 go) (true (turn s1)))")
    assert generalize(two, CLASSES) == (two, [])  # fewer than three objects: not worth a relation
    inits = rules("(init (cell a blank))\n(init (cell b blank))\n(init (cell c blank))")
    assert generalize(inits, CLASSES) == (inits, [])
