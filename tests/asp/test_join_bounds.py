"""A rule's bound joined greedily from each of its atoms (tgpl.asp.estimate._join_bound), its factors and the
rests of its greedy orders shared between the starts, and the bounds of a few rules (`rule_bounds`'s `which`),
as the unfolding asks them (tgpl.lowering.unfold)."""

from __future__ import annotations

import random

import pytest

import tgpl.asp.estimate as estimate
from tgpl.asp.estimate import rule_bounds
from tgpl.asp.kif import read_kif
from tgpl.lowering.unfold import unfold_single_readers


def greedy_from_each_start(rule, sizes, exact, degrees) -> int:
    """The bound as written before the factors were shared: from each atom, every factor asked again at each
    step, the smallest joined next (the first of the least), the least of the products kept."""
    atoms = list(estimate._join_atoms(rule))

    def greedy(left, bound, total):
        left = list(left)
        while left:
            factors = [estimate._factor(entry, bound, sizes, exact, degrees) for entry in left]
            i = min(range(len(factors)), key=factors.__getitem__)
            total *= factors[i]
            bound = bound | left.pop(i)[1]
        return total

    if len(atoms) <= 1:
        return greedy(atoms, frozenset(), 1)
    return min(greedy(atoms[:i] + atoms[i + 1:], atoms[i][1],
                      estimate._factor(atoms[i], frozenset(), sizes, exact, degrees)) for i in range(len(atoms)))


def reference_bounds(program) -> list[int]:
    positions = estimate._Positions()
    estimate._add_facts(program.rules, positions)
    plain, readers = estimate._with_bodies(program.rules)
    assert estimate._settle(plain, readers, positions)
    exact = estimate._exact_relations(program.rules, {(r.head.relation, r.head.arity) for r, _ in plain})
    degrees = estimate.Degrees()
    out = []
    for _, disjuncts in plain:
        total = 0
        for each in disjuncts:
            binding = estimate._binding(each, positions)
            if binding is not None:
                total += greedy_from_each_start(each, {n: d.size() for n, d in binding.items()}, exact, degrees)
        out.append(total)
    return out


def random_program(seed: int) -> str:
    """Tables of pairs and rules joining six to twelve of them (and each other) over a few variables: every
    table holds a pair, so no factor is 0."""
    rng = random.Random(seed)
    facts = []
    for t in range(4):
        pairs = {(rng.randrange(6), rng.randrange(6)) for _ in range(rng.randrange(1, 12))}
        facts += [f"(t{t} {a} {b})" for a, b in sorted(pairs)]
    rules = []
    for r in range(6):
        names = [f"?v{k}" for k in range(rng.randrange(3, 9))]
        body = []
        for _ in range(rng.randrange(6, 13)):
            rel = f"t{rng.randrange(4)}" if r == 0 or rng.random() < 0.8 else f"d{rng.randrange(r)}"
            body.append(f"({rel} {rng.choice(names)} {rng.choice(names)})")
        read = sorted({v for b in body for v in b[1:-1].split()[1:]})
        rules.append(f"(<= (d{r} {read[0]} {read[-1]}) {' '.join(body)})")
    return "\n".join(facts + rules) + "\n"


@pytest.mark.parametrize("seed", range(12))
def test_the_shared_greedy_joins_give_the_bounds_of_each_start_joined_alone(seed):
    program = read_kif(random_program(seed))
    assert [b.instances for b in rule_bounds(program)] == reference_bounds(program)


def chain(n: int):
    """A rule reading n steps of a derived relation, each atom of two variables: its factors are the variables'
    domains (no table bounds them), every start joins the whole chain at the same product, and none is cut
    short by a better one found before."""
    facts = "".join(f"(succ {i} {i + 1})\n" for i in range(10)) + "(<= (step ?x ?y) (succ ?x ?y))\n"
    steps = " ".join(f"(step ?x{k} ?x{k + 1})" for k in range(n))
    return read_kif(facts + f"(<= (run ?x0 ?x{n}) {steps})\n")


def test_each_atom_of_a_long_rule_is_asked_its_factor_once_per_set_of_its_variables_bound(monkeypatch):
    # thirty atoms of two variables each: at most four factors each, where every start asked its own (about
    # one per atom per start, 900)
    program = chain(30)
    expected = reference_bounds(program)
    asked = []
    real = estimate._factor
    monkeypatch.setattr(estimate, "_factor", lambda *a: asked.append(a[0]) or real(*a))
    assert [b.instances for b in rule_bounds(program)] == expected
    assert 0 < len(asked) <= 4 * 30 + 1  # and the one of `step`'s rule


def test_rule_bounds_of_the_rules_asked_are_those_of_the_whole_list():
    program = read_kif(random_program(3))
    every = rule_bounds(program)
    asked = {every[1].rule, every[4].rule}
    assert rule_bounds(program, which=asked.__contains__) == [every[1], every[4]]


def test_the_unfolding_bounds_only_the_rules_it_compares(monkeypatch):
    # `a` is read once, by `h`: its rule and `h`'s are compared with the rule made of them; the twenty rules
    # read by nothing are not bounded (they were, twice, before and after the trial)
    others = "".join(f"(<= (u{i} ?x) (p ?x) (q ?x))\n" for i in range(20))
    program = read_kif("(p 1)\n(p 2)\n(q 2)\n(<= (a ?x) (p ?x))\n(<= (h ?x) (a ?x) (q ?x))\n" + others)
    bounded = []
    real = estimate._bound
    monkeypatch.setattr(estimate, "_bound", lambda rule, *a: bounded.append(rule.head.relation) or real(rule, *a))
    out = unfold_single_readers(program)
    assert sorted(bounded) == ["a", "h", "h"]
    assert "a" not in {r.head.relation for r in out.rules}
    (h,) = [r for r in out.rules if r.head.relation == "h"]
    assert [x.relation for x in h.body] == ["p", "q"]
