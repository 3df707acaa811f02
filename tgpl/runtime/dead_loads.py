"""Prologue loads of locals that the code assigns before it reads them, dropped (`codegen.DEAD_LOADS`).

A generated function spelled with Python's own locals (`BlockGenerator.generate`) starts by loading
every local its code names from the frame's list, `l3 = v[3]`, or by setting those that are not
inputs to None, `l3 = l4 = None` (`_fast`). Most locals are declared in the block, and a
declaration assigns them before anything reads them: Tris's win check loaded six locals it then
assigned, 24 instructions a move. A load is dropped when a definite-assignment analysis of the
generated source (Python's `ast`) shows that on every path from the prologue each read of the local
comes after an assignment to it; the analysis is conservative, and any doubt keeps the load:

- a loop's body may run zero times: what it assigns does not count after it (a `for`'s target
  counts inside its body only);
- in a `try`, a handler may start anywhere in the body: it is analysed from the state before the
  `try`; after the statement, a local is assigned when every way through that completes
  (body and `else`, each handler) assigned it, or the `finally` did;
- an `if` assigns what both of its branches assign;
- an assignment by `:=` counts for nothing (its place in the expression's order is not looked at);
- a local named in a nested scope (lambda, comprehension, nested function or class), deleted,
  declared global or nonlocal, or in a statement of another kind (`with`, `match`...) keeps its
  load.

Reading a local whose load was dropped would raise `UnboundLocalError`: the analysis never lets
that happen, and a dropped load changes nothing else (the frame's list is as long as the layout).
"""

from __future__ import annotations

import ast
import re

_LOAD = re.compile(r"^    (l\d+) = v\[(\d+)\]$", re.M)
_CHAIN = re.compile(r"^    ((?:l\d+ = )+)None$", re.M)
_SCOPES = (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.ListComp, ast.SetComp,
           ast.DictComp, ast.GeneratorExp)


class _Unsafe(Exception):
    """The local may be read before it is assigned, or the analysis does not know."""


def _mentions(node: ast.AST, name: str) -> bool:
    for n in ast.walk(node):
        if n.__class__ is ast.Name and n.id == name:
            return True
        if isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names:
            return True
    return False


def _check(node: ast.AST | None, name: str, assigned: bool) -> None:
    """Raise _Unsafe when the expression (or statement part) `node` reads `name` while it may be
    unassigned, deletes it or names it in a nested scope."""
    if node is None:
        return
    for n in ast.walk(node):
        if isinstance(n, _SCOPES):
            if _mentions(n, name):
                raise _Unsafe
        elif n.__class__ is ast.Name and n.id == name:
            if n.ctx.__class__ is ast.Del:
                raise _Unsafe
            if n.ctx.__class__ is ast.Load and not assigned:
                raise _Unsafe


def _target(t: ast.AST, name: str, assigned: bool) -> bool:
    """An assignment's target: whether it assigns `name` (checking what it reads)."""
    if t.__class__ is ast.Name:
        return t.id == name
    if isinstance(t, (ast.Tuple, ast.List)):
        found = False
        for e in t.elts:
            found = _target(e.value if isinstance(e, ast.Starred) else e, name, assigned) or found
        return found
    _check(t, name, assigned)  # a subscript or attribute: reads its parts
    return False


def _flow(stmts: list, name: str, assigned: bool) -> bool:
    """Whether `name` is definitely assigned after `stmts` run from a state where it is
    (`assigned`) or may not be; _Unsafe when one of them may read it unassigned."""
    for s in stmts:
        cls = s.__class__
        if cls is ast.Assign:
            _check(s.value, name, assigned)
            found = False
            for t in s.targets:
                found = _target(t, name, assigned) or found
            assigned = assigned or found
        elif cls is ast.If:
            _check(s.test, name, assigned)
            then = _flow(s.body, name, assigned)
            assigned = _flow(s.orelse, name, assigned) and then
        elif cls is ast.For:
            _check(s.iter, name, assigned)
            _flow(s.body, name, _target(s.target, name, assigned) or assigned)
            _flow(s.orelse, name, assigned)
        elif cls is ast.While:
            _check(s.test, name, assigned)
            _flow(s.body, name, assigned)
            _flow(s.orelse, name, assigned)
        elif cls is ast.Try:
            done = _flow(s.orelse, name, _flow(s.body, name, assigned))
            for h in s.handlers:
                _check(h.type, name, assigned)
                if h.name == name:
                    raise _Unsafe
                done = _flow(h.body, name, assigned) and done
            # the `finally` may start anywhere too (analysed always: it may read the local)
            final = _flow(s.finalbody, name, assigned)
            assigned = done or (bool(s.finalbody) and final)
        elif cls in (ast.Expr, ast.Return, ast.Pass, ast.Break, ast.Continue, ast.Raise):
            _check(s, name, assigned)
        elif cls is ast.AugAssign:
            if s.target.__class__ is ast.Name and s.target.id == name and not assigned:
                raise _Unsafe
            _check(s, name, assigned)
        elif _mentions(s, name):  # anything else naming it: not looked into
            raise _Unsafe
    return assigned


def _assigned_first(body: list, name: str) -> bool:
    try:
        _flow(body, name, False)
    except _Unsafe:
        return False
    return True


def dropped(src: str) -> str:
    """`src` (one generated function) without the prologue loads (`l3 = v[3]`) and initial Nones
    (`l3 = l4 = None`) of the locals that its code assigns before it reads them."""
    if not (_LOAD.search(src) or _CHAIN.search(src)):
        return src
    tree = ast.parse(src)
    fn = tree.body[0]
    if not isinstance(fn, ast.FunctionDef):
        return src
    prologue = []  # (statement, its local names)
    i = 0
    for s in fn.body:
        if not (s.__class__ is ast.Assign and s.lineno == s.end_lineno
                and all(t.__class__ is ast.Name for t in s.targets)):
            break
        names = [t.id for t in s.targets]
        v = s.value
        if (len(names) == 1 and v.__class__ is ast.Subscript and v.value.__class__ is ast.Name
                and v.value.id == "v" and v.slice.__class__ is ast.Constant
                and names[0] == f"l{v.slice.value}"):
            prologue.append((s, names, i + 1))
        elif (v.__class__ is ast.Constant and v.value is None
              and all(re.fullmatch(r"l\d+", n) for n in names)):
            prologue.append((s, names, i + 1))
        elif not (len(names) == 1 and names[0] in ("v", "m") and v.__class__ is ast.Attribute
                  and v.value.__class__ is ast.Name and v.value.id == "f"):
            break
        i += 1
    if not prologue:
        return src
    lines = src.split("\n")
    for s, names, after in prologue:  # each analysed from the statement after it on
        kept = [n for n in names if not _assigned_first(fn.body[after:], n)]
        if len(kept) == len(names):
            continue
        at = s.lineno - 1
        if not kept:
            lines[at] = None
        else:
            lines[at] = "    " + " = ".join(kept) + " = " + lines[at].rsplit(" = ", 1)[1]
    return "\n".join(line for line in lines if line is not None)
