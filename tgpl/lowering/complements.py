"""Rules that differ in one literal's sign made one: `h :- B, L` and `h :- B, not L` are `h :- B`.

The emitter names a condition by the ways that reach it, and a scan that reads a cell and goes on either way
leaves both: Line Up's check of the windows through the new stone (tests/data/designers/lineup.tgpl) gave 908
conditions of two rules each, `(<= (cond_17 ?p1 ?p2) (cond_17_rows ?p1 ?p2) (cond_18 ?p1 ?p2) (stone_xof
squares_0_0 ?p1))` beside the same with `(not (stone_xof squares_0_0 ?p1))`. The formulas' own minimisation
(tgpl.lowering.minimize) never sees them: they are rules by then, one per way.

The two rules are one in every state: GDL's negation is stratified, so L's relation is decided below the
head's (the second rule negates it), and for each binding of the rest B exactly one of L and `not L` holds.
The rule kept is the second without its `not L`: it is safe, its variables bound by B's positive literals as
the second rule's were, and it reads fewer relations, so it keeps stratification and GDL's recursion
restriction. Only rules whose heads and other literals are the same terms, in the same order, are merged:
nothing is renamed or reordered, and what is not so alike is left as it was.
"""

from __future__ import annotations

from tgpl.lowering.ir import Atom, Not, Program, Rule


def merged_complements(program: Program) -> Program:
    """`program` with each pair of rules that differ only in one literal's sign made one rule, to a fixpoint
    (a merged rule may pair with another), in the place of the first of the pair; `program` itself where no
    pair is found."""
    rules = list(program.rules)
    changed = False
    while True:
        merged = _merge_once(rules)
        if merged is None:
            return Program(tuple(dict.fromkeys(rules))) if changed else program
        rules, changed = merged, True


def _merge_once(rules: list[Rule]) -> list[Rule] | None:
    """One pass: every pair found among `rules` (each rule in one pair at most) merged; None where none is."""
    seen: dict[tuple, int] = {}  # (head, literals before, literal, literals after) -> the rule's index
    into: dict[int, Rule] = {}  # the first rule of a pair -> the merged rule
    gone: set[int] = set()  # the second rule of a pair
    for k, r in enumerate(rules):
        if not r.body:
            continue
        for j, x in enumerate(r.body):
            other = _complement(x)
            if other is None:
                continue
            o = seen.get((r.head, r.body[:j], other, r.body[j + 1:]))
            if o is not None and o not in into and o not in gone:
                negative = r if isinstance(x, Not) else rules[o]  # the literal at j in both: its span kept
                into[o] = Rule(r.head, r.body[:j] + r.body[j + 1:], negative.span)
                gone.add(k)
                break
        else:
            for j, x in enumerate(r.body):
                seen.setdefault((r.head, r.body[:j], x, r.body[j + 1:]), k)
    if not into:
        return None
    return [into.get(k, r) for k, r in enumerate(rules) if k not in gone]


def _complement(x) -> Atom | Not | None:
    """The literal of the other sign (`not a` for `a`, `a` for `not a`); None for another literal (distinct,
    or)."""
    if isinstance(x, Atom):
        return Not(x)
    if isinstance(x, Not) and isinstance(x.literal, Atom):
        return x.literal
    return None
