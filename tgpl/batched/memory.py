"""What a batch of games costs in memory, and the batch size that fits a memory limit (`--max-memory`).

The batched engine's memory is a bound computed from the network before a game is played, not a reading:
for each game in a batch, its state (one bit a node), a step's temporaries (the gathered rows of the widest
level, the legal moves unpacked to bytes, the draws), and the chunk's bookkeeping (game numbers, keys,
lengths, goals); for each game of the whole run, its result (goals, length, finished, stuck), held twice
while the chunks' results are joined. `chunk_size` takes the largest batch, at most CHUNK, that fits what
the limit leaves once the memory already in use, the network and the results are counted, or refuses with
the figures. tests/batched/test_memory.py checks that the bound is above what NumPy allocates (tracemalloc).
"""

from __future__ import annotations

from dataclasses import dataclass

from tgpl.batched.env import BatchedEnv

CHUNK = 16_384
"""Games played together in one process at most (a multiple of 64: packed rows are whole words). Connect Four
plays more games a CPU second at 16,384 than at 65,536: the rows stay in the processor's caches."""

SMALLEST = 64
"""The smallest batch `chunk_size` chooses for a run of more games: one word of packed bits a row."""


class BatchMemoryError(Exception):
    """The games do not fit the memory limit: the message says what they need and what was left."""


@dataclass(frozen=True)
class BatchMemory:
    """A network's memory per game, in bytes (`per_game`: in a batch; `result`: per game of the whole run)."""

    nodes: int
    state: float  # one bit a node (packed) or a byte (bytes layout)
    step: float  # a step's temporaries: the widest level's gathered rows, the next state, moves unpacked
    bookkeeping: int  # the chunk's arrays per game: game numbers, keys, steps, lengths, goals, flags
    result: int  # the run's arrays per game: goals, lengths, finished, stuck
    network: int  # bytes: the network's index arrays, once

    @property
    def per_game(self) -> int:
        """Bytes a game takes in a batch: the state twice (a step makes the next while reading this one)."""
        return int(2 * self.state + self.step + self.bookkeeping + 0.999)

    def to_json(self) -> dict:
        return {"nodes": self.nodes, "state_bytes_per_game": round(self.state, 2),
                "bytes_per_game_in_a_batch": self.per_game, "result_bytes_per_game": self.result,
                "network_bytes": self.network}


def batch_memory(env: BatchedEnv) -> BatchMemory:
    """The bound for `env`'s network in its layout (tgpl.batched.kernel: packed bits or bytes)."""
    network = env.network
    bit = 1 / 8 if env.layout == "packed" else 1.0
    levels = network.state_levels + network.move_levels
    widest = max((level.literal_count for level in levels), default=0)
    fluents = len(network.fluents)
    moves = [len(ms) for ms in network.legal]
    roles = len(network.roles)
    # a level gathers at most each literal once, plus the bodies and the ORs' accumulators: 3 rows a literal
    gates = 3 * widest * bit
    # the next state's fluent rows, and at a compaction the fluents unpacked (bytes), selected and packed again
    fluent_rows = fluents * bit + 2 * fluents + fluents * bit
    # per role: the legal rows unpacked, masked and one-hot (bytes), packed back (bits); the draw's uniform
    # (float64), its key (uint64) and the counters (uint8 x 4, int64 index)
    draws = sum(3 * m + m * bit for m in moves) + 8 + 16 + 4 + 8 * 2
    bookkeeping = 8 + 8 + 8 + 1 + 1 + 1 + 8 + 8 * roles + 8 + 8 * 2  # ids, keys, steps, flags, lengths, goals,
    # most (tally), the terminal/joint temporaries
    result = 8 * roles + 8 + 1 + 1
    if env.backend == "jax":
        # the device's result rows too (goals, length, flags, most: int32), padded up to twice the games
        result += 2 * (4 * roles + 4 + 1 + 1 + 4)
    literals = sum(int(g.literals.size) for level in levels for g in level.and_groups)
    network_bytes = 8 * 4 * literals + 8 * network.nodes
    return BatchMemory(network.nodes, network.nodes * bit, gates + fluent_rows + draws, bookkeeping, result,
                       network_bytes)


def chunk_size(memory: BatchMemory, games: int, jobs: int, max_memory: int | None, in_use: int) -> int:
    """The batch for `games` games in `jobs` processes within `max_memory` bytes (None: CHUNK), `in_use` bytes
    being taken already. Raises BatchMemoryError, with the figures, when not even SMALLEST games fit."""
    if max_memory is None:
        return CHUNK
    results = 2 * games * memory.result
    left = max_memory - in_use - memory.network - results
    fits = left // (max(jobs, 1) * memory.per_game) if left > 0 else 0
    if fits >= CHUNK:
        return CHUNK
    if fits >= SMALLEST:
        return fits // SMALLEST * SMALLEST
    if fits >= games:
        return games
    mb = 2**20
    raise BatchMemoryError(
        f"the games do not fit --max-memory {max_memory / mb:,.0f} MB: {in_use / mb:,.1f} MB are in use, the "
        f"network takes {memory.network / mb:,.2f} MB and the results of {games:,} games {results / mb:,.2f} MB, "
        f"which leaves {max(left, 0) / mb:,.2f} MB, and a batch of {min(SMALLEST, games)} games needs "
        f"{min(SMALLEST, games) * max(jobs, 1) * memory.per_game / mb:,.2f} MB ({memory.per_game:,} bytes a game"
        f"{f' in each of {jobs} processes' if jobs > 1 else ''}, {memory.nodes:,} nodes)")


__all__ = ["CHUNK", "SMALLEST", "BatchMemory", "BatchMemoryError", "batch_memory", "chunk_size"]
