"""A plan's filter whose test reads only fields runs on the world's fields with no machine
(`listing.Quick.data`, `codegen.BlockGenerator.filter_all`'s `_all_data`, `game._planned_moves`):
the same moves, in the same order, and the same errors as the filter run its own way; a test that
raises there (a null's field) is run again its own way; filters that need a machine have no such
spelling, and a listing that needs none takes none."""

from __future__ import annotations

import textwrap

import pytest

from tgpl.runtime import listing, load_game
from tgpl.runtime.machine import Machine

from observed import EXAMPLES, reference
from test_listing_plans import HANDS
from test_listing_quick import DISCARDS

# Filters of every kind: a global's field (`Mark`), a null's field on the way (`Follow`: its test
# raises on the fields for a token whose `Next` is null, and the filter's own way errs as it does), a
# list's length (`Pick`), a function called (`Call`), a null test (`Unlink`, which makes the nulls)
FILTERS = """
game "t";
players 2;
interactable Token { number V = 0; Token Next = null; List<number> L = {}; }
global class G { number Cap = 2; Token First = null; }
class Seat
{
    action Mark
    {
        input Token t { return t.V < G.Cap; }
        trigger PlayerChoiceEvent { return true; }
        effect { t.V += 1; turn.pass(); }
    }
    action Follow
    {
        input Token t { return t.Next.V < 3; }
        trigger PlayerChoiceEvent { return true; }
        effect { t.Next.V += 1; turn.pass(); }
    }
    action Pick
    {
        input Token t { return t.L.length < 2; }
        trigger PlayerChoiceEvent { return true; }
        effect { t.L.add(1); turn.pass(); }
    }
    action Call
    {
        input Token t { return Small(x: t.V); }
        trigger PlayerChoiceEvent { return true; }
        effect { t.V += 5; turn.pass(); }
    }
    action Unlink
    {
        input Token t { return t.Next != null && t.V > 6; }
        trigger PlayerChoiceEvent { return true; }
        effect { t.Next = null; turn.pass(); }
    }
    function Small { function input number x; returns bool; effect { return x < 9; } }
}
turn T { phase P { } default { return player.active() + 1; } }
setup
{
    Token a = new Token(); Token b = new Token(); Token c = new Token();
    a.Next = b; b.Next = c; c.Next = a;
    G.First = a;
    Seat s = new Seat(); s.assign(0); Seat r = new Seat(); r.assign(1);
    turn.use("T"); turn.pass(0, "P");
}
"""


def _game(tmp_path, src: str):
    path = tmp_path / "game.tgpl"
    path.write_text(textwrap.dedent(src), encoding="utf-8")
    return path


def _plans(g) -> dict:
    """The plan of each action of the game's Seat, by action name."""
    seat = g.compiled.classes["Seat"]
    return {ra.name: listing.quick(g.compiled, ra, g.choice_event_cls) for ra in seat.choice_actions()}


def _walk(g, seed: int, limit: int = 60) -> list:
    """The moves listed along a play that takes the `seed`-th move of each listing, and how it ends."""
    state, seen = g.initial_state(0), []
    try:
        for i in range(limit):
            if state.is_terminal:
                break
            moves = state.legal_moves()
            seen.append([m.text for m in moves])
            if not moves:
                break
            state = state.apply(moves[(seed + i) % len(moves)])
        return ["ok", seen, state.key()]
    except Exception as e:  # a runtime error of the game, as rendered
        return ["error", seen, type(e).__name__, str(e)]


def test_only_filters_that_read_fields_have_the_spelling(tmp_path):
    plans = _plans(load_game(_game(tmp_path, FILTERS)))
    # `Mark`'s test reads a global field, the same for every candidate: read once, before the loop
    # (`BlockGenerator.hoisted`), with the machine; the others read fields only (a list's length, a function
    # inlined, comparisons whose uncommon case asks the machine: asked of None, a miss)
    assert {name for name, plan in plans.items() if plan.data is not None} == {"Follow", "Pick", "Call", "Unlink"}
    assert plans["Mark"].data is None


@pytest.mark.parametrize("seed", range(6))
def test_filters_list_and_fail_as_run_their_own_way(tmp_path, monkeypatch, seed):
    path = _game(tmp_path, FILTERS)
    fields = _walk(load_game(path), seed)
    own = _walk(reference(path), seed)
    assert fields == own
    assert len(fields[1]) > 6  # past Mark and Follow at least


def test_a_null_on_the_way_is_run_again_its_own_way(tmp_path, monkeypatch):
    """After `Unlink`, a token's `Next` is null: `Follow`'s test raises on the fields, and its own
    way raises the runtime's error for it (the listing fails alike both ways)."""
    path = _game(tmp_path, FILTERS)
    on, off = load_game(path), reference(path)
    walked = [_walk(on, seed, 80) for seed in range(12)]
    assert any(w[0] == "error" and "of null" in w[3] for w in walked), walked
    assert any(w[0] == "ok" or len(w[1]) > 8 for w in walked), walked
    assert walked == [_walk(off, seed, 80) for seed in range(12)]


def test_a_listing_of_fields_only_takes_no_machine(monkeypatch):
    g = load_game(EXAMPLES / "tris.tgpl")
    state = g.initial_state(0)
    state.legal_moves()
    made = []
    real = Machine.__init__
    monkeypatch.setattr(Machine, "__init__", lambda self, *a, **k: (made.append(self), real(self, *a, **k))[1])
    state = state.apply(state.legal_moves()[4])
    assert len(made) == 1  # the move's own
    moves = state.legal_moves()
    assert len(moves) == 8 and len(made) == 1


@pytest.mark.parametrize("src", [HANDS, DISCARDS])
def test_plans_games_list_alike(tmp_path, monkeypatch, src):
    path = _game(tmp_path, src)
    assert [_walk(load_game(path), s) for s in range(4)] == \
        [_walk(reference(path), s) for s in range(4)]
