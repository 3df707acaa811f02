"""Which objects a scan over coordinates visits, evaluated over the static board at lowering time.

A flood's size compared with a count (`reached.length == total`, tgpl.lowering.flood_counts) says "every
counted item is reached" only where the counting loop visits each item once. Lines of Action counts its pieces
with `for x, for y: Sq s = At(x: x, y: y)`: whether those are 25 distinct squares is a fact of the board, not of
the code, so it is evaluated here, once, on the state after setup, with

- only what setup fixes read: a field read is given up where code running after setup writes an attribute of
  that name (tgpl.lowering.segments.written_attributes, by name: a sound over-approximation), and a group's
  cells are its board's, fixed when it is made;
- the game's top-level functions called by name, their bodies run (`if`, `return`, locals);
- anything else (a built-in, a list, a method, an error such as an index out of range) given up.

So the answer holds in every state the game reaches: what it reads never changes after setup. Where setup throws
dice or deals as random's first moves, the snapshot is not yet the start, and nothing is answered.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from tgpl.frontend import ast

STEPS = 100_000  # evaluation steps for a whole scan, past which it is given up


class GiveUp(Exception):
    """Something this evaluator does not model, or an error: no answer."""


@dataclass(frozen=True)
class _Obj:
    name: str


@dataclass(frozen=True)
class _Column:
    group: str
    x: int


class _Return(Exception):
    def __init__(self, value):
        self.value = value


class _Static:
    """The evaluator over the snapshot `start`, reading only fields no code after setup writes."""

    def __init__(self, program, start: dict, written: set[str] | None = None):
        from tgpl.lowering.segments import written_attributes

        self.objects = {o["name"]: o for o in start["objects"]}
        self.globals = {o["name"] for o in start["objects"]
                        if o["class"].visibility == "global" and o["class"].name == o["name"]}
        self.written = written_attributes(program) if written is None else written
        self.functions: dict[str, ast.FunctionDef] = {}
        for fi in program.functions:
            self.functions.setdefault(fi.defn.name, fi.defn)
        self.steps = 0

    def step(self) -> None:
        self.steps += 1
        if self.steps > STEPS:
            raise GiveUp()

    def expr(self, e, env: dict):
        self.step()
        if isinstance(e, ast.NumberLit):
            return float(e.value)
        if isinstance(e, ast.BoolLit):
            return bool(e.value)
        if isinstance(e, ast.NullLit):
            return None
        if isinstance(e, ast.Name):
            if e.name in env:
                return env[e.name]
            if e.name in self.globals:
                return _Obj(e.name)
            raise GiveUp()
        if isinstance(e, ast.Unary):
            v = self.expr(e.operand, env)
            if e.op == "-" and isinstance(v, float):
                return -v
            if e.op == "!" and isinstance(v, bool):
                return not v
            raise GiveUp()
        if isinstance(e, ast.Binary):
            return self.binary(e, env)
        if isinstance(e, ast.Member):
            return self.member(self.expr(e.obj, env), e.name)
        if isinstance(e, ast.Index):
            return self.index(self.expr(e.obj, env), self.expr(e.index, env))
        if isinstance(e, ast.Cast):
            v = self.expr(e.expr, env)
            if v is None:
                return None
            if not isinstance(v, _Obj):
                raise GiveUp()
            return v if self.derives(v.name, e.type.name) else None
        if isinstance(e, ast.Call):
            return self.call(e, env)
        raise GiveUp()

    def binary(self, e: ast.Binary, env: dict):
        left = self.expr(e.left, env)
        if e.op in ("&&", "||"):
            if not isinstance(left, bool):
                raise GiveUp()
            if left == (e.op == "||"):
                return left
            right = self.expr(e.right, env)
            if not isinstance(right, bool):
                raise GiveUp()
            return right
        right = self.expr(e.right, env)
        if e.op == "==":
            return left == right
        if e.op == "!=":
            return left != right
        if not (isinstance(left, float) and isinstance(right, float)):
            raise GiveUp()
        ops = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
               "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
               ">=": lambda a, b: a >= b}
        if e.op not in ops:
            raise GiveUp()
        return ops[e.op](left, right)

    def member(self, o, name: str):
        if not isinstance(o, _Obj) or name in self.written:
            raise GiveUp()
        fields = self.objects[o.name]["fields"]
        if name not in fields:
            raise GiveUp()
        v = fields[name]
        if isinstance(v, tuple):
            if v[0] == "obj":
                return _Obj(v[1])
            raise GiveUp()
        if isinstance(v, bool) or v is None:
            return v
        if isinstance(v, (int, float)):
            return float(v)
        raise GiveUp()

    def index(self, o, k):
        if not (isinstance(k, float) and k == int(k)):
            raise GiveUp()
        k = int(k)
        if isinstance(o, _Obj):
            cells = self.objects[o.name]["cells"]
            if cells is None or not 0 <= k < len(cells):
                raise GiveUp()
            return _Column(o.name, k)
        if isinstance(o, _Column):
            col = self.objects[o.group]["cells"][o.x]
            if not 0 <= k < len(col):
                raise GiveUp()
            return _Obj(col[k]) if col[k] is not None else None
        raise GiveUp()

    def derives(self, name: str, base: str) -> bool:
        c = self.objects[name]["class"]
        while c is not None and c.name != base:
            c = c.base
        return c is not None

    def call(self, e: ast.Call, env: dict):
        if not (isinstance(e.callee, ast.Name) and e.callee.name not in env and e.callee.name in self.functions):
            raise GiveUp()
        fn = self.functions[e.callee.name]
        names = [d.name for d in fn.inputs]
        if fn.effect is None or any(a.name is None for a in e.args) or sorted(a.name for a in e.args) != sorted(names):
            raise GiveUp()
        inner = {a.name: self.expr(a.value, env) for a in e.args}
        try:
            self.block(fn.effect.body.body, inner)
        except _Return as r:
            return r.value
        raise GiveUp()  # no value returned

    def block(self, stmts: list, env: dict) -> None:
        for s in stmts:
            self.step()
            if isinstance(s, ast.Return) and s.value is not None:
                raise _Return(self.expr(s.value, env))
            if isinstance(s, ast.VarDecl) and s.init is not None and s.name not in env:
                env[s.name] = self.expr(s.init, env)
            elif isinstance(s, ast.Block):
                self.block(s.body, env)
            elif isinstance(s, ast.If):
                c = self.expr(s.cond, env)
                if not isinstance(c, bool):
                    raise GiveUp()
                if c:
                    self.block(s.then.body, dict(env))
                elif s.orelse is not None:
                    self.block(s.orelse.body if isinstance(s.orelse, ast.Block) else [s.orelse], dict(env))
            else:
                raise GiveUp()


def visits_each_once(program, start: dict, ranges: list[tuple[str, int, int]], item: ast.Expr,
                     item_class: str, objects: dict[str, str] | None = None, nulls: bool = False) -> bool:
    """Does `item`, evaluated for every value of the counters `ranges` ((name, first, past the last), nested in
    that order), give every object of class `item_class` (or a subclass) exactly once, and nothing else (no null,
    unless `nulls`: a scan that skips them)? False where that cannot be told (see the module's docstring).
    `objects` names locals `item` reads, each an object of the snapshot (a board the caller proved is the only
    one of its class)."""
    if "objects" not in start or start.get("throws") or start.get("deals"):
        return False  # setup's dice or deals still to come (random's first moves): the snapshot is not the start
    try:
        ev = _Static(program, start)
        seen: list[str] = []
        for values in itertools.product(*(range(a, b) for _, a, b in ranges)):
            env = {k: _Obj(o) for k, o in (objects or {}).items()}
            env.update({name: float(x) for (name, _, _), x in zip(ranges, values)})
            v = ev.expr(item, env)
            if v is None and nulls:
                continue
            if not isinstance(v, _Obj):
                return False
            seen.append(v.name)
        wanted = {name for name in ev.objects if ev.derives(name, item_class)}
    except (GiveUp, KeyError, TypeError, RecursionError):
        return False
    return len(seen) == len(set(seen)) and set(seen) == wanted


def values_over(program, start: dict, ranges: list[tuple[str, int, int]], item: ast.Expr, names: set[str],
                value: ast.Expr, objects: dict[str, str] | None = None) -> list[float] | None:
    """The numbers `value` takes, `names` each read as the object `item` gives (nulls skipped), over every value
    of the counters `ranges`, sorted; None where that cannot be told (a field some code that can run after setup
    writes, a value not a number, anything else the evaluator does not take). `value` then takes one of them at
    any time of play for every such object."""
    if "objects" not in start or start.get("throws") or start.get("deals"):
        return None
    from tgpl.lowering.segments import written_after_setup

    try:
        ev = _Static(program, start, written_after_setup(program))
        found: set[float] = set()
        for counters in itertools.product(*(range(a, b) for _, a, b in ranges)):
            env = {k: _Obj(o) for k, o in (objects or {}).items()}
            env.update({name: float(x) for (name, _, _), x in zip(ranges, counters)})
            o = ev.expr(item, env)
            if o is None:
                continue
            if not isinstance(o, _Obj):
                return None
            v = ev.expr(value, {n: o for n in names})
            if not isinstance(v, float):
                return None
            found.add(v)
    except (GiveUp, KeyError, TypeError, RecursionError):
        return None
    return sorted(found)
