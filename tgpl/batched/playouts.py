"""Random playouts of B games at once: each role picks uniformly among its legal moves in each game.

Seeded and reproducible: the moves come from `numpy.random.default_rng(seed)`, one `random(B)` per role and
step, so the same seed and batch size give the same games (another batch size, other games). This is the
environment's loop (tgpl.batched.env) without the State objects and the legality check the moves need not:
legal rows are read once a step, games that end keep their state.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tgpl.batched.env import MAX_STEPS, BatchedEnv, _draw


@dataclass(frozen=True)
class Playouts:
    """What B random games came to."""

    goals: np.ndarray  # (B, roles) int: the goals at the end, -1 for a role given none (or an unfinished game)
    lengths: np.ndarray  # (B,) int: joint moves played
    finished: np.ndarray  # (B,) bool: reached a terminal state
    stuck: np.ndarray  # (B,) bool: a role had no legal move in a non-terminal state (an invalid game)

    @property
    def games(self) -> int:
        return len(self.lengths)

    def outcomes(self) -> dict[tuple[int, ...], int]:
        """How many finished games ended with each tuple of goals, most frequent first."""
        rows, counts = np.unique(self.goals[self.finished], axis=0, return_counts=True)
        pairs = sorted(((tuple(int(v) for v in row), int(c)) for row, c in zip(rows, counts)),
                       key=lambda p: (-p[1], p[0]))
        return dict(pairs)


def random_playouts(env: BatchedEnv, seed: int, batch: int, max_steps: int = MAX_STEPS) -> Playouts:
    """`batch` random games from the initial state, played together to their ends (or `max_steps`)."""
    rng = np.random.default_rng(seed)
    network = env.network
    kernel = env.kernel(batch)
    values = env.init(seed, batch).values
    running = np.ones(batch, dtype=bool)
    finished = np.zeros(batch, dtype=bool)
    stuck = np.zeros(batch, dtype=bool)
    lengths = np.zeros(batch, dtype=np.int64)
    goals = np.full((batch, len(env.roles)), -1, dtype=np.int64)
    goal_nodes = [[n for _, n in pairs] for pairs in network.goals]
    goal_values = [np.array([v for v, _ in pairs], dtype=np.int64) for pairs in network.goals]
    legal_nodes = network.legal
    for _ in range(max_steps + 1):
        ended = running & kernel.unpack(values[[network.terminal]])[0]
        if ended.any():
            _record_goals(kernel, values, ended, goal_nodes, goal_values, goals)
            finished |= ended
            running &= ~ended
        if not running.any() or _ == max_steps:
            break
        onehots = []
        for r, nodes in enumerate(legal_nodes):
            legal = kernel.unpack(values[nodes]) & running if nodes else np.zeros((0, batch), dtype=bool)
            none = running & ~legal.any(axis=0)
            if none.any():
                stuck |= none
                running &= ~none
                legal &= running
            chosen = _draw(legal, rng)
            onehots.append((np.arange(len(nodes))[:, None] == chosen[None, :]) & legal.any(axis=0))
        onehots = [o & running for o in onehots]
        values = env._advance(kernel, values, onehots, running)
        lengths += running
    return Playouts(goals, lengths, finished, stuck)


def _record_goals(kernel, values, ended, goal_nodes, goal_values, goals) -> None:
    for r, nodes in enumerate(goal_nodes):
        if nodes:
            bits = kernel.unpack(values[nodes])[:, ended]  # values x ended games
            has = bits.any(axis=0)
            value = goal_values[r][np.argmax(bits, axis=0)]
            goals[ended, r] = np.where(has, value, -1)


__all__ = ["MAX_STEPS", "Playouts", "random_playouts"]
