"""End-of-game checks of compiled segments left to the next decision, where `terminal` and `goal` ask them.

A chess move's segment ends in the `EndPhase`, whose `Chess.Finish(mover: player.active())` asks whether
the opponent has a move (checkmate, stalemate) and ends the game if not. Compiled where the runtime runs
it, the check reads the state through the views of the move's writes, in `next`: a reasoner asking a
state's successors, and the successors' legal moves, computes every piece's moves twice, once through the
views and once from the successor's fluents (half of what a chess state grounds). A hand-written chess
GDL computes checkmate in `terminal`, from the state, where `legal` shares it.

So a call statement that only reads the state and may end the game (`deferrable`) is left out of the
segment: the way goes on as if it had not ended the game, carrying the check and the mover's term
(`SegClause.checks`), and the compiled game (tgpl.lowering.compiled, `CompiledGame.lowered`) asks the
check of the state at the control the segment waits at, reading `true`:
`terminal` and `goal` hold where it would have ended the game. It is the same game when

- nothing after the check in the segment writes the state, ends the game or loops (`no_checks`): the
  check then reads the state the segment leaves;
- every way that waits at that control carries the same check, so that every state there was checked on
  arrival, but for the initial state, where the check must find nothing (asked of the rules at lowering
  time);
- the mover is found from the control the way waits at: the player to move after it, one to one;
- the call's arguments are `player.active()` or literals, and its body writes nothing, passes no turn,
  and calls only functions that do the same or return a value from the state.

Where one of these fails, `Undefer` names the call and the game is compiled again with it where the
runtime runs it. docs/lowering.md, "Checks left to the next decision".
"""

from __future__ import annotations

from dataclasses import dataclass

from tgpl.frontend import ast
from tgpl.frontend.types import CallableType

READ_ONLY_BUILTINS = frozenset({"log", "contains", "indexOf", "peek", "keys", "values", "player.all"})
"""The built-ins a deferred check may call: those that change nothing and do not read the flow (`player.active`,
`turn.active` would read the control of the decision the check is asked at, not the one it ran at)."""


class Undefer(Exception):
    """A check that cannot be left to the next decision (the id of its call): compile it where it runs."""

    def __init__(self, call: int):
        super().__init__(call)
        self.call = call


@dataclass
class Check:
    """A call left to the next decision: the call, and the turn and phase it was met in."""

    call: ast.Call
    turn: str
    phase: str


class Deferral:
    """Which end-of-game checks a compiled game leaves to the next decision, and those it met."""

    def __init__(self, hc, kept: frozenset[int] | None):
        self.hc = hc
        self.kept = kept  # calls compiled where they run (an earlier attempt's `Undefer`); None: every one
        self.met: dict[int, Check] = {}
        self._pure: dict[int, bool] = {}

    def deferrable(self, e: ast.Call, c) -> bool:
        """Whether the call statement `e`, met by the way `c`, is a check left to the next decision."""
        if self.kept is None or id(e) in self.kept:
            return False
        known = self._pure.get(id(e))
        if known is None:
            known = self._pure[id(e)] = self._checks(e)
        if known:
            self.met.setdefault(id(e), Check(e, c.control[1], c.control[2]))
        return known

    def _checks(self, e: ast.Call) -> bool:
        ct = self.hc.types.get(id(e.callee))
        if not isinstance(ct, CallableType) or ct.kind != "function" or ct.target.defn.effect is None:
            return False
        if not all(_active(a.value) or isinstance(a.value, (ast.NumberLit, ast.BoolLit, ast.StringLit))
                   for a in e.args):
            return False
        winner = [False]
        return self._reads_only(ct.target, set(), winner) and winner[0]

    def _reads_only(self, fi, seen: set, winner: list) -> bool:
        """Whether the function's body writes nothing and passes no turn (its calls alike, where they are not
        compiled as functions of the state); `winner[0]` is set where it may end the game."""
        if id(fi) in seen:
            return True  # met already (or under way, recursion): its body is checked once
        seen.add(id(fi))
        for n in ast.walk(fi.defn.effect.body):
            if isinstance(n, ast.Winner):
                winner[0] = True
            elif isinstance(n, ast.Assign) and not isinstance(n.target, ast.Name):
                return False
            elif isinstance(n, ast.Assign) and id(n.target) in self.hc.implicit_this:
                return False  # `attr = v`: an attribute of `this`
            elif isinstance(n, ast.New):
                return False
            elif isinstance(n, ast.Call):
                ct = self.hc.types.get(id(n.callee))
                if not isinstance(ct, CallableType):
                    return False
                if ct.kind == "builtin":
                    if ct.target.name not in READ_ONLY_BUILTINS:
                        return False
                elif ct.kind != "function" or ct.target.defn.effect is None:
                    return False
                elif not self._reads_only(ct.target, seen, winner):
                    return False
        return True


def no_checks(clauses) -> None:
    """Raises Undefer where a way that carries a check goes on to do what the check must come after."""
    for c in clauses:
        if c.checks:
            raise Undefer(c.checks[0][0])


def _active(e) -> bool:
    """`player.active()`."""
    return (isinstance(e, ast.Call) and isinstance(e.callee, ast.Member) and e.callee.name == "active"
            and isinstance(e.callee.obj, ast.Name) and e.callee.obj.name == "player" and not e.args)

