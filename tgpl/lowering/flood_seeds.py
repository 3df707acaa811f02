"""A flood's list seeded by a walk that adds what it finds (Havannah's ring, issue 34).

A designer seeds a flood with every item of a list the function does not make (a board's `Edge`), or every cell
of a board, that has some property, then grows it:

    List<Cell> open = {};
    for (number i = 0; i < Edge.length; i += 1) { if (C(Edge[i])) { open.add(Edge[i]); } }
    for (number i = 0; i < open.length; i += 1) { ... the flood's walk (tgpl.lowering.floods) ... }

The list then holds what any seed reaches: its uses are questions about reachability from every item the seed
walk adds, `seed(e) :- item(e), C(e)` of the recursion. `tgpl.lowering.floods` rewrites each use as the call of a
function of the same owner that runs the seed walk with each `open.add(e);` made `if (<the flood's search from
e>) { return true; }` (`seeds_function`), then `return false;`: it holds exactly where some seed reaches what the
use asks. The walk reads the state where the use is, which is where the list was read, since nothing between
writes the state (the flood's own checks). The seed walk is one statement that only adds: it writes no state
and no local but its own, makes no call that writes, returns nothing, and reads the list only in its adds, each
`L.add(e);` alone or as `if (C && !L.contains(e)) { L.add(e); }` (the guard only keeps a seed from being added
twice, which a question about reachability does not see); `e` does not read the list.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Callable

from tgpl.frontend import ast
from tgpl.frontend.diagnostics import Span
from tgpl.lowering.flood_shapes import (_empty_list, _is_name, _method, _replace, _same, _stmt_method, pure_block,
                                          walks_list)

SEEDS = "#seeds"  # the marker standing for the seed walk in a flood's list (`List<T> L = {#seeds};`)


@dataclass
class SeedWalk:
    """The statement that seeds a flood's list `name` by its adds."""

    walk: ast.Stmt
    name: str

    def stripped(self) -> ast.Stmt:
        """The walk with each add gone (an add-if kept as `if (C) { }`): what it reads besides the list."""
        return self.searched(lambda e, span: None)

    def searched(self, search: Callable[[ast.Expr, Span], ast.Expr | None]) -> ast.Stmt:
        """The walk with each add of `e` made `if (search(e)) { return true; }` (under the add-if's `C`), or
        dropped where `search` gives None."""
        def swap(n):
            added = _add(n, self.name)
            if added is None:
                return None
            cond, e = added
            test = search(copy.deepcopy(e), n.span)
            if test is not None and cond is not None:
                test = ast.Binary(n.span, "&&", copy.deepcopy(cond), test)
            then = [ast.Return(n.span, ast.BoolLit(n.span, True))] if test is not None else []
            if test is None and cond is not None:
                test = copy.deepcopy(cond)
            return ast.If(n.span, test, ast.Block(n.span, then), None) if test is not None else ast.Block(n.span, [])
        return _replace(self.walk, swap)


def _add(s, name: str) -> tuple[ast.Expr | None, ast.Expr] | None:
    """`name.add(e);` (None, e), or `if (C && !name.contains(e)) { name.add(e); }` (C or None where the guard is
    all of the condition, e); else None."""
    added = _stmt_method(s, name, "add")
    if added is not None:
        return None, added
    if not (isinstance(s, ast.If) and s.orelse is None and len(s.then.body) == 1):
        return None
    added = _stmt_method(s.then.body[0], name, "add")
    if added is None:
        return None

    def guard(e) -> bool:
        return (isinstance(e, ast.Unary) and e.op == "!"
                and _same(_method(e.operand, name, "contains"), added))
    if guard(s.cond):
        return None, added
    if isinstance(s.cond, ast.Binary) and s.cond.op == "&&" and guard(s.cond.right):
        return s.cond.left, added
    return s.cond, added


def seed_walk(body: list, k: int) -> SeedWalk | None:
    """The seed walk at `body[k + 1]` of the list `body[k]` declares empty, where `body[k + 2]` walks that list
    and the walk is as the module says (its reads of the state and locals are checked by the caller); else
    None."""
    if k + 2 >= len(body):
        return None
    empty = _empty_list(body[k])
    if empty is None:
        return None
    name, walk = empty[0], body[k + 1]
    if not isinstance(walk, (ast.For, ast.While, ast.If)) or walks_list(body[k + 2], name) is None:
        return None
    seeds = SeedWalk(walk, name)
    adds = [n for n in ast.walk([walk]) if _add(n, name) is not None]
    if not adds or any(_is_name(x, name) for a in adds for x in ast.walk([_add(a, name)[1]])):
        return None
    rest = seeds.stripped()
    own = {n.name for n in ast.walk([walk]) if isinstance(n, ast.VarDecl)}
    if not pure_block([rest], own, returns=False) or any(_is_name(n, name) for n in ast.walk([rest])):
        return None
    return seeds


def marked(body: list, k: int) -> list:
    """`body` with the empty list at `body[k]` declared seeded by the marker and its seed walk dropped, the form
    `tgpl.lowering.floods.find_flood` knows (one seed, `SEEDS`)."""
    s = body[k]
    seeds = ast.InitList(s.init.span, [ast.Name(s.init.span, SEEDS)])
    return body[:k] + [ast.VarDecl(s.span, s.type, s.name, s.name_span, seeds)] + body[k + 2:]


def seeds_function(name: str, seeds: SeedWalk, item: ast.TypeRef, goal: str | None, inputs: dict[str, ast.TypeRef],
                   search: Callable[[ast.Expr, Span], ast.Expr], span: Span) -> ast.FunctionDef:
    """`function name(goal, <inputs>) returns bool`: the seed walk, each seed `e` asked `search(e)` (the flood's
    search from `e`), `return true` where it holds, else `return false`. The function stands at the walk (its
    span, which the dry run gives refusals inside it by; what it adds, at `span`, the flood's loop)."""
    def decl(v: str, t: ast.TypeRef) -> ast.InputDecl:
        return ast.InputDecl(span, False, "function", True, None, copy.deepcopy(t), v, span, [], None)
    params = ([decl(goal, item)] if goal is not None else []) + [decl(v, t) for v, t in inputs.items()]
    effect = ast.Effect(span, ast.Block(span, [seeds.searched(search), ast.Return(span, ast.BoolLit(span, False))]))
    at = seeds.walk.span
    return ast.FunctionDef(at, name, at, False, params + [ast.Returns(span, ast.TypeRef(span, "bool")), effect])
