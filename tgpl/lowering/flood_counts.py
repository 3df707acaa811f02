"""A flood started at the first item a count finds, and its size compared with that count (language decision 114).

Lines of Action's first win check (tests/data/designers/loa_flood.tgpl, `Connected`):

    List<T> L = {};                                 T LFirst = null;
    number total = 0;                               <SCAN> { T s = E; if (C) { if (LFirst == null) { LFirst = s; } } }
    <SCAN>                                          List<T> L = {LFirst};
    {                                       ->      <the walk, as written>
        T s = E;                                    <SCAN> { T s = E; if (C) { if (!L.contains(s)) { return false; } } }
        if (C) { total += 1; if (L.length == 0) { L.add(s); } }    return true;
    }
    <the walk of L, adding `n` where `... && C[s := n] && ... && !L.contains(n)`>
    return L.length == total;

<SCAN> is nested counted loops over number literals. The right-hand form is a flood from the same first item,
asked about by membership, which `floods.py` makes a recursive search. It is the same answer where:

- the scan visits every object of T exactly once (`distinct(ranges, E, T)`: evaluated over the static board,
  tgpl.lowering.scan_cells), so `total` is the number of objects with C, |P|;
- the walk adds only items with C (its add's condition has C, with the scan's item renamed, among the
  conjuncts it requires, and C reads nothing but the item and inputs never assigned, calls nothing), so the
  flood R holds only items of P (its start is one), each once (the add tests `contains`): |R| = |P| exactly
  when every item of P is in R. With no item of P, R is empty and both forms answer true.

`total` and `L` must be read nowhere else (the walk's reads of `L` are `floods.py`'s to check). Anything else is
left as written.
"""

from __future__ import annotations

import copy
from typing import Callable

from tgpl.frontend import ast
from tgpl.lowering.flood_shapes import _fresh, _is_name, _method, _names, _replace, _same, _stmt_method

Distinct = Callable[[list[tuple[str, int, int]], ast.Expr, str], bool]
"""`distinct(ranges, E, T)`: does E, over the counters' ranges ((name, first, past the last)), visit every object
of class T exactly once?"""


def _scan(s) -> tuple[list[tuple[str, int, int]], list] | None:
    """Nested counted loops over literals, each holding only the next: (their ranges, the innermost body)."""
    ranges: list[tuple[str, int, int]] = []
    while isinstance(s, ast.For):
        counted = ast.counted_for(s)
        if counted is None or not isinstance(s.cond.right, ast.NumberLit):
            return None
        name, first, inclusive = counted
        last = s.cond.right.value + inclusive
        if first != int(first) or last != int(last) or name in {r[0] for r in ranges}:
            return None
        ranges.append((name, int(first), int(last)))
        if len(s.body.body) != 1 or not isinstance(s.body.body[0], ast.For):
            return ranges, s.body.body
        s = s.body.body[0]
    return None


def _counts(stmts: list, listed: str, total: str) -> tuple[ast.VarDecl, ast.Expr] | None:
    """`T s = E; if (C) { total += 1; if (L.length == 0) { L.add(s); } }` (the two inner statements in either
    order): (the declaration, C)."""
    if len(stmts) != 2 or not isinstance(stmts[0], ast.VarDecl) or not isinstance(stmts[1], ast.If):
        return None
    decl, test = stmts
    if test.orelse is not None or len(test.then.body) != 2 or decl.init is None:
        return None
    a, b = test.then.body
    for count, first in ((a, b), (b, a)):
        if not (isinstance(count, ast.ExprStmt) and isinstance(count.expr, ast.Assign) and count.expr.op == "+="
                and _is_name(count.expr.target, total) and isinstance(count.expr.value, ast.NumberLit)
                and count.expr.value.value == 1):
            continue
        if not (isinstance(first, ast.If) and first.orelse is None and len(first.then.body) == 1
                and isinstance(first.cond, ast.Binary) and first.cond.op == "=="
                and isinstance(first.cond.left, ast.Member) and _is_name(first.cond.left.obj, listed)
                and first.cond.left.name == "length" and isinstance(first.cond.right, ast.NumberLit)
                and first.cond.right.value == 0):
            continue
        if _is_name(_stmt_method(first.then.body[0], listed, "add"), decl.name):
            return decl, test.cond
    return None


def _conjuncts(e) -> list:
    if isinstance(e, ast.Binary) and e.op == "&&":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def _renamed(e, old: str, new: str):
    def swap(n):
        return ast.Name(n.span, new) if _is_name(n, old) else None
    return _replace(e, swap)


def _adds_only_counted(walk: list, listed: str, item: str, cond: ast.Expr) -> bool:
    """Does every `L.add(n)` of `walk` stand alone in `if (... && !L.contains(n))` whose conjuncts include C
    with the scan's item `item` read as `n`?"""
    adds = [n for n in ast.walk(walk) if _method(n, listed, "add") is not None]
    guarded = 0
    for n in ast.walk(walk):
        if not (isinstance(n, ast.If) and n.orelse is None and len(n.then.body) == 1):
            continue
        added = _stmt_method(n.then.body[0], listed, "add")
        if not isinstance(added, ast.Name):
            continue
        parts = _conjuncts(n.cond)
        if not (isinstance(parts[-1], ast.Unary) and parts[-1].op == "!"
                and _is_name(_method(parts[-1].operand, listed, "contains"), added.name)):
            return False
        if not any(_same(p, _renamed(cond, item, added.name)) for p in parts[:-1]):
            return False
        guarded += 1
    return len(adds) == guarded == 1


def counted_start(fn: ast.FunctionDef, body: list, distinct: Distinct) -> list | None:
    """`body` (a function's top-level statements) in the right-hand form of the module's docstring, or None."""
    found = _counted(fn, body, distinct)
    return _rewritten(body, *found) if found is not None else None


def counted_condition(fn: ast.FunctionDef, body: list, distinct: Distinct) -> tuple[str, ast.Expr] | None:
    """The scan's item name and its condition C where `counted_start` rewrites `body`: every item the flood
    reaches has C (tgpl.lowering.held_counts bounds the search's depth by how many can)."""
    found = _counted(fn, body, distinct)
    return (found[4].name, found[5]) if found is not None else None


def _counted(fn: ast.FunctionDef, body: list, distinct: Distinct) -> tuple | None:
    """`_rewritten`'s arguments after `body` where `body` has the left-hand form, or None."""
    if not body or not isinstance(body[-1], ast.Return):
        return None
    ret = body[-1].value
    if not (isinstance(ret, ast.Binary) and ret.op == "==" and isinstance(ret.left, ast.Member)
            and ret.left.name == "length" and isinstance(ret.left.obj, ast.Name) and isinstance(ret.right, ast.Name)):
        return None
    listed, total = ret.left.obj.name, ret.right.name
    decls = {s.name: k for k, s in enumerate(body) if isinstance(s, ast.VarDecl)}
    k, t = decls.get(listed), decls.get(total)
    if k is None or t is None:
        return None
    ldecl, tdecl = body[k], body[t]
    if not (ldecl.type.name == "List" and len(ldecl.type.args) == 1 and isinstance(ldecl.init, ast.InitList)
            and not ldecl.init.items and tdecl.type.name == "number" and isinstance(tdecl.init, ast.NumberLit)
            and tdecl.init.value == 0):
        return None
    item_type = ldecl.type.args[0]
    inputs = {d.name for d in fn.inputs}
    assigned = {n.target.name for n in ast.walk(body) if isinstance(n, ast.Assign) and isinstance(n.target, ast.Name)}
    for q in range(max(k, t) + 1, len(body) - 1):
        scan = _scan(body[q])
        if scan is None:
            continue
        ranges, inner = scan
        found = _counts(inner, listed, total)
        if found is None:
            continue
        decl, cond = found
        if decl.type.name != item_type.name or decl.name in {r[0] for r in ranges}:
            return None
        if any(isinstance(n, (ast.Call, ast.Assign)) for n in ast.walk(cond)):
            return None
        if not _names(cond) <= {decl.name} | (inputs - assigned):
            return None
        if (_names(decl.init) - {r[0] for r in ranges}) & (inputs | _locals(body)):
            return None  # E reads the counters, and global objects and functions the evaluator resolves
        walk = body[q + 1:-1]
        if total in _names(body[:k] + body[k + 1:t] + body[t + 1:q] + walk) or listed in _names(body[:q]):
            return None
        if _count_reads(body[q], total) != 1 or _count_reads(body[q], listed) != 2:
            return None
        if not _adds_only_counted(walk, listed, decl.name, cond):
            return None
        if not distinct(ranges, decl.init, item_type.name):
            return None
        return k, t, q, ranges, decl, cond, listed, item_type
    return None


def _locals(body: list) -> set[str]:
    return {n.name for n in ast.walk(body) if isinstance(n, ast.VarDecl)}


def _count_reads(node, name: str) -> int:
    return sum(1 for n in ast.walk(node) if _is_name(n, name))


def _rewritten(body: list, k: int, t: int, q: int, ranges, decl: ast.VarDecl, cond: ast.Expr, listed: str,
               item_type: ast.TypeRef) -> list:
    span = body[q].span
    taken = _names(body) | {n.name for n in ast.walk(body) if isinstance(n, ast.VarDecl)}
    first = _fresh(f"{listed}First", taken)

    def scan_with(then: list) -> ast.For:
        loop = copy.deepcopy(body[q])
        inner = loop
        while len(inner.body.body) == 1 and isinstance(inner.body.body[0], ast.For):
            inner = inner.body.body[0]
        inner.body = ast.Block(inner.body.span, [copy.deepcopy(decl),
                                                 ast.If(span, copy.deepcopy(cond), ast.Block(span, then), None)])
        return loop
    first_name = ast.Name(span, first)
    take = ast.If(span, ast.Binary(span, "==", first_name, ast.NullLit(span)),
                  ast.Block(span, [ast.ExprStmt(span, ast.Assign(span, ast.Name(span, first), "=",
                                                                 ast.Name(span, decl.name)))]), None)
    contains = ast.Call(span, ast.Member(span, ast.Name(span, listed), "contains", span),
                        [ast.Arg(span, None, ast.Name(span, decl.name))])
    check = ast.If(span, ast.Unary(span, "!", contains),
                   ast.Block(span, [ast.Return(span, ast.BoolLit(span, False))]), None)
    ldecl = body[k]
    start = ast.VarDecl(ldecl.span, copy.deepcopy(item_type), first, ldecl.name_span, ast.NullLit(span))
    flood = ast.VarDecl(ldecl.span, copy.deepcopy(ldecl.type), listed, ldecl.name_span,
                        ast.InitList(ldecl.init.span, [ast.Name(span, first)]))
    before = [s for j, s in enumerate(body[:q]) if j not in (k, t)]
    return (before + [start, scan_with([take]), flood] + body[q + 1:-1]
            + [scan_with([check]), ast.Return(body[-1].span, ast.BoolLit(body[-1].span, True))])


def _innermost(loop: ast.For) -> ast.For:
    while len(loop.body.body) == 1 and isinstance(loop.body.body[0], ast.For):
        loop = loop.body.body[0]
    return loop


def merged_scans(body: list) -> list | None:
    """`body` after `floods.py` rewrote the flood of `counted_start`'s form, its two scans made one, or None:

        T F = null;                                             T F = null;
        <SCAN> { T s = E; if (C) { if (F == null) { F = s; } } }        <SCAN> { T s = E; if (C) {
        T X = F;                                        ->          if (F == null) { F = s; }
        <SCAN> { T s = E; if (C) { if (!R(.. X ..)) { return false; } } }     if (!R(.. F ..)) { return false; } } }

    (as Lines of Action's `Linked` is asked, tests/data/designers/loa.tgpl). The same answer: F is set at the
    first item with C and never changes after, and R, which only reads, is true of F and F itself (the search's
    `a == b`), so asking each item as the scan meets it asks the same questions, with the same F, as the second
    scan did. The lowering would otherwise read the second scan's loop in the search's call context, which reads
    the first's, a cycle through the negation."""
    for j in range(len(body) - 3):
        first, a, start, b = body[j:j + 4]
        if not (isinstance(first, ast.VarDecl) and isinstance(first.init, ast.NullLit)
                and isinstance(start, ast.VarDecl) and _is_name(start.init, first.name)
                and isinstance(a, ast.For) and isinstance(b, ast.For)):
            continue
        ia, ib = _innermost(a), _innermost(b)
        if not (len(ia.body.body) == 2 and len(ib.body.body) == 2 and _same(ia.body.body[0], ib.body.body[0])
                and isinstance(ia.body.body[1], ast.If) and isinstance(ib.body.body[1], ast.If)
                and _same(ia.body.body[1].cond, ib.body.body[1].cond) and _same(_outer(a), _outer(b))):
            continue
        take, check = ia.body.body[1].then.body, ib.body.body[1].then.body
        if len(take) != 1 or len(check) != 1 or not isinstance(check[0], ast.If):
            continue
        if start.name in _names(body[:j + 2] + body[j + 4:]) or _count_reads(b, start.name) != 1:
            continue
        merged = copy.deepcopy(a)
        inner = _innermost(merged)
        inner.body.body[1].then.body.append(_renamed(check[0], start.name, first.name))
        return body[:j + 1] + [merged] + body[j + 4:]
    return None


def _outer(loop: ast.For) -> list:
    """The loops' headers, for comparing two scans."""
    out = []
    while isinstance(loop, ast.For):
        out.append((loop.init, loop.cond, loop.post))
        loop = loop.body.body[0] if len(loop.body.body) == 1 else None
    return [x for h in out for x in h]
