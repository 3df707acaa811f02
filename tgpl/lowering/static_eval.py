"""Static relations evaluated bottom-up at lowering time, in Python, under the command's limits.

    work = Work(limits)                                        # counts steps, checks the limits
    facts = static_facts(program, static, wanted, work)        # None: given up
    rows = join(literals, kept, facts, JOIN_ROWS, work)         # None: given up

The static fold (tgpl.lowering.static_fold) needs the rows of the static relations a table reads. clingo's
grounding would give them, but it cannot be interrupted and nothing bounds it (`--max-ground` is checked on
the game's rules, not on this), so a game refused for its size could still spend minutes there. This module
evaluates the static rules itself: stratum by stratum (the strongly connected components of the relations the
tables need, dependencies first; a component that reads itself under `not` is not stratified, and the
evaluation is given up), each recursive component semi-naively (a rule that reads the component is run again
only with one of its literals over the facts the last round found). It calls `limits.check()` every
CHECK_EVERY steps of work (a step: a partial row made by a join), so `--max-seconds` and `--max-memory` stop it
as they stop the rest of the lowering, and it gives up, never fails, past MAX_FACTS facts or past STEP_ROWS
partial rows in one join: the caller then leaves the rules as they are. Every bound is a count.

The evaluation is the model clingo would compute for the same rules: positive atoms are joined (the literal
with the most variables bound first, the smaller relation on a tie, through an index on the bound positions
kept up to date as relations grow), `distinct` and `not` are tested once their variables are bound, and an
unsafe rule (a variable that no positive atom binds) gives up.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from tgpl.graphs import strongly_connected
from tgpl.lowering.ir import Atom, Const, Distinct, Literal, Not, Program, Rule, Term, Var, expand_or, is_ground, substitute
from tgpl.limits import Limits

MAX_FACTS = 200_000
"""Facts of the static relations past which the evaluation is given up. Reversi 8x8's compiled game needs
9,786 (its `plus`, `less` and board tables, and its scans split out of the states); a game whose static
relations hold twenty times that is one where tables would cost an agent more than the joins they save."""
STEP_ROWS = 200_000
"""Partial rows one join may make before the evaluation is given up (a join of two arithmetic tables grows into
their product)."""
CHECK_EVERY = 4_096
"""Steps of work (partial rows) between two calls of `limits.check()`."""

Row = tuple[Term, ...]
Key = tuple[str, int]  # a relation and an arity: GDL allows one name at several arities


class GiveUp(Exception):
    """The evaluation went past one of its bounds, or met rules it cannot evaluate (unsafe, not stratified)."""


@dataclass
class Facts:
    """The rows of each (relation, arity), in the order found, with indexes on bound positions that grow with
    them (a recursive relation gains rows every round: its indexes are extended, not rebuilt)."""

    rows: dict[Key, list[Row]] = field(default_factory=lambda: defaultdict(list))
    seen: dict[Key, set[Row]] = field(default_factory=lambda: defaultdict(set))
    indexes: dict[tuple[Key, tuple[int, ...]], tuple[list[int], dict[Row, list[Row]]]] = field(default_factory=dict)

    def add(self, key: Key, row: Row) -> bool:
        """Adds the row; whether it was new."""
        seen = self.seen[key]
        if row in seen:
            return False
        seen.add(row)
        self.rows[key].append(row)
        return True

    def size(self, key: Key) -> int:
        return len(self.rows.get(key, ()))

    def __contains__(self, item: tuple[Key, Row]) -> bool:
        key, row = item
        return row in self.seen.get(key, ())

    def index(self, key: Key, positions: tuple[int, ...]) -> dict[Row, list[Row]]:
        """Rows of `key` by their values at `positions`, brought up to date."""
        found = self.indexes.get((key, positions))
        if found is None:
            found = self.indexes[(key, positions)] = ([0], defaultdict(list))
        done, index = found
        rows = self.rows.get(key, ())
        for row in rows[done[0]:]:
            index[tuple(row[i] for i in positions)].append(row)
        done[0] = len(rows)
        return index

    def of(self, relation: str) -> set[Row]:
        """Every row of the relation, whatever its arity."""
        return {row for (name, _), rows in self.rows.items() if name == relation for row in rows}


@dataclass
class Work:
    """Steps of work done, the limits checked every CHECK_EVERY of them."""

    limits: Limits
    steps: int = 0

    def step(self, n: int = 1) -> None:
        before = self.steps
        self.steps += n
        if before // CHECK_EVERY != self.steps // CHECK_EVERY:
            self.limits.check()


def _vars(node) -> set[str]:
    return {v.name for v in node.variables()}


def solutions(body: tuple[Literal, ...], facts: Facts, work: Work, bound_rows: int,
              delta: tuple[int, list[Row]] | None = None) -> list[dict[str, Term]]:
    """The bindings of the body's variables that satisfy it over `facts` (raises GiveUp past `bound_rows` partial
    rows, or for a literal it cannot test). `delta` = (j, rows): the positive atom body[j] reads these rows only."""
    positive = [j for j, lit in enumerate(body) if isinstance(lit, Atom)]
    checks = [lit for lit in body if not isinstance(lit, Atom)]
    bound: set[str] = set()
    bindings, checks = _checked([{}], checks, bound, facts)  # the ground ones first
    if delta is not None:
        j, rows = delta
        positive.remove(j)
        atom = body[j]
        bindings = []
        for row in rows:
            if len(row) == len(atom.args):
                found = _match(atom.args, row, {})
                if found is not None:
                    bindings.append(found)
        work.step(len(bindings))
        bound |= _vars(atom)
        bindings, checks = _checked(bindings, checks, bound, facts)
    while positive and bindings:
        positive.sort(key=lambda i: (-len(_vars(body[i]) & bound), facts.size((body[i].relation, body[i].arity)), i))
        atom = body[positive.pop(0)]
        fixed = tuple(i for i, a in enumerate(atom.args) if _vars(a) <= bound)  # known before the step: an index
        index = facts.index((atom.relation, atom.arity), fixed)
        match = _matcher(atom.args, fixed)
        key = _keyer(atom.args, fixed)
        grown: list[dict[str, Term]] = []
        for binding in bindings:
            for row in index.get(key(binding), ()):
                found = match(row, binding)
                if found is not None:
                    grown.append(found)
            if len(grown) > bound_rows:
                raise GiveUp(f"more than {bound_rows:,} partial rows")
        work.step(len(grown) + 1)
        bindings = grown
        bound |= _vars(atom)
        bindings, checks = _checked(bindings, checks, bound, facts)
    if positive:  # no binding left: the body has no solution
        return []
    if checks:
        raise GiveUp("a literal whose variables no positive atom binds")
    return bindings


def _checked(bindings: list[dict[str, Term]], checks: list[Literal], bound: set[str], facts: Facts
             ) -> tuple[list[dict[str, Term]], list[Literal]]:
    """The bindings that pass every check whose variables are all bound, and the checks left for later."""
    ready = [lit for lit in checks if _vars(lit) <= bound]
    if not ready:
        return bindings, checks
    left = [lit for lit in checks if not _vars(lit) <= bound]
    return [b for b in bindings if all(_holds(lit, b, facts) for lit in ready)], left


def _holds(lit: Literal, binding: dict[str, Term], facts: Facts) -> bool:
    if isinstance(lit, Distinct):
        return substitute(lit.left, binding) != substitute(lit.right, binding)
    if isinstance(lit, Not):
        inner = lit.literal
        if isinstance(inner, Atom):
            return ((inner.relation, inner.arity), tuple(substitute(a, binding) for a in inner.args)) not in facts
        if isinstance(inner, Distinct):
            return not _holds(inner, binding, facts)
    raise GiveUp(f"no evaluation of {lit}")


def _keyer(patterns: tuple[Term, ...], fixed: tuple[int, ...]):
    """The index key of a binding: the values of the `fixed` positions (variables read, constants as they are)."""
    parts = [patterns[i] for i in fixed]
    if all(isinstance(p, Var) for p in parts):
        names = [p.name for p in parts]
        return lambda binding: tuple([binding[n] for n in names])
    return lambda binding: tuple([substitute(p, binding) for p in parts])


def _matcher(patterns: tuple[Term, ...], fixed: tuple[int, ...]):
    """`_match` for rows found through an index on `fixed` (those positions already agree): where the other
    positions are variables, as they mostly are, a copy of the binding with them set, their repeats compared."""
    first: dict[str, int] = {}
    sets: list[tuple[str, int]] = []
    same: list[tuple[int, int]] = []
    for i, p in enumerate(patterns):
        if i in fixed:
            continue
        if not isinstance(p, Var):
            return lambda row, binding: _match(patterns, row, binding)
        if p.name in first:
            same.append((first[p.name], i))
        else:
            first[p.name] = i
            sets.append((p.name, i))

    def match(row: Row, binding: dict[str, Term]) -> dict[str, Term] | None:
        for i, j in same:
            if row[i] != row[j]:
                return None
        out = dict(binding)
        for name, i in sets:
            out[name] = row[i]
        return out
    return match


def _match(patterns: tuple[Term, ...], values: Row, binding: dict[str, Term]) -> dict[str, Term] | None:
    """`binding` extended so that the patterns are the values, or None (`binding` itself is never changed)."""
    out = binding
    todo = list(zip(patterns, values))
    while todo:
        pattern, value = todo.pop()
        if isinstance(pattern, Var):
            known = out.get(pattern.name)
            if known is None:
                out = dict(out) if out is binding else out
                out[pattern.name] = value
            elif known != value:
                return None
        elif isinstance(pattern, Const):
            if pattern != value:
                return None
        elif not (hasattr(value, "args") and value.name == pattern.name and len(value.args) == len(pattern.args)):
            return None
        else:
            todo.extend(zip(pattern.args, value.args))
    return out


# ------------------------------------------------------------------ strata
def _strata(deps: dict[str, set[str]], roots: Iterable[str]) -> list[set[str]]:
    """The strongly connected components of the relations `roots` reach through `deps`, dependencies first."""
    return [set(c) for c in strongly_connected(sorted(roots), lambda node: sorted(deps.get(node, ())))]


def static_facts(program: Program, static: set[str], wanted: set[str], work: Work,
                 max_facts: int | None = None) -> Facts | None:
    """The rows of the static relations in `wanted` and of those they read, or None where the evaluation was
    given up (see the module's docstring). `static`: relations whose rules read no state (their rules are the
    only ones evaluated); `work` counts the steps and checks the limits."""
    max_facts = MAX_FACTS if max_facts is None else max_facts
    rules: dict[str, list[Rule]] = defaultdict(list)
    deps: dict[str, set[str]] = defaultdict(set)
    for rule in program.rules:
        name = rule.head.relation
        if name in static:
            rules[name].extend(expand_or(rule))
            deps[name].update(a.relation for a, _ in rule.body_atoms())
    facts = Facts()
    total = 0
    try:
        for comp in _strata(deps, (w for w in wanted if w in static)):
            if not comp <= static:
                return None
            comp_rules = [r for name in sorted(comp) for r in rules.get(name, ())]
            for rule in comp_rules:
                if any(not positive and a.relation in comp for a, positive in rule.body_atoms()):
                    return None  # not stratified: no model to compute
            total = _fixpoint(comp, comp_rules, facts, work, total, max_facts)
    except GiveUp:
        return None
    return facts


def _fixpoint(comp: set[str], rules: list[Rule], facts: Facts, work: Work, total: int, max_facts: int) -> int:
    """Adds the component's rows to `facts` (semi-naive where it is recursive); the new total of facts."""
    def fire(rule: Rule, delta: tuple[int, list[Row]] | None, into: list[tuple[Key, Row]]) -> None:
        for binding in solutions(rule.body, facts, work, STEP_ROWS, delta):
            row = tuple(substitute(a, binding) for a in rule.head.args)
            if not all(is_ground(a) for a in row):
                raise GiveUp(f"an unsafe rule: {rule}")
            into.append(((rule.head.relation, rule.head.arity), row))

    def added(found: list[tuple[Key, Row]]) -> dict[Key, list[Row]]:
        nonlocal total
        new: dict[Key, list[Row]] = defaultdict(list)
        for key, row in found:
            if facts.add(key, row):
                new[key].append(row)
                total += 1
        if total > max_facts:
            raise GiveUp(f"more than {max_facts:,} static facts")
        return new

    found: list[tuple[Key, Row]] = []
    for rule in rules:
        fire(rule, None, found)
    delta = added(found)
    recursive = [(rule, [j for j, lit in enumerate(rule.body) if isinstance(lit, Atom) and lit.relation in comp])
                 for rule in rules]
    recursive = [(rule, js) for rule, js in recursive if js]
    while delta and recursive:
        found = []
        for rule, js in recursive:
            for j in js:
                rows = delta.get((rule.body[j].relation, rule.body[j].arity))
                if rows:
                    fire(rule, (j, rows), found)
        delta = added(found)
    return total


def join(lits: tuple[Literal, ...], kept: tuple[str, ...], facts: Facts, bound_rows: int, work: Work
         ) -> set[Row] | None:
    """The projection on `kept` of the conjunction's solutions over `facts`; None past `bound_rows` partial rows."""
    try:
        found = solutions(lits, facts, work, bound_rows)
    except GiveUp:
        return None
    return {tuple(b[v] for v in kept) for b in found}
