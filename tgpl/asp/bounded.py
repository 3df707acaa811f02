"""Bounded verification of a GDL game: what can happen within N moves, with clingo's multi-shot solving.

Complete verification (tgpl.verify.graph) visits every reachable state, which
stops being possible when a game has too many. Bounded verification searches the
*plays* of up to N joint moves instead, as answer sets of the time-indexed
encoding (tgpl.asp.asp_emit.encode_incremental + asp_bounded.lp), and finds

    (a) a stuck state: not terminal, and some role has no legal move;
    (b) per role, a play it wins (a terminal state giving it 100);
    (c) a play still not terminal after N moves;
    (d) a terminal state where some role has no goal, several, or one outside 0..100;
    and a lasso: a play that comes back to a state it went through (it can go on for ever).

Each finding has a witness, the joint moves from the initial state. The search
is incremental as in clingo's incmode: the game's `base` (time 0) is grounded
first, then `step(1)`, `step(2)`, ... one at a time, never grounding a step
twice; after each step n, `check(n)` is grounded and each open question is one
solve that assumes its `gdl_` atom true. So a finding is found at the smallest
n, and its witness is a shortest one. When no play is still going after n
moves, every play has ended and the search stops: then it is complete, and a
role without a win never wins.

"Within N moves" counts joint moves: a state at time n is the state after n
joint moves (in a turn-taking game, n turns, the waiting role's noop included).

The command's limits (tgpl.limits) bound the search: each solve runs in clingo's
background thread and is interrupted once past them; each grounding runs in a
thread of its own and is left behind once past them (tgpl.asp.interrupt).
"""

from __future__ import annotations

from typing import Callable

import clingo

from tgpl.asp.asp_emit import AspEncoding, encode_incremental
from tgpl.asp.interrupt import ground, interruptible, solve
from tgpl.asp.solver import SolverError, lp_file
from tgpl.limits import LimitReached, Limits, unlimited
from tgpl.lowering.ir import Const, Program, Term
from tgpl.verify.bounded import BoundedReport, Finding, Witness

JointMove = tuple[Term, ...]
MoveText = Callable[[JointMove], str]


def gdl_move_text(joint: JointMove) -> str:
    """A GDL joint move as `tgpl verify` writes it: the roles' moves in role order, joined by ' | '."""
    return " | ".join(str(m) for m in joint)


class BoundedSearch:
    """The incremental program of one game: `extend()` adds a step, `ask(atom)` solves for a witness."""

    def __init__(self, program: Program, move_text: MoveText | None = None, limits: Limits | None = None):
        self.limits = limits if limits is not None else unlimited()
        self.encoding: AspEncoding = encode_incremental(program, self.limits.check)
        self.move_text = move_text or gdl_move_text
        self.roles = self.encoding.roles
        self.role_symbols = [self.encoding.names.symbol(r) for r in self.roles]
        self._role_index = {s: i for i, s in enumerate(self.role_symbols)}
        messages: list[str] = []
        # clasp's "trendy" configuration (tuned for industrial problems) proves the unsatisfiable
        # questions (no stuck state, no play going) far faster than the default on lowered games:
        # Connect Four at horizon 12 took 25 s instead of 208 s (bench/verify.py)
        self._ctl = clingo.Control(["--warn=none", "--models=1", "--configuration=trendy"],
                                   logger=lambda code, msg: messages.append(msg.strip()), message_limit=20)
        self.limits.check()
        try:
            interruptible(self._ctl, lambda: self._ctl.add("base", [], self.encoding.text), self.limits)
            self._ctl.add("base", [], lp_file("asp_bounded.lp"))
            ground(self._ctl, [("base", []), ("check", [clingo.Number(0)])], self.limits)
        except RuntimeError as e:
            raise SolverError("; ".join(messages) or str(e)) from None
        self.time = 0
        self.solves = 0
        self._ctl.assign_external(clingo.Function("query", [clingo.Number(0)]), True)

    def extend(self) -> None:
        """Ground the step to time `time + 1` and its questions; the older questions are switched off. Past the
        limits, LimitReached while it grounds (tgpl.asp.interrupt): the search is over, `time` unchanged."""
        previous = clingo.Function("query", [clingo.Number(self.time)])
        t = clingo.Number(self.time + 1)
        ground(self._ctl, [("step", [t]), ("check", [t])], self.limits)
        self.time += 1
        self._ctl.release_external(previous)
        self._ctl.assign_external(clingo.Function("query", [t]), True)

    def ask(self, name: str, *args: clingo.Symbol) -> list[clingo.Symbol] | None:
        """The shown atoms of a play that makes `name(args..., time)` true, or None if there is none."""
        atom = clingo.Function(name, [*args, clingo.Number(self.time)])
        found: list[list[clingo.Symbol]] = []
        self.solves += 1
        self.solve(assumptions=[(atom, True)], on_model=lambda m: found.append(m.symbols(shown=True)))
        return found[0] if found else None

    def solve(self, **kwargs) -> None:
        """clingo's solve, in its background thread, interrupted past the limits (LimitReached)."""
        solve(self._ctl, self.limits, **kwargs)

    def witness(self, model: list[clingo.Symbol]) -> Witness:
        """The joint moves of a model, in time order."""
        term = self.encoding.names.term
        moves: list[list[Term | None]] = [[None] * len(self.roles) for _ in range(self.time)]
        for sym in model:
            if sym.name == "does" and len(sym.arguments) == 3:
                role, move, t = sym.arguments
                moves[t.number][self._role_index[role]] = term(move)
        joints = tuple(tuple(m) for m in moves)  # every role moves at every step of a play
        return Witness(joints, tuple(self.move_text(j) for j in joints))

    def roles_in(self, model: list[clingo.Symbol], name: str) -> list[str]:
        """The roles of the shown atoms name(R, time) of a model, in role order."""
        found = {self._role_index[s.arguments[0]] for s in model if s.name == name}
        return [str(self.roles[i]) for i in sorted(found)]

    def goal_values(self, role: int) -> list[int]:
        """The integer goal values role can have at the current time, highest first (from the ground program)."""
        values = set()
        for a in self._ctl.symbolic_atoms.by_signature("goal", 3):
            r, v, t = a.symbol.arguments
            if t.number == self.time and r == self.role_symbols[role] and v.type is clingo.SymbolType.Number:
                values.add(v.number)
        return sorted(values, reverse=True)


def bounded_verify(program: Program, horizon: int, move_text: MoveText | None = None,
                   progress: Callable[[int, int], None] | None = None,
                   stop: Callable[[], str | None] | None = None, limits: Limits | None = None) -> BoundedReport:
    """Search the plays of up to `horizon` joint moves of a valid GDL game for (a)-(d) and lassos.

    move_text maps a joint move to the text a user types for it (default: GDL's
    `move | move`); progress(n, horizon) is called after each step is searched, then `stop`,
    whose reason (time, memory) ends the search early with the report so far. Past `limits`
    (tgpl.limits) the search ends so too, the step under way not counted as searched (what
    it found stays found); past them while grounding the first state, LimitReached is raised:
    there is no report.
    """
    if horizon < 0:
        raise ValueError("the horizon must be 0 or more")
    limits = limits if limits is not None else unlimited()
    with limits.during("grounding the game's first state"):
        search = BoundedSearch(program, move_text, limits)
    roles = [str(r) for r in search.roles if r != RANDOM]  # GDL-II's chance role is no player: no wins, no goal
    report = BoundedReport(horizon, roles, wins={r: None for r in roles})
    report.searched = -1
    try:
        while True:
            n = search.time
            with limits.during(f"searching the plays of {n} moves"):
                _ask_step(search, report, n)
                going = search.ask("gdl_going")
            report.searched = n
            if going is None:  # every play has ended (or is stuck): nothing more can happen
                report.complete, report.going = True, None
            else:
                report.going = Finding("going", f"a play is still going after {n} moves", search.witness(going))
            if progress is not None:
                progress(n, horizon)
            if report.complete or n >= horizon:
                break
            if stop is not None and (reason := stop()) is not None:
                report.stopped = reason
                break
            with limits.during(f"grounding the plays of {n + 1} moves"):
                search.extend()
    except LimitReached as e:
        if report.searched < 0:
            raise
        report.stopped = e.stopped
    report.solves = search.solves
    return report


def _ask_step(search: BoundedSearch, report: BoundedReport, n: int) -> None:
    """The questions of the plays of exactly n moves that are still open."""
    if report.stuck is None and (model := search.ask("gdl_stuck")) is not None:
        who = " and ".join(search.roles_in(model, "gdl_stuck_role"))
        report.stuck = Finding("stuck", f"a stuck state after {n} moves: {who} has no legal move",
                               search.witness(model))
    if report.bad_goal is None and (model := search.ask("gdl_bad_goal")) is not None:
        who = " and ".join(search.roles_in(model, "gdl_bad_goal_role"))
        report.bad_goal = Finding("goal", f"a terminal state after {n} moves where {who} has no single goal in 0..100",
                                  search.witness(model))
    if report.cycle is None and (model := search.ask("gdl_loops")) is not None:
        back = min(s.arguments[0].number for s in model if s.name == "gdl_repeats")
        report.cycle = Finding("cycle", f"a play can go on for ever: after {n} moves it is back in the state "
                               f"after {back} moves", search.witness(model))
    for i, role in enumerate(str(r) for r in search.roles):
        if role not in report.wins or report.wins[role] is not None:  # random (GDL-II), or a win found
            continue
        symbol = search.role_symbols[i]
        if (model := search.ask("gdl_won", symbol)) is not None:
            report.wins[role] = Finding("win", f"{role} wins after {n} moves", search.witness(model), role)
            report.best.pop(role, None)
            continue
        best = report.best.get(role)
        for value in search.goal_values(i):
            if best is not None and value <= best[0]:
                break
            if (model := search.ask("gdl_ends_with", symbol, clingo.Number(value))) is not None:
                report.best[role] = (value, search.witness(model))
                break
        report.best.setdefault(role, None)


RANDOM = Const("random")
"""GDL-II's chance role (tgpl.asp.validate.RANDOM)."""

__all__ = ["BoundedReport", "BoundedSearch", "Finding", "Witness", "bounded_verify", "gdl_move_text"]
