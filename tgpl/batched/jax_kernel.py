"""The batched engine's network on JAX: the same evaluation as tgpl.batched.kernel, and random playouts as one
jitted loop (`lax.while_loop`), for a GPU when there is one (`pip install 'tgpl[gpu]'`) or XLA's CPU backend.

Rows are packed into uint32 words (32 games a word; JAX runs without 64-bit integers by default), or plain
booleans: `JAX_LAYOUTS`, bench/batched.py measures both. In a packed row of W words, game column c is bit
c // W of word c % W (not the NumPy kernel's bit g % 64 of word g // 64): packing the drawn moves then ORs
32 whole rows of words, which XLA's CPU backend does five times as fast. `JaxKernel` converts at its
boundary, so `BatchedEnv` and `BatchedState` see the NumPy kernel's rows.

Nodes are renumbered so that each level's atoms are one contiguous block (the constants, fluents and moves
keep their numbers; the views follow in schedule order, each level's in the order its OR groups write them):
a level is then written with a static slice, which XLA updates in place, rather than a scatter. `order` maps
the new numbers to the network's (`JaxKernel` translates them too).

Random moves draw from a counter-based stream in 32-bit words (murmur3's finaliser, `mix32`): game k's key is
mixed from the seed and k, each draw from the key and (its own step x roles + role + 1), so game k is the
same game whatever the batch around it, its column or when the column took it (`_playout_loop`). The stream is not NumPy's (tgpl.batched.playouts uses 64-bit
SplitMix), so the games differ from the NumPy backend's; the network's answers on a state do not.
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
"""Packed uint32 words: on XLA's CPU backend 15 to 30 times as fast as booleans (docs/batched.md)."""

_GOLDEN32 = 0x9E37_79B9
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

    def __init__(self, network: Network, layout: str = DEFAULT_JAX_LAYOUT):
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
        self._playouts = jax.jit(self._playout_loop, static_argnames=("max_steps", "tally"))

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

    def _playout_loop(self, fluent_rows, game, keys_table, n_games, init_bits, max_steps: int, tally: bool):
        """Random games numbered 0..n_games-1 (their keys in `keys_table`, padded), played in the columns:
        column c starts with game `game[c]` (-1: none) from the fluent rows. Two loops: the inner one plays
        every running column a joint move a step until half the columns are over (terminal, stuck, or at
        `max_steps` joint moves; they keep their state) while games remain, or until none runs; then the
        outer one writes the results of the games over at their rows and gives their columns the next games,
        from the fluents `init_bits`. So columns idle little (Connect Four's games last 7 to 42 joint moves),
        and since each game's moves depend on its key and its own step only, the games are the same in any
        number of columns. (Refilling at every step, in the inner loop, made a step three times as slow on
        XLA's CPU backend.)"""
        shape = game.shape
        size = keys_table.shape[0]
        columns = game.size
        roles = len(self.moves)
        ones = jnp.full(fluent_rows.shape[1], self._ones(), dtype=self._dtype())
        init_rows = jnp.where(init_bits[:, None], ones[None, :], jnp.zeros((), self._dtype()))
        zeros = jnp.zeros(shape, dtype=jnp.int32)

        def running_of(values, game, length, stuck):
            terminal = self._planes(values[self.terminal]) == 1
            return (game >= 0) & ~terminal & ~stuck & (length < max_steps)

        values = self._state_values(fluent_rows)
        length = zeros
        stuck = jnp.zeros(shape, dtype=jnp.bool_)
        carry = {"values": values, "game": game, "keys": keys_table[jnp.maximum(game, 0)], "length": length,
                 "stuck": stuck, "running": running_of(values, game, length, stuck),
                 "next": jnp.sum(game >= 0, dtype=jnp.int32),
                 "goals": jnp.full((size, roles), -1, dtype=jnp.int32), "lengths": jnp.zeros(size, dtype=jnp.int32),
                 "finished": jnp.zeros(size, dtype=jnp.bool_), "stuck_games": jnp.zeros(size, dtype=jnp.bool_)}
        if tally:
            steps = jnp.zeros(max_steps, dtype=jnp.int32)
            carry.update(sums=jnp.zeros((3, max_steps), dtype=jnp.int32), reached=steps, forced=steps, most=zeros,
                         most_games=jnp.zeros(size, dtype=jnp.int32))

        def playing(c):
            waiting = columns - jnp.sum(c["running"], dtype=jnp.int32)
            return jnp.any(c["running"]) & ((2 * waiting < columns) | (c["next"] >= n_games))

        def step(c):
            out = dict(c)
            out.update(self._step(c, roles, max_steps, tally))
            out["running"] = running_of(out["values"], out["game"], out["length"], out["stuck"])
            return out

        def refill(c):
            c = lax.while_loop(playing, step, c)
            values, game, length, stuck = c["values"], c["game"], c["length"], c["stuck"]
            over = (game >= 0) & ~c["running"]
            terminal = self._planes(values[self.terminal]) == 1
            out = dict(c)
            rows = jnp.where(over, game, size).reshape(-1)  # the others' writes dropped, out of range
            goals = []
            for r in range(roles):
                total = zeros
                given = jnp.zeros(shape, dtype=jnp.bool_)
                for node, value in zip(self.goal_nodes[r], self.goal_values[r]):
                    bits = self._planes(values[node])
                    total = total + bits.astype(jnp.int32) * int(value)
                    given = given | (bits == 1)
                goals.append(jnp.where(terminal & given, total, -1).reshape(-1))
            if goals:
                out["goals"] = c["goals"].at[rows].set(jnp.stack(goals, axis=1), mode="drop")
            out["lengths"] = c["lengths"].at[rows].set(length.reshape(-1), mode="drop")
            out["finished"] = c["finished"].at[rows].set(terminal.reshape(-1), mode="drop")
            out["stuck_games"] = c["stuck_games"].at[rows].set(stuck.reshape(-1), mode="drop")
            if tally:
                out["most_games"] = c["most_games"].at[rows].set(c["most"].reshape(-1), mode="drop")
                out["most"] = jnp.where(over, 0, c["most"])
            flat = over.reshape(-1).astype(jnp.int32)
            number = (c["next"] + jnp.cumsum(flat) - flat).reshape(shape)
            fresh = over & (number < n_games)
            game = jnp.where(fresh, number, jnp.where(over, -1, game))
            reset = self._row(fresh)
            fluents = (values[self.fluents] & ~reset) | (init_rows & reset)
            values = self._state_values(fluents)
            length = jnp.where(over, 0, length)
            stuck = stuck & ~over
            out.update(values=values, game=game, length=length, stuck=stuck, next=c["next"] + jnp.sum(flat),
                       keys=jnp.where(fresh, keys_table[jnp.clip(number, 0, size - 1)], c["keys"]),
                       running=running_of(values, game, length, stuck))
            return out

        carry = lax.while_loop(lambda c: jnp.any(c["game"] >= 0), refill, carry)
        out = {k: carry[k] for k in ("goals", "lengths", "finished", "stuck_games")
               + (("sums", "reached", "forced", "most_games") if tally else ())}
        out["fluents"] = carry["values"][self.fluents]
        return out

    def _step(self, c, roles: int, max_steps: int, tally: bool) -> dict:
        """One joint move in every running column: each role's legal rows as planes, its move drawn (its k-th
        legal move, k = floor(u x count / 2**32) for the game's 32-bit draw u at its own step), the one-hot
        planes packed into the `does` block, the move schedule, the next fluents kept where the game moved,
        the state schedule on them. A role with no legal move in a running game makes it stuck."""
        values, running, keys, length = c["values"], c["running"], c["keys"], c["length"]
        shape = running.shape
        live = running.astype(jnp.uint32)
        run_row = self._row(running)
        no_move = jnp.zeros(shape, dtype=jnp.bool_)
        does = []
        joint = running.astype(jnp.int32)
        for r in range(roles):
            read = self.does[r][0]
            if self.moves[r] == 0:
                no_move = no_move | running
                continue

            def drawn(rows, r=r, read=read):
                legal = [self._planes(row) & live for row in rows]
                counts = legal[0]
                for bits in legal[1:]:
                    counts = counts + bits
                u = mix32(keys + mix32((length * roles + r + 1).astype(jnp.uint32)))
                hits = _one_hot(legal, _below(u, counts))
                packed = [self._row(hits[m]) for m in read]
                return (jnp.stack(packed) if packed else rows[:0]), counts

            def forced(rows, read=read):
                return rows[read] & run_row, live

            rows = values[self.legal[r]]
            # every running game has exactly one legal move for this role (it is not on turn): its legal rows
            # are its moves, no planes, no draw (the draw would pick that move: the games are the same)
            once = jnp.zeros_like(run_row)
            twice = jnp.zeros_like(run_row)
            for row in rows:
                twice = twice | (once & row)
                once = once | row
            alone = jnp.all((once & ~twice & run_row) == run_row)
            role_rows, counts = lax.cond(alone, forced, drawn, rows)
            does.extend(role_rows)
            joint = joint * counts.astype(jnp.int32)
            no_move = no_move | (running & (counts == 0))
        moving = running & ~no_move
        keep = self._row(moving)
        does = [row & keep for row in does]
        does.extend([jnp.zeros(values.shape[1], dtype=values.dtype)] * (self._does_block() - len(does)))
        after = self._successor_rows(values, jnp.stack(does) if does else values[:0])
        fluents = (after & keep) | (values[self.fluents] & ~keep)
        out = {"values": self._state_values(fluents), "length": length + moving,
               "stuck": c["stuck"] | (running & no_move)}
        if tally:
            joint = joint * moving.astype(jnp.int32)
            at = jnp.where(moving, length, max_steps).reshape(-1)  # a decision at the game's own step
            flat = joint.reshape(-1)
            # the sum over the games in three 11-bit limbs: exact in int32 for up to a million a step
            out["sums"] = jnp.stack([c["sums"][i].at[at].add((flat >> (11 * i)) & 0x7FF, mode="drop")
                                     for i in range(3)])
            out["reached"] = c["reached"].at[at].add((flat != 0).astype(jnp.int32), mode="drop")
            out["forced"] = c["forced"].at[at].add((flat == 1).astype(jnp.int32), mode="drop")
            out["most"] = jnp.maximum(c["most"], joint)
        return out

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

    def playouts(self, fluent_rows: np.ndarray, game: np.ndarray, keys_table: np.ndarray, n_games: int,
                 init_bits: np.ndarray, max_steps: int, tally: bool) -> dict[str, np.ndarray]:
        """The jitted loop on host arrays, its results as NumPy arrays."""
        out = self._playouts(jnp.asarray(fluent_rows), jnp.asarray(game), jnp.asarray(keys_table),
                             jnp.int32(n_games), jnp.asarray(init_bits), max_steps=max_steps, tally=tally)
        return {k: np.asarray(v) for k, v in out.items()}


def mix32(z):
    """murmur3's 32-bit finaliser (a bijection on uint32), on NumPy or JAX uint32 arrays."""
    xp = jnp if isinstance(z, jax.Array) else np
    z = z ^ (z >> xp.uint32(16))
    z = z * xp.uint32(0x85EB_CA6B)
    z = z ^ (z >> xp.uint32(13))
    z = z * xp.uint32(0xC2B2_AE35)
    return z ^ (z >> xp.uint32(16))


def _below(u, counts):
    """floor(u x counts / 2**32) in uint32 without 64-bit products (counts < 2**16): a uniform index below
    each count from a uniform 32-bit word, exact, in two 16-bit halves."""
    high = (u >> 16) * counts
    low = ((u & 0xFFFF) * counts) >> 16
    return (high + low) >> 16


def game_keys32(seed: int, games: np.ndarray) -> np.ndarray:
    """Each game's 32-bit stream key: murmur3's finaliser of the game's number times the golden ratio plus the
    seed's mixed word, so that game k of seed S is the same game in any batch."""
    with np.errstate(over="ignore"):
        word = np.array([(seed ^ (seed >> 32)) & _M32], dtype=np.uint32)
        base = mix32(word + np.uint32(1))[0]
        z = np.asarray(games, dtype=np.int64).astype(np.uint32) * np.uint32(_GOLDEN32) + base
        return mix32(z)


def _one_hot(legal, pick):
    """Each game's pick-th legal move (0-based) among `legal` (a list of uint32 0/1 arrays, one a move), as
    such a list: a running count move by move (jnp.cumsum is a reduce_window on XLA's CPU backend, 30 times
    as slow for a few rows)."""
    seen = jnp.zeros_like(pick)
    out = []
    for bits in legal:
        out.append(jnp.where(seen == pick, bits, jnp.uint32(0)))
        seen = seen + bits
    return out


def draw_index(u: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """For tests: the legal move index (moves x batch booleans) each game's draw u picks, as the loop picks
    it: the floor(u x count / 2**32)-th legal move, -1 where none is legal."""
    rows = [jnp.asarray(row, dtype=jnp.uint32) for row in legal]
    counts = sum(rows[1:], rows[0])
    hit = np.asarray(jnp.stack(_one_hot(rows, _below(jnp.asarray(u, dtype=jnp.uint32), counts))))
    return np.where(np.asarray(counts) > 0, hit.argmax(axis=0), -1)


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




def run_chunk(env, seed: int, games: np.ndarray, max_steps: int, tally: bool, start: np.ndarray | None,
              columns: int) -> dict[str, np.ndarray]:
    """The jitted loop on the games numbered `games` in `columns` columns (rounded up to whole words), each
    column taking the next game when its game is over; with `start` per game (fluents x games), one column a
    game. The result arrays are padded to a power of two games: few compiled loops serve every run."""
    net: JaxNetwork = env.jax_network
    n = len(games)
    per_game = start is not None and np.asarray(start).ndim == 2
    columns = (max(columns, n if per_game else 1) + 31) // 32 * 32
    size = max(1 << max(n - 1, 0).bit_length(), columns)
    table = np.zeros(size, dtype=np.int64)
    table[:n] = games
    game = np.arange(columns)
    game[game >= n] = -1
    init = net.network.initial if start is None or per_game else np.asarray(start, dtype=bool)
    fluents = np.repeat(init[:, None], columns, axis=1)
    if per_game:
        fluents[:, :n] = np.asarray(start, dtype=bool)[:, games]
    planes = 32 if net.layout == "packed" else 1
    return net.playouts(net.pack_host(fluents), game.astype(np.int32).reshape(planes, -1),
                        game_keys32(seed, table), n, init, max_steps, tally)


def jax_chunk(env, seed: int, games: np.ndarray, max_steps: int, tally: bool, start: np.ndarray | None,
              columns: int):
    """tgpl.batched.playouts._chunk on the JAX backend: (Playouts, _Tally or None) of the games `games`."""
    from tgpl.batched.playouts import Playouts, _Tally

    n = len(games)
    if tally and np.prod([float(m) for m in env.jax_network.moves]) >= 2**31:
        raise ValueError("the JAX backend counts legal joint moves in 32 bits: this game can have more "
                         "(the numpy backend counts them)")
    out = run_chunk(env, seed, games, max_steps, tally, start, columns)
    lengths = out["lengths"][:n].astype(np.int64)
    played = Playouts(out["goals"][:n].astype(np.int64), lengths, out["finished"][:n].copy(),
                      out["stuck_games"][:n].copy())
    if not tally:
        return played, None
    steps = int(lengths.max(initial=0))
    sums = sum(out["sums"][i, :steps].astype(np.int64) << (11 * i) for i in range(3))
    counts = (sums, out["reached"][:steps].astype(np.int64), out["forced"][:steps].astype(np.int64))
    return played, _Tally(*counts, out["most_games"][:n].astype(np.int64))

__all__ = ["DEFAULT_JAX_LAYOUT", "JAX_LAYOUTS", "JaxKernel", "JaxNetwork", "draw_index", "game_keys32", "jax_chunk",
           "mix32", "run_chunk"]
