"""Random playouts on the JAX backend (tgpl.batched.jax_kernel's network): one jitted loop a run.

Random moves draw from a counter-based stream in 32-bit words (murmur3's finaliser, `mix32`): game k's key is
mixed from the seed and k, each draw from the key and (its own step x roles + role + 1), so game k is the
same game whatever the batch around it, its column or when the column took it (`_playout_loop`). The stream
is not NumPy's (tgpl.batched.playouts uses 64-bit SplitMix), so the games differ from the NumPy backend's;
the network's answers on a state do not (tests/batched/test_jax_backend.py).
"""

from __future__ import annotations

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from tgpl.batched.jax_kernel import JaxNetwork

_GOLDEN32 = 0x9E37_79B9
_M32 = 0xFFFF_FFFF

CPU_COLUMNS = 4_096
"""Columns (games at once) on XLA's CPU backend: 65,536 Connect Four games a CPU second 630,000 to 650,000 in
4,096 columns, 300,000 to 325,000 in 16,384 (the rows stay in the caches); Tris 1.9 M against 1.45 M."""

DEVICE_COLUMNS = 1_048_576
"""Columns on a GPU: on an H200 (booleans), Tris 9.2 M playouts/s in 1,048,576 columns against 7.7 M in 65,536,
Connect Four 2.5 M against 1.4 M (and 2.4 M in 4,194,304). A column of booleans is a byte a node (Connect Four's
381 nodes: 400 MB of rows), well within a GPU's memory (bench/batched_gpu.sh; docs/batched.md)."""


def default_columns() -> int:
    """The columns a run plays in when the caller names none: CPU_COLUMNS on the CPU, else DEVICE_COLUMNS."""
    return CPU_COLUMNS if jax.default_backend() == "cpu" else DEVICE_COLUMNS


def _playout_loop(net: JaxNetwork, fluent_rows, game, keys_table, n_games, init_bits, max_steps: int, tally: bool):
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
    roles = len(net.moves)
    ones = jnp.full(fluent_rows.shape[1], net._ones(), dtype=net._dtype())
    init_rows = jnp.where(init_bits[:, None], ones[None, :], jnp.zeros((), net._dtype()))
    zeros = jnp.zeros(shape, dtype=jnp.int32)

    def running_of(values, game, length, stuck):
        terminal = net._planes(values[net.terminal]) == 1
        return (game >= 0) & ~terminal & ~stuck & (length < max_steps)

    values = net._state_values(fluent_rows)
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
        out.update(_step(net, c, roles, max_steps, tally))
        out["running"] = running_of(out["values"], out["game"], out["length"], out["stuck"])
        return out

    def refill(c):
        c = lax.while_loop(playing, step, c)
        values, game, length, stuck = c["values"], c["game"], c["length"], c["stuck"]
        over = (game >= 0) & ~c["running"]
        terminal = net._planes(values[net.terminal]) == 1
        out = dict(c)
        rows = jnp.where(over, game, size).reshape(-1)  # the others' writes dropped, out of range
        goals = []
        for r in range(roles):
            total = zeros
            given = jnp.zeros(shape, dtype=jnp.bool_)
            for node, value in zip(net.goal_nodes[r], net.goal_values[r]):
                bits = net._planes(values[node])
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
        reset = net._row(fresh)
        fluents = (values[net.fluents] & ~reset) | (init_rows & reset)
        values = net._state_values(fluents)
        length = jnp.where(over, 0, length)
        stuck = stuck & ~over
        out.update(values=values, game=game, length=length, stuck=stuck, next=c["next"] + jnp.sum(flat),
                   keys=jnp.where(fresh, keys_table[jnp.clip(number, 0, size - 1)], c["keys"]),
                   running=running_of(values, game, length, stuck))
        return out

    carry = lax.while_loop(lambda c: jnp.any(c["game"] >= 0), refill, carry)
    out = {k: carry[k] for k in ("goals", "lengths", "finished", "stuck_games")
           + (("sums", "reached", "forced", "most_games") if tally else ())}
    out["fluents"] = carry["values"][net.fluents]
    return out

def _step(net: JaxNetwork, c, roles: int, max_steps: int, tally: bool) -> dict:
    """One joint move in every running column: each role's legal rows as planes, its move drawn (its k-th
    legal move, k = floor(u x count / 2**32) for the game's 32-bit draw u at its own step), the one-hot
    planes packed into the `does` block, the move schedule, the next fluents kept where the game moved,
    the state schedule on them. A role with no legal move in a running game makes it stuck."""
    values, running, keys, length = c["values"], c["running"], c["keys"], c["length"]
    shape = running.shape
    live = running.astype(jnp.uint32)
    run_row = net._row(running)
    no_move = jnp.zeros(shape, dtype=jnp.bool_)
    does = []
    joint = running.astype(jnp.int32)
    for r in range(roles):
        read = net.does[r][0]
        if net.moves[r] == 0:
            no_move = no_move | running
            continue

        def drawn(rows, r=r, read=read):
            legal = [net._planes(row) & live for row in rows]
            counts = legal[0]
            for bits in legal[1:]:
                counts = counts + bits
            u = mix32(keys + mix32((length * roles + r + 1).astype(jnp.uint32)))
            hits = _one_hot(legal, _below(u, counts))
            packed = [net._row(hits[m]) for m in read]
            return (jnp.stack(packed) if packed else rows[:0]), counts

        def forced(rows, read=read):
            return rows[read] & run_row, live

        rows = values[net.legal[r]]
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
    keep = net._row(moving)
    does = [row & keep for row in does]
    does.extend([jnp.zeros(values.shape[1], dtype=values.dtype)] * (net._does_block() - len(does)))
    after = net._successor_rows(values, jnp.stack(does) if does else values[:0])
    fluents = (after & keep) | (values[net.fluents] & ~keep)
    out = {"values": net._state_values(fluents), "length": length + moving,
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


def playouts(net: JaxNetwork, fluent_rows: np.ndarray, game: np.ndarray, keys_table: np.ndarray, n_games: int,
             init_bits: np.ndarray, max_steps: int, tally: bool) -> dict[str, np.ndarray]:
    """The jitted loop on host arrays, its results as NumPy arrays (jitted on first use and kept on `net`;
    jax.jit caches it by shape)."""
    if net.playout_loop is None:
        net.playout_loop = jax.jit(partial(_playout_loop, net), static_argnames=("max_steps", "tally"))
    out = net.playout_loop(jnp.asarray(fluent_rows), jnp.asarray(game), jnp.asarray(keys_table),
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
    return playouts(net, net.pack_host(fluents), game.astype(np.int32).reshape(planes, -1),
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


__all__ = ["CPU_COLUMNS", "DEVICE_COLUMNS", "default_columns", "draw_index", "game_keys32", "jax_chunk", "mix32", "playouts", "run_chunk"]
