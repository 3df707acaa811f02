"""Reducing disjunctions of path conditions (tgpl.lowering.minimize): equivalent, and smaller where it can be."""

from __future__ import annotations

import itertools
import random

from tgpl.lowering.minimize import minimize
from tgpl.lowering.symbolic import FALSE, TRUE, FluentLit, Formula, conj, disj, evaluate3, lit, neg

ATOMS = [lit(FluentLit("o", f"a{i}", True)) for i in range(6)]  # independent propositions


def _truth(f: Formula, world: dict) -> bool:
    return evaluate3(f, lambda key: world[key])


def _equivalent(f: Formula, g: Formula, atoms=ATOMS) -> bool:
    for values in itertools.product((False, True), repeat=len(atoms)):
        world = {a.key: v for a, v in zip(atoms, values)}
        if _truth(f, world) != _truth(g, world):
            return False
    return True


def _literals(f: Formula) -> int:
    parts = f.parts if f.kind == "or" else (f,)
    return sum(len(p.parts) if p.kind == "and" else 1 for p in parts)


def _random_dnf(rng: random.Random) -> Formula:
    terms = []
    for _ in range(rng.randint(2, 9)):
        chosen = rng.sample(ATOMS, rng.randint(1, 4))
        terms.append(conj(*(a if rng.random() < 0.5 else neg(a) for a in chosen)))
    return disj(*terms)


def test_random_disjunctions_stay_equivalent_and_never_grow():
    rng = random.Random("minimize")
    shrunk = 0
    for _ in range(300):
        f = _random_dnf(rng)
        g = minimize(f)
        assert _equivalent(f, g), (f, g)
        assert _literals(g) <= _literals(f)
        shrunk += g is not f
    assert shrunk > 50  # it does reduce: adjacent terms merge, consensus finds prime implicants


def test_nested_disjunctions_are_multiplied_out_when_asked():
    x, y, a, b = ATOMS[:4]
    # a path that split on x, then on y where x failed: every outcome made the same write
    f = disj(conj(a, x), conj(a, neg(x), y), conj(a, neg(x), neg(y)))
    assert minimize(f) is a
    nested = conj(disj(conj(a, x), conj(a, neg(x))), b)
    assert minimize(nested, expand=True) is conj(a, b)
    assert minimize(nested) is nested  # without expand, a conjunction is left as it is


def test_an_exact_run_count_becomes_its_windows():
    """Connect Four's `1 + Run(+d) + Run(-d) >= 4`, enumerated by exact run lengths as the executor does,
    is the three windows of four through the cell: no negated literal is left."""
    e = [lit(FluentLit("e", str(i), True)) for i in range(1, 4)]  # same colour 1, 2, 3 cells one way
    f = [lit(FluentLit("f", str(i), True)) for i in range(1, 4)]  # and the other way

    def exactly(cells, n):  # the run stops after n cells (the board ends after 3)
        return conj(*cells[:n], *([neg(cells[n])] if n < len(cells) else []))

    wins = disj(*(conj(exactly(e, i), exactly(f, j)) for i in range(4) for j in range(4) if i + j >= 3))
    out = minimize(wins)
    assert _equivalent(wins, out, e + f)
    terms = {frozenset(t.parts) if t.kind == "and" else frozenset((t,)) for t in out.parts}
    assert terms == {frozenset(e[:i] + f[:3 - i]) for i in range(4)}


def test_a_tautology_becomes_true_and_contradictions_vanish():
    x, y = ATOMS[:2]
    assert minimize(disj(conj(x, y), conj(x, neg(y)), conj(neg(x), y), conj(neg(x), neg(y)))) is TRUE
    assert conj(x, neg(x)) is FALSE


def test_a_later_pass_that_returns_the_same_drops_the_earlier_passes_failure():
    """`G | (!G & b)` is `G | b`: the condition "no earlier pass returned" (the loop's remainder) goes from
    the terms of a later pass that returns what the earlier passes returned."""
    x, y, z, b, c = ATOMS[:5]
    g = disj(conj(x, y), z)  # the earlier pass returned true here
    f = disj(conj(x, y), z, conj(neg(g), b), conj(neg(g), neg(b), c))
    out = minimize(f)
    assert _equivalent(f, out)
    terms = {frozenset(t.parts) if t.kind == "and" else frozenset((t,)) for t in out.parts}
    assert frozenset((b,)) in terms and not any(neg(g) in t for t in terms)
    # not when the earlier pass's condition is not all in the disjunction
    partial = disj(conj(x, y), conj(neg(g), b))
    assert any(neg(g) in (t.parts if t.kind == "and" else (t,)) for t in minimize(partial).parts)
