"""The command's limits hold where its work runs in worker processes (tgpl.workers): the batched engine's
playouts (forked) and `tgpl analyze`'s games (spawned), as the validation's (tests/asp/test_worker_limits.py).

A worker that never ends stands for a long chunk or batch of games. The clocks advance per reading, so where a
wait stops depends on the code alone; each test asserts the stop, that it came within a few polls, and that no
worker is left alive (nor unreaped). Within the limits, the answers are those without them.
"""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import tgpl.limits
from tests.batched.conftest import env_and_reasoner
from tgpl.analysis import figures
from tgpl.batched import playouts
from tgpl.cli import main
from tests.worker_checks import Ticks, assert_none_left
from tgpl.limits import LimitReached, Limits, memory_in_use
from tgpl.runtime.game import Game, compile_program
from tgpl.frontend.loader import load_program
from tgpl.workers import worker_pool

ROOT = Path(__file__).resolve().parents[1]
MB = 2**20
# Each player adds 1, 2 or 3 twice; the draw is forgotten, so equal scores pass for ever (tests/test_analyze_unfinished).
NEVER_ENDS = str(ROOT / "tests" / "data" / "forgotten_draw.tgpl")
TRIS = str(ROOT / "examples" / "tris.tgpl")
TICTACTOE = str(ROOT / "examples" / "gdl" / "tictactoe.kif")  # random playouts on the GDL reasoner


def _forever(*args) -> None:
    """A worker's task that never ends."""
    while True:
        time.sleep(1)


def _hog(*args) -> None:
    """A worker's task that takes 400 MB and never ends."""
    held = bytearray(b"\x01") * (400 * MB)  # written, so resident
    while held:
        time.sleep(1)


class Pids:
    """The worker processes a pool started, seen as the pool hands out its first task (`seen` wraps
    tgpl.workers.worker_pool)."""

    def __init__(self, monkeypatch, module) -> None:
        self.pids: list[int] = []
        pool = worker_pool

        def seen(count, limits, start="fork"):
            manager = pool(count, limits, start)
            outer = self
            workers = None

            class Seen:
                def __enter__(self):
                    nonlocal workers
                    workers = manager.__enter__()
                    workers.pool.submit(int).result()  # the processes started
                    outer.pids += [p.pid for p in workers.processes()]
                    return workers

                def __exit__(self, *exc):
                    outer.pids += [p.pid for p in workers.processes() if p.pid not in outer.pids]
                    return manager.__exit__(*exc)

            return Seen()

        monkeypatch.setattr(module, "worker_pool", seen)


# ------------------------------------------------------------ the pool itself
def test_a_pool_waits_under_the_limits_and_kills_what_runs_past_them():
    clock = Ticks()
    limits = Limits(max_seconds=5, clock=clock)
    with pytest.raises(LimitReached) as e:
        with worker_pool(2, limits, "fork") as workers:
            pids = [workers.pool.submit(os.getpid).result() for _ in range(4)]
            futures = [workers.pool.submit(_forever) for _ in range(2)]
            list(workers.completed(futures))
    assert e.value.what == "--max-seconds" and clock.readings <= 7
    assert_none_left(sorted(set(pids)))
    assert not limits.elsewhere


# ------------------------------------------------------------ the batched engine's playouts
def test_playouts_in_workers_stop_at_the_deadline_and_the_workers_are_killed(monkeypatch):
    env = env_and_reasoner("tris.tgpl")[0]
    monkeypatch.setattr(playouts, "_forked_chunk", _forever)
    seen = Pids(monkeypatch, playouts)
    clock = Ticks()
    with pytest.raises(LimitReached) as e:
        env.random_playouts(seed=1, batch=256, chunk=64, jobs=2, limits=Limits(max_seconds=5, clock=clock))
    assert e.value.what == "--max-seconds" and clock.readings <= 7
    assert_none_left(seen.pids)


def test_the_playout_workers_memory_counts_toward_the_cap(monkeypatch):
    """This process's memory made exact, the cap 100 MB above it: only a worker's 400 MB can pass it (the
    clock's deadline, 2,000 polls away, only keeps a broken test from waiting forever)."""
    env = env_and_reasoner("tris.tgpl")[0]
    monkeypatch.setattr(playouts, "_forked_chunk", _hog)
    seen = Pids(monkeypatch, playouts)
    here = memory_in_use()
    assert here is not None
    limits = Limits(max_seconds=2000, max_memory=here + 100 * MB, clock=Ticks(), memory=lambda: here)
    with pytest.raises(LimitReached) as e:
        env.random_playouts(seed=1, batch=256, chunk=64, jobs=2, limits=limits)
    assert e.value.what == "--max-memory" and e.value.used > here + 100 * MB
    assert_none_left(seen.pids)


def test_playouts_here_stop_within_steps_of_the_deadline():
    """Played in this process, the limits are polled at every step of a chunk."""
    env = env_and_reasoner("tris.tgpl")[0]
    clock = Ticks()
    with pytest.raises(LimitReached):
        env.random_playouts(seed=1, batch=4096, chunk=4096, limits=Limits(max_seconds=3, clock=clock))
    assert clock.readings <= 5  # the creation and a poll a step: tris's games need 5 to 9 steps


def test_a_jax_loop_is_waited_for_under_the_limits(monkeypatch):
    """jax's loop is compiled whole and polls nothing: it is waited for in a thread of its own. A loop that never
    ends stands for it (jax itself is not needed: the backend's name chooses the path)."""
    import copy
    import sys
    import types

    release = threading.Event()

    def stuck(*args):
        release.wait(60)
        raise AssertionError("released: the test is over")

    monkeypatch.setitem(sys.modules, "tgpl.batched.jax_playouts", types.SimpleNamespace(jax_chunk=stuck))
    env = copy.copy(env_and_reasoner("tris.tgpl")[0])
    env.backend = "jax"
    clock = Ticks()
    try:
        with pytest.raises(LimitReached):
            env.random_playouts(seed=1, batch=100, chunk=100, limits=Limits(max_seconds=5, clock=clock))
    finally:
        release.set()
    assert clock.readings <= 7


def test_playouts_within_the_limits_are_the_same_games():
    env = env_and_reasoner("tris.tgpl")[0]
    free = env.random_playouts(seed=3, batch=1000, chunk=128, tally=True)
    limits = Limits(max_seconds=1e9, max_memory=2**50, clock=lambda: 0.0)
    for jobs in (1, 2):
        told: list[int] = []  # the games of each chunk as it ends (a progress bar's)
        bounded = env.random_playouts(seed=3, batch=1000, chunk=128, tally=True, jobs=jobs, limits=limits,
                                      advance=told.append)
        assert sorted(told) == [104] + [128] * 7
        for name in ("goals", "lengths", "finished", "stuck"):
            assert np.array_equal(getattr(bounded, name), getattr(free, name))
        assert np.array_equal(bounded.branching.by_step_sum, free.branching.by_step_sum)
    assert not limits.elsewhere


# ------------------------------------------------------------ tgpl analyze's games (spawned workers)
def _game(path: str) -> Game:
    program = load_program(path)
    assert program.ok
    return Game(program, compile_program(program), 2)


def test_analyze_workers_stop_at_the_deadline_and_are_killed(monkeypatch):
    """Games that never end (no --max-moves to speak of) in two spawned workers: the wait stops at the
    deadline, and the workers are killed."""
    seen = Pids(monkeypatch, figures)
    clock = Ticks()
    with pytest.raises(LimitReached) as e:
        figures.play_games(_game(NEVER_ENDS), ["random", "random"], range(20), 2, 10**9,
                           limits=Limits(max_seconds=5, clock=clock))
    assert e.value.what == "--max-seconds" and clock.readings <= 7
    assert_none_left(seen.pids)


def test_the_analyze_workers_memory_counts_toward_the_cap(monkeypatch):
    """A spawned worker holds an interpreter and tgpl of its own (tens of MB): with this process's memory made
    exact and the cap 10 MB above it, the workers' memory passes it."""
    seen = Pids(monkeypatch, figures)
    here = memory_in_use()
    assert here is not None
    limits = Limits(max_seconds=2000, max_memory=here + 10 * MB, clock=Ticks(), memory=lambda: here)
    with pytest.raises(LimitReached) as e:
        figures.play_games(_game(NEVER_ENDS), ["random", "random"], range(20), 2, 10**9, limits=limits)
    assert e.value.what == "--max-memory" and e.value.used > here + 10 * MB
    assert_none_left(seen.pids)


def test_analyze_here_stops_within_moves_of_the_deadline():
    """Played in this process, the limits are checked before each game and after each move, so a game that
    never ends stops too."""
    clock = Ticks()
    with pytest.raises(LimitReached):
        figures.play_games(_game(NEVER_ENDS), ["random", "random"], range(100), 1, 10**9,
                           limits=Limits(max_seconds=6, clock=clock))
    assert clock.readings <= 7  # the creation, a check before the game and one after each move


def test_a_move_that_never_ends_here_is_left_behind_at_the_deadline(monkeypatch):
    """An agent's move is not interrupted (an MCTS move in chess takes tens of seconds): the games played here
    run in a thread of their own, and the wait for them stops at the deadline (tgpl.limits.outside)."""
    release = threading.Event()

    def stuck(*args, **kwargs):
        release.wait(60)
        raise AssertionError("released: the test is over")

    monkeypatch.setattr(figures, "play", stuck)
    clock = Ticks()
    try:
        for jobs in (1, None):
            with pytest.raises(LimitReached):
                figures.play_games(_game(TRIS), ["random", "random"], range(10), jobs, 100,
                                   limits=Limits(max_seconds=5, clock=clock), clock=lambda: 0.0)
            assert clock.readings <= 7
            clock.readings = 0
    finally:
        release.set()


def test_analyze_past_its_limits_writes_nothing_and_exits_2(monkeypatch, tmp_path):
    monkeypatch.setattr(tgpl.limits, "memory_in_use", lambda pid="self": 10**12)  # past any cap from the start
    report = tmp_path / "report"
    for path, engine in ((TRIS, "runtime"), (TRIS, "batched"), (TICTACTOE, "runtime")):
        done = CliRunner().invoke(main, ["analyze", path, "--games", "50", "--engine", engine, "--json",
                                         "--max-memory", "100"] + (["--report", str(report)] * (path == TRIS and
                                                                                                 engine == "runtime")))
        assert done.exit_code == 2 and done.stdout == "" and "Traceback" not in done.stderr, done.output
        assert f"{path}: error: stopped while" in done.stderr and "--max-memory 100 MB" in done.stderr
        assert done.stderr.rstrip().endswith(": nothing written")
    assert not report.exists()


@pytest.mark.parametrize("engine", ["runtime", "batched"])
def test_analyze_within_its_limits_prints_the_same_figures(engine):
    args = ["analyze", TRIS, "--games", "300", "--seed", "5", "--jobs", "2", "--json", "--engine", engine]
    free = CliRunner().invoke(main, args)
    bounded = CliRunner().invoke(main, args + ["--max-seconds", "100000", "--max-memory", "100000"])
    assert free.exit_code == bounded.exit_code == 0, bounded.output
    figures_free, figures_bounded = json.loads(free.stdout), json.loads(bounded.stdout)
    if engine == "batched":  # the limit given is in the memory's figures
        assert figures_bounded["memory"].pop("max_memory_bytes") == 100000 * MB
        figures_free["memory"].pop("max_memory_bytes")
    assert figures_bounded == figures_free
