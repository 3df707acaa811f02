"""A walk asked only whether its result is positive, keyed by where it stands: rows shared by every start.

Code compiled to rules makes a `while` loop a recursive relation that carries everything the loop knows: Reversi's
`FlipsIn` walks as `(flipsin_loop ?dx ?dy ?n ?s ?who ?x ?y)`, its start (x, y), its direction, the count n and the
square s it stands on, and each exit of the loop (`return n`, `return 0`) is a rule of `flipsin` read from it. A
grounder makes a row for every start, direction and step (3,936 ground rules, and 6,848 for the exits), where
hand-written GDL's `closes` is keyed by the square and the direction alone (1,512): a line of discs does not
depend on where the walk began. `Flips(...) > 0` (tgpl.lowering.existence) only asks whether some `FlipsIn` is
above 0, and the legal moves, `HasMove` and their look-ahead copies on a reasoner all pay for the rows.

Where a reader of the exits asks only that (`(flipsin ... ?v) (greater ?v 0)`, `?v` read nowhere else), the walk
is asked backwards instead: `(flipsin_positive_from <key> ?σ)` holds where a walk standing on the key reaches an
exit whose result is positive, the key being the loop's arguments its conditions read (the square, the mover)
and the fewest others that make the next key a function of the key (the direction), and σ whether the
result-to-be is above 0 so far (the count's sign: 0 at the start, above once stepped). The reader then asks
`(flipsin_positive <start>)`: a seed of the walk whose key is one of those. The loop and its exits stay for any
other reader (the move reads the count itself).

Exact. The key's successors are read from the relaxed game's rows of the loop (every row any state can have)
through the step's static tables, and the pass is done only where every row with the same key and sign has the
same successors: then which rows follow a row, and which exits they meet, depend on its key and sign alone, and
a start's result is positive exactly where some row after it meets an exit that makes one. Only where the loop
is one recursive relation with one step, its exits one relation read from it alone, the step's and exits'
conditions read nothing but the key, and the keys are fewer than the rows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

from tgpl.asp.gdl_to_asp import ClingoNames, rules_to_asp
from tgpl.asp.solver import answer_set
from tgpl.asp.tables import table_relations
from tgpl.lowering.walk_writes import KeyedWalk, forward_readers
from tgpl.lowering.ir import GDL_RELATIONS, Atom, Const, Or, Program, Rule, Term, Var, substitute

POSITIVE = "greater"
"""The comparison table whose `(greater ?v 0)` a reader asks (the emitter's: `greater` holds its rows)."""

MOST_KEYS = 6
"""The most arguments beyond the conditions' tried as part of the key (2^6 subsets at most)."""


@dataclass(frozen=True)
class _Walk:
    """A loop relation and its exits, as the pass reads them."""

    loop: str
    exits: str
    seeds: tuple[int, ...]  # indices of the loop's rules that do not read it
    step: int  # the index of its one recursive rule
    exit_rules: tuple[int, ...]  # indices of the exits' rules
    readers: tuple[tuple[int, int], ...]  # (rule index, body index of the exits' atom) asking only "> 0"
    result: int  # the exits' argument the readers test
    moved: tuple[int, ...]  # the loop's arguments the step changes
    conditions: frozenset[int]  # the loop's arguments the step's and exits' conditions read
    counted: int | None  # the loop's argument the positive exits return, if any
    shown: tuple[int, ...]  # per argument of the exits but the result, the loop's argument it is (carried)


def key_walks(program: Program, check: Callable[[], None] = lambda: None) -> Program:
    """`program` with each walk the module describes asked backwards, keyed by where it stands, by the readers
    that only ask whether its result is positive. `check`: the command's limits, checked at each relation looked
    at and each walk rewritten (Reversi's: a second of CPU)."""
    rules = list(program.rules)
    tables = table_relations(program)
    positive = {a.args[0] for a in tables.get(POSITIVE, ()) if len(a.args) == 2 and a.args[1] == Const("0")}
    if not positive:
        return program
    walks = []
    for rel in sorted(program.defined() - GDL_RELATIONS):
        check()
        w = _walk(rules, rel, tables, positive)
        if w is not None:
            walks.append(w)
    if not walks or not any(r.head.relation == "base" for r in rules):
        return program
    names = ClingoNames()
    shown = "".join(f"#show {names.functor(w.loop)}/{rules[w.step].head.arity}.\n" for w in walks)
    rows: dict[str, list[tuple[Term, ...]]] = {w.loop: [] for w in walks}
    by_name = {names.functor(w.loop): w.loop for w in walks}
    cone = Program(tuple(rules[i] for i in _cone(rules, {w.loop for w in walks} | {"base", "input"})))
    text = rules_to_asp(cone, names, drop_negation=True, tables={})
    for sym in answer_set([text, _DECLARED, shown]):
        if sym.name in by_name:
            rows[by_name[sym.name]].append(tuple(names.term(a) for a in sym.arguments))
    used = set(program.relations())
    for loop in rows:  # read again on the rules as rewritten so far (a rewrite moves the rules it keeps)
        check()
        w = _walk(rules, loop, tables, positive)
        made = _keyed(rules, w, rows[loop], tables, positive, used) if w is not None else None
        if made is not None:
            rules = made
    return Program(tuple(rules)) if rules != list(program.rules) else program


_DECLARED = "true(F) :- base(F).\ndoes(R,M) :- input(R,M).\n"
"""Every fluent `base` declares true, every move `input` declares done: a superset of any state's, which only
makes more rows for the check of the keys (and the rows' loop needs nothing else of the game)."""


def _cone(rules: list[Rule], wanted: set[str]) -> list[int]:
    """Indices of the rules of `wanted` and of every relation they read."""
    by_head: dict[str, list[int]] = {}
    for i, r in enumerate(rules):
        by_head.setdefault(r.head.relation, []).append(i)
    seen, todo = set(wanted), list(wanted)
    while todo:
        for i in by_head.get(todo.pop(), ()):
            for a, _ in rules[i].body_atoms():
                if a.relation not in seen and a.relation not in ("true", "does"):
                    seen.add(a.relation)
                    todo.append(a.relation)
    return sorted(i for rel in seen for i in by_head.get(rel, ()))


def _reads(rule: Rule, rel: str) -> list[int]:
    return [k for k, x in enumerate(rule.body) if any(a.relation == rel for a, _ in x.atoms())]


def _walk(rules: list[Rule], rel: str, tables: dict[str, list[Atom]], positive: set[Term]) -> _Walk | None:
    """`rel` as the loop of a walk the module keys, or None."""
    own = [i for i, r in enumerate(rules) if r.head.relation == rel]
    if rel in tables or not own:
        return None
    steps = [i for i in own if _reads(rules[i], rel)]
    seeds = tuple(i for i in own if i not in steps)
    if len(steps) != 1 or not seeds:
        return None
    step = rules[steps[0]]
    at = _reads(step, rel)
    if len(at) != 1 or not isinstance(step.body[at[0]], Atom):
        return None
    before = step.body[at[0]]
    if not all(isinstance(t, (Var, Const)) for t in (*before.args, *step.head.args)) or _repeats(before):
        return None
    readers = [i for i, r in enumerate(rules) if i not in own and _reads(r, rel)]
    exits = {rules[i].head.relation for i in readers}
    if len(exits) != 1:
        return None
    (out,) = exits
    if out in GDL_RELATIONS or out in tables:
        return None
    exit_rules = tuple(i for i, r in enumerate(rules) if r.head.relation == out)
    if set(exit_rules) != set(readers):
        return None
    loop_vars = {v.name for v in before.variables()}
    moves, conditions = _split_step(step, at[0], loop_vars, tables)
    if moves is None:
        return None
    moved = tuple(p for p, (h, b) in enumerate(zip(step.head.args, before.args)) if h != b or isinstance(h, Const))
    read = {v.name for x in conditions for v in x.variables()}
    cond = {p for p, t in enumerate(before.args) if isinstance(t, Const) or t.name in read}
    if any(p in moved and isinstance(step.head.args[p], Const) for p in range(len(before.args))):
        cond |= {p for p in moved if isinstance(step.head.args[p], Const)}
    atoms: list[Atom] = []
    for i in exit_rules:
        e = rules[i]
        k = _reads(e, rel)
        if len(k) != 1 or not isinstance(e.body[k[0]], Atom):
            return None
        a = e.body[k[0]]
        if not all(isinstance(t, (Var, Const)) for t in a.args) or len(a.args) != len(before.args) or _repeats(a):
            return None
        mine = {v.name for v in a.variables()}
        rest = [x for n, x in enumerate(e.body) if n != k[0]]
        if any(isinstance(x, Or) for x in rest) or any(v.name not in mine for x in rest for v in x.variables()):
            return None
        if any(v.name not in mine for v in e.head.variables()):
            return None
        read_e = {v.name for x in rest for v in x.variables()}
        cond |= {p for p, t in enumerate(a.args) if isinstance(t, Const) or t.name in read_e}
        atoms.append(a)
    found = _readers(rules, out, exit_rules)
    if found is None:
        return None
    asked, result = found
    counted, shown = _exits(rules, exit_rules, atoms, result, positive)
    if shown is None or counted in cond or any(p in moved for p in shown):
        return None
    return _Walk(rel, out, seeds, steps[0], exit_rules, tuple(asked), result, moved, frozenset(cond), counted,
                 tuple(shown))


def _repeats(atom: Atom) -> bool:
    names = [t.name for t in atom.args if isinstance(t, Var)]
    return len(names) != len(set(names))


def _split_step(step: Rule, at: int, loop_vars: set[str], tables: dict[str, list[Atom]]):
    """(the step's static tables that bind what it moves to, its conditions), or (None, None) where its
    conditions read more than the loop's row."""
    head_vars = {v.name for v in step.head.variables()}
    moves: list[Atom] = []
    conditions = []
    for n, x in enumerate(step.body):
        if n == at:
            continue
        names = {v.name for v in x.variables()}
        if isinstance(x, Atom) and x.relation in tables and names - loop_vars:
            moves.append(x)
        elif isinstance(x, Or) or names - loop_vars:
            return None, None
        else:
            conditions.append(x)
    bound = loop_vars | {v.name for a in moves for v in a.variables()}
    if head_vars - bound or not moves:
        return None, None
    return moves, conditions


def _readers(rules: list[Rule], out: str, exit_rules: tuple[int, ...]):
    """The rules that read `out` only to ask whether one argument is positive, with the argument, or None."""
    asked: list[tuple[int, int]] = []
    result: int | None = None
    for i, r in enumerate(rules):
        if i in exit_rules:
            continue
        for k, x in enumerate(r.body):
            if not (isinstance(x, Atom) and x.relation == out):
                continue
            for p, t in enumerate(x.args):
                if isinstance(t, Var) and _only_positive(r, k, t) and result in (None, p):
                    asked.append((i, k))
                    result = p
                    break
    return (asked, result) if asked else None


def _only_positive(rule: Rule, k: int, v: Var) -> bool:
    """Whether `v`, read by the body's k-th literal, is read elsewhere only by one `(greater v 0)`."""
    if sum(1 for t in rule.body[k].args if t == v) != 1 or v in rule.head.variables():
        return False
    others = [x for n, x in enumerate(rule.body) if n != k and v in x.variables()]
    return (len(others) == 1 and isinstance(others[0], Atom) and others[0].relation == POSITIVE
            and others[0].args == (v, Const("0")))


def _exits(rules: list[Rule], exit_rules: tuple[int, ...], atoms: list[Atom], result: int, positive: set[Term]):
    """(the loop's argument the exits return as their result, if any; per argument of the exits but the result,
    the loop's argument it is), or (None, None) where the exits do not say them alike."""
    counted: int | None = None
    shown: list[set[int]] | None = None
    for i, a in zip(exit_rules, atoms):
        head = rules[i].head.args
        r = head[result]
        if isinstance(r, Const):
            if r not in positive:
                continue  # never positive: no reader asks it
        else:
            p = a.args.index(r)
            if counted not in (None, p):
                return None, None
            counted = p
        places = [{p for p, t in enumerate(a.args) if t == h} for n, h in enumerate(head) if n != result]
        shown = places if shown is None else [x & y for x, y in zip(shown, places)]
    if shown is None or not all(shown):
        return None, None
    return counted, [min(x) for x in shown]


def _keyed(rules: list[Rule], w: _Walk, rows: list[tuple[Term, ...]], tables: dict[str, list[Atom]],
           positive: set[Term], used: set[str]) -> list[Rule] | None:
    """`rules` with the walk `w` keyed, or None where its rows do not allow it or gain nothing."""
    step = rules[w.step]
    before = step.body[_reads(step, w.loop)[0]]
    moves, conditions = _split_step(step, _reads(step, w.loop)[0], {v.name for v in before.variables()}, tables)
    indexes: dict = {}
    after = {row: _successors(row, before, step.head, moves, tables, indexes) for row in rows}
    sign = (lambda row: Const("1") if row[w.counted] in positive else Const("0")) if w.counted is not None else None
    free = [p for p in range(len(before.args)) if p not in w.conditions and p not in w.moved and p != w.counted]
    for size in range(min(len(free), MOST_KEYS) + 1):
        for extra in combinations(free, size):
            key = tuple(sorted(w.conditions | set(extra)))
            table = _steps(rows, after, key, sign)
            if table is not None:
                break
        else:
            continue
        break
    else:
        return None
    keys = {k for k in table}
    if len(keys) >= len(rows):
        return None
    walk, domain, moved_to, asked = (_fresh(f"{w.exits}_{s}", used) for s in ("from", "at", "step", "positive"))
    kv = {p: Var(f"k{p}") for p in key}
    out = [r for r in rules]
    made: list[Rule] = [Rule(Atom(domain, k)) for k in sorted(keys, key=str)]
    made += [Rule(Atom(moved_to, k + n)) for k in sorted(keys, key=str) for n in sorted(table[k], key=str)]
    signs = (Const("0"), Const("1")) if sign is not None else (None,)
    for i in w.exit_rules:
        e = rules[i]
        k = _reads(e, w.loop)[0]
        a = e.body[k]
        res = e.head.args[w.result]
        binding = {a.args[p].name: kv[p] for p in key if isinstance(a.args[p], Var)}
        terms = tuple(a.args[p] if isinstance(a.args[p], Const) else kv[p] for p in key)
        rest = tuple(substitute(x, binding) for n, x in enumerate(e.body) if n != k)
        for s in signs:
            if isinstance(res, Const) and res not in positive:
                continue
            if isinstance(res, Var) and s != Const("1"):
                continue
            head = terms + ((s,) if s is not None else ())
            made.append(Rule(Atom(walk, head), (Atom(domain, head),) + rest, e.span))
    binding = {before.args[p].name: kv[p] for p in key if isinstance(before.args[p], Var)}
    terms = tuple(before.args[p] if isinstance(before.args[p], Const) else kv[p] for p in key)
    nxt = tuple(Var(f"n{p}") for p in key)
    here = terms + ((Var("s0"),) if sign is not None else ())
    there = nxt + ((Var("s1"),) if sign is not None else ())
    made.append(Rule(Atom(walk, here), tuple(substitute(x, binding) for x in conditions)
                     + (Atom(moved_to, here + there), Atom(walk, there)), step.span))
    for i in w.seeds:
        s = rules[i]
        h = s.head.args
        if sign is not None:
            v = h[w.counted]
            if not isinstance(v, Const):
                return None
            start = tuple(h[p] for p in key) + (Const("1") if v in positive else Const("0"),)
        else:
            start = tuple(h[p] for p in key)
        made.append(Rule(Atom(asked, tuple(h[p] for p in w.shown)), s.body + (Atom(walk, start),), s.span))
    for i, k in w.readers:
        r = out[i]
        a = r.body[k]
        v = a.args[w.result]
        body = tuple(Atom(asked, tuple(t for n, t in enumerate(a.args) if n != w.result)) if n == k else x
                     for n, x in enumerate(r.body) if not (isinstance(x, Atom) and x.relation == POSITIVE
                                                           and x.args == (v, Const("0"))))
        out[i] = Rule(r.head, body, r.span)
    keyed = _for_writes(rules, w, before, conditions, key, table, rows, positive, walk) if sign else None
    forward = forward_readers(out, keyed, tables, lambda name: _fresh(name, used)) if keyed is not None else None
    out = forward if forward is not None else out
    still = any(_reads(r, w.exits) for n, r in enumerate(out) if n not in w.exit_rules)
    drop = set() if still else set(w.exit_rules) | set(w.seeds) | {w.step}
    return [r for n, r in enumerate(out) if n not in drop] + made


def _for_writes(rules: list[Rule], w: _Walk, before: Atom, conditions, key: tuple[int, ...], table: dict,
                rows: list[tuple[Term, ...]], positive: set[Term], walk: str) -> KeyedWalk | None:
    """The keyed walk as tgpl.lowering.walk_writes reads it: its steps without the sign (a key goes to one key
    whatever the sign: a row's step is a function of it; a key with none is left out), or None where a key goes to
    more than one."""
    nexts: dict[tuple[Term, ...], tuple[Term, ...]] = {}
    for k, after in table.items():
        for n in after:
            if nexts.setdefault(k[:-1], n[:-1]) != n[:-1]:
                return None
    return KeyedWalk(w.loop, w.exits, tuple(rules[i] for i in w.exit_rules), tuple(rules[i] for i in w.seeds),
                     before, tuple(conditions), key, w.counted, w.shown, w.result, frozenset(positive), walk, nexts,
                     tuple(rows))


def _successors(row, before: Atom, head: Atom, moves: list[Atom], tables: dict[str, list[Atom]],
                indexes: dict) -> frozenset:
    """The rows the step's static tables make of `row` (its conditions left out: they read the key alone)."""
    binding: dict[str, Term] = {}
    for t, v in zip(before.args, row):
        if isinstance(t, Const):
            if t != v:
                return frozenset()
        elif binding.setdefault(t.name, v) != v:
            return frozenset()
    found = [binding]
    for m in moves:
        found = [b2 for b in found for fact in _index(m, tables, b, indexes)
                 if (b2 := _match(m.args, fact.args, b)) is not None]
    return frozenset(tuple(t if isinstance(t, Const) else b[t.name] for t in head.args) for b in found)


def _index(m: Atom, tables: dict[str, list[Atom]], binding: dict[str, Term], indexes: dict) -> list[Atom]:
    """The facts of `m`'s table that agree with `binding` on the arguments it binds (`indexes`: made so far)."""
    at = tuple(p for p, t in enumerate(m.args) if isinstance(t, Const) or t.name in binding)
    index = indexes.get((m.relation, at))
    if index is None:
        index = indexes[(m.relation, at)] = {}
        for fact in tables[m.relation]:
            index.setdefault(tuple(fact.args[p] for p in at), []).append(fact)
    return index.get(tuple(m.args[p] if isinstance(m.args[p], Const) else binding[m.args[p].name] for p in at), [])


def _match(patterns, values, binding: dict[str, Term]) -> dict[str, Term] | None:
    out = dict(binding)
    for p, v in zip(patterns, values):
        if isinstance(p, Var):
            if out.setdefault(p.name, v) != v:
                return None
        elif p != v:
            return None
    return out


def _steps(rows, after, key: tuple[int, ...], sign) -> dict | None:
    """Key (and sign) -> the keys (and signs) the step goes to, where every row of a key goes alike; else None."""
    def keyed(row):
        return tuple(row[p] for p in key) + ((sign(row),) if sign is not None else ())

    table: dict[tuple, frozenset] = {}
    for row in rows:
        k, n = keyed(row), frozenset(keyed(x) for x in after[row])
        if table.setdefault(k, n) != n:
            return None
    return table


def _fresh(name: str, used: set[str]) -> str:
    k, out = 0, name
    while out in used:
        k += 1
        out = f"{name}_{k}"
    used.add(out)
    return out


__all__ = ["key_walks"]
