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
    """One pass: every pair found among `rules` (each rule in one pair at most) merged; None where none is.

    A rule is filed once under its head and its body with the signs taken off (`_unsigned`), its signs a bit
    mask beside: the rule it pairs with at j is the one filed under the same key whose mask differs in bit j
    alone. So a pass hashes each literal a few times, where keys of the whole body split at each j would hash a
    body of n literals n times (Kalah's path conditions run to dozens of literals, and the pass to a fixpoint)."""
    first: dict[tuple, dict[int, int]] = {}  # (head, unsigned body) -> signs -> the first such rule's index
    into: dict[int, Rule] = {}  # the first rule of a pair -> the merged rule
    gone: set[int] = set()  # the second rule of a pair
    for k, r in enumerate(rules):
        if not r.body:
            continue
        bare, signs, flips = _unsigned(r.body)
        filed = first.setdefault((r.head, bare), {})
        for j in flips:
            o = filed.get(signs ^ (1 << j))
            if o is not None and o not in into:
                negative = r if signs >> j & 1 else rules[o]  # the literal at j in both: its span kept
                into[o] = Rule(r.head, r.body[:j] + r.body[j + 1:], negative.span)
                gone.add(k)
                break
        else:
            filed.setdefault(signs, k)
    if not into:
        return None
    return [into.get(k, r) for k, r in enumerate(rules) if k not in gone]


def _unsigned(body: tuple) -> tuple[tuple, int, list[int]]:
    """`body` with the sign taken off each literal that has one of the other sign (an atom, or `not` of an
    atom; not `distinct` or `or`), the signs as a bit mask (bit j set: the literal at j is negated), and the
    positions of those literals in order. Two bodies are the same literals but for one's sign at j exactly when
    their unsigned bodies are equal and their masks differ in bit j alone."""
    bare = []
    signs = 0
    flips = []
    for j, x in enumerate(body):
        if isinstance(x, Atom):
            flips.append(j)
        elif isinstance(x, Not) and isinstance(x.literal, Atom):
            flips.append(j)
            signs |= 1 << j
            x = x.literal
        bare.append(x)
    return tuple(bare), signs, flips
