"""Counters that only count up to a bound the game tests: their values past it are one value.

A move counter that ends the game at 200 (`Game.Moves += 1` where a man lands, `if (Game.Moves >= 200)` in a
later phase) is bounded in play, but the lowering with its moves compiled bounds a counter on its own, by the
tests on the ways that write it: a check that a later decision runs does not bound it, and its values run past
every bound (Nine Men's Morris, tests/data/lowering/others/morris.tgpl). Yet what the game does with such a
counter depends only on how it compares with the constants it is compared with: every value past the largest
is alike. So a counter that is

- written only by `attr += 1` and by `attr = c` (a number c below the bound),
- read only where it is compared with a number (`attr >= 200`, `attr == 9`, `attr < 3`), and
- at most the bound after setup,

is lowered *saturated* at T, one more than the largest number it is compared with (rounded down): its step is
made only below T (`attr += 1` is `if (attr < T) { attr += 1; }`), so it takes 0..T and T stands for every value
from T up. Every comparison with a constant gives the same answer on the runtime's value and on the saturated
one, so the game lowered is the game played; the runtime's state maps to the lowered one with the counter's
value cut down to T (`CompiledGame.state_fluents`), which the validation compares.

Attributes are matched by name over the whole program (every class): an over-approximation that can only
leave a counter unsaturated, never saturate one the game reads otherwise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from tgpl.frontend import ast
from tgpl.lowering.chance import is_roll
from tgpl.lowering.symbolic import Num, choice, lift, neg, sym_compare

COMPARISONS = ("<", ">", "<=", ">=", "==", "!=")


def saturated_counters(program, numeric_attrs: set[str]) -> dict[str, int]:
    """attribute name -> its bound T, for every numeric attribute that may be saturated (see the module)."""
    out: dict[str, int] = {}
    nodes = [n for module in program.modules for n in ast.walk(module.items)]
    for attr in sorted(numeric_attrs):
        bound = _bound(nodes, attr)
        if bound is not None:
            out[attr] = bound
    return out


def _bound(nodes: list, attr: str) -> int | None:
    allowed: set[int] = set()  # the ids of the reads of `attr` that are allowed: compared with a number, written
    constants: list[float] = []
    assigned: list[float] = []
    for n in nodes:
        if isinstance(n, ast.Binary) and n.op in COMPARISONS:
            for mine, other in ((n.left, n.right), (n.right, n.left)):
                if _names(mine, attr):
                    k = _number(other)
                    if k is None:
                        return None  # compared with something else than a number
                    allowed.add(id(mine))
                    constants.append(k)
        elif isinstance(n, ast.Assign) and _names(n.target, attr):
            if n.op == "+=" and _number(n.value) == 1:
                allowed.add(id(n.target))
            elif n.op == "=" and _number(n.value) is not None:
                allowed.add(id(n.target))
                assigned.append(_number(n.value))
            else:
                return None
    if not constants:
        return None
    for n in nodes:
        if _names(n, attr) and id(n) not in allowed:
            return None  # read otherwise: its value matters past the comparisons
    bound = math.floor(max(constants)) + 1
    if any(c != int(c) or not 0 <= c < bound for c in assigned):
        return None
    return bound


def _names(e, attr: str) -> bool:
    """Does e name the attribute `attr` (`x.attr`, or a bare `attr`)?"""
    return isinstance(e, (ast.Member, ast.Name)) and e.name == attr


def _number(e) -> float | None:
    if isinstance(e, ast.NumberLit):
        return float(e.value)
    if isinstance(e, ast.Unary) and e.op == "-" and isinstance(e.operand, ast.NumberLit):
        return -float(e.operand.value)
    return None


def saturated_value(x, bound: int | None):
    """The runtime's value of a counter as the lowering holds it: cut down to its bound, where it has one."""
    if bound is None or not isinstance(x, (int, float)) or isinstance(x, bool):
        return x
    return min(x, bound)


# ---------------------------------------------------------------- capped counters (the moves spelled out)
#
# The moves spelled out cap a wider family of counters: a counter whose every write is `attr = c` (c >= 0) or
# `attr += e`, e a sum of parts never negative, and whose every read is a comparison with a number or a part of
# such an `e` that another capped counter is stepped by (Sevens' `Banked += Pot`). Each is held as min(value, T):
# a write's value is cut down to T (`capped`). The counters never fall (a step adds a number >= 0) and start at
# 0 or more, so from T up a counter stays at T or more; one at T or more stepped into another makes that one T or
# more too where T_from >= T_into. So T is one more than the largest number the counter is compared with, raised
# to the T of every counter it is added into, and every comparison, every step and every cut gives the same answer
# on the runtime's values and on the capped ones, which is what the validation compares (`saturated_value`).


def capped_counters(program, numeric_attrs: set[str], initial: dict[str, list]) -> dict[str, int]:
    """attribute name -> its cap T, for the numeric attributes (fluents) that may be capped (see above).
    `initial`: each attribute's values after setup, over the objects that hold it (each must be an integer from 0
    to its cap, the state the lowering starts from being the runtime's)."""
    nodes = [n for module in program.modules for n in ast.walk(module.items)]
    scan = _Scan(program, nodes)
    candidates = set(numeric_attrs) - scan.declared
    while True:
        caps = _caps(scan, candidates)
        bad = {a for a, cap in caps.items()
               if not all(isinstance(x, (int, float)) and not isinstance(x, bool) and float(x).is_integer()
                          and 0 <= x <= cap for x in initial.get(a, []))}
        if not bad:
            return caps
        candidates = set(caps) - bad


def capped(value, cap: int | None):
    """A value written to a counter capped at `cap` (None: not capped), cut down to it: min(value, cap), by cases
    where the value is a number of the state (`x >= cap` gives cap, else x)."""
    if cap is None:
        return value
    return lift(lambda x: _min(x, float(cap)), value)


def _min(x, cap: float):
    if isinstance(x, Num):
        at = sym_compare(">=", x, cap)
        return choice([(cap, at), (x, neg(at))])
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return min(float(x), cap)
    return x


class _Scan:
    """What the capping reads from the source: the names declared as locals, inputs and filters' candidates,
    and the locals known never negative."""

    def __init__(self, program, nodes: list):
        self.program = program
        self.nodes = nodes
        self.declared = {n.name for n in nodes if isinstance(n, (ast.VarDecl, ast.InputDecl, ast.Filter)) and n.name}
        self._locals: dict[str, bool] = {}

    def local_never_negative(self, name: str) -> bool:
        """Is every declaration of the local `name` set to a sum never negative that reads no attribute, and is it
        never assigned again, nor an input's or a filter's name (whose values are the caller's)?"""
        if name in self._locals:
            return self._locals[name]
        self._locals[name] = False  # a declaration that reads itself is no proof
        decls = [n for n in self.nodes if isinstance(n, ast.VarDecl) and n.name == name]
        ok = bool(decls) and all(d.init is not None and self.sum_reads(d.init, set()) == set() for d in decls) \
            and not any(isinstance(n, (ast.InputDecl, ast.Filter)) and n.name == name for n in self.nodes) \
            and not any(isinstance(n, ast.Assign) and isinstance(n.target, ast.Name) and n.target.name == name
                        for n in self.nodes)
        self._locals[name] = ok
        return ok

    def sum_reads(self, e, counters: set[str]) -> set[int] | None:
        """The ids of the reads of `counters` in `e`, where `e` is a sum never negative of numbers, dice, locals
        never negative and those counters (None where it is something else)."""
        if isinstance(e, ast.NumberLit):
            return set() if float(e.value) >= 0 else None
        if is_roll(self.program, e):
            return set()
        if isinstance(e, ast.Binary) and e.op == "+":
            left, right = self.sum_reads(e.left, counters), self.sum_reads(e.right, counters)
            return None if left is None or right is None else left | right
        if isinstance(e, ast.Name) and e.name in self.declared and id(e) not in self.program.implicit_this:
            return set() if e.name not in counters and self.local_never_negative(e.name) else None
        if isinstance(e, (ast.Name, ast.Member)) and e.name in counters:
            return {id(e)}
        return None


def _caps(scan: _Scan, candidates: set[str]) -> dict[str, int]:
    """The caps of the counters of `candidates` that may be capped: those read and written as the capping needs,
    added only into counters that are capped too, each cap the largest of its own and those it is added into."""
    while True:
        uses = {a: _uses(scan, a, candidates) for a in sorted(candidates)}
        caps = {a: math.floor(max(u.constants)) + 1 for a, u in uses.items() if u is not None and u.constants}
        changed = True
        while changed:
            changed = False
            for a, u in uses.items():
                if u is None:
                    continue
                for into in u.into:
                    if into in caps and caps[into] > caps.get(a, -math.inf):
                        caps[a], changed = caps[into], True
        kept = {a for a, u in uses.items() if u is not None and a in caps and u.into <= candidates}
        if kept == candidates:
            return caps
        candidates = kept


@dataclass
class _Uses:
    """How a counter is used: the numbers it is compared with, and the counters it is added into."""

    constants: list[float] = field(default_factory=list)
    into: set[str] = field(default_factory=set)


def _uses(scan: _Scan, attr: str, candidates: set[str]) -> _Uses | None:
    """The uses of `attr`, where every read and write of it is one the capping allows (None otherwise)."""
    out = _Uses()
    allowed: set[int] = set()
    for n in scan.nodes:
        if isinstance(n, ast.Binary) and n.op in COMPARISONS:
            for mine, other in ((n.left, n.right), (n.right, n.left)):
                if _names(mine, attr):
                    k = _number(other)
                    if k is None:
                        return None
                    allowed.add(id(mine))
                    out.constants.append(k)
        elif isinstance(n, ast.Assign) and _names(n.target, attr):
            allowed.add(id(n.target))
            k = _number(n.value)
            if n.op == "=" and k is not None and k >= 0:
                continue
            if n.op != "+=" or scan.sum_reads(n.value, candidates) is None:
                return None
        elif isinstance(n, ast.Assign) and n.op == "+=" and isinstance(n.target, (ast.Name, ast.Member)) \
                and n.target.name in candidates:
            reads = scan.sum_reads(n.value, candidates)
            mine = {id(r) for r in ast.walk(n.value) if _names(r, attr)}
            if reads is not None and mine and mine <= reads:
                allowed |= mine
                out.into.add(n.target.name)
    if any(_names(n, attr) and id(n) not in allowed for n in scan.nodes):
        return None
    return out
