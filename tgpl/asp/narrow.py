"""A game's relations narrowed by its relaxed game, so that its bound (tgpl.asp.estimate) sees what its rules do.

The bound of a rule is a product of its variables' domains, one domain per argument position of each
relation. Rules compiled from loops carry, in each pass's relation, every name the code after them reads:
Reversi's move carries the target square *and* its coordinates, the seat *and* its player, and counters
whose domain is that of the `plus` table they step through (0..64), not the 0..7 a walk on an 8x8 board
reaches. Each such argument multiplies the bound (the square's 64 by its coordinates' 64) though it adds no
ground instance, and lowered Reversi's bound, 5.6e8 against about 2e5 ground rules, was past `--max-ground`:
`check-gdl` refused it and the reasoner played it one state at a time.

Two rewrites, both exact on every state a play reaches, read from the relaxed game (its rules without their
negative literals, every `next` fed back as `true`, every legal move done: `gdl_relaxed_domain.lp`), whose
atoms are a superset of those any reachable state derives:

- **Dependent arguments dropped.** Where, in the relaxed game's tuples of a derived relation, the value at
  position j is a function of the values at positions K (the coordinates of the square, the player of the
  seat; a walk's square, of its start, direction and step), it is so in every reachable state's tuples, a
  subset of them. Position j is dropped from the relation, and a rule that reads the value at j joins a
  static table of that function, (K, j) as the relaxed tuples pair them: the atom with j,
  `R(.., a, .., b, ..)`, holds exactly when the atom without it and `T(a, b)` do. A relation read under
  `not` (or in an `or`), and GDL's own, are left whole.
- **Counters bounded.** Where an argument of a relation in a recursive cycle takes fewer values in the
  relaxed game than the bound's domain for it, the rules deriving the relation get a literal of a static
  table of those values on it (`tgpl.asp.recursion`'s argument: it never cuts a derivation of a reachable
  state), which the bound intersects its domain with.

Run only on a game whose bound is past `--max-ground` but not so far past it that narrowing cannot bring it
within (`narrow_pays`): the others keep their rules.
"""

from __future__ import annotations

from dataclasses import replace

from tgpl.asp.dependencies import DependencyGraph
from tgpl.asp.estimate import MAX_GROUND, position_sizes, rule_bounds
from tgpl.lowering.ir import GDL_RELATIONS, Atom, Const, Not, Or, Program, Rule, Term, Var

TABLE_PREFIX = "tgpl_fd_"
"""The static tables of the dropped arguments' functions."""

RANGE_PREFIX = "tgpl_range_"
"""The static tables of the counters' values."""


NARROW_MOST = 10**11
"""A bound past which a game's relaxed game is not afforded (here and by tgpl.asp.static_loops): narrowing reads
every tuple of every dynamic relation of the relaxed game, which clingo grounds uninterruptibly. Chess with its
moves compiled, 4.5e15, took over 2.5 GB and two minutes, where its lowering takes 0.3 GB and 24 s without."""


NARROW_PAYS_MOST = 10**9
"""A bound past which a game is not narrowed, its relaxed game affordable or not: so far past `--max-ground`'s
default, narrowing has not brought a bound within it, and its cost (the relaxed game grounded, every tuple of its
dynamic relations read back and compared) is lost. Reversi 8x8's 5.6e8 was narrowed to 2.7e5, Atari Go's 1.6e8 is
narrowed; Pente 9x9's 3.4e9 was narrowed only to 2.1e9 (its five-in-a-row test joins eight walks from the stone
placed, each walk's length taking every value the relaxed board gives it), in 40 of the lowering's 55 s of CPU
and 0.9 GB of its 1.2."""


def narrow_pays(program: Program, limit: int = MAX_GROUND) -> bool:
    """Whether the game's bound is past `limit` (what narrowing is for) but within NARROW_PAYS_MOST (what
    narrowing can bring within the limit; NARROW_MOST, what its relaxed game can afford, is larger). A game
    without recursion is not bounded (its rules are no loop's passes, and the bound costs hex's lowering a sixth
    more)."""
    graph = DependencyGraph.of(program)
    components = graph.components()
    if not any(graph.in_cycle(r, r, components) for r in graph.edges):
        return False
    bounds = rule_bounds(program)
    return bounds is not None and limit < sum(b.instances for b in bounds) <= NARROW_PAYS_MOST


def dynamic_relations(program: Program) -> set[str]:
    """The relations some rule with a body derives that depend, through any chain, on `true` or `does`, GDL's
    own aside: those whose arguments narrowing may drop or bound."""
    reads: dict[str, set[str]] = {}
    for rule in program.rules:
        if not rule.is_fact:
            reads.setdefault(rule.head.relation, set()).update(a.relation for a, _ in rule.body_atoms())
    moving = {"true", "does"}
    grew = True
    while grew:
        grew = False
        for head, body in reads.items():
            if head not in moving and body & moving:
                moving.add(head)
                grew = True
    return {r for r in moving if r in reads and r not in GDL_RELATIONS}


def narrow(program: Program, tuples: dict[str, set[tuple[Term, ...]]]) -> Program:
    """`program` with dependent arguments dropped and counters bounded (the module's docstring), `tuples` each
    dynamic relation's tuples in the relaxed game (a relation missing: left as it is)."""
    program, tuples = _drop_dependent(program, tuples)
    return _bound_counters(program, tuples)


# ------------------------------------------------------------------ dependent arguments
def _numbered(rows: set[tuple[Term, ...]], arity: int) -> list[tuple[int, ...]]:
    """The rows with each position's terms numbered: the dependencies are looked for by comparing numbers, not
    terms (Reversi 8x8's relaxed tuples: tens of thousands of rows, every pair of positions)."""
    numbers: list[dict[Term, int]] = [{} for _ in range(arity)]
    return [tuple(n.setdefault(t, len(n)) for n, t in zip(numbers, row)) for row in rows]


def _functional(rows, keys: tuple[int, ...], j: int) -> bool:
    seen: dict[tuple, int] = {}
    for row in rows:
        if seen.setdefault(tuple(row[i] for i in keys), row[j]) != row[j]:
            return False
    return True


def _dependents(rows: list[tuple[int, ...]], arity: int) -> dict[int, tuple[int, ...]]:
    """Position -> the positions it is a function of, for the positions to drop (a key is never dropped): one
    position where one will do (a square's coordinates), else, for a position of more than `JOINT_VALUES`
    values, the fewest of the others found by leaving out one at a time (a walk's square, a function of its
    start, direction and step)."""
    values = [len({row[k] for row in rows}) for k in range(arity)]
    dropped: dict[int, tuple[int, ...]] = {}
    keys: set[int] = set()
    for j in sorted(range(arity), key=lambda k: values[k]):
        if values[j] <= 1 or j in keys:
            continue  # a constant costs the bound nothing
        found = next(((i,) for i in sorted(range(arity), key=lambda k: -values[k])
                      if i != j and i not in dropped and values[i] > 1 and _functional(rows, (i,), j)), None)
        if found is None and values[j] > JOINT_VALUES:
            rest = tuple(k for k in range(arity) if k != j and k not in dropped and values[k] > 1)
            if rest and _functional(rows, rest, j):
                for k in sorted(rest, key=lambda k: -values[k]):
                    fewer = tuple(x for x in rest if x != k)
                    if fewer and _functional(rows, fewer, j):
                        rest = fewer
                found = rest
        if found is not None:
            dropped[j] = found
            keys.update(found)
    return dropped


JOINT_VALUES = 16
"""A position that takes more values than this is dropped as a function of several others, when one will not do."""


def _read_whole(program: Program) -> set[str]:
    """Relations read under `not` or inside an `or`: their atoms cannot be split into two."""
    whole: set[str] = set()

    def visit(lit, plain: bool) -> None:
        if isinstance(lit, Atom):
            if not plain:
                whole.add(lit.relation)
        elif isinstance(lit, Not):
            visit(lit.literal, False)
        elif isinstance(lit, Or):
            for each in lit.literals:
                visit(each, False)
    for rule in program.rules:
        for lit in rule.body:
            visit(lit, True)
    return whole


def _drop_dependent(program: Program, tuples: dict[str, set[tuple[Term, ...]]]
                    ) -> tuple[Program, dict[str, set[tuple[Term, ...]]]]:
    whole = _read_whole(program)
    arities = program.relations()
    plan: dict[str, dict[int, tuple[int, ...]]] = {}
    for relation, rows in sorted(tuples.items()):
        if relation in whole or len(arities.get(relation, ())) != 1 or not rows:
            continue
        arity = next(iter(arities[relation]))
        if arity < 2:
            continue
        dropped = _dependents(_numbered(rows, arity), arity)
        if dropped:
            plan[relation] = dropped
    if not plan:
        return program, tuples
    taken = set(arities)
    tables: dict[tuple, str] = {}  # the table's rows -> its name
    table_of: dict[tuple[str, tuple[int, ...]], tuple[str, tuple[int, ...]]] = {}  # (relation, keys) -> name, positions
    facts: list[Rule] = []
    for relation, dropped in plan.items():
        anchors: dict[tuple[int, ...], list[int]] = {}
        for j, i in sorted(dropped.items()):
            anchors.setdefault(i, []).append(j)
        for i, js in sorted(anchors.items()):
            rows = tuple(sorted({(*(row[k] for k in i), *(row[j] for j in js)) for row in tuples[relation]},
                                key=lambda row: tuple(map(str, row))))
            name = tables.get(rows)
            if name is None:
                name = _fresh(f"{TABLE_PREFIX}{len(tables)}", taken)
                tables[rows] = name
                facts.extend(Rule(Atom(name, row)) for row in rows)
            table_of[(relation, i)] = (name, tuple(js))
    rules = [_without_dependent(rule, plan, table_of) for rule in program.rules]
    narrowed = {relation: ({tuple(a for k, a in enumerate(row) if k not in plan[relation]) for row in rows}
                           if relation in plan else rows) for relation, rows in tuples.items()}
    return Program(tuple(rules + facts)), narrowed


def _without_dependent(rule: Rule, plan: dict[str, dict[int, tuple[int, ...]]],
                       table_of: dict[tuple[str, tuple[int, ...]], tuple[str, tuple[int, ...]]]) -> Rule:
    touched = rule.head.relation in plan or any(isinstance(lit, Atom) and lit.relation in plan for lit in rule.body)
    if not touched:
        return rule
    head = _kept(rule.head, plan)
    uses: dict[str, int] = {}  # each variable's occurrences once the head's dropped arguments are gone
    for lit in (head, *rule.body):
        for v in lit.variables():
            uses[v.name] = uses.get(v.name, 0) + 1
    body: list = []
    for lit in rule.body:
        if not (isinstance(lit, Atom) and lit.relation in plan):
            body.append(lit)
            continue
        body.append(_kept(lit, plan))
        dropped = plan[lit.relation]
        for i in sorted(set(dropped.values())):
            name, js = table_of[(lit.relation, i)]
            # joined only where the rule reads a dropped value: a constant there, or a variable used elsewhere
            if any(not isinstance(lit.args[j], Var) or uses[lit.args[j].name] > 1 for j in js):
                body.append(Atom(name, (*(lit.args[k] for k in i), *(lit.args[j] for j in js))))
    return replace(rule, head=head, body=tuple(body))


def _kept(atom: Atom, plan: dict[str, dict[int, tuple[int, ...]]]) -> Atom:
    dropped = plan.get(atom.relation)
    if not dropped:
        return atom
    return replace(atom, args=tuple(a for k, a in enumerate(atom.args) if k not in dropped))


# ------------------------------------------------------------------ counters
def _bound_counters(program: Program, tuples: dict[str, set[tuple[Term, ...]]]) -> Program:
    sizes = position_sizes(program)
    if sizes is None:
        return program
    graph = DependencyGraph.of(program)
    components = graph.components()
    taken = set(program.relations())
    tables: dict[tuple[Term, ...], str] = {}
    facts: list[Rule] = []
    ranges: dict[tuple[str, int], str] = {}
    for relation, rows in sorted(tuples.items()):
        if not rows or not graph.in_cycle(relation, relation, components):
            continue
        arity = len(next(iter(rows)))
        domains = sizes.get((relation, arity))
        if domains is None:
            continue
        for k in range(arity):
            values = tuple(sorted({row[k] for row in rows}, key=str))
            if len(values) >= domains[k]:
                continue
            name = tables.get(values)
            if name is None:
                name = _fresh(f"{RANGE_PREFIX}{len(tables)}", taken)
                tables[values] = name
                facts.extend(Rule(Atom(name, (v,))) for v in values)
            ranges[(relation, k)] = name
    if not ranges:
        return program
    rules = []
    for rule in program.rules:
        extra = []
        if not rule.is_fact:
            for k, arg in enumerate(rule.head.args):
                name = ranges.get((rule.head.relation, k))
                if name is None or not isinstance(arg, Var) or _copied(rule, k, arg):
                    continue
                extra.append(Atom(name, (arg,)))
        rules.append(replace(rule, body=rule.body + tuple(extra)) if extra else rule)
    return Program(tuple(rules + facts))


def _copied(rule: Rule, k: int, var: Var) -> bool:
    """Whether the head's argument k is the same variable at position k of a positive atom of the same relation
    in the body: the value passes unchanged, already within the range."""
    return any(isinstance(lit, Atom) and lit.relation == rule.head.relation and lit.arity == rule.head.arity
               and lit.args[k] == var for lit in rule.body)


def _fresh(name: str, taken: set[str]) -> str:
    while name in taken:
        name += "_"
    taken.add(name)
    return name


__all__ = ["dynamic_relations", "narrow", "narrow_pays"]
