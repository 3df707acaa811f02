"""Which TGPL functions only read: run again from their start, they do the same thing.

A function *reads only* when its body changes nothing but its own locals: it assigns only
locals (no field, no item of a list or table), creates no object, declares no winner, asks
nothing, and calls only functions that read only (every function of the name, for a method: an
override may run) and, of the built-ins, `length`, the methods that only read a list, table or
stack (`Builtin.pure` in `tgpl.builtin_calls`) and the functions that change nothing
(`player.active()`, `player.all()`, `turn.active()`, `turn.phase.active()`). Its inputs are all `function` inputs.

Such a function may be run *optimistically* (`codegen.BlockGenerator.generate`): its scalar
field reads are spelled `D[x.place]['F']`, one lookup each with no test, and the rare read that
needs the machine (a null, a fixed object, a missing field: a `KeyError` or `AttributeError`) gives up the
run, which starts again with the general spelling. Nothing the first run did can be seen:
it changed nothing but its locals, the loop steps it counted are given back, and what it
left in the memos (`World.memo`, `Machine.listing`) are values the second run computes
anyway. Unlike a pure function (`purity`), it may read any field, `event` and built-in members.
"""

from __future__ import annotations

from tgpl.builtin_calls import PURE
from tgpl.frontend import ast
from tgpl.frontend.types import CallableType, ClassType, Collection, Namespace
from tgpl.runtime.purity import PLAIN_NODES


class ReadOnly:
    """The analysis of one program (`purity.Purity` holds its functions by name and its types):
    `functions`, the ids of the FunctionDefs that read only, the greatest set closed under calls
    (recursion among such functions reads only); `block(b)`, whether a block (a filter) does."""

    def __init__(self, purity):
        self.types, self.implicit_this, self.by_name = purity.types, purity.implicit_this, purity.by_name
        ok = {id(fi.defn) for fi in purity.functions if self.candidate(fi)}
        changed = True
        while changed:
            changed = False
            for fi in purity.functions:
                if id(fi.defn) in ok and not self.reads_only(fi.defn.effect.body, ok):
                    ok.discard(id(fi.defn))
                    changed = True
        self.functions = ok

    @staticmethod
    def candidate(fi) -> bool:
        defn = fi.defn
        return defn.effect is not None and all(
            i.modifier == "function" and not i.filters and i.target is None for i in defn.inputs)

    def block(self, block: ast.Block) -> bool:
        return self.reads_only(block, self.functions)

    def reads_only(self, node, ok: set[int]) -> bool:
        return all(self.node_ok(n, ok) for n in ast.walk(node))

    def node_ok(self, n: ast.Node, ok: set[int]) -> bool:
        types = self.types
        if isinstance(n, ast.Assign):
            return isinstance(n.target, ast.Name) and id(n.target) not in self.implicit_this
        if isinstance(n, ast.Name):
            t = types.get(id(n))
            return not isinstance(t, CallableType) or t.kind == "function"  # a callee: checked at its call
        if isinstance(n, ast.Member):
            t = types.get(id(n.obj))
            if isinstance(t, Namespace) or isinstance(types.get(id(n)), Namespace):
                return True  # `turn.phase`, a member of an import's name: a callee checked at its call
            if isinstance(t, Collection):  # its length, or a built-in that reads it (checked at its call)
                return n.name == "length" or n.name in PURE
            return isinstance(t, ClassType)  # a field, or a callee checked at its call
        if isinstance(n, ast.Index):
            return isinstance(types.get(id(n.obj)), (Collection, ClassType))
        if isinstance(n, ast.Call):
            ct = types.get(id(n.callee))
            if not isinstance(ct, CallableType):
                return isinstance(n.callee, ast.Member) and n.callee.name == "length" and not n.args
            if ct.kind == "function":
                if any(a.name is None for a in n.args):
                    return False
                return all(id(fi.defn) in ok for fi in self.by_name.get(ct.target.name, [ct.target]))
            if ct.kind == "builtin":
                callee, entry = n.callee, ct.target.entry
                if not entry.method and not entry.writes:  # whose turn it is, the players
                    return not n.args
                return (isinstance(callee, ast.Member) and entry.pure
                        and isinstance(types.get(id(callee.obj)), Collection))
            return False
        return isinstance(n, PLAIN_NODES)


__all__ = ["ReadOnly"]
