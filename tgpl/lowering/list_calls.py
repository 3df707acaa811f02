"""A loop over the list a neighbour function returns, written as that function's own loop (language decision 114).

Atari Go's `Around(p)` makes a list of the up to four points next to `p` and returns it; its callers walk it:

    List<Point> next = Around(p: group[i]);             for (number d1 = 0; d1 < 4; d1 += 1)
    for (number k = 0; k < next.length; k += 1)         {
    {                                            ->         List<number> dx1 = {1, -1, 0, 0}; ...
        Point n = next[k];                                  Point p1 = group[i];
        ...                                                 Point n1 = PointAt(x: p1.X + dx1[d1], ...);
    }                                                       if (n1 != null) { Point n = n1; ... }
                                                        }

The caller's body runs once per item the function would have added, in the order it would have added them, with
the same item, so the two are the same walk; but a list made and returned is a value the lowering cannot keep in a
relation with variables, and the flood's recursion (`floods.py`) could not read its neighbours through it. Only a
function of exactly that form is inlined: its inputs, one empty list `out`, lists of number literals, one counted
loop of fixed bounds whose body declares the item and adds it under a condition, `return out;`, writing nothing
else. The call's arguments are read once per pass, so the caller's walk must write nothing (it may return), and
must read the list only as `next[k]` and the counter nowhere else; `next` is read nowhere after the walk.
Anything else is left as written.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from tgpl.frontend import ast
from tgpl.lowering.flood_shapes import _fresh, _is_name, _replace, _stmt_method, given_inputs


@dataclass
class ListFunction:
    """A function that returns the items one fixed loop adds to a fresh list: its parts, as written."""

    fn: ast.FunctionDef
    tables: list  # `List<number> dx = {1, -1, 0, 0};` before the loop
    loop: ast.For
    item: ast.VarDecl  # `T m = E;`, the loop body's first statement
    test: ast.Expr  # the condition of `if (test) { out.add(m); }`


def list_function(fn: ast.FunctionDef) -> ListFunction | None:
    """`fn` as a `ListFunction`, or None where it is not exactly of that form."""
    body = fn.effect.body.body if fn.effect is not None else []
    if len(body) < 3 or not isinstance(body[-1], ast.Return) or not isinstance(body[-1].value, ast.Name):
        return None
    out = body[-1].value.name
    first, loop = body[0], body[-2]
    if not (isinstance(first, ast.VarDecl) and first.name == out and first.type.name == "List"
            and isinstance(first.init, ast.InitList) and not first.init.items):
        return None
    tables = body[1:-2]
    for s in tables:
        if not (isinstance(s, ast.VarDecl) and s.type.name == "List" and isinstance(s.init, ast.InitList)
                and all(_literal(x) for x in s.init.items)):
            return None
    if not (isinstance(loop, ast.For) and isinstance(loop.init, ast.VarDecl) and isinstance(loop.init.init,
                                                                                             ast.NumberLit)):
        return None
    cond, post = loop.cond, loop.post
    if not (isinstance(cond, ast.Binary) and cond.op == "<" and _is_name(cond.left, loop.init.name)
            and isinstance(cond.right, ast.NumberLit) and isinstance(post, ast.Assign) and post.op == "+="
            and _is_name(post.target, loop.init.name) and isinstance(post.value, ast.NumberLit)
            and post.value.value == 1):
        return None
    inner = loop.body.body
    if len(inner) != 2 or not isinstance(inner[0], ast.VarDecl) or inner[0].init is None:
        return None
    item, add = inner
    if not (isinstance(add, ast.If) and add.orelse is None and len(add.then.body) == 1
            and _is_name(_stmt_method(add.then.body[0], out, "add"), item.name)):
        return None
    names = {t.name for t in tables} | {item.name, loop.init.name, out}
    written = {n.target.name for n in ast.walk(body) if isinstance(n, ast.Assign) and isinstance(n.target, ast.Name)}
    if written - {loop.init.name} or names & {d.name for d in fn.inputs}:
        return None
    if any(isinstance(n, (ast.Winner, ast.Return, ast.Break, ast.Continue)) for n in ast.walk(loop)):
        return None
    if any(_is_name(n, out) for n in ast.walk([item.init, add.cond])):
        return None
    if any(isinstance(n, ast.Call) and isinstance(n.callee, ast.Member) and isinstance(n.callee.obj, ast.Name)
           and n.callee.obj.name != out for n in ast.walk(loop)):
        return None  # a method of another list or of an object (its writes are not assignments)
    return ListFunction(fn, tables, loop, item, add.cond)


def _appends(s, local: set[str]) -> bool:
    """`L.add(x);` to a local list `L`: it changes no item the list had, so an argument `L[i]` read again in a
    later pass is the same item (a flood's walk adds to its list while it reads `group[i]`)."""
    return (isinstance(s, ast.ExprStmt) and isinstance(s.expr, ast.Call) and isinstance(s.expr.callee, ast.Member)
            and isinstance(s.expr.callee.obj, ast.Name) and s.expr.callee.obj.name in local
            and s.expr.callee.name == "add")


def _literal(e) -> bool:
    return isinstance(e, ast.NumberLit) or (isinstance(e, ast.Unary) and e.op == "-"
                                            and isinstance(e.operand, ast.NumberLit))


def inline_list_walks(members: list, only) -> int:
    """Inlines, in the functions of `members`, each walk over a `ListFunction` of the same owner called by its
    bare name (see the module's docstring); `only(node, own)` says a statement writes nothing but the locals
    `own` (floods.py's `_Reads.only`). The number of walks inlined."""
    functions = {m.name: m for m in members if isinstance(m, ast.FunctionDef)}
    lists = {name: lf for name, fn in functions.items() if (lf := list_function(fn)) is not None}
    done = 0
    if not lists:
        return done
    for fn in functions.values():
        if fn.effect is None or fn.name in lists:
            continue
        blocks = [fn.effect.body] + [n for n in ast.walk(fn.effect.body) if isinstance(n, ast.Block)
                                     and n is not fn.effect.body]
        for block in blocks:
            k = 0
            while k < len(block.body) - 1:
                made = _inlined(block.body, k, lists, fn, only)
                if made is not None:
                    block.body[k:k + 2] = [made]
                    done += 1
                k += 1
    return done


def _inlined(body: list, k: int, lists: dict, caller: ast.FunctionDef, only) -> ast.For | None:
    decl, walk = body[k], body[k + 1]
    if not (isinstance(decl, ast.VarDecl) and isinstance(decl.init, ast.Call)
            and isinstance(decl.init.callee, ast.Name) and decl.init.callee.name in lists):
        return None
    lf: ListFunction = lists[decl.init.callee.name]
    listed = decl.name
    if not (isinstance(walk, ast.For) and isinstance(walk.init, ast.VarDecl) and isinstance(walk.init.init,
                                                                                            ast.NumberLit)
            and walk.init.init.value == 0 and isinstance(walk.cond, ast.Binary) and walk.cond.op == "<"
            and _is_name(walk.cond.left, walk.init.name) and isinstance(walk.cond.right, ast.Member)
            and _is_name(walk.cond.right.obj, listed) and walk.cond.right.name == "length"
            and isinstance(walk.post, ast.Assign) and walk.post.op == "+=" and _is_name(walk.post.target,
                                                                                        walk.init.name)
            and isinstance(walk.post.value, ast.NumberLit) and walk.post.value.value == 1):
        return None
    counter = walk.init.name
    if any(_is_name(n, listed) for n in ast.walk(body[k + 2:])):
        return None
    # the walk reads the list only as `listed[counter]`, and the counter only there
    marked = _replace(walk.body, lambda n: ast.NullLit(n.span) if isinstance(n, ast.Index)
                      and _is_name(n.obj, listed) and _is_name(n.index, counter) else None)
    if any(isinstance(n, ast.Name) and n.name in (listed, counter) for n in ast.walk(marked)):
        return None
    own = {n.name for n in ast.walk(walk.body) if isinstance(n, ast.VarDecl)}
    local = {d.name for d in caller.inputs} | {n.name for n in ast.walk([caller.effect.body])
                                                if isinstance(n, ast.VarDecl)}
    if not only(_replace(walk.body, lambda n: ast.Block(n.span, []) if _appends(n, local) else None), own):
        return None
    inputs = lf.fn.inputs
    given = given_inputs(inputs, decl.init)
    if given is None:
        return None
    # the arguments read again each pass: only locals and reads of them that the walk does not change
    if any(not isinstance(n, (ast.Name, ast.Member, ast.Index, ast.NumberLit)) for a in given.values()
           for n in ast.walk(a)):
        return None
    used = {n.name for n in ast.walk([caller.effect.body]) if isinstance(n, (ast.Name, ast.VarDecl))}
    used |= {d.name for d in caller.inputs}
    renamed: dict[str, str] = {}
    for name in [d.name for d in inputs] + [t.name for t in lf.tables] + [lf.item.name, lf.loop.init.name]:
        renamed[name] = _fresh(f"{lf.fn.name[:1].lower()}{lf.fn.name[1:]}{name[:1].upper()}{name[1:]}", used)

    def swap(n):
        if isinstance(n, ast.Name) and n.name in renamed:
            return ast.Name(n.span, renamed[n.name])
        if isinstance(n, ast.VarDecl) and n.name in renamed:
            return ast.VarDecl(n.span, copy.deepcopy(n.type), renamed[n.name], n.name_span, _replace(n.init, swap))
        return None
    span = walk.span
    item = ast.Name(span, renamed[lf.item.name])
    first = walk.body.body[0] if walk.body.body else None
    if (isinstance(first, ast.VarDecl) and isinstance(first.init, ast.Index) and _is_name(first.init.obj, listed)
            and _is_name(first.init.index, counter)):
        rest = [ast.VarDecl(first.span, copy.deepcopy(first.type), first.name, first.name_span, item)]
        rest += walk.body.body[1:]
    else:
        rest = walk.body.body
    rest = _replace(rest, lambda n: copy.deepcopy(item) if isinstance(n, ast.Index) and _is_name(n.obj, listed)
                    and _is_name(n.index, counter) else None)
    args = [ast.VarDecl(span, copy.deepcopy(d.type), renamed[d.name], d.name_span, copy.deepcopy(given[d.name]))
            for d in inputs]
    tables, made = _respan(_replace(lf.tables, swap), span), _respan(_replace(lf.item, swap), span)
    pass_body = (args + tables + [made]
                 + [ast.If(span, _respan(_replace(lf.test, swap), span), ast.Block(span, rest), None)])
    loop = _respan(_replace(lf.loop, swap), span)
    return ast.For(span, loop.init, loop.cond, loop.post, ast.Block(span, pass_body))


def _respan(node, span):
    """`node` (a copy of the list function's code) with every span the caller's walk: a refusal in the inlined
    code then names the walk the designer wrote in the caller, not a line of the function that was called."""
    for n in ast.walk(node):
        if isinstance(n, ast.Node):
            n.span = span
            if hasattr(n, "name_span"):
                n.name_span = span
    return node
