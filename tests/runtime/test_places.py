"""Each object's fields at its fixed place in the world's list (`World.data[obj.place]`): place 0
holds no object's, a copy is a slice sharing the fields, and a dropped event's place at the end
of the list is taken again by the next object made, so the list stays as long as the objects."""

from __future__ import annotations

import pytest

from tgpl.runtime import load_game
from tgpl.runtime.rng import Pcg32
from tgpl.runtime.values import NO_PLACE

from observed import EXAMPLES


def test_every_object_has_its_own_place_and_place_0_none():
    w = load_game(EXAMPLES / "tris.tgpl").initial_state(0).world
    places = [o.place for o in w.objects]
    assert len(set(places)) == len(places) and 0 not in places
    assert len(w.data) == max(places) + 1
    for o in w.objects:
        assert w.fields(o) is w.data[o.place]
    assert w.data[0] is NO_PLACE and len(NO_PLACE) == 0
    with pytest.raises(TypeError):  # read-only: shared by every world
        NO_PLACE["x"] = 1


def test_a_fixed_object_keeps_its_own_fields_at_place_0():
    w = load_game(EXAMPLES / "tris.tgpl").initial_state(0).world
    tile = next(o for o in w.objects if w.fields(o).get("connections"))
    link = w.fields(tile)["connections"][0]
    assert link.fixed is not None and link.place == 0
    assert w.fields(link) is link.fixed and "_to" in w.fields(link)


def test_a_copy_is_a_slice_sharing_each_objects_fields_until_a_move_changes_them():
    start = load_game(EXAMPLES / "tris.tgpl").initial_state(0)
    after = start.apply(start.legal_moves()[4])
    w, v = start.world, after.world
    assert v.data is not w.data and len(v.data) == len(w.data)
    changed = [o for o in w.objects if v.data[o.place] is not w.data[o.place]]
    assert changed and len(changed) < len(w.objects)  # the tile ticked and the game's counter, not the rest
    assert any(v.fields(o).get("AssignedTo") is not None for o in changed)


@pytest.mark.parametrize("seed", [1, 2])
def test_dropped_events_give_their_places_back(seed):
    """Cards throws an event a move; each is dropped once nothing refers to it, and the next
    object made takes its place: the list never holds more places than objects."""
    state = load_game(EXAMPLES / "cards.tgpl").initial_state(seed)
    rng = Pcg32(5)
    made = state.world.serials
    while not state.is_terminal:
        w = state.world
        assert len(w.data) == len(w.objects) + 1
        assert sorted(o.place for o in w.objects) == list(range(1, len(w.data)))
        moves = state.legal_moves()
        state = state.apply(moves[rng.below(len(moves))])
    assert state.world.serials > made  # events were made along the way, and their places reused
    assert len(state.world.data) == len(state.world.objects) + 1
