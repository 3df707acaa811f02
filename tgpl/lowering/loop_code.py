"""What a loop and the functions it calls read and write, found once per loop (issue 34).

The compiled moves ask of a loop several times whether it writes the state, what it writes and with which values,
which names it assigns and which attributes it reads (`compiled.SegmentCompiler.loop_stmt`, `writing_loop`,
`counters_in`, `carrying`, ...), for every way through it and every segment that inlines it. Each question
walked the loop with every function it calls again; `LoopCode` is the answer to all of them, from one walk of its
code (`reachable`) and one of its reads, kept per loop for the compile (`compiled.CompiledGame.loop`).

A function that changes the game is inlined, so its writes are made on every pass as the loop's own: a loop
`while (k < 2) { Bump(x: c); k += 1; }` whose `Bump` steps `x.Marks` was taken for a loop that writes nothing,
and the writes its passes carried back became one view where each pass read the state the loop began with
(Marks 1 where the runtime had 2). A list changed by `add` or `remove` is written as an assignment is
(`compiled_lists.changed_list`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from tgpl.frontend import ast
from tgpl.frontend.after_setup import reachable
from tgpl.lowering.compiled_lists import changed_list


@dataclass(frozen=True)
class LoopCode:
    """A loop `node` with every function it calls, directly or not (overrides and `default` blocks too:
    `reachable`): `writes`, the nodes that write anything but a local (an assignment of an attribute, an item or
    an attribute of `this` by its name; a list's `add` or `remove`); `values`, the value expressions of each
    attribute written (a list's change is its call: no value every pass writes alike, the length moves);
    `names`, the names assigned, declared or taken as inputs (a value written with one may differ from pass to
    pass); `reads`, every attribute name read, by the loop or the functions it calls (a conservative set, by
    name; a local of that name is harmless); `called_reads`, those the functions it calls read."""

    node: ast.Node  # held, so that its id, the key of a memo, is not another node's while the memo lives
    writes: tuple[ast.Node, ...]
    values: dict[str, list]
    names: frozenset[str]
    reads: frozenset[str]
    called_reads: frozenset[str]

    @property
    def writes_state(self) -> bool:
        """Does the loop, or a function it calls, write anything but a local?"""
        return bool(self.writes)


def loop_code(s, program, types: Mapping) -> LoopCode:
    """The facts of loop `s` (`LoopCode`): its code walked once with `program`'s call targets, its reads with
    `types` (a compiler's, which knows the nodes it made too)."""
    implicit = program.implicit_this
    writes: list[ast.Node] = []
    values: dict[str, list] = {}
    names: set[str] = set()
    for n in reachable(program, [s]):
        if isinstance(n, ast.Assign):
            if isinstance(n.target, ast.Name):
                names.add(n.target.name)  # `Captured += 1` of `this` too: its value may differ from pass to pass
            if not isinstance(n.target, ast.Name) or id(n.target) in implicit:
                writes.append(n)
                if isinstance(n.target, ast.Member) or id(n.target) in implicit:
                    values.setdefault(n.target.name, []).append(n.value)
        elif isinstance(n, (ast.VarDecl, ast.InputDecl)):
            names.add(n.name)
        elif (name := changed_list(n, program.types)) is not None:
            writes.append(n)
            values.setdefault(name, []).append(n)
    own, called = _reads(s, types)
    return LoopCode(s, tuple(writes), values, frozenset(names), frozenset(own | called), frozenset(called))


def _reads(s, types: Mapping) -> tuple[set[str], set[str]]:
    """The attribute names loop `s` reads itself, and those the functions it calls read (their bodies,
    transitively, by the call's target in `types`): a name or member that no `=` assigns in its own body."""
    own: set[str] = set()
    called: set[str] = set()
    seen: set[int] = set()
    todo = [s]
    while todo:
        node = todo.pop()
        out = own if node is s else called
        targets = {id(n.target) for n in ast.walk([node]) if isinstance(n, ast.Assign) and n.op == "="}
        for n in ast.walk([node]):
            if isinstance(n, (ast.Member, ast.Name)) and id(n) not in targets:
                out.add(n.name)  # an attribute of `this` read by its name (a local of that name is harmless)
            elif isinstance(n, ast.Call):
                ct = types.get(id(n.callee))
                fi = getattr(ct, "target", None) if getattr(ct, "kind", None) == "function" else None
                defn = getattr(fi, "defn", None)
                if defn is not None and id(defn) not in seen:
                    seen.add(id(defn))
                    todo.append(defn)
    return own, called
