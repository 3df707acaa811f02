"""Worker processes a command shares its work with, under the command's limits (tgpl.limits).

    with worker_pool(2, limits, start="fork") as workers:
        futures = [workers.pool.submit(work, part) for part in parts]
        answers = [workers.result(future) for future in futures]

Every pool of tgpl is one of these: the validation's (tgpl.asp.per_state), the batched engine's playouts
(tgpl.batched.playouts) and `tgpl analyze`'s games (tgpl.analysis.figures). Why one piece: a worker's work does
not check the command's limits (a clingo grounding cannot be interrupted; a chunk of playouts or a batch of games
runs for as long as it runs), so a wait without a deadline let `to-gdl --max-seconds 500` run 592 s, and a pool
that outlives a stop keeps working, and holding its memory, for nobody. Here:

- a result is waited for under the limits (`Workers.result`): they are polled every POLL seconds meanwhile,
  and past them LimitReached is raised;
- the workers' memory counts toward --max-memory, with this process's (`Workers.memory`, through
  `Limits.counting`);
- a block that ends by an exception (a stop, an error, ^C) kills the workers (`Workers.kill`): nobody reads
  their answers, and waiting for them would hold the stop up. No worker is left behind, running or unreaped.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from typing import TypeVar

from tgpl.limits import Limits, memory_in_use, private_memory

T = TypeVar("T")

POLL = 0.05
"""Seconds between two checks of the limits while this process waits for a worker (`Workers.result`)."""
READING_SHARE = 50
"""The workers' private memory is read at most once every this many times the last reading took (`Workers`)."""


@dataclass
class Workers:
    """A pool of worker processes and the limits they work under (None: none).

    Memory: a worker's private pages (tgpl.limits.private_memory) count toward --max-memory, read with this
    process's own: a forked worker's pages still shared with this process since the fork are counted once, in
    this process (a spawned worker shares only the interpreter's and the libraries' files). Reading them is slow
    (the kernel walks the pages), so they are read at most once every READING_SHARE times the last reading took;
    in between, the growth of a worker's resident memory (a counter) is added to its last reading: what a worker
    adds is its own. Why not an address-space limit (RLIMIT_AS) per worker: a forked worker's address space is
    this process's whole, reserved or not, and the cap is on the command's memory, not on each process's."""

    pool: ProcessPoolExecutor
    count: int
    limits: Limits | None = None
    _read: dict[int, tuple[int, int]] = field(default_factory=dict)  # pid -> (private, resident) at the last reading
    _next_reading: float = float("-inf")  # time.monotonic() from which the private memory is read again

    def processes(self) -> list[multiprocessing.Process]:
        """The worker processes. ProcessPoolExecutor cannot cancel a task that runs, and names its processes
        only in `_processes` (private, but in every Python since 3.2, and None once the pool is shut down)."""
        return list((getattr(self.pool, "_processes", None) or {}).values())

    def memory(self) -> int:
        """The memory the workers hold on their own, in bytes (see the class)."""
        pids = [p.pid for p in self.processes() if p.pid is not None]
        now = time.monotonic()
        if now >= self._next_reading or any(pid not in self._read for pid in pids):
            self._read = {pid: (private_memory(pid) or 0, memory_in_use(pid) or 0) for pid in pids}
            self._next_reading = now + READING_SHARE * (time.monotonic() - now)
            return sum(private for private, _ in self._read.values())
        return sum(private + max(0, (memory_in_use(pid) or 0) - resident)
                   for pid, (private, resident) in self._read.items() if pid in pids)

    def result(self, future: Future[T]) -> T:
        """`future.result()` waited for under the pool's limits (`waited`)."""
        return waited(future, self.limits)

    def completed(self, futures: list[Future[T]]) -> Iterator[Future[T]]:
        """The futures as they complete (concurrent.futures.as_completed), the pool's limits polled every POLL
        seconds meanwhile; past them, LimitReached."""
        pending = set(futures)
        while pending:
            done, pending = wait(pending, timeout=None if self.limits is None else POLL, return_when=FIRST_COMPLETED)
            yield from done
            if self.limits is not None:
                self.limits.poll()

    def kill(self) -> None:
        """The workers ended now: those running killed with their processes (SIGKILL: a grounding in clingo's C++
        cannot be asked to stop), so that none is left running, nor holding its memory, after a stop. The pool
        sees them die, fails what they were doing, and reaps them as it shuts down, which this waits for (not
        joined here as well: two threads waiting on one process leave it listed as alive)."""
        for process in self.processes():
            process.kill()
        self.pool.shutdown(wait=True, cancel_futures=True)


def waited(future: Future[T], limits: Limits | None) -> T:
    """`future.result()`, `limits` polled every POLL seconds meanwhile; past them, LimitReached (the worker goes
    on until its pool's block ends and kills it)."""
    if limits is None:
        return future.result()
    while True:
        try:
            return future.result(timeout=POLL)
        except FutureTimeout:
            limits.poll()


@contextmanager
def worker_pool(count: int, limits: Limits | None, start: str = "fork") -> Iterator[Workers]:
    """`count` worker processes (started by `start`: "fork", which shares this process's memory as it is, or
    "spawn", a fresh interpreter) for the block, their results waited for under `limits` and their memory
    counted toward them (see the module). The block's normal end waits for the work handed to them; an
    exception kills them."""
    pool = ProcessPoolExecutor(count, mp_context=multiprocessing.get_context(start))
    workers = Workers(pool, count, limits)
    with limits.counting(workers.memory) if limits is not None else nullcontext():
        try:
            yield workers
        except BaseException:
            workers.kill()  # nobody reads their answers: working on would hold the stop up
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


__all__ = ["POLL", "READING_SHARE", "Workers", "waited", "worker_pool"]
