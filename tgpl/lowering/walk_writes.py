"""What a move writes along a walk, walked forwards from where it stands: the count it reads no longer kept.

Reversi's move asks `k = FlipsIn(...)` and then writes `Disc` on the first k squares of the line. Compiled to
rules, each of its readers joins the walk's exits, `(flipsin ?x ?y ?dx ?dy ?who ?k)`, with a table of the loop
that writes (`tgpl.asp.static_loops`): for each start and each k, the squares written. A grounder then makes a
row of the walk for every start, direction and step, and a reader's row for every start and every count (the
loop and its exits 10,784 ground rules, the writes 9,776), where hand-written GDL's `flipping` stands on a square
and a direction (1,344). Once tgpl.lowering.keyed_walks has keyed the walk backwards (`flipsin_from`: a walk
standing on the key reaches a positive exit), a reader of the count is one of two kinds:

- the count is used not at all: the table gives the same rows whatever the count (the state after the loop, its
  counter dead), and has a row for every count the walk can return from that start. The reader reads the table
  without the count, and not the walk: a call of a compiled function has one result.
- the count says how far to write: the table's rows for k are those for k - 1 and the rows the k-th step adds,
  none for 0, and what the i-th step adds depends only on where the walk stands before it (the key) and on the
  fewest of the reader's other arguments (its context, e.g. the mover). The reader then asks a forward walk,
  `(flipsin_walk <key> <context>)`, seeded where the reader's call starts when that walk is positive (`from`),
  stepping while the loop's condition holds: its rows that step are the steps 0..k-1 of the loop, and a table
  keyed by the key gives what each one writes.

Exact, from the rows: the walk's path from each start is read from the relaxed game's rows of the loop (every
row any state can have), whose count must number its steps 0, 1, 2, ...; the next key of each key is one (the
step's tables, read by keyed_walks); and a reader is rewritten only where, for every count its table has and
every count the exits can give on the relaxed rows (a count the table lacks wrote nothing), what the forward walk
and the new table give is exactly what the table gave. That a row steps or exits, never both, and that a row whose
condition holds has a next row, is the compiled `while`'s: its exits are the code after the loop. A walk seeded
by several readers in one state merges them: each one's rows and writes are the union of what the readers wrote.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from tgpl.lowering.ir import Atom, Const, Distinct, Literal, Rule, Term, Var, substitute

MOST_CONTEXT = 4
"""The most of a reader's other arguments tried as its context (2^4 subsets at most)."""


@dataclass(frozen=True)
class KeyedWalk:
    """A walk keyed by tgpl.lowering.keyed_walks, as this pass reads it."""

    loop: str
    exits: str
    exit_rules: tuple[Rule, ...]
    seeds: tuple[Rule, ...]  # the loop's rules that do not read it
    before: Atom  # the step's loop atom
    conditions: tuple[Literal, ...]  # the step's conditions (over the key's variables of `before`)
    key: tuple[int, ...]  # the loop's arguments of the key
    counted: int  # the loop's argument counting its steps
    shown: tuple[int, ...]  # per argument of the exits but the result, the loop's argument it is
    result: int  # the exits' argument of the result
    positive: frozenset[Term]  # the constants above 0
    walk: str  # the keyed relation: (walk <key> <sign>) holds where a walk standing on it reaches a positive exit
    nexts: dict[tuple[Term, ...], tuple[Term, ...]]  # key -> the key the step goes to
    rows: tuple[tuple[Term, ...], ...]  # the relaxed game's rows of the loop


def forward_readers(rules: list[Rule], w: KeyedWalk, tables: dict[str, list[Atom]], fresh) -> list[Rule] | None:
    """`rules` with each reader of `w`'s exits that reads the count only through a table rewritten as the module
    says (the exits and the loop left to the caller to drop once nothing reads them), or None where none is."""
    paths = _paths(w)
    if paths is None:
        return None
    given = {start: frozenset().union(*(_possible(w, row) for row in rows)) for start, rows in paths.items()}
    out = list(rules)
    made: list[Rule] = []
    seeds: dict = {}  # what readers made, for others to share: a seed -> {context -> its forward walk}, the
    # guards by their rows, and (None) the step's table
    changed = False
    for i, r in enumerate(rules):
        if r in w.exit_rules:
            continue
        at = [k for k, x in enumerate(r.body) if isinstance(x, Atom) and x.relation == w.exits]
        if len(at) != 1 or any(a.relation == w.exits for x in r.body if not isinstance(x, Atom) for a, _ in x.atoms()):
            continue
        rewritten = _rewrite(r, at[0], w, tables, paths, given, fresh, made, seeds)
        if rewritten is not None:
            out[i] = rewritten
            changed = True
    return out + made if changed else None


def _paths(w: KeyedWalk) -> dict[tuple[Term, ...], list[tuple[Term, ...]]] | None:
    """Per start (the loop's shown arguments), its rows in the order of its steps; None where a count does not
    number its steps or a row does not go to its successor's key."""
    by_start: dict[tuple[Term, ...], list[tuple[Term, ...]]] = {}
    for row in w.rows:
        by_start.setdefault(tuple(row[p] for p in w.shown), []).append(row)
    paths = {}
    for start, rows in by_start.items():
        try:
            rows.sort(key=lambda row: int(row[w.counted].name))
        except ValueError:
            return None
        if [row[w.counted].name for row in rows] != [str(n) for n in range(len(rows))]:
            return None
        for a, b in zip(rows, rows[1:]):
            if w.nexts.get(tuple(a[p] for p in w.key)) != tuple(b[p] for p in w.key):
                return None
        paths[start] = rows
    return paths


def _possible(w: KeyedWalk, row: tuple[Term, ...]) -> set[Term]:
    """The results the exits can give at `row` (their `distinct` tests evaluated; the state's assumed)."""
    out: set[Term] = set()
    for e in w.exit_rules:
        a = next(x for x in e.body if isinstance(x, Atom) and x.relation == w.loop)
        binding: dict[str, Term] = {}
        ok = True
        for t, v in zip(a.args, row):
            if isinstance(t, Const):
                ok = ok and t == v
            elif binding.setdefault(t.name, v) != v:
                ok = False
        for x in e.body:
            if ok and isinstance(x, Distinct):
                left, right = substitute(x.left, binding), substitute(x.right, binding)
                if isinstance(left, Const) and left == right:
                    ok = False
        if ok:
            res = substitute(e.head.args[w.result], binding)
            if isinstance(res, Const):
                out.add(res)
            else:
                return {Const("?")}  # a result that is not a constant: no cover can be checked
    return out


def _rewrite(r: Rule, k: int, w: KeyedWalk, tables, paths, given, fresh, made: list[Rule], seeds: dict
             ) -> Rule | None:
    """The reader `r` (its k-th literal the exits' atom) rewritten, or None (`given`: per start, the results its
    walk's exits can give)."""
    e = r.body[k]
    kv = e.args[w.result]
    if not isinstance(kv, Var) or kv in r.head.variables():
        return None
    others = [n for n, x in enumerate(r.body) if n != k and kv in x.variables()]
    if len(others) != 1 or not isinstance(r.body[others[0]], Atom) or r.body[others[0]].relation not in tables:
        return None
    j = others[0]
    t = r.body[j]
    if sum(1 for a in t.args if a == kv) != 1 or sum(1 for a in e.args if a == kv) != 1:
        return None
    rest = [x for n, x in enumerate(r.body) if n not in (k, j)]
    bound = {v.name for x in rest for v in x.variables()}
    e_args = [a for n, a in enumerate(e.args) if n != w.result]
    start_of = {w.shown[m]: a for m, a in enumerate(e_args)}  # the loop's argument -> the reader's term
    kc = t.args.index(kv)
    cols = [c for c in range(len(t.args)) if c != kc]
    outs = [c for c in cols if isinstance(t.args[c], Var) and t.args[c].name not in bound
            and t.args[c] not in e_args]
    if any(v.name not in bound and v not in [t.args[c] for c in outs] for v in r.head.variables()):
        return None
    fixed = [c for c in cols if c not in outs]  # bound by the rest of the body, the exits' start, or constants
    groups: dict[tuple[Term, ...], dict[Term, set[tuple[Term, ...]]]] = {}
    for row in tables[t.relation]:
        if not _matches(t, row):
            continue
        g = tuple(row.args[c] for c in fixed)
        groups.setdefault(g, {}).setdefault(row.args[kc], set()).add(tuple(row.args[c] for c in outs))
    starts = _starts(groups, fixed, t, start_of, w, paths)
    groups = {g: rows for g, rows in groups.items() if starts[g]}  # no walk starts there: never read
    if len(w.seeds) == 1 and _independent(groups, starts, given):
        seeded = _seed_body(w.seeds[0], w, e_args)
        if seeded is None or any(v.name.startswith("w_") for v in r.variables()):
            return None
        name = fresh(f"{t.relation}_any")
        reader = _safe(Rule(r.head, tuple(rest) + seeded[1] + (Atom(name, tuple(t.args[c] for c in fixed + outs)),),
                            r.span))
        if reader is not None:
            made.extend(Rule(Atom(name, g + o)) for g in sorted(groups, key=str)
                        for o in sorted(next(iter(groups[g].values())), key=str))
        return reader
    if not _counts_steps(w):
        return None
    return _forward(r, rest, e, t, fixed, outs, groups, starts, start_of, w, paths, given, fresh, made, seeds)


def _counts_steps(w: KeyedWalk) -> bool:
    """Whether every result above 0 the exits give is the count of the row they read (the steps made)."""
    for e in w.exit_rules:
        a = next(x for x in e.body if isinstance(x, Atom) and x.relation == w.loop)
        res = e.head.args[w.result]
        if isinstance(res, Const) and res in w.positive or isinstance(res, Var) and res != a.args[w.counted]:
            return False
    return True


def _matches(pattern: Atom, row: Atom) -> bool:
    """Whether the table's row can stand for the reader's atom (its constants, its repeated variables)."""
    seen: dict[str, Term] = {}
    for p, v in zip(pattern.args, row.args):
        if isinstance(p, Const) and p != v or isinstance(p, Var) and seen.setdefault(p.name, v) != v:
            return False
    return True


def _safe(rule: Rule) -> Rule | None:
    """`rule`, where each of its variables is bound by an atom of its body read positively; else None."""
    bound = {v.name for x in rule.body if isinstance(x, Atom) for v in x.variables()}
    return rule if all(v.name in bound for v in rule.variables()) else None


def _starts(groups, fixed, t: Atom, start_of: dict[int, Term], w: KeyedWalk, paths) -> dict:
    """Per group of the table's rows, the starts of the walk it stands for: those whose shown arguments agree with
    the reader's constants and with the group's values of the reader's start variables."""
    known = [(p, a) for p, a in sorted(start_of.items()) if isinstance(a, Const) or any(t.args[c] == a for c in fixed)]
    index: dict[tuple, list] = {}
    for s in paths:
        index.setdefault(tuple(s[w.shown.index(p)] for p, _ in known), []).append(s)
    at = {c: n for n, c in enumerate(fixed)}
    place = [a if isinstance(a, Const) else at[next(c for c in fixed if t.args[c] == a)] for _, a in known]
    return {g: index.get(tuple(x if isinstance(x, Const) else g[x] for x in place), []) for g in groups}


def _independent(groups, starts, given) -> bool:
    """Whether each group's rows are the same for every count, with a row for every count its starts can give."""
    for g, by_count in groups.items():
        first = next(iter(by_count.values()))
        if any(o != first for o in by_count.values()):
            return False
        if not all(given[s] <= set(by_count) for s in starts[g]):
            return False
    return True


def _forward(r: Rule, rest, e: Atom, t: Atom, fixed, outs, groups, starts, start_of, w: KeyedWalk, paths, given,
             fresh, made: list[Rule], seeds: dict) -> Rule | None:
    """The reader asking a forward walk keyed by where it stands, with a table of what each step writes."""
    added: dict[tuple, dict[int, set]] = {}  # group -> step i (1..) -> the rows it adds
    for g, by_count in groups.items():
        if any(not isinstance(n, Const) or not n.is_int or int(n.name) < 1 for n in by_count):
            return None
        top = max(int(n.name) for n in by_count)
        so_far: set = set()
        added[g] = {}
        for i in range(1, top + 1):
            now = by_count.get(Const(str(i)), set())
            if not so_far <= now:
                return None
            added[g][i] = now - so_far
            so_far = now
    known_key = [p for p in w.key if p not in w.shown or isinstance(start_of.get(p), Const)
                 or any(t.args[c] == start_of.get(p) for c in fixed)]
    context = [c for c in fixed if isinstance(t.args[c], Var) and t.args[c] not in start_of.values()]
    heads = {v.name for v in r.head.variables()}
    needed = [c for c in context if t.args[c].name in heads]
    signature = (tuple(sorted(map(str, rest))), str(e))
    tried = [c for sig, walks in seeds.items() if isinstance(sig, tuple) and len(sig) == 4 and sig[:2] == signature
             for c in walks]
    for ctx_terms in tried:  # a context a reader of the same seed walks with: one walk for both
        ctx = [next((c for c in context if t.args[c] == v), None) for v in ctx_terms]
        if None not in ctx and set(needed) <= set(ctx):
            table = _writes(added, groups, starts, paths, given, known_key, fixed, ctx)
            if table is not None:
                return _emit(r, rest, e, t, fixed, outs, known_key, ctx, table, groups, w, fresh, made, seeds)
    for size in range(min(len(context), MOST_CONTEXT) + 1):
        for extra in combinations([c for c in context if c not in needed], size):
            ctx = needed + list(extra)
            table = _writes(added, groups, starts, paths, given, known_key, fixed, ctx)
            if table is not None:
                return _emit(r, rest, e, t, fixed, outs, known_key, ctx, table, groups, w, fresh, made, seeds)
    return None


def _writes(added, groups, starts, paths, given, known_key, fixed, ctx):
    """(key, context) -> what a step standing there writes, where it gives every group's rows exactly; else None."""
    table: dict[tuple, set] = {}
    path_keys: dict[tuple, list[tuple]] = {}
    for g in groups:
        top = len(added[g])
        paths_of = [[tuple(row[p] for p in known_key) for row in paths[s]] for s in starts[g]]
        keys = paths_of[0]
        if len(keys) < top or any(k != keys for k in paths_of):
            return None
        c = tuple(g[fixed.index(x)] for x in ctx)
        path_keys[g] = keys
        for i, rows in added[g].items():
            table.setdefault((keys[i - 1], c), set()).update(rows)
    for g, by_count in groups.items():
        c = tuple(g[fixed.index(x)] for x in ctx)
        results = set().union(*(given[s] for s in starts[g]))
        if not all(n.is_int for n in results):
            return None
        can = {int(n.name) for n in results if int(n.name) > 0}  # a count the table has no row for writes nothing
        if any(n > len(path_keys[g]) for n in can):
            return None
        for n in can | {int(n.name) for n in by_count}:
            got = set().union(*(table.get((path_keys[g][i], c), set()) for i in range(n)))
            if got != by_count.get(Const(str(n)), set()):
                return None
    return table


def _emit(r: Rule, rest, e: Atom, t: Atom, fixed, outs, known_key, ctx, table, groups, w: KeyedWalk, fresh,
          made: list[Rule], seeds: dict) -> Rule | None:
    """The reader asking the forward walk of its seed (made, with its step, where no reader made it yet), with the
    table of what each step writes; None where a rule made would not be safe. The seed is guarded by the groups
    of the reader's table: a call whose arguments the table has no row for wrote nothing."""
    names = {v.name for v in r.variables()}
    if any(n.startswith(("w_", "wk", "wn", "wc")) for n in names):
        return None
    kv = {p: Var(f"wk{p}") for p in w.key}
    ctx_terms = tuple(t.args[c] for c in ctx)
    e_args = [a for n, a in enumerate(e.args) if n != w.result]
    guard_vars = sorted({t.args[c] for c in fixed if isinstance(t.args[c], Var)}, key=lambda v: v.name)
    guard_rows = frozenset(tuple(g[[t.args[c] for c in fixed].index(v)] for v in guard_vars) for g in groups)
    signature = (tuple(sorted(map(str, rest))), str(e), tuple(v.name for v in guard_vars), guard_rows)
    new: list[Rule] = []
    walk = seeds.setdefault(signature, {}).get(ctx_terms)
    if walk is None:
        walk = fresh(f"{w.exits}_walk")
        guard = seeds.get((guard_rows, len(guard_vars)))
        if guard is None:
            guard = fresh(f"{w.exits}_seeded")
            new.extend(Rule(Atom(guard, row)) for row in sorted(guard_rows, key=str))
        for s in w.seeds:
            seeded = _seed_body(s, w, e_args)
            if seeded is None:
                return None
            head, seed_body, count = seeded
            sign = Const("1") if count in w.positive else Const("0")
            body = tuple(rest) + (Atom(guard, tuple(guard_vars)),) + seed_body + (Atom(w.walk, head + (sign,)),)
            new.append(Rule(Atom(walk, head + ctx_terms), body, r.span))
        step_to = seeds.get(None)
        if step_to is None:
            step_to = fresh(f"{w.exits}_next")
            new.extend(Rule(Atom(step_to, a + b)) for a, b in sorted(w.nexts.items(), key=str))
        here = tuple(kv[p] for p in w.key)
        there = tuple(Var(f"wn{p}") for p in w.key)
        cv = tuple(Var(f"wc{n}") for n in range(len(ctx)))
        binding = {w.before.args[p].name: kv[p] for p in w.key if isinstance(w.before.args[p], Var)}
        new.append(Rule(Atom(walk, there + cv), (Atom(walk, here + cv),)
                        + tuple(substitute(x, binding) for x in w.conditions) + (Atom(step_to, here + there),), r.span))
        if any(_safe(x) is None for x in new):
            return None
        seeds[signature][ctx_terms] = walk
        seeds[(guard_rows, len(guard_vars))] = guard
        seeds[None] = step_to
    writes = fresh(f"{t.relation}_at")
    new.extend(Rule(Atom(writes, key + c + o)) for (key, c), rows in sorted(table.items(), key=str)
               for o in sorted(rows, key=str))
    binding = {w.before.args[p].name: kv[p] for p in w.key if isinstance(w.before.args[p], Var)}
    body = ((Atom(walk, tuple(kv[p] for p in w.key) + ctx_terms),)
            + tuple(substitute(x, binding) for x in w.conditions)
            + (Atom(writes, tuple(kv[p] for p in known_key) + ctx_terms + tuple(t.args[c] for c in outs)),))
    reader = _safe(Rule(r.head, body, r.span))
    if reader is not None:
        made.extend(new)
    return reader


def _seed_body(seed: Rule, w: KeyedWalk, e_args: list[Term]):
    """(the key, the body, the count) of the loop's seed `seed` for the call `e_args` (the exits' arguments but
    the result), its own variables renamed apart; None where the seed cannot start that call or its count is
    not a constant."""
    seed = _renamed(seed, "w_")
    binding: dict[str, Term] = {}
    for m, p in enumerate(w.shown):
        h = seed.head.args[p]
        if isinstance(h, Var) and binding.setdefault(h.name, e_args[m]) != e_args[m]:
            return None
        if isinstance(h, Const) and h != e_args[m]:
            return None
    count = seed.head.args[w.counted]
    if not isinstance(count, Const):
        return None
    return (tuple(substitute(seed.head.args[p], binding) for p in w.key),
            tuple(substitute(x, binding) for x in seed.body), count)


def _renamed(rule: Rule, prefix: str) -> Rule:
    binding = {v.name: Var(prefix + v.name) for v in rule.variables()}
    return Rule(substitute(rule.head, binding), tuple(substitute(x, binding) for x in rule.body), rule.span)


__all__ = ["KeyedWalk", "forward_readers"]
