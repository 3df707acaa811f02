"""A sum asked only whether it is positive, compiled as "some term is positive".

Reversi's `Flips(x, y, who)` adds up `FlipsIn` over the eight directions, and the game asks only
`Flips(...) > 0` (a move is legal, a player has a move). Compiled as written, the running total is an argument
of the loop's relation: every value 0..18 for every square, player and direction, tens of thousands of ground
rules, where hand-written GDL asks whether some direction flanks a disc. When every term added is never
negative and the total starts at 0, "the total is positive" is "some term is positive": the same function with
`total += E` as `if (E > 0) { return true; }` and `return total` as `return false`, which the function compiler
writes as one relation over the passes (`horn._FunctionCompiler.exists_loop`), no number carried.

Which numbers are never negative is read from the source (`nonnegative`): literals at least 0, sums and
products of such, locals whose every assignment keeps them so, calls of functions whose every `return` is such.
The rewritten function shares the original's inputs and expressions (the checker's types are keyed by node).
"""

from __future__ import annotations

from tgpl.frontend import ast
from tgpl.frontend.symbols import FunctionInfo
from tgpl.frontend.types import CallableType

GROWING = ("=", "+=", "*=")  # assignments that keep a number at least 0 when their value is


def _function(e: ast.Call, types) -> FunctionInfo | None:
    ct = types.get(id(e.callee))
    return ct.target if isinstance(ct, CallableType) and ct.kind == "function" else None


def _body(fi: FunctionInfo) -> list | None:
    effect = fi.defn.effect
    return effect.body.body if effect is not None else None


def _assigned(body, name: str) -> list[ast.Expr]:
    """Every value `name` is given in `body` (a declaration without a value: None), its op kept apart."""
    out = []
    for n in ast.walk(body):
        if isinstance(n, ast.VarDecl) and n.name == name:
            out.append(("=", n.init))
        elif isinstance(n, ast.Assign) and isinstance(n.target, ast.Name) and n.target.name == name:
            out.append((n.op, n.value))
    return out


def _locals(fi: FunctionInfo, body) -> set[str]:
    """The names declared in the body, none of them an input (an input's value comes from the caller)."""
    inputs = {i.name for i in fi.defn.inputs}
    return {n.name for n in ast.walk(body) if isinstance(n, ast.VarDecl)} - inputs


def _never_negative(fi: FunctionInfo, body, types, seen: frozenset) -> set[str]:
    """The locals of the body never negative: the largest set whose every assignment keeps them so, given
    that the others of the set are (an invariant: true before the first assignment, kept by each)."""
    alive = _locals(fi, body)
    while True:
        kept = {n for n in alive if all(op in GROWING and v is not None and _expr_nonnegative(v, alive, types, seen)
                                        for op, v in _assigned(body, n))}
        if kept == alive:
            return alive
        alive = kept


def _expr_nonnegative(e, names: set[str], types, seen: frozenset) -> bool:
    if isinstance(e, ast.NumberLit):
        return e.value >= 0
    if isinstance(e, ast.Name):
        return e.name in names
    if isinstance(e, ast.Binary) and e.op in ("+", "*"):
        return _expr_nonnegative(e.left, names, types, seen) and _expr_nonnegative(e.right, names, types, seen)
    if isinstance(e, ast.Call):
        fi = _function(e, types)
        return fi is not None and nonnegative(fi, types, seen)
    return False


def nonnegative(fi: FunctionInfo, types, seen: frozenset = frozenset()) -> bool:
    """Whether every number `fi` returns is at least 0, read from its source (recursion: not known, False)."""
    body = _body(fi)
    rt = fi.defn.returns
    if body is None or id(fi) in seen or rt is None or rt.type is None or rt.type.name != "number":
        return False
    seen = seen | {id(fi)}
    names = _never_negative(fi, body, types, seen)
    returns = [n for n in ast.walk(body) if isinstance(n, ast.Return)]
    return bool(returns) and all(r.value is not None and _expr_nonnegative(r.value, names, types, seen)
                                 for r in returns)


def positive_form(fi: FunctionInfo, types) -> FunctionInfo | None:
    """`fi`, a sum of terms never negative, as a bool function "the sum is positive"; None if `fi` is not
    `number t = 0; ... t += E ...; return t;` with `t` only added to (each `+=` a statement of its own), its
    terms never negative and no other `return`."""
    body = _body(fi)
    if not body or not isinstance(body[-1], ast.Return) or not isinstance(body[-1].value, ast.Name):
        return None
    total = body[-1].value.name
    if total not in _locals(fi, body):
        return None
    returns = [n for n in ast.walk(body) if isinstance(n, ast.Return)]
    given = _assigned(body, total)
    starts = [v for op, v in given if op == "="]
    if len(returns) != 1 or len(starts) != 1 or not isinstance(starts[0], ast.NumberLit) or starts[0].value != 0:
        return None
    if any(op not in ("=", "+=") for op, _ in given):
        return None
    seen = frozenset({id(fi)})
    names = _never_negative(fi, body, types, seen)
    terms = [v for op, v in given if op == "+="]
    if not terms or not all(_expr_nonnegative(v, names - {total}, types, seen) for v in terms):
        return None
    reads = [n for n in ast.walk(body) if isinstance(n, ast.Name) and n.name == total]
    added = [n for n in ast.walk(body) if isinstance(n, ast.Assign) and isinstance(n.target, ast.Name)
             and n.target.name == total]
    if len(reads) != len(added) + 1:  # read only by `return t` (each `+=`'s target is a Name node too)
        return None
    statements = [n for n in ast.walk(body) if isinstance(n, ast.ExprStmt) and n.expr in added]
    if len(statements) != len(added):
        return None
    span = fi.defn.span
    new_body = [_rewritten(s, total) for s in body[:-1] if not (isinstance(s, ast.VarDecl) and s.name == total)]
    new_body.append(ast.Return(span, ast.BoolLit(span, False)))
    if any(s is None for s in new_body):
        return None
    items = [x for x in fi.defn.items if isinstance(x, ast.InputDecl)]
    items += [ast.Returns(span, ast.TypeRef(span, "bool")), ast.Effect(span, ast.Block(span, new_body))]
    defn = ast.FunctionDef(span, fi.defn.name + "_positive", fi.defn.name_span, False, items,
                           origin=ast.Origin(ast.written_name(fi.defn), "asked only whether it is positive",
                                             fi.defn.name_span.line))
    return FunctionInfo(defn, fi.scope, fi.owner)


def _rewritten(s, total: str):
    """Statement `s` with each `total += E;` as `if (E > 0) { return true; }`; None where `s` declares
    `total` again below the top (not the form)."""
    if isinstance(s, ast.ExprStmt) and isinstance(s.expr, ast.Assign) and isinstance(s.expr.target, ast.Name) \
            and s.expr.target.name == total:
        e = s.expr.value
        test = ast.Binary(s.span, ">", e, ast.NumberLit(s.span, 0))
        return ast.If(s.span, test, ast.Block(s.span, [ast.Return(s.span, ast.BoolLit(s.span, True))]), None)
    if isinstance(s, ast.VarDecl) and s.name == total:
        return None
    if isinstance(s, ast.Block):
        inner = [_rewritten(x, total) for x in s.body]
        return None if any(x is None for x in inner) else ast.Block(s.span, inner)
    if isinstance(s, ast.If):
        then = _rewritten(s.then, total)
        orelse = _rewritten(s.orelse, total) if s.orelse is not None else None
        if then is None or (s.orelse is not None and orelse is None):
            return None
        return ast.If(s.span, s.cond, then, orelse)
    if isinstance(s, ast.For):
        body = _rewritten(s.body, total)
        return None if body is None else ast.For(s.span, s.init, s.cond, s.post, body, s.reads_before)
    if isinstance(s, ast.While):
        body = _rewritten(s.body, total)
        return None if body is None else ast.While(s.span, s.cond, body)
    return s
