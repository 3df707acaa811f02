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

from dataclasses import dataclass, field

from tgpl.frontend import ast
from tgpl.frontend.after_setup import reachable
from tgpl.lowering.horn import _names
from tgpl.frontend.types import CallableType
from tgpl.lowering.ir import Const

READ_ONLY_BUILTINS = frozenset({"log", "contains", "indexOf", "peek", "keys", "values", "player.all"})
"""The built-ins a deferred call may call: those that change nothing and do not read the flow (`player.active`,
`turn.active` would read the control of the decision the check is asked at, not the one it ran at)."""
MOVER = Const("#deferral:mover")
"""A local of a deferred `if` that held the player to move where it ran: the mover, where the check is asked."""
FLOW_BUILTINS = frozenset({"player.active", "turn.active", "turn.phase.active"})
"""What a deferred `if` statement may read of the flow besides: it is compiled, at the next decision, on a way
whose control is the one it ran at (the mover found from the player to move, `CompiledGame.outcomes`)."""


class Undefer(Exception):
    """A check that cannot be left to the next decision (the id of its call): compile it where it runs."""

    def __init__(self, call: int):
        super().__init__(call)
        self.call = call


@dataclass
class Check:
    """A check left to the next decision: the call statement or `if` statement, the turn and phase it was met in,
    and the locals it reads with their values (known when compiling: the same on every way that meets it; MOVER
    for one that held the player to move)."""

    call: ast.Call | ast.If | ast.Block
    turn: str
    phase: str
    env: dict = field(default_factory=dict)


class Deferral:
    """Which end-of-game checks a compiled game leaves to the next decision, and those it met."""

    def __init__(self, hc, kept: frozenset[int] | None):
        self.hc = hc
        self.kept = kept  # calls compiled where they run (an earlier attempt's `Undefer`); None: every one
        self.met: dict[int, Check] = {}
        self._pure: dict[int, bool] = {}
        self._reads: dict[int, bool | None] = {}  # id of a statement -> its `_flow_code`
        self.groups: dict[int, ast.Block] = {}  # the blocks `grouped` made, by their first statement's id
        self.group_keys: dict[int, int] = {}  # id of such a block -> its first statement's id

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

    def grouped(self, stmts: list, live: set[str]) -> list:
        """`stmts` with each run of two or more statements that only read and declare locals, at least one of
        which may end the game, made one block: a check written in several statements (Morris's end phase:
        `if (Moves >= 200) { ... }`, then `Seat mine = Game.Seats[me];` and a test of it), which
        `deferrable_if` may then leave to the next decision whole. A name the run declares must not be read after
        it (the block takes it out of scope). The block runs as the statements did where it is not left."""
        if any(stmts is block.body for block in self.groups.values()):
            return stmts  # a group's own statements, run one by one
        out: list = []
        i = 0
        while i < len(stmts):
            j = i
            while j < len(stmts) and isinstance(stmts[j], (ast.If, ast.VarDecl)) and self._reads_only(stmts[j]):
                j += 1
            while j > i + 1:  # the longest run from i whose declarations are not read after it
                run = stmts[i:j]
                declared = {s.name for s in run if isinstance(s, ast.VarDecl)}
                after = live | _names(stmts[j:])
                if not declared & after and any(isinstance(n, ast.Winner) for n in ast.walk(run)):
                    break
                j -= 1
            if j > i + 1:
                key = id(stmts[i])
                block = self.groups.get(key)
                if block is None or len(block.body) != j - i or any(a is not b for a, b in zip(block.body, stmts[i:j])):
                    block = ast.Block(stmts[i].span, list(stmts[i:j]))
                    self.groups[key] = block
                    self.group_keys[id(block)] = key
                out.append(block)
                i = j
            else:
                out.append(stmts[i])
                i += 1
        return out

    def key(self, s) -> int:
        """The id a check is known by across attempts (`kept`, `Undefer`): a block `grouped` made is known by its
        first statement."""
        return self.group_keys.get(id(s), id(s))

    def _reads_only(self, s) -> bool:
        """Whether the statement `s` (a declaration with a value, or an `if`) and what it calls write nothing, pass
        no turn and read no flow but FLOW_BUILTINS."""
        if isinstance(s, ast.VarDecl) and s.init is None:
            return False
        return self._flow_code(s) is not None

    def _flow_code(self, s) -> bool | None:
        """`_pure_code` of the statement `s` with FLOW_BUILTINS, found once a statement."""
        if id(s) not in self._reads:
            self._reads[id(s)] = self._pure_code([s], FLOW_BUILTINS)
        return self._reads[id(s)]

    def deferrable_if(self, s: ast.If | ast.Block, clauses) -> bool:
        """Whether the `if` statement `s`, met by the ways `clauses`, is a check left to the next decision: it
        reads the state and may end the game, as a deferrable call does (`_checks`), and every local declared
        before it that it reads holds the same value on every way, known when compiling (Reversi's end phase:
        `if (!board.HasMove(who: 0) && !board.HasMove(who: 1)) { ... winner ...; }`, its `board` the board)."""
        key = self.key(s)
        if self.kept is None or key in self.kept or not clauses:
            return False
        inner = {n.name for n in ast.walk([s]) if isinstance(n, ast.VarDecl)}
        program = self.hc.program
        builtins = {id(x) for n in ast.walk([s]) if isinstance(n, ast.Call) and self._builtin(n) is not None
                    for x in ast.walk([n.callee])}  # `player` in `player.active()` names no value
        env: dict = {}
        for n in ast.walk([s]):
            if id(n) in builtins:
                continue
            if isinstance(n, ast.Assign) and isinstance(n.target, ast.Name) and n.target.name not in inner \
                    and id(n.target) not in program.implicit_this:
                return False  # a local of the code around it, which the code after it may read
            if isinstance(n, ast.Name) and n.name not in inner and n.name in clauses[0].env:
                if n.name.startswith("#") or id(n) in program.implicit_this:
                    return False
                if all(c.env.get(n.name) == c.control[0] for c in clauses):
                    env[n.name] = MOVER  # `player me = player.active();`: the mover where the check is asked
                    continue
                values = {repr(c.env.get(n.name)) for c in clauses}
                value = clauses[0].env[n.name]
                if len(values) != 1 or not isinstance(value, Const):
                    return False
                env[n.name] = value
            elif isinstance(n, ast.Name) and (id(n) in program.implicit_this or n.name == "player"):
                return False  # an attribute of `this`, the way's player: not known at the next decision
        known = bool(self._flow_code(s))
        if known:
            c = clauses[0]
            check = self.met.setdefault(key, Check(s, c.control[1], c.control[2], env))
            if check.env != env or any(c.control[1:] != (check.turn, check.phase) for c in clauses):
                raise Undefer(key)  # met where its locals or the turn and phase differ: one check cannot say both
        return known

    def _checks(self, e: ast.Call) -> bool:
        """Whether `e` calls a function with arguments known at the next decision (`player.active()`, literals),
        whose code, and that of the functions it calls (overrides too), writes nothing, passes no turn and
        reads no flow, and may end the game."""
        ct = self.hc.types.get(id(e.callee))
        if not isinstance(ct, CallableType) or ct.kind != "function" or ct.target.defn.effect is None:
            return False
        if not all(self._builtin(a.value) == "player.active" or
                   isinstance(a.value, (ast.NumberLit, ast.BoolLit, ast.StringLit)) for a in e.args):
            return False
        return self._reads_and_ends([ct.target.defn])

    def _reads_and_ends(self, code: list, flow: frozenset[str] = frozenset()) -> bool:
        """Whether `code`, and the functions it calls (overrides too), writes nothing, passes no turn, reads no
        flow but the built-ins `flow`, and may end the game."""
        return bool(self._pure_code(code, flow))

    def _pure_code(self, code: list, flow: frozenset[str] = frozenset()) -> bool | None:
        """None where `code`, or a function it calls (overrides too), writes, passes a turn or reads the flow
        (but the built-ins `flow`); else whether it may end the game."""
        program = self.hc.program
        winner = False
        for n in reachable(program, code):
            if isinstance(n, ast.Winner):
                winner = True
            elif isinstance(n, ast.Assign) and (not isinstance(n.target, ast.Name)
                                                or id(n.target) in program.implicit_this):
                return None  # `o.attr = v`, or `attr = v` of `this`
            elif isinstance(n, ast.New):
                return None
            elif isinstance(n, ast.Call):
                called = self.hc.types.get(id(n.callee))
                if not isinstance(called, CallableType):
                    return None
                if called.kind == "builtin":
                    if called.target.name not in READ_ONLY_BUILTINS | flow:
                        return None
                elif called.kind != "function" or called.target.defn.effect is None:
                    return None
        return winner

    def _builtin(self, e) -> str | None:
        """The built-in `e` calls (`player.active`), if it is a call of one."""
        if not isinstance(e, ast.Call):
            return None
        ct = self.hc.types.get(id(e.callee))
        return ct.target.name if isinstance(ct, CallableType) and ct.kind == "builtin" else None


def no_checks(clauses) -> None:
    """Raises Undefer where a way that carries a check goes on to do what the check must come after."""
    for c in clauses:
        if c.checks:
            raise Undefer(c.checks[0][0])
