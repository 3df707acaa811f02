"""The code a game runs, read without running it: what the lowering refuses and where chance enters.

After setup, only actions (their requires, triggers, filters and effects), turns (phases and defaults)
and the functions they call run. Reading that code, calls resolved through the checker's types,
answers questions about every play at once: which built-ins can run during play
(tgpl.lowering.subset), and whether the game draws on its random numbers, in setup or after (a chance
game, `chance_sites`): `tgpl verify` explores the states of one seed, and must say so of its claims.
"""

from __future__ import annotations

from typing import Iterator

from tgpl.builtin_calls import CHANCE  # the built-ins that draw on the game's random numbers
from tgpl.frontend import ast
from tgpl.frontend.diagnostics import Span
from tgpl.frontend.types import CallableType, ClassType


def after_setup_nodes(program) -> Iterator[ast.Node]:
    """Every AST node of the code that can run after setup, each function's body once."""
    code: list = [a for info in program.classes for a in info.actions.values()]
    code += [t.defn for t in program.turns.values()]
    return reachable(program, code)


def reachable(program, code: list) -> Iterator[ast.Node]:
    """Every node of `code` and of the functions it calls, directly or not: a call of a class's function
    may run an override of it in any class derived from that one, so those are read too; and the `default`
    blocks that a `new` runs (the class's and its bases', a board's groups'), which run as their creator
    does (a deck shuffled in its own `default` block shuffles wherever it is made)."""
    types = program.types
    overrides: dict[int, list] = {}  # id(FunctionInfo) -> the functions of derived classes that override it
    for info in program.classes:
        for fi in info.functions.values():
            for base in list(info.ancestors())[1:]:
                found = base.functions.get(fi.name)
                if found is not None:
                    overrides.setdefault(id(found), []).append(fi.defn)
    seen: set[int] = set()
    while code:
        node = code.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        for n in ast.walk(node):
            yield n
            if isinstance(n, ast.Call):
                ct = types.get(id(n.callee))
                if isinstance(ct, CallableType) and ct.kind == "function":
                    code.append(ct.target.defn)
                    code.extend(overrides.get(id(ct.target), ()))
            elif isinstance(n, ast.New):
                code.extend(_defaults_run_by_new(program, n))


def _defaults_run_by_new(program, new: ast.New) -> list[ast.Node]:
    """The blocks `new` runs beyond attribute values: the `default` of the class and of each base, and the
    `default` of each group of a board (tgpl.runtime.machine, `new_object`)."""
    t = program.types.get(id(new))
    if not isinstance(t, ClassType):
        return []
    blocks: list[ast.Node] = []
    for info in t.info.ancestors():
        if info.defn is None:
            continue
        for member in info.defn.members:
            if isinstance(member, ast.Default):
                blocks.append(member)
            elif isinstance(member, ast.GroupDef) and member.default is not None:
                blocks.append(member.default)
    return blocks


def chance_sites(program) -> list[Span]:
    """Where the game draws on its random numbers (shuffles, reshuffles, rolls), in setup or during play,
    in the code they run and in the `default` blocks that objects they make run (in source order): a game
    with any is a chance game, whose states depend on the seed."""
    code: list = [i for m in program.modules for i in m.items if isinstance(i, ast.SetupDef)]
    code += [a for info in program.classes for a in info.actions.values()]
    code += [t.defn for t in program.turns.values()]
    found = {}
    for n in reachable(program, code):
        if isinstance(n, ast.Call):
            ct = program.types.get(id(n.callee))
            if isinstance(ct, CallableType) and ct.kind == "builtin" and ct.name in CHANCE:
                found[(n.span.file, n.span.line, n.span.col)] = n.span
    return [found[k] for k in sorted(found)]


def chance_site_texts(program) -> list[str]:
    """`chance_sites` as `file:line:col`, as verify, analyze and to-gdl name them."""
    return [f"{s.file}:{s.line}:{s.col}" for s in chance_sites(program)]


__all__ = ["CHANCE", "after_setup_nodes", "chance_site_texts", "chance_sites"]
