"""Random playouts of B games at once: each role picks uniformly among its legal moves in each game.

A batch is played in chunks of at most CHUNK games, chunk i with its moves from
`numpy.random.default_rng([seed, i])` (one `random(n)` per role and step), so the same seed and batch size
give the same games whatever the number of processes (`jobs`) the chunks are shared between. Chunks also keep
a step's rows in the processor's caches: Connect Four plays more games a CPU second at 16,384 than at 65,536.
This is the environment's loop (tgpl.batched.env) without the State objects and the legality check the moves
need not: legal rows are read once a step, games that end keep their state.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tgpl.batched.env import MAX_STEPS, BatchedEnv, _draw
from tgpl.batched.kernel import Kernel


@dataclass(frozen=True)
class Branching:
    """The legal joint moves at each decision of the finished games, tallied (a million games' steps are not
    kept): per step, their sum and the games that reached it; over all, the decisions, the most, the forced."""

    by_step_sum: np.ndarray  # (steps,) int
    by_step_games: np.ndarray  # (steps,) int
    decisions: int
    most: int
    forced: int

    @staticmethod
    def merged(parts: list[Branching]) -> Branching:
        steps = max(len(p.by_step_sum) for p in parts)
        pad = [np.pad(p.by_step_sum, (0, steps - len(p.by_step_sum))) for p in parts]
        games = [np.pad(p.by_step_games, (0, steps - len(p.by_step_games))) for p in parts]
        return Branching(np.sum(pad, axis=0), np.sum(games, axis=0), sum(p.decisions for p in parts),
                         max(p.most for p in parts), sum(p.forced for p in parts))


@dataclass(frozen=True)
class Playouts:
    """What B random games came to."""

    goals: np.ndarray  # (B, roles) int: the goals at the end, -1 for a role given none (or an unfinished game)
    lengths: np.ndarray  # (B,) int: joint moves played
    finished: np.ndarray  # (B,) bool: reached a terminal state
    stuck: np.ndarray  # (B,) bool: a role had no legal move in a non-terminal state (an invalid game)
    branching: Branching | None = None  # with `tally`: the legal joint moves at each step of the finished games

    @property
    def games(self) -> int:
        return len(self.lengths)

    def outcomes(self) -> dict[tuple[int, ...], int]:
        """How many finished games ended with each tuple of goals, most frequent first."""
        rows, counts = np.unique(self.goals[self.finished], axis=0, return_counts=True)
        pairs = sorted(((tuple(int(v) for v in row), int(c)) for row, c in zip(rows, counts)),
                       key=lambda p: (-p[1], p[0]))
        return dict(pairs)


CHUNK = 16_384
"""Games played together in one process (a multiple of 64: packed rows are whole words)."""


def random_playouts(env: BatchedEnv, seed: int, batch: int, max_steps: int = MAX_STEPS, jobs: int = 1,
                    tally: bool = False) -> Playouts:
    """`batch` random games from the initial state, played to their ends (or `max_steps`), in chunks shared
    between `jobs` processes (forked: the network is not copied). With `tally`, the branching factor of the
    finished games is tallied too (tgpl analyze --engine batched)."""
    if batch < 1:
        raise ValueError("a batch holds one game or more")
    sizes = [min(CHUNK, batch - start) for start in range(0, batch, CHUNK)]
    if jobs <= 1 or len(sizes) == 1:
        parts = [_chunk(env, seed, i, n, max_steps, tally) for i, n in enumerate(sizes)]
    else:
        import multiprocessing

        global _FORKED
        _FORKED = env
        try:
            with multiprocessing.get_context("fork").Pool(min(jobs, len(sizes))) as pool:
                parts = pool.starmap(_forked_chunk, [(seed, i, n, max_steps, tally) for i, n in enumerate(sizes)])
        finally:
            _FORKED = None
    return Playouts(*(np.concatenate([getattr(p, f) for p in parts]) for f in ("goals", "lengths", "finished", "stuck")),
                    Branching.merged([p.branching for p in parts]) if tally else None)


_FORKED: BatchedEnv | None = None  # the environment the forked workers inherit


def _forked_chunk(seed: int, index: int, batch: int, max_steps: int, tally: bool) -> Playouts:
    assert _FORKED is not None
    return _chunk(_FORKED, seed, index, batch, max_steps, tally)


COMPACT_BELOW = 256
"""Fewest games a chunk is compacted to (tgpl.batched.playouts._chunk): below it a step costs its calls."""


def _chunk(env: BatchedEnv, seed: int, index: int, batch: int, max_steps: int, tally: bool = False) -> Playouts:
    """Chunk `index` of a batch: `batch` games played together.

    Games end at different steps (Connect Four's between 7 and 42 joint moves), and a step costs the same
    for every column, ended or not. So once half the columns have ended, the running games' fluents are
    unpacked, kept and packed again into a smaller batch (`ids`: each column's game), the ended games'
    goals read first. Compacting depends only on which games ended, so the games do not depend on the
    layout or on `jobs`."""
    rng = np.random.default_rng([seed, index])
    network = env.network
    kernel = env.kernel(batch)
    values = env.init(seed, batch).values
    ids = np.arange(batch)  # the game in each column
    running = np.ones(batch, dtype=bool)  # per column
    steps = np.zeros(batch, dtype=np.int64)  # per column: joint moves played, added to `lengths` when it leaves
    finished = np.zeros(batch, dtype=bool)  # per game, as the results below
    stuck = np.zeros(batch, dtype=bool)
    lengths = np.zeros(batch, dtype=np.int64)
    goals = np.full((batch, len(env.roles)), -1, dtype=np.int64)
    goal_nodes = [[n for _, n in pairs] for pairs in network.goals]
    goal_values = [np.array([v for v, _ in pairs], dtype=np.int64) for pairs in network.goals]
    legal_nodes = network.legal
    joints: list[np.ndarray] = []  # with tally: each step's legal joint moves per game (0 where not running)
    for step in range(max_steps + 1):
        ended = running & kernel.unpack(values[[network.terminal]])[0]
        if ended.any():
            finished[ids[ended]] = True
            running &= ~ended
        if not running.any() or step == max_steps:
            break
        alive = int(running.sum())
        if alive * 2 <= len(ids) and alive >= COMPACT_BELOW:
            done = ~running & finished[ids]
            _record_goals(kernel, values, done, ids, goal_nodes, goal_values, goals)
            lengths[ids] += steps
            fluents = kernel.unpack(values[kernel.fluents])[:, running]
            ids = ids[running]
            steps = np.zeros(alive, dtype=np.int64)
            kernel = env.kernel(alive) if alive in env._kernels else Kernel(network, alive, kernel.layout)
            values = kernel.values_for(kernel.pack(fluents))
            running = np.ones(alive, dtype=bool)
        width = len(ids)
        onehots: list[np.ndarray | None] = []
        packed: dict[int, np.ndarray] = {}
        joint = running.astype(np.int64) if tally else None
        keep = kernel.pack(running[None, :])[0]
        newly_stuck = False
        for r, nodes in enumerate(legal_nodes):
            rows = values[nodes]
            if nodes and _forced(kernel, rows, keep):
                # every running game has one legal move for this role (it is not on turn): its legal rows
                # are its moves, no draw, no unpacking
                packed[r] = rows & keep
                onehots.append(None)
                continue
            legal = kernel.unpack(rows) & running if nodes else np.zeros((0, width), dtype=bool)
            some = legal.any(axis=0)
            if joint is not None:
                joint *= legal.sum(axis=0)
            none = running & ~some
            if none.any():
                stuck[ids[none]] = True
                running &= ~none
                newly_stuck = True
            chosen = _draw(legal, rng)
            chosen[~some] = -1  # no move: a game that ended or is stuck
            onehots.append(chosen)
        if newly_stuck:
            keep = kernel.pack(running[None, :])[0]
            packed = {r: rows & keep for r, rows in packed.items()}
            onehots = [None if c is None else np.where(running, c, -1) for c in onehots]
        onehots = [None if c is None else np.arange(len(legal_nodes[r]))[:, None] == c[None, :]
                   for r, c in enumerate(onehots)]
        if joint is not None:
            full = np.zeros(batch, dtype=np.int64)
            full[ids] = joint * running
            joints.append(full)
        values = env._advance(kernel, values, onehots, running, reuse=True, packed=packed)
        steps += running
    # a game that ended kept its state since, so its goals are read once, when it leaves the batch or now
    _record_goals(kernel, values, finished[ids], ids, goal_nodes, goal_values, goals)
    lengths[ids] += steps
    return Playouts(goals, lengths, finished, stuck, _tallied(joints, finished) if tally else None)


def _tallied(joints: list[np.ndarray], finished: np.ndarray) -> Branching:
    if not joints:
        return Branching(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), 0, 0, 0)
    steps = np.stack(joints)[:, finished]  # steps x finished games; 0 once a game has ended
    played = steps > 0
    return Branching(steps.sum(axis=1), played.sum(axis=1), int(played.sum()), int(steps.max(initial=0)),
                     int((steps == 1).sum()))


def _forced(kernel, rows: np.ndarray, keep: np.ndarray) -> bool:
    """Whether every game whose bit is set in `keep` has exactly one of `rows` set: computed on the rows as
    they are (64 games a word packed), a bit seen once and a bit seen twice."""
    once = np.zeros_like(keep)
    twice = np.zeros_like(keep)
    for row in rows:
        twice |= once & row
        once |= row
    exactly = once & (twice ^ kernel.ones)
    return bool(np.array_equal(exactly & keep, keep))


def _record_goals(kernel, values, columns: np.ndarray, ids: np.ndarray, goal_nodes, goal_values, goals) -> None:
    """The goals of the games in the chosen `columns`, into their rows of `goals` (-1 for a role given none;
    GDL gives a role one goal value in a terminal state, so the value is the sum of value x bit)."""
    chosen = ids[columns]
    for r, nodes in enumerate(goal_nodes):
        if nodes:
            bits = kernel.unpack(values[nodes])
            total = np.zeros(len(columns), dtype=np.int64)
            given = np.zeros(len(columns), dtype=bool)
            for value, row in zip(goal_values[r], bits):
                total += int(value) * row
                given |= row
            goals[chosen, r] = np.where(given, total, -1)[columns]


__all__ = ["CHUNK", "Playouts", "random_playouts"]
