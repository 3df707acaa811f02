"""Comparisons of one number that another comparison of it in the same conjunction implies, dropped.

A loop bounded by a number of the state (Kalah's `while (hand > 0)`, `hand` the seeds taken from a pit) tests the
number once a pass, each time less one: the condition of the way that sowed 14 seeds holds `pit - 0 > 0`,
`pit - 1 > 0`, ..., `pit - 13 > 0` and `!(pit - 14 > 0)`, each comparison a relation of its own, where the last
two say it all. `minimize` treats literals as independent propositions and cannot see it; here each comparison
of a number of the state against a constant, the number a sum of numbers of the state with whole coefficients
and a whole constant (`conserved.linear`), is read as a set of values of that sum, and a comparison whose set
holds another's of the same sum in the same term goes:
`x > 13` implies `x > 12`, `x == 14` implies both, `!(x > 14)` implies `!(x > 15)`. A term whose comparisons of
one sum hold together for no value (`x > 14 & !(x > 13)`) is no way at all: it goes whole.

The sets are exact: every comparison of the sum is true on the same side of its constant, so the values between
and beyond the constants of one term stand for all the others (`_points`); a sum that does not evaluate (a number
read as null) makes every comparison false and its negation true, a point of its own. The numbers are the game's
ranges, whole numbers in practice, on which the arithmetic of floats is exact, so `(pit - 1) - 1 > 0` is
`pit > 2`. A comparison whose sum reads a number it does not depend on (`x + y - y`, null where y is) is left,
and so is one of two numbers of the state (`a + 2 > b`): dropped, the rules of examples/cards.tgpl's scores lost
one literal here and not there, and folded less (865 rules against 775).
"""

from __future__ import annotations

from tgpl.lowering.conserved import Linear, linear
from tgpl.lowering.symbolic import FALSE, CmpLit, Formula, Num, bottom_up, by_id, conj, rebuild

_OPS = ("==", "<", ">", "<=", ">=")
_FLIPPED = {"==": "==", "<": ">", ">": "<", "<=": ">=", ">=": "<="}

_BOUNDS: dict[Formula, tuple | None] = {}  # comparison literal -> `_bound`, for one lowering (`forget`)


def forget() -> None:
    """Drop the bounds of an earlier lowering's literals."""
    _BOUNDS.clear()


def _bound(f: Formula) -> tuple | None:
    """A comparison literal as (sum, op, constant), meaning `sum op constant`, the sum's first coefficient > 0;
    None where it is not one of a sum of numbers of the state with whole coefficients and a whole constant."""
    found = _BOUNDS.get(f, _MISSING)
    if found is _MISSING:
        found = _BOUNDS[f] = _read(f.key)
    return found


_MISSING = object()


def _read(key: CmpLit) -> tuple | None:
    if key.op not in _OPS or (isinstance(key.left, Num) and isinstance(key.right, Num)):
        return None  # a comparison of two numbers of the state is left: its rules fold with its siblings' (cards)
    leaves = {leaf for side in (key.left, key.right) if isinstance(side, Num) for leaf in side.leaves()}
    left, right = linear(key.left, leaves), linear(key.right, leaves)
    if left is None or right is None:
        return None
    form: Linear = left.plus(right, -1.0)
    if not form.terms or {k for k, _ in form.terms} != leaves:
        return None
    if not _whole(form.constant) or not all(_whole(c) for _, c in form.terms):
        return None
    op, constant, terms = key.op, -form.constant, form.terms
    if terms[0][1] < 0:
        op, constant, terms = _FLIPPED[op], -constant, tuple((k, -c) for k, c in terms)
    return terms, op, constant


def _whole(x: float) -> bool:
    return float(x).is_integer() and abs(x) < 2.0 ** 52


def _compares(c: Formula) -> tuple[Formula, bool] | None:
    """A conjunct as (comparison literal, positive?), None for any other."""
    positive = c.kind != "not"
    inner = c if positive else c.parts[0]
    if inner.kind == "lit" and type(inner.key) is CmpLit:
        return inner, positive
    return None


def _holds(op: str, x: float | None, constant: float) -> bool:
    if x is None:  # the sum does not evaluate: every comparison of it is false
        return False
    if op == "==":
        return x == constant
    if op == "<":
        return x < constant
    if op == ">":
        return x > constant
    return x <= constant if op == "<=" else x >= constant


def _points(constants: list[float]) -> list[float | None]:
    """Values of a sum, one in each stretch where the comparisons with these constants keep their truth, and
    None for a sum that does not evaluate."""
    cs = sorted(set(constants))
    out: list[float | None] = [cs[0] - 1.0]
    for a, b in zip(cs, cs[1:]):
        out += [a, (a + b) / 2]
    return out + [cs[-1], cs[-1] + 1.0, None]


def without_implied(t: frozenset) -> frozenset | None:
    """The term t less its comparisons that another of the same sum implies (module docstring); None where the
    comparisons of one sum contradict each other (t holds in no state)."""
    groups: dict[tuple, list[tuple[Formula, bool, str, float]]] = {}
    for c in t:
        found = _compares(c)
        if found is None:
            continue
        b = _bound(found[0])
        if b is not None:
            groups.setdefault(b[0], []).append((c, found[1], b[1], b[2]))
    dropped: list[Formula] = []
    for members in groups.values():
        if len(members) < 2:
            continue
        points = _points([k for _, _, _, k in members])
        truth = [(c, frozenset(i for i, x in enumerate(points) if _holds(op, x, k) == positive))
                 for c, positive, op, k in members]
        common = frozenset.intersection(*(s for _, s in truth))
        if not common:
            return None
        for c, s in truth:
            if any(d is not c and r <= s and (r != s or d.id < c.id) for d, r in truth):
                dropped.append(c)
    return t.difference(dropped) if dropped else t


def terms_without_implied(terms: list[frozenset]) -> list[frozenset]:
    """`without_implied` of each term, the contradictory ones left out (the list itself where nothing changes)."""
    out: list[frozenset] = []
    changed = False
    for t in terms:
        u = without_implied(t)
        if u is not t:
            changed = True
        if u is not None:
            out.append(u)
    return out if changed else terms


def simplified(f: Formula, memo: dict[int, Formula]) -> Formula:
    """f with every conjunction under it `without_implied` (FALSE where it contradicts itself), f itself where
    nothing goes; memo: formula id -> result, for the formulas of one lowering."""
    return bottom_up(f, memo, lambda g: _simplified_node(g, memo))


def _simplified_node(g: Formula, memo: dict[int, Formula]) -> Formula:
    if not g.parts:
        return g
    r = rebuild(g, [memo[p.id] for p in g.parts])
    if r.kind != "and":
        return r
    t = without_implied(frozenset(r.parts))
    if t is None:
        return FALSE
    return r if len(t) == len(r.parts) else conj(*sorted(t, key=by_id))


__all__ = ["forget", "simplified", "terms_without_implied", "without_implied"]
