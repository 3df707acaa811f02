"""The compiled relaxation's bounds, tried from small to horn.BOUND, and the proof that a runaway counter passes all.

The counters' relaxation (tgpl.lowering.compiled, `CompiledGame.relax`) is one positive program whose arithmetic
reads tables clingo fills for the rows asked, each result within a bound; a result past it is `overflow` and no
row. Grounded at horn.BOUND (1000) at once, a counter that nothing bounds is found only after every value up to
1000 has gone through every rule that carries it (a sowing unrolled into 16 passes: a minute of grounding).
So the relaxation is grounded at each of `rungs()` in turn:

* Where it closes without overflow at a rung b, its model is the model at horn.BOUND. The tables at b are
  subsets of those at any B > b, so the model at b is a subset of the model at B (the program is positive).
  With no overflow, every row asked of a table has its result within b, where the table at B gives the same
  row: the model at b is closed under the rules at B, and so holds the least model at B. The two are equal.
* Where it overflows at b, the model at horn.BOUND may not (a number that legitimately reaches 300): the next
  rung is tried, unless `proven` shows the overflow is at every bound. Then it is refused at b, as it would be
  at horn.BOUND, with the values it reached so far.

`proven` follows a counter's value through the rules (`shadows`): from its read, through rules where nothing
but a copy or a step `+ t` / `- t` reads it, back to its read. Such a cycle, taken once with a net step s ≠ 0,
is taken again from the value it gave, with every other literal bound as before (none reads the value): the
counter reaches v, v + s, v + 2s, ... at any bound, until a step passes it.
"""

from __future__ import annotations

from dataclasses import dataclass

from tgpl.lowering import horn
from tgpl.lowering.ir import Atom, Const, Distinct, Rule, Term, Var, occurrences

RUNGS = (32, 256)  # the bounds tried before horn.BOUND (a runaway overflows 32 in a third of a second)

_IN, _OUT, _FROM = Var("Runaway_in"), Var("Runaway_out"), Var("Runaway_from")


def rungs() -> tuple[int, ...]:
    """The bounds the relaxation is grounded at, in order: those of RUNGS below horn.BOUND, then horn.BOUND."""
    return tuple(b for b in RUNGS if b < horn.BOUND) + (horn.BOUND,)


def shadow_relation(rel: str, position: int) -> str:
    """The relation carrying the net step of a counter's value held at `position` of `rel`, and its origin."""
    return f"runaway~{position}~{rel}"


def proof_relation(attr: str) -> str:
    """The relation that holds where counter `attr` is proven to run away (`shadows`)."""
    return f"runaway|{attr}"


@dataclass(frozen=True)
class Flow:
    """How rule `rule` carries a value held at `position` of its body literal `at` into its head at `out`:
    copied (`step` None) or through the body literal `step`, a `#plus` or `#minus` of it and a term that
    does not read it."""

    rule: Rule
    at: int
    position: int
    out: int
    step: int | None


def _stepped(rule: Rule, step: int, v: Var) -> Var | None:
    """The variable the body literal `step` of `rule` gives as `v` plus or minus a term that does not read
    `v` (`#plus(v, t, w)`, `#plus(t, v, w)`, `#minus(v, t, w)`), where nothing else in the body reads it and
    the head does not hold `v`; None where it is not such a step."""
    s = rule.body[step]
    if not isinstance(s, Atom) or s.relation not in ("#plus", "#minus") or len(s.args) != 3:
        return None
    w = s.args[2]
    if not isinstance(w, Var) or w == v or occurrences(s, v) != 1 or occurrences(s, w) != 1:
        return None
    if not (s.args[0] == v or s.relation == "#plus" and s.args[1] == v) or occurrences(rule.head, v):
        return None
    return None if any(occurrences(x, w) for k, x in enumerate(rule.body) if k != step) else w


def flow(rule: Rule, at: int, position: int) -> Flow | None:
    """How `rule` carries the value at `position` of its body literal `at` (a variable), where nothing else
    reads it: None where another literal tests or reads it, or the head holds it twice or not at all."""
    v = rule.body[at].args[position]
    if not isinstance(v, Var) or occurrences(rule.body[at], v) != 1:
        return None
    others = [k for k, x in enumerate(rule.body) if k != at and occurrences(x, v)]
    if len(others) > 1:
        return None
    step = others[0] if others else None
    carried = v if step is None else _stepped(rule, step, v)
    if carried is None or occurrences(rule.head, carried) != 1:
        return None
    out = next((j for j, a in enumerate(rule.head.args) if a == carried), None)
    return None if out is None else Flow(rule, at, position, out, step)


def _shadow(atom: Atom, position: int, value: Term) -> Atom:
    """`atom` as its shadow: the value at `position` replaced by `value`, the origin added last."""
    args = list(atom.args)
    args[position] = value
    return Atom(shadow_relation(atom.relation, position), (*args, _FROM))


def _shadow_rule(f: Flow) -> Rule:
    """The rule `f.rule` carrying the net step (from 0 at the read) instead of the value, its origin along."""
    body = list(f.rule.body)
    body[f.at] = _shadow(body[f.at], f.position, _IN)
    out = _IN
    if f.step is not None:
        s = body[f.step]
        args = tuple(_IN if a == f.rule.body[f.at].args[f.position] else _OUT if k == 2 else a
                     for k, a in enumerate(s.args))
        body[f.step] = Atom(s.relation, args)
        out = _OUT
    return Rule(_shadow(f.rule.head, f.out, out), tuple(body))


def shadows(rules: list[Rule], attrs: set[str]) -> list[Rule]:
    """Rules that, beside `rules`, prove which counters of `attrs` run away (`proof_relation`): the net step of
    each counter's value followed from its read (`#read:attr`, object and value) through the rules that carry
    it (`flow`), with the object it was read from. A counter whose value comes back to its read on the same
    object with a net step not 0 runs away: the same rules' instances, every other literal as bound before,
    take it on by that step again (the module's docstring). Found only where the value is carried whole:
    a counter tested on its way, bounded by the board (`#bound:`), or read from given values, is not."""
    reads = {horn.read_rel(a): a for a in attrs}
    out = [Rule(_shadow(Atom(rel, (_FROM, Const("0"))), 1, Const("0")), (Atom(rel, (_FROM, Var("Runaway_any"))),))
           for rel in reads]
    todo = [(rel, 1) for rel in reads]
    seen = set(todo)
    reached = set()  # the positions some rule carries a value into
    while todo:
        rel, position = todo.pop()
        for r in rules:
            for k, x in enumerate(r.body):
                if not (isinstance(x, Atom) and x.relation == rel and len(x.args) > position):
                    continue
                f = flow(r, k, position)
                if f is None:
                    continue
                out.append(_shadow_rule(f))
                nxt = (r.head.relation, f.out)
                reached.add(nxt)
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
    for rel, attr in reads.items():
        if (rel, 1) in reached:
            step = Var("Runaway_step")
            back = Atom(shadow_relation(rel, 1), (_FROM, step, _FROM))
            out.append(Rule(Atom(proof_relation(attr), ()), (back, Distinct(step, Const("0")))))
    return out
