"""A game played with decks dealt at pop(): what the GDL-II lowering of a shuffled deck is validated against.

A deck shuffled and then only popped shows a play nothing but the items pop() takes, one at a time; for a
uniform shuffle the item a pop() takes is uniform over the items left, whatever was taken before. So the same
game is played by a runtime that draws at each pop() the item it takes, among those left, and whose shuffles
draw nothing: the order of the items left is then the order they were put in (a shuffle in setup's, before
`dealing`, is the seed's), which no play reads. That is the form GDL-II can write (random's move at each pop(),
one for each item left: docs/language.md, decision 100), and playing it here lets the validation compare the
runtime and the GDL state by state and draw by draw (tgpl.verify.chance_machine enumerates a pop()'s draws, n
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


def rosters(state: State, classes: frozenset[str]) -> dict[str, tuple[str, ...]]:
    """The items of each deck of the classes `classes` in `state`, by name, in the order it holds them: the
    numbering of random's deals (GDL-II's `(roll k)` takes a deck's k-th item: tgpl.lowering.chance.left_cell),
    made from the state the lowering starts from."""
    world = state.world
    return {o.name: tuple(i.name for i in world.fields(o)["_items"])
            for o in world.objects if o.cls.name in classes and "_items" in world.fields(o)}


def dealt_face(numbers: dict[str, tuple[str, ...]], before: State, after: State) -> int | None:
    """Random's `(roll k)` for the item a move dealt between `before` and `after`: the one item gone from a
    dealt deck (`rosters`), k its place in the deck's roster, from 1; None where no deck lost exactly one. An item
    on the deck's discard pile before that is neither in the deck nor on the pile after was dealt too: the move
    reshuffled the pile into the deck first (decision 105)."""
    took, had = after.world.seldom.dealt, before.world.seldom.dealt
    if took is not None and took != had:  # the item the move's pop() took, whatever it went through before
        return next((roster.index(took[1]) + 1 for roster in numbers.values() if took[1] in roster), None)
    gone = []
    for deck, roster in numbers.items():
        was, now = before.world.named(deck), after.world.named(deck)
        if was is None or now is None:
            continue
        left = {i.name for i in _held(after.world.fields(now))}
        gone += [(roster, i.name) for i in _held(before.world.fields(was)) if i.name not in left]
    if len(gone) != 1 or gone[0][1] not in gone[0][0]:
        return None
    roster, item = gone[0]
    return roster.index(item) + 1


def dealt_draw(numbers: dict[str, tuple[str, ...]], state: State, face: int) -> int | None:
    """The runtime's draw (`below(n)` of the n items left) that deals what random's `(roll face)` deals in
    `state`: the place among the items left of a deck's item `face` (`rosters`); None where no dealt deck holds
    it."""
    for deck, roster in numbers.items():
        obj = state.world.named(deck)
        if obj is None or face > len(roster):
            continue
        names = [i.name for i in _held(state.world.fields(obj))]  # a reshuffle appends the pile to the items
        if roster[face - 1] in names:
            return names.index(roster[face - 1])
    return None


def _held(fields: dict) -> list:
    """A deck's items, then the items on its discard pile (what a reshuffle appends to its items, in that order)."""
    return [*fields["_items"], *fields.get("discard_stack", ())]


__all__ = ["dealing", "dealt_draw", "dealt_face", "rosters"]
