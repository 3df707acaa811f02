"""Monte Carlo tree search (UCT with random playouts): a game-agnostic opponent.

It needs nothing but the state API (`legal_moves`, `apply`, `goals`), so it
plays any TGPL game for any number of players: every node keeps the summed
goals of every player, and the player to move at a node picks the child best
for *their* goal. It is deterministic: a decision's generator is seeded from
the game seed, the seat and the number of decisions the agent has taken, so
`tgpl play --seed S --players mcts:200,random` is the same game every time.

It searches the true state: a game's future shuffles are fixed by its seed
and hidden objects are in the state, so on chance or hidden-information games
it plays as if it could see them (docs/analyze.md).

With `batched=K` (`mcts:N:batched=K`), a leaf is valued by K random playouts at once on the batched engine
(tgpl.play.batched_leaf) instead of one on the runtime; docs/batched.md measures where that pays.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from tgpl.runtime.game import Move, State
from tgpl.runtime.rng import Pcg32

DEFAULT_ITERATIONS = 200
EXPLORATION = math.sqrt(2)
# A playout that has not ended after this many moves counts as a tie for everyone.
PLAYOUT_LIMIT = 1000
DEFAULT_ROLLOUTS = 256
"""K of `mcts:N:batched`: the playouts a leaf's batch plays (docs/batched.md, the arena's figures)."""


@dataclass(frozen=True)
class MctsOptions:
    """How an MCTS agent searches: `iterations` per decision; `batched`, K playouts a leaf on the batched
    engine (None: one on the runtime); `seconds`, a wall-clock budget per decision that replaces the
    iterations (bench/mcts_batched.py's arena at equal time: its moves depend on the machine's speed, so no
    command offers it)."""

    iterations: int = DEFAULT_ITERATIONS
    batched: int | None = None
    seconds: float | None = None

    def __post_init__(self):
        if self.iterations < 1:
            raise ValueError("MCTS needs at least one iteration per move")
        if self.batched is not None and self.batched < 1:
            raise ValueError("batched leaf rollouts need at least one playout a leaf")

    @property
    def name(self) -> str:
        budget = f"{self.seconds:g}s" if self.seconds is not None else str(self.iterations)
        return f"mcts:{budget}" + (f":batched={self.batched}" if self.batched is not None else "")

    @staticmethod
    def parse(spec: str) -> MctsOptions:
        """`mcts`, `mcts:N`, `mcts:batched[=K]`, `mcts:N:batched[=K]`; ValueError naming what is wrong."""
        parts = spec.strip().split(":")
        if parts[0] != "mcts":
            raise ValueError(f"unknown agent '{spec}'")
        iterations, batched = DEFAULT_ITERATIONS, None
        rest = parts[1:]
        if rest and not rest[0].startswith("batched"):
            if not (rest[0].isdigit() and int(rest[0]) >= 1):
                raise ValueError(f"'{spec}': the iterations per move of mcts:N must be a positive whole number")
            iterations = int(rest.pop(0))
        if rest:
            kind, equals, k = rest.pop(0).partition("=")
            if kind != "batched" or rest:
                raise ValueError(f"'{spec}': expected mcts, mcts:N, mcts:N:batched or mcts:N:batched=K")
            if equals and not (k.isdigit() and int(k) >= 1):
                raise ValueError(f"'{spec}': the playouts a leaf of batched=K must be a positive whole number")
            batched = int(k) if equals else DEFAULT_ROLLOUTS
        return MctsOptions(iterations, batched)


class _Node:
    __slots__ = ("state", "mover", "untried", "children", "visits", "totals")

    def __init__(self, state: State, moves: list[Move] | None = None):
        self.state = state
        self.mover = state.active_player
        self.untried = list(state.legal_moves() if moves is None else moves)
        self.children: list[tuple[Move, _Node]] = []
        self.visits = 0
        self.totals = [0.0] * state.world.players

    def best_child(self) -> _Node:
        """UCT: the mover's mean reward plus the exploration bonus; the first of equals."""
        log_n = math.log(self.visits)
        p = self.mover
        best, best_value = None, -math.inf
        for _, child in self.children:
            value = child.totals[p] / child.visits + EXPLORATION * math.sqrt(log_n / child.visits)
            if value > best_value:
                best, best_value = child, value
        return best


def _rewards(state: State) -> list[float]:
    """Goals in 0..1; a state stuck or cut short rewards nobody more than anybody."""
    if state.is_terminal:
        return [g / 100 for g in state.goals]
    return [0.5] * state.world.players


class MctsAgent:
    """UCT over the game's own states; `iterations` playouts per decision (or as `options` say)."""

    def __init__(self, seed: int, player: int, iterations: int = DEFAULT_ITERATIONS,
                 options: MctsOptions | None = None, say: Callable[[str], None] | None = None):
        """`options` replaces `iterations` when given. `say`: told why batched leaf rollouts fall back to the
        runtime's playouts, once a process and game (default: standard error)."""
        options = options if options is not None else MctsOptions(iterations)
        self.options = options
        self.seed = seed
        self.player = player
        self.iterations = options.iterations
        self.name = options.name
        self.decisions = 0
        self.say = say if say is not None else (lambda text: print(text, file=sys.stderr))
        self.leaf = None  # the LeafNetwork of batched leaf rollouts; None: the runtime's playouts
        self.prepared = False  # the network looked for

    def prepare(self, state: State) -> None:
        """Look for the batched network of `state`'s game once (lowering takes seconds: a bench calls it before
        the game); where there is none, the agent plays the runtime's playouts, `say` told why once a process."""
        if self.options.batched is None or self.prepared:
            return
        from tgpl.play.batched_leaf import LeafNetwork

        self.leaf = LeafNetwork.build(state.game, self.seed, self.say)
        self.prepared = True

    def _rng(self) -> Pcg32:
        rng = Pcg32((self.seed << 20) + self.decisions, stream=2000 + self.player)
        self.decisions += 1
        return rng

    def choose(self, state: State, moves: list[Move]) -> Move:
        rng = self._rng()
        if len(moves) == 1:
            return moves[0]
        best_move, best_visits = moves[0], -1
        for move, visits in self._search(state, moves, rng):  # the most visited; the first of equals
            if visits > best_visits:
                best_move, best_visits = move, visits
        return best_move

    def visits(self, state: State, moves: list[Move]) -> list[tuple[Move, int]]:
        """How often the search this agent would run now tried each move (the root's children in
        the order they were expanded): what `tgpl serve` draws as "what would the bot play"."""
        return self._search(state, moves, self._rng())

    def _search(self, state: State, moves: list[Move], rng: Pcg32) -> list[tuple[Move, int]]:
        root = _Node(state, moves)
        self.prepare(state)
        evaluate = self._playout if self.leaf is None else self._batched_playouts
        for _ in self._budget():
            node, path = root, [root]
            while not node.untried and node.children:  # selection
                node = node.best_child()
                path.append(node)
            if node.untried:  # expansion: one untried move, drawn at random
                move = node.untried.pop(rng.below(len(node.untried)))
                child = _Node(node.state.apply(move))
                node.children.append((move, child))
                node = child
                path.append(node)
            rewards = evaluate(node.state, rng)
            for visited in path:  # backpropagation
                visited.visits += 1
                totals = visited.totals
                for i, r in enumerate(rewards):
                    totals[i] += r
        return [(move, child.visits) for move, child in root.children]

    def _budget(self):
        """The iterations of a decision: `iterations` of them, or as many as `seconds` allows (one at least)."""
        if self.options.seconds is None:
            return range(self.iterations)
        return _until(time.perf_counter() + self.options.seconds)

    def _batched_playouts(self, state: State, rng: Pcg32) -> list[float]:
        """Each seat's mean reward over K playouts from `state` on the batched engine, seeded from `rng`."""
        if state.is_terminal:
            return _rewards(state)
        return self.leaf.value(state, self.options.batched, rng.next_u32(), PLAYOUT_LIMIT)

    @staticmethod
    def _playout(state: State, rng: Pcg32) -> list[float]:
        for _ in range(PLAYOUT_LIMIT):
            if state.is_terminal:
                break
            moves = state.legal_moves()
            if not moves:
                break
            state = state.apply(moves[rng.below(len(moves))])
        return _rewards(state)


def _until(deadline: float):
    """Iterations while the clock is before `deadline`, the first one always."""
    yield 0
    while time.perf_counter() < deadline:
        yield 0
