"""Loads a game: the game file, every file it imports, their scopes, then checks.

Imports are resolved relative to the importing file. `import "f" as N` puts
f's definitions under `N.`; a plain import merges them into the importer's
scope, where a clash with another definition is an error. A file imported
from several places is parsed once; an import cycle is an error.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from tgpl.frontend import ast
from tgpl.frontend.diagnostics import Diagnostic, Diagnostics, Span
from tgpl.frontend.parser import parse_text
from tgpl.frontend.sources import MAX_SOURCE_BYTES, UnreadableFile, read_source
from tgpl.frontend.symbols import ClassInfo, FunctionInfo, Scope, TurnInfo


@dataclass
class Program:
    """A loaded game: its modules, their scopes, and everything found wrong."""

    main: str
    modules: list[ast.Module] = field(default_factory=list)  # imported files first, game file last
    sources: dict[str, str] = field(default_factory=dict)
    scopes: dict[str, Scope] = field(default_factory=dict)
    classes: list[ClassInfo] = field(default_factory=list)
    functions: list[FunctionInfo] = field(default_factory=list)
    turns: dict[str, TurnInfo] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # What the checker learned about expressions, keyed by id(node): their static
    # types, and which bare names are members of `this`.
    types: dict[int, object] = field(default_factory=dict)
    implicit_this: set[int] = field(default_factory=set)
    # the class of `this` where each of those names is read (its ClassInfo): the objects the name can be read of
    this_class: dict[int, ClassInfo] = field(default_factory=dict)
    builtins: object = None  # the checker's BuiltinClasses, the bases of user tiles and events
    player_range: range | None = None  # the player counts `players` allows, once checked

    @property
    def ok(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)

    @property
    def main_module(self) -> ast.Module | None:
        return next((m for m in self.modules if m.path == self.main), None)


def display_path(path: Path, base: str | None = None) -> str:
    """Paths in diagnostics: relative to the working directory (or `base`, standing for it)."""
    try:
        return os.path.relpath(path, base)
    except ValueError:  # another drive on Windows
        return str(path)


class _Loader:
    def __init__(self, diags: Diagnostics, files: dict[str, str] | None = None, base: str | None = None,
                 transform=None):
        self.diags = diags
        self.transform = transform  # ast.Module -> None, applied to each module parsed, before the checker
        self.files = files or {}  # resolved path -> text, read instead of the disk
        self.base = base
        self.program: Program | None = None
        self.done: dict[Path, Scope] = {}
        self.stack: list[Path] = []
        self.exports: dict[Path, dict[str, object]] = {}

    def load(self, path: Path, from_span: Span | None, text: str | None = None) -> dict[str, object] | None:
        """Load path (or the given text standing for it) and its imports; return its exported names."""
        path = _resolve(path)
        if path in self.stack:
            cycle = " -> ".join(display_path(p, self.base) for p in self.stack[self.stack.index(path):] + [path])
            self.diags.error(from_span, f"import cycle: {cycle}")
            return None
        if path in self.exports:
            return self.exports[path]
        name = display_path(path, self.base)
        try:
            if text is None:
                text = self.files.get(str(path))
            if text is None:
                text = read_source(path)  # an editor's BOM is no character
        except UnreadableFile as e:
            name = name.replace("\0", "\\0")
            if from_span is None:
                self.diags.error(Span(name, 1, 1, 1, 1), f"cannot read '{name}': {e.reason}")
            else:
                self.diags.error(from_span, f"cannot import '{name}': {e.reason}")
            return None
        if len(text) > MAX_SOURCE_BYTES:  # text given by the caller (an editor, `tgpl query`)
            self.diags.error(from_span or Span(name, 1, 1, 1, 1),
                             f"'{name}' is too large: more than {MAX_SOURCE_BYTES:,} characters")
            return None
        assert self.program is not None
        self.program.sources[name] = text
        result = parse_text(text, name)
        self.diags.extend(result.diagnostics)
        module = result.module or ast.Module(name, [], complete=False)
        if self.transform is not None and result.module is not None:
            self.transform(module)
        scope = Scope(name)
        self.program.scopes[name] = scope
        self.stack.append(path)
        imported: list[tuple[ast.ImportDirective, dict[str, object]]] = []
        for imp in module.imports:
            target = path.parent / imp.path
            names = self.load(target, imp.path_span)
            if names is not None:
                imported.append((imp, names))
        self.stack.pop()
        self.program.modules.append(module)
        self._define(module, scope)
        for imp, names in imported:
            self._bring(scope, imp, names)
        exports = dict(scope.own)
        for imp, names in imported:
            if imp.alias is None:
                for key, value in names.items():
                    exports.setdefault(key, value)
        self.exports[path] = exports
        return exports

    def _define(self, module: ast.Module, scope: Scope) -> None:
        assert self.program is not None
        for item in module.definitions:
            previous = scope.own.get(item.name)
            if previous is not None:
                where = _span_of(previous)
                self.diags.error(item.name_span, f"duplicate definition of '{item.name}'", f"first defined at {where}")
                continue
            if isinstance(item, ast.ClassDef):
                symbol: object = ClassInfo(item.name, item.kind, item.visibility or "local", item, scope)
                self.program.classes.append(symbol)
            elif isinstance(item, ast.FunctionDef):
                symbol = FunctionInfo(item, scope)
                self.program.functions.append(symbol)
            else:
                symbol = TurnInfo(item, scope)
                if item.name in self.program.turns:
                    self.diags.error(
                        item.name_span, f"duplicate turn '{item.name}'",
                        f"first defined at {self.program.turns[item.name].defn.name_span}",
                    )
                else:
                    self.program.turns[item.name] = symbol
            scope.own[item.name] = symbol
            scope.names[item.name] = symbol

    def _bring(self, scope: Scope, imp: ast.ImportDirective, names: dict[str, object]) -> None:
        if imp.alias is not None:
            ns = Scope(imp.path, dict(names), dict(names))
            if imp.alias in scope.names:
                self.diags.error(imp.span, f"import alias '{imp.alias}' clashes with the definition at {_span_of(scope.names[imp.alias])}")
                return
            scope.names[imp.alias] = ns
            return
        for key, value in names.items():
            existing = scope.names.get(key)
            if existing is None:
                scope.names[key] = value
            elif existing is not value:
                self.diags.error(
                    imp.span,
                    f"'{key}' from '{imp.path}' clashes with the definition at {_span_of(existing)}",
                    f"import it with 'as' to keep both: import \"{imp.path}\" as Name;",
                )


def _resolve(path: Path) -> Path:
    """The absolute, resolved path; as written when it cannot be resolved (a NUL byte)."""
    try:
        return path.resolve()
    except (OSError, ValueError, RuntimeError):
        return Path(os.path.abspath(path))


def _span_of(symbol: object) -> str:
    if isinstance(symbol, ClassInfo) and symbol.defn is not None:
        return str(symbol.defn.name_span)
    if isinstance(symbol, (FunctionInfo, TurnInfo)):
        return str(symbol.defn.name_span)
    if isinstance(symbol, Scope):
        return f"the import of {symbol.file}"
    return "?"


def load_program(path: str | os.PathLike, check: bool = True, text: str | None = None,
                 files: dict[str, str] | None = None, base: str | None = None, transform=None) -> Program:
    """Parse the game file and its imports, then run the checker on all of it.

    `text`, when given, is the game file's content (editors and tests check
    unsaved text this way); imports are still read from disk next to `path`.
    `files` (resolved path -> text) and `base` (the working directory names are
    relative to) load a game on another machine, one without the files or with
    another working directory (`tgpl analyze --ray`), as it loaded here: the
    same texts under the same names, so its messages are the same bytes.
    `transform(module)`, when given, rewrites each parsed module in place before
    the checker sees it (the lowering's flood rewrite, tgpl.lowering.floods).
    """
    diags = Diagnostics()
    loader = _Loader(diags, files, base, transform)
    program = Program(display_path(_resolve(Path(path)), base))
    loader.program = program
    loader.load(Path(path), None, text)
    if check and program.modules:
        from tgpl.frontend.checker import check_program

        check_program(program, diags)
    program.diagnostics = diags.sorted()
    return program
