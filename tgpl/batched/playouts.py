"""Random playouts of B games at once: each role picks uniformly among its legal moves in each game.

Game k of a batch draws its moves from its own counter-based stream (SplitMix64 of the seed, k, the step and
the role: `move_uniforms`), so the same seed gives the same game k whatever the batch is split into: chunks of
at most CHUNK games (fewer under a memory limit, tgpl.batched.memory), shared between processes (`jobs`).
This is the environment's loop (tgpl.batched.env) without the State objects and the legality check the moves
need not: legal rows are read once a step, games that end keep their state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from tgpl.batched.env import MAX_STEPS, BatchedEnv
from tgpl.batched.kernel import Kernel
from tgpl.batched.memory import CHUNK
from tgpl.limits import Limits, outside
from tgpl.workers import worker_pool


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


@dataclass(frozen=True)
class _Tally:
    """A chunk's branching, over every game it played (finished or not): per step, the sum of the legal joint
    moves, the games that reached it and the forced ones; per game, the most. The games left out of the
    figures (cut or stuck) are played again alone and subtracted (`_branching`), so that nothing per game
    and step is kept."""

    sums: np.ndarray  # (steps,) int
    games: np.ndarray  # (steps,) int
    forced: np.ndarray  # (steps,) int
    most: np.ndarray  # (games,) int: per game of the chunk


def random_playouts(env: BatchedEnv, seed: int, batch: int, max_steps: int = MAX_STEPS, jobs: int = 1,
                    tally: bool = False, chunk: int = CHUNK, start: np.ndarray | None = None,
                    limits: Limits | None = None, advance: Callable[[int], None] = lambda games: None
                    ) -> Playouts:
    """`batch` random games, played to their ends (or `max_steps`) in chunks of `chunk` games shared between
    `jobs` processes (forked: the network is not copied); from the initial state, or from the state whose
    fluents are `start` (bool, one per fluent; or fluents x batch, game k from column k). Game k's moves are
    drawn from its own stream (`move_uniforms`), so the games do not depend on `chunk` or `jobs`. With
    `tally`, the branching factor of the finished games is tallied too (tgpl analyze --engine batched).
    `limits` (the command's): checked at every step played here, and the workers waited for under them, their
    memory counted (tgpl.workers); past them LimitReached, the workers killed. `advance(n)` is told of each
    chunk's n games as it ends (a progress bar)."""
    if batch < 1:
        raise ValueError("a batch holds one game or more")
    if chunk < 1:
        raise ValueError("a chunk holds one game or more")
    if jobs > 1 and env.backend == "jax":
        raise ValueError("the jax backend plays in one process (XLA spreads its work over the cores): jobs 1")
    spans = [(first, min(chunk, batch - first)) for first in range(0, batch, chunk)]
    columns = min(chunk, batch)
    if env.backend == "jax" and (start is None or np.ndim(start) == 1):
        spans = [(0, batch)]  # one jitted loop: `chunk` columns, each taking the next game when its own is over
    if jobs <= 1 or len(spans) == 1:
        parts = []
        for first, n in spans:
            parts.append(_chunk(env, seed, np.arange(first, first + n), max_steps, tally, start, columns, limits))
            advance(n)
    else:
        global _FORKED
        _FORKED = env
        try:
            with worker_pool(min(jobs, len(spans)), limits, "fork") as workers:
                futures = [workers.pool.submit(_forked_chunk, seed, first, n, max_steps, tally, start)
                           for first, n in spans]
                for future in workers.completed(futures):
                    advance(spans[futures.index(future)][1])
                parts = [future.result() for future in futures]
        finally:
            _FORKED = None
    played = [p for p, _ in parts]
    goals, lengths, finished, stuck = (np.concatenate([getattr(p, f) for p in played])
                                       for f in ("goals", "lengths", "finished", "stuck"))
    branching = (Branching.merged([_branching(env, seed, first, p, t, max_steps, start, columns, limits)
                                   for (first, _), (p, t) in zip(spans, parts)]) if tally else None)
    return Playouts(goals, lengths, finished, stuck, branching)


_FORKED: BatchedEnv | None = None  # the environment the forked workers inherit


def _forked_chunk(seed: int, first: int, n: int, max_steps: int, tally: bool, start: np.ndarray | None):
    assert _FORKED is not None
    return _chunk(_FORKED, seed, np.arange(first, first + n), max_steps, tally, start)


def _branching(env: BatchedEnv, seed: int, first: int, played: Playouts, tally: _Tally, max_steps: int,
               start: np.ndarray | None, columns: int = 0, limits: Limits | None = None) -> Branching:
    """The chunk's branching over its finished games: the tally of all of them, less that of the games left
    out (cut at `max_steps` or stuck), played again alone (their moves are theirs whatever the batch)."""
    sums, games, forced = tally.sums.copy(), tally.games.copy(), tally.forced.copy()
    out = np.flatnonzero(~played.finished)
    if len(out):
        _, again = _chunk(env, seed, first + out, max_steps, True, start, columns, limits)
        n = len(again.sums)
        sums[:n] -= again.sums
        games[:n] -= again.games
        forced[:n] -= again.forced
    most = int(tally.most[played.finished].max(initial=0))
    return Branching(sums, games, int(games.sum()), most, int(forced.sum()))


COMPACT_BELOW = 256
"""Fewest games a chunk is compacted to (tgpl.batched.playouts._chunk): below it a step costs its calls."""


def _chunk(env: BatchedEnv, seed: int, games: np.ndarray, max_steps: int, tally: bool = False,
           start: np.ndarray | None = None, columns: int = 0, limits: Limits | None = None
           ) -> tuple[Playouts, _Tally | None]:
    """The games numbered `games` played together, from the initial state or from `start` (fluents). On the
    jax backend, tgpl.batched.jax_playouts.jax_chunk plays them (in `columns` columns, padding included).

    Games end at different steps (Connect Four's between 7 and 42 joint moves), and a step costs the same
    for every column, ended or not. So once half the columns have ended, the running games' fluents are
    unpacked, kept and packed again into a smaller batch (`ids`: each column's game), the ended games'
    goals read first. Each game draws its moves from its own stream, so compacting changes no game, and the
    games do not depend on the layout, the chunk or `jobs`. `limits`: polled at every step (a worker's chunk
    has none: its process waits for it under them); jax's loop is compiled whole, and is waited for under
    them in a thread of its own (tgpl.limits.outside)."""
    if env.backend == "jax":
        from tgpl.batched.jax_playouts import jax_chunk

        def jax_games() -> tuple[Playouts, _Tally | None]:
            return jax_chunk(env, seed, games, max_steps, tally, start, columns)

        return jax_games() if limits is None else outside(jax_games, limits)
    batch = len(games)
    network = env.network
    kernel = env.kernel(batch)
    if start is None:
        values = env.init(seed, batch).values
    else:
        start = np.asarray(start, dtype=bool)
        rows = start[:, games] if start.ndim == 2 else np.repeat(start[:, None], batch, axis=1)
        values = kernel.values_for(kernel.pack(rows))
    ids = np.arange(batch)  # the game in each column (its row in the results)
    keys = game_keys(seed, games)  # per column: its game's stream
    run = kernel.pack(np.ones((1, batch), dtype=bool))[0]  # per column, packed: the game is running
    finished = np.zeros(batch, dtype=bool)  # per game, as the results below
    stuck = np.zeros(batch, dtype=bool)
    lengths = np.zeros(batch, dtype=np.int64)
    goals = np.full((len(env.roles), batch), -1, dtype=np.int64)  # transposed at the end
    most = np.zeros(batch, dtype=np.int64)
    goal_nodes = [np.array([n for _, n in pairs], dtype=np.int64) for pairs in network.goals]
    goal_values = [np.array([v for v, _ in pairs], dtype=np.int64) for pairs in network.goals]
    legal_nodes = [np.array(nodes, dtype=np.int64) for nodes in network.legal]
    does = [_does_rows(nodes) for nodes in network.does]
    roles = len(legal_nodes)
    sums: list[int] = []
    reached: list[int] = []
    forced_games: list[int] = []
    for step in range(max_steps + 1):
        if limits is not None:
            limits.poll()
        ended = values[network.terminal] & run
        if ended.any():
            over = ids[_columns(kernel, ended)]
            finished[over] = True
            lengths[over] = step
            run ^= ended
        running = kernel.unpack(run[None, :])[0]
        alive = int(np.count_nonzero(running))
        if not alive or step == max_steps:
            break
        if alive * 2 <= len(ids) and alive >= COMPACT_BELOW:
            _record_goals(kernel, values, ~running & finished[ids], ids, goal_nodes, goal_values, goals)
            kept = np.flatnonzero(running)  # integer indices: a boolean mask along the columns costs twice
            fluents = kernel.unpack(values[kernel.fluents]).take(kept, axis=1)
            ids = ids[kept]
            keys = keys[kept]
            kernel = env.kernel(alive) if alive in env._kernels else kernel.resized(alive)
            values = kernel.values_for(kernel.pack(fluents))
            running = np.ones(alive, dtype=bool)
            run = kernel.pack(running[None, :])[0]
        joint = running.astype(np.int64) if tally else None
        for r, nodes in enumerate(legal_nodes):
            if not len(nodes):
                lost = run
            else:
                rows = values[nodes]
                rows &= run
                chosen = _forced(rows, run)
                lost = None  # the forced role has its move in every running game
                if chosen is None:
                    chosen, counts = _draw_rows(kernel, rows, move_bits(keys, step, r, roles))
                    if joint is not None:
                        joint *= counts
                    if np.count_nonzero(counts) < alive:
                        lost = run & ~np.bitwise_or.reduce(rows, axis=0)
                read, targets = does[r]
                values[targets] = chosen[read]
            if lost is not None and lost.any():  # no legal move in a running game: stuck, its state kept
                out = ids[_columns(kernel, lost)]
                stuck[out] = True
                lengths[out] = step
                run = run & ~lost
        if joint is not None:
            joint *= kernel.unpack(run[None, :])[0]
            sums.append(int(joint.sum()))
            reached.append(int(np.count_nonzero(joint)))
            forced_games.append(int(np.count_nonzero(joint == 1)))
            most[ids] = np.maximum(most[ids], joint)
        kernel.advance(values, run)
    # a game that ended kept its state since, so its goals are read once, when it leaves the batch or now
    _record_goals(kernel, values, finished[ids], ids, goal_nodes, goal_values, goals)
    lengths[ids[kernel.unpack(run[None, :])[0]]] = step
    played = Playouts(np.ascontiguousarray(goals.T), lengths, finished, stuck)
    if not tally:
        return played, None
    counts = [np.array(v, dtype=np.int64) for v in (sums, reached, forced_games)]
    return played, _Tally(*counts, most)


def _does_rows(nodes: list[int]) -> tuple[np.ndarray | slice, np.ndarray | slice]:
    """A role's moves some rule reads and their `does` nodes, each a slice when consecutive (a view, no
    gather)."""
    read = [m for m, n in enumerate(nodes) if n >= 0]
    return _consecutive(read), _consecutive([nodes[m] for m in read])


def _consecutive(index: list[int]) -> np.ndarray | slice:
    if index and index == list(range(index[0], index[0] + len(index))):
        return slice(index[0], index[0] + len(index))
    return np.array(index, dtype=np.int64)


def _columns(kernel: Kernel, row: np.ndarray) -> np.ndarray:
    """The columns whose bit is set in a row."""
    return np.flatnonzero(kernel.unpack(row[None, :])[0])


def _draw_rows(kernel: Kernel, rows: np.ndarray, bits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The moves drawn among the legal `rows` (masked to the running games), in the kernel's layout, and the
    legal moves counted per column. Game g takes its k-th legal move, k = (m x count) >> 53 for its 53-bit
    draw m (`move_bits`), found as the row where the running count of its legal moves reaches k + 1: a
    running count row by row in uint8 (np.cumsum along the moves costs a hundred times as much)."""
    legal = kernel.unpack(rows).view(np.uint8)
    dtype = np.uint8 if len(rows) < 255 else np.uint32
    counts = np.add.reduce(legal, axis=0, dtype=dtype)
    bits *= counts.astype(np.uint64)
    bits >>= np.uint64(53)
    pick = bits.astype(dtype)
    pick += 1
    seen = np.empty_like(legal, dtype=dtype)
    seen[0] = legal[0]
    for j in range(1, len(legal)):
        np.add(seen[j - 1], legal[j], out=seen[j])
    hit = seen == pick
    hit &= legal.view(bool)
    return kernel.pack(hit), counts


_GOLDEN = 0x9E37_79B9_7F4A_7C15
_MASK = (1 << 64) - 1


def _mix(z: np.ndarray) -> np.ndarray:
    """SplitMix64's finaliser, in place on uint64 (overflow wraps, as it should)."""
    z ^= z >> np.uint64(30)
    z *= np.uint64(0xBF58_476D_1CE4_E5B9)
    z ^= z >> np.uint64(27)
    z *= np.uint64(0x94D0_49BB_1331_11EB)
    z ^= z >> np.uint64(31)
    return z


def game_keys(seed: int, games: np.ndarray) -> np.ndarray:
    """Each game's stream key (uint64): SplitMix64 of the seed's key plus the game's number times the golden
    ratio, so that game k of seed S is the same game in any batch."""
    base = _mix(np.array([(seed * _GOLDEN + 1) & _MASK], dtype=np.uint64))[0]
    z = np.asarray(games, dtype=np.int64).astype(np.uint64) * np.uint64(_GOLDEN)
    z += base
    return _mix(z)


def move_uniforms(keys: np.ndarray, step: int, role: int, roles: int) -> np.ndarray:
    """The uniform in [0, 1) each game draws for `role`'s move at `step`: a counter-based generator (the
    game's key plus a multiple of the golden ratio, mixed), so a game's moves depend on its key, the step
    and the role only, never on the batch, the chunk or the columns around it. It is `move_bits(...)` / 2**53."""
    return move_bits(keys, step, role, roles).astype(np.int64) * (1.0 / (1 << 53))


def move_bits(keys: np.ndarray, step: int, role: int, roles: int) -> np.ndarray:
    """`move_uniforms` as the 53-bit integers m (uint64) whose uniform is m / 2**53: a draw among c moves
    takes the k-th, k = (m x c) >> 53 = floor(m / 2**53 x c), in integers (casting uint64 to float costs
    NumPy eight times an integer operation)."""
    z = keys + np.uint64(((step * roles + role + 1) * _GOLDEN) & _MASK)
    _mix(z)
    z >>= np.uint64(11)
    return z


def _forced(rows: np.ndarray, run: np.ndarray) -> np.ndarray | None:
    """`rows` themselves, when one of them is every running game's one legal move (the role not on turn in a
    game whose roles take turns): no draw, no unpacking. Else None, and the move is drawn (a draw among one
    legal move takes it too: the shortcut only saves the work)."""
    some = np.flatnonzero(rows.any(axis=1))
    if len(some) == 1 and np.array_equal(rows[some[0]], run):
        return rows
    return None


def _record_goals(kernel, values, columns: np.ndarray, ids: np.ndarray, goal_nodes, goal_values, goals) -> None:
    """The goals of the games in the chosen `columns` (a mask), into their entries of `goals` (roles x games;
    -1 for a role given none; GDL gives a role one goal value in a terminal state, so the value is the sum
    of value x bit). Integer indices along the columns, one role's row of `goals` at a time: a boolean
    mask, or rows of a (games x roles) array, cost NumPy ten times as much."""
    columns = np.flatnonzero(columns)
    nodes = np.concatenate(goal_nodes)
    if not len(columns) or not len(nodes):
        return
    chosen = ids[columns]
    bits = kernel.unpack(values[nodes]).view(np.uint8).take(columns, axis=1)  # every role's rows at once
    first = 0
    for r, role_values in enumerate(goal_values):
        if len(role_values):
            part = bits[first:first + len(role_values)]
            first += len(role_values)
            total = np.zeros(len(columns), dtype=np.int64)
            for value, row in zip(role_values.tolist(), part):
                if value:
                    total += row * np.int64(value)
            goals[r, chosen] = np.where(np.bitwise_or.reduce(part, axis=0), total, -1)


__all__ = ["CHUNK", "Playouts", "game_keys", "move_bits", "move_uniforms", "random_playouts"]
