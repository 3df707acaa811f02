"""A search with an early return, compiled as "some way reaches the early return".

A designer's existence search returns one constant from inside its loops and another once they are done:

    for (x ...) { for (y = x; ...) { if (P(x, y)) { for (d ...) { if (Q(x, y, d)) { return true; } } } } }
    return false;

Compiled as written (tgpl.lowering.horn), the code after a loop of independent passes goes on where no pass
returned (`not` of the loop's "some pass returns"); inside a loop compiled as a relation (here the `y` loop,
whose start is not a number known when compiling), that `not` reads rules of the loop's own relation: a
negation cycle, which GDL forbids. Hand-written GDL says it with no loop at all: `found :- P(X, Y), Q(X, Y, D)`.

The early return stops the execution at the first way that reaches it; going on past it, as if it had not
returned, reaches the same first way (the execution is the same up to there), and only adds ways to the same
constant after it. So "the search returns K" is "some way through the body, going on past each `return K`,
reaches a `return K`": a positive relation (`|found`), and the constant at the end where it does not hold
(`not found`, read once, above every relation of the search: stratified). The form (`search_form`):

- the body's last statement returns a constant `L`;
- every other `return` returns one constant `K`, not `L` (literals: a number or a bool), and one of them
  is inside a loop.

The function compiler (`horn._FunctionCompiler`) compiles a function of this form so where its rules, compiled
as written, depend on themselves through `not` (language decision 120); elsewhere it keeps the form it had.
"""

from __future__ import annotations

from dataclasses import dataclass

from tgpl.frontend import ast

LITERALS = (ast.BoolLit, ast.NumberLit)


@dataclass(frozen=True)
class Search:
    """A search's two constants: `found` returned early (inside the loops), `otherwise` at the end."""

    found: ast.Expr
    otherwise: ast.Expr
    early: ast.Return  # a `return found` inside a loop, where a refusal of the search is located


def _returns_in_loops(n, depth: int = 0):
    """Every `return` under `n`, with whether it is inside a loop."""
    if isinstance(n, ast.Return):
        yield n, depth > 0
        return
    if isinstance(n, (ast.For, ast.While)):
        yield from _returns_in_loops(n.body, depth + 1)
        return
    if isinstance(n, ast.Block):
        for x in n.body:
            yield from _returns_in_loops(x, depth)
    elif isinstance(n, ast.If):
        yield from _returns_in_loops(n.then, depth)
        if n.orelse is not None:
            yield from _returns_in_loops(n.orelse, depth)


def _value(e) -> object:
    return (type(e).__name__, e.value) if isinstance(e, LITERALS) else None


def early_return(fn: ast.FunctionDef) -> ast.Return | None:
    """The first `return` of `fn` inside a loop, or None."""
    body = fn.effect.body.body if fn.effect is not None else []
    return next((r for s in body for r, inside in _returns_in_loops(s) if inside), None)


def search_form(fn: ast.FunctionDef) -> Search | None:
    """`fn` as a search (the module's docstring), or None where it is not of the form."""
    body = fn.effect.body.body if fn.effect is not None else None
    if not body or not isinstance(body[-1], ast.Return) or _value(body[-1].value) is None:
        return None
    last = body[-1]
    early = [(r, inside) for s in body[:-1] for r, inside in _returns_in_loops(s)]
    values = {_value(r.value) for r, _ in early}
    if len(values) != 1 or None in values or values == {_value(last.value)}:
        return None
    if len(early) != sum(1 for n in ast.walk(body[:-1]) if isinstance(n, ast.Return)):
        return None  # a `return` where the walk above does not look (none today: kept honest)
    looped = [r for r, inside in early if inside]
    if not looped:
        return None
    return Search(early[0][0].value, last.value, looped[0])


def returns_found(search: Search, s: ast.If) -> bool:
    """Is `s` `if (C) { return K; }`, K the search's early constant, with no `else`: a test the search goes on past
    whatever C is (the module's docstring), K where C holds?"""
    then = s.then.body if isinstance(s.then, ast.Block) else None
    return s.orelse is None and then is not None and len(then) == 1 and isinstance(then[0], ast.Return) \
        and _value(then[0].value) is not None and _value(then[0].value) == _value(search.found)
