"""Other ways of writing a flood, brought to the worklist form `floods.py` rewrites (language decision 114).

A depth-first walk with a stack that only feeds the visited list (the game of Y's `Spans`):

    List<T> seen = {};              List<T> todo = {};
    seen.add(s0);                   todo.add(s0);
    bool l = false; ...
    while (todo.length > 0)
    {
        T c = todo[todo.length - 1];            // or todo[0]: the order of the visit does not change what is seen
        todo.removeAt(todo.length - 1);
        if (Q(c)) { l = true; }                 // a flag: "some item seen has Q"
        ... if (C && !seen.contains(n)) { seen.add(n); todo.add(n); } ...
    }

is, item for item, the worklist form: every item is pushed once (when it is first seen) and popped once, so the
walk visits exactly the items of `seen`, which are those reachable from `s0`. It is written as

    bool l = false; ...
    List<T> seen = {s0};
    for (number k = 0; k < seen.length; k += 1)
    {
        T c = seen[k];
        ... if (C && !seen.contains(n)) { seen.add(n); } ...
    }
    for (number j = 0; j < seen.length; j += 1) { if (Q(seen[j])) { l = true; } }   // each flag: a search

and `floods.py` makes each search a recursive function. A flag is hoisted out of the walk only where its test reads
nothing but the item and locals that never change, and the flag is written nowhere else; the stack is read
nowhere but in the pop. Anything else is left as written (and meets the lowering's refusal as before).
"""

from __future__ import annotations

import copy

from tgpl.frontend import ast


def _is_name(e, name: str) -> bool:
    return isinstance(e, ast.Name) and e.name == name


def _method(e, obj: str, method: str) -> ast.Expr | None:
    """The single argument of `obj.method(x)`, else None."""
    if (isinstance(e, ast.Call) and isinstance(e.callee, ast.Member) and _is_name(e.callee.obj, obj)
            and e.callee.name == method and len(e.args) == 1 and e.args[0].name is None):
        return e.args[0].value
    return None


def _stmt_method(s, obj: str, method: str) -> ast.Expr | None:
    """The argument of the statement `obj.method(x);`, else None."""
    return _method(s.expr, obj, method) if isinstance(s, ast.ExprStmt) else None


def _empty_list(s) -> tuple[str, ast.TypeRef] | None:
    """`List<T> name = {};`: (name, T)."""
    if (isinstance(s, ast.VarDecl) and s.type.name == "List" and len(s.type.args) == 1
            and isinstance(s.init, ast.InitList) and not s.init.items):
        return s.name, s.type.args[0]
    return None


def _length(e, name: str) -> bool:
    return isinstance(e, ast.Member) and _is_name(e.obj, name) and e.name == "length"


def walks_list(s, name: str) -> str | None:
    """`for (number i = 0; i < name.length; i += 1)`: the counter's name (a walk of list `name` item by item)."""
    if not isinstance(s, ast.For):
        return None
    counted = ast.counted_for(s)
    if counted is None or counted[1] != 0 or counted[2] != 0:
        return None
    right = s.cond.right
    if not (isinstance(right, ast.Member) and _is_name(right.obj, name) and right.name == "length"):
        return None
    return counted[0]


def _top(e, name: str) -> bool:
    """`name[name.length - 1]`'s index or `name[0]`'s: the end a stack or a queue is taken from."""
    if isinstance(e, ast.NumberLit):
        return e.value == 0
    return (isinstance(e, ast.Binary) and e.op == "-" and _length(e.left, name)
            and isinstance(e.right, ast.NumberLit) and e.right.value == 1)


def _same(a, b) -> bool:
    """Are two expressions the same text (spans aside)?"""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if not isinstance(a, ast.Node):
        return a == b
    return all(_same(getattr(a, f), getattr(b, f)) for f in a.__dataclass_fields__ if f not in ("span", "name_span"))


def _pop(body: list, todo: str) -> tuple[ast.VarDecl, list] | None:
    """`T c = todo[e]; todo.removeAt(e);` opening a loop body, `e` an end of the stack: (the declaration, the rest)."""
    if len(body) < 2:
        return None
    first, second = body[0], body[1]
    if not (isinstance(first, ast.VarDecl) and isinstance(first.init, ast.Index) and _is_name(first.init.obj, todo)
            and _top(first.init.index, todo)):
        return None
    removed = _stmt_method(second, todo, "removeAt")
    if removed is None or not _same(removed, first.init.index):
        return None
    return first, body[2:]


def _push_if(s, seen: str, todo: str) -> ast.If | None:
    """`if (... !seen.contains(n)) { seen.add(n); todo.add(n); }` (the adds in either order) made
    `if (... !seen.contains(n)) { seen.add(n); }`, else None."""
    if not (isinstance(s, ast.If) and s.orelse is None and len(s.then.body) == 2):
        return None
    a, b = s.then.body
    for x, y in ((a, b), (b, a)):
        added, pushed = _stmt_method(x, seen, "add"), _stmt_method(y, todo, "add")
        if isinstance(added, ast.Name) and _is_name(pushed, added.name):
            return ast.If(s.span, s.cond, ast.Block(s.then.span, [x]), None)
    return None


def _flag(s) -> tuple[ast.Expr, str, bool] | None:
    """`if (Q) { v = true; }` (or false): (Q, v, the value)."""
    if not (isinstance(s, ast.If) and s.orelse is None and len(s.then.body) == 1
            and isinstance(s.then.body[0], ast.ExprStmt)):
        return None
    a = s.then.body[0].expr
    if (isinstance(a, ast.Assign) and a.op == "=" and isinstance(a.target, ast.Name)
            and isinstance(a.value, ast.BoolLit)):
        return s.cond, a.target.name, a.value.value
    return None


def _replace(node, swap):
    """`node` with every subtree for which `swap` answers a node replaced by that answer (a deep copy)."""
    done = swap(node)
    if done is not None:
        return done
    if isinstance(node, list):
        return [_replace(x, swap) for x in node]
    if not isinstance(node, ast.Node):
        return node
    out = copy.copy(node)
    for name in node.__dataclass_fields__:
        if name != "span":
            setattr(out, name, _replace(getattr(node, name), swap))
    return out


def _fresh(base: str, taken: set[str]) -> str:
    k = 1
    while f"{base}{k}" in taken:
        k += 1
    taken.add(f"{base}{k}")
    return f"{base}{k}"


def _counted(span, counter: str, name: str, body: list) -> ast.For:
    """`for (number counter = 0; counter < name.length; counter += 1) { body }`."""
    init = ast.VarDecl(span, ast.TypeRef(span, "number"), counter, span, ast.NumberLit(span, 0.0))
    cond = ast.Binary(span, "<", ast.Name(span, counter), ast.Member(span, ast.Name(span, name), "length", span))
    post = ast.Assign(span, ast.Name(span, counter), "+=", ast.NumberLit(span, 1.0))
    return ast.For(span, init, cond, post, ast.Block(span, body))


def given_inputs(inputs: list, call: ast.Call) -> dict[str, ast.Expr] | None:
    """Each input of a function (its `inputs`) and the expression `call` passes it, named or by position; None
    where the call names one twice, passes one the function lacks or leaves one out."""
    given: dict[str, ast.Expr] = {}
    for k, arg in enumerate(call.args):
        name = arg.name if arg.name is not None else (inputs[k].name if k < len(inputs) else None)
        if name is None or name in given:
            return None
        given[name] = arg.value
    return given if set(given) == {d.name for d in inputs} else None


def _names(node) -> set[str]:
    return {n.name for n in ast.walk(node) if isinstance(n, ast.Name)}


def stack_walk(fn: ast.FunctionDef, body: list) -> list | None:
    """`body` (a function's top-level statements) with its first stack walk written as a worklist flood, or None
    where there is none of the module's shape."""
    inputs = {d.name for d in fn.inputs}
    assigned = {n.target.name for n in ast.walk(body) if isinstance(n, ast.Assign) and isinstance(n.target, ast.Name)}
    declared_at = {}
    for k, s in enumerate(body):
        if isinstance(s, ast.VarDecl):
            declared_at.setdefault(s.name, k)
    for w, loop in enumerate(body):
        if not (isinstance(loop, ast.While) and isinstance(loop.cond, ast.Binary) and loop.cond.op == ">"
                and isinstance(loop.cond.right, ast.NumberLit) and loop.cond.right.value == 0
                and isinstance(loop.cond.left, ast.Member) and loop.cond.left.name == "length"
                and isinstance(loop.cond.left.obj, ast.Name)):
            continue
        todo = loop.cond.left.obj.name
        found = _stack(fn, body, w, todo, inputs, assigned, declared_at)
        if found is not None:
            return found
    return None


def _stack(fn, body: list, w: int, todo: str, inputs: set[str], assigned: set[str], declared_at: dict) -> list | None:
    loop = body[w]
    popped = _pop(loop.body.body, todo)
    if popped is None:
        return None
    item, rest = popped
    pushes = [s for s in ast.walk(rest) if isinstance(s, ast.If) and any(
        _push_if(s, name, todo) is not None for name in _names(s))]
    if len(pushes) != 1:
        return None
    seen = next(name for name in _names(pushes[0]) if _push_if(pushes[0], name, todo) is not None)
    if seen == todo or item.name in (seen, todo):
        return None
    # the two lists declared empty before the loop, each given the same start once, and nothing else before it
    decls = {name: k for k, s in enumerate(body[:w]) if (d := _empty_list(s)) is not None and d[0] in (seen, todo)
             for name in [d[0]]}
    if set(decls) != {seen, todo} or not _same(body[decls[seen]].type, body[decls[todo]].type):
        return None
    starts = {}
    for k, s in enumerate(body[:w]):
        for name in (seen, todo):
            if _stmt_method(s, name, "add") is not None:
                starts.setdefault(name, []).append(k)
    if sorted(starts) != [seen, todo] or any(len(v) != 1 for v in starts.values()):
        return None
    s0 = _stmt_method(body[starts[seen][0]], seen, "add")
    if not isinstance(s0, ast.Name) or not _same(s0, _stmt_method(body[starts[todo][0]], todo, "add")):
        return None
    if s0.name in assigned or not (s0.name in inputs or declared_at.get(s0.name, w) < decls[seen]):
        return None
    special = {decls[seen], decls[todo], starts[seen][0], starts[todo][0]}
    if any(name in _names(s) for k, s in enumerate(body[:w]) if k not in special for name in (seen, todo)):
        return None
    others = {d.name for d in ast.walk(body) if isinstance(d, ast.VarDecl)
              and d is not body[decls[seen]] and d is not body[decls[todo]]}
    if todo in _names(body[w + 1:]) or {seen, todo} & others:
        return None
    # the walk's body: the lists read only in the push; the flags hoisted
    kept: list = []
    flags: list[tuple[ast.Expr, str, bool, ast.If]] = []
    inner_declared = {d.name for d in ast.walk(rest) if isinstance(d, ast.VarDecl)}
    for s in rest:
        f = _flag(s)
        if f is not None and _hoistable(f, item.name, body, w, inputs, assigned, declared_at, inner_declared, rest, s):
            flags.append((*f, s))
        else:
            kept.append(s)
    swapped = _replace(kept, lambda n: _push_if(n, seen, todo) if n is pushes[0] else None)
    if {seen, todo} & _names(_replace(swapped, lambda n: ast.Block(n.span, []) if isinstance(n, ast.If)
                                      and _push_if_seen(n, seen) else None)):
        return None
    used = _names(body) | {d.name for d in ast.walk(body) if isinstance(d, ast.VarDecl)} | inputs
    span = loop.span
    counter = _fresh(f"{seen}Index", used)
    walk = _counted(span, counter, seen, [ast.VarDecl(item.span, copy.deepcopy(item.type), item.name, item.name_span,
                                                      ast.Index(item.span, ast.Name(span, seen),
                                                                ast.Name(span, counter)))] + swapped)
    searches = []
    for q, v, value, s in flags:
        j = _fresh(f"{seen}Index", used)
        test = _replace(q, lambda n: ast.Index(n.span, ast.Name(n.span, seen), ast.Name(n.span, j))
                        if _is_name(n, item.name) else None)
        searches.append(_counted(s.span, j, seen, [ast.If(s.span, test, copy.deepcopy(s.then), None)]))
    decl = body[decls[seen]]
    start = ast.VarDecl(decl.span, copy.deepcopy(decl.type), seen, decl.name_span, ast.InitList(decl.span, [s0]))
    before = [s for k, s in enumerate(body[:w]) if k not in special]
    return before + [start, walk] + searches + body[w + 1:]


def _push_if_seen(n, seen: str) -> bool:
    """`if (... !seen.contains(n)) { seen.add(n); }`: the push once the stack's add is gone."""
    if not (isinstance(n, ast.If) and n.orelse is None and len(n.then.body) == 1):
        return False
    added = _stmt_method(n.then.body[0], seen, "add")
    if not isinstance(added, ast.Name):
        return False
    cond = n.cond.right if isinstance(n.cond, ast.Binary) and n.cond.op == "&&" else n.cond
    return (isinstance(cond, ast.Unary) and cond.op == "!" and _is_name(_method(cond.operand, seen, "contains"),
                                                                          added.name)
            and not ({seen} & _names(n.cond.left if isinstance(n.cond, ast.Binary) and n.cond.op == "&&" else [])))


def _hoistable(flag, item: str, body: list, w: int, inputs: set[str], assigned: set[str], declared_at: dict,
               inner_declared: set[str], rest: list, stmt) -> bool:
    """May `if (Q(item)) { v = b; }` leave the walk for a search after it? Q reads the item and locals that never
    change (declared before the loop), calls nothing, and `v` is a local declared before the loop with the other
    value, written and read nowhere else in the walk. (Lists are left out of Q's locals: they change by their methods,
    which no assignment shows.)"""
    q, v, value = flag
    if any(isinstance(n, (ast.Call, ast.Assign)) for n in ast.walk(q)):
        return False
    for name in _names(q):
        if name == item:
            continue
        if name in inner_declared or name in assigned or not (name in inputs or declared_at.get(name, w) < w):
            return False
        typed = [d.type for d in ast.walk(body) if isinstance(d, ast.VarDecl) and d.name == name]
        if any(t.name == "List" or t.args for t in typed):  # a list may change by its methods (the stack does)
            return False
    if item in assigned or sum(isinstance(n, ast.Assign) and _is_name(n.target, v) for n in ast.walk(body)) != 1:
        return False
    k = declared_at.get(v)
    if k is None or k >= w or not (isinstance(body[k].init, ast.BoolLit) and body[k].init.value != value):
        return False
    others = [s for s in rest if s is not stmt]
    return v not in _names(others)


def while_walk(fn: ast.FunctionDef, body: list) -> list | None:
    """`body` with its first walk of a list by a `while` and a counter of its own written as the `for` it is:

        number i = 0;                           for (number i = 0; i < L.length; i += 1)
        while (i < L.length)            ->      {
        {                                           ...
            ...                                 }
            i += 1;
        }

    where `i` is written only by that last statement, read nowhere outside the loop, and the loop has no
    `continue` (which would skip the step) or `break`. None where there is no such loop."""
    for w, loop in enumerate(body):
        if not (isinstance(loop, ast.While) and isinstance(loop.cond, ast.Binary) and loop.cond.op == "<"
                and isinstance(loop.cond.left, ast.Name) and isinstance(loop.cond.right, ast.Member)
                and loop.cond.right.name == "length" and isinstance(loop.cond.right.obj, ast.Name)
                and loop.body.body):
            continue
        i, listed = loop.cond.left.name, loop.cond.right.obj.name
        last = loop.body.body[-1]
        if not (isinstance(last, ast.ExprStmt) and isinstance(last.expr, ast.Assign) and _is_name(last.expr.target, i)
                and last.expr.op == "+=" and isinstance(last.expr.value, ast.NumberLit)
                and last.expr.value.value == 1):
            continue
        decls = [k for k, s in enumerate(body[:w]) if isinstance(s, ast.VarDecl) and s.name == i]
        if len(decls) != 1 or not (isinstance(body[decls[0]].init, ast.NumberLit) and body[decls[0]].init.value == 0
                                   and body[decls[0]].type.name == "number"):
            continue
        d = decls[0]
        writes = [n for n in ast.walk(body) if isinstance(n, ast.Assign) and _is_name(n.target, i)]
        if len(writes) != 1 or any(isinstance(n, (ast.Continue, ast.Break)) for n in ast.walk(loop.body)):
            continue
        if i in _names(body[d + 1:w]) | _names(body[w + 1:]) or i == listed:
            continue
        if any(isinstance(n, ast.VarDecl) and n.name == i for n in ast.walk(loop.body)):
            continue
        span = loop.span
        walk = _counted(span, i, listed, copy.deepcopy(loop.body.body[:-1]))
        return body[:d] + body[d + 1:w] + [walk] + body[w + 1:]
    return None


def pure_block(block, own: set[str], returns: bool) -> bool:
    """No write but to locals declared in `block` (`own`), no call as a statement, no break, continue or winner;
    returns only where `returns` (and then only of a bool literal)."""
    for n in ast.walk(block):
        if isinstance(n, (ast.Break, ast.Continue, ast.Winner, ast.InputDecl)):
            return False
        if isinstance(n, ast.Return) and not (returns and isinstance(n.value, ast.BoolLit)):
            return False
        if isinstance(n, ast.Assign) and not (isinstance(n.target, ast.Name) and n.target.name in own):
            return False
        if isinstance(n, ast.ExprStmt) and not isinstance(n.expr, ast.Assign):
            return False
    return True
