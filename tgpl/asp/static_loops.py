"""A loop that reads nothing of the state once entered, a static table from what enters it.

Code compiled to rules makes a loop a recursive relation entered from the state (its *seed*: the rule that reads
`true`, `does` or another relation of the state) whose passes read only static tables. Reversi's move searches
its target's coordinates, `for x ... for y ... if (board.At(x: x, y: y) == target) { tx = x; ty = y; }`: entered
from the move done, the loop's relations then step through every (x, y) carrying the target and what it found,
about 18,000 ground rules for 128 ways to enter it, although what comes out of it (the target with its
coordinates) is a function of the way it was entered. A grounder instantiates every pass for every way in;
hand-written GDL would state the result as a table.

Such a loop (a cycle of relations that depend on the state) is replaced by a table from its seed to its exits
(the rules outside it that read it), computed when lowering: `(<= E(X) <seed's body> T(V, X))`, V the seed head's
variables. Exact when:

- each rule of the loop, but its seeds, and each exit rule reads exactly one relation of the loop, positively,
  and otherwise only relations given by facts, `distinct` and no `not` or `or` (linear rules over static facts:
  what a set of ways in derives is the union of what each way derives alone, so a table per way in says it);
- nothing else reads the loop.

The table is the threaded loop (each relation carrying the way in it came from) evaluated on the game's relaxation
(its rules without their negative literals, every `next` fed back as `true`, every legal move as done:
`gdl_relaxed_domain.lp`): its seed's tuples are a superset of those any state derives, and from each seed the
threaded rules, free of negation and of the state, derive exactly what the loop derives.
"""

from __future__ import annotations

from tgpl.asp.dependencies import DependencyGraph
from tgpl.asp.gdl_to_asp import ClingoNames
from tgpl.asp.estimate import rule_bounds
from tgpl.asp.narrow import NARROW_MOST, dynamic_relations
from tgpl.asp.relaxed import relaxed_model
from tgpl.lowering.ir import GDL_RELATIONS, Atom, Const, Distinct, Func, Program, Rule, Term, Var

PREFIX = "tgpl_loop_"
"""The tables of the loops' exits and the threaded relations that compute them."""

MAX_ROWS = 20_000
"""The most rows a loop's tables may have in all: past them, the loop is kept as rules."""


class _Loop:
    """One loop: its relations, seed rules, inner rules and exit rules (indices into the program's rules)."""

    def __init__(self, relations: set[str]):
        self.relations = relations
        self.seeds: list[int] = []
        self.inner: list[int] = []
        self.exits: list[int] = []


def _loop_atoms(rule: Rule, loop: set[str]) -> list[Atom] | None:
    """The positive atoms of `loop` in the body, or None where `loop` is read under `not` or in an `or`."""
    found = []
    for lit in rule.body:
        if isinstance(lit, Atom):
            if lit.relation in loop:
                found.append(lit)
        elif any(a.relation in loop for a, _ in lit.atoms()):
            return None
    return found


def _static_body(rule: Rule, loop: set[str], facts: set[str]) -> bool:
    """Whether every literal of the body is an atom of `loop`, of a relation given by facts only, or `distinct`."""
    for lit in rule.body:
        if isinstance(lit, Distinct):
            continue
        if not isinstance(lit, Atom) or (lit.relation not in loop and lit.relation not in facts):
            return False
    return True


def _loops(program: Program) -> list[_Loop]:
    """The loops the module can replace: cycles of relations that depend on the state, with their rules sorted."""
    graph = DependencyGraph.of(program)
    components = graph.components()
    dynamic = dynamic_relations(program)
    with_body = {r.head.relation for r in program.rules if not r.is_fact}
    facts = {r.head.relation for r in program.rules if r.is_fact} - with_body - GDL_RELATIONS
    groups: dict[int, set[str]] = {}
    for rel in sorted(dynamic):  # not a set's order: which of two loops that share a relation is replaced
        groups.setdefault(components[rel], set()).add(rel)
    out = []
    for members in groups.values():
        if len(members) == 1 and not graph.in_cycle(next(iter(members)), next(iter(members)), components):
            continue
        if members & GDL_RELATIONS:
            continue
        loop = _Loop(members)
        fits = True
        for i, r in enumerate(program.rules):
            atoms = _loop_atoms(r, members)
            if atoms is None:
                fits = False
                break
            if r.head.relation in members:
                if not atoms:
                    loop.seeds.append(i)
                elif len(atoms) == 1 and _static_body(r, members, facts):
                    loop.inner.append(i)
                else:
                    fits = False
                    break
            elif atoms:
                if len(atoms) == 1 and _static_body(r, members, facts) and r.head.relation not in GDL_RELATIONS:
                    loop.exits.append(i)
                else:
                    fits = False
                    break
        if fits and loop.seeds and loop.exits:
            out.append(loop)
    return out


def _seed_vars(rule: Rule) -> tuple[Var, ...]:
    return tuple(dict.fromkeys(rule.head.variables()))


def _threaded(program: Program, loop: _Loop, k: int) -> list[Rule]:
    """The loop's rules with the way in carried as a first argument (`tgpl_loop_<k>_<rel>`, the way in a term
    `(tgpl_loop_way<i> V)` of seed rule i and its head's variables), seeded from `tgpl_loop_<k>_seed<i>` (the
    seed's body), and each exit's head `tgpl_loop_<k>_exit_<rel>`."""
    way = Var("tgpl_way")
    name = {rel: f"{PREFIX}{k}_{rel}" for rel in loop.relations}
    out: list[Rule] = []
    for i in loop.seeds:
        r = program.rules[i]
        seed = Atom(f"{PREFIX}{k}_seed{i}", _seed_vars(r))
        out.append(Rule(seed, r.body))
        out.append(Rule(Atom(name[r.head.relation], (_way(i, seed.args),) + r.head.args), (seed,)))
    for i in loop.inner + loop.exits:
        r = program.rules[i]
        body = tuple(Atom(name[x.relation], (way,) + x.args) if isinstance(x, Atom) and x.relation in loop.relations
                     else x for x in r.body)
        rel = name[r.head.relation] if i in loop.inner else f"{PREFIX}{k}_exit_{r.head.relation}"
        out.append(Rule(Atom(rel, (way,) + r.head.args), body))
    return out


def _way(i: int, args: tuple) -> Term:
    """The way in of seed rule i with its head's variables' values `args`."""
    return Func(f"{PREFIX}way{i}", args) if args else Const(f"{PREFIX}way{i}")


def _way_values(term: Term, i: int) -> tuple | None:
    """The values of the way in `term` if it is one of seed rule i (see `_way`), else None."""
    if isinstance(term, Func) and term.name == f"{PREFIX}way{i}":
        return term.args
    if isinstance(term, Const) and term.name == f"{PREFIX}way{i}":
        return ()
    return None


def static_loops(program: Program) -> Program:
    """`program` with each loop the module describes replaced by tables from its seeds to its exits."""
    loops = _loops(program)
    if not loops or not _relaxable(program):
        return program
    threaded = [_threaded(program, loop, k) for k, loop in enumerate(loops)]
    names = ClingoNames()
    exits = {(k, program.rules[i].head.relation): len(program.rules[i].head.args) + 1
             for k, loop in enumerate(loops) for i in loop.exits}
    shown = "".join(f"#show {names.functor(f'{PREFIX}{k}_exit_{rel}')}/{n}.\n" for (k, rel), n in exits.items())
    model = relaxed_model(Program(program.rules + tuple(r for rs in threaded for r in rs)), names, [shown],
                          tables={})
    rows: dict[tuple[int, str], list[tuple]] = {key: [] for key in exits}
    by_name = {names.functor(f"{PREFIX}{k}_exit_{rel}"): (k, rel) for k, rel in exits}
    for sym in model:
        key = by_name.get(sym.name)
        if key is not None:
            rows[key].append(tuple(names.term(a) for a in sym.arguments))
    used = set(program.relations())
    drop: set[int] = set()
    extra: list[Rule] = []
    for k, loop in enumerate(loops):
        mine = set(loop.seeds + loop.inner + loop.exits)
        if sum(len(rows[(k, rel)]) for kk, rel in rows if kk == k) > MAX_ROWS or mine & drop:
            continue  # too large; or one loop's exit is another's seed: the first replaced only
        drop.update(loop.seeds + loop.inner + loop.exits)
        for rel in dict.fromkeys(program.rules[i].head.relation for i in loop.exits):
            arity = exits[(k, rel)] - 1
            for i in loop.seeds:
                seed = program.rules[i]
                table_rows = [values + row[1:] for row in rows[(k, rel)]
                              if (values := _way_values(row[0], i)) is not None]
                if not table_rows:
                    continue
                table = _fresh(f"{PREFIX}{k}_{rel}_{i}", used)
                extra.extend(Rule(Atom(table, row)) for row in sorted(table_rows, key=str))
                taken = {v.name for v in seed.variables()}
                xs = tuple(Var(n) for n in _fresh_names("tgpl_out", arity, taken))
                extra.append(Rule(Atom(rel, xs), seed.body + (Atom(table, _seed_vars(seed) + xs),), seed.span))
    if not drop:
        return program
    return Program(tuple(r for i, r in enumerate(program.rules) if i not in drop) + tuple(extra))


def _relaxable(program: Program) -> bool:
    """Whether the game's relaxation can be afforded: its bound within tgpl.asp.narrow's NARROW_MOST (chess with
    its moves compiled, 4.5e15, does not fit in gigabytes)."""
    bounds = rule_bounds(program)
    return bounds is not None and sum(b.instances for b in bounds) <= NARROW_MOST


def _fresh_names(stem: str, n: int, taken: set[str]) -> list[str]:
    out: list[str] = []
    k = 0
    while len(out) < n:
        if f"{stem}{k}" not in taken:
            out.append(f"{stem}{k}")
        k += 1
    return out


def _fresh(name: str, used: set[str]) -> str:
    k = 0
    while f"{name}_{k}" in used:
        k += 1
    used.add(f"{name}_{k}")
    return f"{name}_{k}"
