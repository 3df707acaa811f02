"""Every object of a class holds the same fields in the same order (`RClass.fields`): the fact the
stored form of a state relies on (`tgpl.verify.stored` keeps a changed object's values without
their names) and the one a state laid out as one flat sequence would index by. Checked on every
example and test game that checks, after setup and after each move of seeded random playouts, and
on a game whose tiles, boards, decks and subclasses are made by `new` while it is played."""

from __future__ import annotations

from pathlib import Path

import pytest

from tgpl.frontend.loader import load_program
from tgpl.runtime import load_game
from tgpl.runtime.rng import Pcg32
from tgpl.verify.runtime_machine import RuntimeMachine

ROOT = Path(__file__).resolve().parents[2]
# The games there that check (the others are parts of a game, or games kept with their errors)
GAMES = sorted(p.relative_to(ROOT).as_posix() for p in [*ROOT.glob("examples/**/*.tgpl"), *ROOT.glob("tests/data/*.tgpl")]
               if "\ngame " in "\n" + p.read_text() and load_program(p).ok)
MOVES = 120  # moves of each playout: enough to reach the end of most, and the middle of the long ones


def _mismatches(state) -> list[str]:
    w = state.world
    return [f"{o.name}: {tuple(w.data[o.place])} != {o.cls.fields}" for o in w.objects
            if tuple(w.data[o.place]) != o.cls.fields]


def _played(game, seed: int) -> list[str]:
    rng = Pcg32(seed)
    state = game.initial_state(seed)
    found = _mismatches(state)
    for _ in range(MOVES):
        if state.is_terminal or state.pending:
            break
        moves = state.legal_moves()
        if not moves:
            break
        state = state.apply(moves[rng.below(len(moves))])
        found += _mismatches(state)
    return found


@pytest.mark.parametrize("path", GAMES)
def test_every_object_holds_its_class_fields(path):
    game = load_game(ROOT / path)
    checked = [f for seed in (1, 2) for f in _played(game, seed)]
    assert checked == []


MADE = """
game "made";
players 2;
setup
{
    for (number p = 0; p < 2; p += 1)
    {
        Seat s = new Seat();
        s.assign(p);
    }
    turn.use("T");
    turn.pass(0, "P");
}
class Seat
{
    number Count = 0;
    action Make
    {
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            Count += 1;
            Spot t = new Spot();
            t.Mark = player;
            Special s = new Special();
            s.Extra = Count;
            Token k = new Token();
            k.V = Count;
            Piece c = new Piece();
            c.Height = Count;
            if (Count == 3) { winner player; }
            turn.pass();
        }
    }
}
tile Spot
{
    number Mark = -1;
}
class Token
{
    number V = 0;
}
class Special : Token
{
    number Extra = 0;
}
interactable Piece
{
    number Height = 0;
}
turn T { phase P { } default { return player.active() + 1; } }
"""


def test_objects_made_while_playing(tmp_path):
    """Tiles, interactables and a subclass, made by `new` while the game is played: each holds its
    class's fields, built-in ones first, then its base's attributes, then its own."""
    path = tmp_path / "made.tgpl"
    path.write_text(MADE)
    game = load_game(path)
    assert _played(game, 1) == []
    special = next(rc for rc in game.compiled.classes_by_id() if rc.name == "Special")
    assert special.fields == ("V", "Extra")
    piece = next(rc for rc in game.compiled.classes_by_id() if rc.name == "Piece")
    spot = next(rc for rc in game.compiled.classes_by_id() if rc.name == "Spot")
    assert (piece.fields, spot.fields) == (("tile", "discarded", "Height"), ("group", "connections", "Mark"))


def test_stored_states_name_the_values_by_class():
    """A stored state holds a changed object's values without their names, and unpacks to the same fields."""
    game = load_game(ROOT / "examples/tris.tgpl")
    machine = RuntimeMachine(game)
    state = machine.initial()
    after = state.apply(state.legal_moves()[0])
    packed = machine.store(after)
    assert packed.__class__ is tuple
    names = {o.cls.fields for o in (*after.world.owned, *after.world.written)}
    assert names and not any(n in packed for n in names)
    back = machine.restore(packed)
    assert [dict(back.world.data[o.place]) for o in back.world.objects] == \
           [dict(after.world.data[o.place]) for o in after.world.objects]
    assert [list(back.world.data[o.place]) for o in back.world.objects] == \
           [list(after.world.data[o.place]) for o in after.world.objects]
