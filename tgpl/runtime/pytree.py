"""Questions and passes on the Python syntax tree of generated code (`codegen`, `hoisting`).

The generator writes Python source; what it later asks of that source (which names an
expression loads) is answered on the parsed tree, so that a name inside a string literal or
a longer name never counts.
"""

from __future__ import annotations

import ast as py


def parse_expression(code: str) -> py.Expression | None:
    """`code`'s tree as one Python expression, or None when it nests deeper than Python's parser
    takes (then compiling it would fail too)."""
    try:
        return py.parse(code, mode="eval")
    except (SyntaxError, RecursionError):
        return None


def loaded_names(tree: py.AST) -> set[str]:
    """The names `tree` reads (a name only bound by `:=` is not read)."""
    return {n.id for n in py.walk(tree) if isinstance(n, py.Name) and isinstance(n.ctx, py.Load)}


__all__ = ["loaded_names", "parse_expression"]
