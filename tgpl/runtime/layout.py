"""The slots of one callable's locals, given out as the compiler (`tgpl.runtime.compiler`), the
code generator and the inlining of calls (`tgpl.runtime.inlining`) meet declarations."""

from __future__ import annotations

from tgpl.frontend.types import ANY, Type


class LocalCode(str):
    """The code of a local as the generator gives it (`codegen.BlockGenerator.local`): `v[slot]`
    or `l<slot>`, or the Python name of a local of a call inline. Code built around it is a plain
    `str`, so the type tells a bare read of a local from any other expression, with no look at
    the text (`inlining.inline_call` reads such an argument where the body reads the input)."""

    __slots__ = ()


class Layout:
    """Compile-time scopes of one callable: each declaration gets its own slot."""

    def __init__(self) -> None:
        self.scopes: list[dict[str, int]] = [{}]
        self.size = 0
        self.types: dict[int, Type] = {}  # slot -> declared type (assignments map players, concatenate)

    def declare(self, name: str, t: Type = ANY) -> int:
        slot = self.size
        self.size += 1
        self.scopes[-1][name] = slot
        self.types[slot] = t
        return slot

    def lookup(self, name: str) -> int | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def push(self) -> None:
        self.scopes.append({})

    def in_scope(self) -> tuple[int, ...]:
        """The slots of every local declared and in scope here (shadowed ones too)."""
        return tuple(sorted(slot for scope in self.scopes for slot in scope.values()))

    def pop(self) -> None:
        self.scopes.pop()
