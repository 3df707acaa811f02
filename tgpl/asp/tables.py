"""Static tables joined away before a time-indexed encoding is grounded.

The lowering folds rules alike but for constants into one rule with a table of
the constants, one fact per folded rule:

    (<= (cond_2 ?p1 ?p2) (cond_2_args ?x1 ?x2 ?x3 ?x4) (does ?p1 (drop ?p2 ?x1))
        (makesfour ?x2 1 yes) (not (true (disc ?x3 null))) (true (disc ?x4 null)))

That is what a GGP agent reads best, and clingo grounds it at once with `true`
and `does` free. In the time-indexed encoding, though, the rule joins fluents
of a recursive component (`holds` at T+1 depends on `holds` at T), and gringo's
semi-naive evaluation starts such a join from the literal that changed, then
may take `holds(disc(X4,null),T)` with X4 unbound before the table that binds
it: Connect Four's one-shot encoding took 151 s to ground at horizon 12, 0.26 s
with the table joined away. So the ASP encodings join each table that binds a
two or more variables the head does not have (a relation between them that the
grounder, starting elsewhere, would rebuild as a cross product), row by row,
into ground rules: exactly the instances the table allows, the rules the fold
started from. A table of one such variable (`succ` after a counter's read) only
filters it and stays.

The relaxed game (tgpl.asp.declared's base/input check, the reasoner's domain of
a game without base/input) has the same recursion, `true` fed back from `next`,
and the same cure: five in a row's relaxed game did not ground in 30 minutes
with its tables, and grounds in a fraction of a second with them joined away
(`tgpl.asp.gdl_to_asp.rules_to_asp` does it for every relaxed program).
"""

from __future__ import annotations

from collections.abc import Callable

from tgpl.lowering.ir import Atom, Const, Func, Program, Rule, Term, Var, expand_or, substitute

MAX_ROWS = 100_000  # a join larger than this keeps its table (it would outgrow what it saves)
CHECK_EVERY = 4096  # rows made by a join between two checks of the command's limits


def table_relations(program: Program) -> dict[str, list[Atom]]:
    """Relations defined by ground facts only: relation -> its facts."""
    with_body = {r.head.relation for r in program.rules if not r.is_fact}
    tables: dict[str, list[Atom]] = {}
    for rule in program.rules:
        name = rule.head.relation
        if rule.is_fact and name not in with_body and all(not list(a.variables()) for a in rule.head.args):
            tables.setdefault(name, []).append(rule.head)
    return tables


def tables_joined(program: Program, tables: dict[str, list[Atom]]) -> Program:
    """`program` as `or`-free rules, each rule with a body with its table literals joined (`join_tables`): the
    rules of a relaxed grounding (tgpl.asp.gdl_to_asp.rules_to_asp with `drop_negation`, tgpl.asp.relaxed)."""
    return Program(tuple(one for rule in program.rules for plain in expand_or(rule)
                         for one in (join_tables(plain, tables) if plain.body else (plain,))))


def join_tables(rule: Rule, tables: dict[str, list[Atom]], check: Callable[[], None] | None = None) -> list[Rule]:
    """The rule with its table literals relating body-only variables joined into ground instances, where the join
    selects: the rule as it is where it would make more instances than its largest table has rows (or MAX_ROWS).
    A folded rule's table gives back the rules the fold started from, one a row; a compiled game's arithmetic
    tables (`less_or_equal`, `times` side by side, thousands of rows each) would multiply into their product:
    Reversi 4x4's bounded search wrote 358,761 lines in 114 s, and grounds in a fraction of a second with its
    tables kept. Each literal's rows are looked up by the arguments already bound (an index per literal), so a
    join costs about the rows it makes. `check` (the command's limits, tgpl.limits) is called every CHECK_EVERY
    rows made."""
    head = {v.name for v in rule.head.variables()}
    joined = [lit for lit in rule.body if isinstance(lit, Atom) and lit.relation in tables
              and len({v.name for v in lit.variables()} - head) >= 2]
    if not joined:
        return [rule]
    most = min(MAX_ROWS, max(len(tables[lit.relation]) for lit in joined))
    bindings: list[dict[str, Term]] = [{}]
    bound: set[str] = set()
    made = 0
    for lit in joined:
        keys = [i for i, a in enumerate(lit.args) if isinstance(a, Const) or isinstance(a, Var) and a.name in bound]
        index: dict[tuple, list[Atom]] = {}
        for row in tables[lit.relation]:
            if len(row.args) == len(lit.args):
                index.setdefault(tuple(row.args[i] for i in keys), []).append(row)
        grown = []
        for binding in bindings:
            pattern = substitute(lit, binding)
            for row in index.get(tuple(pattern.args[i] for i in keys), ()):
                found = _match(pattern.args, row.args, dict(binding))
                if found is not None:
                    grown.append(found)
                    made += 1
                    if check is not None and made % CHECK_EVERY == 0:
                        check()
            if len(grown) > most:
                return [rule]
        bindings = grown
        bound |= {v.name for v in lit.variables()}
    rest = tuple(lit for lit in rule.body if not any(lit is j for j in joined))
    return [substitute(Rule(rule.head, rest), b) for b in bindings]


def _match(patterns: tuple[Term, ...], values: tuple[Term, ...], binding: dict[str, Term]) -> dict[str, Term] | None:
    if len(patterns) != len(values):
        return None
    for p, v in zip(patterns, values):
        if isinstance(p, Var):
            bound = binding.get(p.name)
            if bound is None:
                binding[p.name] = v
            elif bound != v:
                return None
        elif isinstance(p, Const):
            if not (isinstance(v, Const) and v.name == p.name):
                return None
        elif isinstance(p, Func):
            if not (isinstance(v, Func) and v.name == p.name) or _match(p.args, v.args, binding) is None:
                return None
    return binding


__all__ = ["MAX_ROWS", "join_tables", "table_relations"]
