"""The static types the checker reasons with.

Types are immutable values. `ANY` stands for "unknown" (after an earlier
error, or where TGPL gives no type) and is compatible with everything, so one
mistake is reported once instead of cascading.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tgpl.frontend.symbols import ClassInfo


class Type:
    def describe(self) -> str:
        return str(self)


@dataclass(frozen=True, slots=True)
class Prim(Type):
    name: str  # number | string | bool | player

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Special(Type):
    name: str  # null | void | any

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Collection(Type):
    kind: str  # List | Table | Stack
    elem: Type

    def __str__(self) -> str:
        return f"{self.kind}<{self.elem}>"


@dataclass(frozen=True, eq=False, slots=True)
class ClassType(Type):
    info: ClassInfo

    def __eq__(self, other) -> bool:
        return isinstance(other, ClassType) and other.info is self.info

    def __hash__(self) -> int:
        return id(self.info)

    def __str__(self) -> str:
        return self.info.name


@dataclass(frozen=True, slots=True)
class Namespace(Type):
    """A name that is not a value: a built-in namespace (`turn`), an import alias."""

    name: str

    def __str__(self) -> str:
        return f"namespace {self.name}"


@dataclass(frozen=True, slots=True)
class ClassRef(Type):
    """A (non-global) class used where a value is expected."""

    info: ClassInfo

    def __str__(self) -> str:
        return f"class {self.info.name}"


NUMBER = Prim("number")
STRING = Prim("string")
BOOL = Prim("bool")
PLAYER = Prim("player")
NULL = Special("null")
VOID = Special("void")
ANY = Special("any")

PRIMITIVES = {"number": NUMBER, "string": STRING, "bool": BOOL, "player": PLAYER}


def list_of(t: Type) -> Collection:
    return Collection("List", t)


def is_any(t: Type) -> bool:
    return t is ANY or t == ANY


def is_numeric(t: Type) -> bool:
    return t in (NUMBER, PLAYER) or is_any(t)


def assignable(src: Type, dst: Type) -> bool:
    """Can a value of type src be stored where dst is declared?"""
    if is_any(src) or is_any(dst) or src == dst:
        return True
    if src == NULL:
        return dst != VOID
    if src in (NUMBER, PLAYER) and dst in (NUMBER, PLAYER):
        return True  # player expressions (3.2.4): numbers map onto players
    if isinstance(src, ClassType) and isinstance(dst, ClassType):
        return src.info.derives_from(dst.info)
    if isinstance(dst, Collection):
        if isinstance(src, Collection) and src.kind == dst.kind:
            return assignable(src.elem, dst.elem)
        if isinstance(src, ClassType) and dst.kind == "Stack" and src.info.deck_item is not None:
            return assignable(src.info.deck_item, dst.elem)
    return False


def castable(src: Type, dst: Type) -> bool:
    """May `src as dst` ever succeed (up- or downcast, 3.11.1)?"""
    if assignable(src, dst) or assignable(dst, src):
        return True
    if isinstance(src, Collection) and isinstance(dst, Collection) and src.kind == dst.kind:
        return castable(src.elem, dst.elem)
    return False


def comparable(a: Type, b: Type) -> bool:
    """Operands of == and != must have the same type (3.2.4), up to conversions."""
    return assignable(a, b) or assignable(b, a)


@dataclass(frozen=True, eq=False, slots=True)
class CallableType(Type):
    """A function, action or built-in operation named but not yet called."""

    name: str
    kind: str  # function | action | builtin
    target: object  # FunctionInfo | ActionDef | Signature

    def __str__(self) -> str:
        return f"{self.kind} {self.name}"
