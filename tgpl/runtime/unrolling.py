"""A counted loop spelled out value by value, on the Python syntax tree of its body.

`codegen.BlockGenerator.unrolled` spells a counted loop whose body may end it early (Tris's win
check) once per value of its counter. The body's generated lines are parsed once (the generator's
markers for locals, `this`, the event and a returned value read as names of their own), each copy
is the tree with the counter and its int (`for _j, x in ...`) replaced by their literals and each
`break` preceded by the steps it gives back, and only the copies are written out again (`unparse`).
Python's compiler folds what becomes constant (`3 + 1`). Nothing is matched in the text: a name
inside a string, or one name the start of another, is never taken for the counter.
"""

from __future__ import annotations

import ast as py
import copy
import math
import re

# The generator's markers (`codegen._local`, `_THIS`, `_EVENT`, `_RETURNED`), no Python names, are
# parsed as names of `_PREFIX`; text that holds one of those already is left alone.
_MARKER = re.compile("\x00(L\\d+\x00|[TER])")
_PREFIX = "__tgpl_"


def marker_name(code: str) -> str:
    """`code` with its markers as the names they are parsed as."""
    return _MARKER.sub(lambda m: _PREFIX + m.group(1).rstrip("\x00"), code)


def parse(lines: list[str], indent: int) -> list[py.stmt] | None:
    """The statements of `lines` (generated, each indented by at least `indent` spaces); None
    where Python's parser does not take them (nested too deep) or a name could be a marker's."""
    text = "\n".join(line[indent:] for line in lines)
    try:
        return None if _PREFIX in text else py.parse(marker_name(text)).body
    except (SyntaxError, RecursionError):
        return None


def unparse(stmts: list[py.stmt], indent: int, verbatim: tuple[str, ...] = ()) -> list[str]:
    """`stmts` as lines indented by `indent` spaces, markers back. An expression that one of
    `verbatim` (parenthesised spellings) spells is written as it, the outer one where they nest:
    later passes find it by its text (the optimistic spellings of reads, `BlockGenerator.generate`)."""
    spellings: dict[str, str] = {}
    for text in verbatim:
        try:
            spellings.setdefault(py.dump(py.parse(marker_name(text), mode="eval").body), text)
        except (SyntaxError, RecursionError):
            pass
    kept: list[str] = []

    class Markers(py.NodeTransformer):
        def visit_Name(self, node: py.Name) -> py.Name:
            marker = "\x00" + node.id[len(_PREFIX):] + ("\x00" if node.id.startswith(_PREFIX + "L") else "")
            return py.Name(marker, node.ctx) if node.id.startswith(_PREFIX) else node

        def visit_IfExp(self, node: py.IfExp) -> py.expr:
            text = spellings.get(py.dump(node)) if spellings else None
            if text is None:
                return self.generic_visit(node)
            kept.append(text)
            return py.Name(f"{_PREFIX}V{len(kept) - 1}", py.Load())

    text = py.unparse(Markers().visit(py.Module(body=copy.deepcopy(stmts), type_ignores=[])))
    text = re.sub(f"{_PREFIX}V(\\d+)\\b", lambda m: kept[int(m.group(1))], text) if kept else text
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


def own_breaks(stmts: list[py.stmt]) -> bool:
    """Whether every `break` of `stmts` is one of the loop whose body they are (none sits in a
    Python loop of theirs), and nothing `continue`s."""
    nodes = [n for s in stmts for n in py.walk(s)]
    return not any(isinstance(n, py.Continue) or isinstance(n, (py.For, py.While)) and any(
        isinstance(inner, py.Break) for inner in py.walk(n)) for n in nodes)


def spelled_out(body: list[py.stmt], counter: str, index: str | None, values: tuple) -> tuple[list[py.stmt], int]:
    """`body` once per value of the loop's `counter` (and of its int, `index`), each `break`
    giving back the steps of the values it skips first (`m.steps -= 2`); and the statements
    that added. The counter is read as its literal where the body only reads it (as it should:
    the loop's body never assigns it, `codegen.BlockGenerator.counted`), else set before each."""
    read_only = not stored(body, counter)
    out: list[py.stmt] = []
    for k, value in enumerate(values):
        literals = {counter: value} if read_only else {}
        if not read_only:
            out.append(py.Assign([py.Name(counter, py.Store())], literal(value), lineno=0))
        if index is not None:
            literals[index] = int(value)
        left = len(values) - 1 - k

        class Copy(py.NodeTransformer):
            def visit_Name(self, node: py.Name) -> py.expr:
                return literal(literals[node.id]) if node.id in literals and isinstance(node.ctx, py.Load) else node

            def visit_Break(self, node: py.Break) -> py.stmt | list[py.stmt]:
                return py.parse(f"m.steps -= {left}").body + [node] if left else node

        out += Copy().visit(py.Module(body=copy.deepcopy(body), type_ignores=[])).body
    statements = sum(isinstance(n, py.stmt) for s in out for n in py.walk(s))
    return out, statements - len(values) * sum(isinstance(n, py.stmt) for s in body for n in py.walk(s))


def tests(stmts: list[py.stmt], name: str) -> bool:
    """Whether one of `stmts` (not nested) is `if name:`."""
    return any(isinstance(s, py.If) and isinstance(s.test, py.Name) and s.test.id == name for s in stmts)


def branch_taken(stmts: list[py.stmt], name: str, truth: bool) -> list[py.stmt]:
    """A copy of `stmts` with each `if name:` (and its `else`), however nested, replaced by the
    branch that `truth` takes (a `pass` where that is empty)."""

    class Taken(py.NodeTransformer):
        def visit_If(self, node: py.If) -> py.stmt | list[py.stmt]:
            self.generic_visit(node)
            if isinstance(node.test, py.Name) and node.test.id == name:
                return (node.body if truth else node.orelse) or [py.Pass()]
            return node

    return Taken().visit(py.Module(body=copy.deepcopy(stmts), type_ignores=[])).body
