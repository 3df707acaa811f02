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
"""

from __future__ import annotations

import math

from tgpl.runtime.game import Move, State
from tgpl.runtime.rng import Pcg32

DEFAULT_ITERATIONS = 200
EXPLORATION = math.sqrt(2)
# A playout that has not ended after this many moves counts as a tie for everyone.
PLAYOUT_LIMIT = 1000


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
    """UCT over the game's own states; `iterations` playouts per decision."""

    def __init__(self, seed: int, player: int, iterations: int = DEFAULT_ITERATIONS):
        if iterations < 1:
            raise ValueError("MCTS needs at least one iteration per move")
        self.seed = seed
        self.player = player
        self.iterations = iterations
        self.name = f"mcts:{iterations}"
        self.decisions = 0

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
        for _ in range(self.iterations):
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
            rewards = self._playout(node.state, rng)
            for visited in path:  # backpropagation
                visited.visits += 1
                totals = visited.totals
                for i, r in enumerate(rewards):
                    totals[i] += r
        return [(move, child.visits) for move, child in root.children]

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
