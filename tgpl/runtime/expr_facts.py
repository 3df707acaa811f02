"""What an expression surely gives, read from its syntax alone: a bool, a float. Generated code
(`tgpl.runtime.codegen`) and the inlined calls in it (`tgpl.runtime.inlining`) leave out the tests
these make needless."""

from __future__ import annotations

from tgpl.frontend import ast
from tgpl.frontend.types import NUMBER

_BOOL_OPS = frozenset(("==", "!=", "<", ">", "<=", ">=", "&&", "||"))


def _is_bool(e: ast.Expr) -> bool:
    """Whether `e` gives a bool whenever it gives a value (else it raises): a literal, a
    comparison, `&&`, `||`, `!`, `is`. Generated code uses it as it is, with no test."""
    return (isinstance(e, (ast.BoolLit, ast.TypeTest)) or isinstance(e, ast.Binary) and e.op in _BOOL_OPS
            or isinstance(e, ast.Unary) and e.op == "!")


def _number_literal(e: ast.Expr | None) -> bool:
    """Whether `e` is a number literal, or one negated."""
    return isinstance(e, ast.NumberLit) or isinstance(e, ast.Unary) and e.op == "-" and isinstance(e.operand, ast.NumberLit)


_ARITH_OPS = frozenset(("+", "-", "*", "/", "%", "^"))


def _float_valued(e: ast.Expr | None, types: dict) -> bool:
    """Whether `e` gives a float whenever it gives a value: a number literal, or arithmetic on
    numbers (generated code and Machine.arith make every result a float, or raise)."""
    return _number_literal(e) or isinstance(e, ast.Binary) and e.op in _ARITH_OPS and types.get(id(e)) == NUMBER


def _changed(items: list, types: dict) -> dict[str, int]:
    """Per name, the index of the last of `items` that declares the name or gives it something
    other than a float (`_float_valued`). A `number` local declared with a float that no later
    item changes so (compound assignments, `+=` ..., give a number or stop the game) only ever
    holds numbers: generated code tests it for nothing (`BlockGenerator.number_test`)."""
    found: dict[str, int] = {}
    for i, item in enumerate(items):
        for n in ast.walk(item):
            if isinstance(n, ast.Assign) and isinstance(n.target, ast.Name):
                if n.op == "=" and not _float_valued(n.value, types):
                    found[n.target.name] = i
            elif isinstance(n, (ast.VarDecl, ast.InputDecl, ast.Filter)) and n.name is not None:
                found[n.name] = i
    return found


def _is_float_literal(code: str) -> bool:
    """Whether generated code is a finite float literal, as expr_NumberLit writes one."""
    try:
        value = float(code)
    except ValueError:
        return False
    return repr(value) == code and value == value and value not in (float("inf"), float("-inf"))
