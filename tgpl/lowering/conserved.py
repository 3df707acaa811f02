"""Counters that every move moves about without making or losing any: each member of such a family lies within
0..its total.

Kalah's seeds: ten `Seeds` counters, 24 seeds in all. Sowing takes every seed of a pit (`pit.Seeds = 0`) and puts
them one by one into the following holes (`h.Seeds += 1`); a capture moves two pits into a store; the end sweeps
each side into its store. No search of the ranges, one counter at a time or all together, sees that the sum stays
24: searched alone, each pit's seeds grow with every write that adds one; searched together, the states are the
game's five million. The sum is a fact of the moves' writes, proved here on each way through each move, and it
bounds every member at once.

The proof, by induction on the moves (`conserved_families`): a family is the numeric fluents of one attribute name,
each a whole number ≥ 0 after setup; its total is their sum then. Suppose a state before a move whose members are
whole numbers within 0..total summing to it. Every way through every move (a path, `_keeps`) must write each member
it writes, in each case of a value written by cases, a sum of members' values before the move with whole
coefficients ≥ 0 plus a whole number ≥ 0 (so every member stays ≥ 0); and in every combination of those cases that
the path's condition allows, the change of the sum (what it writes less what those members held, a linear form of
the members) must be nothing. clingo lists the combinations, the literals free but for the comparisons of one
member, true where that member's value makes them so; each is shown as its change with the comparisons of the
members it changes, and the change must be nothing for every value those comparisons leave: a pit sown of `hand`
seeds changes the sum by `k - pit` on the way that ran k passes, where the loop's tests say the pit held k. Then
every member stays ≥ 0 and the sum stays the total, so each lies in 0..total. Another counter in a value, a
product of two numbers, a division, a change that a comparison of several members would have to cancel: the
proof fails, and the family is searched as before. A bound not proved is never used.

The paths a loop cut (`Executor.loop_cuts`) or a pool too small ended early are not moves: they are left out. The
first state that a play reaches through such a way is reached by proved moves alone, so it lies in the bounds,
and `Lowering.check_loop_cuts` (or `check_pools`) finds it there and lowers the game again with more passes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from tgpl.limits import Limits, unlimited
from tgpl.lowering.satisfy import Encoding
from tgpl.lowering.symbolic import TRUE, Choice, CmpLit, Formula, Num, Partial, conj

@dataclass(frozen=True)
class Linear:
    """A sum of counters' values before the move, each times a coefficient, plus a constant."""

    terms: tuple[tuple[tuple, float], ...]  # (fluent key, coefficient), sorted, no zero coefficient
    constant: float

    @staticmethod
    def of(terms: dict[tuple, float], constant: float) -> "Linear":
        return Linear(tuple(sorted((k, c) for k, c in terms.items() if c != 0)), constant)

    def plus(self, other: "Linear", sign: float = 1.0) -> "Linear":
        terms = dict(self.terms)
        for k, c in other.terms:
            terms[k] = terms.get(k, 0.0) + sign * c
        return Linear.of(terms, self.constant + sign * other.constant)

    def times(self, factor: float) -> "Linear":
        return Linear.of({k: c * factor for k, c in self.terms}, self.constant * factor)


def linear(v, family: set) -> Linear | None:
    """v as a linear form over the members of `family`, or None where it is not one (another number read, a
    product of two counters, a division, anything but + - and a product by a constant)."""
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, (int, float)):
        return Linear((), float(v))
    if not isinstance(v, Num):
        return None
    if v.op == "fluent":
        return Linear(((v.args, 1.0),), 0.0) if v.args in family else None
    if v.op not in ("+", "-", "*") or len(v.args) != 2:
        return None
    a, b = (linear(x, family) for x in v.args)
    if a is None or b is None:
        return None
    if v.op == "+":
        return a.plus(b)
    if v.op == "-":
        return a.plus(b, -1.0)
    if not a.terms:
        return b.times(a.constant)
    if not b.terms:
        return a.times(b.constant)
    return None


def _cases(v, cond: Formula) -> list[tuple[Formula, object]] | None:
    """v's values by cases, nested cases flattened, each under `cond` and its cases' conditions."""
    if isinstance(v, Partial):
        return None
    if isinstance(v, Choice):
        out: list[tuple[Formula, object]] = []
        for x, f in v.cases:
            inner = _cases(x, conj(cond, f))
            if inner is None:
                return None
            out.extend(inner)
        return out
    return [(cond, v)]


def _written(cell: tuple, v, family: set) -> tuple[str, list[tuple[Formula, Linear]]] | None:
    """How a way writes `cell`: "one" value, a "choice" of cases of which one holds, or a "partial" one of
    which at most one holds (else the cell keeps its value); each case with its condition and its value as a
    linear form. None where a value is not a sum of members with whole coefficients ≥ 0 and a whole constant
    ≥ 0 (the members' signs kept)."""
    kind = "partial" if isinstance(v, Partial) else "choice" if isinstance(v, Choice) else "one"
    cases = _cases(Choice(v.cases), TRUE) if isinstance(v, Partial) else _cases(v, TRUE)
    if cases is None:
        return None
    out = []
    for f, x in cases:
        form = linear(x, family)
        if form is None or not _whole(form.constant) or not all(_whole(c) for _, c in form.terms):
            return None
        out.append((f, form))
    return kind, out


def _keeps(p, family: list, total: int, limits: Limits) -> bool:
    """Whether one way through a move keeps the family's sum (module docstring), from any state whose members
    are whole numbers within 0..`total` (the induction's hypothesis). clingo lists every combination of the
    cases of its writes that the path's condition allows, the literals free (a superset of what can hold),
    each as the change it makes to the sum (a linear form of the members) with the truth of the comparisons of
    one member; the change must be nothing on every member value those comparisons leave (a sowing's `hand`
    seeds taken from a pit that held `hand`: its change, `k - pit`, is nothing where the loop's comparisons say
    the pit held k)."""
    members = {k: j for j, k in enumerate(family)}
    written = []
    for cell, v in p.store.items():
        if cell in members:
            w = _written(cell, v, members)
            if w is None:
                return False
            written.append((cell, *w))
    if not written:
        return True
    if all(kind == "one" for _, kind, _ in written):
        change = Linear((), 0.0)
        for cell, _, [(_, form)] in written:
            change = change.plus(form).plus(Linear(((cell, 1.0),), 0.0), -1.0)
        return change == Linear((), 0.0)
    enc = Encoding(lambda key: None)
    enc.facts.append(f"root({enc.node(p.pc)}).")
    for c, (cell, kind, cases) in enumerate(written):
        enc.facts.append(f"{kind}({c}).")
        for i, (f, form) in enumerate(cases):
            enc.facts.append(f"case({c},{i},{enc.node(f)}).")
            change = form.plus(Linear(((cell, 1.0),), 0.0), -1.0)
            enc.facts.extend(f"w({c},{i},{members[k]},{int(x)})." for k, x in change.terms)
            if change.constant:
                enc.facts.append(f"w0({c},{i},{int(change.constant)}).")
    bounds: dict[int, tuple[int, int, float, str]] = {}  # atom -> (member, coefficient, constant, op)
    for key, a in enc.atoms.items():
        limits.check()
        b = _bound(key, members)
        if b is not None:
            bounds[a] = b
            j, c, k, op = b
            enc.facts.append(f"defined({a}). unary({a},{j}).")
            enc.facts.extend(f"holds({a},{x})." for x in range(total + 1) if _holds(c * x + k, op))
    enc.facts.append(f"member(0..{len(family) - 1}). value(0..{total}).")
    key = hashlib.sha256("\n".join([str(MODELS), *enc.facts]).encode()).digest()
    found = _PROVED.get(key)
    if found is None:
        found = _PROVED[key] = _changes_nothing(enc, bounds, total, limits)
    return found


_PROVED: dict[bytes, bool] = {}
"""A way's facts and MODELS (their digest) -> `_changes_nothing`'s answer, which they decide (the program and the
bounds, which the `holds` facts spell over 0..total, are the rest of it). Kalah's ways at its first loop cut are
proved by `lower._forecast_refusal`'s sampled run and again by the lowering (10 of its 30 questions); kept for the
process, as the same facts are the same question in any lowering."""


def _changes_nothing(enc: Encoding, bounds: dict[int, tuple[int, int, float, str]], total: int,
                     limits: Limits) -> bool:
    """Whether every combination clingo lists of one way's cases (`_keeps`, whose facts `enc` holds) changes the
    family's sum by nothing on every member value its comparisons leave."""
    for n, shown in enumerate(enc.answers(_CHANGE, limits)):
        if n >= MODELS:
            return False
        coefs = {}
        constant = 0
        true = set()
        for sym in shown:
            if sym.name == "coef":
                coefs[sym.arguments[0].number] = sym.arguments[1].number
            elif sym.name == "constant":
                constant = sym.arguments[0].number
            else:
                true.add(sym.arguments[0].number)
        box = {j: [0, total] for j in coefs}
        for a, (j, c, k, op) in bounds.items():
            if j in box:
                _narrow(box[j], c, k, op, a in true)
        if any(lo > hi for lo, hi in box.values()):
            continue  # the comparisons of one member contradict one another: no state takes this way
        if any(c and box[j][0] != box[j][1] for j, c in coefs.items()):
            return False
        if sum(c * box[j][0] for j, c in coefs.items()) + constant != 0:
            return False
    return True


MODELS = 20_000
"""Combinations of one way's cases, told apart by their change to the sum and the comparisons of one member, that
the proof may look at: past it, the family is not proved."""

_OPS = ("==", "<", ">", "<=", ">=")


def _bound(key, members: dict) -> tuple[int, int, float, str] | None:
    """A comparison of one member's value, `c * x + k op 0` with c a whole number, as (member, c, k, op)."""
    if not isinstance(key, CmpLit) or key.op not in _OPS:
        return None
    left, right = linear(key.left, members), linear(key.right, members)
    if left is None or right is None:
        return None
    form = left.plus(right, -1.0)
    if len(form.terms) != 1 or form.terms[0][1] != int(form.terms[0][1]):
        return None
    (k, c), = form.terms
    return members[k], int(c), form.constant, key.op


def _holds(x: float, op: str) -> bool:
    """`x op 0`."""
    return x == 0 if op == "==" else x < 0 if op == "<" else x > 0 if op == ">" else x <= 0 if op == "<=" else x >= 0


def _narrow(box: list, c: int, k: float, op: str, holds: bool) -> None:
    """Narrow a member's whole values [lo, hi] to those where `c * x + k op 0` is `holds`."""
    xs = [x for x in range(box[0], box[1] + 1) if _holds(c * x + k, op) == holds]
    # with a hole (a false `==`), the span over-approximates: the member is then not pinned, nor proved
    box[0], box[1] = (xs[0], xs[-1]) if xs else (1, 0)


_CHANGE = """
sel(C, I) :- case(C, I, N), h(N).
:- choice(C), #count { I : sel(C, I) } != 1.
:- partial(C), #count { I : sel(C, I) } > 1.
:- one(C), not sel(C, 0).
coef(J, S) :- member(J), S = #sum { W, C, I : sel(C, I), w(C, I, J, W) }, S != 0.
constant(S) :- S = #sum { W, C, I : sel(C, I), w0(C, I, W) }, S != 0.
1 { val(J, V) : value(V) } 1 :- unary(_, J).
t(A) :- unary(A, J), val(J, V), holds(A, V).
shown(A) :- t(A), unary(A, J), coef(J, _).
#show coef/2. #show constant/1. #show shown/1.
#project coef/2. #project constant/1. #project shown/1.
"""
"""The combinations of the cases of one way's writes (satisfy.lp's facts and rules besides), each shown as the
change it makes to the family's sum (`coef`, `constant`) and the comparisons that hold of the members it
changes by a multiple of their value (`shown`): a comparison of one member is true where its value makes it so
(`holds`, with `defined` taking it out of satisfy.lp's free literals)."""


def conserved_families(initial: dict[tuple, object], paths: Iterable,
                       limits: Limits | None = None) -> dict[tuple, list[float]]:
    """The numeric fluents proved to lie within 0..their family's total (module docstring), each with that range.
    `initial` maps each numeric fluent's key (object, attribute) to its value after setup; `paths` are the moves'
    ways (anything with a `store`), the cut ones left out by the caller. `limits` (the command's) are checked at
    each way, each comparison and each of clingo's answers: Kalah's proof takes twenty seconds on a busy machine."""
    limits = limits if limits is not None else unlimited()
    families: dict[str, set] = {}
    for k, x in initial.items():
        families.setdefault(k[1], set()).add(k)
    bad = {attr for attr, members in families.items()
           if any(not _whole(initial[k]) for k in members)}
    paths = list(paths)
    for attr in sorted(set(families) - bad):
        family = families[attr]
        total = int(sum(float(initial[k]) for k in family))
        for p in paths:
            limits.check()
            if not _keeps(p, sorted(family), total, limits):
                bad.add(attr)
                break
    out: dict[tuple, list[float]] = {}
    for attr in sorted(set(families) - bad):
        total = int(sum(float(initial[k]) for k in families[attr]))
        for k in sorted(families[attr]):
            out[k] = [float(x) for x in range(total + 1)]
    return out


def _whole(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and x >= 0 and float(x) == int(x)
