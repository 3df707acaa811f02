"""The network evaluated on a batch of games: one array row per node, games along the row.

Two layouts, one code path. *Packed*: a row is `ceil(B/64)` uint64 words, game g is bit g % 64 of word
g // 64, so one bitwise operation works on 64 games. *Bytes*: a row is B uint8 values 0 or 1. In both, AND/OR
are `bitwise_and`/`bitwise_or` and NOT is XOR with `ones` (all bits set, or 1), so the gates are the same
NumPy calls; only reading rows out as booleans (unpack) and writing booleans in (pack) differ.
bench/batched.py measures both; packed is the default (tgpl.batched.env.DEFAULT_LAYOUT says why).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tgpl.batched.network import FALSE, TRUE, Level, Network

LAYOUTS = ("packed", "bytes")


class Kernel:
    """Evaluation of one network for batches of `batch` games in one layout."""

    def __init__(self, network: Network, batch: int, layout: str = "packed", plans: dict | None = None):
        if layout not in LAYOUTS:
            raise ValueError(f"no layout '{layout}'; the layouts are {', '.join(LAYOUTS)}")
        self.network = network
        self.batch = batch
        self.layout = layout
        if layout == "packed":
            self.dtype = np.dtype(np.uint64)
            self.width = (batch + 63) // 64
            self.ones = np.uint64(0xFFFF_FFFF_FFFF_FFFF)
        else:
            self.dtype = np.dtype(np.uint8)
            self.width = batch
            self.ones = np.uint8(1)
        self.fluents = slice(network.first_fluent, network.first_fluent + len(network.fluents))
        zero = self.dtype.type(0)
        self._plans = plans if plans is not None else {
            id(level): _plan(level, self.ones, zero, self.dtype) for level in network.state_levels + network.move_levels}

    def resized(self, batch: int) -> Kernel:
        """The same network and layout for batches of `batch` games (the plans are shared: they hold no rows)."""
        return Kernel(self.network, batch, self.layout, self._plans)

    # ------------------------------------------------------------ rows in and out
    def pack(self, bits: np.ndarray) -> np.ndarray:
        """Booleans (rows x batch) as rows of this layout."""
        if self.layout == "bytes":
            return bits.astype(np.uint8)
        packed = np.packbits(bits, axis=1, bitorder="little")
        out = np.zeros((bits.shape[0], self.width * 8), dtype=np.uint8)
        out[:, :packed.shape[1]] = packed
        return out.view(np.uint64)

    def unpack(self, rows: np.ndarray) -> np.ndarray:
        """Rows of this layout as booleans (rows x batch)."""
        if self.layout == "bytes":
            return rows.astype(bool)
        return np.unpackbits(np.ascontiguousarray(rows).view(np.uint8), axis=1, count=self.batch,
                             bitorder="little").view(bool)

    def broadcast(self, bit: bool) -> np.ndarray:
        """One row, every game `bit`."""
        return np.full(self.width, self.ones if bit else 0, dtype=self.dtype)

    # ------------------------------------------------------------ evaluation
    def values_for(self, fluent_rows: np.ndarray) -> np.ndarray:
        """Every node's row for states given as fluent rows: the state schedule evaluated, moves unset."""
        values = np.zeros((self.network.nodes, self.width), dtype=self.dtype)
        values[TRUE] = self.ones
        values[self.fluents] = fluent_rows
        self._run(values, self.network.state_levels)
        return values

    def successor_rows(self, values: np.ndarray, does_rows: dict[int, np.ndarray]) -> np.ndarray:
        """The fluent rows after the joint moves whose `does` nodes are given (node -> row): `values` (a state's,
        from values_for) has its move nodes overwritten."""
        for node, row in does_rows.items():
            values[node] = row
        self._run(values, self.network.move_levels)
        return values[self.network.next]

    def advance(self, values: np.ndarray, run: np.ndarray) -> None:
        """In place: `values` (a state's, its `does` rows set) becomes the next state's, in the games whose bit
        is set in `run`; the others keep their fluents. The move schedule, the `next` rows written over the
        fluents (selected by XOR: old ^ ((next ^ old) & run)), the state schedule."""
        self._run(values, self.network.move_levels)
        after = values[self.network.next]
        old = values[self.fluents]
        np.bitwise_xor(after, old, out=after)
        np.bitwise_and(after, run, out=after)
        np.bitwise_xor(old, after, out=old)
        self._run(values, self.network.state_levels)

    def _run(self, values: np.ndarray, levels: list[Level]) -> None:
        for level in levels:
            plan = self._plans[id(level)]
            if level.cyclic:
                values[level.atoms] = 0
                while True:
                    before = values[level.atoms]  # a copy: level.atoms is an index array, never a slice
                    _evaluate(values, plan)
                    if np.array_equal(before, values[level.atoms]):
                        break
            else:
                _evaluate(values, plan)


@dataclass(frozen=True)
class _Ands:
    """An AND group laid out for one gather: `index` the literals' nodes, literal by literal (k x n, flat),
    `negate` the literals read negated in some body: (j, mask), the mask all ones on those bodies (n x 1),
    or all ones (a scalar) when every body reads literal j negated; `place` the slice of the level's bodies."""

    index: np.ndarray
    k: int
    n: int
    negate: tuple[tuple[int, np.ndarray], ...]
    place: slice


@dataclass(frozen=True)
class _Ors:
    """An OR group: `index` the bodies of its atoms (d x atoms, flat) in the level's bodies (None when they
    are the bodies start..stop in order), `atoms` the nodes written (a slice when they are consecutive)."""

    index: np.ndarray | None
    d: int
    atoms: np.ndarray | slice
    place: slice


@dataclass(frozen=True)
class _Plan:
    ands: tuple[_Ands, ...]
    ors: tuple[_Ors, ...]
    bodies: int
    direct: bool


def _as_slice(index: np.ndarray) -> np.ndarray | slice:
    """`index` as the slice it is, if its entries are consecutive (a slice view costs no copy)."""
    if len(index) and np.array_equal(index, np.arange(index[0], index[0] + len(index))):
        return slice(int(index[0]), int(index[0]) + len(index))
    return index


def _plan(level: Level, ones, zero, dtype) -> _Plan:
    ands = []
    total = 0
    for group in level.and_groups:
        k, n = group.literals.shape
        negate = tuple((j, ones if column.all() else np.where(column, ones, zero).astype(dtype)[:, None])
                       for j, column in enumerate(group.negated) if column.any())
        ands.append(_Ands(group.literals.reshape(-1).copy(), k, n, negate, slice(total, total + n)))
        total += n
    ors = []
    for group in level.or_groups:
        d, a = group.bodies.shape
        flat = group.bodies.reshape(-1)
        index = _as_slice(flat)
        ors.append(_Ors(None if isinstance(index, slice) else flat.copy(), d, _as_slice(group.atoms),
                        index if isinstance(index, slice) else slice(0, 0)))
    return _Plan(tuple(ands), tuple(ors), total, level.direct)


def _conjunctions(values: np.ndarray, group: _Ands, out: np.ndarray) -> None:
    """The group's bodies into `out` (n rows): one gather of every literal, an XOR on each literal read
    negated, the ANDs along the literals."""
    if group.k == 1 and not group.negate:
        np.take(values, group.index, axis=0, out=out, mode="clip")
        return
    rows = values.take(group.index, axis=0).reshape(group.k, group.n, values.shape[1])
    for j, mask in group.negate:  # only the literals read negated: XOR on the whole block cost a pass
        np.bitwise_xor(rows[j], mask, out=rows[j])
    _fold(np.bitwise_and, rows, out)


FOLD_WORDS = 4096
"""Blocks of at least this many words are reduced block by block, smaller ones by one `reduce` call."""


def _fold(op, rows: np.ndarray, out: np.ndarray) -> None:
    """`op` over the blocks of `rows` (d x n x width) into `out`. On large blocks `op.reduce(rows, axis=0)`
    runs at half the speed of the plain calls (2 x 216 rows of 256 words: 60 against 24 us); on small ones
    the calls cost more than the words (138 x 1 rows: 18 against 150 us). FOLD_WORDS is the crossing."""
    if len(rows) == 1:
        out[...] = rows[0]
        return
    if rows[0].size < FOLD_WORDS:
        op.reduce(rows, axis=0, out=out)
        return
    op(rows[0], rows[1], out=out)
    for j in range(2, len(rows)):
        op(out, rows[j], out=out)


def _evaluate(values: np.ndarray, plan: _Plan) -> None:
    """One level: its bodies (AND groups) then its atoms (OR groups), each group a few whole-block calls."""
    width = values.shape[1]
    if plan.direct and len(plan.ands) == 1:
        group = plan.ands[0]
        target = plan.ors[0].atoms
        if isinstance(target, slice):
            _conjunctions(values, group, values[target])
        else:
            bodies = np.empty((group.n, width), dtype=values.dtype)
            _conjunctions(values, group, bodies)
            values[target] = bodies
        return
    bodies = np.empty((plan.bodies, width), dtype=values.dtype)
    for group in plan.ands:
        _conjunctions(values, group, bodies[group.place])
    for group in plan.ors:
        if group.index is None:
            rows = bodies[group.place].reshape(group.d, -1, width)
        else:
            rows = bodies.take(group.index, axis=0).reshape(group.d, -1, width)
        if group.d == 1:
            values[group.atoms] = rows[0]
        elif isinstance(group.atoms, slice):
            _fold(np.bitwise_or, rows, values[group.atoms])
        else:
            atoms = np.empty(rows.shape[1:], dtype=values.dtype)
            _fold(np.bitwise_or, rows, atoms)
            values[group.atoms] = atoms


__all__ = ["LAYOUTS", "Kernel"]
