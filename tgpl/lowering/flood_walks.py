"""A flood's list walked item by item, written as a scan of the board asking `contains` (language decision 114).

A designer's Havannah (tests/data/designers/havannah3.tgpl) reads the group it flooded the natural way:

    List<Cell> group = GroupOf(start: start);          // or the flood written here: `{start}` and its loop
    number corners = 0;
    List<number> sides = {};
    for (number i = 0; i < group.length; i += 1)
    {
        Cell cell = group[i];
        if (cell.Corner) { corners += 1; }
        if (cell.Side > 0 && !sides.contains(cell.Side)) { sides.add(cell.Side); }
    }

The flood adds an item only where `!group.contains(n)`, from one start, so the list holds each item once. A walk
whose passes do not depend on one another (BODY below, "order-free") gives the same result in any order, so it
is the same as a visit of every object of the item's class that asks whether the group holds it:

    for (number groupX1 = 0; groupX1 < 5; groupX1 += 1)
        for (number groupY1 = 0; groupY1 < 5; groupY1 += 1)
        {
            Cell groupItem1 = Cells[groupX1][groupY1] as Cell;
            if (groupItem1 != null && group.contains(groupItem1)) { BODY, group[i] read as groupItem1 }
        }

which `floods.py` then makes a recursive search (the list is only asked `contains`). The scan is a group of the
function's own class, whose only object it is, proved on the state after setup to give every object of the
item's class exactly once besides nulls (`scans`, tgpl.lowering.scan_cells). A list that holds null would be
walked where the scan is not: the flood's loop or the walk must read a member of the item before anything else
can happen (a null's member stops the game as an error).

A pass is order-free where it

- reads the list only as `group[i]` and the counter nowhere else, and has no `break`, `continue`, `return`,
  `winner` or input;
- writes no state (no attribute, no slot), and calls only what reads (the built-ins that read, and the game's
  functions that write only their own locals);
- writes the function's other locals only as a counter (`v += k` or `v -= k`, `v` a number, `k` a whole number
  literal: a sum of fractions may round otherwise in another order) or a flag (`v = K`, every write of `v` in
  the walk the same literal K), and reads none of them (so no pass sees another's writes);
- adds to a local list only as a set, `if (C && !L.contains(x)) { L.add(x); }`, `L` made by the function (`=
  {...}`), read nowhere before the walk nor else in it, and after it only as `L.length` or `L.contains(y)` (the
  values added, and their number, do not depend on the order; their order does, and nothing reads it).

A set of numbers so filled (Havannah's `sides`) is a local list the compiled moves do not keep, and spelled out
its ways of growing pass any budget. Where the values its adds can take are told for every object the scan gives
(`values`: read only from fields no code that can run after setup writes, evaluated on the state after setup), it
holds v exactly where some pass added v: one flag per value, set in the scan, and after it a count of the flags
set for `length`, a disjunction for `contains` (`_sets_as_flags`). A set whose values are not told is left as is.

The runtime, and so the validation of the lowered rules, runs the walk as written. Anything else is left as
written and meets the lowering's refusal as before.
"""

from __future__ import annotations

import copy
from typing import Callable

from tgpl.frontend import ast
from tgpl.lowering.flood_shapes import _fresh, _is_name, _method, _replace, _same, walks_list
from tgpl.lowering.group_clears import Scans

ReadsOnly = Callable[..., bool]
"""`reads_only(node, own)`: does `node` write nothing but the locals `own`, and call only what reads?"""

Values = Callable[..., "list[float] | None"]
"""`values(owner, group, ranges, item, names, value)`: the numbers `value` takes, `names` read as each object of
class `item` the scan of `group` over `ranges` gives (floods.board_values), or None."""

_LITERALS = (ast.NumberLit, ast.BoolLit, ast.StringLit, ast.NullLit)


def rewrite_flood_walks(owner: ast.ClassDef, members: list, scans: Scans, reads_only: ReadsOnly,
                        flood_list: Callable, values: Values | None = None) -> int:
    """Rewrites in place each order-free walk of a flood's list in the functions of `owner` (see the module's
    docstring). `flood_list(fn, body, k)` tells whether `body[k]` declares a flood's list holding each item once:
    where its flood ends (the index of the first statement after it) and whether its loop reads a member of the
    item first (so the list holds no null), else None; `values` tells the numbers a set the walk fills may hold
    (None: such a set is left as written). The number of walks rewritten."""
    groups = [m.name for m in members if isinstance(m, ast.GroupDef)]
    if not groups:
        return 0
    done = 0
    filled: list = []  # (function, its body, the scan written, how to tell its values): sets made flags after
    for fn in [m for m in members if isinstance(m, ast.FunctionDef) and m.effect is not None]:
        body = fn.effect.body.body
        for k, decl in enumerate(body):
            found = flood_list(fn, body, k)
            if found is None:
                continue
            end, no_null = found
            item = decl.type.args[0]
            local = {d.name for d in fn.inputs} | {n.name for n in ast.walk(body) if isinstance(n, ast.VarDecl)}
            scan = scans(owner.name, item.name, [g for g in groups if g not in local])  # a bare name: the group
            if scan is None:
                continue
            for j in range(end, len(body)):
                walk = _walk(fn, body, k, end, j, reads_only)
                if walk is None or not (no_null or derefs_item(walk[0].body.body, lambda e, w=walk: isinstance(
                        e, ast.Index) and _is_name(e.obj, decl.name) and _is_name(e.index, w[1]))):
                    continue
                body[j] = _scan(fn, decl.name, walk, item, scan)
                done += 1
                if values is not None:
                    filled.append((fn, body, body[j], lambda names, x, s=scan, c=item.name: values(
                        owner.name, s[0], s[1], c, names, x)))
    for fn, body, walk, values_of in filled:
        _sets_as_flags(fn, body, next(j for j, s in enumerate(body) if s is walk), values_of)
    return done


def _sets_as_flags(fn: ast.FunctionDef, body: list, j: int, values_of: Callable) -> None:
    """Each set of numbers the scan `body[j]` fills (`if (C && !L.contains(x)) { L.add(x); }`, found order-free)
    and whose values `values_of` tells (V, every value `x` can take for an object the scan gives), written as one
    flag per value: `bool L1 = false; ...` for `List<number> L = {};`, `if (C) { if (x == v) { Lk = true; } ... }`
    for the add, and after the walk `L.length` read as a count of the flags set and `L.contains(y)` as `y == v &&
    Lk || ...`. The set holds v exactly where some pass added it, so each reads the same."""
    parts = _filled(body[j])
    if parts is None:
        return
    span = body[j].span
    used = {n.name for n in ast.walk(fn.effect.body) if isinstance(n, (ast.Name, ast.VarDecl))}
    used |= {d.name for d in fn.inputs}
    for listed in list(parts[1]):
        names, adds = _filled(body[j])
        found = adds[listed]
        at = next((k for k in range(j) if isinstance(body[k], ast.VarDecl) and body[k].name == listed), None)
        if at is None:
            continue
        decl = body[at]
        if not (decl.type.args and decl.type.args[0].name == "number" and isinstance(decl.init, ast.InitList)
                and not decl.init.items):
            continue  # a set of objects, or one holding values from the start
        told = [values_of(names, x) for _, _, x in found]
        if any(v is None for v in told):
            continue
        after = body[j + 1:]
        asked = [n for n in ast.walk(after) if _method(n, listed, "contains") is not None]
        if any(isinstance(n, ast.Call) for a in asked for n in ast.walk(_method(a, listed, "contains"))):
            continue  # asked of a value a call gives: it would be run once per value
        held = sorted({v for vs in told for v in vs})
        flags = [_fresh(f"{listed}Has", used) for _ in held]
        count = _fresh(f"{listed}Count", used)
        ids = {id(n): (c, x) for n, c, x in found}

        def flagged(n):
            if id(n) not in ids:
                return None
            c, x = ids[id(n)]
            sets = [ast.If(n.span, ast.Binary(n.span, "==", copy.deepcopy(x), ast.NumberLit(n.span, v)),
                           ast.Block(n.span, [ast.ExprStmt(n.span, ast.Assign(n.span, ast.Name(n.span, f), "=",
                                                                              ast.BoolLit(n.span, True)))]), None)
                    for v, f in zip(held, flags)]
            return ast.If(n.span, c if c is not None else ast.BoolLit(n.span, True), ast.Block(n.span, sets), None)

        def read(n):
            if isinstance(n, ast.Member) and _is_name(n.obj, listed) and n.name == "length":
                return ast.Name(n.span, count)
            y = _method(n, listed, "contains")
            if y is None:
                return None
            out: ast.Expr = ast.BoolLit(n.span, False)
            for v, f in zip(held, flags):
                one = ast.Binary(n.span, "&&", ast.Binary(n.span, "==", copy.deepcopy(y), ast.NumberLit(n.span, v)),
                                 ast.Name(n.span, f))
                out = one if isinstance(out, ast.BoolLit) else ast.Binary(n.span, "||", out, one)
            return out
        walk = _replace(body[j], flagged)
        counted = [ast.VarDecl(span, ast.TypeRef(span, "number"), count, span, ast.NumberLit(span, 0.0))]
        counted += [ast.If(span, ast.Name(span, f), ast.Block(span, [ast.ExprStmt(span, ast.Assign(
            span, ast.Name(span, count), "+=", ast.NumberLit(span, 1.0)))]), None) for f in flags]
        made = [ast.VarDecl(decl.span, ast.TypeRef(decl.span, "bool"), f, decl.name_span,
                            ast.BoolLit(decl.span, False)) for f in flags]
        body[:] = body[:at] + made + body[at + 1:j] + [walk] + counted + _replace(after, read)
        j += len(made) - 1


def _filled(scan: ast.For) -> tuple[set[str], dict[str, list]] | None:
    """The scan's object and the names it is read by (`T a = q;`, never written) and, by set, the adds to sets
    in its passes: (the `if`, C or None, x)."""
    loop = scan
    inner: list = []
    while isinstance(loop, ast.For):
        inner = loop.body.body
        loop = inner[-1] if inner else None
    if not (isinstance(loop, ast.If) and len(inner) == 2 and isinstance(inner[0], ast.VarDecl)):
        return None
    q = inner[0].name
    passes = loop.then.body
    names = {q} | {s.name for s in passes if isinstance(s, ast.VarDecl) and _is_name(s.init, q) and not any(
        isinstance(n, ast.Assign) and _is_name(n.target, s.name) for n in ast.walk(passes))}
    adds: dict[str, list] = {}
    for n in ast.walk(passes):
        found = _set_add(n)
        if found is not None:
            adds.setdefault(found[0], []).append((n, found[1], found[2]))
    return names, adds


def _walk(fn: ast.FunctionDef, body: list, k: int, end: int, j: int, reads_only: ReadsOnly
          ) -> tuple[ast.For, str] | None:
    """`body[j]`, an order-free walk of the list `body[k]` declares (its flood ending at `end`), with its counter;
    None where it is not one, or the list may have changed since the flood (read between them otherwise than by
    `contains`)."""
    name = body[k].name
    loop = body[j]
    counter = walks_list(loop, name)
    if counter is None:
        return None
    between = _replace(body[end:j], lambda n: ast.NullLit(n.span) if _method(n, name, "contains") is not None
                       else None)
    if any(_is_name(n, name) for n in ast.walk(between)):
        return None
    if not _order_free(fn, body, j, name, counter, reads_only):
        return None
    return loop, counter


def _set_add(s) -> tuple[str, ast.Expr | None, ast.Expr] | None:
    """`if (C && !L.contains(x)) { L.add(x); }` (or without `C`), `x` the same text twice: (L, C or None, x)."""
    if not (isinstance(s, ast.If) and s.orelse is None and len(s.then.body) == 1
            and isinstance(s.then.body[0], ast.ExprStmt)):
        return None
    call = s.then.body[0].expr
    if not (isinstance(call, ast.Call) and isinstance(call.callee, ast.Member) and isinstance(call.callee.obj, ast.Name)
            and call.callee.name == "add" and len(call.args) == 1 and call.args[0].name is None):
        return None
    listed = call.callee.obj.name
    cond, rest = s.cond, None
    if isinstance(cond, ast.Binary) and cond.op == "&&":
        cond, rest = cond.right, cond.left
    if not (isinstance(cond, ast.Unary) and cond.op == "!"):
        return None
    tested = _method(cond.operand, listed, "contains")
    if tested is None or not _same(tested, call.args[0].value):
        return None
    return listed, rest, call.args[0].value


def _order_free(fn: ast.FunctionDef, body: list, j: int, name: str, counter: str, reads_only: ReadsOnly) -> bool:
    """Is the walk `body[j]` of the list `name` order-free (the module's docstring)?"""
    loop = body[j]
    top = {s.name: s for s in body[:j] if isinstance(s, ast.VarDecl)}
    top_types = {d.name: d.type for d in fn.inputs} | {n: d.type for n, d in top.items()}
    own = {n.name for n in ast.walk(loop.body) if isinstance(n, ast.VarDecl)}
    if own & set(top_types) or name in own or counter in own:
        return False  # a local declared again: which one a name reads is not told here
    for n in ast.walk(loop.body):
        if isinstance(n, (ast.Break, ast.Continue, ast.Return, ast.Winner, ast.InputDecl)):
            return False
    # the sets: lists of the function's own, added to as sets
    sets: dict[str, list] = {}
    for n in ast.walk(loop.body):
        found = _set_add(n)
        if found is not None:
            sets.setdefault(found[0], []).append(n)
    for listed in sets:
        if listed not in top or top[listed].type.name != "List" or not isinstance(top[listed].init, ast.InitList):
            return False  # a list made here, not one the state holds (or passed in)
        if any(_is_name(n, listed) for n in ast.walk(body[:j])):
            return False  # read or passed on before the walk: another name may see its order
        after = _replace(body[j + 1:], lambda n: ast.NullLit(n.span) if (
            isinstance(n, ast.Member) and _is_name(n.obj, listed) and n.name == "length"
            or _method(n, listed, "contains") is not None) else None)
        if any(_is_name(n, listed) for n in ast.walk(after)):
            return False
    adds = {id(s) for v in sets.values() for s in v}
    values: list = []

    def strip(n):
        if id(n) in adds:
            cond, x = _set_add(n)[1:]
            values.append(x)
            return ast.If(n.span, cond or ast.BoolLit(n.span, True), ast.Block(n.span, []), None)
        if isinstance(n, ast.Index) and _is_name(n.obj, name) and _is_name(n.index, counter):
            return ast.NullLit(n.span)
        return None
    rest = _replace(loop.body, strip)
    values = _replace(values, strip)
    if any(isinstance(n, ast.Name) and n.name in ({name, counter} | set(sets)) for n in ast.walk([rest, values])):
        return False
    # the other locals: counters and flags, written only, never read
    writes: dict[str, list[ast.Assign]] = {}
    for n in ast.walk(rest):
        if isinstance(n, ast.ExprStmt) and not isinstance(n.expr, ast.Assign):
            return False  # a call run for what it does
        if isinstance(n, ast.Assign):
            if not isinstance(n.target, ast.Name):
                return False  # the state, or a slot
            if n.target.name not in own:
                writes.setdefault(n.target.name, []).append(n)
    for v, assigns in writes.items():
        if v not in top_types:
            return False  # an attribute of the function's object, written by its bare name
        if all(a.op in ("+=", "-=") for a in assigns):
            # whole steps: a sum of fractions in another order may round otherwise
            if top_types[v].name != "number" or not all(isinstance(a.value, ast.NumberLit)
                                                         and a.value.value == int(a.value.value) for a in assigns):
                return False
        elif not (all(a.op == "=" and isinstance(a.value, _LITERALS) for a in assigns)
                  and len({repr((type(a.value).__name__, getattr(a.value, "value", None))) for a in assigns}) == 1):
            return False
        reads = sum(_is_name(n, v) for n in ast.walk([rest, values]))
        if reads != len(assigns):
            return False  # read in the walk: a pass would see the passes before it
    return reads_only(rest, own | set(writes)) and reads_only(values, own)


def derefs_item(stmts: list, item: Callable[[ast.Expr], bool]) -> bool:
    """Do `stmts`, run, surely read a member of the item (`item(e)` tells an expression that is it) before any
    statement that may end them or skip the rest? A null item then stops the game as an error."""
    aliases: set[str] = set()

    def is_item(e) -> bool:
        return item(e) or isinstance(e, ast.Name) and e.name in aliases

    def expr(e) -> bool:
        if isinstance(e, ast.Member):
            return is_item(e.obj) or expr(e.obj)
        if isinstance(e, ast.Binary):
            return expr(e.left) or (e.op not in ("&&", "||") and expr(e.right))
        if isinstance(e, ast.Unary):
            return expr(e.operand)
        if isinstance(e, ast.Index):
            return expr(e.obj) or expr(e.index)
        if isinstance(e, ast.Cast):
            return expr(e.expr)
        if isinstance(e, ast.Assign):
            return expr(e.value)
        return False

    for s in stmts:
        if isinstance(s, ast.VarDecl):
            if s.init is not None and expr(s.init):
                return True
            if s.init is not None and is_item(s.init) and not any(
                    isinstance(n, ast.Assign) and _is_name(n.target, s.name) for n in ast.walk(stmts)):
                aliases.add(s.name)
            continue
        if isinstance(s, ast.ExprStmt):
            if expr(s.expr):
                return True
            continue
        if isinstance(s, ast.For):
            init = s.init.init if isinstance(s.init, ast.VarDecl) else s.init
            if init is not None and expr(init) or s.cond is not None and expr(s.cond):
                return True
            return False
        if isinstance(s, ast.If):
            return expr(s.cond)
        return False
    return False


def _scan(fn: ast.FunctionDef, name: str, walk: tuple[ast.For, str], item: ast.TypeRef,
          scan: tuple[str, list[tuple[str, int, int]]]) -> ast.For:
    """The walk written as a scan of the group `scan` names asking `name.contains` of each object."""
    loop, counter = walk
    group, ranges = scan
    span = loop.span
    used = {n.name for n in ast.walk(fn.effect.body) if isinstance(n, (ast.Name, ast.VarDecl))}
    used |= {d.name for d in fn.inputs}
    counters = [_fresh(f"{name}{r[0].upper()}", used) for r in ranges]
    q = _fresh(f"{name}Item", used)
    cell: ast.Expr = ast.Name(span, group)
    for v in counters:
        cell = ast.Index(span, cell, ast.Name(span, v))
    inner = _replace(loop.body.body, lambda n: ast.Name(n.span, q) if (
        isinstance(n, ast.Index) and _is_name(n.obj, name) and _is_name(n.index, counter)) else None)
    held = ast.Call(span, ast.Member(span, ast.Name(span, name), "contains", span),
                    [ast.Arg(span, None, ast.Name(span, q))])
    test = ast.Binary(span, "&&", ast.Binary(span, "!=", ast.Name(span, q), ast.NullLit(span)), held)
    body: list = [ast.VarDecl(span, copy.deepcopy(item), q, span, ast.Cast(span, cell, copy.deepcopy(item))),
                  ast.If(span, test, ast.Block(loop.body.span, inner), None)]
    for v, (_, lo, hi) in reversed(list(zip(counters, ranges))):
        body = [ast.For(span, ast.VarDecl(span, ast.TypeRef(span, "number"), v, span, ast.NumberLit(span, float(lo))),
                        ast.Binary(span, "<", ast.Name(span, v), ast.NumberLit(span, float(hi))),
                        ast.Assign(span, ast.Name(span, v), "+=", ast.NumberLit(span, 1.0)), ast.Block(span, body))]
    return body[0]
