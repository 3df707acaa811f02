"""A relaxed game's rule whose body is a product of unrelated joins is split into a helper per join
(tgpl.asp.cross_products): the relaxed model is the same, and its grounding makes the joins' instances side by
side, not their product."""

from __future__ import annotations

import tgpl.asp.relaxed as relaxed
from tgpl.asp.cross_products import HELPER_PREFIX, split_cross_products
from tgpl.asp.estimate import rule_bounds
from tgpl.asp.gdl_to_asp import ClingoNames
from tgpl.asp.kif import read_kif
from tgpl.lowering.ir import Program

CELLS = 10
COUNT = 20


def game() -> str:
    """A move's two-step walk over a ring of cells (five neighbours each) read beside a ply counter, as Fanorona's
    capture joins read the walk of the move and `(plies gamestate ?p)` only to write the next ply."""
    cells = range(1, CELLS + 1)
    nb = " ".join(f"(nb {c} {(c + k) % CELLS + 1})" for c in cells for k in range(5))
    succ = " ".join(f"(succ {n} {n + 1})" for n in range(COUNT))
    return f"""\
(role a)
{nb}
{succ}
(init (count 0)) (init (stone 1))
(<= (legal a (take ?c)) (true (stone ?c)))
(<= (next (stone ?e)) (does a (take ?c)) (nb ?c ?d) (nb ?d ?e))
(<= (seen ?n) (does a (take ?c)) (nb ?c ?d) (nb ?d ?e) (true (stone ?e)) (true (count ?m)) (succ ?m ?n))
(<= (next (count ?n)) (seen ?n))
(<= terminal (true (count {COUNT})))
(<= (goal a 100) terminal)
"""


def test_a_body_of_unrelated_joins_gets_a_helper_for_each_but_an_atom_of_the_heads_variables():
    program = read_kif("""\
(seed 1) (seed 2) (edge 1 2) (edge 2 3) (step 1 2)
(<= (p ?x ?n) (seed ?y) (edge ?y ?x) (true (count ?m)) (step ?m ?n) (distinct ?y 3))
(<= (q ?x) (seed ?x) (edge ?z 3))
(<= (r ?x) (seed ?x) (edge ?x ?y))
""")
    split = split_cross_products(program)
    helpers = [r for r in split.rules if r.head.relation.startswith(HELPER_PREFIX)]
    assert [(str(h.head), [a.relation for a, _ in h.body_atoms()]) for h in helpers] == [
        (f"({HELPER_PREFIX}0 ?x)", ["seed", "edge"]), (f"({HELPER_PREFIX}1 ?n)", ["true", "step"]),
        (f"{HELPER_PREFIX}2", ["edge"])]
    assert len(helpers[0].body) == 3  # the distinct goes with the join of its variables
    p = next(r for r in split.rules if r.head.relation == "p")
    assert [a.relation for a in p.body] == [f"{HELPER_PREFIX}0", f"{HELPER_PREFIX}1"]
    q = next(r for r in split.rules if r.head.relation == "q")
    assert [a.relation for a in q.body] == ["seed", f"{HELPER_PREFIX}2"]  # an atom of the head's variables kept
    r = next(r for r in split.rules if r.head.relation == "r")
    assert r in program.rules  # one join: left alone
    assert split_cross_products(Program(tuple(x for x in program.rules if x.head.relation == "r"))).rules == (r,)


def relaxed_atoms(program: Program, split: bool, monkeypatch) -> set[str]:
    """The relaxed model's atoms of the game's own relations, with or without the split."""
    names = ClingoNames()
    shown = "".join(f"#show {names.functor(rel)}/{n}.\n" for rel, ns in sorted(program.relations().items())
                    for n in sorted(ns))
    with monkeypatch.context() as m:
        if not split:
            m.setattr(relaxed, "split_cross_products", lambda p: p)
        return {str(s) for s in relaxed.relaxed_model(program, names, [shown], tables={})}


def instances(program: Program) -> int:
    """The most ground instances of the rules of `program` grounded as the relaxed game (tgpl.asp.estimate, whose
    bound of a product is the product)."""
    return sum(b.instances for b in rule_bounds(program))


def test_the_relaxed_model_is_the_same_and_the_product_is_not_grounded(monkeypatch):
    program = read_kif(game())
    with_split = relaxed_atoms(program, True, monkeypatch)
    assert with_split == relaxed_atoms(program, False, monkeypatch)
    assert {f"true(count({COUNT}))", "seen(1)", "does(a,take(10))"} <= with_split
    assert not any(atom.startswith(HELPER_PREFIX) for atom in with_split)
    # the walk's 250 instances times the counter's 21 values, against the two side by side
    walks = CELLS * 5 * 5
    assert instances(program) >= walks * COUNT
    assert instances(split_cross_products(program)) <= 3 * walks + 10 * COUNT
