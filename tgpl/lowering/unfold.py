"""A relation that one rule alone reads, put in that rule's place: one relation fewer to ground.

Code compiled to rules joins the ways of an `if` into a relation (`SegmentCompiler.cut`'s join) that the loop's
next pass reads at once: Reversi's `Count` walks the board as `count_join` (the running total after the test of a
square, 8,320 ground rules) read only by `(<= (count_loop_2 ... ?y2) (count_join ... ?y) (plus ?y 1 ?y2))`, 4,750
ground rules more that only step the square. With each rule of the join put in the step's place, the join's
instances are the step's, and the step's own are gone.

Exact (unfolding, as in logic programming): a relation defined by its rules alone and read in one place holds
there exactly when one of its rules' bodies does, with the rule's head unified with the atom read. It is done
only where the relation is not one of GDL's own, is read once, positively and outside any `or`, by a rule that is
not one of its own, and where the bound of the rules made (tgpl.asp.estimate.rule_bounds) is no larger than that
of the rules they replace: a reader whose other literals join each row read with several would multiply the
unfolded rules' instances.
"""

from __future__ import annotations

from collections.abc import Callable

from tgpl.asp.estimate import rule_bounds
from tgpl.lowering.ir import GDL_RELATIONS, Atom, Func, Or, Program, Rule, Term, Var, substitute


def unfold_single_readers(program: Program, check: Callable[[], None] = lambda: None) -> Program:
    """`program` with each relation read by one rule only unfolded into it, where the bound does not grow.
    `check`: the command's limits, checked at each rule's bound (`rule_bounds`)."""
    rules = list(program.rules)
    picked = _candidates(rules)
    if not picked:
        return program
    made = {rel: _unfolded(rules, reader, defs) for rel, (reader, defs) in picked.items()}
    trial = _rebuilt(rules, picked, made)
    # only the rules compared are bounded (equal rules have equal bounds, and a rule made that equals another
    # of the trial counts that one's instances too, as it did when every rule was bounded)
    compared = {rules[i] for reader, defs in picked.values() for i in (reader, *defs)}
    unfolded = {r for rs in made.values() for r in rs}
    before = rule_bounds(program, check=check, which=compared.__contains__)
    after = rule_bounds(Program(tuple(trial)), check=check, which=unfolded.__contains__)
    if before is None or after is None:
        return program
    bound_before = {b.rule: b.instances for b in before}
    bound_after: dict[Rule, int] = {}
    for b in after:
        bound_after[b.rule] = bound_after.get(b.rule, 0) + b.instances
    kept = {rel for rel, (reader, defs) in picked.items()
            if sum(bound_after.get(r, 0) for r in made[rel])
            <= bound_before[rules[reader]] + sum(bound_before[rules[i]] for i in defs)}
    if not kept:
        return program
    return Program(tuple(_rebuilt(rules, {rel: picked[rel] for rel in kept}, {rel: made[rel] for rel in kept})))


def _candidates(rules: list[Rule]) -> dict[str, tuple[int, list[int]]]:
    """Relation -> (the index of the one rule that reads it, the indices of its rules), for relations that can be
    unfolded, no two sharing a rule."""
    defs: dict[str, list[int]] = {}
    for i, r in enumerate(rules):
        defs.setdefault(r.head.relation, []).append(i)
    readers: dict[str, list[int]] = {}
    for i, r in enumerate(rules):
        for a, positive in r.body_atoms():
            readers.setdefault(a.relation, []).append(i if positive and not _in_or(r, a.relation) else -1)
    used: set[int] = set()
    out: dict[str, tuple[int, list[int]]] = {}
    for rel, ids in defs.items():
        read = readers.get(rel, [])
        if rel in GDL_RELATIONS or len(read) != 1 or read[0] < 0:
            continue
        reader = read[0]
        if rules[reader].head.relation == rel or any(not rules[i].body for i in ids):
            continue
        if used & {reader, *ids}:
            continue
        used |= {reader, *ids}
        out[rel] = (reader, ids)
    return out


def _in_or(rule: Rule, rel: str) -> bool:
    return any(isinstance(x, Or) and any(a.relation == rel for a, _ in x.atoms()) for x in rule.body)


def _unfolded(rules: list[Rule], reader: int, defs: list[int]) -> list[Rule]:
    """The rules `rules[reader]` becomes with each of `defs` put in place of the atom it reads (none for a rule
    whose head does not unify with it: its constants differ, it never holds there)."""
    s = rules[reader]
    k = next(k for k, x in enumerate(s.body) if isinstance(x, Atom) and x.relation == rules[defs[0]].head.relation)
    taken = {v.name for x in (s.head, *s.body) for v in x.variables()}
    out = []
    for n, i in enumerate(defs):
        d = rules[i]
        names = {v.name for x in (d.head, *d.body) for v in x.variables()}
        d = substitute(d, {v: Var(_fresh(v, n, taken)) for v in names})
        binding = _unify(d.head.args, s.body[k].args)
        if binding is None:
            continue
        body = s.body[:k] + d.body + s.body[k + 1:]
        out.append(substitute(Rule(s.head, body, s.span), binding))
    return out


def _fresh(name: str, n: int, taken: set[str]) -> str:
    k = 0
    while f"{name}_u{n}_{k}" in taken:
        k += 1
    return f"{name}_u{n}_{k}"


def _unify(xs: tuple[Term, ...], ys: tuple[Term, ...]) -> dict[str, Term] | None:
    """The most general unifier of two argument lists, fully resolved (None if they do not unify)."""
    s: dict[str, Term] = {}

    def walk(t: Term) -> Term:
        while isinstance(t, Var) and t.name in s:
            t = s[t.name]
        return t

    def unify(x: Term, y: Term) -> bool:
        x, y = walk(x), walk(y)
        if x == y:
            return True
        if isinstance(x, Var):
            s[x.name] = y
            return True
        if isinstance(y, Var):
            s[y.name] = x
            return True
        if isinstance(x, Func) and isinstance(y, Func) and x.name == y.name and len(x.args) == len(y.args):
            return all(unify(a, b) for a, b in zip(x.args, y.args))
        return False

    if len(xs) != len(ys) or not all(unify(x, y) for x, y in zip(xs, ys)):
        return None

    def resolved(t: Term) -> Term:
        t = walk(t)
        return Func(t.name, tuple(resolved(a) for a in t.args)) if isinstance(t, Func) else t

    return {name: resolved(Var(name)) for name in s}


def _rebuilt(rules: list[Rule], picked: dict[str, tuple[int, list[int]]], made: dict[str, list[Rule]]) -> list[Rule]:
    """`rules` with each picked relation's rules dropped and its reader replaced, in place, by the rules made."""
    dropped = {i for _, ids in picked.values() for i in ids}
    at = {reader: made[rel] for rel, (reader, _) in picked.items()}
    out: list[Rule] = []
    for i, r in enumerate(rules):
        if i in at:
            out.extend(at[i])
        elif i not in dropped:
            out.append(r)
    return out


__all__ = ["unfold_single_readers"]
