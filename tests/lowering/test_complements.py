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


def test_a_pass_hashes_each_literal_a_few_times_whatever_the_bodies_length(monkeypatch):
    """Each rule is filed once, under its head and its body with the signs taken off: a pass hashes each literal a
    bounded number of times, where filing it under its body split at each literal hashed a body of n literals n
    times (Kalah's path conditions run to dozens of literals, the pass to a fixpoint). Long bodies that pair
    at their last literal, then again: the merges are the same as for short ones."""
    n, rules = 40, []
    for k in range(60):
        body = tuple(atom("c", Const(f"v{j}"), Const(f"k{k % 3}")) for j in range(n))
        for signs in ((), (n - 1,), (n - 2,), (n - 2, n - 1)):
            rules.append(Rule(atom("h", Const(f"r{k}")),
                              tuple(Not(x) if j in signs else x for j, x in enumerate(body))))
    hashes = [0]
    plain = Atom.__hash__

    def counted(self):
        hashes[0] += 1
        return plain(self)

    monkeypatch.setattr(Atom, "__hash__", counted)
    merged = merged_complements(Program(tuple(rules)))
    monkeypatch.setattr(Atom, "__hash__", plain)
    assert len(merged.rules) == 60
    assert all(len(r.body) == n - 2 for r in merged.rules)
    literals = sum(len(r.body) + 1 for r in rules)
    assert hashes[0] < 8 * literals, (hashes[0], literals)
