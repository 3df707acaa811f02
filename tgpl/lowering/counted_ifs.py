"""Counts made of tests (`if (x == k) { n += 1; }`) as a chain of relations, not as every combination of the tests.

A local number that an `if` adds to forks the path at every test: after three tests the paths hold the counts 0 to
3, each under the disjunction of the combinations of outcomes that give it, and everything the count decides
afterwards (a write, a win check, the next count built from it) is written once per combination. Codebreaker's
answer (`tests/data/designers/codebreaker.tgpl`: three if-increments for the exact pegs, a loop over the colours
of the `min` of two such counts for the near ones) was written so, one rule per combination of outcomes.

A hand-written GDL program counts along a chain: the count after the k-th test is a relation, from the count
before it and the test,

    (<= (exact_2 ?n) (exact_1 ?m) (true (second maker_0 ?c)) ... (succ ?m ?n))
    (<= (exact_2 ?m) (exact_1 ?m) (not (true (second maker_0 ?c))) ...)

tests × range rows, never 2^tests. So does the lowering: an `if` whose branches only add a number to one local
(`IfStep`) does not fork the path; the local becomes a value by cases (`Choice`) whose cases are the rows of a
relation of its own, a `CountSite`, which gets the path's condition and the cases worked out from the count before
and the test (`step_cases`). The next step's cases read that relation, so the count is a chain, and so is a sum
built from counts (`common += inCode` where `inCode` is a count): what the step adds is another count, and its
cases pair the two relations' values.

Where it is used. The count's old value and what each branch adds must be numbers or numbers by cases, the test a
condition over the state (before the move or through a view), the move, comparisons of a number with a constant
and counts only (no call: a call's relation has reading contexts of its own that a count would hide), and the
path's condition too. Comparisons of two numbers of the state (`score[q] > score[p]`, ranking three hands in
tests/data/designers/ends_scores.tgpl) are left out: they fork the path as before, since counted they made the
ranking's GDL larger, not smaller (4,489 rules with a body where forking wrote 1,320). A ranking built from counts
can name a player twice on a path whose condition never holds (a count's two values, one within a disjunction of
merged paths, which `conj` does not look into); the goals are those of the `(result ...)` term's places
(`emit.goals_of_places`), so that such a path writes no second goal for a real ranking. A step from a
concrete count with concrete additions stays a plain value by cases (its two cases are the test and its negation:
no relation is smaller). Counted on the probe of a shared evaluation, a step gives up (as a view does), and the
expression is evaluated path by path; on a path whose condition is true (a pure call run once for every state) the
count gets a relation of its own, which no other path shares.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tgpl.frontend import ast
from tgpl.lowering.symbolic import (
    FALSE, TRUE, Choice, CmpLit, ControlLit, CountLit, CountSite, FluentLit, Formula, MoveLit, ViewLit,
    Num, arith_concrete, choice, clash, conj, conjuncts, is_number, lit, literals, settle,
)

PLAIN = (FluentLit, ViewLit, MoveLit, ControlLit, CmpLit, CountLit)  # the literals a count's step may read


@dataclass(frozen=True)
class IfStep:
    """`if (cond) { name op then; } else { name op orelse; }` (the else optional): op is `+=` or `-=`, each
    added value a number or a local's name."""

    name: str
    op: str
    then: ast.Expr
    orelse: ast.Expr | None


def _adds(block: ast.Block) -> tuple[str, str, ast.Expr] | None:
    if len(block.body) != 1 or not isinstance(block.body[0], ast.ExprStmt):
        return None
    e = block.body[0].expr
    if not isinstance(e, ast.Assign) or e.op not in ("+=", "-=") or not isinstance(e.target, ast.Name):
        return None
    if not isinstance(e.value, (ast.NumberLit, ast.Name)):
        return None
    return e.target.name, e.op, e.value


def if_step(s: ast.If) -> IfStep | None:
    """The step an `if` adds to one local, where it is one (`IfStep`), else None."""
    then = _adds(s.then)
    if then is None:
        return None
    if s.orelse is None:
        return IfStep(then[0], then[1], then[2], None)
    if not isinstance(s.orelse, ast.Block):
        return None
    other = _adds(s.orelse)
    if other is None or other[0] != then[0] or other[1] != then[1]:
        return None
    return IfStep(then[0], then[1], then[2], other[2])


def countable(v, readable: Callable[[Formula], bool]) -> bool:
    """A number, or numbers by cases whose conditions are `readable` (`plain`)."""
    if isinstance(v, Choice):
        return all(is_number(x) and not isinstance(x, bool) for x, _ in v.cases) and \
            all(readable(f) for _, f in v.cases)
    return is_number(v) and not isinstance(v, bool) and isinstance(v, (int, float))


def plain(f: Formula) -> bool:
    """f reads only the state (before the move or through a view), the move, the control, comparisons of a
    number with a constant and counts: what a count's relation may read without hiding a relation of its own (a
    call's, whose reading contexts `emit.Emitter.call_atom` tells apart by what the call reads). Comparisons of two
    numbers are left out for size (the module's docstring)."""
    return all(type(k) in PLAIN and (type(k) is not CmpLit or _with_constant(k)) for k in literals(f))


def _with_constant(k: CmpLit) -> bool:
    """A comparison of a number with a constant (`Pips == 6`)."""
    return not isinstance(k.left, Num) or not isinstance(k.right, Num)


def _cases(v) -> list[tuple[object, Formula]]:
    return list(v.cases) if isinstance(v, Choice) else [(v, TRUE)]


def step_cases(old, op: str, branches: list[tuple[Formula, object]]) -> list[tuple[object, Formula]]:
    """The count's cases after the step: for each branch (its condition, what it adds) and each pair of a case
    of the old count and of the added value, their sum under their conjunction. The branch's condition is
    settled under the pair's count values (a test `inCode < 2` read where `inCode` is 1 is true), so that a
    row reads each count once."""
    out = []
    for when, added in branches:
        for x, fx in _cases(old):
            for y, fy in _cases(added):
                assumed = {k.site: k.value for g in (fx, fy) if g.kind == "lit" and type(g.key) is CountLit
                           for k in (g.key,)}
                branch = when
                if assumed:
                    branch = settle(when, lambda k: (k.value == assumed[k.site]) if type(k) is CountLit
                                    and k.site in assumed else None, {})
                f = conj(fx, fy, branch)
                if f is not FALSE:
                    out.append((arith_concrete(op[0], x, y), f))
    return out


def named(site: CountSite, pc: Formula, cases: list[tuple[object, Formula]]):
    """The count as cases of the site's relation: the site gets the path's condition and the cases."""
    merged = choice(cases)
    if not isinstance(merged, Choice) or len(merged.cases) < 2:
        return merged  # one value left on this path: nothing to name
    site.contributions.append((pc, merged.cases))
    return choice((x, lit(CountLit(site, x))) for x, _ in merged.cases)


def worth(old, added: list[object]) -> bool:
    """A relation of its own for a step only where a count by cases goes in: from a concrete count, a step's
    cases are its test and its negation, as small as any relation's."""
    return isinstance(old, Choice) or any(isinstance(a, Choice) for a in added)



def pc_conjuncts(f: Formula) -> tuple:
    """A path condition's top-level conjuncts, as `conj` takes them apart (none for TRUE)."""
    return () if f is TRUE else conjuncts(f)


def move_of(parts) -> int | None:
    """The move a conjunction's top-level literal says is made, else None."""
    return next((x.key.move for x in parts if x.kind == "lit" and type(x.key) is MoveLit), None)


class SitePcs:
    """The conditions of a count site's contributions, by the move each says is made: whether a path's condition
    excludes them all (`exclude`, what `conj(pc, other) is FALSE` says of each) is asked of those of its own move
    and those of none, without building a conjunction. The moves of a control state each contribute to a site
    they share, so that asking it of every contribution, by `conj`, cost each move as many conjunctions as moves
    before it: Halma's count of the board (tests/data/designers/halma5.tgpl), 25 sites a move, built parts of
    conditions in proportion to the square of the moves, which a forecast's sample of two moves could not see."""

    __slots__ = ("seen", "by_move", "unmoved")

    def __init__(self) -> None:
        self.seen = 0  # the site's contributions indexed so far
        self.by_move: dict[int, list[frozenset]] = {}
        self.unmoved: list[frozenset] = []

    def exclude(self, site: CountSite, mine: frozenset, move: int | None) -> bool:
        """Whether the conjuncts `mine` (those of a path's condition, `move` its move) clash with those of each
        of the site's contributions' conditions (`symbolic.clash`: exactly where `conj` of the two is FALSE)."""
        for pc, _ in site.contributions[self.seen:]:
            parts = frozenset(pc_conjuncts(pc))
            m = move_of(parts)
            (self.unmoved if m is None else self.by_move.setdefault(m, [])).append(parts)
        self.seen = len(site.contributions)
        if FALSE in mine:
            return True
        if move is None:
            others = [x for xs in self.by_move.values() for x in xs] + self.unmoved
        else:
            others = self.by_move.get(move, []) + self.unmoved
        return all(FALSE in other or clash(mine | other) for other in others)
