"""`tgpl query` searched state by state on the runtime, when the plays within the horizon are few.

`tgpl query` asks whether a state where an expression holds is reachable within N moves. Its general search
(tgpl.asp.bounded) lowers the game and lets clingo solve the plays of up to N moves at once: the right tool
for a deep horizon over a game with few distinct states per move (Tris at 9 moves: 550,000 plays, 5,478
states), but it pays for the whole lowering first (Reversi 8x8: 15 to 20 s) and, on a game whose moves are
compiled, for grounding every state of the horizon. Where the tree of plays within the horizon is small
(Reversi at 5 moves: 1,712 plays, 1,595 states) a breadth-first search of the runtime's own states answers
sooner, and exactly: the runtime is the semantics the lowering is validated against.

`estimate_plays` is Knuth's estimate of the number of plays within the horizon (random probes from the
initial state, each multiplying the number of legal moves it meets); `search` is the breadth-first search,
which evaluates the query in every state it meets and expands those above the horizon, one level at a time,
so that the first state found is at the fewest moves, with a shortest witness.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from tgpl.runtime.game import Game, State
from tgpl.verify.runtime_machine import RuntimeMachine

PROBES = 20  # random probes of `estimate_plays`


@dataclass(frozen=True)
class Reach:
    """The answer of `search`. witness: the moves to the first state found (None: none found); searched: the
    number of moves whose plays were examined whole (-1: not even the initial state); complete: every play
    ended within them; stopped: why the search stopped early (a cap or a limit), else None; exhausted: every
    state the game can reach was examined (the search met no new state before the horizon: a play that goes on
    only comes back to states met before), so that nothing found means found at no horizon."""

    witness: list[str] | None
    searched: int
    complete: bool
    stopped: str | None
    states: int
    exhausted: bool = False


def estimate_plays(start: State, seed: int, horizon: int, cap: float, probes: int = PROBES,
                   stop: Callable[[], str | None] | None = None) -> float:
    """Knuth's estimate of the plays of up to `horizon` moves: the mean over `probes` random walks of
    1 + b1 + b1*b2 + ..., each b the number of legal moves the walk met. A walk stops adding once its own sum
    passes `probes * cap` (the mean then passes `cap` whatever the other walks give), so a game far too large
    costs a few moves per walk. Deterministic: the walks draw from a generator seeded by `seed`. Every walk
    starts from `start` (states are values: a move makes a new one), so setup runs once."""
    rng = random.Random(seed)
    total = 0.0
    for _ in range(probes):
        state = start
        width, plays = 1.0, 1.0
        for _ in range(horizon):
            if state.is_terminal or state.error is not None:
                break
            moves = state.legal_moves()
            if not moves:
                break
            width *= len(moves)
            plays += width
            if plays > probes * cap:
                return plays / probes  # at least this much on average: past the cap
            if stop is not None and stop() is not None:
                return float("inf")
            state = state.apply(rng.choice(moves))
        total += plays
    return total / probes


def search(machine: RuntimeMachine, holds: Callable[[State], bool], horizon: int, max_states: int,
           stop: Callable[[], str | None] | None = None,
           progress: Callable[[int, int], None] | None = None) -> Reach:
    """The states within `horizon` moves, breadth first, each state once (by `machine.key`): the first where
    `holds`, with the moves to it. At most `max_states` states are stored: once the next one would pass them,
    the level's other states are examined (nothing more stored) and the search stops there, the level searched
    whole; once `stop` gives a reason, it stops at once. Either way it says why.

    `complete` (every play has ended within the moves searched) needs more than an empty next level: a move
    back to a state met at the same or an earlier level may close a cycle, a play that never ends. So the
    search notes such a move, and a level with no new state is complete only when no move ever went back and
    no state of the level has a move at all."""
    initial = machine.initial()
    parent: list[tuple[int, str] | None] = [None]
    depth_of = [0]
    seen = {machine.key(initial): 0}
    level: list[tuple[int, State]] = [(0, initial)]
    searched = -1
    went_back = False
    full: str | None = None  # the state cap, once reached: the level's other states are still examined
    for depth in range(horizon + 1):
        following: list[tuple[int, State]] = []
        moving = False  # a state of this level has a move
        for node, state in level:
            if (reason := stop() if stop is not None else None) is not None:
                return Reach(None, searched, False, reason, len(parent))
            if holds(state):
                return Reach(_path(parent, node), depth, False, None, len(parent))
            if depth == horizon or full is not None:
                moving = moving or not state.is_terminal
                machine.release(state)
                continue
            moves = machine.info(state).moves
            moving = moving or bool(moves)
            for text, _, nxt in moves:
                key = machine.key(nxt)
                known = seen.get(key)
                if known is not None:
                    went_back = went_back or depth_of[known] <= depth
                    machine.release(nxt)
                    continue
                if len(parent) >= max_states:
                    full = f"the state cap ({max_states:,} states stored, --max-states)"
                    machine.release(nxt)
                    continue
                seen[key] = len(parent)
                parent.append((node, text))
                depth_of.append(depth + 1)
                following.append((len(parent) - 1, nxt))
            machine.release(state)
        searched = depth
        if progress is not None:
            progress(depth, len(parent))
        if full is not None:
            for _, state in following:
                machine.release(state)
            return Reach(None, searched, False, full, len(parent))
        if not following:
            complete = not moving and not went_back
            return Reach(None, searched if complete else horizon, complete, None, len(parent),
                         exhausted=depth < horizon)
        level = following
    return Reach(None, searched, False, None, len(parent))


def _path(parent: list[tuple[int, str] | None], node: int) -> list[str]:
    moves = []
    while (p := parent[node]) is not None:
        node, text = p
        moves.append(text)
    return moves[::-1]


def query_predicate(game: Game, function: str) -> Callable[[State], bool]:
    """The global function `function` (no inputs, returns bool) as a test of a state: called on a copy of the
    state's world, so that nothing it does can change the state."""
    (rf,) = [f for f in game.compiled.functions.values() if f.owner is None and f.name == function]

    def holds(state: State) -> bool:
        return game.machine(state.world.copy()).call_function(rf, None, [], None) is True

    return holds


__all__ = ["Reach", "estimate_plays", "query_predicate", "search"]
