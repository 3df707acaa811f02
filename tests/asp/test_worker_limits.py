"""The command's limits hold while GDL batches are grounded by worker processes (BatchQueries.parallel, issue 34).

clingo's grounding cannot be interrupted, and a batch of a large game grounds for minutes: waiting for a worker
without a deadline let `to-gdl --max-seconds 500` run 592 s. Here a worker (or this process's own share) that
never ends stands for such a grounding. The clocks advance per reading, so where a wait stops depends on the
code alone; each test asserts the stop, that it came within a few polls, and that no worker is left alive.
"""

from __future__ import annotations

import itertools
import os
import threading
import time
from pathlib import Path

import pytest

from tgpl.asp import per_state
from tgpl.asp.kif import read_kif
from tgpl.asp.reasoner import GdlGame
from tests.worker_checks import Ticks, assert_none_left, gone
from tgpl.limits import LimitReached, Limits, memory_in_use

from test_batch_queries import walk

ROOT = Path(__file__).resolve().parents[2]
MB = 2**20


def tictactoe() -> tuple[GdlGame, list]:
    """Tic-tac-toe played one state at a time, and enough queries for two shares."""
    program = read_kif((ROOT / "examples" / "gdl" / "tictactoe.kif").read_text(encoding="utf-8"), "ttt.kif")
    game = GdlGame(program, "per-state")
    queries = [(state.fluents, joint) for seed in range(8) for state, joint in walk(game, seed, 9)]
    assert len(queries) >= 2 * per_state.MIN_SHARE
    game._queries.batch().grounding = per_state.TOGETHER  # settled: the clock counts the waits on the workers
    return game, queries


def _forever(grounding: str | None, posed, n: int) -> list[list[str]]:
    """A worker's grounding that never ends."""
    while True:
        time.sleep(1)


def _hog(grounding: str | None, posed, n: int) -> list[list[str]]:
    """A worker's grounding that takes 400 MB and never ends."""
    held = bytearray(b"\x01") * (400 * MB)  # written, so resident
    while held:
        time.sleep(1)
    return []


def workers_of(game: GdlGame) -> list[int]:
    """The process ids of the game's workers, started (the pool starts them at its first task) and idle."""
    workers = game._queries.batch()._workers
    assert workers is not None
    workers.pool.submit(int).result()
    return [p.pid for p in workers.processes()]


def test_a_wait_for_a_worker_stops_at_the_deadline_and_kills_it(monkeypatch):
    """`states_later`'s answers are waited for under the limits: past the deadline LimitReached, and the
    worker, still grounding, is killed as the block ends (it was waited for forever)."""
    game, queries = tictactoe()
    monkeypatch.setattr(per_state, "_solve_forked", _forever)
    clock = Ticks()
    limits = Limits(max_seconds=5, clock=clock)
    with pytest.raises(LimitReached) as e:
        with game.parallel(workers=1, limits=limits):
            pids = workers_of(game)
            answers = game.states_later(queries)
            with limits.during("validating against the runtime"):
                answers()
    assert e.value.what == "--max-seconds" and e.value.stage == "validating against the runtime"
    assert clock.readings <= 7  # the creation, the stage's entry, and a poll each POLL seconds until 5
    assert_none_left(pids)
    assert game._queries.batch()._workers is None


def test_a_batch_shared_with_a_worker_that_never_ends_stops(monkeypatch):
    """`states_after` grounds its own share, then waits for the worker's under the limits."""
    game, queries = tictactoe()
    monkeypatch.setattr(per_state, "_solve_forked", _forever)
    clock = Ticks()
    with pytest.raises(LimitReached):
        with game.parallel(workers=1, limits=Limits(max_seconds=20, clock=clock)):
            pids = workers_of(game)
            game.states_after(queries)
    assert clock.readings <= 22
    assert_none_left(pids)


def test_this_processs_own_share_is_grounded_under_the_limits(monkeypatch):
    """This process's share of a batch, a grounding that never ends here: the limits stop it too (the grounding
    is left behind, tgpl.limits.outside) and the workers are killed."""
    game, queries = tictactoe()
    release = threading.Event()
    grounded = per_state._batch_answers

    def stuck(statements, facts, n, observer=None):
        if os.getpid() == here:
            release.wait(60)
        return grounded(statements, facts, n, observer)

    here = os.getpid()
    monkeypatch.setattr(per_state, "_batch_answers", stuck)
    clock = Ticks()
    try:
        with pytest.raises(LimitReached):
            with game.parallel(workers=1, limits=Limits(max_seconds=5, clock=clock)):
                pids = workers_of(game)
                game.states_after(queries)
    finally:
        release.set()
    assert clock.readings <= 7
    assert_none_left(pids)


def test_the_workers_memory_counts_toward_the_cap(monkeypatch):
    """A worker's memory is the command's: a worker past the cap stops the wait with --max-memory (the clock's
    deadline, 2,000 polls away, only keeps a broken test from waiting forever)."""
    game, queries = tictactoe()
    monkeypatch.setattr(per_state, "_solve_forked", _hog)
    used = memory_in_use()
    assert used is not None
    limits = Limits(max_seconds=2000, max_memory=used + 200 * MB, clock=Ticks())
    with pytest.raises(LimitReached) as e:
        with game.parallel(workers=1, limits=limits):
            pids = workers_of(game)
            game.states_later(queries)()
    assert e.value.what == "--max-memory" and e.value.used > used + 200 * MB
    assert_none_left(pids)


def test_within_the_limits_the_workers_answer_as_before():
    """Under limits that are not reached, the answers are the ones a single process gives, and the pool ends
    with the block."""
    game, queries = tictactoe()
    want = [a.fluents for a in game.states_after(queries)]
    limits = Limits(max_seconds=1e9, max_memory=2**50, clock=lambda: 0.0)
    with game.parallel(workers=1, limits=limits):
        pids = workers_of(game)
        assert [a.fluents for a in game.states_after(queries)] == want
        assert [a.fluents for a in game.states_later(queries)()] == want
    assert game._queries.batch()._workers is None and not limits.elsewhere
    assert_none_left(pids)


def test_a_lone_batch_without_workers_is_grounded_under_the_limits(monkeypatch):
    """`parallel(workers=0, limits)`: no worker, and `states_after`'s grounding here still under the limits (a
    lone call outside `parallel` has none to be under)."""
    game, queries = tictactoe()
    release = threading.Event()
    grounded = per_state._batch_answers

    def stuck(statements, facts, n, observer=None):
        release.wait(60)
        return grounded(statements, facts, n, observer)

    monkeypatch.setattr(per_state, "_batch_answers", stuck)
    clock = Ticks()
    try:
        with pytest.raises(LimitReached):
            with game.parallel(workers=0, limits=Limits(max_seconds=5, clock=clock)):
                assert game.workers == 0
                game.states_after(queries)
    finally:
        release.set()
    assert clock.readings <= 7


def test_a_settling_batch_that_never_ends_together_is_killed_and_settles_apart(monkeypatch):
    """The first batch settles how batches are grounded (per_state.BatchQueries): grounded together in a forked
    process that never ends, it is killed once it has taken as long as apart (and the time to fork), and
    the batches are grounded apart, with the same answers; no process is left."""
    game, queries = tictactoe()
    batch = game._queries.batch()
    batch.grounding = None
    want = [a.fluents for a in GdlGame(game.program, "per-state").states_after(queries)]
    grounded = per_state._batch_answers
    here = os.getpid()
    forks: list[int] = []
    fork = os.fork

    def counted_fork() -> int:
        pid = fork()
        if pid:
            forks.append(pid)
        return pid

    def stuck(statements, facts, n, observer=None):
        while os.getpid() != here:
            time.sleep(1)
        return grounded(statements, facts, n, observer)

    monkeypatch.setattr(per_state, "_batch_answers", stuck)
    monkeypatch.setattr(os, "fork", counted_fork)
    limits = Limits(max_seconds=1e9, max_memory=2**50, clock=lambda: 0.0)
    with game.parallel(workers=0, limits=limits):
        assert [a.fluents for a in game.states_after(queries)] == want
    assert batch.grounding == per_state.APART
    assert len(forks) == 1 and gone(forks[0])
