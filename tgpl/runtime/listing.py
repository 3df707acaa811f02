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
    # globals, this, pool), when its test reads nothing else (run with no machine at all); it raises where the
    # filter's own way is needed.
    data: object = None


def quick(game, ra: RAction, choice_event_cls: RClass) -> Quick | None:
    """`ra`'s plan (found once, kept on the action), or None when it has another shape."""
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
    rc = game.by_info[id(inp.candidate_type.info)]
    return Quick(rc, game.may_discard(rc), every, ra.size, getattr(every, "data", None))


_UNSET = object()

__all__ = ["Quick", "quick"]
