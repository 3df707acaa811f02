"""What the names of a program refer to: classes, functions, turns, scopes.

The loader builds one `Scope` per file (its definitions, plus what it imports)
and one `ClassInfo` per class-like definition; the checker resolves every name
through them. Built-in classes (Tile, Group, ...) are ClassInfos without a
definition.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tgpl.frontend import ast
from tgpl.frontend.types import Type


@dataclass(eq=False)
class ClassInfo:
    name: str
    kind: str  # class | interactable | stack | board | tile | connection | event | group
    visibility: str = "local"
    defn: ast.ClassDef | None = None
    scope: Scope | None = None  # the scope of the file that defines it
    base: ClassInfo | None = None
    attributes: dict[str, ast.Attribute] = field(default_factory=dict)
    attribute_types: dict[str, Type] = field(default_factory=dict)
    functions: dict[str, FunctionInfo] = field(default_factory=dict)
    actions: dict[str, ast.ActionDef] = field(default_factory=dict)
    groups: dict[str, ast.GroupDef] = field(default_factory=dict)
    deck_item: Type | None = None  # the `returns` type of a stack (deck)

    @property
    def builtin(self) -> bool:
        return self.defn is None

    def ancestors(self):
        """self, then its base classes, nearest first (stops on a cycle)."""
        seen: set[int] = set()
        info: ClassInfo | None = self
        while info is not None and id(info) not in seen:
            seen.add(id(info))
            yield info
            info = info.base

    def derives_from(self, other: ClassInfo) -> bool:
        return any(a is other for a in self.ancestors())

    def secrecy(self, attr: str) -> str | None:
        """`private` or `hidden` where the attribute is written so in the class or the nearest base declaring it
        (decision 94), else None."""
        for info in self.ancestors():
            for a in (info.defn.attributes if info.defn is not None else []):
                if a.name == attr:
                    return a.secrecy.kind if a.secrecy is not None else None
        return None

    @property
    def owner_secrecy(self) -> str | None:
        """`private` or `hidden` when the class (or a base) is written so: who owns one of its objects is seen by
        its owners only, or by nobody (decision 94)."""
        for info in self.ancestors():
            if info.defn is not None and info.defn.secrecy is not None:
                return info.defn.secrecy.kind
        return None

    def private_action(self, name: str) -> bool:
        """Whether the action `name` is written `private` here or in a base: its moves' inputs are the mover's
        to read (decision 94)."""
        return any(a.name == name and a.secrecy is not None
                   for info in self.ancestors() for a in (info.defn.actions if info.defn is not None else []))

    def find_attribute(self, name: str) -> tuple[ClassInfo, Type] | None:
        for info in self.ancestors():
            if name in info.attribute_types:
                return info, info.attribute_types[name]
        return None

    def find_function(self, name: str) -> FunctionInfo | None:
        for info in self.ancestors():
            if name in info.functions:
                return info.functions[name]
        return None

    def find_action(self, name: str) -> tuple[ClassInfo, ast.ActionDef] | None:
        for info in self.ancestors():
            if name in info.actions:
                return info, info.actions[name]
        return None

    def find_group(self, name: str) -> ast.GroupDef | None:
        for info in self.ancestors():
            if name in info.groups:
                return info.groups[name]
        return None

    def member_names(self) -> set[str]:
        names: set[str] = set()
        for info in self.ancestors():
            names |= info.attribute_types.keys() | info.functions.keys() | info.actions.keys() | info.groups.keys()
        return names


@dataclass(eq=False)
class FunctionInfo:
    defn: ast.FunctionDef
    scope: Scope
    owner: ClassInfo | None = None

    @property
    def name(self) -> str:
        return self.defn.name


@dataclass(eq=False)
class TurnInfo:
    defn: ast.TurnDef
    scope: Scope

    @property
    def phases(self) -> dict[str, ast.PhaseDef]:
        return {p.name: p for p in self.defn.phases}


@dataclass(eq=False)
class Scope:
    """The names visible at the top level of one file."""

    file: str
    names: dict[str, object] = field(default_factory=dict)  # ClassInfo | FunctionInfo | TurnInfo | Scope
    own: dict[str, object] = field(default_factory=dict)  # defined in this file

    def lookup(self, dotted: str):
        """Resolve `A.B.C` through import aliases; None when unknown."""
        head, *rest = dotted.split(".")
        found = self.names.get(head)
        for part in rest:
            if not isinstance(found, Scope):
                return None
            found = found.names.get(part)
        return found
