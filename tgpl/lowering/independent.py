"""Parts of a rule's body that share no variable with the rest, each a condition of its own.

A grounder instantiates a rule for every way its body can hold: two parts that share no variable multiply.
Reversi's end phase asks `(count player_0 ?b) (count player_1 ?w) (greater ?b ?w)` beside the control and the
passes: every pair of counts (65 x 65) times every control state. Said as a relation of no arguments, the
comparison is ground once, and the rule once per control state, as hand-written GDL does. Exact: a body whose
parts share no variable holds exactly when each part holds on its own.

A part is moved out only when it has no variable of the head, two literals at least, and none of its relations
depends on the rule's own relation (no new recursion, stratification unchanged).

Parts may also be found `around` a relation: the variables of its atoms (a move, `does`) join no literals, and a
part that shares some of them with the rest is a relation over them, as many instances as the moves it holds
for. The check that each write of a counted field moves the count (tgpl.lowering.board_count.flip_program) asks,
in one body, the move, the counters it steps (every value of `Stones`, of each seat's `Pairs`) and the cells it
reads: 9x9 Pente's bodies were 181,764 ground instances, a disjunction clasp could not refute in 20,000
conflicts; its parts apart, 4,445 conflicts (0.5 s). Exact still: with the move's variables fixed, the parts
share none. The part's arguments must be bound within it (its rule safe), else it stays.
"""

from __future__ import annotations

from tgpl.graphs import Partition
from tgpl.lowering.ir import Atom, Program, Rule, Var, substitute

PREFIX = "tgpl_part"


def _parts(body: tuple, key: set[str]) -> list[list[int]]:
    """The body's literals grouped by shared variables but those of `key` (indices, in body order); literals
    without such a variable each a part of their own."""
    part = Partition(range(len(body)))
    first: dict[str, int] = {}
    for i, lit in enumerate(body):
        for v in lit.variables():
            if v.name not in key:
                part.union(i, first.setdefault(v.name, i))
    groups: dict[int, list[int]] = {}
    for i in range(len(body)):
        groups.setdefault(part.find(i), []).append(i)
    return list(groups.values())


def _reaches(program: Program) -> dict[str, set[str]]:
    """Each relation -> the relations its rules' bodies read, directly or not."""
    edges: dict[str, set[str]] = {}
    for r in program.rules:
        edges.setdefault(r.head.relation, set()).update(a.relation for a, _ in r.body_atoms())
    closed: dict[str, set[str]] = {}
    for start in edges:
        seen, todo = set(), [start]
        while todo:
            for n in edges.get(todo.pop(), ()):
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        closed[start] = seen
    return closed


def _canonical(lits: list) -> tuple:
    """The literals with their variables renamed in order of first occurrence: alike parts share a relation."""
    names: dict[str, str] = {}
    for lit in lits:
        for v in lit.variables():
            names.setdefault(v.name, f"v{len(names)}")
    return tuple(substitute(lit, {k: Var(n) for k, n in names.items()}) for lit in lits)


def independent_parts(program: Program, around: str | None = None) -> Program:
    """`program` with each movable part of a body (see the module) a relation: of no arguments, or, `around` a
    relation, of the variables it shares with the rest, all of them variables of that relation's atoms."""
    reaches = _reaches(program)
    used = {rel for rel in program.relations()}
    made: dict[tuple, str] = {}
    rules: list[Rule] = []
    extra: list[Rule] = []
    for r in program.rules:
        if len(r.body) < 3:
            rules.append(r)
            continue
        key = {v.name for x in r.body if isinstance(x, Atom) and x.relation == around for v in x.variables()}
        head_vars = {v.name for v in r.head.variables()} - key
        parts = _parts(r.body, key)
        if len(parts) < 2:
            rules.append(r)
            continue
        keep: list[int] = []
        moved: list[Atom] = []
        for part in parts:
            lits = [r.body[i] for i in part]
            names = {v.name for lit in lits for v in lit.variables()}
            relations = {a.relation for lit in lits for a, _ in lit.atoms()}
            bound = {v.name for lit in lits if isinstance(lit, Atom) for v in lit.variables()}
            if (len(part) < 2 or not names - key or names & head_vars or not names & key <= bound
                    or any(r.head.relation == x or r.head.relation in reaches.get(x, ()) for x in relations)):
                keep += part
                continue
            args = tuple(dict.fromkeys(v for lit in lits for v in lit.variables() if v.name in key))
            shape = _canonical([Atom("", args), *lits])
            name = made.get(shape)
            if name is None:
                k = len(made)
                while f"{PREFIX}_{k}" in used:
                    k += 1
                name = f"{PREFIX}_{k}"
                used.add(name)
                made[shape] = name
                extra.append(Rule(Atom(name, args), tuple(lits)))
            moved.append(Atom(name, args))
        if not moved:
            rules.append(r)
            continue
        body = tuple(r.body[i] for i in sorted(keep)) + tuple(moved)
        rules.append(Rule(r.head, body, r.span))
    return program if not extra else Program(tuple(rules) + tuple(extra))
