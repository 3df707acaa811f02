"""clingo's grounding under the command's limits (tgpl.limits): run in a thread of its own, left behind past them.

clingo can interrupt a solve's search (`SolveHandle.cancel`) but not a grounding, nor the parsing of a program
or a solve's preparation (the ground program made ready for the solver), and one grounding of a large game can
take minutes (the bounded search of a game with its moves compiled grounds a whole step of it at once). A
ground program observer that raises stops it, but calls Python for every ground rule: 1.5 to 3 times the
grounding's time. Instead the grounding runs in a daemon thread (clingo releases the GIL while it grounds) and
this thread checks the limits every tgpl.limits.POLL seconds; past them LimitReached is raised at once and the grounding is
left to finish unseen. The Control it grounds is unusable afterwards (`Abandoned` says so to whoever tries), and
the command ends soon after: the `tgpl` program exits without tearing the interpreter down (tgpl.cli.run), so
the thread still grounding is simply dropped with the process.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

import clingo

from tgpl.limits import ABANDONED, LimitReached, Limits, outside

T = TypeVar("T")


class Abandoned(RuntimeError):
    """A Control whose grounding was left behind past the limits: it may still be grounding."""


def abandoned() -> int:
    """How many groundings left behind past the limits are still running (tests, and a command's last words)."""
    return sum(1 for t in ABANDONED if t.is_alive())


def ground(ctl: clingo.Control, parts: Sequence[tuple[str, Sequence[clingo.Symbol]]], limits: Limits) -> None:
    """`ctl.ground(parts)`, stopped past `limits` (`interruptible`)."""
    interruptible(ctl, lambda: ctl.ground(parts), limits)


SOLVE_POLL = 0.05  # seconds between two checks of the limits while clingo solves


def solve(ctl: clingo.Control, limits: Limits, **kwargs) -> None:
    """`ctl.solve(**kwargs)`, in clingo's background thread, cancelled past `limits` (LimitReached). The solve's
    preparation (the ground program made ready for the solver) runs before the search starts and cannot be
    cancelled: it runs `interruptible` (Reversi 8x8's took 40 s at 3 moves; a time-indexed encoding of 40 steps of
    Jungle-lite's took 41 s and 4.4 GB more than its grounding)."""
    if limits.unlimited:
        ctl.solve(**kwargs)
        return
    limits.check()
    with interruptible(ctl, lambda: ctl.solve(async_=True, **kwargs), limits) as handle:
        while not handle.wait(SOLVE_POLL):
            try:
                limits.check()
            except LimitReached:
                handle.cancel()
                raise
        handle.get()


def interruptible(ctl: object | None, work: Callable[[], T], limits: Limits) -> T:
    """`work()`, a call of `ctl` clingo cannot interrupt (a grounding, a program added, a solve's preparation),
    stopped past `limits` (tgpl.limits.outside): LimitReached is raised as soon as a check finds them passed,
    the work left to its thread and `ctl` marked unusable (Abandoned; None: an object the caller drops, as a GDL
    game grounding its first state). Its result, or its error, as `work()` would give them."""
    if ctl is not None and getattr(ctl, "_tgpl_abandoned", False):
        raise Abandoned("this program's last grounding was left behind past the limits")
    try:
        return outside(work, limits)
    except LimitReached:  # the work may still be running: the command stops, and `ctl` is not to be used again
        if ctl is not None:
            ctl._tgpl_abandoned = True  # type: ignore[attr-defined]
        raise


__all__ = ["Abandoned", "abandoned", "ground", "interruptible", "solve"]
