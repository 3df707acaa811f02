"""The batched engine's network on JAX: the same evaluation as tgpl.batched.kernel, for a GPU when there is one
(`pip install 'tgpl[gpu]'`) or XLA's CPU backend; tgpl.batched.jax_playouts plays random games on it.

Rows are packed into uint32 words (32 games a word; JAX runs without 64-bit integers by default), or plain
booleans: `JAX_LAYOUTS`, bench/batched.py measures both. In a packed row of W words, game column c is bit
c // W of word c % W (not the NumPy kernel's bit g % 64 of word g // 64): packing the drawn moves then ORs
32 whole rows of words, which XLA's CPU backend does five times as fast. `JaxKernel` converts at its
boundary, so `BatchedEnv` and `BatchedState` see the NumPy kernel's rows.

Nodes are renumbered so that each level's atoms are one contiguous block (the constants, fluents and moves
keep their numbers; the views follow in schedule order, each level's in the order its OR groups write them):
a level is then written with a static slice, which XLA updates in place, rather than a scatter. `order` maps
the new numbers to the network's (`JaxKernel` translates them too).
"""

from __future__ import annotations

from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from tgpl.batched.kernel import Kernel
from tgpl.batched.network import TRUE, Level, Network

JAX_LAYOUTS = ("packed", "bool")
DEFAULT_JAX_LAYOUT = "packed"
"""On XLA's CPU backend: packed uint32 words, 15 to 30 times as fast there as booleans (docs/batched.md)."""

DEVICE_JAX_LAYOUT = "bool"
"""On a GPU: booleans, a byte a game. On an H200, 65,536 columns: Tris 7.7 M playouts/s against 3.2 M packed,
Connect Four 1.38 M against 1.11 M (bench/batched_gpu.sh; docs/batched.md): the GPU reads bytes at full width,
and the 32 bit planes a packed row is unpacked into are 32 more kernels a step."""


def default_jax_layout() -> str:
    """The layout when the caller names none: DEFAULT_JAX_LAYOUT on the CPU, else DEVICE_JAX_LAYOUT."""
    return DEFAULT_JAX_LAYOUT if jax.default_backend() == "cpu" else DEVICE_JAX_LAYOUT

_M32 = 0xFFFF_FFFF


@dataclass(frozen=True)
class _JaxLevel:
    """A level in the new numbering: its atoms are nodes start..stop-1; `ands` per body length, (literals
    k x bodies, one mask per literal: None, or which bodies read it negated); `ors` per rule count, the body
    indices (d x atoms), or None when each atom is its one body (`direct`)."""

    start: int
    stop: int
    ands: tuple[tuple[np.ndarray, tuple[np.ndarray | None, ...]], ...]
    ors: tuple[np.ndarray, ...] | None
    cyclic: bool


class JaxNetwork:
    """A network laid out for JAX (new node numbers, contiguous levels) and its jitted functions, compiled once
    per batch width and kept here (jax.jit caches them by shape)."""

    def __init__(self, network: Network, layout: str | None = None):
        layout = layout or default_jax_layout()
        if layout not in JAX_LAYOUTS:
            raise ValueError(f"no JAX layout '{layout}'; the layouts are {', '.join(JAX_LAYOUTS)}")
        self.network = network
        self.layout = layout
        levels = network.state_levels + network.move_levels
        first_view = min((int(lv.atoms.min()) for lv in levels if len(lv.atoms)), default=network.nodes)
        order = list(range(first_view))
        spans: list[tuple[int, int]] = []
        for level in levels:
            begin = len(order)
            for group in level.or_groups:
                order.extend(int(a) for a in group.atoms)
            spans.append((begin, len(order)))
        assert len(order) == network.nodes and len(set(order)) == network.nodes
        self.order = np.array(order, dtype=np.int64)  # new number -> the network's
        new = np.empty(network.nodes, dtype=np.int64)
        new[self.order] = np.arange(network.nodes)
        self.new = new  # the network's number -> new
        self.fluents = slice(network.first_fluent, network.first_fluent + len(network.fluents))
        converted = [self._level(level, span, new) for level, span in zip(levels, spans)]
        self.state_levels = converted[:len(network.state_levels)]
        self.move_levels = converted[len(network.state_levels):]
        self.legal = [new[np.array(nodes, dtype=np.int64)].astype(np.int32) for nodes in network.legal]
        self.does = [(np.array([m for m, n in enumerate(nodes) if n >= 0], dtype=np.int32),
                      new[np.array([n for n in nodes if n >= 0], dtype=np.int64)].astype(np.int32))
                     for nodes in network.does]
        self.terminal = int(new[network.terminal])
        self.goal_nodes = [new[np.array([n for _, n in pairs], dtype=np.int64)].astype(np.int32)
                           for pairs in network.goals]
        self.goal_values = [np.array([v for v, _ in pairs], dtype=np.int32) for pairs in network.goals]
        self.next = new[network.next].astype(np.int32)
        # the does nodes come role by role, move by move, after the fluents (tgpl.batched.network): the loop
        # writes them as one block in that order
        read_nodes = np.concatenate([nodes for _, nodes in self.does] + [np.zeros(0, dtype=np.int32)])
        assert np.array_equal(read_nodes, self.fluents.stop + np.arange(len(read_nodes)))
        self.moves = [len(nodes) for nodes in network.legal]
        if max(self.moves, default=0) >= 1 << 16:
            raise ValueError("the JAX backend draws among fewer than 65,536 moves a role")
        self._state = jax.jit(self._state_values)
        self._successor = jax.jit(self._successor_rows)
        self.playout_loop = None  # tgpl.batched.jax_playouts jits it on first use

    @staticmethod
    def _level(level: Level, span: tuple[int, int], new: np.ndarray) -> _JaxLevel:
        ands = []
        for group in level.and_groups:
            literals = new[group.literals].astype(np.int32)
            masks = tuple(None if not column.any() else column.copy() for column in group.negated)
            ands.append((literals, masks))
        ors = None if level.direct else tuple(group.bodies.astype(np.int32) for group in level.or_groups)
        return _JaxLevel(span[0], span[1], tuple(ands), ors, level.cyclic)

    # ------------------------------------------------------------ rows in this layout
    def width(self, batch: int) -> int:
        """Words (packed) or columns (bool) of a row for `batch` games."""
        return (batch + 31) // 32 if self.layout == "packed" else batch

    def _ones(self):
        return jnp.uint32(_M32) if self.layout == "packed" else jnp.bool_(True)

    def _dtype(self):
        return jnp.uint32 if self.layout == "packed" else jnp.bool_

    # ------------------------------------------------------------ evaluation (traced)
    def _evaluate(self, values, level: _JaxLevel):
        ones = self._ones()
        parts = []
        for literals, masks in level.ands:
            acc = None
            for j in range(literals.shape[0]):
                column = values[literals[j]]
                mask = masks[j]
                if mask is not None:
                    column = ~column if mask.all() else column ^ jnp.where(jnp.asarray(mask), ones,
                                                                            jnp.zeros((), self._dtype()))[:, None]
                acc = column if acc is None else acc & column
            parts.append(acc)
        bodies = parts[0] if len(parts) == 1 else jnp.concatenate(parts)
        if level.ors is None:
            return bodies
        outs = []
        for rows in level.ors:
            acc = bodies[rows[0]]
            for j in range(1, rows.shape[0]):
                acc = acc | bodies[rows[j]]
            outs.append(acc)
        return outs[0] if len(outs) == 1 else jnp.concatenate(outs)

    def _run(self, values, levels: list[_JaxLevel]):
        for level in levels:
            if not level.cyclic:
                values = values.at[level.start:level.stop].set(self._evaluate(values, level))
                continue
            values = values.at[level.start:level.stop].set(jnp.zeros((), values.dtype))

            def changed(carry):
                return carry[1]

            def again(carry, level=level):
                v, _ = carry
                out = self._evaluate(v, level)
                return v.at[level.start:level.stop].set(out), jnp.any(out != v[level.start:level.stop])

            values, _ = lax.while_loop(changed, again, (values, jnp.bool_(True)))
        return values

    def _state_values(self, fluent_rows):
        """Every node's row (new numbers) for states given as fluent rows: the state schedule evaluated."""
        width = fluent_rows.shape[1]
        dtype = self._dtype()
        values = jnp.zeros((self.network.nodes, width), dtype=dtype)
        values = values.at[TRUE].set(self._ones())
        values = values.at[self.fluents].set(fluent_rows)
        return self._run(values, self.state_levels)

    def _successor_rows(self, values, does_rows):
        """The fluent rows after the joint moves: `does_rows` are the rows of nodes first_fluent + fluents
        up to the first view (the `does` block), in new numbers."""
        start = self.fluents.stop
        values = values.at[start:start + does_rows.shape[0]].set(does_rows)
        values = self._run(values, self.move_levels)
        return values[self.next]

    # ------------------------------------------------------------ the playout loop (traced)
    def _planes(self, row):
        """One row as the games' bits, uint32 0/1 shaped (planes, width): packed, plane p holds bit p of every
        word (game column p x width + w); bool, one plane. Kept in this shape throughout the loop: flattening
        to columns and back costs XLA's CPU backend five times the whole draw."""
        if self.layout == "bool":
            return row[None, :].astype(jnp.uint32)
        return (row[None, :] >> jnp.arange(32, dtype=jnp.uint32)[:, None]) & jnp.uint32(1)

    def _row(self, planes):
        """The inverse of `_planes`: uint32 0/1 or bool (planes, width) as one row."""
        if self.layout == "bool":
            return planes[0].astype(jnp.bool_)
        planes = planes.astype(jnp.uint32)
        acc = planes[0]
        for i in range(1, 32):  # unrolled: a sum over the planes measured a quarter slower
            acc = acc | (planes[i] << jnp.uint32(i))
        return acc

    def _does_block(self) -> int:
        """Rows between the fluents and the first view: the `does` nodes (and those read but never legal)."""
        levels = self.state_levels + self.move_levels
        first_view = min((lv.start for lv in levels), default=self.network.nodes)
        return first_view - self.fluents.stop

    # ------------------------------------------------------------ host side
    def pack_host(self, bits: np.ndarray) -> np.ndarray:
        """Booleans (n x batch) as this layout's rows, in NumPy (packed: the batch padded to whole words)."""
        if self.layout == "bool":
            return np.asarray(bits, dtype=bool)
        n, batch = bits.shape
        width = self.width(batch)
        padded = np.zeros((n, 32 * width), dtype=np.uint32)
        padded[:, :batch] = bits
        planes = padded.reshape(n, 32, width) << np.arange(32, dtype=np.uint32)[None, :, None]
        return np.bitwise_or.reduce(planes, axis=1)

    def unpack_host(self, rows: np.ndarray, batch: int) -> np.ndarray:
        """This layout's rows (NumPy) as booleans (n x batch)."""
        if self.layout == "bool":
            return np.asarray(rows, dtype=bool)[:, :batch]
        bits = (rows[:, None, :] >> np.arange(32, dtype=np.uint32)[None, :, None]) & np.uint32(1)
        return bits.reshape(rows.shape[0], -1)[:, :batch].astype(bool)

class JaxKernel(Kernel):
    """The NumPy kernel's interface (packed uint64 rows, the network's node numbers) evaluated by a
    JaxNetwork: what BatchedEnv's states and steps call."""

    def __init__(self, jaxnet: JaxNetwork, batch: int):
        super().__init__(jaxnet.network, batch, "packed")
        self.jaxnet = jaxnet

    def _to_jax(self, rows: np.ndarray):
        """Packed uint64 rows (n x width) as the JAX layout's rows."""
        return jnp.asarray(self.jaxnet.pack_host(self.unpack(rows)))

    def _from_jax(self, rows) -> np.ndarray:
        return self.pack(self.jaxnet.unpack_host(np.asarray(rows), self.batch))

    def values_for(self, fluent_rows: np.ndarray) -> np.ndarray:
        values = self._from_jax(self.jaxnet._state(self._to_jax(fluent_rows)))
        return values[self.jaxnet.new]

    def successor_rows(self, values: np.ndarray, does_rows: dict[int, np.ndarray]) -> np.ndarray:
        net = self.jaxnet
        block = np.zeros((net._does_block(), self.width), dtype=np.uint64)
        first = net.fluents.stop
        for node, row in does_rows.items():
            block[net.new[node] - first] = row
        state = self._to_jax(values[net.order])
        return self._from_jax(net._successor(state, self._to_jax(block)))






__all__ = ["DEFAULT_JAX_LAYOUT", "DEVICE_JAX_LAYOUT", "JAX_LAYOUTS", "default_jax_layout", "JaxKernel", "JaxNetwork"]
