"""Batches sized to the memory limit: the bound per game, the batch it gives, the same games in any batch."""

from __future__ import annotations

import json
import tracemalloc

import numpy as np
import pytest
from click.testing import CliRunner

import tgpl.limits
from tests.batched.conftest import EXAMPLES, env_and_reasoner
from tgpl.batched.memory import CHUNK, SMALLEST, BatchMemory, BatchMemoryError, batch_memory, chunk_size
from tgpl.cli import main

TRIS = str(EXAMPLES / "tris.tgpl")
MB = 2**20


@pytest.mark.parametrize("name", ["tris.tgpl", "connect4.kif"])
def test_the_bound_is_above_what_numpy_allocates(name: str) -> None:
    env = env_and_reasoner(name)[0]
    memory = batch_memory(env)
    env.random_playouts(seed=1, batch=64, chunk=64, tally=True)  # the kernels' first use out of the count
    tracemalloc.start()
    try:
        env.random_playouts(seed=1, batch=4096, chunk=4096, tally=True)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    bound = 4096 * (memory.per_game + 2 * memory.result) + memory.network
    assert 0 < peak <= bound, (peak, bound)
    assert memory.state == memory.nodes / 8  # packed: one bit a node and game


def test_the_batch_is_the_largest_that_fits() -> None:
    memory = BatchMemory(nodes=80, state=10, step=80, bookkeeping=100, result=20, network=1000)
    assert memory.per_game == 200
    assert chunk_size(memory, 10**6, 1, None, 5 * MB) == CHUNK
    left = 10 * MB - 5 * MB - 1000 - 2 * 10_000 * 20
    assert chunk_size(memory, 10_000, 1, 10 * MB, 5 * MB) == CHUNK
    assert chunk_size(memory, 10_000, 1, 6 * MB, 5 * MB) == (MB - 1000 - 400_000) // 200 // 64 * 64
    assert chunk_size(memory, 10_000, 2, 6 * MB, 5 * MB) == (MB - 1000 - 400_000) // 400 // 64 * 64
    assert left > 0
    assert chunk_size(memory, 10, 1, 5 * MB + 1000 + 400 + 2000, 5 * MB) == 10  # fewer games than SMALLEST
    with pytest.raises(BatchMemoryError, match=r"a batch of 64 games needs 0\.01 MB \(200 bytes a game"):
        chunk_size(memory, 10_000, 1, 5 * MB + 1000 + 400_000 + 200 * (SMALLEST - 1), 5 * MB)


def test_the_games_do_not_depend_on_the_batch() -> None:
    env = env_and_reasoner("tris.tgpl")[0]
    whole = env.random_playouts(seed=4, batch=3000, max_steps=6, tally=True)
    split = env.random_playouts(seed=4, batch=3000, max_steps=6, tally=True, chunk=128)
    assert (~whole.finished).sum() > 100  # some games cut at 6 moves: left out of the branching
    for field in ("goals", "lengths", "finished", "stuck"):
        assert np.array_equal(getattr(whole, field), getattr(split, field))
    a, b = whole.branching, split.branching
    assert np.array_equal(a.by_step_sum, b.by_step_sum) and np.array_equal(a.by_step_games, b.by_step_games)
    assert (a.decisions, a.most, a.forced) == (b.decisions, b.most, b.forced)
    assert a.decisions == whole.lengths[whole.finished].sum()
    assert list(a.by_step_sum[:5] / a.by_step_games[:5]) == [9, 8, 7, 6, 5]


def _analyze(*extra: str) -> tuple[int, str, str]:
    done = CliRunner().invoke(main, ["analyze", TRIS, "--engine", "batched", "--games", "5000", "--seed", "3",
                                     "--json", *extra])
    return done.exit_code, done.stdout, done.stderr


def test_a_small_max_memory_makes_smaller_batches_and_the_same_figures(monkeypatch) -> None:
    monkeypatch.setattr(tgpl.limits, "memory_in_use", lambda: 100 * MB)  # the process's memory, made exact
    code, out, err = _analyze()
    assert code == 0, err
    free = json.loads(out)
    code, out, err = _analyze("--max-memory", "101")
    assert code == 0, err
    small = json.loads(out)
    memory = small.pop("memory")
    assert free.pop("memory")["batch"] == CHUNK
    assert SMALLEST <= memory["batch"] < 5000 and memory["batch"] % 64 == 0
    assert memory["batch"] * memory["bytes_per_game_in_a_batch"] <= MB
    assert memory["max_memory_bytes"] == 101 * MB and memory["nodes"] > 100
    assert small == free
    assert f"batches of {memory['batch']:,} games" in err


def test_a_max_memory_too_small_is_refused_located(monkeypatch) -> None:
    monkeypatch.setattr(tgpl.limits, "memory_in_use", lambda: 100 * MB)
    code, out, err = _analyze("--max-memory", "100")
    assert code == 2 and out == ""
    assert "tris.tgpl:1:1: error: the games do not fit --max-memory 100 MB: 100.0 MB are in use" in err
    assert "bytes a game" in err and "^" in err and "Traceback" not in err


def test_max_memory_with_the_runtime_engine_is_its_limit(monkeypatch) -> None:
    """The runtime's games size no batch: --max-memory is the command's limit there (tests/test_worker_pools.py)."""
    monkeypatch.setattr(tgpl.limits, "memory_in_use", lambda: 100 * MB)
    done = CliRunner().invoke(main, ["analyze", TRIS, "--games", "2", "--max-memory", "101"])
    assert done.exit_code == 0, done.output
    done = CliRunner().invoke(main, ["analyze", TRIS, "--games", "2", "--max-memory", "99"])
    assert done.exit_code == 2 and "stopped while" in done.stderr and "--max-memory 99 MB" in done.stderr


def test_playouts_from_given_states_are_those_from_the_initial_state() -> None:
    env = env_and_reasoner("tris.tgpl")[0]
    initial = env.random_playouts(seed=2, batch=300)
    one = env.random_playouts(seed=2, batch=300, start=env.network.initial)
    columns = env.random_playouts(seed=2, batch=300, start=np.repeat(env.network.initial[:, None], 300, axis=1))
    for other in (one, columns):
        assert np.array_equal(other.goals, initial.goals) and np.array_equal(other.lengths, initial.lengths)
    state = env.state_of(np.repeat(env.network.initial[:, None], 2, axis=1))
    assert state.legal_mask[:, 0].sum(axis=1).tolist() == [9, 9] and not state.terminated.any()


def test_the_lowering_runs_under_max_memory(monkeypatch) -> None:
    monkeypatch.setattr(tgpl.limits, "memory_in_use", lambda: 10**12)  # past any limit from the start
    code, out, err = _analyze("--max-memory", "100")
    assert code == 2 and out == "" and "Traceback" not in err
    assert "tris.tgpl: error: stopped while" in err and "--max-memory 100 MB" in err
