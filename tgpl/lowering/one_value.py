"""A cell of the state read as "any value but these", said as "not these values".

With its moves compiled, every cell of a game's state (an object's attribute, a counter) holds exactly one value in
every state the rules reach (each fluent's `next` is its last view; tgpl.lowering.board_count.state_cells). Code
that tests an attribute against a value (`if (At(x: x, y: y).Disc == who) { n += 1; }`) compiles its other way to
`(true (disc ?s ?v)) (distinct ?v ?who)`: a grounder instantiates that rule once per other value of the cell
(Reversi's `Count`: twice per square, count and player, for the two values a disc is not). Where the value is read
nowhere else, the same condition is `(not (true (disc ?s ?who)))`, one instance; the object is kept to the cells
of that attribute (`(tgpl_cell_disc ?s)`, a static table from `base`) where it is a variable, as `true` kept it.
Exact: a cell with exactly one value holds some value other than c1..ck exactly when it holds none of c1..ck.

A read is rewritten only where its value is a variable that occurs in no other literal than `distinct`s (at least
one), and each object argument and each other side of those `distinct`s is a constant or a variable that a
positive literal of the body binds (the `not` stays safe). `control` and `result` are left as they are (the
result may hold no value).
"""

from __future__ import annotations

from tgpl.lowering.ir import Atom, Const, Distinct, Func, Not, Program, Rule, Term, Var

PREFIX = "tgpl_cell_"
"""The static tables of the objects that have a cell of a fluent relation."""

SKIPPED = ("control", "result")


def _cells(program: Program) -> dict[str, set[tuple[Term, ...]]]:
    """Fluent relation -> the objects (the arguments but the value) that have a cell of it, from `base`."""
    cells: dict[str, set[tuple[Term, ...]]] = {}
    for r in program.rules:
        if r.head.relation == "base" and not r.body and isinstance(r.head.args[0], Func):
            f = r.head.args[0]
            if f.name not in SKIPPED and f.args:
                cells.setdefault(f.name, set()).add(f.args[:-1])
    return cells


def _read(lit) -> Func | None:
    """The fluent of a positive `(true F)` literal."""
    if isinstance(lit, Atom) and lit.relation == "true" and len(lit.args) == 1 and isinstance(lit.args[0], Func):
        return lit.args[0]
    return None


def _variables(x) -> set[Var]:
    return {v for lit in x for v in lit.variables()} if isinstance(x, tuple) else set(x.variables())


def _rewritten(rule: Rule, cells: dict[str, set[tuple[Term, ...]]], used: set[str]) -> Rule | None:
    """The rule with its reads of "any value but these" rewritten (see the module), or None where none is."""
    body = list(rule.body)
    changed = False
    for i, lit in enumerate(rule.body):
        f = _read(lit)
        if f is None or f.name not in cells or not f.args or not isinstance(f.args[-1], Var):
            continue
        value = f.args[-1]
        others = [k for k, x in enumerate(body) if k != i and x is not None and value in _variables(x)]
        if (value in set(rule.head.variables()) or value in set(v for a in f.args[:-1] for v in a.variables())
                or not others or any(not isinstance(body[k], Distinct) for k in others)):
            continue
        bound = {v for k, x in enumerate(body) if k != i and isinstance(x, Atom) for v in x.variables()}
        sides = [body[k].right if body[k].left == value else body[k].left for k in others]
        if any(isinstance(s, Var) and s not in bound for s in sides) or any(
                not isinstance(s, (Var, Const)) for s in sides):
            continue
        obj = f.args[:-1]
        if any(v not in bound for a in obj for v in a.variables()):
            continue
        if all(isinstance(a, Const) for a in obj):
            if obj not in cells[f.name]:
                continue
            domain = []
        else:
            used.add(f.name)
            domain = [Atom(PREFIX + f.name, obj)]
        new = [Not(Atom("true", (Func(f.name, obj + (s,)),))) for s in dict.fromkeys(sides)]
        body[i] = tuple(domain + new)
        for k in others:
            body[k] = None
        changed = True
    if not changed:
        return None
    flat: list = []
    for x in body:
        if isinstance(x, tuple):
            flat.extend(x)
        elif x is not None:
            flat.append(x)
    return Rule(rule.head, tuple(flat), rule.span)


def one_value(program: Program) -> Program:
    """`program` (a game with its moves compiled) with each read of a cell as "any value but these" said as
    "not these values" (see the module)."""
    taken = program.relations()
    cells = {name: objs for name, objs in _cells(program).items() if PREFIX + name not in taken}
    if not cells:
        return program
    used: set[str] = set()
    rules = []
    changed = False
    for r in program.rules:
        new = _rewritten(r, cells, used) if not r.is_fact else None
        rules.append(r if new is None else new)
        changed = changed or new is not None
    if not changed:
        return program
    for name in sorted(used):
        rules.extend(Rule(Atom(PREFIX + name, obj)) for obj in sorted(cells[name], key=str))
    return Program(tuple(rules))
