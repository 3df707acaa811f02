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

# The generator's markers (`codegen._local`, `_THIS`, `_EVENT`, `_RETURNED`), which are no Python
# names, and the names they are parsed as; text holding such a name already is not parsed.
_MARKER = re.compile("\x00(?:L(\\d+)\x00|([TER]))")
_PREFIX = "__tgpl_"


def _name(marker: re.Match) -> str:
    slot, other = marker.groups()
    return f"{_PREFIX}L{slot}" if slot is not None else _PREFIX + other


def _marker(name: str) -> str:
    rest = name[len(_PREFIX):]
    return f"\x00{rest}\x00" if rest.startswith("L") else "\x00" + rest


def parse(lines: list[str], indent: int) -> list[py.stmt] | None:
    """The statements of `lines` (generated, each indented by at least `indent` spaces), markers
    read as names; None where Python's parser does not take them (nested too deep) or a name
    could be mistaken for a marker."""
    text = "\n".join(line[indent:] for line in lines)
    if _PREFIX in text:
        return None
    try:
        return py.parse(_MARKER.sub(_name, text)).body
    except (SyntaxError, RecursionError):
        return None


def unparse(stmts: list[py.stmt], indent: int, verbatim: tuple[str, ...] = ()) -> list[str]:
    """`stmts` written out as lines indented by `indent` spaces, their markers back. An
    expression that one of `verbatim` (parenthesised spellings, markers and all) spells is written
    as that spelling, the outer one where they nest: later passes find it by its text (the
    optimistic spellings of reads, `codegen.BlockGenerator.generate`)."""
    spellings: dict[str, str] = {}
    for text in verbatim:
        try:
            spellings.setdefault(py.dump(py.parse(_MARKER.sub(_name, text), mode="eval").body), text)
        except (SyntaxError, RecursionError):
            pass
    kept: list[str] = []

    class Markers(py.NodeTransformer):
        def visit_Name(self, node: py.Name) -> py.Name:
            return py.Name(_marker(node.id), node.ctx) if node.id.startswith(_PREFIX) else node

        def visit_IfExp(self, node: py.IfExp) -> py.expr:
            text = spellings.get(py.dump(node)) if spellings else None
            if text is None:
                return self.generic_visit(node)
            kept.append(text)
            return py.Name(f"{_PREFIX}V{len(kept) - 1}", py.Load())

    tree = Markers().visit(py.Module(body=copy.deepcopy(stmts), type_ignores=[]))
    text = py.unparse(tree)
    if kept:
        text = re.sub(f"{_PREFIX}V(\\d+)\\b", lambda m: kept[int(m.group(1))], text)
    return [" " * indent + line for line in text.splitlines()]


def marker_name(code: str) -> str:
    """The name a marker (`codegen._local`'s) or a Python name is parsed as."""
    return _MARKER.sub(_name, code)


def literal(value: float) -> py.expr:
    """`value` as an expression: a negative one as a negation, which `unparse` parenthesises where
    it must (a negative constant it would not: `-1.0 ** 2`)."""
    if value < 0 or math.copysign(1.0, value) < 0:
        return py.UnaryOp(py.USub(), py.Constant(-value))
    return py.Constant(value)


def setting(name: str, value: float) -> py.stmt:
    """`name = value`."""
    return py.Assign([py.Name(name, py.Store())], literal(value), lineno=0)


def stored(stmts: list[py.stmt], name: str) -> bool:
    """Whether `stmts` assign, delete or declare the name `name` anywhere."""
    for node in (n for s in stmts for n in py.walk(s)):
        if isinstance(node, py.Name) and node.id == name and not isinstance(node.ctx, py.Load):
            return True
        if isinstance(node, (py.Global, py.Nonlocal)) and name in node.names:
            return True
    return False


def own_breaks(stmts: list[py.stmt]) -> int | None:
    """The `break`s of the loop whose body is `stmts`, when every `break` is one (none sits in
    a Python loop of the body) and nothing `continue`s; else None."""
    nodes = [n for s in stmts for n in py.walk(s)]
    if any(isinstance(n, py.Continue) for n in nodes) or any(
            isinstance(inner, py.Break) for n in nodes if isinstance(n, (py.For, py.While)) for inner in py.walk(n)):
        return None
    return sum(isinstance(n, py.Break) for n in nodes)


def spelled(body: list[py.stmt], literals: dict[str, float], left: int) -> list[py.stmt]:
    """A copy of `body` with each name of `literals` read as its value, and each `break` giving
    back `left` steps first (`m.steps -= left`): those of the values it skips."""

    class Copy(py.NodeTransformer):
        def visit_Name(self, node: py.Name) -> py.expr:
            return literal(literals[node.id]) if node.id in literals and isinstance(node.ctx, py.Load) else node

        def visit_Break(self, node: py.Break) -> py.stmt | list[py.stmt]:
            return py.parse(f"m.steps -= {left}").body + [node] if left else node

    return Copy().visit(py.Module(body=copy.deepcopy(body), type_ignores=[])).body


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
