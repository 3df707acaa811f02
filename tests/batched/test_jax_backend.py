"""The jax backend (tgpl.batched.jax_kernel) says what the NumPy kernel says, state by state, and its random
playouts are uniformly random play, reproducible for a seed.

jax is the optional `gpu` extra (about 500 MB installed, jaxlib and scipy), not a dev dependency, so these
tests run where it is installed (`pip install -e '.[dev,gpu]'`) and are skipped elsewhere.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import tgpl.batched as batched  # noqa: E402
from tests.batched.conftest import EXAMPLES, env_and_reasoner  # noqa: E402
from tests.batched.test_matches_reasoner import GRAPH  # noqa: E402
from tests.batched.test_outcomes import Z99, assert_tris_rates  # noqa: E402
from tgpl.batched.jax_playouts import draw_index, game_keys32, mix32, run_chunk  # noqa: E402

_jax_envs: dict[tuple[str, str], batched.BatchedEnv] = {}


def jax_env(name: str, layout: str = "packed") -> batched.BatchedEnv:
    """The jax environment on the network the NumPy tests use (built once a session: jit compiles per width)."""
    if (name, layout) not in _jax_envs:
        env = env_and_reasoner(name)[0]
        _jax_envs[name, layout] = batched.BatchedEnv(env.network, layout, env.path, "jax")
    return _jax_envs[name, layout]


def lockstep(numpy_env: batched.BatchedEnv, jax_env: batched.BatchedEnv, games: int, seed: int) -> int:
    """Random games played on both environments with the same moves; every state's legal moves, terminal,
    goals and fluents compared. Returns the states compared."""
    rng = np.random.default_rng(seed)
    a, b = numpy_env.init(0, games), jax_env.init(0, games)
    compared = 0
    new = np.ones(games, dtype=bool)  # the games whose state is one not compared yet
    while True:
        assert np.array_equal(a.observation, b.observation)
        assert np.array_equal(a.terminated, b.terminated)
        assert np.array_equal(a.legal_mask, b.legal_mask)
        assert np.array_equal(a.goals, b.goals)
        compared += int(new.sum())
        if a.terminated.all():
            return compared
        new = ~a.terminated
        moves = numpy_env.random_moves(a, rng)
        a, b = numpy_env.step(a, moves), jax_env.step(b, moves)


# (game, layout, games walked, states compared at least)
STATES = [("tris.tgpl", "packed", 400, 2500), ("connect4.tgpl", "packed", 120, 2000),
          ("connect4.kif", "packed", 120, 2000), ("tictactoe.kif", "bool", 300, 2000)]


@pytest.mark.parametrize("name,layout,games,least", STATES, ids=[f"{c[0]}-{c[1]}" for c in STATES])
def test_every_state_equals_numpys(name: str, layout: str, games: int, least: int) -> None:
    assert lockstep(env_and_reasoner(name)[0], jax_env(name, layout), games, 5) >= least


def test_ground_cycles_reach_the_same_fixpoint(tmp_path) -> None:
    path = tmp_path / "graph.kif"
    path.write_text(GRAPH)
    numpy_env = batched.load(path)
    other = batched.load(path, backend="jax")
    assert any(level.cyclic for level in other.network.state_levels)
    assert lockstep(numpy_env, other, 300, 2) >= 300


def replayed(env: batched.BatchedEnv, seed: int, games: np.ndarray, max_steps: int):
    """The games `games` of a jax run replayed on the NumPy environment: each move drawn on the host from the
    same 32-bit stream (mix32 of the game's key plus mix32(step x roles + role + 1)), the k-th legal move
    for k = floor(u x count / 2**32) in Python integers."""
    keys = game_keys32(seed, games)
    state = env.init(0, len(games))
    roles = len(env.roles)
    for step in range(max_steps):
        if state.terminated.all():
            break
        mask = state.legal_mask
        moves = np.zeros((len(games), roles), dtype=np.int64)
        for r in range(roles):
            with np.errstate(over="ignore"):
                u = mix32(keys + mix32(np.array([step * roles + r + 1], dtype=np.uint32)))
            for g in range(len(games)):
                legal = np.flatnonzero(mask[g, r])
                if len(legal):
                    moves[g, r] = legal[int(u[g]) * len(legal) >> 32]
        state = env.step(state, moves)
    return state


@pytest.mark.parametrize("max_steps,columns", [(3, 512), (1000, 512), (1000, 64)])
def test_the_jitted_loop_plays_the_moves_its_stream_draws(max_steps: int, columns: int) -> None:
    """The whole loop on the device (draws, one-hot moves packed into the does rows, the next state kept
    where a game runs, lengths, goals; with 64 columns for 300 games, the columns refilled with the next
    games) against the same games stepped on the NumPy environment."""
    env = env_and_reasoner("tictactoe.kif")[0]
    games = np.arange(1000, 1300)
    out = run_chunk(jax_env("tictactoe.kif"), 4, games, max_steps, False, None, columns)
    state = replayed(env, 4, games, max_steps)
    if columns >= len(games):  # column c played game c alone: its final state is the game's
        fluents = jax_env("tictactoe.kif").jax_network.unpack_host(out["fluents"], len(games))
        assert np.array_equal(fluents, state.observation.T)
    assert np.array_equal(out["lengths"][:len(games)], state.steps)
    assert np.array_equal(out["finished"][:len(games)], state.terminated)
    assert np.array_equal(np.where(state.terminated[:, None], state.goals, -1), out["goals"][:len(games)])
    assert not out["finished"][len(games):].any() and not out["lengths"][len(games):].any()  # the padding


def test_a_draw_picks_the_floor_of_u_times_count_th_legal_move() -> None:
    rng = np.random.default_rng(0)
    legal = rng.random((7, 5000)) < 0.4
    u = rng.integers(0, 2**32, size=5000, dtype=np.uint64).astype(np.uint32)
    expected = [np.flatnonzero(column)[int(x) * int(column.sum()) >> 32] if column.any() else -1
                for column, x in zip(legal.T, u)]
    assert np.array_equal(draw_index(u, legal), expected)


def test_tris_outcomes_of_100000_random_games() -> None:
    assert_tris_rates(jax_env("tris.tgpl").random_playouts(seed=0, batch=100_000))


def test_connect_four_outcomes_agree_with_the_numpy_backend() -> None:
    """100,000 games on each backend (different streams): each outcome's rates within the 99 % interval of
    their difference."""
    mine = jax_env("connect4.tgpl").random_playouts(seed=0, batch=100_000)
    theirs = env_and_reasoner("connect4.tgpl")[0].random_playouts(seed=0, batch=100_000)
    assert mine.finished.all() and theirs.finished.all()
    a, b = mine.outcomes(), theirs.outcomes()
    assert set(a) == set(b) and len(a) == 3
    n = mine.games
    for goals in a:
        pooled = (a[goals] + b[goals]) / (2 * n)
        half_width = Z99 * math.sqrt(pooled * (1 - pooled) * 2 / n)
        assert abs(a[goals] - b[goals]) / n <= half_width, (goals, a[goals], b[goals])
    assert abs(mine.lengths.mean() - theirs.lengths.mean()) < 0.2


def test_a_seed_gives_the_same_games_whatever_the_chunks() -> None:
    env = jax_env("tictactoe.kif")
    a = env.random_playouts(seed=5, batch=3000, chunk=512)
    b = env.random_playouts(seed=5, batch=3000, chunk=512)
    c = env.random_playouts(seed=5, batch=3000, chunk=1024)
    d = env.random_playouts(seed=6, batch=3000, chunk=512)
    assert np.array_equal(a.goals, b.goals) and np.array_equal(a.lengths, b.lengths)
    assert np.array_equal(a.goals, c.goals) and np.array_equal(a.lengths, c.lengths)
    assert not np.array_equal(a.lengths, d.lengths)


def test_games_cut_and_started_elsewhere() -> None:
    env = jax_env("tictactoe.kif")
    cut = env.random_playouts(seed=1, batch=50, max_steps=3)
    assert not cut.finished.any() and (cut.lengths == 3).all() and (cut.goals == -1).all()
    numpy_env = env_and_reasoner("tictactoe.kif")[0]
    after = numpy_env.step(numpy_env.init(0, 1), np.array([[4, 0]]))  # a first mark somewhere
    from_there = env.random_playouts(seed=2, batch=2000, start=after.observation[0])
    assert from_there.finished.all() and from_there.lengths.max() <= 8


def test_jobs_are_refused() -> None:
    with pytest.raises(ValueError, match="one process"):
        jax_env("tictactoe.kif").random_playouts(seed=0, batch=100, jobs=2)


def test_analyze_on_the_jax_backend() -> None:
    from click.testing import CliRunner

    from tgpl.cli import main

    tris = str(EXAMPLES / "tris.tgpl")
    done = CliRunner().invoke(main, ["analyze", tris, "--engine", "batched", "--backend", "jax", "--games",
                                     "30000", "--max-moves", "6", "--json"])
    assert done.exit_code == 1, done.output  # games cut at 6 moves
    s = json.loads(done.stdout)
    numpy_done = CliRunner().invoke(main, ["analyze", tris, "--engine", "batched", "--games", "30000",
                                           "--max-moves", "6", "--json"])
    t = json.loads(numpy_done.stdout)
    assert s["finished"] + s["unfinished"] == 30_000 and abs(s["finished"] - t["finished"]) < 600
    # the branching of the finished games only: the cut ones are played again and subtracted
    assert [m["mean"] for m in s["branching"]["by_move"]] == [9, 8, 7, 6, 5, 4]
    assert s["branching"]["decisions"] == sum(int(k) * v for k, v in s["length"]["histogram"].items())
    jobs = CliRunner().invoke(main, ["analyze", tris, "--engine", "batched", "--backend", "jax", "--jobs", "2"])
    assert jobs.exit_code == 2 and "one process" in jobs.output
    runtime = CliRunner().invoke(main, ["analyze", tris, "--backend", "jax"])
    assert runtime.exit_code == 2 and "--engine batched" in runtime.output


def test_the_memory_bound_counts_the_devices_result_rows() -> None:
    from tgpl.batched.memory import batch_memory

    numpy_bound, jax_bound = batch_memory(env_and_reasoner("tris.tgpl")[0]), batch_memory(jax_env("tris.tgpl"))
    # goals (2 roles), length, two flags and the most joint moves, int32, padded up to twice the games
    assert jax_bound.result - numpy_bound.result == 2 * (4 * 2 + 4 + 1 + 1 + 4)
    assert jax_bound.per_game == numpy_bound.per_game


def test_the_defaults_follow_the_device(monkeypatch) -> None:
    """Unnamed, the layout and the columns are the CPU's on the CPU (packed words, CPU_COLUMNS) and the GPU's
    elsewhere (booleans, DEVICE_COLUMNS), as measured for each (docs/batched.md); a named layout is kept."""
    from tgpl.batched import jax_kernel, jax_playouts

    network = env_and_reasoner("tictactoe.kif")[0].network
    assert jax.default_backend() == "cpu"
    env = batched.BatchedEnv(network, None, "tris", "jax")
    assert (env.layout, env.jax_network.layout) == ("packed", "packed")
    assert jax_playouts.default_columns() == jax_playouts.CPU_COLUMNS
    assert batched.BatchedEnv(network, None, "tris").layout == "packed"  # numpy's default
    monkeypatch.setattr(jax, "default_backend", lambda: "gpu")
    assert jax_kernel.default_jax_layout() == "bool"
    assert batched.BatchedEnv(network, None, "tris", "jax").layout == "bool"
    assert batched.BatchedEnv(network, "packed", "tris", "jax").layout == "packed"
    assert jax_playouts.default_columns() == jax_playouts.DEVICE_COLUMNS > jax_playouts.CPU_COLUMNS
