"""What the tests of work stopped by its limits share: a clock that advances per reading (so no test depends on
the machine's speed), and whether the worker processes a test saw are gone (tgpl.workers kills and reaps them)."""

from __future__ import annotations

import multiprocessing
import os


def gone(pid: int) -> bool:
    """Whether process `pid` has ended and been reaped (no zombie left either)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def assert_none_left(pids: list[int]) -> None:
    assert pids and all(gone(pid) for pid in pids)
    assert not {p.pid for p in multiprocessing.active_children()} & set(pids)


class Ticks:
    """A clock that reads 0, 1, 2, ... (one a reading), counting its readings."""

    def __init__(self) -> None:
        self.readings = 0

    def __call__(self) -> float:
        self.readings += 1
        return float(self.readings - 1)
