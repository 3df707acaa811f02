"""Calls between functions that read only, compiled into one Python body.

A function that reads only (`tgpl.runtime.readonly`) runs optimistically: one lookup per field
read, and any miss starts it again the general way. Its calls of other such functions are
direct calls (`tgpl.runtime.direct`), each a Python frame; chess's `CanMove` calls `Reaches`
for every candidate square a filter tries. Here a call of a
function whose body has no loop (only local declarations and assignments, `if`s and `return`s)
is spelled, in the optimistic spelling of its caller only, as one Python expression
(`inline_call`): the target and the arguments evaluated in the call's order into the callee's
locals, then its statements as a chain of conditional expressions, each `return` the value of its
branch, each local a Python local of the caller (`_i<k>_<slot>`, unique to the place).

Nothing about it can be seen. The body changes nothing but its locals and counts no loop step of
its own (its calls count theirs). Whatever it could meet that is not the common case
raises in the caller's optimistic spelling: a read that misses (`KeyError`), and an
error of the game's code or an infinity used as an index (`TGPLRuntimeError`, `OverflowError`),
whose report would lack the callee's entry on the stack. The caller's optimistic spelling takes
each of these as a miss (`CATCH`): its loop steps given back, it runs again the general way, which
makes the call as a call and raises the same error, with its stack, where it raises it.

The general spelling of the caller (what a miss runs) is unchanged: the inline expression is the
optimistic spelling of the call's code (`BlockGenerator.read_quick`), itself in the optimistic
spelling of the reads it holds, as is all code made of it (`BlockGenerator.both`).
"""

from __future__ import annotations

import re
from itertools import accumulate
from typing import TYPE_CHECKING, Protocol

from tgpl.frontend import ast
from tgpl.frontend.symbols import FunctionInfo
from tgpl.frontend.types import NUMBER, CallableType, Type
from tgpl.runtime.expr_facts import _changed, _float_valued, _is_bool, _is_float_literal
from tgpl.runtime.layout import Layout, LocalCode

if TYPE_CHECKING:
    from tgpl.runtime.compiler import Compiler

# Calls inlined inside inlined bodies, at most this deep.
MAX_DEPTH = 3
# Parentheses an inline expression may nest (Python's parser takes 200, the caller's own count too)
MAX_PARENS = 90
# The slots of inlined locals start here, a range of SLOTS per inlined call: never a slot of the
# caller's frame, and spelled `_i<k>_<slot>` in the caller's code (`local_name`).
FIRST_SLOT = 1_000_000
SLOTS = 1_000
# What the caller's optimistic spelling takes as a miss when it holds inline bodies (`CATCH`,
# by name in generated code): a read that missed, an error of the game's code, an infinity
# used as an index.
CATCH = ("KeyError", "AttributeError", "_RuntimeError", "OverflowError")


def local_name(slot: int) -> str:
    """The caller's Python local standing for the local `slot` of a body inline, `_i<k>_<slot>`
    (`k`: the inlined call's number, unique to the place)."""
    return f"_i{(slot - FIRST_SLOT) // SLOTS}_{slot}"


class Generator(Protocol):
    """What the inline spelling reads and changes of the code generator that calls it
    (`codegen.BlockGenerator`, which imports this module): its compiler, what its spelling has
    gathered so far (given back by `_Saved`), and its expressions."""

    c: Compiler
    layout: Layout
    numeric: set[str]
    this_code: str
    inputs: dict[int, str]
    indexes: dict[str, str]
    index_ranges: dict[str, tuple[int, int]]
    flat_views: dict[str, tuple[str, tuple[int, ...]]]
    inlining: list[FunctionInfo]
    inlines: int
    optimistic: int | None
    closures: int
    lines: list
    bound: set[str]
    quick_bound: set[str]
    memo_tables: list[int]

    def both(self, spell, *parts: str) -> str: ...
    def local(self, slot: int) -> str: ...
    def expr(self, e: ast.Expr, want: Type | None = None) -> str: ...
    def value(self, e: ast.Expr, want: Type) -> str: ...
    def compound(self, e: ast.Assign, target_t: Type) -> str: ...
    def const(self, value, prefix: str = "_k") -> str: ...
    def name(self, prefix: str) -> str: ...


class _Unsupported(Exception):
    """A statement or shape the inline spelling does not take: the call stays a call."""


def inlinable(fi: FunctionInfo) -> bool:
    """Whether `fi`'s body can be one expression: declarations, assignments of locals, `if`s and
    `return`s only (no loop, no statement of a call)."""
    effect = fi.defn.effect
    if effect is None:
        return False
    return all(not isinstance(n, (ast.While, ast.For, ast.Break, ast.Continue, ast.Winner, ast.ExprStmt))
               or isinstance(n, ast.ExprStmt) and isinstance(n.expr, ast.Assign) and isinstance(n.expr.target, ast.Name)
               for n in ast.walk(effect.body))


def recursive(c, fi: FunctionInfo) -> bool:
    """Whether `fi` may call itself, directly or through other functions (every function of a
    method's name counts, an override may run); remembered by the compiler `c`.

    A function that may call itself gets nothing inline, and is inlined nowhere: an error met
    deep in a recursion passes through every frame of it, and each frame holding inline bodies
    would run its whole call again the general way (`CATCH`), the calls below it included."""
    found = c.recursive.get(id(fi))
    if found is None:
        todo, seen = list(_callees(c, fi)), set()
        while todo:
            g = todo.pop()
            if id(g) not in seen:
                seen.add(id(g))
                todo.extend(_callees(c, g))
        found = c.recursive[id(fi)] = id(fi) in seen
    return found


def _callees(c, fi: FunctionInfo) -> list[FunctionInfo]:
    out = []
    effect = fi.defn.effect
    for n in ast.walk(effect.body) if effect is not None else ():
        if isinstance(n, ast.Call):
            t = c.types.get(id(n.callee))
            if isinstance(t, CallableType) and t.kind == "function" and isinstance(t.target, FunctionInfo):
                out.extend(c.purity.by_name.get(t.target.name, [t.target]) if t.target.owner is not None
                           else [t.target])
    return out


def inline_call(gen: Generator, fi: FunctionInfo, target: str | None, values: list[str]) -> str | None:
    """The call of `fi` (a function that reads only, not memoized, every input given in order) as
    one expression over the caller's code, for the caller's optimistic spelling; `target`: the
    code of the object the method is called on (None: the caller's `this`, or no object for a
    global function), `values`: the code of the arguments. None when it cannot be."""
    if not inlinable(fi) or fi in gen.inlining or len(gen.inlining) >= MAX_DEPTH:
        return None
    home = gen.c.compiling
    if recursive(gen.c, fi) or (home is not None and recursive(gen.c, home)):
        return None
    mark = gen.c.next_inline()
    first = FIRST_SLOT + SLOTS * mark
    saved = _Saved(gen)
    layout = Layout()
    layout.size = first
    slots = [layout.declare(i.name, gen.c._input_type(i, fi.scope)) for i in fi.defn.inputs]
    assigned = {n.target.name for n in ast.walk(fi.defn.effect.body) if isinstance(n, ast.Assign)
                and isinstance(n.target, ast.Name)}
    binds = []  # the caller's code, evaluated in the call's order
    this = "None" if fi.owner is None else gen.this_code
    if target is not None:
        this = f"_i{mark}_t"
        binds.append(gen.both(lambda target, this=this: f"(({this} := {target}) is _NV)", target))
    for inp, slot, value in zip(fi.defn.inputs, slots, values):
        if inp.name not in assigned and (isinstance(value, LocalCode) or _plain_literal(value)):
            gen.inputs[slot] = value  # the caller's local or a literal, read where the body reads it
        else:
            binds.append(gen.both(lambda value, slot=slot: f"(({local_name(slot)} := {value}) is _NV)", value))
    gen.layout, gen.numeric, gen.c.scope, gen.this_code = layout, set(), fi.scope, this
    gen.indexes, gen.index_ranges, gen.flat_views = {}, {}, {}  # the caller's, keyed by its codes
    gen.inlining.append(fi)
    try:
        body = _Body(gen).run(fi.defn.effect.body.body, 0)
    except _Unsupported:
        body = None
    finally:
        gen.inlining.pop()
        saved.restore(gen)
        for slot in slots:
            gen.inputs.pop(slot, None)
    if body is None or not saved.kept(gen) or layout.size - first > SLOTS:
        saved.undo(gen)
        return None
    text = gen.both(lambda *parts: "(" + " or ".join(parts) + ")", *binds, body)
    if _parens(text) > MAX_PARENS:
        saved.undo(gen)
        return None
    gen.inlines += 1
    return text


def expression(gen: Generator, stmts: list) -> str | None:
    """The statements of a block with no loop (a filter's) as one expression of their value, as a
    body is inline (`_Body`): the first `return`'s value, null when none returns; None when they
    cannot be one."""
    gen.layout.push()
    try:
        return _Body(gen).run(stmts, 0)
    except _Unsupported:
        return None
    finally:
        gen.layout.pop()


def _plain_literal(code: str) -> bool:
    return code in ("None", "True", "False") or _is_float_literal(code)


_NOT_PARENS = re.compile("[^()]+")
_PAREN_STEP = {"(": 1, ")": -1}


def _parens(code: str) -> int:
    """The deepest nesting of parentheses in `code`: the greatest running count of its parentheses
    (one opening +1, one closing -1), counted in C (a body inline is long, and checked each time)."""
    return max(accumulate(map(_PAREN_STEP.__getitem__, _NOT_PARENS.sub("", code)), initial=0))


class _Saved:
    """What generating a body inline changes in the generator: the caller's layout and the like,
    given back after it, and what the body adds (its optimistic reads past `reads`, bindings,
    memo tables), undone when the call is not inlined after all."""

    def __init__(self, gen: Generator):
        self.layout, self.numeric, self.scope, self.this_code = gen.layout, gen.numeric, gen.c.scope, gen.this_code
        self.indexes, self.index_ranges, self.flat_views = gen.indexes, gen.index_ranges, gen.flat_views
        self.closures, self.lines, self.reads = gen.closures, len(gen.lines), gen.optimistic
        self.bound, self.quick_bound, self.memo_tables = set(gen.bound), set(gen.quick_bound), list(gen.memo_tables)

    def restore(self, gen: Generator) -> None:
        """Give the caller back its layout, scope, `this` and what it knows of its own locals."""
        gen.layout, gen.numeric, gen.c.scope, gen.this_code = self.layout, self.numeric, self.scope, self.this_code
        gen.indexes, gen.index_ranges, gen.flat_views = self.indexes, self.index_ranges, self.flat_views

    def kept(self, gen: Generator) -> bool:
        """Whether what the body added can stay: no closure (a statement of the compiler's, which
        needs a Frame) and no line of its own; an expression of the caller holds neither."""
        return gen.closures == self.closures and len(gen.lines) == self.lines

    def undo(self, gen: Generator) -> None:
        gen.closures = self.closures
        del gen.lines[self.lines:]
        gen.optimistic = self.reads
        gen.bound, gen.quick_bound, gen.memo_tables = self.bound, self.quick_bound, self.memo_tables


class _Body:
    """A loop-free body as one expression (`inline_call`), over the generator's expressions."""

    def __init__(self, gen: Generator):
        self.gen = gen

    def run(self, stmts: list, start: int, changed: dict | None = None) -> str:
        """The value of running `stmts[start:]` to their end: the first `return`'s value, or null
        when none returns. `changed`: `codegen._changed` of the whole list."""
        if changed is None:
            changed = _changed(stmts, self.gen.c.types)
        for i in range(start, len(stmts)):
            s = stmts[i]
            if isinstance(s, ast.Return):
                return self.gen.expr(s.value) if s.value is not None else "None"
            if isinstance(s, ast.If):
                then_ends, else_ends = _ends(s.then.body), s.orelse is not None and _ends_stmt(s.orelse)
                if then_ends or else_ends:
                    cond = self.condition(s.cond)  # generated first: what follows declares locals
                    rest = lambda: self.run(stmts, i + 1, changed)  # noqa: E731
                    yes = self.scoped(s.then.body) if then_ends else self.effect_then(s.then.body, rest)
                    if s.orelse is None:
                        no = rest()
                    elif else_ends:
                        no = self.scoped_stmt(s.orelse)
                    else:
                        no = self.effect_then_stmt(s.orelse, rest)
                    return cond(yes, no)
            return self.gen.both(lambda effect, rest: f"({effect} is _NV) or {rest}",
                                 self.effect(s, changed, i), self.run(stmts, i + 1, changed))
        return "None"

    def scoped(self, stmts: list) -> str:
        self.gen.layout.push()
        try:
            return self.gen.both(lambda value: "(" + value + ")", self.run(stmts, 0))
        finally:
            self.gen.layout.pop()

    def scoped_stmt(self, s: ast.Stmt) -> str:
        return self.scoped(s.body if isinstance(s, ast.Block) else [s])

    def effect_then(self, stmts: list, rest) -> str:
        """`stmts` (none returns) for their effect, then `rest()`."""
        return self.gen.both(lambda effects, rest: f"(({effects}) is _NV or {rest})", self.effects(stmts), rest())

    def effect_then_stmt(self, s: ast.Stmt, rest) -> str:
        return self.effect_then(s.body if isinstance(s, ast.Block) else [s], rest)

    def effects(self, stmts: list) -> str:
        """Statements that return nothing, for their effect: an expression whose value is never `_NV`."""
        if any(isinstance(n, ast.Return) for s in stmts for n in ast.walk(s)):
            raise _Unsupported
        changed = _changed(stmts, self.gen.c.types)
        self.gen.layout.push()
        try:
            parts = [self.gen.both(lambda effect: f"({effect} is _NV)", self.effect(s, changed, i))
                     for i, s in enumerate(stmts)]
        finally:
            self.gen.layout.pop()
        return self.gen.both(lambda *parts: " or ".join(parts), *parts) if parts else "None"

    def effect(self, s: ast.Stmt, changed: dict, i: int) -> str:
        """One statement that returns nothing, as an expression."""
        gen = self.gen
        if isinstance(s, ast.VarDecl):
            t = gen.c._resolve(s.type)
            value = gen.value(s.init, t) if s.init is not None else "None"
            slot = gen.layout.declare(s.name, t)
            if t == NUMBER and _float_valued(s.init, gen.c.types) and changed.get(s.name, -1) <= i:
                gen.numeric.add(gen.local(slot))
            return gen.both(lambda value, gen=gen, slot=slot: f"({gen.local(slot)} := {value})", value)
        if isinstance(s, ast.ExprStmt) and isinstance(s.expr, ast.Assign) and isinstance(s.expr.target, ast.Name):
            e = s.expr
            slot = gen.layout.lookup(e.target.name)
            if slot is None:
                raise _Unsupported  # a field of `this` by its name: the function would not read only
            target_t = gen.layout.types.get(slot, gen.c.type_of(e.target))
            value = gen.value(e.value, target_t) if e.op == "=" else gen.compound(e, target_t)
            return gen.both(lambda value, gen=gen, slot=slot: f"({gen.local(slot)} := {value})", value)
        if isinstance(s, ast.If):
            cond = self.condition(s.cond)
            yes = gen.both(lambda effects: f"({effects})", self.effects(s.then.body))
            if s.orelse is None:
                no = "None"
            else:
                no = gen.both(lambda effects: f"({effects})",
                              self.effects(s.orelse.body if isinstance(s.orelse, ast.Block) else [s.orelse]))
            return cond(yes, no)
        if isinstance(s, ast.Block):
            return gen.both(lambda effects: f"({effects})", self.effects(s.body))
        raise _Unsupported

    def condition(self, cond: ast.Expr):
        """A function of (`yes`, `no`) giving `yes` if `cond` holds, else `no`, the condition's code
        generated now; one that may not be a bool is tested as `stmt_If` tests it (an error
        raises, and the caller runs the general way)."""
        gen = self.gen
        code = gen.expr(cond)
        if _is_bool(cond):
            return lambda yes, no: gen.both(lambda yes, no, code: f"({yes} if {code} else {no})", yes, no, code)
        c = gen.name("_c")
        span = gen.const(cond.span, "_p")
        return lambda yes, no: gen.both(lambda yes, no, code: f"({yes} if ({c} := {code}) is True"
                                        f" else ({no} if {c} is False else _bad_condition(m, {c}, {span})))", yes, no, code)


def _ends(stmts: list) -> bool:
    """Whether every way through `stmts` ends at a `return`."""
    return any(_ends_stmt(s) for s in stmts)


def _ends_stmt(s: ast.Stmt) -> bool:
    if isinstance(s, ast.Return):
        return True
    if isinstance(s, ast.Block):
        return _ends(s.body)
    if isinstance(s, ast.If):
        return _ends(s.then.body) and s.orelse is not None and _ends_stmt(s.orelse)
    return False


__all__ = ["CATCH", "expression", "inline_call", "inlinable"]
