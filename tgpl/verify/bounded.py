"""What can happen within N moves of a game: the report of `tgpl verify --horizon N`, and its explicit search.

Two searches give this report. tgpl.asp.bounded solves the plays of up to N moves as answer
sets of the game's time-indexed encoding: every state of the horizon grounded at once. A
game played one state at a time (the lowered chess: one state grounds 16,000 atoms, the
encoding of horizon 1 more than 8 GB) cannot be searched so; `explore_bounded` searches it
state by state instead, breadth first to depth N (tgpl.verify.graph.explore with
`max_depth`), on any `Machine`: the runtime, or the GDL reasoner. Both find, at their
smallest depth and with a shortest witness, a stuck state, a terminal state with a bad goal,
each role's first win (else its best goal), and a play still going after N moves, and say
`complete` when every play has ended within the moves searched.

The explicit search differs in two ways, both written in its report. Its caps (states,
memory, time) can stop it inside a level: `searched` is then the last level it examined
whole, and `stopped` says why. And it finds a cycle among the states it expanded, which
may take more than N moves to close: still a play that goes on for ever, with its witness.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from tgpl.verify.graph import Graph, Machine, cycle_walk, explore


@dataclass(frozen=True)
class Witness:
    """A play from the initial state: its joint moves (one entry per role) and their text.

    The moves are GDL terms from the solver's search, the machine's joint moves from the explicit one.
    """

    moves: tuple[tuple, ...]
    lines: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.moves)


@dataclass(frozen=True)
class Finding:
    """One thing found, with the play that shows it.

    kind: stuck, goal, cycle, unwinnable (problems); win, going (facts about the game).
    """

    kind: str
    message: str
    witness: Witness | None
    role: str | None = None

    def to_json(self) -> dict:
        return {"kind": self.kind, "message": self.message, "role": self.role,
                "witness": None if self.witness is None else list(self.witness.lines)}


@dataclass
class BoundedReport:
    """What bounded verification found up to `horizon` moves.

    searched: the last horizon searched (below `horizon` when every play ended earlier, or when a cap
    stopped the search);
    complete: no play is still going after `searched` moves, so nothing else can happen;
    best: per role without a win, its best goal at the end of a play (with a witness), or None;
    states: the states the explicit search examined (None for the solver's search, which counts solves).
    """

    horizon: int
    roles: list[str]
    searched: int = 0
    complete: bool = False
    stuck: Finding | None = None
    bad_goal: Finding | None = None
    cycle: Finding | None = None
    going: Finding | None = None
    wins: dict[str, Finding | None] = field(default_factory=dict)
    best: dict[str, tuple[int, Witness] | None] = field(default_factory=dict)
    solves: int = 0
    stopped: str | None = None  # why the search stopped before `horizon` (time, memory, states), if it did
    states: int | None = None

    @property
    def problems(self) -> list[Finding]:
        """Stuck states, bad goals and cycles; a role that never wins when the search is complete."""
        found = [f for f in (self.stuck, self.cycle, self.bad_goal) if f is not None]
        if self.complete:
            for role in self.roles:
                if self.wins.get(role) is None:
                    best = self.best.get(role)
                    why = f"best goal {best[0]}" if best else "no play ends with a goal for it"
                    found.append(Finding("unwinnable", f"{role} never wins ({why})", best[1] if best else None, role))
        return found

    def to_json(self) -> dict:
        return {
            "mode": "bounded", "horizon": self.horizon, "searched": self.searched, "complete": self.complete,
            "stopped": self.stopped,
            "roles": self.roles, "solves": self.solves, "states": self.states,
            "stuck": None if self.stuck is None else self.stuck.to_json(),
            "bad_goal": None if self.bad_goal is None else self.bad_goal.to_json(),
            "cycle": None if self.cycle is None else self.cycle.to_json(),
            "going": None if self.going is None else self.going.to_json(),
            "wins": {r: None if w is None else w.to_json() for r, w in self.wins.items()},
            "best": {r: None if b is None else {"goal": b[0], "witness": list(b[1].lines)}
                     for r, b in self.best.items()},
            "problems": [p.to_json() for p in self.problems],
            "ok": not self.problems,
        }


def explore_bounded(machine: Machine, horizon: int, max_states: int = 1_000_000,
                    progress: Callable[[int, int], None] | None = None, max_memory: int | None = None,
                    stop: Callable[[], str | None] | None = None) -> BoundedReport:
    """The plays of up to `horizon` moves, state by state: breadth first to depth `horizon`.

    Caps as `explore`'s; a capped search reports the levels it examined whole. The states'
    goal errors (`Info.goal_error`) count as bad goals, as a goal outside 0..100 does.
    """
    if horizon < 0:
        raise ValueError("the horizon must be 0 or more")
    g = explore(machine, max_states, progress, max_memory, stop=stop, max_depth=horizon)
    return report_of(g)


def report_of(g: Graph) -> BoundedReport:
    """The bounded report of a graph explored to a depth, its horizon (`explore(..., max_depth=horizon)`)."""
    if g.max_depth is None:
        raise ValueError("a bounded report needs a graph explored to a depth (explore's max_depth)")
    horizon = g.max_depth
    roles = list(g.roles)
    report = BoundedReport(horizon, roles, wins={r: None for r in roles}, stopped=g.stopped, states=g.states)
    # a capped search claims only the levels it examined whole (at least the start)
    limit = horizon if g.complete else max(min(horizon, g.levels - 1), 0)

    def witness(steps: list[tuple[str, tuple]]) -> Witness:
        return Witness(tuple(j for _, j in steps), tuple(t for t, _ in steps))

    for v in range(g.states):
        d = g.depth[v]
        if d > limit:
            break  # BFS order: the rest are deeper
        if g.terminal[v]:
            if report.bad_goal is None and (g.goal_error[v] is not None or not _good_goals(g.goals[v])):
                bad = [r for r, x in zip(roles, g.goals[v]) if not _good_goal(x)] or roles
                report.bad_goal = Finding("goal", f"a terminal state after {d} moves where {' and '.join(bad)} "
                                          "has no single goal in 0..100", witness(g.walk(v)))
            for r, x in zip(roles, g.goals[v]):
                if not _good_goal(x) or report.wins[r] is not None:
                    continue
                if x == 100:
                    report.wins[r] = Finding("win", f"{r} wins after {d} moves", witness(g.walk(v)), r)
                    report.best.pop(r, None)
                elif report.best.get(r) is None or x > report.best[r][0]:
                    report.best[r] = (x, witness(g.walk(v)))
        elif g.stuck[v] and report.stuck is None:
            who = " and ".join(roles[i] for i in g.stuck[v])
            report.stuck = Finding("stuck", f"a stuck state after {d} moves: {who} has no legal move",
                                   witness(g.walk(v)))
    for r in roles:
        if report.wins[r] is None:
            report.best.setdefault(r, None)
    cycle = cycle_walk(g)
    if cycle is not None:
        steps, back = cycle
        report.cycle = Finding("cycle", f"a play can go on for ever: after {len(steps)} moves it is back in the "
                               f"state after {back} moves", witness(steps))
    report.searched, going = _first_end(g, limit)
    if going is not None:
        report.going = Finding("going", f"a play is still going after {report.searched} moves", witness(going))
    else:
        report.complete = True
    return report


def _first_end(g: Graph, limit: int) -> tuple[int, list[tuple[str, tuple]] | None]:
    """As the solver's search counts: the first n <= limit after which no play is still going (not terminal,
    a stuck state included) and None, or `limit` and a play still going after it.

    A state not terminal at BFS level `limit` answers at once. Else (the graph closed early, or all its
    deepest states ended) the plays are followed level by level: a play may go on through states seen
    earlier, round a cycle or down a longer way than the shortest.
    """
    deep = next((v for v in range(g.states) if g.depth[v] == limit and not g.terminal[v]), None)
    if deep is not None:
        return limit, g.walk(deep)
    if not g.states:
        return 0, None
    layer: dict[int, tuple[int, str, tuple] | None] = {0: None}
    layers = [layer]
    for n in range(limit + 1):
        going = sorted(v for v in layer if not g.terminal[v])
        if not going:
            return n, None
        if n == limit:
            steps, v = [], going[0]
            for k in range(n, 0, -1):
                prev, text, joint = layers[k][v]
                steps.append((text, joint))
                v = prev
            return n, steps[::-1]
        nxt: dict[int, tuple[int, str, tuple] | None] = {}
        for v in going:
            for text, joint, w in g.edges[v]:
                nxt.setdefault(w, (v, text, joint))
        layer = nxt
        layers.append(layer)
    raise AssertionError("unreachable")


def _good_goal(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 100


def _good_goals(goals) -> bool:
    return bool(goals) and all(_good_goal(x) for x in goals)
