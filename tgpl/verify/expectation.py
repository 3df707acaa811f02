"""What a game graph with chance nodes (`Graph.chance`) says in expectation: each role's expected goal
under optimal play, and whether the players can keep a play going for ever.

A chance node's value is the mean of its outcomes' values, weighted by their probabilities; a state
where one role moves takes the move best for that role (its own expected goal; the first such move among
equals, in the order the machine listed them, so the values are determined); a terminal state is its
goals. A graph with cycles (Pig: two busts in a row come back to the same state) has no order to compute
this in, so it is the least fixed point, by value iteration from 0 (an endless play is worth nothing, as it
is to `forced`), in place (Gauss-Seidel), the deepest states first, until no value moves by more than
TOLERANCE. On an acyclic graph one sweep settles every value and the second confirms it.
"""

from __future__ import annotations

from dataclasses import dataclass

from tgpl.verify.graph import Graph

TOLERANCE = 1e-13  # on goals of 0..100: a value changes by no more than this in the last sweep
MAX_SWEEPS = 1_000_000


@dataclass
class Expectation:
    values: list[float]  # the initial state's expected goal, per role
    sweeps: int  # value iteration's sweeps over the graph
    converged: bool  # False: MAX_SWEEPS were not enough (the values are then lower bounds)


def _goal(x) -> float:
    return float(x) if isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 100 else 0.0


def expected_goals(g: Graph, stop=None) -> Expectation | None:
    """Each role's expected goal from the initial state under optimal play (None: a state where several roles
    move at once, which needs mixed strategies). `stop()` (cheap: tgpl.limits) is asked every sweep."""
    n, roles = g.states, len(g.roles)
    if any(not g.terminal[v] and v not in g.chance and len(g.movers[v]) > 1 for v in range(n)):
        return None
    value = [[_goal(x) for x in g.goals[v]] + [0.0] * (roles - len(g.goals[v])) if g.terminal[v]
             else [0.0] * roles for v in range(n)]
    order = [v for v in range(n - 1, -1, -1) if not g.terminal[v] and g.edges[v]]
    sweeps = 0
    while sweeps < MAX_SWEEPS:
        sweeps += 1
        moved = 0.0
        for v in order:
            edges = g.edges[v]
            probs = g.chance.get(v)
            if probs is not None:
                new = [0.0] * roles
                for p, (_, _, w) in zip(probs, edges):
                    vw = value[w]
                    pf = float(p)
                    for r in range(roles):
                        new[r] += pf * vw[r]
            else:
                mover = g.movers[v][0]
                new = value[edges[0][2]]
                for _, _, w in edges[1:]:
                    if value[w][mover] > new[mover]:
                        new = value[w]
            old = value[v]
            for r in range(roles):
                d = abs(new[r] - old[r])
                if d > moved:
                    moved = d
            value[v] = list(new)
        if moved <= TOLERANCE:
            return Expectation(value[0], sweeps, True)
        if stop is not None and stop() is not None:
            break
    return Expectation(value[0], sweeps, False)


def endless(g: Graph) -> list[int]:
    """The states from which the players, together, can keep a play going for ever with probability 1 (the
    greatest set of non-terminal states where some move stays in the set and every outcome of a chance node
    does); empty when every play ends with probability 1 whatever the players do, cycles through chance
    outcomes notwithstanding (Pig's busts)."""
    n = g.states
    inside = [not g.terminal[v] and bool(g.edges[v]) for v in range(n)]
    changed = True
    while changed:
        changed = False
        for v in range(n):
            if not inside[v]:
                continue
            targets = [inside[w] for _, _, w in g.edges[v]]
            keep = all(targets) if v in g.chance else any(targets)
            if not keep:
                inside[v] = False
                changed = True
    return [v for v in range(n) if inside[v]]


__all__ = ["Expectation", "endless", "expected_goals"]
