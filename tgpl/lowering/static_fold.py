"""Static searches of a lowered game evaluated once, at lowering time, rather than in every state.

A compiled game's legal filter scans the board, `for x, for y: if (At(x, y) == target) ...`: a recursive
relation whose steps read only static data (the board's `at`, `less`, `plus`, `size_of`). It is derived again
in every state all the same, because the loop's relations carry "passenger" arguments bound from the state
(the control, the player) that pass unchanged through every recursive rule:

    (<= (loop_2 ?c ?p b ?t ?x 0) (true (control ?c play movephase)) (table_2 ?p ?c) (table_3 ?t) (table_4 ?x))
    (<= (loop_2 ?c ?p b ?t ?x ?y2) (loop_2 ?c ?p b ?t ?x ?y) (less ?y 8) (at ?x ?y ?v) (distinct ?v ?t) ...)

Reversi 8x8 grounded 7,000 such atoms a state of its 20,458. Three steps take them out:

1. `static_relations`: relations that depend on no `true`, `does` or GDL keyword, transitively.
2. `split_passengers`: a recursive component whose rules carry passengers is split into a dynamic entry
   relation (`loop_2_entry(E, ?c, ?p)`, one entry id E per entry rule) and a static relation over the other
   arguments (`loop_2_static(E, b, ?t, ?x, ?y)`); a use outside the component joins the two. The recursion
   then reads static data only, so it is static itself.
3. `fold_static`: the static relations are evaluated bottom-up here (tgpl.lowering.static_eval: in Python,
   under the command's limits, given up past a bound on facts: clingo's grounding could be neither bounded
   nor interrupted), and each dynamic rule's connected static conjunction (two literals or more) becomes one
   precomputed table holding only the variables the rest of the rule needs, where the table has at most
   MAX_ROWS rows. Relations nothing uses any more are left for the caller's pruning
   (tgpl.lowering.lower.without_unused).

Every step is the same game by construction: the passengers of a component reach each of its atoms from an
entry unchanged, so `r(P, R)` holds iff some entry rule with id E binds P and the static steps from E reach R;
a folded table is the projection of the conjunction it replaces onto the variables the rule reads elsewhere.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from tgpl.asp.dependencies import DependencyGraph
from tgpl.graphs import Partition, strongly_connected
from tgpl.limits import Limits, unlimited
from tgpl.lowering.ir import (GDL_RELATIONS, Atom, Const, Distinct, Literal, Not, Or, Program, Rule, Term, Var,
                             fresh_name, occurrences)
from tgpl.lowering.static_eval import Work, join, static_facts

KEYWORDS = GDL_RELATIONS | {"random"}
MAX_ROWS = 2_000
"""Rows past which a static conjunction is left as it is: a larger table would cost the agent more atoms than the
join it saves (Reversi's scan tables hold a few hundred rows)."""


def static_fold(program: Program, limits: Limits | None = None) -> Program:
    """The program with its passenger-carrying static searches split (`split_passengers`) and its static
    conjunctions folded into tables (`fold_static`): the same game, fewer atoms per state. Where the static
    relations cannot be evaluated within their bounds (tgpl.lowering.static_eval), the program as it was:
    split, its recursion would still be derived in every state, and read through one more join.
    `limits.check()` is called as the evaluation runs (raises LimitReached past the command's limits)."""
    folded = fold_static(split_passengers(program), limits)
    return program if folded is None else folded


# ------------------------------------------------------------------ step 1
def dependencies(program: Program) -> dict[str, set[str]]:
    """Relation -> the relations its rules' bodies read (under any polarity)."""
    deps: dict[str, set[str]] = defaultdict(set)
    for rule in program.rules:
        deps[rule.head.relation].update(a.relation for a, _ in rule.body_atoms())
    return deps


def static_relations(program: Program) -> set[str]:
    """Relations that depend, transitively, on no `true`, `does` or other GDL keyword (and are none): the
    relations of the dependency graph less those `DependencyGraph.reading` finds reading a keyword."""
    graph = DependencyGraph.of(program)
    return set(graph.edges) - graph.reading(KEYWORDS & graph.edges.keys())


def _is_static(lit: Literal, static: set[str]) -> bool:
    if isinstance(lit, Distinct):
        return True
    if isinstance(lit, Or):
        return False
    return all(a.relation in static for a, _ in lit.atoms())


def _vars(node) -> set[str]:
    return {v.name for v in node.variables()}


# ------------------------------------------------------------------ step 2
def components(program: Program) -> list[set[str]]:
    """The recursive strongly connected components of the dependency graph, in a deterministic order."""
    deps = dependencies(program)
    return [set(c) for c in strongly_connected(sorted(deps), lambda node: sorted(deps.get(node, ())))
            if len(c) > 1 or c[0] in deps.get(c[0], ())]


@dataclass
class _Split:
    """How one component splits: its passenger positions and the relations that replace it."""

    members: set[str]
    positions: tuple[int, ...]
    entry: str
    static: dict[str, str] = field(default_factory=dict)


def split_passengers(program: Program) -> Program:
    """The program with each recursive component that carries passengers split into a dynamic entry and a
    static recursion (see the module's docstring); components that do not fit are left as they are."""
    taken = set(program.relations())
    static = static_relations(program)  # a split adds its static relations; no other relation changes side
    arities = program.relations()
    for comp in components(program):
        if comp <= static:
            continue
        split = _plan(program, arities, comp, static, taken)
        if split is not None:
            program = _apply(program, arities, split, static)
            static |= set(split.static.values())
            arities = program.relations()
    return program


def _plan(program: Program, arities: dict[str, set[int]], comp: set[str], static: set[str], taken: set[str]
          ) -> _Split | None:
    if any(m in KEYWORDS or m.startswith("tgpl_") for m in comp):  # what the game is made of keeps its name
        return None
    rules = [r for r in program.rules if r.head.relation in comp]
    if any(len(arities[m]) != 1 for m in comp):
        return None
    positions = set(range(min(next(iter(arities[m])) for m in comp)))
    for rule in rules:
        if any(isinstance(lit, Or) for lit in rule.body):
            return None
        inside = [(a, pos) for a, pos in rule.body_atoms() if a.relation in comp]
        if any(not pos for _, pos in inside) or len(inside) > 1:
            return None
        if not inside:
            continue
        body_atom = inside[0][0]
        others = [lit for lit in rule.body if lit is not body_atom]
        if not all(_is_static(lit, static) for lit in others):
            return None
        for p in sorted(positions):
            h = rule.head.args[p]
            if not (isinstance(h, Var) and body_atom.args[p] == h and occurrences(rule, h) == 2):
                positions.discard(p)
    if not positions:
        return None
    chosen = tuple(sorted(positions))
    for rule in rules:
        if not any(a.relation in comp for a, _ in rule.body_atoms()) and _entry_parts(rule, chosen, static) is None:
            return None
    first = sorted(comp)[0]
    split = _Split(comp, chosen, fresh_name(f"{first}_entry", taken))
    for m in sorted(comp):
        split.static[m] = fresh_name(f"{m}_static", taken)
    return split


def _entry_parts(rule: Rule, positions: tuple[int, ...], static: set[str]):
    """An entry rule's body as (literals over the passengers only, static literals over none of them), or None."""
    passengers: set[str] = set()
    for p in positions:
        passengers |= _vars(rule.head.args[p])
    rest = [a for i, a in enumerate(rule.head.args) if i not in positions]
    if any(_vars(a) & passengers for a in rest):
        return None
    dynamic: list[Literal] = []
    fixed: list[Literal] = []
    for lit in rule.body:
        names = _vars(lit)
        if names & passengers:
            if not names <= passengers:
                return None
            dynamic.append(lit)
        elif _is_static(lit, static):
            fixed.append(lit)
        elif not names:
            dynamic.append(lit)
        else:
            return None
    return dynamic, fixed


def _apply(program: Program, arities: dict[str, set[int]], split: _Split, static: set[str]) -> Program:
    pos = split.positions
    entry_var = _fresh_var(program)
    out: list[Rule] = []
    entries = 0
    bridge: set[str] = set()
    for rule in program.rules:
        name = rule.head.relation
        if name in split.members:
            head_rest = _rest(rule.head.args, pos)
            inside = [a for a, _ in rule.body_atoms() if a.relation in split.members]
            if not inside:
                dynamic, fixed = _entry_parts(rule, pos, static)
                eid = Const(str(entries))
                entries += 1
                out.append(Rule(Atom(split.entry, (eid, *(rule.head.args[p] for p in pos))), tuple(dynamic)))
                out.append(Rule(Atom(split.static[name], (eid, *head_rest)), tuple(fixed)))
            else:
                body = tuple(Atom(split.static[lit.relation], (entry_var, *_rest(lit.args, pos)))
                             if isinstance(lit, Atom) and lit.relation in split.members else lit for lit in rule.body)
                out.append(Rule(Atom(split.static[name], (entry_var, *head_rest)), body))
            continue
        body: list[Literal] = []
        n = 0
        for lit in rule.body:
            if isinstance(lit, Atom) and lit.relation in split.members:
                e = Var(f"{entry_var.name}_{n}")
                n += 1
                body.append(Atom(split.entry, (e, *(lit.args[p] for p in pos))))
                body.append(Atom(split.static[lit.relation], (e, *_rest(lit.args, pos))))
            else:
                bridge.update(a.relation for a, _ in lit.atoms() if a.relation in split.members)
                body.append(lit)
        out.append(Rule(rule.head, tuple(body), rule.span))
    for name in sorted(bridge):  # a negative use reads the relation itself, defined again from the two parts
        arity = next(iter(arities[name]))
        args = tuple(Var(f"a{i}") for i in range(arity))
        out.append(Rule(Atom(name, args), (Atom(split.entry, (entry_var, *(args[p] for p in pos))),
                                          Atom(split.static[name], (entry_var, *_rest(args, pos))))))
    return Program(tuple(out))


def _rest(args: tuple[Term, ...], positions: tuple[int, ...]) -> tuple[Term, ...]:
    return tuple(a for i, a in enumerate(args) if i not in positions)


def _fresh_var(program: Program) -> Var:
    names = {v.name for r in program.rules for v in r.variables()}
    base, n = "entry", 0
    while any(x == base or x.startswith(base + "_") for x in names):
        n += 1
        base = f"entry{n}"
    return Var(base)


# ------------------------------------------------------------------ step 3
def fold_static(program: Program, limits: Limits | None = None) -> Program | None:
    """Each dynamic rule's connected static conjunctions of two literals or more replaced by one table of the
    variables the rest of the rule reads, evaluated here (MAX_ROWS rows at most, at least one); None where the
    static relations could not be evaluated within their bounds (tgpl.lowering.static_eval)."""
    static = static_relations(program)
    plans: list[tuple[int, list[int], tuple[str, ...]]] = []  # (rule index, literal indexes, kept variables)
    for i, rule in enumerate(program.rules):
        if rule.head.relation in static:
            continue
        for group in _static_groups(rule, static):
            if len(group) < 2:
                continue
            inside = set().union(*(_vars(rule.body[j]) for j in group))
            outside = _vars(rule.head).union(*(_vars(lit) for j, lit in enumerate(rule.body) if j not in group))
            kept = tuple(sorted(inside & outside))
            plans.append((i, group, kept))
    if not plans:
        return program
    taken = set(program.relations())
    keys: dict[tuple, str] = {}
    named: list[tuple[int, list[int], tuple[str, ...], str]] = []
    for i, group, kept in plans:
        key = (tuple(program.rules[i].body[j] for j in group), kept)
        if key not in keys:
            keys[key] = fresh_name("static_table", taken)
        named.append((i, group, kept, keys[key]))
    rows = _evaluate(program, static, keys, Work(limits if limits is not None else unlimited()))
    if rows is None:
        return None
    new_rules = list(program.rules)
    facts: list[Rule] = []
    used: set[str] = set()
    for i, group, kept, name in named:
        found = rows[name]
        if not found or len(found) > MAX_ROWS:  # empty: the rule never fires, left as it is for the reader
            continue
        rule = new_rules[i]
        table = Atom(name, tuple(Var(v) for v in kept))
        body = []
        for j, lit in enumerate(program.rules[i].body):
            if j == group[0]:
                body.append(table)
            elif j not in group:
                body.append(lit)
        new_rules[i] = Rule(rule.head, tuple(body), rule.span)
        if name not in used:
            used.add(name)
            facts.extend(Rule(Atom(name, row)) for row in found)
    return Program(tuple(new_rules) + tuple(facts))


def _static_groups(rule: Rule, static: set[str]) -> list[list[int]]:
    """The rule's static literals grouped by shared variables: positive atoms make the groups, and a negation
    or `distinct` joins the group that binds all of its variables."""
    positive = [j for j, lit in enumerate(rule.body)
                if isinstance(lit, Atom) and lit.relation in static and lit.relation not in KEYWORDS and _vars(lit)]
    part = Partition(positive)
    find = part.find
    owner: dict[str, int] = {}
    for j in positive:
        for v in sorted(_vars(rule.body[j])):
            if v in owner:
                part.union(j, owner[v])
            else:
                owner[v] = j
    groups: dict[int, list[int]] = defaultdict(list)
    for j in positive:
        groups[find(j)].append(j)
    for j, lit in enumerate(rule.body):
        plain = isinstance(lit, Distinct) or (isinstance(lit, Not) and isinstance(lit.literal, Atom))
        if plain and _is_static(lit, static) and _vars(lit):
            roots = {find(owner[v]) for v in _vars(lit) if v in owner}
            if len(roots) == 1 and all(v in owner for v in _vars(lit)):
                groups[roots.pop()].append(j)
    return [sorted(g) for _, g in sorted(groups.items())]


def _evaluate(program: Program, static: set[str], keys: dict[tuple, str], work: Work
              ) -> dict[str, list[tuple[Term, ...]] | None] | None:
    """The rows of each table (`keys`: (literals, kept variables) -> table name): the static relations the
    tables read, evaluated here (tgpl.lowering.static_eval, under the limits), then each table's join, given up
    past JOIN_ROWS partial rows (a join of arithmetic tables would grow into their product). None where the
    static relations could not be evaluated within their bounds."""
    wanted = {a.relation for lits, _ in keys for lit in lits for a, _ in lit.atoms()}
    facts = static_facts(program, static, wanted, work)
    if facts is None:
        return None
    rows: dict[str, list[tuple[Term, ...]] | None] = {}  # None: the join was given up
    for (lits, kept), name in keys.items():
        found = join(lits, kept, facts, JOIN_ROWS, work)
        rows[name] = None if found is None else sorted(found, key=lambda row: tuple(map(str, row)))
    return rows


JOIN_ROWS = 20_000
"""Partial rows past which a table's join is given up (the table is then not made)."""
