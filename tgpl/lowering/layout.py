"""The layout of the lists that are state, and the rerun that finds it.

A lowering gives each list of values that is state a number of slots, and keeps a list of objects as a set
unless a run found it may hold an item twice. Neither is known before a run: a run that finds a list needs more
slots raises `segments.MoreSlots`, one that finds a set given an item twice raises `execute.NotASet`, and what
either run found of the game is not the game. `ListLayout.fitted` owns that layout and runs a lowering again,
from scratch with the new layout, until it fits, so the result depends on the program and setup alone. The
lowering (tgpl.lowering.lower.game_lowering) and the dry run's whole and sampled runs
(tgpl.lowering.lowerable) share it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from tgpl.lowering.execute import NotASet
from tgpl.lowering.segments import MoreSlots

T = TypeVar("T")


@dataclass
class ListLayout:
    """The slots of each list of values that is state, `(object, list attribute) -> slots` (none: a first
    guess, `segments.FIRST_VALUE_SLOTS` past what setup left), and the lists kept as sets that are kept in
    order instead (`ordered`), as the runs so far found them."""

    slots: dict[tuple[str, str], int] = field(default_factory=dict)
    ordered: frozenset[str] = frozenset()

    def fitted(self, run: Callable[[ListLayout], T]) -> T:
        """`run(self)` with the layout, run again with the layout a failed run asked for (more slots, a list
        kept in order) until it fits: what it returns then. Its other exceptions pass through, the layout
        left as the last run had it (a later run, such as the dry run's sampled one, starts from it)."""
        while True:
            try:
                return run(self)
            except MoreSlots as more:
                self.slots = more.slots
            except NotASet as twice:
                self.ordered |= {twice.attr}


__all__ = ["ListLayout"]
