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

A walk over such a function called through an object, `goban.Around(p: at)` in Atari Go's action `Place`, is
inlined alike (`inline_object_walks`) where the object's class is known from one declaration (a local, an input,
a global class's attribute): the function's bare names of its class's members are read through the object. That
walk removes the captured stones, so it may write, but only names no pass reads (`Stone`, where a pass reads `X`,
`Y`, the board and the arguments): the passes then make the items the list would have had, the object included.
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


def inline_list_walks(members: list, only, functions: dict | None = None) -> int:
    """Inlines, in the functions of `members`, each walk over a `ListFunction` of the same owner called by its
    bare name (see the module's docstring); `only(node, own)` says a statement writes nothing but the locals
    `own` (floods.py's `_Reads.only`); `functions` (each function's name: its definitions) lets a walk write what
    no pass of the list function reads (None: the walk writes nothing). The number of walks inlined."""
    named = {m.name: m for m in members if isinstance(m, ast.FunctionDef)}
    lists = {name: lf for name, fn in named.items() if (lf := list_function(fn)) is not None}
    if not lists:
        return 0

    def resolve(call: ast.Call, caller) -> _Target | None:
        if isinstance(call.callee, ast.Name) and call.callee.name in lists:
            return _Target(lists[call.callee.name], None, frozenset())
        return None
    callers = [fn for fn in named.values() if fn.name not in lists]
    return _inline_in(callers, resolve, only, functions)


def inline_object_walks(module: ast.Module, only, functions: dict) -> int:
    """Inlines each walk over a `ListFunction` of a class called through an object, `goban.Around(p: at)` or
    `Go.Goban.Around(p: at)`, in the functions and actions of every owner: the object is a local or input the
    caller declares once with that class's type, or a global class's attribute of that type; the function's
    bare names of its owner's members are read through the object (`PointAt(...)` becomes `goban.PointAt(...)`),
    and a walk that writes the object's names is left alone (each pass reads the object again). The number of
    walks inlined."""
    classes = {c.name: c for c in module.items if isinstance(c, ast.ClassDef)}
    lists: dict[tuple[str, str], _Target] = {}
    for c in classes.values():
        if c.base is not None:
            continue  # an inherited member read by a bare name would not be found below
        owned = frozenset(getattr(m, "name", None) for m in c.members) - {None}
        for m in c.members:
            if isinstance(m, ast.FunctionDef) and (lf := list_function(m)) is not None and _closed(lf, owned, classes):
                lists[(c.name, m.name)] = _Target(lf, None, owned)
    if not lists:
        return 0

    def resolve(call: ast.Call, caller) -> _Target | None:
        callee = call.callee
        if not isinstance(callee, ast.Member):
            return None
        kind = _class_of(callee.obj, caller, classes)
        target = lists.get((kind, callee.name)) if kind is not None else None
        return _Target(target.lf, callee.obj, target.owned) if target is not None else None
    callers = [m for c in [module.items] + [c.members for c in classes.values()] for m in c
               if isinstance(m, (ast.FunctionDef, ast.ActionDef))]
    return _inline_in(callers, resolve, only, functions)


@dataclass
class _Target:
    """The list function a call names, the object it is called through (None: its bare name) and the names of
    that object's class members (read through the object once inlined)."""

    lf: ListFunction
    obj: ast.Expr | None
    owned: frozenset


def _closed(lf: ListFunction, owned: frozenset, classes: dict) -> bool:
    """Does every bare name of `lf` name its own inputs and locals, a member of its class or a class? Then it
    means the same thing read through an object from another owner."""
    own = {d.name for d in lf.fn.inputs} | {n.name for n in ast.walk(lf.fn.effect.body) if isinstance(n, ast.VarDecl)}
    return not any(isinstance(n, ast.Base) for n in ast.walk(lf.fn.effect.body)) and all(
        n.name in own or n.name in owned or n.name in classes
        for n in ast.walk(lf.fn.effect.body) if isinstance(n, ast.Name))


def _class_of(obj: ast.Expr, caller, classes: dict) -> str | None:
    """The class of `obj`: a local or input `caller` declares exactly once (with a class's type), or an attribute
    of a global class (`Go.Goban`); None otherwise."""
    if isinstance(obj, ast.Name):
        declared = [n for n in ast.walk(caller.effect.body) if isinstance(n, ast.VarDecl)]
        decls = [d for d in list(caller.inputs) + declared if d.name == obj.name]
        if len(decls) != 1 or decls[0].type is None or decls[0].type.name not in classes:
            return None
        return decls[0].type.name if not getattr(decls[0].type, "args", None) else None
    if isinstance(obj, ast.Member) and isinstance(obj.obj, ast.Name) and obj.obj.name in classes:
        holder = classes[obj.obj.name]
        if holder.visibility != "global":
            return None
        attrs = [m for m in holder.members if isinstance(m, ast.Attribute) and m.name == obj.name]
        if len(attrs) == 1 and attrs[0].type is not None and attrs[0].type.name in classes:
            return attrs[0].type.name
    return None


def _inline_in(callers: list, resolve, only, functions: dict | None) -> int:
    done = 0
    for fn in callers:
        if fn.effect is None:
            continue
        blocks = [fn.effect.body] + [n for n in ast.walk(fn.effect.body) if isinstance(n, ast.Block)
                                     and n is not fn.effect.body]
        for block in blocks:
            k = 0
            while k < len(block.body) - 1:
                made = _inlined(block.body, k, resolve, fn, only, functions)
                if made is not None:
                    block.body[k:k + 2] = [made]
                    done += 1
                k += 1
    return done


def _inlined(body: list, k: int, resolve, caller, only, functions: dict | None) -> ast.For | None:
    decl, walk = body[k], body[k + 1]
    if not (isinstance(decl, ast.VarDecl) and isinstance(decl.init, ast.Call)):
        return None
    target = resolve(decl.init, caller)
    if target is None:
        return None
    lf: ListFunction = target.lf
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
    stripped = _replace(walk.body, lambda n: ast.Block(n.span, []) if _appends(n, local) else None)
    if functions is None:
        if not only(stripped, own):
            return None
    else:
        read = _read_names([decl.init, lf.tables, lf.item.init, lf.test, lf.loop.cond, lf.loop.post], functions)
        if not _writes_apart(stripped, read, only, own):
            return None
    inputs = lf.fn.inputs
    given = given_inputs(inputs, decl.init)
    if given is None:
        return None
    # the arguments read again each pass: only locals and reads of them that the walk does not change
    if any(not isinstance(n, (ast.Name, ast.Member, ast.Index, ast.NumberLit)) for a in given.values()
           for n in ast.walk(a)):
        return None
    # a list the walk adds to keeps its items, not its length: an argument reads it only as `L[i]`
    grown = {n.expr.callee.obj.name for n in ast.walk(walk.body) if _appends(n, local)}

    def item_of(n):
        if isinstance(n, ast.Index) and isinstance(n.obj, ast.Name) and n.obj.name in grown:
            return _replace(n.index, item_of)
        return None
    items = _replace(list(given.values()), item_of)
    if any(isinstance(n, ast.Name) and n.name in grown for n in ast.walk(items)):
        return None
    used = {n.name for n in ast.walk([caller.effect.body]) if isinstance(n, (ast.Name, ast.VarDecl))}
    used |= {d.name for d in caller.inputs}
    renamed: dict[str, str] = {}
    for name in [d.name for d in inputs] + [t.name for t in lf.tables] + [lf.item.name, lf.loop.init.name]:
        renamed[name] = _fresh(f"{lf.fn.name[:1].lower()}{lf.fn.name[1:]}{name[:1].upper()}{name[1:]}", used)

    def swap(n):
        if isinstance(n, ast.Name) and n.name in renamed:
            return ast.Name(n.span, renamed[n.name])
        if target.obj is not None and isinstance(n, ast.Name) and n.name in target.owned:
            return ast.Member(n.span, copy.deepcopy(target.obj), n.name, n.span)  # `PointAt` as `goban.PointAt`
        if target.obj is not None and isinstance(n, ast.This):
            return copy.deepcopy(target.obj)
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


def _read_names(nodes, functions: dict) -> set[str]:
    """Every name read by `nodes` (a pass of the list function and the call's arguments and object), bare or as a
    member (`p.X`: `p`, `X`), and by the bodies of the functions they call, by name, to any depth: a write in the
    walk to none of them changes nothing a later pass computes."""
    read: set[str] = set()
    seen: set[int] = set()
    todo = [nodes]
    while todo:
        node = todo.pop()
        for n in ast.walk(node):
            if isinstance(n, ast.Name):
                read.add(n.name)
            elif isinstance(n, ast.Member):
                read.add(n.name)
            if isinstance(n, ast.Call) and isinstance(n.callee, (ast.Name, ast.Member)):
                for f in functions.get(n.callee.name, []):
                    if id(f) not in seen:
                        seen.add(id(f))
                        todo.append(f.items)
    return read


def _written(target) -> str | None:
    """The name an assignment to `target` writes: `x`, `a.f` (`f`), `a[i].f` (`f`), `L[i]` (`L`)."""
    while isinstance(target, ast.Index):
        target = target.obj
    return target.name if isinstance(target, (ast.Name, ast.Member)) else None


def _writes_apart(walk, read: set[str], only, own: set[str]) -> bool:
    """Does the walk write only names no pass reads (`dead[i].Stone = null` where a pass reads `X`, `Y` and the
    board), and call only calls that write nothing? Its passes then compute the items the list would have had."""
    writes = [n for n in ast.walk(walk) if isinstance(n, ast.Assign)]
    if any(_written(n.target) is None or _written(n.target) in read for n in writes):
        return False

    def unwritten(n):
        if isinstance(n, ast.Assign):  # its parts still read (and their calls checked), the write itself allowed
            return ast.Binary(n.span, "+", _replace(n.target, unwritten), _replace(n.value, unwritten))
        return None
    return only(_replace(walk, unwritten), own)


def _respan(node, span):
    """`node` (a copy of the list function's code) with every span the caller's walk: a refusal in the inlined
    code then names the walk the designer wrote in the caller, not a line of the function that was called."""
    for n in ast.walk(node):
        if isinstance(n, ast.Node):
            n.span = span
            if hasattr(n, "name_span"):
                n.name_span = span
    return node
