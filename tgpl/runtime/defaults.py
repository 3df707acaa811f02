"""A turn's `default` block that reads only whose turn it is, tabulated (`Machine.turn_pass_default`, `passes.to_default`).

Tris's default reads the active player and phase and passes to the next phase: twice a move, a
call of its plain spelling with its entry pushed on the machine's stack, two locals, a comparison
and an inline pass. Connect Four's returns the next player. What such a
default does depends on nothing but the control (the active player and phase, the turn being the
one whose default it is) and the number of players, and all it changes is the control, the
machine's latest pass and its pending entry. So its outcome, once seen for a player and a phase,
is the same every time: generated code keeps it in a table per turn and, at the next
`turn.pass()` from that player and phase, sets the control, `last_pass` and `enter_pending` from
it, without running the block. The latest pass is the one the default made, kept as it is, or,
when it made none (it returned a player), the `turn.pass()` that ran it: kept as None, and taken
from the site where the outcome is used.

A default is tabulated when its statements (`control_only`) only declare and assign locals, test
with `if`, return, and pass the turn with at least one argument (never `turn.pass()`: that would
run a default again); and its expressions only read those locals, literals, `player.active()`,
`turn.phase.active()` and `turn.active()`, with operators. No loop (so no loop step counted), no
field, no call of a function, no `winner`. Only a run that ends without raising is kept (what it
returned made the control by `Machine.turn_pass_default`). A run that raises keeps nothing, so an
error is raised by the block itself every time, with its stack.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tgpl.builtin_calls import TURN_PASS, Builtin
from tgpl.frontend import ast
from tgpl.frontend.builtins import Signature
from tgpl.frontend.types import CallableType


def control_only(body: ast.Block, types: dict) -> bool:
    """Whether the default block `body` reads only the control and changes only it (see above).
    `types`: the checker's types by node id, to know which built-in a call names."""
    return _Reader(types).block(body)


@dataclass
class _Reader:
    """Walks a default's statements in order, with the locals declared so far (a name read is one
    of them, or the default reads something else: a global object, a constant)."""

    types: dict
    locals: set[str] = field(default_factory=set)

    def block(self, block: ast.Block) -> bool:
        return all(self.stmt(s) for s in block.body)

    def stmt(self, s: ast.Stmt) -> bool:
        if isinstance(s, ast.Block):
            return self.block(s)
        if isinstance(s, ast.VarDecl):
            ok = s.init is None or self.expr(s.init)
            self.locals.add(s.name)
            return ok
        if isinstance(s, ast.If):
            return (self.expr(s.cond) and self.block(s.then)
                    and (s.orelse is None or self.stmt(s.orelse)))
        if isinstance(s, ast.Return):  # a player returned: `Machine.turn_pass_default`'s, from the control too
            return s.value is None or self.expr(s.value)
        if isinstance(s, ast.ExprStmt):
            e = s.expr
            if isinstance(e, ast.Assign):
                return isinstance(e.target, ast.Name) and e.target.name in self.locals and self.expr(e.value)
            return self.is_pass(e)
        return False  # loops, break, continue, winner, inputs

    def is_pass(self, e: ast.Expr) -> bool:
        """`turn.pass(p, "P")` or `turn.pass(p)`, its arguments control-only: not `turn.pass()`."""
        if not (isinstance(e, ast.Call) and self.builtin(e) is TURN_PASS):
            return False
        return bool(e.args) and all(self.expr(a.value) for a in e.args)

    def builtin(self, e: ast.Call) -> Builtin | None:
        ct = self.types.get(id(e.callee))
        if isinstance(ct, CallableType) and ct.kind == "builtin" and isinstance(ct.target, Signature):
            return ct.target.entry
        return None

    def expr(self, e: ast.Expr) -> bool:
        if isinstance(e, (ast.NumberLit, ast.StringLit, ast.BoolLit, ast.NullLit)):
            return True
        if isinstance(e, ast.Name):
            return e.name in self.locals
        if isinstance(e, ast.Binary):
            return self.expr(e.left) and self.expr(e.right)
        if isinstance(e, ast.Unary):
            return self.expr(e.operand)
        if isinstance(e, ast.Call):  # what reads the control only: `player.active()`, `turn.active()`...
            b = self.builtin(e)
            return not e.args and b is not None and b.reads == "control" and not b.writes
        return False  # fields, indexes, casts, lists, new objects, assignments inside expressions


__all__ = ["control_only"]
