"""The vector environment: B games of one network stepped together, in the manner of pgx and Gymnasium.

    env = tgpl.batched.load("examples/tris.tgpl")
    state = env.init(seed=0, batch=1024)
    rng = np.random.default_rng(0)
    while not state.terminated.all():
        state = env.step(state, env.random_moves(state, rng))
    state.rewards                     # (1024, roles): the goals of the finished games

A state is immutable: `step` returns a new one. Games that have ended stay as they are (their moves are
ignored), so a batch runs until its last game ends. docs/batched.md has the whole API.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from tgpl.batched.kernel import LAYOUTS, Kernel
from tgpl.batched.network import Network
from tgpl.limits import Limits

MAX_STEPS = 1000
"""Joint moves a random playout may take before it counts as unfinished (as the runtime's analysis bounds games)."""

DEFAULT_LAYOUT = "packed"
"""Packed bits: bench/batched.py measures them against byte arrays (docs/batched.md has the figures)."""

BACKENDS = ("numpy", "jax")
"""numpy: tgpl.batched.kernel, in this process's arrays. jax: tgpl.batched.jax_kernel, jitted by XLA for a GPU
when there is one, else the CPU (`pip install 'tgpl[gpu]'`; jax is an optional dependency)."""


@dataclass(frozen=True, eq=False)
class BatchedState:
    """B games at one step: every node's row (the state schedule evaluated); what a player reads (legal
    moves, terminal, goals, fluents) is unpacked from them on first use."""

    env: BatchedEnv
    values: np.ndarray  # nodes x row: the kernel's layout
    steps: np.ndarray  # (B,) int: joint moves played in each game

    @property
    def batch(self) -> int:
        return len(self.steps)

    @cached_property
    def terminated(self) -> np.ndarray:
        """(B,) bool: the games in a terminal state."""
        return self.env.kernel(self.batch).unpack(self.values[[self.env.network.terminal]])[0]

    @cached_property
    def legal_mask(self) -> np.ndarray:
        """(B, roles, moves) bool: each role's legal moves in each game, none in a terminated game. `moves` is
        the most moves a role has (env.num_moves); a role's moves beyond its own count are never legal."""
        env = self.env
        kernel = env.kernel(self.batch)
        mask = np.zeros((self.batch, len(env.roles), env.num_moves), dtype=bool)
        for r, nodes in enumerate(env.network.legal):
            if nodes:
                mask[:, r, :len(nodes)] = kernel.unpack(self.values[nodes]).T
        mask[self.terminated] = False
        return mask

    @cached_property
    def goals(self) -> np.ndarray:
        """(B, roles) int: each role's goal value in each game's current state, -1 where it has none."""
        env = self.env
        kernel = env.kernel(self.batch)
        out = np.full((self.batch, len(env.roles)), -1, dtype=np.int64)
        for r, pairs in enumerate(env.network.goals):
            if pairs:
                bits = kernel.unpack(self.values[[n for _, n in pairs]])
                for (value, _), row in zip(pairs, bits):
                    out[row, r] = value
        return out

    @cached_property
    def rewards(self) -> np.ndarray:
        """(B, roles) int: the goals of the terminated games, 0 in the others."""
        return np.where(self.terminated[:, None], np.maximum(self.goals, 0), 0)

    @cached_property
    def observation(self) -> np.ndarray:
        """(B, fluents) bool: which of the game's fluents (env.fluents) are true in each game."""
        kernel = self.env.kernel(self.batch)
        return kernel.unpack(self.values[kernel.fluents]).T


class BatchedEnv:
    """One game's network, evaluated for batches of games (a Kernel per batch size, made on first use)."""

    def __init__(self, network: Network, layout: str | None = None, path: str = "<game>", backend: str = "numpy"):
        """`layout`: the backend's rows, packed bits or bytes (numpy), packed uint32 words or booleans (jax);
        None: the backend's default (numpy's DEFAULT_LAYOUT; jax's depends on the device,
        jax_kernel.default_jax_layout). Raises ValueError for an unknown backend or layout, ImportError when jax
        is asked for and missing."""
        if backend not in BACKENDS:
            raise ValueError(f"no backend '{backend}'; the backends are {', '.join(BACKENDS)}")
        self.network = network
        self.backend = backend
        self.path = path
        self.jax_network = None
        if backend == "jax":
            from tgpl.batched.jax_kernel import JaxNetwork

            self.jax_network = JaxNetwork(network, layout)
            layout = self.jax_network.layout
        layout = layout or DEFAULT_LAYOUT
        if backend == "numpy" and layout not in LAYOUTS:
            raise ValueError(f"no layout '{layout}'; the layouts are {', '.join(LAYOUTS)}")
        self.layout = layout
        self.roles: tuple[str, ...] = tuple(str(r) for r in network.roles)
        self.moves: tuple[tuple[str, ...], ...] = tuple(tuple(str(m) for m in ms) for ms in network.moves)
        self.fluents: tuple[str, ...] = tuple(str(f) for f in network.fluents)
        self.num_moves = max((len(ms) for ms in self.moves), default=0)
        self._index = [{m: i for i, m in enumerate(ms)} for ms in self.moves]
        self._kernels: dict[int, Kernel] = {}

    def kernel(self, batch: int) -> Kernel:
        made = self._kernels.get(batch)
        if made is None:
            if self.jax_network is not None:
                from tgpl.batched.jax_kernel import JaxKernel

                made = JaxKernel(self.jax_network, batch)
            else:
                made = Kernel(self.network, batch, self.layout)
            self._kernels[batch] = made
        return made

    # ------------------------------------------------------------ names
    def role_index(self, role: str) -> int:
        try:
            return self.roles.index(role)
        except ValueError:
            raise KeyError(f"no role '{role}'; the roles are {', '.join(self.roles)}") from None

    def move_index(self, role: str | int, move: str) -> int:
        """The index of a move (its KIF text) in the role's moves: the legal mask's last axis."""
        r = role if isinstance(role, int) else self.role_index(role)
        found = self._index[r].get(move)
        if found is None:
            raise KeyError(f"no move '{move}' for role {self.roles[r]}")
        return found

    def move_name(self, role: str | int, index: int) -> str:
        r = role if isinstance(role, int) else self.role_index(role)
        return self.moves[r][index]

    # ------------------------------------------------------------ states
    def init(self, seed: int = 0, batch: int = 1) -> BatchedState:
        """`batch` games at the initial state. The games are deterministic, so `seed` changes nothing in the
        state: it is taken for the shape of pgx's `init(key)`; random moves take their own generator."""
        if batch < 1:
            raise ValueError("a batch holds one game or more")
        kernel = self.kernel(batch)
        rows = np.where(self.network.initial[:, None], kernel.broadcast(True)[None, :], kernel.broadcast(False))
        values = kernel.values_for(rows.astype(kernel.dtype))
        return BatchedState(self, values, np.zeros(batch, dtype=np.int64))

    def state_of(self, fluents: np.ndarray) -> BatchedState:
        """The games whose fluents are given (fluents x B booleans, as `observation.T`): a batch of any states,
        as a search needs them."""
        fluents = np.asarray(fluents, dtype=bool)
        if fluents.ndim != 2 or fluents.shape[0] != len(self.fluents):
            raise ValueError(f"fluents must have the shape (fluents, batch) = ({len(self.fluents)}, B), "
                             f"not {fluents.shape}")
        kernel = self.kernel(fluents.shape[1])
        return BatchedState(self, kernel.values_for(kernel.pack(fluents)), np.zeros(fluents.shape[1], dtype=np.int64))

    def step(self, state: BatchedState, moves: np.ndarray) -> BatchedState:
        """The games after each plays `moves` (B x roles, move indices); terminated games stay as they are and
        their moves are ignored. Raises ValueError for a move not legal in a running game."""
        batch = state.batch
        moves = np.asarray(moves)
        if moves.shape != (batch, len(self.roles)):
            raise ValueError(f"moves must have the shape (batch, roles) = ({batch}, {len(self.roles)}), "
                             f"not {moves.shape}")
        running = ~state.terminated
        mask = state.legal_mask
        for r in range(len(self.roles)):
            chosen = moves[:, r]
            bad = running & ((chosen < 0) | (chosen >= len(self.moves[r])))
            inside = np.clip(chosen, 0, max(len(self.moves[r]) - 1, 0))
            if len(self.moves[r]):
                bad |= running & ~mask[np.arange(batch), r, inside]
            if bad.any():
                g = int(np.flatnonzero(bad)[0])
                shown = (self.moves[r][chosen[g]] if 0 <= chosen[g] < len(self.moves[r]) else chosen[g])
                raise ValueError(f"game {g}: move '{shown}' is not legal for role {self.roles[r]}")
        kernel = self.kernel(batch)
        onehots = [(np.arange(len(ms))[:, None] == moves[:, r][None, :]) & running
                   for r, ms in enumerate(self.moves)]
        values = self._advance(kernel, state.values, onehots, running)
        return BatchedState(self, values, state.steps + running.astype(np.int64))

    def _advance(self, kernel: Kernel, values: np.ndarray, onehots: list[np.ndarray | None], running: np.ndarray,
                 reuse: bool = False, packed: dict[int, np.ndarray] | None = None) -> np.ndarray:
        """The node rows after the joint moves (per role, moves x batch booleans) in the running games; the
        others keep their fluents. `packed`: for some roles, their moves' rows already in the kernel's layout
        (their `onehots` entry is then None). With `reuse`, `values` is overwritten (its fluent rows stay)
        rather than copied: a playout never looks at a state again."""
        does: dict[int, np.ndarray] = {}
        for r, onehot in enumerate(onehots):
            nodes = self.network.does[r]
            read = [m for m, n in enumerate(nodes) if n >= 0]
            if read:
                rows = packed[r][read] if onehot is None and packed is not None else kernel.pack(onehot[read])
                for row, m in zip(rows, read):
                    does[nodes[m]] = row
        work = values if reuse else values.copy()
        after = kernel.successor_rows(work, does)
        if not running.all():
            keep = kernel.pack(running[None, :])[0]
            after = (after & keep) | (values[kernel.fluents] & (keep ^ kernel.ones))
        return kernel.values_for(after)

    def random_playouts(self, seed: int, batch: int, max_steps: int = MAX_STEPS, jobs: int = 1,
                        tally: bool = False, chunk: int | None = None, start: np.ndarray | None = None,
                        limits: Limits | None = None, advance: Callable[[int], None] = lambda games: None):
        """`batch` random games played to their ends in chunks of `chunk` games (default CHUNK; on the jax
        backend, columns, default jax_playouts.default_columns()), shared between `jobs` processes, from the
        initial state or from the fluents `start`, under the command's `limits` (or none), `advance(n)` told
        of each chunk's n games as it ends: tgpl.batched.playouts."""
        from tgpl.batched.memory import CHUNK
        from tgpl.batched.playouts import random_playouts

        if chunk is None and self.backend == "jax":
            from tgpl.batched.jax_playouts import default_columns

            chunk = default_columns()
        return random_playouts(self, seed, batch, max_steps, jobs, tally, chunk or CHUNK, start, limits, advance)

    def random_moves(self, state: BatchedState, rng: np.random.Generator) -> np.ndarray:
        """(B, roles) move indices: in each running game each role's move drawn uniformly among its legal
        ones (one `rng.random(B)` per role, in role order); 0 where a game has ended or a role has none."""
        mask = state.legal_mask
        out = np.zeros((state.batch, len(self.roles)), dtype=np.int64)
        for r in range(len(self.roles)):
            out[:, r] = _draw(mask[:, r, :].T, rng)
        return out


def _draw(legal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """For legal (moves x B) booleans, a legal move index per game drawn uniformly (0 where none is).

    One `rng.random(B)` whatever the moves: game g takes its k-th legal move, k = floor(u * count). The index
    is counted row by row (the rows before the k-th legal one), in small integers: cumsum and argmax along
    the moves' axis cost ten times as much on int64."""
    return _draw_with(legal, rng.random(legal.shape[1]))


def _draw_with(legal: np.ndarray, uniforms: np.ndarray) -> np.ndarray:
    """`_draw` with each game's uniform in [0, 1) given (tgpl.batched.playouts draws them per game)."""
    moves, batch = legal.shape
    dtype = np.uint8 if moves < 255 else np.uint32
    counts = np.zeros(batch, dtype=dtype)
    for row in legal:
        counts += row
    pick = (uniforms * counts).astype(dtype)
    seen = np.zeros(batch, dtype=dtype)
    chosen = np.zeros(batch, dtype=dtype)
    for row in legal:
        seen += row
        chosen += seen <= pick
    return np.minimum(chosen, max(moves - 1, 0)).astype(np.int64)


__all__ = ["BACKENDS", "DEFAULT_LAYOUT", "BatchedEnv", "BatchedState"]
