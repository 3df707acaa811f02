"""Comparisons of one number that another in the same conjunction implies (tgpl.lowering.implied): dropped, and
the result equivalent to the term for every value of the number, null included; a term whose comparisons
contradict is no way at all."""

from __future__ import annotations

import itertools

import pytest

from tgpl.lowering.implied import simplified, without_implied
from tgpl.lowering.segments import cmp_value
from tgpl.lowering.symbolic import FALSE, CmpLit, FluentLit, Formula, Num, conj, disj, evaluate3, lit, neg

SEEDS = Num("fluent", ("pit", "Seeds"))
OTHER = Num("fluent", ("pit", "Other"))
FLAG = lit(FluentLit("o", "flag", True))  # made anew for each test (`fresh_formulas`)
OPS = ("==", "<", ">", "<=", ">=")


@pytest.fixture(autouse=True)
def fresh_formulas():
    """FLAG made after a fresh formula table: a lowering run earlier in the same process (another test, in any
    order) restarts the formulas' numbering, and a formula made at import could share its number, which
    `evaluate3`'s memo keys on, with one made in the test."""
    global FLAG
    Formula.fresh_table()
    FLAG = lit(FluentLit("o", "flag", True))


def hand(passes: int) -> Num:
    """The seeds left in hand after `passes` passes of Kalah's sowing loop, as the executor writes them."""
    x = SEEDS
    for _ in range(passes):
        x = Num("-", (x, 1.0))
    return x


def compare(op: str, left, right) -> Formula:
    return lit(CmpLit(op, left, right))


def truth(f: Formula, seeds: float | None, other: float | None = 0.0, flag: bool = True) -> bool:
    env = {("pit", "Seeds"): seeds, ("pit", "Other"): other}

    def known(key):
        if isinstance(key, CmpLit):
            return bool(cmp_value(key, env))
        return flag
    return evaluate3(f, known)


VALUES = [None, -1.0, 0.0, 0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 13.0, 14.0, 15.0, 20.0]


def equivalent(f: Formula, g: Formula) -> bool:
    return all(truth(f, x, y, b) == truth(g, x, y, b)
               for x in VALUES for y in (None, 0.0, 3.0) for b in (False, True))


def test_a_loop_that_ran_fourteen_passes_keeps_two_comparisons():
    """`hand > 0` tested pass after pass: the way that sowed 14 seeds, 15 comparisons, is `pit > 13 & !(pit > 14)`."""
    tests = [compare(">", hand(k), 0.0) for k in range(14)] + [neg(compare(">", hand(14), 0.0))]
    term = frozenset([FLAG, *tests])
    kept = without_implied(term)
    assert kept == frozenset([FLAG, tests[13], tests[14]])
    assert equivalent(conj(*term), conj(*kept))


def test_an_equality_implies_every_other_comparison_of_its_number():
    eq = compare("==", SEEDS, 14.0)
    others = [compare(">", SEEDS, 3.0), neg(compare("<", SEEDS, 2.0)), compare("<=", hand(1), 13.0),
              neg(compare("==", SEEDS, 15.0)), compare(">=", 20.0, SEEDS)]
    term = frozenset([eq, *others])
    assert without_implied(term) == frozenset([eq])


def test_a_contradiction_is_no_term():
    assert without_implied(frozenset([compare(">", hand(14), 0.0), neg(compare(">", hand(13), 0.0))])) is None
    assert without_implied(frozenset([compare("==", SEEDS, 3.0), compare("==", SEEDS, 4.0)])) is None
    f = disj(conj(FLAG, compare("<", SEEDS, 1.0), compare(">", SEEDS, 2.0)), neg(FLAG))
    assert simplified(f, {}) is neg(FLAG)


def test_a_negation_is_true_of_null_and_never_implied_by_a_comparison_that_is_not():
    """`!(x > 3)` holds where x is null, `x < 3` does not: the first goes (the second implies it), never the
    second; `!(x > 3)` and `x < 5` imply neither the other, and the term stays as it was."""
    term = frozenset([neg(compare(">", SEEDS, 3.0)), compare("<", SEEDS, 3.0)])
    assert without_implied(term) == frozenset([compare("<", SEEDS, 3.0)])
    term = frozenset([neg(compare(">", SEEDS, 3.0)), compare("<", SEEDS, 5.0)])
    assert without_implied(term) is term
    term = frozenset([neg(compare(">=", SEEDS, 5.0)), neg(compare(">", SEEDS, 3.0))])
    assert without_implied(term) == frozenset([neg(compare(">", SEEDS, 3.0))])
    term = frozenset([neg(compare(">", SEEDS, 3.0)), neg(compare("<", SEEDS, 1.0))])
    assert without_implied(term) is term


def test_other_numbers_and_sums_are_apart():
    a, b = compare(">", SEEDS, 3.0), compare(">", OTHER, 5.0)
    term = frozenset([a, b])
    assert without_implied(term) is term
    summed = compare(">", Num("+", (SEEDS, OTHER)), 4.0)
    term = frozenset([a, summed, compare(">", Num("+", (OTHER, SEEDS)), 2.0)])
    assert without_implied(term) == frozenset([a, summed])
    cancelled = compare(">", Num("-", (Num("+", (SEEDS, OTHER)), OTHER)), 1.0)  # null where Other is
    term = frozenset([neg(cancelled), neg(compare(">", SEEDS, 2.0))])
    assert without_implied(term) is term
    two = frozenset([compare("<", Num("+", (SEEDS, 2.0)), OTHER), neg(compare(">", Num("+", (SEEDS, 2.0)), OTHER))])
    assert without_implied(two) is two  # two numbers of the state compared: left as written
    halves = frozenset([compare(">", Num("*", (SEEDS, 0.5)), 1.0), compare(">", SEEDS, 1.0)])
    assert without_implied(halves) is halves


def test_every_pair_of_comparisons_stays_equivalent():
    """Every pair of comparisons of one number, either sign, with constants around each other: the term kept
    holds exactly where the term did (or it is None, and the term never held)."""
    literals = [compare(op, side, k) if side is SEEDS else compare(op, k, SEEDS)
                for op in OPS for k in (2.0, 3.0) for side in (SEEDS, None)]
    literals += [neg(x) for x in literals]
    for a, b in itertools.product(literals, repeat=2):
        term = frozenset([a, b, FLAG])
        kept = without_implied(term)
        whole = conj(*term)
        assert equivalent(whole, FALSE if kept is None else conj(*kept)), (a, b)
        assert kept is None or len(kept) <= len(term)


def test_simplified_keeps_a_formula_where_nothing_goes():
    f = disj(conj(FLAG, compare(">", SEEDS, 1.0)), conj(neg(FLAG), compare(">", OTHER, 1.0)))
    assert simplified(f, {}) is f
    g = disj(conj(FLAG, compare(">", SEEDS, 1.0), compare(">", hand(1), 1.0)), neg(FLAG))
    assert simplified(g, {}) is disj(conj(FLAG, compare(">", hand(1), 1.0)), neg(FLAG))
