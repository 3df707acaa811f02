"""Sums of several counters, and comparisons of such sums, as relations that chain over a static number line.

GDL has no arithmetic. A comparison or a write of a number that reads counters of the state is written by the
emitter one rule per combination of their values in range (`Emitter.compare_rules`, `Emitter.written_terms`):
total^terms rules. Kalah 2x4x3's end check compares the two stores after the sweep, nine holes' seeds each in
0..24: 25^9 combinations. A hand-written GDL program adds along a chain instead, and so does this module:

    (<= (sum_1 ?v) (true (seeds hole_a ?u)) (true (seeds hole_b ?w)) (plus ?u ?w ?v))
    (<= (sum_2 ?v) (sum_1 ?u) (true (seeds hole_c ?w)) (plus ?u ?w ?v))
    (<= compare_7 (sum_2 ?a) (sum_5 ?b) (less ?b ?a))

over static tables `(plus u w v)` (u + w = v) and `(less x y)` (x < y). Each step's ground size is the partial
sum's range times the next term's, so a chain costs (number of terms) × range², never range^terms. Chains of sums
that share their first terms share their relations (the terms are taken in one order).

Where it is used. A number is taken as a chain where it is a linear form (tgpl.lowering.conserved.linear) of
counters of the state with whole coefficients, whose values in range are whole numbers ≥ 0, and where the
combinations the emitter would try outnumber the chain's ground rows (`Plan.worth`): small comparisons stay as
they were written, one rule per combination. A written number takes a chain only where every coefficient and the
constant are ≥ 0 (it is then ≥ 0, as the table's numbers).

The number line. A partial sum lies within the sum of its terms' ranges; where the terms are distinct members of a
conserved family (tgpl.lowering.conserved: their sum is the family's total in every state a play reaches) it is at
most that total, so the tables stop there: Kalah's sums need 0..24 (and its constants), not 0..216. In a state
no play reaches, a sum past the table is not derived; GDL's meaning is that of the reachable states, where the
chain gives every sum exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

from tgpl.lowering.conserved import Linear, linear
from tgpl.lowering.ir import Atom, Const, Distinct, Func, Literal, Not, Rule, Term, Var


@dataclass(frozen=True)
class Side:
    """One side of a comparison, or a written number: `constant + Σ terms` (a term repeated for a coefficient)."""

    terms: tuple[tuple, ...]  # fluent keys (object, attribute), sorted, repeated by their coefficient
    constant: int


@dataclass(frozen=True)
class Plan:
    """How a number (or a comparison of two) is written as chains, and what it costs either way."""

    sides: tuple[Side, ...]  # one for a written number, (left, right) for a comparison `left op right`
    op: str | None  # the comparison's operator, None for a written number
    combinations: float  # the rules the emitter would try, one per combination of the terms' values
    rows: int  # the chains' ground rows: plus rows of each step, less rows of the comparison

    @property
    def worth(self) -> bool:
        """Chains only where they ground smaller than the combinations: the small comparisons stay as written."""
        return self.combinations > self.rows


def _whole(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and float(x) == int(x)


def _sides(form: Linear, written: bool) -> tuple[Side, ...] | None:
    """The form `Σ c·x + k` as sides whose terms all have coefficient +1: (left,) for a write (None where a
    coefficient or the constant is negative), (left, right) for `form op 0` read as `left op right`."""
    if not _whole(form.constant) or any(not _whole(c) for _, c in form.terms):
        return None
    pos = tuple(k for k, c in form.terms for _ in range(int(c)) if c > 0)
    neg = tuple(k for k, c in form.terms for _ in range(int(-c)) if c < 0)
    k = int(form.constant)
    if written:
        return None if neg or k < 0 else (Side(pos, k),)
    return Side(pos, max(k, 0)), Side(neg, max(-k, 0))


class Line:
    """The ranges chains go through: each counter's values in range, and the conserved families' totals."""

    def __init__(self, domains: dict[tuple, list], totals: dict[str, int]):
        self.domains = domains  # numeric fluent key -> its values in range
        self.totals = totals  # attribute -> the total of its proved conserved family

    def usable(self, key: tuple) -> bool:
        dom = self.domains.get(key)
        return bool(dom) and all(_whole(d) and d >= 0 for d in dom)

    def top(self, terms: tuple[tuple, ...]) -> int:
        """The largest sum of `terms`: the sum of their largest values, or the families' totals below it."""
        by_attr: dict[str, list[tuple]] = {}
        for t in terms:
            by_attr.setdefault(t[1], []).append(t)
        out = 0
        for attr, ts in by_attr.items():
            most = sum(int(max(self.domains[t])) for t in ts)
            if attr in self.totals and len(set(ts)) == len(ts):
                most = min(most, self.totals[attr])
            out += most
        return out

    def bottom(self, terms: tuple[tuple, ...]) -> int:
        return sum(int(min(self.domains[t])) for t in terms)

    def steps(self, side: Side) -> list[tuple[range, list[int], int]]:
        """Each addition of the side's chain: (the partial sum's values, the added term's values, the cap)."""
        out = []
        for i in range(1, len(side.terms)):
            before = side.terms[:i]
            out.append((range(self.bottom(before), self.top(before) + 1),
                        sorted({int(d) for d in self.domains[side.terms[i]]}), self.top(side.terms[:i + 1])))
        if side.constant and side.terms:
            out.append((range(self.bottom(side.terms), self.top(side.terms) + 1), [side.constant],
                        self.top(side.terms) + side.constant))
        return out

    def plan(self, x, op: str | None = None, right=None) -> Plan | None:
        """The plan for the number `x` written (op None), or for the comparison `x op right`; None where it is
        not a linear form of counters with whole values ≥ 0 in range."""
        form = linear(x, set(self.domains))
        if form is None:
            return None
        if op is not None:
            other = linear(right, set(self.domains))
            if other is None:
                return None
            form = form.plus(other, -1.0)
        if not form.terms or not all(self.usable(k) for k, _ in form.terms):
            return None
        sides = _sides(form, op is None)
        if sides is None:
            return None
        combinations = 1.0
        for k, _ in form.terms:
            combinations *= len(self.domains[k])
        rows = sum(len(u) * len(w) for s in sides for u, w, _ in self.steps(s))
        if op is not None:
            rows += (self.top(sides[0].terms) + sides[0].constant + 1) * (self.top(sides[1].terms)
                                                                           + sides[1].constant + 1)
        return Plan(sides, op, combinations, rows)

    def chained(self, x, op: str | None = None, right=None) -> Plan | None:
        """The plan for `x` (or `x op right`) where it is written as chains (`Plan.worth`), else None."""
        plan = self.plan(x, op, right)
        return plan if plan is not None and plan.worth else None

    def interval(self, plan: Plan) -> tuple[int, int]:
        """The least and largest value of `left - right` (or of the written number) over every combination of
        the terms' values in range, no family's total used: what `Emitter._constant` decides a comparison by."""
        def most(side: Side) -> int:
            return sum(int(max(self.domains[t])) for t in side.terms) + side.constant

        def least(side: Side) -> int:
            return self.bottom(side.terms) + side.constant

        if len(plan.sides) == 1:
            return least(plan.sides[0]), most(plan.sides[0])
        left, right = plan.sides
        return least(left) - most(right), most(left) - least(right)


def decided(plan: Plan, line: Line) -> bool | None:
    """The comparison's truth where every combination of values in range decides it alike, else None."""
    lo, hi = line.interval(plan)
    if plan.op == "==":
        return False if lo > 0 or hi < 0 else True if lo == hi == 0 else None
    if plan.op == "!=":
        return True if lo > 0 or hi < 0 else False if lo == hi == 0 else None
    if plan.op == "<":
        return True if hi < 0 else False if lo >= 0 else None
    if plan.op == "<=":
        return True if hi <= 0 else False if lo > 0 else None
    if plan.op == ">":
        return True if lo > 0 else False if hi <= 0 else None
    if plan.op == ">=":
        return True if lo >= 0 else False if hi < 0 else None
    return None


class Chains:
    """The relations of the chains an emitter writes (tgpl.lowering.emit.Emitter): one relation per partial sum,
    shared by every sum that starts with the same terms, and the `plus` and `less` tables, their rows added as
    the chains need them (into `emitter.numbers`, beside the successor facts)."""

    def __init__(self, emitter, line: Line):
        self.em = emitter
        self.line = line
        self._sums: dict[tuple, str] = {}
        self._plus: str | None = None
        self._less: str | None = None
        self._less_to = -1
        self._added: set[tuple] = set()  # the additions whose `plus` rows are in `emitter.numbers` already

    def read(self, key: tuple, v: Var) -> Atom:
        fl = self.em.logic.fluents[key]
        return Atom("true", (Func(self.em.attr(fl.attr), (self.em.obj(fl.obj), v)),))

    def plus(self, u: Term, w: Term, v: Term) -> Atom:
        if self._plus is None:
            self._plus = self.em.props.name(("chains", "plus"), "plus")
        return Atom(self._plus, (u, w, v))

    def add_rows(self, step: tuple[range, list[int], int]) -> None:
        """The `plus` rows one addition of a chain needs: its partial sums, its term's values, up to its cap; once
        per addition (`emitter.numbers` keeps the first of equal facts)."""
        us, ws, cap = step
        key = (us.start, us.stop, tuple(ws), cap)
        if key in self._added:  # its rows again (Kalah's sides, thousands of times): duplicates the emitter drops
            return
        self._added.add(key)
        table = self.plus(Const("0"), Const("0"), Const("0")).relation
        for u in us:
            for w in ws:
                if u + w <= cap:
                    self.em.numbers.append(Rule(Atom(table, tuple(self.em.value(float(x)) for x in (u, w, u + w)))))

    def less(self, a: Term, b: Term, top: int) -> Atom:
        if self._less is None:
            self._less = self.em.props.name(("chains", "less"), "less")
        if top > self._less_to:
            for y in range(max(self._less_to + 1, 1), top + 1):
                for x in range(y):
                    self.em.numbers.append(Rule(Atom(self._less, (self.em.value(float(x)), self.em.value(float(y))))))
            self._less_to = top
        return Atom(self._less, (a, b))

    def prefix(self, terms: tuple[tuple, ...]) -> str:
        """The relation `(sum_k ?v)`: v is the sum of `terms` (at least two), its rules written once."""
        name = self._sums.get(terms)
        if name is not None:
            return name
        name = self._sums[terms] = self.em.props.name(("chains", terms), "sum")
        u, w, v = Var("u"), Var("w"), Var("v")
        first = self.read(terms[0], u) if len(terms) == 2 else Atom(self.prefix(terms[:-1]), (u,))
        self.em.rules.append(Rule(Atom(name, (v,)), (first, self.read(terms[-1], w), self.plus(u, w, v))))
        return name

    def side(self, side: Side, out: Term, inner: Var) -> tuple[Term, list[Literal]]:
        """The side's value as a term, and the literals that bind it: `out` (a variable, or the value it must
        have), `inner` the partial sum before the constant is added."""
        for step in self.line.steps(side):
            self.add_rows(step)
        if not side.terms:
            return self.em.value(float(side.constant)), []
        total = inner if side.constant else out
        body = [self.read(side.terms[0], total) if len(side.terms) == 1 else Atom(self.prefix(side.terms), (total,))]
        if side.constant:
            body.append(self.plus(inner, self.em.value(float(side.constant)), out))
        return out, body

    def written(self, plan: Plan, domain: list) -> tuple[Term, list[Literal]]:
        """The number written to a fluent whose values in range are `domain`: its sum, kept to those values by a
        static `(number v)` table, as the combination form writes none past them. Every fluent a rule can make
        true must be in `base`, and a GDL checker reads the chains relaxed: the shared `plus` table has rows past
        a family's total (the constants added to a total), which no state a play reaches uses but a relaxed
        reading joins (Kalah 2x4x3: `(seeds holes_0_0 25)`)."""
        term, body = self.side(plan.sides[0], Var("sum"), Var("sum0"))
        values = tuple(sorted({int(d) for d in domain if _whole(d)}))
        key = ("chains", "values", values)
        name = self.em.props.given.get(key)
        if name is None:
            name = self.em.props.name(key, "number")
            self.em.numbers.extend(Rule(Atom(name, (self.em.value(float(d)),))) for d in values)
        body.append(Atom(name, (term,)))
        return term, body

    def compare(self, head: Atom, plan: Plan) -> None:
        """`head` holds when `left op right` does, the sides' sums read through their chains."""
        left, right = plan.sides
        if plan.op == "==" and not left.terms:
            left, right = right, left
        if plan.op == "==" and not right.terms:  # the sum is the constant
            _, body = self.side(left, self.em.value(float(right.constant)), Var("a0"))
            self.em.rules.append(Rule(head, tuple(body)))
            return
        a, body = self.side(left, Var("a"), Var("a0"))
        b, more = self.side(right, a if plan.op == "==" else Var("b"), Var("b0"))
        body = body + more
        top = max(self.line.top(left.terms) + left.constant, self.line.top(right.terms) + right.constant)
        if plan.op == "<":
            body.append(self.less(a, b, top))
        elif plan.op == ">":
            body.append(self.less(b, a, top))
        elif plan.op == "<=":
            body.append(Not(self.less(b, a, top)))
        elif plan.op == ">=":
            body.append(Not(self.less(a, b, top)))
        elif plan.op == "!=":
            body.append(Distinct(a, b))
        elif plan.op != "==":
            raise ValueError(plan.op)
        self.em.rules.append(Rule(head, tuple(body)))
