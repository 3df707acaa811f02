"""A game played with decks dealt at pop(): what the GDL-II lowering of a shuffled deck is validated against.

A deck shuffled and then only popped shows a play nothing but the items pop() takes, one at a time; for a
uniform shuffle the item a pop() takes is uniform over the items left, whatever was taken before. So the same
game is played by a runtime that draws at each pop() the item it takes, among those left, and whose shuffles
draw nothing: the order of the items left is then the order they were put in (a shuffle in setup's, before
`dealing`, is the seed's), which no play reads. That is the form GDL-II can write (random's move at each pop(),
one for each item left: docs/language.md, decision 100), and playing it here lets the validation compare the
runtime and the GDL state by state and draw by draw (tgpl.runtime.chance_machine enumerates a pop()'s draws, n
of them for n items left, where a shuffle up front makes n! orders).

Used by validation only: the ordinary runtime, its records and replays never deal (`Seldom.deals` is empty).
Sound only for decks nothing reads by order (no `peek()`, index, `pop_front()`, `push()` onto them after the
shuffle): `tgpl.lowering.chance.dealt_decks` says which qualify.
"""

from __future__ import annotations

from tgpl.runtime.game import State
from tgpl.runtime.values import World


def dealing(state: State, classes: frozenset[str]) -> State:
    """`state` (a decision state, after setup) played on with the decks of the runtime classes named `classes`
    dealt at pop() (`tgpl.builtin_calls.deal`): the same objects and values, its generator's state kept."""
    if state.request is not None:
        raise ValueError("dealing() starts from a decision state, not one waiting for a choice")
    world: World = state.world.copy()
    world.unshare()
    world.seldom.deals = frozenset(classes)
    return State(state.game, world)


__all__ = ["dealing"]
