"""Walks of a local list while they grow it (a flood: a search whose list is both the items found and its queue).

Such a walk costs the spelled-out lowering a path per way the list can grow and is refused by the compiled moves
(a list that changes); both refusals name it, with the rewrites that lower (language decision 114), from here.
"""

from __future__ import annotations

from tgpl.frontend import ast
from tgpl.frontend.diagnostics import Span


def grown_walk_in(code) -> tuple[Span, str] | None:
    """The first loop in `code` (a function's definition, a block) that walks a local list while it grows it: the
    loop's place and the list's name; None where there is none."""
    for n in ast.walk(code):
        if isinstance(n, (ast.While, ast.For)):
            grown = grown_lists(n.body)
            if grown:
                return n.span, grown[0]
    return None


def grown_walk_rewrite(name: str) -> str:
    """Why a walk of the local list `name` while it grows it (a flood) costs the lowering a path per way the list can
    grow, and the rewrites that lower: said where such a walk is refused (`_too_many_ways`, `_rewrite_hint`)."""
    return ("a search whose extent depends on the state, and each way the list can grow is a path of its own; write "
            "the search as a recursive function over the board (is there a chain of neighbours from one to the "
            "other?) or as a fixed number of passes over the cells (docs/lowering.md, \"Search a chain\"); or keep "
            f"the walk, with no return in it, and read '{name}' after it only by '{name}.contains(x)' or in a loop "
            "over it that returns true or false (language decision 114)")


def grown_lists(body: ast.Block) -> list[str]:
    """The local names a loop body both reads items of (`xs[i]`) and adds to (`xs.add(x)`, `xs.append(ys)`): a list
    walked while it grows."""
    added, indexed = set(), set()
    for n in ast.walk(body):
        if (isinstance(n, ast.Call) and isinstance(n.callee, ast.Member) and n.callee.name in ("add", "append")
                and isinstance(n.callee.obj, ast.Name)):
            added.add(n.callee.obj.name)
        elif isinstance(n, ast.Index) and isinstance(n.obj, ast.Name):
            indexed.add(n.obj.name)
    return sorted(added & indexed)
