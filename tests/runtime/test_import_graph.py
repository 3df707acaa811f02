"""The modules of `tgpl.runtime` import one another without a cycle: each can be read, changed and
tested above the ones it imports. The graph is read from the source (`ast`), so an import inside a
function, which hides a cycle from Python's import system until it runs, counts as any other, and
so does one under `if TYPE_CHECKING:`: it never runs, but a module that names a class of a module
above it in its annotations depends on it all the same (what it needs of one, it takes as a
`Protocol` or a function passed in). No module imports anything inside a function.

The runtime's clients live outside it and above it: games played (`tgpl.play`: agents, records, the
text view) and the runtime as verify's state machine (`tgpl.verify`). No module of the runtime
imports them, so the runtime can be read and changed without them."""

from __future__ import annotations

import ast
from pathlib import Path

import tgpl.runtime

PACKAGE = Path(tgpl.runtime.__file__).resolve().parent
MODULES = {p.stem for p in PACKAGE.glob("*.py")}


def _imported(node: ast.AST) -> set[str]:
    """The modules of the package that one import statement imports."""
    found: set[str] = set()
    if isinstance(node, ast.ImportFrom):
        module = node.module or ""
        if node.level == 1:
            parts = module.split(".") if module else []
        elif module.startswith("tgpl.runtime"):
            parts = module.split(".")[2:]
        else:
            return found
        if parts:
            found.add(parts[0])
        else:  # `from tgpl.runtime import codegen, listing`
            found.update(alias.name for alias in node.names)
    elif isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name.startswith("tgpl.runtime."):
                found.add(alias.name.split(".")[2])
    return found & MODULES


def imports(source: str) -> tuple[set[str], set[str]]:
    """(every module of the package that `source` imports, the modules of any package it imports
    inside a function)."""
    every: set[str] = set()
    local: set[str] = set()

    def walk(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            every.update(_imported(child))
            if inner and isinstance(child, ast.Import):
                local.update(alias.name for alias in child.names)
            elif inner and isinstance(child, ast.ImportFrom):
                local.add("." * child.level + (child.module or ""))
            walk(child, inner)

    walk(ast.parse(source), False)
    return every, local


# The packages of the runtime's clients: nothing in tgpl.runtime may import them.
CLIENTS = ("tgpl.play", "tgpl.verify")


def packages(source: str) -> set[str]:
    """The modules outside `tgpl.runtime` that `source` imports by their absolute name, anywhere
    (inside a function or under `if TYPE_CHECKING:` too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if not name.startswith("tgpl.runtime")}


def clients_imported(source: str) -> set[str]:
    """The modules of the runtime's clients (`CLIENTS`) that `source` imports."""
    return {name for name in packages(source)
            if any(name == client or name.startswith(client + ".") for client in CLIENTS)}


def graph() -> dict[str, set[str]]:
    return {name: imports((PACKAGE / f"{name}.py").read_text(encoding="utf-8"))[0] - {name} for name in MODULES}


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """A cycle of `edges` (its modules in import order, the first repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = 1
        path.append(name)
        for target in sorted(edges.get(name, ())):
            if state.get(target) == 1:
                return path[path.index(target):] + [target]
            if target not in state:
                found = visit(target)
                if found is not None:
                    return found
        path.pop()
        state[name] = 2
        return None

    for name in sorted(edges):
        if name not in state:
            found = visit(name)
            if found is not None:
                return found
    return None


def test_the_runtime_imports_no_module_that_imports_it_back():
    assert cycle(graph()) is None, " -> ".join(cycle(graph()))


def test_no_module_of_the_runtime_imports_inside_a_function():
    hidden = {name: local for name in MODULES
              if (local := imports((PACKAGE / f"{name}.py").read_text(encoding="utf-8"))[1])}
    assert hidden == {}


def test_the_runtime_imports_none_of_its_clients():
    found = {name: used for name in MODULES
             if (used := clients_imported((PACKAGE / f"{name}.py").read_text(encoding="utf-8")))}
    assert found == {}


def test_the_check_of_clients_sees_every_spelling_of_an_import():
    assert clients_imported("from tgpl.play.agents import RandomAgent\n") == {
        "tgpl.play.agents", "tgpl.play.agents.RandomAgent"}
    assert clients_imported("import tgpl.verify.runtime_machine as rm\n") == {"tgpl.verify.runtime_machine"}
    assert clients_imported("from tgpl import play\n") == {"tgpl.play"}
    hidden = "def f():\n    from tgpl.verify import stored\n    return stored\n"
    assert clients_imported(hidden) == {"tgpl.verify", "tgpl.verify.stored"}
    assert clients_imported("from tgpl.frontend import ast\nfrom tgpl.runtime.game import State\n") == set()
    assert clients_imported("from tgpl.player import x\nimport tgpl.verifying\n") == set()


def test_the_check_sees_imports_inside_functions_and_for_annotations():
    hidden = "def f():\n    from tgpl.runtime.codegen import x\n    import tgpl.serve.views\n    return x\n"
    assert imports(hidden) == ({"codegen"}, {"tgpl.runtime.codegen", "tgpl.serve.views"})
    assert imports("from tgpl.runtime import machine, values\n") == ({"machine", "values"}, set())
    assert imports("from . import machine\nfrom .values import Obj\n") == ({"machine", "values"}, set())
    typed = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from tgpl.runtime.codegen import x\n"
    assert imports(typed) == ({"codegen"}, set())
    assert cycle({"machine": {"codegen"}, "codegen": {"values"}, "values": {"machine"}}) == [
        "codegen", "values", "machine", "codegen"]
    assert cycle({"machine": {"codegen"}, "codegen": {"values"}, "values": set()}) is None
