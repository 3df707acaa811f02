"""The network evaluated on a batch of games: one array row per node, games along the row.

Two layouts, one code path. *Packed*: a row is `ceil(B/64)` uint64 words, game g is bit g % 64 of word
g // 64, so one bitwise operation works on 64 games. *Bytes*: a row is B uint8 values 0 or 1. In both, AND/OR
are `bitwise_and`/`bitwise_or` and NOT is XOR with `ones` (all bits set, or 1), so the gates are the same
NumPy calls; only reading rows out as booleans (unpack) and writing booleans in (pack) differ.
bench/batched.py measures both; packed is the default (tgpl.batched.env.DEFAULT_LAYOUT says why).
"""

from __future__ import annotations

import numpy as np

from tgpl.batched.network import FALSE, TRUE, Level, Network

LAYOUTS = ("packed", "bytes")


class Kernel:
    """Evaluation of one network for batches of `batch` games in one layout."""

    def __init__(self, network: Network, batch: int, layout: str = "packed"):
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
        self._masks = {id(group): [np.where(column, self.ones, zero).astype(self.dtype)[:, None] if column.any()
                                   else None for column in group.negated]
                       for level in network.state_levels + network.move_levels for group in level.and_groups}

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
                             bitorder="little").astype(bool)

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

    def _run(self, values: np.ndarray, levels: list[Level]) -> None:
        for level in levels:
            if level.cyclic:
                values[level.atoms] = 0
                while True:
                    before = values[level.atoms].copy()
                    self._evaluate(values, level)
                    if np.array_equal(before, values[level.atoms]):
                        break
            else:
                self._evaluate(values, level)

    def _evaluate(self, values: np.ndarray, level: Level) -> None:
        groups = level.and_groups
        if len(groups) == 1:
            bodies = self._conjunctions(values, groups[0])
        else:
            bodies = np.concatenate([self._conjunctions(values, g) for g in groups])
        if level.direct:
            values[level.atoms] = bodies
            return
        for group in level.or_groups:
            rows = group.bodies
            acc = bodies[rows[0]]
            for j in range(1, len(rows)):
                np.bitwise_or(acc, bodies[rows[j]], out=acc)
            values[group.atoms] = acc

    def _conjunctions(self, values: np.ndarray, group) -> np.ndarray:
        masks = self._masks[id(group)]
        acc = values[group.literals[0]]
        if masks[0] is not None:
            np.bitwise_xor(acc, masks[0], out=acc)
        for j in range(1, len(group.literals)):
            column = values[group.literals[j]]
            if masks[j] is not None:
                np.bitwise_xor(column, masks[j], out=column)
            np.bitwise_and(acc, column, out=acc)
        return acc


__all__ = ["LAYOUTS", "Kernel"]
