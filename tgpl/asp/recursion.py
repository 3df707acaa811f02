"""GDL's recursion restriction met by binding, from outside the recursion, what a recursive literal leaves free.

GDL (Love et al., 2008, def. 15) asks of a rule whose body holds a literal of a
relation in a cycle with its head that each argument of that literal be ground,
an argument of the head, or a variable some positive literal outside the cycle
binds. Code compiled to rules breaks it in natural ways: a loop that sums
(`total += FlipsIn(...)`: the running total of the pass before is read only
through the recursive literal), a local a pass overwrites (`tx = x`: the old
value is forgotten), a callee's relation whose result the caller's loop reads
while the callee's demand comes from that loop. The rules are right; only the
agents' grounders want every such variable bound from outside.

`bind_recursion` adds, for each such argument, a literal of a static table of the
values that argument can take, `(tgpl_domain_3 ?x1)`. The values are those of
the game's relaxation (its rules without their negative literals, every `next`
fed back as `true`, every legal move as done: `gdl_relaxed_domain.lp`), a
superset of what any play derives, so the literal never cuts a derivation: the
game is the same, and the rules are GDL.
"""

from __future__ import annotations

from dataclasses import replace

from tgpl.asp.dependencies import DependencyGraph
from tgpl.asp.gdl_to_asp import ClingoNames
from tgpl.asp.narrow import dynamic_relations, narrow, narrow_pays
from tgpl.asp.relaxed import relaxed_model
from tgpl.lowering.ir import Atom, Program, Rule, Var, is_ground

DOMAIN_PREFIX = "tgpl_domain_"


def unbound_recursive(program: Program) -> list[tuple[int, str, int, Var]]:
    """(rule index, relation, argument position, variable) of every argument that breaks the recursion
    restriction, the first literal of a relation naming a variable."""
    graph = DependencyGraph.of(program)
    components = graph.components()
    out: list[tuple[int, str, int, Var]] = []
    for i, rule in enumerate(program.rules):
        head = rule.head.relation
        outside: set[str] = set()
        for lit in rule.body:
            if isinstance(lit, Atom) and not graph.in_cycle(head, lit.relation, components):
                outside |= {v.name for v in lit.variables()}
        seen: set[str] = set()
        for lit in rule.body:
            if not isinstance(lit, Atom) or not graph.in_cycle(head, lit.relation, components):
                continue
            for k, arg in enumerate(lit.args):
                if is_ground(arg) or arg in rule.head.args or not isinstance(arg, Var):
                    continue
                if arg.name in outside or arg.name in seen:
                    continue
                seen.add(arg.name)
                out.append((i, lit.relation, k, arg))
    return out


def bind_recursion(program: Program, narrowing: int | None = None) -> Program:
    """`program` with every argument that breaks GDL's recursion restriction bound by a table of its values in the
    game's relaxation (the module's docstring says why that is the same game). Arguments that are not variables
    (a function term holding one) are left as they are, for the GDL checks to report. A game whose bound is past
    `narrowing` (the lowering's: `--max-ground`'s default) is also narrowed by the same relaxation (tgpl.asp.narrow)."""
    free = unbound_recursive(program)
    wide = narrowing is not None and narrow_pays(program, narrowing)
    if not free and not wide:
        return program
    positions = sorted({(rel, k) for _, rel, k, _ in free})
    dynamic = dynamic_relations(program) if wide else set()
    arities = program.relations()
    names = ClingoNames()
    shown = "".join(f"#show {names.functor(rel)}/{n}.\n" for rel in sorted({rel for rel, _ in positions} | dynamic)
                    for n in sorted(arities.get(rel, ())))
    # the static tables are not joined away first (rules_to_asp): on the compiled loops, whose bodies hold several
    # arithmetic tables, that join is their product (Reversi 4x4: over a minute and gigabytes, not 0.2 s)
    model = relaxed_model(program, names, [shown], tables={})
    values: dict[tuple[str, int], set] = {p: set() for p in positions}
    tuples: dict[str, set] = {rel: set() for rel in dynamic if len(arities.get(rel, ())) == 1}
    for sym in model:
        rel = names.gdl(sym.name)
        args = tuple(names.term(arg) for arg in sym.arguments)
        if rel in tuples:
            tuples[rel].add(args)
        for k, arg in enumerate(args):
            if (rel, k) in values:
                values[(rel, k)].add(arg)
    bound = _bound(program, free, positions, values) if free else program
    return narrow(bound, tuples) if wide else bound


def _bound(program: Program, free: list[tuple[int, str, int, Var]], positions: list[tuple[str, int]],
           values: dict[tuple[str, int], set]) -> Program:
    """`program` with a literal of a table of its relaxed values on each free argument."""
    taken = program.relations()
    table = {}
    for n, p in enumerate(positions):
        name = f"{DOMAIN_PREFIX}{n}"
        while name in taken:
            name += "_"
        table[p] = name
    rules = list(program.rules)
    extra: dict[int, list[Atom]] = {}
    for i, rel, k, var in free:
        extra.setdefault(i, []).append(Atom(table[(rel, k)], (var,)))
    for i, lits in extra.items():
        rules[i] = replace(rules[i], body=tuple(rules[i].body) + tuple(lits))
    facts = [Rule(Atom(table[p], (t,))) for p in positions for t in sorted(values[p], key=str)]
    return Program(tuple(rules + facts))

