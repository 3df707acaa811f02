"""A field given a scalar or an object copies its object's fields dict only; the lists and tables in
it are copied when the object is owned (`World.own_fields`, `Machine.lazy_lists`). Games play
exactly as when the first write copied everything: the same moves, logs and keys, states that
stay as they were, lists that alias as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from tgpl.runtime import load_game
from tgpl.runtime.machine import Machine
from tgpl.runtime.values import Obj, World
from observed import assert_examples_play_alike

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def plain(monkeypatch):
    """load(path) -> the game run with every first write copying the object and its lists: every
    machine's (`Machine.lazy_lists`, a class default), those that list moves and those that play them."""
    monkeypatch.setattr(Machine, "lazy_lists", False)
    return lambda path, players=None: load_game(path, players)


def test_eager_machines_play_the_moves_too(plain):
    """A move played by a machine copying lists at once copies the tile's connections too: the
    fixture reaches the machines `State.apply` makes, not only the listing's."""
    start = plain(EXAMPLES / "tris.tgpl").initial_state(0)
    after = start.apply(start.legal_moves()[4])
    tile = next(o for o in after.world.objects if after.world.data[o.place] is not start.world.data[o.place]
                and "connections" in after.world.data[o.place])
    assert after.world.data[tile.place]["connections"] is not start.world.data[tile.place]["connections"]
    assert after.world.data[tile.place]["connections"] == start.world.data[tile.place]["connections"]


@pytest.mark.parametrize("name, seeds, limit", [
    ("chess/chess.tgpl", range(2), 60),
    ("draughts.tgpl", range(2), 60),
    ("connect4.tgpl", range(2), 400),
    ("tris.tgpl", range(3), 400),
    ("hex.tgpl", range(2), 400),
    ("citadels/citadels.tgpl", range(1), 40),
])
def test_examples_play_the_same_with_lists_copied_late_and_not(plain, name, seeds, limit):
    assert_examples_play_alike(plain, name, seeds, limit)


def test_a_tick_shares_the_tiles_connections():
    start = load_game(EXAMPLES / "tris.tgpl").initial_state(0)
    after = start.apply(start.legal_moves()[4])
    tile = next(o for o in after.world.objects if after.world.data[o.place] is not start.world.data[o.place]
                and "connections" in after.world.data[o.place])
    assert after.world.data[tile.place]["AssignedTo"] is not None and start.world.data[tile.place]["AssignedTo"] is None
    assert after.world.data[tile.place]["connections"] is start.world.data[tile.place]["connections"]


def test_owning_a_written_object_copies_its_lists():
    world = World(1, 0)
    cls = type("C", (), {"name": "C", "ancestry": ()})()
    obj = world.new_object(cls, "C#0")
    world.data[obj.place].update(L=[1.0, [2.0]], T={"k": [3.0]}, X=0.0)
    copy = world.copy()
    fields = copy.own_fields(obj)
    fields["X"] = 1.0
    assert fields is not world.data[obj.place] and fields["L"] is world.data[obj.place]["L"]
    assert obj in copy.written and obj not in copy.owned
    owned = copy.own(obj)
    assert owned is fields and obj in copy.owned and obj not in copy.written
    assert owned["L"] == [1.0, [2.0]] and owned["L"] is not world.data[obj.place]["L"]
    assert owned["L"][1] is not world.data[obj.place]["L"][1] and owned["T"]["k"] is not world.data[obj.place]["T"]["k"]
    owned["L"][1].append(9.0)
    assert world.data[obj.place]["L"] == [1.0, [2.0]] and world.data[obj.place]["X"] == 0.0
    # a copy of a world that writes the object shares its dict: neither writes it any more
    other = world.copy()
    other.own_fields(obj)["X"] = 2.0
    again = other.copy()
    assert not other.written and not other.owned and not again.written
    other.own_fields(obj)["X"] = 3.0
    assert again.data[obj.place]["X"] == 2.0 and world.data[obj.place]["X"] == 0.0
    assert isinstance(obj, Obj)


# `Keep` writes a scalar, then changes its list in place; `Alias` gives the field a list the
# game still holds and changes it through the field; `Back` reads the list of a state before.
ALIASES = """
game "t";
players 1;
global class Box
{
    number N = 0;
    List<number> L = {1, 2};
    List<number> Held = {7};
}
class Seat
{
    action Keep { trigger PlayerChoiceEvent { return true; }
        effect { Box.N = Box.N + 1; Box.L.add(Box.N); log("" + Box.L.length); turn.pass(); } }
    action Alias { trigger PlayerChoiceEvent { return true; }
        effect { List<number> a = Box.Held; Box.N = 5; Box.L = a; Box.L.add(8); a.add(9);
                 log("" + a.length + " " + Box.L.length + " " + Box.Held.length); turn.pass(); } }
    action Back { trigger PlayerChoiceEvent { return true; }
        effect { Box.N = 0; log("" + Box.L.length + " " + Box.L[Box.L.length - 1]); turn.pass(); } }
}
turn T { phase P { } default { return 0; } }
setup
{
    Seat s = new Seat(); s.assign(0);
    turn.use("T");
    turn.pass(0, "P");
}
"""


@pytest.mark.parametrize("moves", [
    ["Seat#0.Keep()", "Seat#0.Keep()", "Seat#0.Back()"],
    ["Seat#0.Alias()", "Seat#0.Keep()", "Seat#0.Back()", "Seat#0.Alias()"],
    ["Seat#0.Back()", "Seat#0.Alias()", "Seat#0.Back()"],
])
def test_lists_alias_and_states_stay_as_before(game, moves, monkeypatch):
    def run(g):
        start = g.initial_state(0)
        seen, state = [], start
        for move in moves:
            state = state.apply(move)
            seen.append((state.key(), tuple(state.log)))
        # every state on the way is as it was when it was made
        again, replayed = start, []
        for move in moves:
            again = again.apply(move)
            replayed.append((again.key(), tuple(again.log)))
        assert replayed == seen and start.key() == g.initial_state(0).key()
        return seen

    lazy = run(game(ALIASES))
    monkeypatch.setattr(Machine, "lazy_lists", False)  # every machine's, as the `plain` fixture sets it
    assert lazy == run(game(ALIASES))
