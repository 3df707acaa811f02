"""How many objects of a class can hold one player in an attribute: a bound on a counted flood (decision 114).

A flood compared with a count (`flood_counts`) reaches only items with the scan's condition C, so a shortest
chain from its start has at most |{items with C}| - 1 steps, however many objects of the item's class there are.
Lines of Action (tests/data/designers/loa_flood.tgpl) asks `s.Stone == who`: a player's pieces, six at most on
25 squares, so the search's depth is 5 where the class alone gives 24 (and the lowering grounds each depth).

`held_bound` proves such a count, without playing the game, where C has a conjunct `s.A == e` and:

- e is never null: an input of the function that is never assigned there, and every call of that function (its
  name defined once) passes a number literal, a sum or difference of such values, an input of the caller
  passing the same test, or `player` in an action of a class whose objects all have an owner after setup, that
  code after setup makes none of and calls `assign` nowhere (and no class has an attribute named `player`).
  With e null, C would count the empty squares, which a capture makes more of;
- A is a player, number, bool or string (a list's methods would change it without an assignment), and no
  write after setup raises the number of objects holding any one non-null value in A: every assignment to an
  attribute named A (of any class: the check reads no types) outside setup is `X.A = null`, or `X.A = B.A;`
  followed at once by `B.A = null;` with B a local name other than A, X read without calls or writes (a move:
  X gains B's value, B loses it, X == B included), and no code after setup makes objects of the class;
- the start is one state (no dice or deals of setup still to come).

Then no state after setup has more objects holding v in A than the start has, for every v, and the bound is the
most the start has of one non-null value, less one. Anything else gives no bound: the flood keeps the class's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from tgpl.frontend import ast
from tgpl.frontend.types import Prim

Held = Callable[[str, str, ast.Expr, str], "int | None"]
"""`held(function, item, C, T)`: the most items of class T with C (read of the item `item`), in any state after
setup, less one; None where not proved."""


@dataclass
class _Code:
    """The game's code outside setup, and each function, action and call with the definition it stands in."""

    functions: dict[str, list[ast.FunctionDef]] = field(default_factory=dict)
    calls: list[tuple[ast.Call, object, str | None]] = field(default_factory=list)  # (call, FunctionDef |
    # ActionDef | None, its class's name)
    after_setup: list = field(default_factory=list)  # items and statements that run after setup


def _code(modules) -> _Code:
    code = _Code()
    for m in modules:
        for item in m.items:
            if isinstance(item, ast.SetupDef):
                continue
            code.after_setup.append(item)
            members = item.members if isinstance(item, ast.ClassDef) else [item]
            owner = item.name if isinstance(item, ast.ClassDef) else None
            for d in members:
                if isinstance(d, ast.FunctionDef):
                    code.functions.setdefault(d.name, []).append(d)
                ctx = d if isinstance(d, (ast.FunctionDef, ast.ActionDef)) else None
                for n in ast.walk(d):
                    if isinstance(n, ast.Call):
                        code.calls.append((n, ctx, owner))
        for item in m.items:  # setup's calls too: a call is a call, wherever it is
            if isinstance(item, ast.SetupDef):
                code.calls.extend((n, None, None) for n in ast.walk(item) if isinstance(n, ast.Call))
    return code


def _assigned(node, name: str) -> bool:
    return any(isinstance(n, ast.Assign) and isinstance(n.target, ast.Name) and n.target.name == name
               for n in ast.walk(node))


def _callee(call: ast.Call) -> str | None:
    c = call.callee
    return c.name if isinstance(c, (ast.Name, ast.Member)) else None


class _Proof:
    """The facts `held_bound` proves, over the checked program and its start."""

    def __init__(self, program, start: dict):
        self.program = program
        self.start = start
        self.code = _code(program.modules)
        self.bases = {c.name: (c.base.name if c.base is not None else None) for c in program.classes}
        self.made = {n.type.name for n in ast.walk(self.code.after_setup) if isinstance(n, ast.New)}

    def derives(self, name: str | None, base: str) -> bool:
        seen: set[str] = set()
        while name is not None and name not in seen:
            if name == base:
                return True
            seen.add(name)
            name = self.bases.get(name)
        return False

    def _objects(self, cls: str) -> list[dict] | None:
        """The objects of `cls` (or a subclass) after setup; None where code after setup makes more."""
        if any(self.derives(m, cls) for m in self.made):
            return None
        return [o for o in self.start["objects"] if self.derives(o["class"].name, cls)]

    # ------------------------------------------------------------------ e never null

    def never_null(self, e, ctx, owner: str | None, seen: frozenset = frozenset()) -> bool:
        if isinstance(e, ast.NumberLit):
            return True
        if isinstance(e, ast.Binary) and e.op in ("+", "-"):
            return self.never_null(e.left, ctx, owner, seen) and self.never_null(e.right, ctx, owner, seen)
        if not isinstance(e, ast.Name) or ctx is None:
            return False
        inputs = {d.name for d in ctx.inputs}
        if e.name in inputs:
            return isinstance(ctx, ast.FunctionDef) and self.input_never_null(ctx.name, e.name, seen)
        if (e.name == "player" and isinstance(ctx, ast.ActionDef) and owner is not None
                and not any(isinstance(n, ast.VarDecl) and n.name == "player" for n in ast.walk(ctx))):
            return self._always_owned(owner)
        return False

    def input_never_null(self, fn: str, name: str, seen: frozenset = frozenset()) -> bool:
        """Does every call of the function `fn` (defined once, its input `name` never assigned there) pass a
        never-null value as `name`?"""
        defs = self.code.functions.get(fn, [])
        if len(defs) != 1 or (fn, name) in seen or _assigned(defs[0], name):
            return False  # several functions of the name, a cycle or a write: not proved
        inputs = [d.name for d in defs[0].inputs]
        if name not in inputs:
            return False
        at = inputs.index(name)
        seen = seen | {(fn, name)}
        for call, ctx, owner in self.code.calls:
            if _callee(call) != fn:
                continue
            given = [a.value for a in call.args if a.name == name]
            if not given and at < len(call.args) and all(a.name is None for a in call.args[:at + 1]):
                given = [call.args[at].value]
            if len(given) != 1 or not self.never_null(given[0], ctx, owner, seen):
                return False
        return True

    def _always_owned(self, cls: str) -> bool:
        """Has every object of `cls` an owner in every state after setup (`player` reads its first owner)?"""
        if any("player" in c.attributes for c in self.program.classes):
            return False
        objects = self._objects(cls)
        if objects is None or any(_callee(n) == "assign" for n in ast.walk(self.code.after_setup)
                                  if isinstance(n, ast.Call)):
            return False
        return all(o.get("owners") for o in objects)

    # ------------------------------------------------------------------ the count never grows

    def most_held(self, cls: str, attr: str) -> int | None:
        """The most objects of `cls` holding one non-null value in `attr` after setup, where no write after setup
        raises that number (the module's docstring); None where not proved."""
        objects = self._objects(cls)
        if objects is None or not self._primitive(cls, attr) or not self._writes_keep_counts(attr):
            return None
        counts: dict[object, int] = {}
        for o in objects:
            v = o["fields"].get(attr)
            if v is not None:
                counts[_key(v)] = counts.get(_key(v), 0) + 1
        return max(counts.values(), default=0)

    def _primitive(self, cls: str, attr: str) -> bool:
        """Is `attr` of `cls` (or a base) a player, number, bool or string, written only by assignment (a list's
        methods change it without one)?"""
        infos = {c.name: c for c in self.program.classes}
        name: str | None = cls
        seen: set[str] = set()
        while name is not None and name not in seen and name in infos:
            seen.add(name)
            if attr in infos[name].attribute_types:
                return isinstance(infos[name].attribute_types[attr], Prim)
            name = self.bases.get(name)
        return False

    def _writes_keep_counts(self, attr: str) -> bool:
        allowed: set[int] = set()
        for n in ast.walk(self.code.after_setup):
            if isinstance(n, ast.Block):
                allowed.update(_moves(n.body, attr))
        for n in ast.walk(self.code.after_setup):
            if not isinstance(n, ast.Assign):
                continue
            if isinstance(n.target, ast.Name) and n.target.name == attr:
                return False  # an attribute of `this`, perhaps, written by its bare name
            if not (isinstance(n.target, ast.Member) and n.target.name == attr):
                continue
            if n.op != "=" or not (isinstance(n.value, ast.NullLit) or id(n) in allowed):
                return False
        return True


def _key(v) -> object:
    return repr(v) if isinstance(v, (list, tuple)) else v


def _plain(e) -> bool:
    """An expression read without calls or writes: a name, `this`, or their attributes."""
    while isinstance(e, ast.Member):
        e = e.obj
    return isinstance(e, (ast.Name, ast.This))


def _moves(stmts: list, attr: str) -> list[int]:
    """The ids of the first assignments of `X.A = B.A; B.A = null;` pairs in a block's statements."""
    out = []
    for a, b in zip(stmts, stmts[1:]):
        if not (isinstance(a, ast.ExprStmt) and isinstance(b, ast.ExprStmt)
                and isinstance(a.expr, ast.Assign) and isinstance(b.expr, ast.Assign)):
            continue
        x, y = a.expr, b.expr
        if not (x.op == "=" and isinstance(x.target, ast.Member) and x.target.name == attr and _plain(x.target.obj)
                and isinstance(x.value, ast.Member) and x.value.name == attr
                and isinstance(x.value.obj, ast.Name) and x.value.obj.name != attr):
            continue
        source = x.value.obj.name
        if (y.op == "=" and isinstance(y.target, ast.Member) and y.target.name == attr
                and isinstance(y.target.obj, ast.Name) and y.target.obj.name == source
                and isinstance(y.value, ast.NullLit)):
            out.append(id(x))
    return out


def _conjuncts(e) -> list:
    if isinstance(e, ast.Binary) and e.op == "&&":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def held_bound(program, start: dict) -> Held:
    """`held` for `rewrite_floods` (see the module's docstring)."""
    if "objects" not in start or start.get("throws") or start.get("deals"):
        return lambda fn, item, cond, cls: None
    proof = _Proof(program, start)

    def held(fn: str, item: str, cond: ast.Expr, cls: str) -> int | None:
        found: list[int] = []
        for c in _conjuncts(cond):
            if not (isinstance(c, ast.Binary) and c.op == "=="):
                continue
            for side, other in ((c.left, c.right), (c.right, c.left)):
                if (isinstance(side, ast.Member) and isinstance(side.obj, ast.Name) and side.obj.name == item
                        and isinstance(other, ast.Name) and other.name != item
                        and proof.input_never_null(fn, other.name)):
                    most = proof.most_held(cls, side.name)
                    if most is not None:
                        found.append(max(most - 1, 0))
        return min(found, default=None)
    return held
