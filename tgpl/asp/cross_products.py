"""The relaxed game's rules whose bodies are products of unrelated joins, each join given a helper of its own.

A compiled game's rule may read two things its variables never relate: Fanorona's `join` of a capture reads the
move's walk (twenty-odd literals over the move's cells and their coordinates) and, beside it, the ply counter,
`(true (plies gamestate ?p)) (plus ?p 1 ?n)`, only to put `?n` in its head. Its ground instances are the product
of the two joins' instances, and gringo makes them all, in the relaxed game (tgpl.asp.relaxed) once more each
time a join gains an atom: there the counter gains a value a round, for forty rounds. Fanorona 5x5's relaxed game
grounded for 127 s of CPU for 39,000 atoms.

`split_cross_products` gives each join of such a body (its literals connected through shared variables) a helper
relation that holds it, with the variables the head reads, `(tgpl_factor_0 ?x43 ?x105)`, and the rule becomes
the helpers side by side: each join grounds on its own, and their product only on the head's variables. The
rule derives exactly what it derived, as the joins share no variable (each helper is the projection of its
join, and the rule's instances are the product of the joins' instances). A join of one atom that already reads
only the head's variables keeps its atom: its helper would be a copy of it. Literals with no variable stay in
the rule as they are.
"""

from __future__ import annotations

from tgpl.asp.recursive_joins import fresh_names
from tgpl.lowering.ir import Atom, Literal, Not, Program, Rule, Var, expand_or

HELPER_PREFIX = "tgpl_factor_"


def split_cross_products(program: Program) -> Program:
    """`program`, a relaxed game's rules (negative literals are dropped: the relaxed game ignores them), with
    each rule whose body holds two or more joins that share no variable split into one helper per join and the
    rule reading the helpers (the module's docstring says why, and why it derives the same atoms)."""
    taken = set(program.relations())
    names = fresh_names(taken, HELPER_PREFIX)
    rules: list[Rule] = []
    changed = False
    for rule in program.rules:
        if rule.is_fact:
            rules.append(rule)
            continue
        for plain in expand_or(rule):
            split = _split(plain, names)
            changed |= split is not None
            rules.extend(split if split is not None else (plain,))
    return Program(tuple(rules)) if changed else program


def _split(rule: Rule, names) -> list[Rule] | None:
    """The helpers and the rule that reads them, or None where the body is one join (or none)."""
    body = [lit for lit in rule.body if not isinstance(lit, Not)]
    joins = _joins(body)
    if len(joins) < 2:
        return None
    head = {v.name for v in rule.head.variables()}
    out: list[Rule] = []
    kept: list[Literal] = [lit for lit in body if not any(True for _ in lit.variables())]
    for join in joins:
        exported: dict[str, Var] = {}
        for lit in join:
            for v in lit.variables():
                if v.name in head:
                    exported.setdefault(v.name, v)
        if len(join) == 1 and isinstance(join[0], Atom) and {v.name for v in join[0].variables()} <= head:
            kept.append(join[0])
            continue
        helper = Atom(next(names), tuple(exported.values()))
        out.append(Rule(helper, tuple(join), rule.span))
        kept.append(helper)
    out.append(Rule(rule.head, tuple(kept), rule.span))
    return out


def _joins(body: list[Literal]) -> list[list[Literal]]:
    """The body's literals with variables, grouped into joins: literals sharing a variable, through any chain,
    in body order."""
    groups: list[tuple[set[str], list[Literal]]] = []
    for lit in body:
        mine = {v.name for v in lit.variables()}
        if not mine:
            continue
        merged = [g for g in groups if g[0] & mine]
        names, lits = set(mine), [lit]
        for g in merged:
            names |= g[0]
        groups = [g for g in groups if not any(g is m for m in merged)]
        order = [x for g in merged for x in g[1]] + lits
        groups.append((names, order))
    position = {id(lit): i for i, lit in enumerate(body)}
    joins = [sorted(lits, key=lambda lit: position[id(lit)]) for _, lits in groups]
    joins.sort(key=lambda j: position[id(j[0])])
    return joins


__all__ = ["split_cross_products", "HELPER_PREFIX"]
