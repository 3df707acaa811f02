"""The compiled counters' ranges as the dry run searches them (`tgpl to-gdl --dry-run`, `check --lowerable`).

A compiled lowering may refuse a game after its segments compile, in the relaxation that finds the counters'
ranges (`CompiledGame.relax`, its "numbers" part): a counter nothing bounds grows past horn.BOUND. The dry run used
to stop before it and say "lowers" (tests/data/designers/oware_counted.tgpl, whose `Seeds += 1` the lowering
refuses). So the dry run runs the lowering's own loop (`compiled.compile_game`: checks left to the next decision,
their ranges found with every check where it runs, counters saturated at the bounds the game tests, counters
guessed to count the board), with two differences, both counted, never timed:

* the relaxation is grounded at the rungs (tgpl.lowering.rungs) up to DRY_BOUND only, not up to horn.BOUND: where
  it closes below, its model is the lowering's (the rungs' argument); where a counter is proven to run away, the
  lowering refuses it at the same rung, with the same message and location; past DRY_BOUND, the dry run cannot
  say (`RangesPastBound`);
* it stops once the counters' part of the relaxation is done (`RangesFound`): the other part (the moves that can
  be legal), the rules' emission, GDL's checks and the proofs (a counter guessed to count the board) are not run.
"""

from __future__ import annotations

from dataclasses import dataclass

from tgpl.limits import Limits
from tgpl.lowering.board_count import BoardCount, Holds
from tgpl.lowering.compiled import CompiledGame, compile_game
from tgpl.lowering.horn import Unsupported
from tgpl.lowering.universe import Universe

DRY_BOUND = 256
"""The largest bound the dry run grounds the counters' relaxation at (the lowering's: horn.BOUND, 1000). A counter
that nothing bounds is proven to run away at the first rung, 32 (oware_counted's `Seeds`); a relaxation that needs
more than this to close (a number that legitimately reaches 300) is left to `tgpl to-gdl`."""


@dataclass
class RangesFound(Exception):
    """The counters' part of the relaxation closed: the lowering would find the same ranges. `counted`: the
    counters it bounds by the board on a guess that the lowering proves (tgpl.lowering.board_count) and the dry
    run does not."""

    counted: dict[str, BoardCount]
    bound: int  # the rung it closed at


@dataclass
class RangesPastBound(Exception):
    """No rung up to `bound` closed the counters' relaxation, and no counter was proven to run away below it."""

    bound: int


class _RangedGame(CompiledGame):
    """A compiled game whose relaxation stops at DRY_BOUND and after its counters' part."""

    dry_bound = DRY_BOUND

    def before_rung(self, bound: int) -> None:
        if bound > self.dry_bound:
            raise RangesPastBound(self.dry_bound)

    def relax(self, rules, functions, parts=("numbers", "rest")) -> dict:
        found = super().relax(rules, functions, tuple(p for p in parts if p == "numbers"))
        if "rest" in parts:  # `lowered` has come past every step that finds the ranges
            raise RangesFound(dict(self.counted), max(self.bounds, default=0))
        return found


def _not_run(*_args, **_kwargs) -> bool:
    raise AssertionError("the dry run proves nothing of the board: it stops before the proofs")


UNPROVED = Holds(_not_run, _not_run)
"""What the dry run gives `compile_game` as its provers: a counter that may count the board is guessed so, as the
lowering guesses it where it has provers (`tgpl to-gdl` always has), and the dry run stops before the proof."""


def compiled_ranges(program, universe: Universe, limits: Limits) -> RangesFound:
    """The counters' ranges of the game's moves compiled, searched as `compile_game` searches them up to
    DRY_BOUND. Raises Unsupported where the lowering refuses them (located, the lowering's message),
    RangesPastBound where the dry run cannot say."""
    try:
        compile_game(program, universe, limits=limits, make=_RangedGame, holds=UNPROVED)
    except RangesFound as found:
        return found
    raise AssertionError("compile_game returned before relaxing the counters")


__all__ = ["DRY_BOUND", "RangesFound", "RangesPastBound", "UNPROVED", "Unsupported", "compiled_ranges"]
