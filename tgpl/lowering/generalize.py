"""Ground rules that differ only in an object of one class become one rule with a variable.

The lowering writes a rule per object: nine `legal` rules for Tris, one per tile.
When the rules for every object of a class are the same rule with that object
in it, they are one rule over the class, as a person would write it:

    (<= (legal player_0 (tick playerstate_0 ?ticktile))
        (ticktile ?ticktile)
        (true (control player_0 gameturn tickphase))
        (true (assignedto ?ticktile null)))

with `(ticktile trisgrid_0_0)` ... as facts. The rewrite is exact: instantiating
the variable with each member of the class gives back the original rules, and
only then is it done.
"""

from __future__ import annotations

import itertools

from tgpl.lowering.ir import Atom, Const, Distinct, Func, Not, Or, Program, Rule, Var, substitute
from tgpl.limits import Limits, unlimited

KEPT = {"role", "base", "input", "init", "succ"}  # facts and declarations stay as they are
SMALLEST = 3  # classes with fewer objects are not worth a relation


CHECK_EVERY = 256  # rules between two checks of the command's limits


def generalize(rules: list[Rule], classes: dict[str, list[str]],
               limits: Limits | None = None) -> tuple[list[Rule], list[Rule]]:
    """(rules with variables where exact, the class facts they use). `classes`: relation -> member constants.
    `limits` (tgpl.limits) is checked as it goes."""
    limits = limits if limits is not None else unlimited()
    member_of = {c: cls for cls, members in classes.items() if len(members) >= SMALLEST for c in members}
    groups: dict[tuple, list[tuple[int, str]]] = {}
    for i, rule in enumerate(rules):
        if not i % CHECK_EVERY:
            limits.check()
        if rule.is_fact or rule.head.relation in KEPT:
            continue
        for c in dict.fromkeys(_constants(rule.head)):
            cls = member_of.get(c)
            if cls is None:
                continue
            var = Var(cls)
            if any(v.name == var.name for v in rule.variables()):
                continue
            groups.setdefault((cls, _substitute_rule(rule, c, var)), []).append((i, c))
    consumed: dict[int, Rule | None] = {}
    used: list[str] = []
    for (cls, general), found in groups.items():
        indices = [i for i, _ in found]
        if sorted(c for _, c in found) != sorted(classes[cls]) or any(i in consumed for i in indices):
            continue
        if len(set(indices)) != len(indices):
            continue
        var = Var(cls)
        rule = Rule(general.head, (Atom(cls, (var,)),) + general.body)
        consumed[indices[0]] = rule
        for i in indices[1:]:
            consumed[i] = None
        if cls not in used:
            used.append(cls)
    out = []
    for i, rule in enumerate(rules):
        if i in consumed:
            if consumed[i] is not None:
                out.append(consumed[i])
        else:
            out.append(rule)
    facts = [Rule(Atom(cls, (Const(c),))) for cls in used for c in classes[cls]]
    return out, facts


def _constants(node) -> list[str]:
    if isinstance(node, Const):
        return [node.name]
    if isinstance(node, (Atom, Func)):
        return [c for a in node.args for c in _constants(a)]
    return []


def _substitute(node, c: str, var: Var):
    if isinstance(node, Const):
        return var if node.name == c else node
    if isinstance(node, Func):
        return Func(node.name, tuple(_substitute(a, c, var) for a in node.args))
    if isinstance(node, Atom):
        return Atom(node.relation, tuple(_substitute(a, c, var) for a in node.args))
    if isinstance(node, Not):
        return Not(_substitute(node.literal, c, var))
    if isinstance(node, Distinct):
        return Distinct(_substitute(node.left, c, var), _substitute(node.right, c, var))
    if isinstance(node, Or):
        return Or(tuple(_substitute(x, c, var) for x in node.literals))
    return node


def _substitute_rule(rule: Rule, c: str, var: Var) -> Rule:
    return Rule(_substitute(rule.head, c, var), tuple(_substitute(b, c, var) for b in rule.body))




# ------------------------------------------------------------------ folding
FOLD_SMALLEST = 2  # rules alike but for their constants that are worth one rule


def fold(rules: list[Rule], domain_of, body_tables: bool = False,
         tables: dict[str, list[tuple]] | None = None, limits: Limits | None = None) -> tuple[list[Rule], list[Rule]]:
    """Rules alike but for some constants become one rule with variables, exactly.

    Rules are grouped by their shape: the rule with every constant replaced by a
    placeholder, equal constants by the same one (so `(v a null) (v b null)` and
    `(v a x) (v b x)` are alike: "a and b hold the same value"). In a group, the
    places whose constant differs between the rules become variables. When one
    variable is left and a positive body literal can only bind it to values the
    rules list (a fluent's value, whose domain `domain_of(atom, position)` gives),
    the rule needs nothing more, as a person writes it:

        (<= cond_4 (assignedto_wincheckphase trisgrid_0_0 ?x) (assignedto_wincheckphase trisgrid_1_0 ?x))

    Otherwise a table of the constants, one fact per folded rule, binds them:
    `(<= (wincheck ?x1 ?x2 ?x3 ?x4) (wincheck_args ?x1 ?x2 ?x3 ?x4) ...)`. Either way
    the ground instances are exactly the rules folded. Returns (rules, table facts).
    A table binds only variables of the head unless `body_tables` (see _joins_through_table).
    Rules alike but for the `tables` (relation -> rows) they read fold too: their tables joined into one, each
    row tagged with a number for its table, the tag one more constant of the fold (as in merge_relations).
    `limits` (tgpl.limits) is checked as it goes.
    """
    limits = limits if limits is not None else unlimited()
    given = tables or {}
    groups: dict[tuple, list[tuple[int, tuple]]] = {}
    candidates: list[int] = []
    for i, rule in enumerate(rules):
        if not i % CHECK_EVERY:
            limits.check()
        if rule.is_fact or rule.head.relation in KEPT or any(isinstance(b, Or) for b in rule.body):
            continue
        shape, consts = _shape(rule, given)
        groups.setdefault(shape, []).append((i, consts))
        candidates.append(i)
    out: dict[int, Rule | None] = {}
    facts: list[Rule] = []
    tables: dict[tuple, str] = {}
    taken = {r.head.relation for r in rules} | {a.relation for r in rules for a, _ in r.body_atoms()} | set(given)

    def fold_group(shape: tuple, members: list[tuple[int, tuple]]) -> None:
        """One group of rules of one shape folded into `out` where it can be, exactly."""
        if len(members) < FOLD_SMALLEST:
            return
        limits.check()
        columns = list(zip(*(c for _, c in members)))
        varying = [j for j, col in enumerate(columns) if len(set(col)) > 1]
        if not varying:
            return
        first = rules[members[0][0]]
        # the joined tables' rows are kept if the rules fold; from here on a table column holds its tags
        joined, tags, pending = _join_tables(columns, varying, given, lambda k: f"{first.head.relation}_table", taken)
        members = [(i, tuple(tags.get((j, x), x) for j, x in enumerate(c))) for i, c in members]
        columns = list(zip(*(c for _, c in members)))
        used = {v.name for v in first.variables()}
        names: dict[int, Var] = {}
        own: list[int] = []  # the varying places with a variable of their own
        for j in varying:
            # a place that holds what an earlier one holds in every rule (grouped with each occurrence apart)
            # shares its variable, and the table its column
            twin = next((t for t in own if columns[t] == columns[j] and t not in joined and j not in joined), None)
            if twin is not None:
                names[j] = names[twin]
                continue
            k = len(own) + 1
            while f"x{k}" in used:
                k += 1
            names[j] = Var(f"x{k}")
            used.add(f"x{k}")
            own.append(j)
        varying = own
        fixed = {j: Const(columns[j][0]) for j in range(len(columns)) if j not in names}
        general = _instantiate(shape, {**fixed, **names, **{j: (joined[j], names[j]) for j in joined}})
        rows = sorted(set(tuple(c[j] for j in varying) for _, c in members))
        if len(rows) != len(members):
            return  # two rules the same up to a constant repeated: leave them be
        extra: tuple = ()
        spared = _value_column(general, [names[j] for j in varying], rows, domain_of) if len(varying) > 1 else None
        if spared is not None:  # a fluent binds that column: the table keeps the others
            k, excluded = spared
            general = Rule(general.head, general.body + tuple(Distinct(names[varying[k]], Const(e)) for e in excluded))
            varying = varying[:k] + varying[k + 1:]
            rows = sorted(set(r[:k] + r[k + 1:] for r in rows))
        if not (len(varying) == 1 and _bound_within(general, names[varying[0]], {r[0] for r in rows}, domain_of)):
            if len(members) < 3:
                return  # a table for two rules saves nothing
            if not body_tables and not _joins_through_table(general, [names[j] for j in varying]):
                return
            key = tuple(rows)
            table = tables.get(key)
            if table is None:
                base = f"{first.head.relation}_args"
                table, n = base, 1
                while table in taken:
                    n += 1
                    table = f"{base}_{n}"
                taken.add(table)
                tables[key] = table
                facts.extend(Rule(Atom(table, tuple(Const(x) for x in row))) for row in rows)
            extra = (Atom(table, tuple(names[j] for j in varying)),)
        facts.extend(pending)
        out[members[0][0]] = Rule(general.head, extra + general.body)
        for i, _ in members[1:]:
            out[i] = None

    for shape, members in groups.items():
        fold_group(shape, members)
    # what is left, grouped again with each number's every occurrence a place of its own (`_Occurrences`): rules
    # whose numbers repeat in different patterns (a cell's coordinates (0, 1, 0), (1, 1, 2) beside the player 0
    # in one literal) have different shapes above, in groups too small to fold, and one shape here
    apart: dict[tuple, list[tuple[int, tuple]]] = {}
    for i in candidates:
        if i not in out:
            shape, consts = _shape(rules[i], given, apart=True)
            apart.setdefault(shape, []).append((i, consts))
    for shape, members in apart.items():
        fold_group(shape, members)
    folded = []
    for i, rule in enumerate(rules):
        if i in out:
            if out[i] is not None:
                folded.append(out[i])
        else:
            folded.append(rule)
    return folded, facts


def _joins_through_table(rule: Rule, variables: list[Var]) -> bool:
    """Does the table stay the cheap way in? Every variable it binds is in the head.

    Then the table lists the instances of the head, as a definition's domain. A
    variable only in the body joins the literals it is in, and a grounder that
    starts that join from one of them (clingo does, on the time-indexed encoding)
    tries combinations the table would rule out: folding `disc_makesfour`'s rules
    that way cost Connect Four's time-indexed encoding minutes of grounding.
    """
    head = {v.name for v in rule.head.variables()}
    return all(var.name in head for var in variables)


def _shaper(consts: dict[str, int], tables: dict | None = None):
    """A walk of a node into its shape: each constant a slot `("slot", k)` numbered in `consts`, in the order
    met, and so each table read when `tables` are given (`("table", k, args)`). Shapes are plain tuples,
    hashed and compared in C: folding groups thousands of rules by shape."""
    return lambda node: _walk(node, consts, tables)


def _walk(node, consts: dict[str, int], tables: dict | None = None):
    kind = type(node)
    if kind is Const:
        return ("slot", consts.setdefault(node.name, len(consts)))
    if kind is Var:
        return ("var", node.name)
    if kind is Func:
        return ("func", node.name, tuple(_walk(a, consts, tables) for a in node.args))
    if kind is Atom:
        args = tuple(_walk(a, consts, tables) for a in node.args)
        if tables and node.relation in tables:
            return ("table", consts.setdefault(TABLE + node.relation, len(consts)), args)
        return ("atom", node.relation, args)
    if kind is Not:
        return ("not", _walk(node.literal, consts, tables))
    if kind is Distinct:
        return ("distinct", _walk(node.left, consts, tables), _walk(node.right, consts, tables))
    raise TypeError(node)


def _shape(rule: Rule, tables: dict | None = None, apart: bool = False) -> tuple[tuple, tuple]:
    """The rule's shape and its constants, one per slot: equal constants share a slot, or with `apart` each
    occurrence of a number has one of its own (`_Occurrences`)."""
    consts: dict = _Occurrences() if apart else {}
    walk = _shaper(consts, tables)

    head = walk(rule.head)
    shape = (head, tuple(walk(b) for b in _canonical_body(rule.body)))
    return shape, tuple(k[1] for k in consts) if apart else tuple(consts)


class _Occurrences(dict):
    """Slots for a shape (`_walk`) where every occurrence of a number is a slot of its own, and equal constants
    of any other kind share one, as in `_shape`: keyed by (slot or "=", constant), in the order met. Two equal
    objects in a rule are one object, but two equal numbers are often apart by chance: a cell's coordinates,
    the player that marks it (cube3's `(makesline 1 0 0 0 yes)` for the spot (1, 0, 0) and player 0)."""

    def setdefault(self, key, default=None):
        slot = len(self)
        if not _is_number(key):
            return super().setdefault(("=", key), slot)
        self[(slot, key)] = slot
        return slot


def _is_number(name: str) -> bool:
    return name.lstrip("-").isdigit()


def _blind(node) -> str:
    """A literal (or body) with its constants hidden: alike literals of two rules sort alike."""
    if isinstance(node, tuple):
        return " ".join(sorted(_blind(x) for x in node))
    if isinstance(node, Const):
        return "*"
    if isinstance(node, Var):
        return "?" + node.name
    if isinstance(node, (Func, Atom)):
        name = node.name if isinstance(node, Func) else node.relation
        return f"({name} {' '.join(_blind(a) for a in node.args)})"
    if isinstance(node, Not):
        return f"(not {_blind(node.literal)})"
    if isinstance(node, Distinct):
        return f"(distinct {_blind(node.left)} {_blind(node.right)})"
    return str(node)


def _canonical_body(body: tuple) -> tuple:
    """The body in an order that does not depend on when its formulas were made: by shape, then as written."""
    return tuple(sorted(body, key=_blind))


def _instantiate(shape: tuple, slots: dict):
    def build(node):
        kind = node[0]
        if kind == "slot":
            return slots[node[1]]
        if kind == "var":
            return Var(node[1])
        if kind == "func":
            return Func(node[1], tuple(build(a) for a in node[2]))
        if kind == "atom":
            return Atom(node[1], tuple(build(a) for a in node[2]))
        if kind == "table":  # a table read: the table itself, or one joined table and its tag
            found = slots[node[1]]
            if isinstance(found, tuple):
                return Atom(found[0], tuple(build(a) for a in node[2]) + (found[1],))
            return Atom(found.name[len(TABLE):], tuple(build(a) for a in node[2]))
        if kind == "not":
            return Not(build(node[1]))
        return Distinct(build(node[1]), build(node[2]))

    head, body = shape
    return Rule(build(head), tuple(build(b) for b in body))


def _bound_within(rule: Rule, var: Var, values: set[str], domain_of) -> bool:
    """Is `var` only in the body, in a positive atom whose values at its place are all among `values`?"""
    if any(v.name == var.name for v in rule.head.variables()):
        return False
    for lit in rule.body:
        if isinstance(lit, Atom):
            for kind, atom, j in _places(lit, var):
                dom = domain_of(kind, atom, j)
                if dom is not None and dom <= values:
                    return True
    return False


def _value_column(rule: Rule, variables: list[Var], rows: list[tuple], domain_of) -> tuple[int, list[str]] | None:
    """(k, excluded): the k-th table column, a fluent's value in the body, need not be in the table.

    When the rows are every combination of the other columns with one set S of values
    of column k, and the fluent the body reads it from holds, on every row, the values
    S and a few others (`excluded`, the same on every row), the fluent binds the column
    and `(distinct ?x e)` drops the others: the ground instances stay the rows folded.
    Connect Four's window rules, one per colour, keep a table of windows, not of windows
    and colours."""
    head = {v.name for v in rule.head.variables()}
    for k, var in enumerate(variables):
        if var.name in head:
            continue
        others = [r[:k] + r[k + 1:] for r in rows]
        values = {r[k] for r in rows}
        if len(set(others)) * len(values) != len(rows):
            continue  # not a product of the other columns and one set of values
        for lit in rule.body:
            if not isinstance(lit, Atom):
                continue
            for kind, atom, j in _places(lit, var):
                if j != 1 or len(atom.args) != 2:
                    continue
                excluded = _excluded(kind, atom, variables, rows, values, domain_of)
                if excluded is not None:
                    return k, excluded
    return None


def _excluded(kind: str, atom, variables: list[Var], rows: list[tuple], values: set[str], domain_of):
    """The values besides `values` the atom's fluent can hold, the same on every row (at most two), or None."""
    obj = atom.args[0]
    position = next((i for i, v in enumerate(variables) if v == obj), None)
    if not isinstance(obj, Const) and position is None:
        return None
    found = None
    for row in rows:
        name = obj.name if isinstance(obj, Const) else row[position]
        node = (Func if kind == "fluent" else Atom)(atom.name if kind == "fluent" else atom.relation,
                                                       (Const(name), atom.args[1]))
        dom = domain_of(kind, node, 1)
        if dom is None or not values <= dom:
            return None
        rest = sorted(dom - values)
        if found is None:
            found = rest
        elif rest != found:
            return None
    return found if found is not None and len(found) <= 2 else None


def _places(atom: Atom, var: Var):
    """("fluent", fluent term, index) or ("relation", atom, index) for each place var is in."""
    if atom.relation == "true" and len(atom.args) == 1 and isinstance(atom.args[0], Func):
        inner = atom.args[0]
        for j, a in enumerate(inner.args):
            if a == var:
                yield "fluent", inner, j
        return
    for j, a in enumerate(atom.args):
        if a == var:
            yield "relation", atom, j




# ------------------------------------------------------------------ merging relations
NOT_MERGED = KEPT | {"legal", "next", "goal", "terminal", "init", "true", "does", "distinct"}


def merge_relations(rules: list[Rule], tables: dict[str, list[tuple]] | None = None,
                    limits: Limits | None = None) -> tuple[list[Rule], list[Rule]]:
    """Derived relations defined alike but for some constants become one relation of those constants (added
    after its own arguments, if it has any).

    `cond_4 :- (v trisgrid_0_0 ?x) (v trisgrid_1_0 ?x)` and
    `cond_5 :- (v trisgrid_1_0 ?x) (v trisgrid_2_0 ?x)` are one relation
    `(cond_4 ?p1 ?p2)`, a table of its rows binding the parameters, and every use
    names its row: `(cond_4 trisgrid_0_0 trisgrid_1_0)`. Then the rules that used
    them are alike too, and `fold` makes them one. Exact: each row's instance is
    the relation it replaces. Returns (rules, table facts).

    `tables` (relation -> its rows) are the tables the rules read: definitions alike but for the tables they
    read merge too, the tables becoming one, each row tagged with the table it came from (a constant of
    the merged relation like the others). Relations merged in an earlier round each read their own table of
    rows, `(cond_8240 ?p1)` reading `cond_8240_rows`, `(cond_8242 ?p1)` reading `cond_8242_rows`: without
    this, they never merged again. `limits` (tgpl.limits) is checked as it goes.
    """
    limits = limits if limits is not None else unlimited()
    tables = tables or {}
    defs: dict[str, list[Rule]] = {}
    for r in rules:
        defs.setdefault(r.head.relation, []).append(r)
    groups: dict[tuple, list[tuple[str, tuple]]] = {}
    for k, (name, rs) in enumerate(defs.items()):
        if not k % CHECK_EVERY:
            limits.check()
        if name in NOT_MERGED or any(r.is_fact for r in rs):
            continue
        if any(isinstance(b, Or) for r in rs for b in r.body):
            continue
        shape, consts = _definition_shape(rs, tables)
        groups.setdefault(shape, []).append((name, consts))
    # the tables of earlier rounds too, read or not: a table of rows that no rule reads any more (its relation
    # folded away) is still written, and a new one of its name gave a relation of two arities
    taken = set(defs) | {a.relation for r in rules for a, _ in r.body_atoms()} | set(tables)
    uses = {name: {a.relation for r in rs for a, _ in r.body_atoms()} for name, rs in defs.items()}
    reach_memo: dict[str, frozenset] = {}
    for shape in list(groups):
        groups[shape] = _independent(groups[shape], uses, reach_memo)
    rename: dict[str, tuple[str, tuple]] = {}
    new_rules: list[Rule] = []
    facts: list[Rule] = []
    for shape, members in groups.items():
        if len(members) < 2:
            continue
        limits.check()
        columns = list(zip(*(c for _, c in members)))
        varying = [j for j, col in enumerate(columns) if len(set(col)) > 1]
        rows = [tuple(c[j] for j in varying) for _, c in members]
        if not varying or len(set(rows)) != len(rows):
            continue
        name = members[0][0]
        table = _fresh(f"{name}_rows", taken)
        joined, tags, rows_joined = _join_tables(columns, varying, tables, lambda k: f"{name}_table{k}", taken)
        facts.extend(rows_joined)
        # the parameters follow the relation's own arguments, named apart from its rules' variables
        own = {v.name for r in defs[name] for v in r.variables()}
        fresh = (f"p{k}" for k in itertools.count(1) if f"p{k}" not in own)
        params = {j: Var(next(fresh)) for j in varying}
        fixed = {j: Const(columns[j][0]) for j in range(len(columns)) if j not in params}
        extra = tuple(params[j] for j in varying)
        slots = {**fixed, **params, **{j: (joined[j], params[j]) for j in joined}}
        for rule_shape in shape:
            r = _instantiate(rule_shape, slots)
            new_rules.append(Rule(Atom(name, r.head.args + extra), (Atom(table, extra),) + r.body))
        for (member, _), row in zip(members, rows):
            row = tuple(tags.get((j, x), x) for j, x in zip(varying, row))
            rename[member] = (name, tuple(Const(x) for x in row))
            facts.append(Rule(Atom(table, tuple(Const(x) for x in row))))
    if not rename:
        return rules, []
    out: list[Rule] = []
    emitted = set()
    for r in rules:
        target = rename.get(r.head.relation)
        if target is not None:
            if target[0] not in emitted:
                emitted.add(target[0])
                out.extend(Rule(x.head, tuple(_renamed(b, rename) for b in x.body))
                           for x in new_rules if x.head.relation == target[0])
            continue
        out.append(Rule(r.head, tuple(_renamed(b, rename) for b in r.body)))
    return out, facts


def _independent(members: list, uses: dict, memo: dict) -> list:
    """The members none of which depends on another: merging those never makes a relation recursive
    (GDL wants negation stratified relation by relation, and clingo solves recursion by search)."""
    kept: list = []
    reach_kept: set[str] = set()
    for member in members:
        name = member[0]
        mine = _reach(name, uses, memo)
        if name in reach_kept or any(k[0] in mine for k in kept):
            continue
        kept.append(member)
        reach_kept |= mine
    return kept


def _reach(name: str, uses: dict, memo: dict) -> frozenset:
    """Every relation `name` depends on, through any chain of rules."""
    found = memo.get(name)
    if found is not None:
        return found
    seen: set[str] = set()
    todo = list(uses.get(name, ()))
    while todo:
        r = todo.pop()
        if r in seen:
            continue
        seen.add(r)
        if r in memo:
            seen |= memo[r]
            continue
        todo.extend(uses.get(r, ()))
    memo[name] = frozenset(seen)
    return memo[name]


TABLE = "#table:"  # a table read, among a definition's constants (`merge_relations`)


def _join_tables(columns: list[tuple], varying: list[int], tables: dict, base, taken: set[str]):
    """For each varying column of table reads (TABLE + name): one table of every member's rows, each tagged by
    number with the table it came from (a table's name as a constant would give that symbol a second arity).
    `base(k)`: the name of the k-th such table (from 1). Returns (column -> joined table, (column, TABLE + name)
    -> tag, the joined tables' facts)."""
    joined: dict[int, str] = {}
    tags: dict[tuple[int, str], str] = {}
    facts: list[Rule] = []
    for j in varying:
        if columns[j][0].startswith(TABLE):
            joined[j] = _fresh(base(len(joined) + 1), taken)
            for k, t in enumerate(dict.fromkeys(columns[j])):
                tags[(j, t)] = str(k + 1)
                facts.extend(Rule(Atom(joined[j], row + (Const(tags[(j, t)]),))) for row in tables[t[len(TABLE):]])
    return joined, tags, facts


def _fresh(name: str, taken: set[str]) -> str:
    while name in taken:
        name += "_"
    taken.add(name)
    return name


def _definition_shape(rs: list[Rule], tables: dict | None = None) -> tuple[tuple, tuple]:
    """The shape of a whole definition, constants numbered across all its rules (variables kept apart by
    parameter names `p1`... never occurring in the lowering's rules); the names of the `tables` it reads are
    among its constants, as TABLE + name."""
    consts: dict[str, int] = {}
    walk = _shaper(consts, tables)

    shapes = tuple((("atom", "", tuple(walk(a) for a in r.head.args)), tuple(walk(b) for b in _canonical_body(r.body)))
                   for r in sorted(rs, key=lambda r: _blind(r.body)))
    return shapes, tuple(consts)


def _renamed(lit, rename: dict):
    if isinstance(lit, Atom):
        target = rename.get(lit.relation)
        if target is not None:
            return Atom(target[0], lit.args + target[1])
        return lit
    if isinstance(lit, Not):
        return Not(_renamed(lit.literal, rename))
    return lit


# ------------------------------------------------------------------ unfolding
def unfold_single_uses(rules: list[Rule], limits: Limits | None = None) -> list[Rule]:
    """A ground rule whose body is only a nullary relation read nowhere else, `H :- segment_671`, becomes
    that relation's rules with its head, `H :- B1`, `H :- B2`, ..., and the relation goes.

    The lowering names each path condition of a write (`segment_N`) per object and value, so the rules that
    could fold across objects each hide behind a different nullary head and never meet: fox and geese's
    `(next (who cells_3_4 null)) :- segment_671` had 48 rules under `segment_671`, one per move that
    empties that cell, and one such segment per cell and value. Unfolded, the rules of every cell share a
    shape (`(next (who C null)) :- (cond_5 A C B) (action_move_6 A C B) ...`) and `fold` makes them one rule
    over a table of the board's triples, as a person writes it. Exact: the head is ground (the body has no
    other literal to bind a variable) and the relation has no other reader, so each derivation of the head
    through the relation is one through an unfolded rule. A relation that reads itself is left as it is.
    Never more rules: n + 1 become n."""
    limits = limits if limits is not None else unlimited()
    readers: dict[str, int] = {}
    defs: dict[str, list[Rule]] = {}
    for i, r in enumerate(rules):
        if not i % CHECK_EVERY:
            limits.check()
        defs.setdefault(r.head.relation, []).append(r)
        for atom, _ in r.body_atoms():
            readers[atom.relation] = readers.get(atom.relation, 0) + 1
    target: dict[int, str] = {}  # index of the user rule -> the relation it unfolds
    gone: set[str] = set()
    for i, r in enumerate(rules):
        if r.head.relation in NOT_MERGED - {"legal", "next", "goal", "terminal"} or len(r.body) != 1:
            continue
        lit = r.body[0]
        if not isinstance(lit, Atom) or lit.args or lit.relation in NOT_MERGED or lit.relation in gone:
            continue
        name = lit.relation
        rs = defs.get(name, [])
        if (readers.get(name) != 1 or not rs or any(x.is_fact for x in rs) or r.head.relation == name
                or next(r.head.variables(), None) is not None
                or any(a.relation == name for x in rs for a, _ in x.body_atoms())):
            continue
        target[i] = name
        gone.add(name)
    # a user that is itself unfolded would hand on a body reading a relation that goes: the next call does it
    target = {i: name for i, name in target.items() if rules[i].head.relation not in gone}
    gone = set(target.values())
    if not target:
        return rules
    out: list[Rule] = []
    for i, r in enumerate(rules):
        if r.head.relation in gone:
            continue
        name = target.get(i)
        if name is None:
            out.append(r)
        else:
            out.extend(Rule(r.head, x.body) for x in defs[name])
    return out


# ------------------------------------------------------------------ folding a finished program
def fold_program(program: Program, limits: Limits | None = None) -> Program:
    """`program` with its rules alike but for some constants folded (`fold`), each group one rule over a table.

    A compiled move writes a view per object it writes: Halma's end of the turn clears the `Visited` flag of
    every cell, an unrolled loop of 25 writes, so each way that ends the turn gave 25 `next` rules and 25
    `touched` rules alike but for the cell, 2,009 of its 2,494 rules. Hand-written GDL says it once,
    `(<= (next (visited ?c no)) (cell ?c) ...)`. The compiled rules name a variable after the unrolled pass it
    was made in (`?x13_u0_0`, `?x13_u1_0`), so rules are compared with their variables named in order of first
    occurrence (`_canonical_names`); a rule left unfolded is kept as it was, so a program with nothing to fold
    is returned as it is. Exact, as `fold` is: the ground instances of a folded rule are the rules folded."""
    rules = list(program.rules)
    named = [_canonical_names(r) for r in rules]
    folded, facts = fold(named, lambda *_: None, limits=limits)
    if not facts:
        return program
    original = {id(n): r for n, r in zip(named, rules)}
    kept = [original.get(id(r), r) for r in folded]
    return Program(tuple(dict.fromkeys(kept + facts)))


def _canonical_names(rule: Rule) -> Rule:
    """`rule` with its variables named `y1`, `y2`, ... in order of first occurrence, head first: two rules alike
    but for their variables' names then have one shape; the rule itself when it has no variable."""
    names = rule.variables()
    if not names:
        return rule
    return substitute(rule, {v.name: Var(f"y{k}") for k, v in enumerate(names, 1)})


__all__ = ["fold", "fold_program", "generalize", "merge_relations", "unfold_single_uses"]
