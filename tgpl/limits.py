"""The limits of one command: `--max-seconds` and `--max-memory` over the whole of it.

    limits = Limits(max_seconds=20, max_memory=4 * 2**30)
    with limits.during("lowering (symbolic execution)"):
        for ...:
            limits.check()            # raises LimitReached past either limit

A command makes one `Limits` when it starts and hands it down to every long loop it runs: the lowering's
symbolic execution, range search, emission and generalisation, clingo's solving, the explorations and the
bisimulation. The deadline counts from the object's creation, so the lowering counts against the limit as much
as the search after it. `during(stage)` names what the command is doing, which a stop reports ("stopped while
lowering (emission) after 20.0 s"). The `tgpl` program's limits count from the process's start (`backdate`,
`process_age`): starting Python and importing count too. clingo's grounding cannot be interrupted: the
bounded search (`query`, bounded `verify`) runs it in a thread of its own and leaves it behind past the limits
(tgpl.asp.interrupt); elsewhere it is checked before and after, and `expect` refuses a step that cannot be
interrupted and would end past the deadline.

`check()` (and `poll()`, its uncounted twin for waits on work elsewhere) reads the clock every time (cheap) and
the memory at most every MEMORY_EVERY seconds of that clock; past the cap it first gives the C heap's free pages
back to the system (`release_free_memory`) and reads again, so that memory the process freed but still holds
never stops a command. The clock, the memory reading and the release are given (tests pass a clock that advances
per call, so that where a command stops depends on the code alone, never on the machine's speed).

This module imports nothing of tgpl: every layer (the lowering included) may take a Limits.
"""

from __future__ import annotations

import ctypes
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TypeVar

T = TypeVar("T")

MEMORY_EVERY = 0.05  # seconds of the clock between two readings of the memory in use


def memory_in_use(pid: int | str = "self") -> int | None:
    """This process's resident memory (or process `pid`'s) in bytes (Linux), None where it cannot be read."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        return None


def private_memory(pid: int) -> int | None:
    """The memory process `pid` holds alone, in bytes (Linux: its private pages, /proc/PID/smaps_rollup), None where
    it cannot be read (it ended, or another system). For a process forked from this one: the pages it shares with
    this process, unchanged since the fork, are this process's resident memory already (`memory_in_use`), and
    counting them again would stop a command twice as early as its memory warrants. Slow: the kernel walks the
    process's pages (13 ms for 450 MB on a busy machine), where `memory_in_use` reads a counter."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
            fields = dict(line.split(b":", 1) for line in f.read().splitlines()[1:] if b":" in line)
        return (int(fields[b"Private_Clean"].split()[0]) + int(fields[b"Private_Dirty"].split()[0])) * 1024
    except (OSError, ValueError, KeyError, IndexError):
        return None


def release_free_memory() -> None:
    """Give the C heap's free pages back to the system (glibc's malloc_trim; nothing elsewhere). A process that
    freed a peak keeps its pages resident until then: after one large command, a process that runs several
    (the tests, an embedding program) would read memory it no longer uses as in use."""
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass


def process_age() -> float:
    """Seconds since this process started (Linux), 0.0 where it cannot be read: the interpreter's start and the
    imports before a command makes its Limits (a second or more on a busy machine) are the command's time too."""
    try:
        with open("/proc/self/stat", "rb") as f:
            started = int(f.read().rsplit(b")", 1)[1].split()[19]) / os.sysconf("SC_CLK_TCK")
        with open("/proc/uptime", "rb") as f:
            now = float(f.read().split()[0])
    except (OSError, ValueError, IndexError, AttributeError):
        return 0.0
    return max(0.0, now - started)


class LimitReached(Exception):
    """A command passed one of its limits. `what`: the option ("--max-seconds" or "--max-memory"); `stage`:
    what the command was doing; `elapsed`: seconds since it started; `used`: the memory in use (bytes) at a
    memory stop. `where`, when set: the place in the game the lowering was running (a Span), and `inside`,
    the function or block there. `notes`: what the work stopped was doing it for, in words, one line each (the
    moves spelled out because their compiled lowering was refused, and why: the cause, where the stop names
    only where the time ran out)."""

    def __init__(self, what: str, limits: Limits, elapsed: float, used: int | None = None):
        self.what = what
        self.stage = limits.stage
        self.elapsed = elapsed
        self.used = used
        self.max_seconds = limits.max_seconds
        self.max_memory = limits.max_memory
        self.where = None
        self.inside: str | None = None
        self.notes: list[str] = []
        self.foreseen: float | None = None  # a stop before a step that cannot be interrupted: its expected seconds
        super().__init__(self.message)

    @property
    def limit(self) -> str:
        """The option and its value: "--max-seconds 20" or "--max-memory 4096 MB"."""
        if self.what == "--max-seconds":
            return f"--max-seconds {self.max_seconds:g}"
        return f"--max-memory {(self.max_memory or 0) // 2**20} MB"

    @property
    def message(self) -> str:
        """"stopped while lowering (emission) after 20.1 s (--max-seconds 20)"; past the memory limit, with the
        memory in use."""
        used = f", {self.used // 2**20:,} MB in use" if self.used is not None else ""
        ahead = ("" if self.foreseen is None else
                 f"; the next step cannot be interrupted and would take about {self.foreseen:.1f} s more")
        return f"stopped while {self.stage} after {self.elapsed:.1f} s ({self.limit}{used}{ahead})"

    @property
    def cap(self) -> str:
        """The limit as verify's exploration names its caps: "the time limit (600 s, --max-seconds)"."""
        if self.what == "--max-seconds":
            return f"the time limit ({self.max_seconds:g} s, --max-seconds)"
        used = f"{self.used // 2**20} MB in use, " if self.used is not None else ""
        return f"the memory cap ({used}--max-memory {(self.max_memory or 0) // 2**20} MB)"

    @property
    def stopped(self) -> str:
        """The limit as a search's reason to stop: "stopped after 20 seconds (--max-seconds)"."""
        if self.what == "--max-seconds":
            return f"stopped after {self.max_seconds:g} seconds (--max-seconds)"
        used = self.used // 2**20 if self.used is not None else (self.max_memory or 0) // 2**20
        return f"stopped at {used} MB of memory (--max-memory)"


@dataclass(eq=False)
class Limits:
    """The deadline (`max_seconds` from creation) and the memory cap (`max_memory` bytes) of one command;
    None: no such limit. `clock` gives seconds, `memory` the bytes in use (None: unknown)."""

    max_seconds: float | None = None
    max_memory: int | None = None
    clock: Callable[[], float] = time.monotonic
    memory: Callable[[], int | None] = field(default=lambda: memory_in_use())  # looked up when read: tests
    # replace tgpl.limits.memory_in_use to make the process's memory exact
    release: Callable[[], None] = release_free_memory  # called before a reading past the cap is believed
    stage: str = "starting"
    start: float = field(init=False)
    checks: int = field(default=0, init=False)  # check() calls so far (tests count them by stage)
    reached: LimitReached | None = field(default=None, init=False)  # the first stop, once there is one

    def __post_init__(self) -> None:
        self.start = self.clock()
        self.deadline = float("inf") if self.max_seconds is None else self.start + self.max_seconds
        self._next_memory = float("-inf")
        self.on_check: Callable[[Limits], None] | None = None  # told of each check (tests)
        self.elsewhere: list[Callable[[], int]] = []  # memory in use outside this process that counts (`counting`)

    def backdate(self, seconds: float) -> Limits:
        """The limits counted from `seconds` before their creation (the process's start, `process_age`)."""
        self.start -= seconds
        self.deadline -= seconds
        return self

    @property
    def unlimited(self) -> bool:
        return self.max_seconds is None and self.max_memory is None

    def check(self) -> None:
        """Raise LimitReached once past the deadline or the memory cap."""
        self.checks += 1
        if self.on_check is not None:
            self.on_check(self)
        self.poll()

    def poll(self) -> None:
        """`check()` while waiting on work that runs elsewhere (clingo's search, in its own thread), every so many
        seconds: the same stops, but neither counted in `checks` nor told to `on_check`, since how many polls a
        wait makes depends on the machine's speed, and what counts checks must not (the dry run's budget of the
        range search's steps, tgpl.lowering.lowerable.RANGE_STEPS)."""
        if self.unlimited:
            return
        now = self.clock()
        if now >= self.deadline:
            raise self._reached("--max-seconds", now)
        if self.max_memory is not None and now >= self._next_memory:
            self._next_memory = now + MEMORY_EVERY
            used = self._memory()
            if used is not None and used > self.max_memory:
                self.release()
                used = self._memory()
            if used is not None and used > self.max_memory:
                raise self._reached("--max-memory", now, used)

    def _memory(self) -> int | None:
        """The memory in use: this process's, and what `counting` adds (None: this process's is unknown)."""
        used = self.memory()
        if used is None or not self.elsewhere:
            return used
        return used + sum(reading() for reading in self.elsewhere)

    @contextmanager
    def counting(self, elsewhere: Callable[[], int]) -> Iterator[Limits]:
        """Within the block, the memory `elsewhere` reads (bytes) counts toward the cap as well as this process's:
        the memory of worker processes this command started (tgpl.asp.per_state's, `private_memory`), which
        --max-memory limits as much as what the command does itself."""
        self.elsewhere.append(elsewhere)
        try:
            yield self
        finally:
            self.elsewhere.remove(elsewhere)

    def _reached(self, what: str, now: float, used: int | None = None) -> LimitReached:
        e = LimitReached(what, self, now - self.start, used)
        if self.reached is None:
            self.reached = e
        return e

    def overdue(self) -> LimitReached:
        """The stop of a step that ended because the deadline left it no more time (a budget of its own cut
        to what was left): LimitReached for --max-seconds, now, to be raised."""
        return self._reached("--max-seconds", self.clock())

    def stop(self) -> LimitReached | None:
        """`check()` as a value: the stop, or None (for loops that end with a partial result)."""
        try:
            self.check()
        except LimitReached as e:
            return e
        return None

    def stopper(self, form: str = "stopped") -> Callable[[], str | None]:
        """A `stop()` that gives the stop's text (`form`: "stopped", "cap" or "message", LimitReached's) or None:
        the `stop` of tgpl.verify.graph.explore and of the bounded searches."""
        def stop() -> str | None:
            e = self.stop()
            return None if e is None else getattr(e, form)
        return stop

    def elapsed(self) -> float:
        return self.clock() - self.start

    def remaining(self) -> float:
        """Seconds left before the deadline (inf without one; negative past it)."""
        return self.deadline - self.clock() if self.max_seconds is not None else float("inf")

    def afford(self, seconds: float) -> bool:
        """Whether `seconds` more (what a step that cannot be interrupted is expected to take, as clingo's
        grounding of a search's next step) end before the deadline."""
        return self.max_seconds is None or self.clock() + seconds < self.deadline

    def expect(self, seconds: float) -> None:
        """`check()`, and raise LimitReached as well when a step that cannot be interrupted, expected to take
        `seconds`, would end past the deadline: better to stop now than that late."""
        self.check()
        if self.max_seconds is not None:
            now = self.clock()
            if now + seconds >= self.deadline:
                e = self._reached("--max-seconds", now)
                e.foreseen = seconds
                e.args = (e.message,)
                raise e

    @contextmanager
    def during(self, stage: str) -> Iterator[Limits]:
        """The command is at `stage` (a stop names it) until the block ends; checked on the way in."""
        before = self.stage
        self.stage = stage
        try:
            self.check()
            yield self
        finally:
            self.stage = before


ABANDONED: list[threading.Thread] = []  # work left behind past the limits by `outside` (maybe still running)
POLL = 0.05  # seconds between two checks of the limits while `outside` waits for its work


def outside(work: Callable[[], T], limits: Limits) -> T:
    """`work()` run in a thread of its own while this thread checks `limits` every POLL seconds: for work that
    does not check them itself (clingo's grounding, which nothing can interrupt; a long stretch of code that has
    no checks). Past the limits LimitReached is raised at once and the work is left behind, unseen (its result
    lost, whatever it holds not to be used again); the `tgpl` program ends without waiting for it
    (tgpl.cli.run). Without limits, the work runs here. Its result, or its error (SystemExit included), as
    `work()` would give them."""
    limits.check()
    if limits.unlimited:
        return work()
    done: list = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            done.append(work())
        except BaseException as e:  # given to the waiting thread, which raises it
            failed.append(e)

    thread = threading.Thread(target=run, name="tgpl work", daemon=True)
    thread.start()
    while True:
        thread.join(POLL)
        if not thread.is_alive():
            break
        try:
            limits.check()
        except LimitReached:
            ABANDONED.append(thread)
            raise
    if failed:
        raise failed[0]
    limits.check()
    return done[0]


def unlimited() -> Limits:
    """A Limits that never stops (the default of functions that take one)."""
    return Limits()


__all__ = ["LimitReached", "Limits", "memory_in_use", "outside", "private_memory", "process_age", "unlimited"]
