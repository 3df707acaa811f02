"""Where a counter that grows without bound is written: the statement a refusal of its range points at.

The range search (tgpl.lowering.segments) knows a counter's values ran past its limit, and in which
direction, but not which statement took them there: its paths hold values, not statements. A designer
fixes the write, not the declaration, so the refusal is located at the assignment of the attribute
that moves it that way (`Stones -= 2` for a count that falls), found in the source.
"""

from __future__ import annotations

from tgpl.frontend import ast
from tgpl.frontend.after_setup import after_setup_nodes


def growing_write(program, attr: str, direction: int) -> ast.Assign | None:
    """The first assignment (in source order) of attribute `attr` that moves it in `direction` (+1 up, -1
    down): `attr += k`, `attr -= k`, `attr = attr + k` for a number k of that sign; else the first that
    changes it by an amount not written as a number (`attr += step`); None when there is neither."""
    sure: list[ast.Assign] = []
    maybe: list[ast.Assign] = []
    for module in program.modules:
        for node in ast.walk(module.items):
            if not isinstance(node, ast.Assign) or not _is_attribute(program, node.target, attr):
                continue
            step = _step(node, attr)
            if step is None:
                continue
            if step == "unknown":
                maybe.append(node)
            elif step * direction > 0:
                sure.append(node)
    found = sure or maybe
    return min(found, key=lambda n: (n.span.file, n.span.line, n.span.col)) if found else None


def first_write(program, attr: str) -> ast.Assign | None:
    """The first assignment (in source order) of attribute `attr` after setup, one that writes a value computed
    before a constant (`token.Pos = to` before `other.Pos = 0`, a reset that grows nothing): where the moves
    write a counter, for one that no step of a number moves (`growing_write`)."""
    found = [n for n in after_setup_nodes(program)
             if isinstance(n, ast.Assign) and _is_attribute(program, n.target, attr)]
    return min(found, key=lambda n: (n.op == "=" and _literal(n.value) is not None, n.span.file, n.span.line,
                                     n.span.col)) if found else None


def _is_attribute(program, target, attr: str) -> bool:
    """Is target the attribute `attr` (`x.attr`, or a bare `attr` that names an attribute, not a local)?"""
    if isinstance(target, ast.Member):
        return target.name == attr
    return isinstance(target, ast.Name) and target.name == attr and program.types.get(id(target)) is not None


def _step(node: ast.Assign, attr: str):
    """The signed change the assignment makes (a number), "unknown" when it adds an amount not written as a
    number, or None when it does not change the attribute from its own value (`attr = 0`)."""
    if node.op in ("+=", "-="):
        k = _literal(node.value)
        if k is None:
            return "unknown"
        return k if node.op == "+=" else -k
    if node.op == "=" and isinstance(node.value, ast.Binary) and node.value.op in ("+", "-"):
        left, right = node.value.left, node.value.right
        if _reads(left, attr):
            k = _literal(right)
            if k is None:
                return "unknown"
            return k if node.value.op == "+" else -k
        if node.value.op == "+" and _reads(right, attr):
            k = _literal(left)
            return "unknown" if k is None else k
    return None


def _literal(e) -> float | None:
    if isinstance(e, ast.NumberLit):
        return e.value
    if isinstance(e, ast.Unary) and e.op == "-" and isinstance(e.operand, ast.NumberLit):
        return -e.operand.value
    return None


def _reads(e, attr: str) -> bool:
    return isinstance(e, (ast.Member, ast.Name)) and getattr(e, "name", None) == attr


def moved_with(program, node: ast.Assign) -> list[str]:
    """The other attributes the block that holds `node` steps (`Pairs += 1` beside `Stones -= 2`): counters
    that move together, so that in play one may bound the other, which no range found counter by counter
    follows (the refusal says so, tgpl.lowering.compiled.CompiledGame.unbounded)."""
    for module in program.modules:
        for b in ast.walk(module.items):
            if isinstance(b, ast.Block) and any(isinstance(s, ast.ExprStmt) and s.expr is node for s in b.body):
                return sorted({s.expr.target.name for s in b.body
                               if isinstance(s, ast.ExprStmt) and isinstance(s.expr, ast.Assign)
                               and s.expr.op in ("+=", "-=") and isinstance(s.expr.target, (ast.Member, ast.Name))}
                              - {getattr(node.target, "name", None)})
    return []


def ending_check(program, attr: str) -> ast.Binary | None:
    """The first comparison of attribute `attr` in the condition of an `if` whose branch declares a winner
    (`if (Game.Moves >= 200) { winner ...; }`), in source order; None when there is none."""
    found = []
    for module in program.modules:
        for node in ast.walk(module.items):
            if isinstance(node, ast.If) and any(isinstance(n, ast.Winner) for n in ast.walk(node.then)):
                found += [n for n in ast.walk(node.cond) if isinstance(n, ast.Binary)
                          and n.op in ("<", ">", "<=", ">=", "==", "!=")
                          and (_reads(n.left, attr) or _reads(n.right, attr))]
    return min(found, key=lambda n: (n.span.file, n.span.line, n.span.col)) if found else None


def written_text(e) -> str:
    """A target as the source spells it, for a hint (`Game.Stones`, `InHand`)."""
    if isinstance(e, ast.Member):
        return f"{written_text(e.obj)}.{e.name}" if isinstance(e.obj, (ast.Name, ast.Member)) else e.name
    return getattr(e, "name", "?")
