"""Whether the worker processes a test saw are gone: the tests of commands stopped by their limits check that no
worker outlives the stop (tgpl.workers kills and reaps them)."""

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
