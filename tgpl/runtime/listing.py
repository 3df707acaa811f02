"""The common shape of a move, listed without the general walk: an action with no `require`, a
PlayerChoiceEvent trigger that is `return true;`, and one input its mover picks, of a class,
with one filter that runs over the whole pool in one call (`codegen.BlockGenerator.filter_all`)
and names the candidate (Tris's `Tick`, Connect Four's `Drop`).

Listing such an action needs neither the move's PlayerChoiceEvent (nothing that runs can see
it: the trigger is not run, the pool's filter has no event) nor a Frame (the filter's locals
are a list of nulls, as a Frame's are): `quick` finds the plan once per action, and
`game._legal_moves` lists with it what `Machine.candidates` would give.
"""

from __future__ import annotations

from dataclasses import dataclass

from tgpl.frontend.types import ClassType
from tgpl.runtime.classes import RAction, RClass


@dataclass(frozen=True)
class Quick:
    """How to list an action of the common shape: the candidates' class, whether some of them
    may be discarded (and are then left out), the filter over the pool and the locals' size."""

    rc: RClass
    may_discard: bool
    every: object
    size: int
    # The filter over the pool as a function of the world's fields and global objects only, (data,
    # globals, this, pool), when its test reads nothing else (`NO_MACHINE`); it raises where the
    # filter's own way is needed.
    data: object = None


QUICK = True  # False: every action listed the general way (tests check both agree)
# A plan's filter keeps each candidate in a Python local only, not also in the list of locals made for
# the call and dropped after it (`codegen.BlockGenerator.filter_all`'s `_all_plan`); False: as
# `Machine.candidates` runs the filter (tests check both agree)
LOCAL_ONLY = True
# ... and loops over the pool with that local itself, not with a name copied into it each time
# (`codegen._candidate_looped`); False: as copied (tests check both agree)
LOOP_LOCAL = True
# A plan's filter whose test reads only fields and global objects (no machine, no other local, no
# count: `D`, `G` and the candidate) also spelled as a function of the world's fields, which `game._planned_moves` runs
# with no machine at all; it raising (a null, a missing field) is a miss, and the filter runs its
# own way. False: every plan run with a machine (tests check both agree)
NO_MACHINE = True


def quick(game, ra: RAction, choice_event_cls: RClass) -> Quick | None:
    """`ra`'s plan (found once, kept on the action), or None when it has another shape."""
    if not QUICK:
        return None
    found = ra.__dict__.get("_quick", _UNSET)
    if found is _UNSET:
        found = ra.__dict__["_quick"] = _plan(game, ra, choice_event_cls)
    return found


def _plan(game, ra: RAction, choice_event_cls: RClass) -> Quick | None:
    if ra.requires or len(ra.inputs) != 1:
        return None
    trigger = next((ra.triggers[c.name] for c in choice_event_cls.ancestors() if ra.triggers.get(c.name) is not None), None)
    if not getattr(trigger, "always", False):  # `compiler._returns_true`
        return None
    inp = ra.inputs[0]
    if (inp.modifier != "player" or inp.target is not None or inp.is_list or inp.optional
            or not isinstance(inp.candidate_type, ClassType) or len(inp.filters) != 1 or True in inp.constant):
        return None
    every = getattr(inp.filters[0][1], "all", None)
    if every is None:
        return None
    if LOCAL_ONLY:  # the list of locals is the plan's own, made for the call (`game._planned_moves`)
        every = getattr(every, "plan", every)
    rc = game.by_info[id(inp.candidate_type.info)]
    return Quick(rc, game.may_discard(rc), every, ra.size, getattr(every, "data", None) if NO_MACHINE else None)


_UNSET = object()

__all__ = ["NO_MACHINE", "QUICK", "Quick", "quick"]
