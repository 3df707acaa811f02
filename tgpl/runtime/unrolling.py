"""A counted loop spelled out value by value (`codegen.BlockGenerator.unrolled`) on the Python
syntax tree of its body, never its text: the body's generated lines parsed (the generator's markers
read as names of their own), each copy the tree with the counter and its int (`for _j, x in ...`)
replaced as names by their literals (never inside a string, nor a longer name) and each `break`
preceded by the steps it gives back, then written out (`ast.unparse`); Python's compiler folds what
becomes constant (`3 + 1`). The safe spellings of reads that a later pass finds by their text
(`BlockGenerator.generate`'s optimistic spellings) are parsed as names and written back as they were.
"""

from __future__ import annotations

import ast as py
import functools
import math
import re
from dataclasses import dataclass

# The generator's markers (`codegen._local`, `_THIS`, `_EVENT`, `_RETURNED`), no Python names, are
# parsed as names of `_PREFIX`; text that holds one of those already is left alone.
_MARKER = re.compile("\x00(L\\d+\x00|[TER])")
_PREFIX = "__tgpl_"
_KEPT = re.compile(f"{_PREFIX}V(\\d+)\\b")


def marker_name(code: str) -> str:
    """`code` with its markers as the names they are parsed as."""
    return _MARKER.sub(lambda m: _PREFIX + m.group(1).rstrip("\x00"), code)


def _marker(name: str) -> str:
    """The marker parsed as the name `name`."""
    rest = name[len(_PREFIX):]
    return "\x00" + rest + ("\x00" if rest.startswith("L") else "")


@functools.lru_cache(maxsize=256)  # a game loaded again spells the same loops (`codegen._COMPILED`)
def spell(lines: tuple[str, ...], depth: int, counter: str, index: str | None, values: tuple,
          views: tuple[str, ...], verbatim: tuple[str, ...], most: int) -> tuple[str, ...] | None:
    """The loop's body `lines` (at `depth + 1`) over the `values` of `counter` (a marker) and its
    int `index`, spelled out in a one-pass loop when the loop's steps stay within the limit, each
    `break` giving back those it skips; twice where the copies test one of the flat `views` and
    twice their lines are at most `most`, each `if` on it replaced by the branch it takes. None
    where the body has other `break`s than the loop's, or a `continue`."""
    body = parse(lines, 4 * (depth + 1), counter, index, verbatim)
    breaks = None if body is None else own_breaks(body.tree)
    if breaks is None:
        return None
    n, pad, name = len(values), "    " * depth, marker_name(counter)
    quick = [f"{pad}if m.steps + {n} <= SL:", f"{pad}    m.steps += {n}"]
    view = next((v for v in views if any(isinstance(s, py.If) and isinstance(s.test, py.Name) and s.test.id == v
                                         for s in body.tree)), None)
    if view is not None and 2 * (n * len(lines) + (0 if body.read_only else n) + breaks * (n - 1)) <= most \
            and not stored(body.tree, view):
        for truth in (True, False):
            quick += [f"{pad}    {'if ' + view if truth else 'else'}:", f"{pad}        for _once in (None,):",
                      *unparse(spelled_out(body, name, index, values, (view, truth)), len(pad) + 12, body.kept)]
    else:
        quick += [f"{pad}    for _once in (None,):", *unparse(spelled_out(body, name, index, values), len(pad) + 8, body.kept)]
    return tuple(quick)


@dataclass
class Body:
    """A loop's body as Python parses it (`text`, `tree`), with the spellings kept as they are
    (`kept`, each parsed as the name `__tgpl_V<i>`), and whether it only reads its counter."""

    text: str
    tree: list[py.stmt]
    kept: list[str]
    read_only: bool


def parse(lines: tuple[str, ...], indent: int, counter: str, index: str | None, verbatim: tuple[str, ...] = ()) -> Body | None:
    """The body `lines` (indented by `indent` spaces or more) of the loop over `counter` and its int
    `index`, each of `verbatim` (the outer first where they nest) that names neither kept as it is;
    None where Python's parser does not take it (nested too deep) or a name could be a marker's."""
    for read_only in (True, False):
        text = "\n".join(line[indent:] for line in lines)
        if _PREFIX in text:
            return None
        names = [n for n in (counter if read_only else None, index) if n is not None]
        kept: list[str] = []
        for spelling in verbatim:
            if spelling in text and not any(re.search(rf"(?<!\w){re.escape(n)}(?!\w)", spelling) for n in names):
                text = text.replace(spelling, f"{_PREFIX}V{len(kept)}")
                kept.append(spelling)
        text = marker_name(text)
        try:
            tree = py.parse(text).body
        except (SyntaxError, RecursionError):
            return None
        if not read_only or not stored(tree, marker_name(counter)):
            return Body(text, tree, kept, read_only)
    return None


def unparse(stmts: list[py.stmt], indent: int, kept: list[str] = ()) -> list[str]:
    """`stmts` (their markers back, `spelled_out`) as lines indented by `indent` spaces, the
    `kept` spellings back."""
    text = py.unparse(py.Module(body=stmts, type_ignores=[]))
    text = _KEPT.sub(lambda m: kept[int(m.group(1))], text) if kept else text
    return [" " * indent + line for line in text.splitlines()]


def literal(value: float) -> py.expr:
    """`value` as an expression: a negative one as a negation, which `unparse` parenthesises where
    it must (a negative constant it would not: `-1.0 ** 2`)."""
    if value < 0 or math.copysign(1.0, value) < 0:
        return py.UnaryOp(py.USub(), py.Constant(-value))
    return py.Constant(value)


def stored(stmts: list[py.stmt], name: str) -> bool:
    """Whether `stmts` assign, delete or declare the name `name` anywhere."""
    return any(isinstance(n, py.Name) and n.id == name and not isinstance(n.ctx, py.Load)
               or isinstance(n, (py.Global, py.Nonlocal)) and name in n.names for s in stmts for n in py.walk(s))


def own_breaks(stmts: list[py.stmt]) -> int | None:
    """The `break`s of `stmts`, when each is one of the loop whose body they are (none sits in a
    Python loop of theirs) and nothing `continue`s; else None."""
    nodes = [n for s in stmts for n in py.walk(s)]
    if any(isinstance(n, py.Continue) or isinstance(n, (py.For, py.While)) and any(
            isinstance(inner, py.Break) for inner in py.walk(n)) for n in nodes):
        return None
    return sum(isinstance(n, py.Break) for n in nodes)


def spelled_out(body: Body, counter: str, index: str | None, values: tuple,
                branch: tuple[str, bool] | None = None) -> list[py.stmt]:
    """`body` once per value of the loop's `counter` (its name) and of its int `index`, markers
    back, each `break` giving back the steps of the values it skips first (`m.steps -= 2`). The
    counter is read as its literal where the body only reads it (as it should: the loop's body
    never assigns it, `codegen.BlockGenerator.counted`), else set before each copy. With a
    `branch` (a name, a truth), each `if name:` (and its `else`), however nested, is replaced by
    the branch that the truth takes (a `pass` where that is empty)."""
    out: list[py.stmt] = []
    for k, value in enumerate(values):
        literals = {counter: value} if body.read_only else {}
        if not body.read_only:
            out.append(py.Assign([py.Name(_marker(counter), py.Store())], literal(value), lineno=0))
        if index is not None:
            literals[index] = int(value)
        left = len(values) - 1 - k

        class Copy(py.NodeTransformer):
            def visit_Name(self, node: py.Name) -> py.expr:
                if node.id in literals and isinstance(node.ctx, py.Load):
                    return literal(literals[node.id])
                if node.id.startswith(_PREFIX) and not _KEPT.fullmatch(node.id):
                    node.id = _marker(node.id)
                return node

            def visit_Break(self, node: py.Break) -> py.stmt | list[py.stmt]:
                return py.parse(f"m.steps -= {left}").body + [node] if left else node

            def visit_If(self, node: py.If) -> py.stmt | list[py.stmt]:
                self.generic_visit(node)
                if branch is None or not (isinstance(node.test, py.Name) and node.test.id == branch[0]):
                    return node
                return (node.body if branch[1] else node.orelse) or [py.Pass()]

        out += Copy().visit(py.parse(body.text)).body  # a tree of its own: parsing is quicker than a copy
    return out
