"""A flood's group whose items are all set to one value, written as a scan of the board (language decision 116).

Atari Go's `Place` removes a captured group:

    List<Point> dead = goban.GroupOf(start: n, played: at, who: player);
    for (number i = 0; i < dead.length; i += 1) { dead[i].Stone = null; }

`GroupOf` is a flood function (`floods._flood_function`: locals, a flood of a local list, `return group;`), so
`dead` is a list of values not known when compiling, which the compiled moves refuse. The loop writes one
constant into one field of every item, each item once (a flood adds no item twice), and reads nothing itself, so
it sets that field on exactly the objects of the group as `GroupOf` found it, in any order. Written as a scan of
the objects of the item's class, each visited once (a grid of the flood's class, proved by
`scan_cells.visits_each_once` on the state after setup):

    for (number gx = 0; gx < 5; gx += 1)              // marked `reads_before`
        for (number gy = 0; gy < 5; gy += 1)
        {
            Point q = goban.Points[gx][gy] as Point;
            if (goban.GroupOfHas1(start: n, played: at, who: player, goal: q)) { q.Stone = null; }
        }

`GroupOfHas1` is `GroupOf` with `return group.contains(goal);`, which `floods.py` rewrites into a recursive
search compiled as a closure (decision 115). The scan asks it of every point for the few starts a move has, so it
is marked (`FunctionDef.reaches`) to be compiled keyed by its start, the points reached from it, rather than
carrying the point asked about through its recursion (`closures.reached_of`). Each pass's membership must be read from the state the loop started
with, as `GroupOf` read it before the first write: run pass after pass, a pass that cleared part of the group
would cut the flood of the next (a two-stone group asked of its first point: tests/lowering/test_group_clears.py).
The scan's loops are marked `reads_before`, which no source can write: the compiled moves compile them as relation
loops whose every read goes through the views the scan started with (`compiled.SegmentCompiler.loop_stmt`), never
spelled out pass by pass; the spelled-out lowering and the compiled functions refuse them. The runtime runs the
game as written, so validation compares the rules with the original loop.

Left alone: any other loop body (two statements, a value that is not a literal, a write through another item,
the counter read), the list read after the loop, a flood function not known from the call, a class whose objects
no proved grid scan visits each once.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Callable

from tgpl.frontend import ast
from tgpl.lowering.flood_shapes import _fresh, _is_name, given_inputs
from tgpl.lowering.list_calls import _class_of

# (class of the flood function, item class, that class's groups) -> (the group scanned, the scan's ranges), or
# None: no proved scan (floods.board_scans)
Scans = Callable[[str, str, list], "tuple[str, list[tuple[str, int, int]]] | None"]


@dataclass
class _Clear:
    """`List<T> dead = F(...); for (i < dead.length) { dead[i].A = K; }`: its parts."""

    decl: ast.VarDecl
    loop: ast.For
    fn: ast.FunctionDef  # the flood function F
    owner: ast.ClassDef  # F's class
    obj: ast.Expr | None  # what F is called through (None: its bare name)
    attr: str
    value: ast.Expr
    given: dict[str, ast.Expr]  # each input of F and what the call passes it (named or by position)


def cleared_item(loop: ast.For, name: str) -> tuple[str, ast.Expr] | None:
    """`for (number i = 0; i < name.length; i += 1) { name[i].A = K; }`, K a literal: (A, K)."""
    counted = ast.counted_for(loop)
    if counted is None or counted[1] != 0 or counted[2] != 0:
        return None
    right = loop.cond.right
    if not (isinstance(right, ast.Member) and _is_name(right.obj, name) and right.name == "length"):
        return None
    body = loop.body.body
    if len(body) != 1 or not isinstance(body[0], ast.ExprStmt) or not isinstance(body[0].expr, ast.Assign):
        return None
    write = body[0].expr
    t = write.target
    if not (write.op == "=" and isinstance(t, ast.Member) and isinstance(t.obj, ast.Index)
            and _is_name(t.obj.obj, name) and _is_name(t.obj.index, counted[0])):
        return None
    if not isinstance(write.value, (ast.NullLit, ast.NumberLit, ast.BoolLit)):
        return None  # a value that may differ from pass to pass, or read the state the loop writes
    return t.name, write.value


def rewrite_group_clears(module: ast.Module, scans: Scans) -> list[str]:
    """Rewrites each clear of a flood's group in `module`'s functions and actions in place (see the module's
    docstring); `scans` gives a proved scan of an item class. The names of the functions made."""
    from tgpl.lowering.floods import _flood_function

    classes = {c.name: c for c in module.items if isinstance(c, ast.ClassDef)}
    owners = [(None, module.items)] + [(c, c.members) for c in classes.values()]
    made: list[str] = []
    searches: dict[int, str] = {}  # id of a flood function -> its `contains` twin
    for owner, members in owners:
        for caller in [m for m in members if isinstance(m, (ast.FunctionDef, ast.ActionDef))]:
            if caller.effect is None:
                continue
            for block in [n for n in ast.walk(caller.effect.body) if isinstance(n, ast.Block)]:
                k = 0
                while k < len(block.body) - 1:
                    found = _clear_at(block.body, k, caller, owner, members, classes, _flood_function)
                    rewritten = _rewritten(found, caller, module, scans, searches, made) if found else None
                    if rewritten is not None:
                        block.body[k:k + 2] = [rewritten]
                    k += 1
    return made


def _clear_at(body: list, k: int, caller, owner, members: list, classes: dict, flood_function) -> _Clear | None:
    decl, loop = body[k], body[k + 1]
    if not (isinstance(decl, ast.VarDecl) and decl.type.name == "List" and isinstance(decl.init, ast.Call)
            and isinstance(loop, ast.For)):
        return None
    cleared = cleared_item(loop, decl.name)
    if cleared is None or any(_is_name(n, decl.name) for n in ast.walk(body[k + 2:])):
        return None
    callee = decl.init.callee
    if isinstance(callee, ast.Name):
        fns = [m for m in members if isinstance(m, ast.FunctionDef) and m.name == callee.name]
        holder, obj = owner, None
    elif isinstance(callee, ast.Member):
        kind = _class_of(callee.obj, caller, classes)
        holder = classes.get(kind) if kind is not None else None
        if holder is None or holder.base is not None:
            return None
        fns = [m for m in holder.members if isinstance(m, ast.FunctionDef) and m.name == callee.name]
        obj = callee.obj
        if any(not isinstance(n, (ast.Name, ast.Member)) for n in ast.walk(obj)):
            return None  # read again each pass: no call, no index
    else:
        return None
    if len(fns) != 1 or flood_function(fns[0]) is None or holder is None:
        return None
    given = given_inputs(fns[0].inputs, decl.init)
    # the arguments are read again each pass (from the state the loop found): locals, fields, literals
    if given is None or any(not isinstance(n, (ast.Name, ast.Member, ast.NumberLit, ast.NullLit, ast.BoolLit))
                            for a in given.values() for n in ast.walk(a)):
        return None
    return _Clear(decl, loop, fns[0], holder, obj, cleared[0], cleared[1], given)


def _rewritten(c: _Clear, caller, module: ast.Module, scans: Scans, searches: dict, made: list) -> ast.For | None:
    item = c.decl.type.args[0] if c.decl.type.args else None
    if item is None:
        return None
    groups = [m.name for m in c.owner.members if isinstance(m, ast.GroupDef)]
    scan = scans(c.owner.name, item.name, groups)
    if scan is None:
        return None
    group, ranges = scan
    span = c.loop.span
    name = searches.get(id(c.fn))
    if name is None:
        name = _fresh(f"{c.fn.name}Has", {getattr(m, "name", None) for m in c.owner.members} - {None})
        search = _search(c.fn, name, item, span)
        if search is None:
            return None
        search.origin = ast.Origin(ast.written_name(c.fn), f"asked whether the list it returns holds a {item.name} "
                                   f"for the clear in {caller.name}", span.line)
        c.owner.members.append(search)
        searches[id(c.fn)] = name
        made.append(name)
    goal = _goal_name(c.fn)
    used = {n.name for n in ast.walk(caller.effect.body) if isinstance(n, (ast.Name, ast.VarDecl))}
    used |= {d.name for d in caller.inputs}
    counters = [_fresh(f"group{r[0].upper()}", used) for r in ranges]
    q = _fresh("groupItem", used)
    cell: ast.Expr = (ast.Name(span, group) if c.obj is None
                      else ast.Member(span, _board(c.obj, caller, module), group, span))
    for v in counters:
        cell = ast.Index(span, cell, ast.Name(span, v))
    # named, as the compiled calls require (the call may have passed them by position)
    args = [ast.Arg(span, name, copy.deepcopy(v)) for name, v in c.given.items()]
    args.append(ast.Arg(span, goal, ast.Name(span, q)))
    callee = ast.Name(span, name) if c.obj is None else ast.Member(span, copy.deepcopy(c.obj), name, span)
    write = ast.ExprStmt(span, ast.Assign(span, ast.Member(span, ast.Name(span, q), c.attr, span), "=",
                                          copy.deepcopy(c.value)))
    body: list = [ast.VarDecl(span, copy.deepcopy(item), q, span, ast.Cast(span, cell, copy.deepcopy(item))),
                  ast.If(span, ast.Call(span, callee, args), ast.Block(span, [write]), None)]
    for v, (_, lo, hi) in reversed(list(zip(counters, ranges))):
        loop = ast.For(span, ast.VarDecl(span, ast.TypeRef(span, "number"), v, span, ast.NumberLit(span, float(lo))),
                       ast.Binary(span, "<", ast.Name(span, v), ast.NumberLit(span, float(hi))),
                       ast.Assign(span, ast.Name(span, v), "+=", ast.NumberLit(span, 1.0)), ast.Block(span, body))
        loop.reads_before = True  # each loop of the scan, the inner ones too
        body = [loop]
    return body[0]


def _board(obj: ast.Expr, caller, module: ast.Module) -> ast.Expr:
    """What the scan reads the board through: `obj`, or where it is a local declared once from a global class's
    attribute and never assigned (`Goban goban = Go.Goban;`), that attribute, which the compiled moves know when
    compiling (the local is a value of the move's), provided no code after setup assigns an attribute of that
    name (so the attribute still holds the local's value). The class must be a global class of the module that
    no local or input of the caller hides (a local object's attribute may be another board by the scan)."""
    if isinstance(obj, ast.Name):
        body = caller.effect.body
        decls = [n for n in ast.walk(body) if isinstance(n, ast.VarDecl) and n.name == obj.name]
        assigned = any(isinstance(n, ast.Assign) and _is_name(n.target, obj.name) for n in ast.walk(body))
        inputs = {d.name for d in caller.inputs}
        local = inputs | {n.name for n in ast.walk(body) if isinstance(n, ast.VarDecl)}
        globals_ = {c.name for c in module.items if isinstance(c, ast.ClassDef) and c.visibility == "global"}
        if (len(decls) == 1 and not assigned and obj.name not in inputs
                and isinstance(decls[0].init, ast.Member) and isinstance(decls[0].init.obj, ast.Name)
                and decls[0].init.obj.name in globals_ and decls[0].init.obj.name not in local):
            attr = decls[0].init.name
            after_setup = [it for it in module.items if not isinstance(it, ast.SetupDef)]
            if not any(isinstance(n, ast.Assign) and isinstance(n.target, (ast.Member, ast.Name))
                       and n.target.name == attr for n in ast.walk(after_setup)):
                return copy.deepcopy(decls[0].init)
    return copy.deepcopy(obj)


def _goal_name(fn: ast.FunctionDef) -> str:
    taken = {d.name for d in fn.inputs} | {n.name for n in ast.walk(fn.effect.body) if isinstance(n, (ast.Name,
                                                                                                     ast.VarDecl))}
    return _fresh("goal", set(taken))


def _search(fn: ast.FunctionDef, name: str, item: ast.TypeRef, span) -> ast.FunctionDef | None:
    """`fn` (a flood function, `... return group;`) as `name`, with one more input `goal` and `return
    group.contains(goal);`: is `goal` in the group `fn` returns?"""
    goal = _goal_name(fn)
    body = copy.deepcopy(fn.effect.body.body)
    listed = body[-1].value
    body[-1] = ast.Return(body[-1].span, ast.Call(span, ast.Member(span, listed, "contains", span),
                                                   [ast.Arg(span, None, ast.Name(span, goal))]))
    inputs = copy.deepcopy(list(fn.inputs))
    inputs.append(ast.InputDecl(span, False, "function", True, None, copy.deepcopy(item), goal, span, [], None))
    effect = ast.Effect(fn.effect.span, ast.Block(fn.effect.body.span, body))
    # the scan asks every point of few starts: its search is compiled keyed by the start (closures.reached_of)
    return ast.FunctionDef(span, name, span, False, inputs + [ast.Returns(span, ast.TypeRef(span, "bool")), effect],
                           reaches=goal)
