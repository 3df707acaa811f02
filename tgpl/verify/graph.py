"""Reachable game graphs and what can be decided on them: `explore`, `verify`, `compare`.

A state machine is anything with the `Machine` shape below; adapters for the
TGPL runtime (`tgpl.verify.runtime_machine`) and the GDL reasoner (`tgpl.asp.verify`)
live next to their owners. Nodes are numbered in breadth-first order, so the
BFS tree gives shortest witnesses.
"""

from __future__ import annotations

import gc
import os
import time
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Protocol, Sequence

from tgpl.limits import LimitReached, memory_in_use


@dataclass
class Info:
    """What a machine says about one state.

    movers: the roles whose choice matters here (turn-based: the active player);
    stuck: the roles with no legal move in a non-terminal state;
    goals: per role, an int, or None when the state gives the role no (valid) goal;
    moves: (text, joint, next state); joint has one entry per role: the role's
    move (any hashable) or None when the role does not choose.
    """
    terminal: bool
    goals: Sequence[Any]
    movers: tuple[int, ...]
    stuck: tuple[int, ...]
    moves: list[tuple[str, tuple, Any]]
    goal_error: str | None = None
    # A chance node's: the probability of each of `moves` (its outcomes), which sum to 1; None elsewhere
    chances: list | None = None


class Machine(Protocol):
    roles: Sequence[str]

    def initial(self) -> Any: ...

    def key(self, state: Any) -> Hashable: ...

    def info(self, state: Any) -> Info: ...

    # Optional: `release(state)` is called once explore no longer needs a state object
    # the machine returned (expanded, or a duplicate of a state already seen), so that
    # the machine can free it at once rather than leave it to the garbage collector.
    # Optional: `leaf_info(state)`, an `Info` without `moves`, for the states a search
    # limited in depth examines but does not expand (it spares their successors).
    # Optional: `store(state)`, what explore keeps of a state of its frontier once its key is
    # made (something compact: explore does not release the state then, the machine does what
    # it needs), and `restore(stored)`, the state again when its turn to be expanded comes.


@dataclass
class Graph:
    roles: list[str]
    complete: bool = True
    terminal: list[bool] = field(default_factory=list)
    goals: list[tuple] = field(default_factory=list)
    goal_error: list[str | None] = field(default_factory=list)
    movers: list[tuple[int, ...]] = field(default_factory=list)
    stuck: list[tuple[int, ...]] = field(default_factory=list)
    edges: list[list[tuple[str, tuple, int]]] = field(default_factory=list)
    parent: list[tuple[int, str] | None] = field(default_factory=list)
    expanded: int = 0
    stored: int = 0  # states seen (expanded or in the frontier)
    stopped: str | None = None  # which cap stopped an incomplete exploration
    depth: list[int] = field(default_factory=list)  # each state's moves from the start (its BFS level)
    max_depth: int | None = None  # the states at this depth were examined, not expanded (`explore`)
    levels: int = 0  # the BFS levels whose states were all examined (fewer than all when a cap stopped it)
    # Chance nodes (`tgpl.verify.chance_machine`): node -> the probability of each of its edges, in order
    chance: dict[int, list] = field(default_factory=dict)

    @property
    def states(self) -> int:
        return len(self.terminal)

    @property
    def transitions(self) -> int:
        return sum(len(e) for e in self.edges)

    def path(self, node: int) -> list[str]:
        """The shortest move sequence from the initial state to `node` (BFS tree)."""
        out = []
        while self.parent[node] is not None:
            node, text = self.parent[node]
            out.append(text)
        return out[::-1]

    def walk(self, node: int) -> list[tuple[str, tuple]]:
        """The moves of `path(node)` with their joint moves: (text, joint) per step."""
        out = []
        while self.parent[node] is not None:
            prev, text = self.parent[node]
            out.append(next((t, j) for t, j, w in self.edges[prev] if w == node))
            node = prev
        return out[::-1]

    def label(self, node: int) -> tuple:
        return (self.terminal[node], tuple(self.goals[node]) if self.terminal[node] else (),
                () if self.terminal[node] else self.movers[node])


COLLECTION_EVERY = 100_000  # states expanded between garbage collections while exploring


@contextmanager
def collections_paused():
    """Python's cyclic garbage collector off while exploring (or building anything large and
    acyclic, such as the KIF reader's nodes): its collections traverse every object that
    survives, here every state of the frontier, again and again (about a sixth of exploring
    tic-tac-toe, more than half of reading the lowered Connect Four). States are freed by
    reference counting (machines with cyclic states release them, see `Machine`); whatever
    else forms cycles is collected every COLLECTION_EVERY states by explore, and the
    collector is on again afterwards."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def physical_memory() -> int | None:
    """The machine's memory in bytes, None where it cannot be read."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def default_max_memory() -> int | None:
    """A safe fraction of the machine: a quarter of its memory."""
    total = physical_memory()
    return total // 4 if total else None


MEMORY_CHECK_EVERY = 512  # states stored (or expanded) between two readings of the memory in use


def explore(machine: Machine, max_states: int = 1_000_000,
            progress: Callable[[int, int], None] | None = None, max_memory: int | None = None,
            keep_memory: int | None = None, stop: Callable[[], str | None] | None = None,
            max_depth: int | None = None) -> Graph:
    """Every reachable state, breadth first; `complete` is False when the run stopped first.

    With `max_depth`, only the states within that many moves: those at `max_depth` are
    examined (terminal, goals, stuck) but not expanded, with the machine's `leaf_info`
    where it has one; the graph is then complete when no cap stopped it.

    At most `max_states` states are stored; with `max_memory` (bytes of this process) the
    run stops before going past it. Either way `stopped` says which cap stopped it. Seen
    states are kept as their keys only (a machine may make them compact); the states of
    the frontier are kept whole while the process uses less than `keep_memory` (default: a
    quarter of `max_memory`), and past that, on a machine with `replay(moves)`, rebuilt
    from their moves when their turn to be expanded comes. `stop` (asked after every state, so
    it must be cheap: tgpl.limits.Limits.stopper) may give another reason to stop (a time
    limit), kept in `stopped` too. A machine that checks the command's limits itself, inside
    a state (tgpl.verify.chance_machine: one move's draws can be thousands of runs), stops
    the run there as `stop` would (LimitReached, its `cap` kept in `stopped`), the state it
    was expanding left unexpanded; before the first state is expanded, there is no graph,
    and LimitReached goes on to the caller.
    """
    if keep_memory is None and max_memory is not None:
        keep_memory = max_memory // 4
    with collections_paused():
        return _explore(machine, max_states, progress, max_memory, keep_memory, stop, max_depth)


def _explore(machine: Machine, max_states: int, progress: Callable[[int, int], None] | None,
             max_memory: int | None, keep_memory: int | None, stop: Callable[[], str | None] | None,
             max_depth: int | None = None) -> Graph:
    g = Graph(list(machine.roles), max_depth=max_depth)
    leaf_info = getattr(machine, "leaf_info", machine.info)
    release = getattr(machine, "release", None)
    replay = getattr(machine, "replay", None)
    store = getattr(machine, "store", None)
    restore = getattr(machine, "restore", None)
    check_memory = (max_memory is not None or keep_memory is not None) and memory_in_use() is not None
    # whether new frontier states are kept whole (else rebuilt by replay)
    keep = replay is None or keep_memory is None or keep_memory > 0
    outcomes: dict[tuple, tuple] = {}  # the goals of terminal states, each met once
    states = [machine.initial()]
    index = {machine.key(states[0]): 0}
    g.parent.append(None)
    g.depth.append(0)
    capped = False  # the state cap was reached: a search limited in depth examines the rest of the level
    i = 0
    stored_since_check = 0
    reported = time.monotonic()
    while i < len(states):
        state = states[i]
        if state is None:
            state = replay(g.path(i))
        elif restore is not None:
            state = restore(state)
        leaf = g.depth[i] == max_depth or capped
        try:
            info = leaf_info(state) if leaf else machine.info(state)
        except LimitReached as e:
            if i == 0:
                raise
            g.stopped, g.complete = e.cap, False
            break
        states[i] = None  # the graph keeps what it needs; let the state go
        g.terminal.append(info.terminal)
        goals = tuple(info.goals)
        g.goals.append(outcomes.setdefault(goals, goals) if goals else goals)  # one tuple per outcome
        g.goal_error.append(info.goal_error)
        g.movers.append(tuple(info.movers))
        g.stuck.append(tuple(info.stuck))
        out = []
        full = False
        if leaf and release is not None:  # a machine without leaf_info listed successors no one keeps
            for _, _, nxt in info.moves:
                release(nxt)
        chances = info.chances
        kept: list = []  # the probabilities of the edges kept, for a chance node
        for k, (text, joint, nxt) in enumerate(() if leaf else info.moves):
            new = len(states)
            key = machine.key(nxt)
            j = index.get(key, new) if full else index.setdefault(key, new)  # one hash of the key, not two
            if j == new:
                if full or new >= max_states:  # storing it would pass the cap
                    if not full:
                        del index[key]
                        full = True
                        g.stopped = f"the state cap ({max_states} states stored, --max-states)"
                    if release is not None:
                        release(nxt)
                    continue
                kept_as = None if not keep else nxt if store is None else store(nxt)
                states.append(kept_as)
                g.parent.append((i, text))
                g.depth.append(g.depth[i] + 1)
                stored_since_check += 1
                if not keep and release is not None:  # (a state given to `store` is the machine's to free)
                    release(nxt)
            elif release is not None and states[j] is not nxt:
                release(nxt)
            out.append((text, joint, j))
            if chances is not None:
                kept.append(chances[k])
        g.edges.append(out)
        if chances is not None and not leaf:
            g.chance[i] = kept
        info = None
        if release is not None:
            release(state)
        state = None
        i += 1
        capped = capped or full
        # the level's other states are examined (storing nothing) so that the level counts as searched
        finishing = capped and max_depth is not None and i < len(states) and g.depth[i] == g.depth[i - 1]
        if i % COLLECTION_EVERY == 0:
            gc.collect()
        if check_memory and (stored_since_check >= MEMORY_CHECK_EVERY or i % MEMORY_CHECK_EVERY == 0):
            stored_since_check = 0
            used = memory_in_use() or 0
            if max_memory is not None and used > max_memory:
                g.stopped = f"the memory cap ({used // 2**20} MB in use, --max-memory {max_memory // 2**20} MB)"
                finishing = False
            elif keep and replay is not None and keep_memory is not None and used > keep_memory:
                keep = False
        if progress is not None and (i % 1000 == 0 or time.monotonic() - reported >= 1.0):
            reported = time.monotonic()
            progress(i, len(states))
        if stop is not None and (g.stopped is None or finishing) and i < len(states):
            if (reason := stop()) is not None:
                g.stopped, finishing = reason, False
        if g.stopped is not None:
            g.complete = False
            if not finishing:
                break
    g.expanded = i
    g.levels = g.depth[i] if i < len(states) else max(g.depth) + 1
    g.stored = len(states)
    if not g.complete:  # cut the unexpanded frontier off: only expanded nodes are analysed
        del g.parent[i:]
        del g.depth[i:]
        g.chance = {v: [p for p, e in zip(ps, g.edges[v]) if e[2] < i] for v, ps in g.chance.items()}
        g.edges = [[e for e in es if e[2] < i] for es in g.edges]
    return g


# ----------------------------------------------------------------- analyses
def find_cycle(g: Graph) -> list[str] | None:
    """A shortest path to a state on a cycle, then the cycle's moves back to it; None if acyclic."""
    found = cycle_walk(g)
    return None if found is None else [text for text, _ in found[0]]


def cycle_walk(g: Graph) -> tuple[list[tuple[str, tuple]], int] | None:
    """`find_cycle`'s moves as (text, joint) pairs, and how many of them lead to the state that comes back."""
    n = g.states
    depth = g.depth
    if len(depth) == n and all(depth[e[2]] > depth[v] for v in range(n) for e in g.edges[v]):
        return None  # every move goes one level deeper (Tris: a mark more each): no path comes back
    # Tarjan's strongly connected components, iteratively.
    index = [-1] * n
    low = [0] * n
    on = [False] * n
    comp = [-1] * n
    stack: list[int] = []
    counter = 0
    ncomp = 0
    for root in range(n):
        if index[root] != -1:
            continue
        work = [(root, 0)]
        while work:
            v, pos = work[-1]
            if pos == 0:
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
                on[v] = True
            edges = g.edges[v]
            if pos < len(edges):
                work[-1] = (v, pos + 1)
                w = edges[pos][2]
                if index[w] == -1:
                    work.append((w, 0))
                elif on[w]:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
            if low[v] == index[v]:
                while True:
                    w = stack.pop()
                    on[w] = False
                    comp[w] = ncomp
                    if w == v:
                        break
                ncomp += 1
    size = [0] * ncomp
    for c in comp:
        size[c] += 1
    cyclic = [v for v in range(n) if size[comp[v]] > 1 or any(e[2] == v for e in g.edges[v])]
    if not cyclic:
        return None
    v = min(cyclic)  # BFS numbering: the first is the closest to the start
    # The shortest way from v back to v inside its component.
    prev: dict[int, tuple[int, str, tuple]] = {}
    queue = deque()
    for text, joint, w in g.edges[v]:
        if comp[w] == comp[v] and w not in prev:
            prev[w] = (v, text, joint)
            queue.append(w)
    while v not in prev:
        u = queue.popleft()
        for text, joint, w in g.edges[u]:
            if comp[w] == comp[v] and w not in prev:
                prev[w] = (u, text, joint)
                queue.append(w)
    loop = []
    u = v
    while True:
        u, text, joint = prev[u]
        loop.append((text, joint))
        if u == v:
            break
    start = g.walk(v)
    return start + loop[::-1], len(start)


def forced(g: Graph, role: int, target: Callable[[int], bool]) -> list[bool]:
    """The states from which `role` can force reaching a terminal state satisfying `target`.

    Least fixed point (an endless play is not a win): a terminal state counts when
    `target` holds; a non-terminal one when the role has a move (its entry of the
    joint move; roles that do not choose have one, None) such that every joint
    move with that entry leads to a forced state. Turn-based, this is "the player
    to move picks a move, the others must answer every reply"; with simultaneous
    moves, the role must win against every joint reply of the others.
    """
    return Forcing(g, role).solve(target)


class Forcing:
    """`forced` for one role, with what does not depend on the target built once.

    `verify` asks one role several questions (can it force a win, a goal of at least
    t for each t): the options (a state with the role's entry of a joint move) and
    their predecessors are the same for all of them.
    """

    def __init__(self, g: Graph, role: int):
        self.g = g
        owner: list[int] = []  # option id -> its state
        count: list[int] = []  # option id -> edges with this option
        preds: list[list[int]] = [[] for _ in range(g.states)]  # state -> options leading to it
        terminal, edges = g.terminal, g.edges
        for v in range(g.states):
            if terminal[v]:
                continue
            ids: dict[Any, int] = {}  # the role's entry of a joint move -> its option, in this state
            for _, joint, w in edges[v]:
                entry = joint[role] if role < len(joint) else None
                k = ids.get(entry)
                if k is None:
                    k = ids[entry] = len(owner)
                    owner.append(v)
                    count.append(1)
                else:
                    count[k] += 1
                preds[w].append(k)
        self.owner, self.count, self.preds = owner, count, preds

    def solve(self, target: Callable[[int], bool]) -> list[bool]:
        g = self.g
        win = [False] * g.states
        count = self.count[:]  # per option: edges not yet known to win
        owner, preds = self.owner, self.preds
        queue = deque()
        for v in range(g.states):
            if g.terminal[v] and target(v):
                win[v] = True
                queue.append(v)
        while queue:
            w = queue.popleft()
            for k in preds[w]:
                v = owner[k]
                if win[v]:
                    continue
                count[k] -= 1
                if count[k] == 0:
                    win[v] = True
                    queue.append(v)
        return win


@dataclass
class Finding:
    kind: str  # stuck, cycle, goal, unwinnable, incomplete
    message: str
    witness: list[str] | None = None
    role: str | None = None

    def to_json(self) -> dict:
        return {"kind": self.kind, "message": self.message, "role": self.role, "witness": self.witness}


def verify(g: Graph) -> dict:
    """The report of `tgpl verify` on an explored graph (JSON-ready)."""
    with collections_paused():  # the analyses build large acyclic tables: nothing for the collector
        return _verify(g)


def _verify(g: Graph) -> dict:
    roles = g.roles
    problems: list[Finding] = []
    n = g.states
    terminal = [v for v in range(n) if g.terminal[v]]
    stuck = [v for v in range(n) if not g.terminal[v] and g.stuck[v] and v < g.expanded]
    if stuck:
        v = stuck[0]
        who = ", ".join(roles[r] for r in g.stuck[v])
        problems.append(Finding("stuck", f"{len(stuck)} stuck state(s): {who} has no legal move", g.path(v)))
    cycle = find_cycle(g)
    loops_by_chance = False  # every cycle is left with probability 1, whatever the players do
    if cycle is not None and g.chance:
        from tgpl.verify.expectation import endless

        kept = endless(g)
        if kept:
            cycle = g.path(kept[0]) + _lasso(g, set(kept), kept[0])
        else:
            loops_by_chance = True
    if cycle is not None and not loops_by_chance:
        problems.append(Finding("cycle", "a play can go on for ever (a cycle in the reachable graph)", cycle))
    bad_goals = [v for v in terminal if g.goal_error[v] is not None
                 or any(not isinstance(x, int) or isinstance(x, bool) or not 0 <= x <= 100 for x in g.goals[v])]
    if bad_goals:
        v = bad_goals[0]
        why = g.goal_error[v] or f"goals {list(g.goals[v])}"
        problems.append(Finding("goal", f"{len(bad_goals)} terminal state(s) without exactly one goal in 0..100 "
                                        f"per role: {why}", g.path(v)))
    def valid(v: int, r: int) -> bool:
        x = g.goals[v][r] if r < len(g.goals[v]) else None
        return isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 100

    winnable: dict[str, dict] = {}
    forcing: dict[str, bool] = {}
    guaranteed: dict[str, int | None] = {}
    for r, name in enumerate(roles):
        good = [v for v in terminal if valid(v, r)]
        best = max((g.goals[v][r] for v in good), default=None)
        wins = [v for v in good if g.goals[v][r] == 100]
        if wins:
            winnable[name] = {"winnable": True, "best": 100, "witness": g.path(wins[0])}
        else:
            at = next((v for v in good if g.goals[v][r] == best), None)
            w = g.path(at) if at is not None else None
            winnable[name] = {"winnable": False, "best": best, "witness": w}
            why = f"best goal: {best}" if best is not None else "no terminal state is reachable that gives it a goal"
            if g.complete:  # else a win may lie beyond what was explored
                problems.append(Finding("unwinnable", f"{name} never wins ({why})", w, name))
        ok = set(good)
        forcing_r = Forcing(g, r)
        secured: dict[int, bool] = {}  # goal t -> can the role force a goal of t or more (a win: t = 100)

        def secures(t: int) -> bool:
            if t not in secured:
                secured[t] = forcing_r.solve(lambda v: v in ok and g.goals[v][r] >= t)[0]
            return secured[t]
        forcing[name] = bool(wins) and secures(100)
        values = sorted({g.goals[v][r] for v in good}, reverse=True)
        guaranteed[name] = next((t for t in values if secures(t)), None)
    winners = [name for name in roles if forcing[name]]
    whatever = " whatever the chance outcomes" if g.chance else ""
    if not g.complete:
        value = "unknown (the check is incomplete)"
    elif winners:
        value = "win for " + " and ".join(winners) + whatever
    elif guaranteed and all(x is not None for x in guaranteed.values()) and sum(guaranteed.values()) == 100 \
            and len(roles) > 1:
        value = "draw" if len(set(guaranteed.values())) == 1 else \
            "secured goals " + ", ".join(f"{k}: {v}" for k, v in guaranteed.items())
    else:
        value = "undetermined (no role can force a win)"
    report = {
        "complete": g.complete,
        "stopped": g.stopped,
        "roles": list(roles),
        "states": n if g.complete else g.expanded,
        "terminal": len(terminal),
        "transitions": g.transitions,
        "stuck": len(stuck),
        "terminates": cycle is None or loops_by_chance,
        "loops_only_by_chance": loops_by_chance,
        "goals_ok": not bad_goals,
        "weakly_winnable": winnable,
        "forced_win": forcing if g.complete else {name: None for name in roles},
        "guaranteed_goal": guaranteed if g.complete else {name: None for name in roles},
        "value": value,
        "problems": [p.to_json() for p in problems],
        "well_formed": not problems,
        "chance_nodes": len(g.chance),
        "expected_goal": None,
    }
    if g.chance and g.complete:
        from tgpl.verify.expectation import expected_goals

        found = expected_goals(g)
        if found is not None:
            report["expected_goal"] = {name: found.values[r] for r, name in enumerate(roles)}
            report["expectation"] = {"sweeps": found.sweeps, "converged": found.converged}
    return report


def _lasso(g: Graph, kept: set[int], start: int) -> list[str]:
    """Moves from `start` that stay in `kept` (each state there has such a move: `expectation.endless`)
    until a state comes back: with the path to `start`, a play that can go on for ever."""
    seen, out, v = set(), [], start
    while v not in seen:
        seen.add(v)
        text, _, v = next(e for e in g.edges[v] if e[2] in kept)
        out.append(text)
    return out


# --------------------------------------------------------------- bisimulation
COMPARE_CHECK_EVERY = 16_384  # nodes between two calls of compare's `check`


def compare(a: Graph, b: Graph, check: Callable[[], None] | None = None,
            progress: Callable[[int, int], None] | None = None) -> dict:
    """Bisimulation of two game graphs by partition refinement on their disjoint union.

    States are labelled by (terminal, goals if terminal, movers if not); moves are
    matched existentially (their names are ignored). Returns whether the initial
    states are bisimilar and, if not, a shortest pairing of moves after which they
    differ (the depth at which refinement tells them apart). `check()` is called every
    COMPARE_CHECK_EVERY nodes (tgpl.limits.Limits.check, which raises past the command's
    limits); `progress(round, blocks)` after each round of refinement.
    """
    na = a.states
    graphs = (a, b)
    nodes = [(0, v) for v in range(a.states)] + [(1, v) for v in range(b.states)]
    every = COMPARE_CHECK_EVERY

    def checked(items):
        """items, with `check()` every `every` of them."""
        for k, x in enumerate(items):
            if check is not None and not k % every:
                check()
            yield x

    succ = [[na * s + e[2] if s else e[2] for e in graphs[s].edges[v]] for s, v in checked(nodes)]
    labels: dict[tuple, int] = {}
    block = [labels.setdefault(graphs[s].label(v), len(labels)) for s, v in checked(nodes)]
    history = [block]
    while True:
        sigs: dict[tuple, int] = {}
        new = [sigs.setdefault((block[u], frozenset(block[w] for w in succ[u])), len(sigs))
               for u in checked(range(len(nodes)))]
        history.append(new)
        if progress is not None:
            progress(len(history) - 1, len(sigs))
        if len(sigs) == len(set(block)):
            break
        block = new
    report = {"states": [a.states, b.states], "equivalent": block[0] == block[na]}
    if report["equivalent"]:
        return report

    def split_round(u: int, v: int) -> int:
        return next(k for k, h in enumerate(history) if h[u] != h[v])

    def describe(s: int, v: int) -> str:
        g = graphs[s]
        if g.terminal[v]:
            return "terminal, goals " + ", ".join(f"{g.roles[r]} {x}" for r, x in enumerate(g.goals[v]))
        movers = ", ".join(g.roles[r] for r in g.movers[v]) or "nobody"
        return f"not terminal, {movers} to move"

    steps: list[tuple[str | None, str | None]] = []
    u, v = 0, na
    reason = ""
    while True:
        k = split_round(u, v)
        if k == 0:
            reason = f"A: {describe(0, u)}; B: {describe(1, v - na)}"
            break
        prev = history[k - 1]
        side_a = [(t, w) for t, _, w in a.edges[u]]
        side_b = [(t, na + w) for t, _, w in b.edges[v - na]]
        blocks_b = {prev[w] for _, w in side_b}
        blocks_a = {prev[w] for _, w in side_a}
        lone = next(((t, w, 0) for t, w in side_a if prev[w] not in blocks_b), None) or \
            next(((t, w, 1) for t, w in side_b if prev[w] not in blocks_a), None)
        text, w, side = lone
        others = side_b if side == 0 else side_a
        if not others:
            reason = f"{'AB'[side]} plays {text}; {'BA'[side]} has no move"
            steps.append((text, None) if side == 0 else (None, text))
            break
        t2, w2 = min(others, key=lambda o: split_round(w, o[1]))
        steps.append((text, t2) if side == 0 else (t2, text))
        u, v = (w, w2) if side == 0 else (w2, w)
    report["witness"] = [{"a": x, "b": y} for x, y in steps]
    report["reason"] = reason
    return report
