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


# ------------------------------------------------------------------ fold and merge_relations
import itertools  # noqa: E402

import clingo  # noqa: E402

from tgpl.asp.gdl_to_asp import ClingoNames, rules_to_asp  # noqa: E402
from tgpl.lowering.generalize import fold, merge_relations  # noqa: E402
from tgpl.lowering.ir import Const  # noqa: E402

CELLS = ["a", "b", "c"]
VALUES = ["null", "x", "o"]


def fluent_domain(kind, node, j):
    """Every cell of these tests holds one of VALUES."""
    return set(VALUES) if kind in ("fluent", "relation") and j == 1 and node.args[0].name in CELLS else None


def meanings(rs: list, shown: set[str]) -> set[frozenset[str]]:
    """The `shown` atoms derived in every state: each cell holds one value (as `true (v cell value)`)."""
    names = ClingoNames()
    text = rules_to_asp(Program(tuple(rs)), names)
    out = set()
    for values in itertools.product(VALUES, repeat=len(CELLS)):
        ctl = clingo.Control(["--warn=none"])
        state = "".join(f"true(v({c},{x})).\n" for c, x in zip(CELLS, values))
        ctl.add("base", [], text + state)
        ctl.ground([("base", [])])
        with ctl.solve(yield_=True) as handle:
            model = next(iter(handle))
            atoms = frozenset(str(s) for s in model.symbols(atoms=True) if s.name in shown)
        out.add((values, atoms))
    return out


def merged(original: list, tables: dict | None = None) -> tuple[list, list, str]:
    """merge_relations' rules and facts, and the rules as one line of KIF."""
    out, facts = merge_relations(original, tables)
    return out, facts, " ".join(to_kif(Program(tuple(out))).split())


def test_rules_alike_but_for_a_value_fold_into_one_rule_bound_by_the_fluent():
    original = rules("""
        (<= same (true (v a null)) (true (v b null)))
        (<= same (true (v a x)) (true (v b x)))
        (<= same (true (v a o)) (true (v b o)))
        (<= (goal r 100) same)
    """)
    out, facts = fold(original, fluent_domain)
    assert facts == []
    assert to_kif(Program(tuple(out))).splitlines()[0] == "(<= same (true (v a ?x1)) (true (v b ?x1)))"
    assert meanings(out, {"same", "goal"}) == meanings(original, {"same", "goal"})


def test_a_value_subset_or_several_constants_fold_through_a_table():
    original = rules("""
        (<= held (true (v a x)) (true (v b x)))
        (<= held (true (v a o)) (true (v b o)))
        (<= (line a b c) (true (v a x)) (true (v b x)) (true (v c x)))
        (<= (line b c a) (true (v b x)) (true (v c x)) (true (v a x)))
        (<= (line c a b) (true (v c x)) (true (v a x)) (true (v b x)))
    """)
    out, facts = fold(original, fluent_domain)
    text = to_kif(Program(tuple(out)))
    assert "(line_args ?x1 ?x2 ?x3)" in text and len(facts) == 3
    # two rules over a value subset {x, o}: no table saves a rule, and null must not hold `held`
    assert text.count("(<= held") == 2
    program = out + facts
    assert meanings(program, {"held", "line"}) == meanings(original, {"held", "line"})


def test_relations_defined_alike_merge_into_one_relation_of_their_constants():
    original = rules("""
        (<= eq1 (true (v a ?w)) (true (v b ?w)))
        (<= eq2 (true (v b ?w)) (true (v c ?w)))
        (<= eq3 (true (v c ?w)) (true (v a ?w)))
        (<= won eq1 eq2)
        (<= open (not eq3))
    """)
    out, facts, text = merged(original)
    assert "(<= (eq1 ?p1 ?p2) (eq1_rows ?p1 ?p2) (true (v ?p1 ?w)) (true (v ?p2 ?w)))" in text
    assert "(<= won (eq1 a b) (eq1 b c))" in text and "(<= open (not (eq1 c a)))" in text
    assert len(facts) == 3
    assert meanings(out + facts, {"won", "open"}) == meanings(original, {"won", "open"})


def test_relations_with_arguments_merge_with_their_constants_after_the_arguments():
    # chess's per-move conditions `(cond_8240 ?p1)`, `(cond_8242 ?p1)`: alike but for the squares; the merge
    # keeps the relation's own argument first and its own variable apart from the new parameters
    original = rules("""
        (<= (hold1 ?p1) (true (v a ?p1)) (true (v b ?p1)))
        (<= (hold2 ?p1) (true (v b ?p1)) (true (v c ?p1)))
        (<= (hold3 ?p1) (true (v c ?p1)) (true (v a ?p1)))
        (<= (won ?x) (hold1 ?x) (hold2 ?x))
        (<= (open ?x) (true (v a ?x)) (not (hold3 ?x)))
    """)
    out, facts, text = merged(original)
    assert "(<= (hold1 ?p1 ?p2 ?p3) (hold1_rows ?p2 ?p3) (true (v ?p2 ?p1)) (true (v ?p3 ?p1)))" in text
    assert "(<= (won ?x) (hold1 ?x a b) (hold1 ?x b c))" in text and "(not (hold1 ?x c a))" in text
    assert len(facts) == 3
    assert meanings(out + facts, {"won", "open"}) == meanings(original, {"won", "open"})


def test_relations_alike_but_for_the_tables_they_read_merge_with_one_tagged_table():
    # relations merged in an earlier round read their own table of rows; alike otherwise, they merge again
    tables = rules("""
        (rows1 x) (rows1 o)
        (rows2 o)
    """)
    original = rules("""
        (<= (hold1 ?p1) (rows1 ?p1) (true (v a ?p1)) (true (v b ?p1)))
        (<= (hold2 ?p1) (rows2 ?p1) (true (v b ?p1)) (true (v c ?p1)))
        (<= (won ?x) (hold1 ?x) (hold2 ?x))
        (<= (open ?x) (true (v a ?x)) (not (hold2 ?x)))
    """)
    rows = {}
    for r in tables:
        rows.setdefault(r.head.relation, []).append(r.head.args)
    out, facts, text = merged(original, rows)
    assert "(<= (hold1 ?p1 ?p2 ?p3 ?p4) (hold1_rows ?p2 ?p3 ?p4) (hold1_table1 ?p1 ?p2)" in text
    assert "(<= (won ?x) (hold1 ?x 1 a b) (hold1 ?x 2 b c))" in text
    # the tags are numbers: a table's name as a constant would give that symbol a second arity
    assert "rows1" not in text and "rows2" not in text
    assert sorted(str(f) for f in facts if f.head.relation == "hold1_table1") == [
        "(hold1_table1 o 1)", "(hold1_table1 o 2)", "(hold1_table1 x 1)"]
    assert meanings(out + facts + tables, {"won", "open"}) == meanings(original + tables, {"won", "open"})


def test_rules_alike_but_for_the_tables_they_read_fold_over_one_tagged_table():
    # chess's `(unmoved_endphase ?x1 no)` rules, one per move, each reading its own `_args` table
    tables = rules("""
        (t1 a) (t2 b) (t2 c) (t3 c)
    """)
    original = rules("""
        (<= (held ?x) (t1 ?x) (true (v ?x x)) (true (v a o)))
        (<= (held ?x) (t2 ?x) (true (v ?x x)) (true (v b o)))
        (<= (held ?x) (t3 ?x) (true (v ?x x)) (true (v c o)))
    """)
    rows = {}
    for r in tables:
        rows.setdefault(r.head.relation, []).append(r.head.args)
    out, facts = fold(original, fluent_domain, body_tables=True, tables=rows)
    assert len(out) == 1 and "t1" not in str(out[0]) and "held_table" in str(out[0])
    assert sorted(str(f) for f in facts if f.head.relation == "held_table") == [
        "(held_table a 1)", "(held_table b 2)", "(held_table c 2)", "(held_table c 3)"]
    assert meanings(out + facts + tables, {"held"}) == meanings(original + tables, {"held"})


def test_folding_keeps_rules_that_differ_in_shape():
    original = rules("""
        (<= p (true (v a x)))
        (<= p (true (v a x)) (true (v b o)))
    """)
    assert fold(original, fluent_domain) == (original, [])
    assert merge_relations(original) == (original, [])


# ------------------------------------------------------------------ unfolding per-object path conditions
from tgpl.lowering.generalize import unfold_single_uses  # noqa: E402


def test_a_nullary_relation_read_once_gives_its_rules_to_its_reader_and_they_then_fold():
    # one path condition per cell (fox and geese's `segment_671`): hidden behind different nullary heads, the
    # cells' rules never meet; unfolded, they are alike but for the cell and fold into one rule over a table
    original = rules("""
        (<= (next (v a null)) seg1)
        (<= seg1 (true (v b x)) (true (v a x)))
        (<= seg1 (true (v c o)) (true (v a o)))
        (<= (next (v b null)) seg2)
        (<= seg2 (true (v c x)) (true (v b x)))
        (<= seg2 (true (v a o)) (true (v b o)))
        (<= (next (v c null)) seg3)
        (<= seg3 (true (v a x)) (true (v c x)))
        (<= seg3 (true (v b o)) (true (v c o)))
    """)
    out = unfold_single_uses(original)
    text = to_kif(Program(tuple(out)))
    assert "seg" not in text and len(out) == 6
    assert meanings(out, {"next"}) == meanings(original, {"next"})
    folded, facts = fold(out, fluent_domain, body_tables=True)
    assert len(folded) == 1 and len(facts) == 6  # one rule over a table of (cell, other cell, value)
    assert meanings(folded + facts, {"next"}) == meanings(original, {"next"})


def test_a_relation_read_twice_recursive_or_under_a_variable_head_stays():
    twice = rules("""
        (<= (next (v a null)) seg1)
        (<= (goal r 100) seg1)
        (<= seg1 (true (v b x)))
    """)
    assert unfold_single_uses(twice) == twice
    recursive = rules("""
        (<= (next (v a null)) seg1)
        (<= seg1 (true (v b x)))
        (<= seg1 seg1)
    """)
    assert unfold_single_uses(recursive) == recursive
    variable = rules("""
        (<= (next (v ?c null)) seg1 (true (v ?c x)))
        (<= seg1 (true (v b x)))
    """)
    assert unfold_single_uses(variable) == variable


def test_a_chain_of_read_once_relations_unfolds_a_link_at_a_time_and_keeps_its_meaning():
    # `seg1 :- seg2` is a reader unfolded itself: giving seg1's rules to the head while seg2 went would leave
    # seg2 read and undefined (the lowered Connect Four lost its turn so, caught by its validation)
    original = rules("""
        (<= (next (v a null)) seg1)
        (<= seg1 seg2)
        (<= seg2 (true (v b x)))
        (<= seg2 (true (v c o)))
    """)
    once = unfold_single_uses(original)
    assert meanings(once, {"next"}) == meanings(original, {"next"})
    defined = {r.head.relation for r in once}
    assert all(a.relation in defined | {"true"} for r in once for a, _ in r.body_atoms())
    twice = unfold_single_uses(once)
    assert to_kif(Program(tuple(twice))).split("\n\n") == to_kif(Program(tuple(rules("""
        (<= (next (v a null)) (true (v b x)))
        (<= (next (v a null)) (true (v c o)))
    """)))).split("\n\n")


from tgpl.lowering.generalize import fold_program  # noqa: E402


def test_a_finished_program_folds_rules_alike_but_for_an_object_and_their_variables_names():
    """A compiled move's unrolled loop writes a view per cell, each rule naming its variable after its pass
    (`?x13_u0_0`, `?x13_u1_0`): alike up to those names, they are one rule over a table of the cells."""
    original = rules("""
        (<= (next (u d null)) (mover p ?x_u0) (true (v a x)))
        (<= (next (u e null)) (mover p ?x_u1) (true (v a x)))
        (<= (next (u f null)) (mover p ?x_u2) (true (v a x)))
        (<= (next (u f o)) (true (v b o)))
        (mover p q)
    """)
    out = fold_program(Program(tuple(original)))
    text = to_kif(out)
    assert text.count("(<= (next (u ?x1 null))") == 1 and text.count("(<= ") == 2, text
    assert "(<= (next (u f o)) (true (v b o)))" in text  # no other rule alike: kept as written
    assert meanings(list(out.rules), {"next"}) == meanings(original, {"next"})


def test_a_finished_program_with_nothing_to_fold_is_returned_as_it_is():
    program = Program(tuple(rules("""
        (<= (next (v a null)) (mover p ?x_u0) (true (v b x)))
        (<= (next (v b null)) (mover p ?x_u1) (true (v c x)))
        (mover p q)
    """)))
    assert fold_program(program) is program


def test_rules_whose_constants_repeat_in_different_patterns_fold_through_one_table():
    # cube3's per-cell conditions (tests/data/designers/cube3.tgpl): a cell's coordinates beside the player, a
    # repeated constant in each rule a different pattern, so no two rules had one shape; each occurrence apart,
    # they are one rule over a table, and a place that holds the same constant as another in every rule (the
    # cell) keeps one variable
    facts = rules("""
        (at a 0 0) (at b 1 0) (at c 1 1)
    """)
    original = rules("""
        (<= won (true (v a x)) (at a 0 0))
        (<= won (true (v b x)) (at b 1 0))
        (<= won (true (v c x)) (at c 1 1))
    """)
    out, tables = fold(original, fluent_domain, body_tables=True)
    text = " ".join(to_kif(Program(tuple(out))).split())
    assert text == "(<= won (won_args ?x1 ?x2 ?x3) (at ?x1 ?x2 ?x3) (true (v ?x1 x)))", text
    assert len(tables) == 3
    assert meanings(out + tables + facts, {"won"}) == meanings(original + facts, {"won"})
    # a table binding only the body's variables is not made without body_tables: the rules stay as they were
    assert fold(original, fluent_domain) == (original, [])
