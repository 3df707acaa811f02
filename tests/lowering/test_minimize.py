"""Reducing disjunctions of path conditions (tgpl.lowering.minimize): equivalent, and smaller where it can be."""

from __future__ import annotations

import itertools
import random

import pytest

from tgpl.lowering.minimize import minimize
from tgpl.lowering.symbolic import FALSE, TRUE, FluentLit, Formula, conj, disj, evaluate3, lit, neg

ATOMS: list[Formula] = []  # independent propositions, made anew for each test (`fresh_formulas`)


@pytest.fixture(autouse=True)
def fresh_formulas():
    """The atoms made after a fresh formula table: a lowering run earlier in the same process (another test,
    in any order) restarts the formulas' numbering, and an atom made at import could share its number, which
    memos key on, with a formula made in the test."""
    Formula.fresh_table()
    ATOMS[:] = [lit(FluentLit("o", f"a{i}", True)) for i in range(6)]


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


def test_a_chain_of_early_returns_becomes_its_cells_within_the_budget():
    """"The first cell where a domino fits" (a loop returning at the first pass that holds, as
    tests/data/designers/domineering.tgpl's CanPlace): `F1 | (!F1 & F2) | (!F1 & !F2 & F3) | ...`. Its prime
    implicants are the cells, `F1 | F2 | ...`; the consensus of any two made every subset of the negations first
    and ran out of MAX_STEPS at 16 cells (None: the condition was left as it was, 0.8 s spent each time).
    Self-subsuming resolution (minimize._strengthened) drops the negations first."""
    from tgpl.lowering.minimize import prime_implicants

    cells = [lit(FluentLit("fits", f"c{i}", True)) for i in range(16)]
    chain = [frozenset((*(neg(c) for c in cells[:i]), cells[i])) for i in range(len(cells))]
    assert prime_implicants(chain) == [frozenset((c,)) for c in cells]
    out = minimize(disj(*(conj(*t) for t in chain)))
    assert set(out.parts) == set(cells)


def test_self_subsuming_resolution_keeps_the_prime_implicants(monkeypatch):
    """Dropping `!x` from `B & !x` where `A & x` has A within B changes the terms the consensus starts from, not
    the prime implicants it ends with: the same set as the consensus of any two gives from the terms as they came
    (random disjunctions)."""
    from tgpl.lowering import minimize as m

    rng = random.Random("strengthen")
    cases = []
    for _ in range(200):
        f = _random_dnf(rng)
        parts = f.parts if f.kind == "or" else (f,)
        cases.append((f, [frozenset(t.parts) if t.kind == "and" else frozenset((t,)) for t in parts]))
    primes = [m.prime_implicants(terms) for _, terms in cases]
    for f, terms in cases:
        strengthened, _ = m._strengthened(m._absorb(terms))
        assert _equivalent(disj(*(conj(*t) for t in strengthened)), f)
    monkeypatch.setattr(m, "_strengthened", lambda terms, check=None: (terms, 0))
    m.forget()  # the answers kept are the strengthened consensus's
    assert [m.prime_implicants(terms) for _, terms in cases] == primes
    cells = [lit(FluentLit("fits", f"c{i}", True)) for i in range(16)]
    chain = [frozenset((*(neg(c) for c in cells[:i]), cells[i])) for i in range(len(cells))]
    assert m.prime_implicants(chain) is None  # the chain above, without it: past MAX_STEPS


def test_the_prime_implicants_are_kept_for_terms_asked_again(monkeypatch):
    """The same terms asked again get the same answer without a consensus (random disjunctions), a copy the caller
    may change; terms holding a conjunction are computed each time (conj makes formulas)."""
    from tgpl.lowering import minimize as m

    m.forget()
    rng = random.Random("kept")
    cases = []
    for _ in range(100):
        f = _random_dnf(rng)
        cases.append([frozenset(t.parts) if t.kind == "and" else frozenset((t,)) for t in
                      (f.parts if f.kind == "or" else (f,))])
    first = [m.prime_implicants(terms) for terms in cases]
    computed = [0]
    compute = m._prime_implicants

    def counted(terms, check=None):
        computed[0] += 1
        return compute(terms, check)

    monkeypatch.setattr(m, "_prime_implicants", counted)
    again = [m.prime_implicants(list(terms)) for terms in cases]
    assert again == first and computed[0] == 0
    for primes in again:
        if primes is not None:
            primes.clear()
    assert [m.prime_implicants(terms) for terms in cases] == first
    nested = [frozenset((ATOMS[0], conj(ATOMS[1], ATOMS[2]))), frozenset((neg(ATOMS[0]), ATOMS[3]))]
    assert m.prime_implicants(nested) == m.prime_implicants(nested) and computed[0] == 2
    m.forget()
    assert [m.prime_implicants(terms) for terms in cases] == first and computed[0] == 2 + len(set(map(tuple, cases)))


def test_the_consensus_gives_up_within_its_comparisons(monkeypatch):
    """Terms that all share their last-made conjunct are filed under it (`_Family`), so asking whether a
    candidate is covered compares it with every term so far: MAX_STEPS pairs of up to MAX_TERMS terms each.
    Kalah's path conditions (tests/data/designers/kalah.tgpl, spelled out) are so, and each of hundreds of
    disjunctions in its emission compared up to 57,000,000 terms in 1 to 3 s before MAX_TERMS gave up. The
    comparisons are budgeted (MAX_TESTS): this one, 23,000,000 before, gives up after about 500,000, with the
    same answer (None: the condition is left as it was)."""
    from tgpl.lowering import minimize as m

    compared = [0]
    covers = m._Family.covers

    def counted(self, r):
        if not self.empty:
            for c in r:
                filed = self.by_last.get(c.id, ())
                compared[0] += len(filed)
                if any(k <= r for k in filed):
                    break
        return covers(self, r)

    monkeypatch.setattr(m._Family, "covers", counted)
    m.forget()  # compared, not an answer kept
    atoms = [lit(FluentLit("o", f"x{i}", True)) for i in range(12)]
    shared = lit(FluentLit("o", "shared", True))  # made last: every term is filed under it
    rng = random.Random(1)
    terms = [frozenset([shared, *(a if rng.random() < 0.5 else neg(a) for a in rng.sample(atoms, 4))])
             for _ in range(40)]
    assert m.prime_implicants(terms) is None
    assert m.MAX_TESTS < compared[0] < 1_000_000, compared[0]
    f = disj(*(conj(*t) for t in terms))
    assert minimize(f) is f or _equivalent(minimize(f), f, atoms + [shared])


def test_multiplying_out_compares_only_what_each_product_adds(monkeypatch):
    """`_expand` extends a product of a long path condition by one option of a disjunction at a time; whether the
    extension is contradictory is asked of the option's conjuncts against what the product assigns
    (symbolic.Conjuncts), not of every conjunct again. A term of 40 literals and four disjunctions of three values
    of one cell each (Kalah's conditions are such, dozens of conjuncts): 120 extensions, which looked at the cells
    of 40 to 44 conjuncts each before (about 5,000 looks), now at one each, and once at each option (the
    conjuncts `clash` is asked about, counted). The products are those `_contradictory` left, in the same order."""
    from tgpl.lowering import minimize as m
    from tgpl.lowering import symbolic

    looked = [0]
    whole = m.clash

    def counted(parts):
        looked[0] += len(parts)
        return whole(parts)

    base = [lit(FluentLit("o", f"long{i}", True)) for i in range(40)]
    cells = [[lit(FluentLit(f"c{j}", "v", k)) for k in range(3)] for j in range(4)]
    f = conj(*base, *(disj(*values) for values in cells), neg(cells[0][0]), cells[1][2])
    monkeypatch.setattr(m, "clash", counted)
    terms = m._expand(f)
    assert 0 < looked[0] < 300, looked[0]
    old = [frozenset()]
    for c in sorted(m._term(f), key=symbolic.by_id):
        options = [m._term(q) for q in c.parts] if c.kind == "or" else [frozenset((c,))]
        old = [t for a in old for b in options if not m._contradictory(t := a | b)]
    assert terms == old and len(terms) == 2 * 1 * 3 * 3


def test_a_consensus_clashes_exactly_when_the_whole_term_does():
    """`_Consensus.clashes` asks only the conjuncts the second term adds to the first (less a), against the
    first's cells and negations: the same answer as `clash` of the whole consensus, for clash-free terms whose
    cells take several values (Kalah's seeds), negations and plain propositions."""
    from tgpl.lowering import minimize as m
    from tgpl.lowering.symbolic import clash

    values = [[lit(FluentLit("pit", f"c{j}", v)) for v in range(3)] for j in range(3)]
    pool = [x for cell in values for x in cell] + ATOMS[:4]
    pool += [neg(x) for x in pool]
    rng = random.Random("consensus")
    plain = m._Consensus()
    asked = clashed = 0
    for _ in range(3000):
        t1, t2 = (frozenset(rng.sample(pool, rng.randint(2, 6))) for _ in range(2))
        opposed = [c for c in t1 if c.kind != "not" and neg(c) in t2]
        if clash(t1) or clash(t2) or not opposed:
            continue
        a = opposed[0]
        r = (t1 - {a}) | (t2 - {neg(a)})
        assert plain.clashes(t1, a, r) == clash(r), (t1, t2, a)
        asked += 1
        clashed += clash(r)
    assert asked > 100 and 0 < clashed < asked


def test_multiplying_out_a_run_of_literals_at_once_keeps_the_products_and_the_budget(monkeypatch):
    """`_expand` extends the products by the literals between two disjunctions at once (`minimize._steps`): the
    same products in the same order as one conjunct at a time, and None (past MAX_TERMS) for the same
    disjunctions, on random terms of cell literals, negations and disjunctions, with a budget small enough to
    be passed."""
    from tgpl.lowering import minimize as m
    from tgpl.lowering import symbolic

    def one_by_one(f):
        out = []
        for p in (f.parts if f.kind == "or" else (f,)):
            products = [frozenset()]
            for c in sorted(m._term(p), key=symbolic.by_id):
                options = [m._term(q) for q in c.parts] if c.kind == "or" else [frozenset((c,))]
                products = [t for a in products for b in options if not m._contradictory(t := a | b)]
                if len(products) + len(out) > m.MAX_TERMS:
                    return None
            out.extend(products)
        return out

    monkeypatch.setattr(m, "MAX_TERMS", 6)
    cells = [[lit(FluentLit("pit", f"c{j}", v)) for v in range(3)] for j in range(4)]
    pool = [x for cell in cells for x in cell] + ATOMS
    rng = random.Random("steps")
    gave_up = kept = 0
    for _ in range(300):
        terms = []
        for _ in range(rng.randint(1, 3)):
            parts = [x if rng.random() < 0.7 else neg(x) for x in rng.sample(pool, rng.randint(1, 5))]
            parts += [disj(*rng.sample(pool, rng.randint(2, 3))) for _ in range(rng.randint(0, 2))]
            terms.append(conj(*parts))
        f = disj(*terms)
        if f is FALSE or f is TRUE:
            continue
        expected = one_by_one(f)
        assert m._expand(f) == expected, f
        gave_up += expected is None
        kept += expected is not None
    assert gave_up > 10 and kept > 100
