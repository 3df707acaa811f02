"""Instances of a compiled function with the same rules in one context made one (compiled._shared_instances),
except where the shared demand would read the shared instance's own results."""

from __future__ import annotations

from tgpl.lowering.compiled import _shared_instances
from tgpl.lowering.ir import Atom, Const, Rule, Var

X = Var("X")


def atom(rel: str, *args) -> Atom:
    return Atom(rel, tuple(args))


def instance(site: str) -> list[Rule]:
    """f's rules at one call site: true of the rows asked for that p holds of."""
    return [Rule(atom(f"f~{site}|result@0", X, Const("yes")), (atom(f"f~{site}|call@0", X), atom("p", X)))]


def relations(rules: list[Rule]) -> set[str]:
    return {a.relation for r in rules for a in (r.head, *(b for b, _ in r.body_atoms()))}


def test_two_call_sites_with_the_same_rules_share_one_instance():
    segments = [Rule(atom("f~s1|call@0", X), (atom("q", X),)),
                Rule(atom("f~s2|call@0", X), (atom("r", X),)),
                Rule(atom("a", X), (atom("f~s1|result@0", X, Const("yes")),)),
                Rule(atom("b", X), (atom("f~s2|result@0", X, Const("yes")),))]
    seg, fun = _shared_instances(segments, instance("s1") + instance("s2"))
    assert not any("~s2" in rel for rel in relations(seg + fun))
    assert fun == instance("s1")
    demand = {r.body[0].relation for r in seg if r.head.relation == "f~s1|call@0"}
    assert demand == {"q", "r"}  # asked by both sites
    assert Rule(atom("b", X), (atom("f~s1|result@0", X, Const("yes")),)) in seg


def test_a_demand_that_reads_the_other_sites_results_keeps_its_instance():
    """The second site asks f of what the first site's f says: one instance would ask of its own results."""
    segments = [Rule(atom("f~s1|call@0", X), (atom("q", X),)),
                Rule(atom("f~s2|call@0", X), (atom("f~s1|result@0", X, Const("yes")), atom("r", X)))]
    functions = instance("s1") + instance("s2")
    assert _shared_instances(segments, functions) == (segments, functions)


def test_instances_with_other_rules_or_contexts_stay_apart():
    other = [Rule(atom("f~s2|result@0", X, Const("yes")), (atom("f~s2|call@0", X), atom("p2", X)))]
    segments = [Rule(atom("f~s1|call@0", X), (atom("q", X),)), Rule(atom("f~s2|call@0", X), (atom("r", X),))]
    assert _shared_instances(segments, instance("s1") + other) == (segments, instance("s1") + other)
    elsewhere = [Rule(atom("f~s2|result@1", X, Const("yes")), (atom("f~s2|call@1", X), atom("p", X)))]
    segments = [Rule(atom("f~s1|call@0", X), (atom("q", X),)), Rule(atom("f~s2|call@1", X), (atom("r", X),))]
    assert _shared_instances(segments, instance("s1") + elsewhere) == (segments, instance("s1") + elsewhere)
