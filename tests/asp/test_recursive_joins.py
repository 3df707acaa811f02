"""The relaxed game's rules that join two literals of their own recursive component are split into joins of two
(tgpl.asp.recursive_joins), and the relaxed model is the same as without the split."""

from __future__ import annotations

import tgpl.asp.relaxed as relaxed
from tgpl.asp.gdl_to_asp import ClingoNames
from tgpl.asp.kif import read_kif
from tgpl.asp.recursive_joins import HELPER_PREFIX, split_recursive_joins
from tgpl.lowering.ir import Atom, Distinct, Program

# A walk along a line of stones, at most `n` steps from cell 1, as the lowering compiles a recursive function:
# the loop over the neighbours (k: 1 the one on the right, 2 none left), the step through the tables, and last
# the result of the walk one cell on, which the loop reads to go on to the next neighbour. Cell 3 never holds a
# stone, so no walk from cell 1 reaches three steps, even in the relaxed game; one from cell 4 reaches one.
WALK = """\
(role a)
(cell 1) (cell 2) (cell 3) (cell 4) (cell 5)
(succ 1 2)
(nb 1 1 2) (nb 2 1 3) (nb 3 1 4) (nb 4 1 5)
(dec 3 2) (dec 2 1) (dec 1 0)
(init (stone 1)) (init (stone 2)) (init (stone 4)) (init (stone 5))
(<= (legal a (take ?c)) (true (stone ?c)))
(<= (next (stone ?c)) (true (stone ?c)) (not (does a (take ?c))))
(<= (walk_call 1 3) (true (stone 1)))
(<= (walk_call 4 1) (true (stone 4)))
(<= (walk_loop ?c ?n 1) (walk_call ?c ?n) (distinct ?n 0))
(<= (walk_call ?d ?m) (walk_loop ?c ?n ?k) (nb ?c ?k ?d) (true (stone ?d)) (dec ?n ?m))
(<= (walk_join ?c ?n ?k) (walk_loop ?c ?n ?k) (nb ?c ?k ?d) (not (true (stone ?d))))
(<= (walk_join ?c ?n ?k) (walk_loop ?c ?n ?k) (nb ?c ?k ?d) (true (stone ?d)) (dec ?n ?m) (walk ?d ?m no))
(<= (walk_loop ?c ?n ?j) (walk_join ?c ?n ?k) (succ ?k ?j))
(<= (walk ?c 0 yes) (walk_call ?c 0))
(<= (walk ?c ?n yes) (walk_loop ?c ?n ?k) (nb ?c ?k ?d) (true (stone ?d)) (dec ?n ?m) (walk ?d ?m yes))
(<= (walk ?c ?n no) (walk_loop ?c ?n 2))
(<= terminal (walk 1 3 yes))
(<= (goal a 100) (walk 1 3 yes))
(<= (goal a 0) (walk 1 3 no))
"""


def helpers(program: Program) -> list:
    return [r for r in program.rules if r.head.relation.startswith(HELPER_PREFIX)]


def model(program: Program, split: bool, monkeypatch) -> set:
    """The relaxed model's atoms of every relation of `program`, with or without the split."""
    names = ClingoNames()
    shown = "".join(f"#show {names.functor(rel)}/{n}.\n" for rel, ns in sorted(program.relations().items())
                    for n in sorted(ns))
    with monkeypatch.context() as m:
        if not split:
            m.setattr(relaxed, "split_recursive_joins", lambda p: p)
        return {str(s) for s in relaxed.relaxed_model(program, names, [shown], tables={})}


def test_a_walk_reading_its_own_result_is_split_into_a_helper_and_the_result():
    program = read_kif(WALK)
    split = split_recursive_joins(program)
    made = helpers(split)
    # the two rules reading `walk` after `walk_loop` and the same tables share one helper
    assert len(made) == 1
    helper = made[0]
    assert [a.relation for a, _ in helper.body_atoms()][0] == "walk_loop"
    assert "walk" not in {a.relation for a, _ in helper.body_atoms()}
    # what the heads and the last literal need of the body, no more (the table's own `?k` only for the join)
    assert [v.name for v in helper.head.variables()] == ["c", "n", "k", "d", "m"]
    outer = [r for r in split.rules if any(a.relation == helper.head.relation for a, _ in r.body_atoms())]
    assert sorted(r.head.relation for r in outer) == ["walk", "walk_join"]
    for rule in outer:
        assert [a.relation for a in rule.body] == [helper.head.relation, "walk"]
    # the rules with one literal of their component are left as they are
    unsplit = [r for r in program.rules if not any(a.relation == "walk" for a, _ in r.body_atoms())]
    assert all(r in split.rules for r in unsplit)
    assert len(split.rules) == len(program.rules) + 1


def test_the_relaxed_model_is_the_same_with_the_split(monkeypatch):
    program = read_kif(WALK)
    with_split = model(program, True, monkeypatch)
    without = model(program, False, monkeypatch)
    assert with_split == without
    assert {"walk(4,1,yes)", "walk(1,3,no)", "walk_join(2,2,1)"} <= with_split
    assert "walk(1,3,yes)" not in with_split
    assert not any(atom.startswith(HELPER_PREFIX) for atom in with_split)


def test_a_split_that_would_make_a_cross_product_is_not_made():
    program = read_kif("""\
(edge 1) (edge 2) (seed 1)
(<= (h2 ?x) (seed ?x))
(<= (h2 ?x) (h ?x ?y))
(<= (h ?x ?y) (h2 ?x) (edge ?y) (h ?y ?x))
(<= (h ?x ?x) (h2 ?x))
""")
    assert split_recursive_joins(program) is program


def test_a_distinct_on_what_only_the_last_literal_binds_stays_beside_it(monkeypatch):
    program = read_kif("""\
(edge 1 2) (edge 2 3) (edge 3 1) (seed 1 0)
(<= (h ?x ?z) (seed ?x ?z))
(<= (h2 ?x) (h ?x ?z))
(<= (h ?y 1) (h2 ?x) (edge ?x ?y) (h ?y ?z) (distinct ?z 1))
""")
    split = split_recursive_joins(program)
    outer = [r for r in split.rules if r.head.relation == "h" and len(r.body) == 3]
    assert len(outer) == 1
    assert isinstance(outer[0].body[2], Distinct)
    assert model(program, True, monkeypatch) == model(program, False, monkeypatch)


def test_a_join_of_two_whose_helper_would_copy_a_literal_is_not_split(monkeypatch):
    # `(h ?x ?y)` joined with `(h2 ?y)`: the helper of the first would export both its variables (the head and
    # the last literal read them), a copy of `h`'s atoms (pente 9x9's relaxed game: 1.8 M of its 6.0 M atoms)
    program = read_kif("""\
(seed 1 2) (seed 2 3) (seed 3 1)
(<= (h ?x ?y) (seed ?x ?y))
(<= (h2 ?y) (h ?x ?y))
(<= (h ?y ?x) (h ?x ?y) (h2 ?y))
""")
    assert split_recursive_joins(program) is program
    # where the helper would drop a variable (`?z`, which nothing after it reads), the split is still made
    projected = read_kif("""\
(seed 1 2 0) (seed 2 3 0)
(<= (h ?x ?y ?z) (seed ?x ?y ?z))
(<= (h2 ?y) (h ?x ?y ?z))
(<= (h ?y ?x 1) (h ?x ?y ?z) (h2 ?y))
""")
    split = split_recursive_joins(projected)
    assert len(helpers(split)) == 1
    assert [v.name for v in helpers(split)[0].head.variables()] == ["x", "y"]
    for p in (program, projected):
        assert model(p, True, monkeypatch) == model(p, False, monkeypatch)
