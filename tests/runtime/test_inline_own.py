"""A field's first write in a move copies the object's dict (`World.own_fields`, called by the
generated code): games play, fail and keep the states on the way as the plain reference does."""

from __future__ import annotations

import textwrap

import pytest

from tgpl.runtime import load_game
from tgpl.runtime.rng import Pcg32

from observed import EXAMPLES, outcome, reference
from test_inline_sets import PLAYS, SETS


def _fields(state) -> dict:
    """Every object's fields as they are now, by name (lists and tables copied)."""
    world = state.world
    return {o.name: repr(sorted(world.fields(o).items(), key=lambda kv: kv[0])) for o in world.objects}


@pytest.mark.parametrize("moves", PLAYS)
def test_sets_play_and_fail_as_copied_by_the_call(tmp_path, monkeypatch, moves):
    path = tmp_path / "game.tgpl"
    path.write_text(textwrap.dedent(SETS), encoding="utf-8")
    inline = load_game(path)
    call = reference(path)
    assert outcome(inline, moves, str(path)) == outcome(call, moves, str(path))


@pytest.mark.parametrize("name", ["tris.tgpl", "connect4.tgpl", "chess/chess.tgpl"])
@pytest.mark.parametrize("inline", [True, False])
def test_states_on_the_way_stay_as_they_were(monkeypatch, name, inline):
    """A move's writes go to its own copies of the objects' dicts: every state of a playout, and the
    states its siblings were played from, show afterwards what they showed when reached."""
    g = reference(EXAMPLES / name)
    rng = Pcg32(3)
    state, seen = g.initial_state(0), []
    for _ in range(40):
        if state.is_terminal:
            break
        seen.append((state, _fields(state)))
        moves = state.legal_moves()
        for sibling in moves[:3]:  # played and dropped: nothing of theirs may reach `state`
            state.apply(sibling)
        state = state.apply(moves[rng.below(len(moves))])
    assert all(_fields(s) == before for s, before in seen)


@pytest.mark.parametrize("name", ["tris.tgpl", "connect4.tgpl"])
def test_digests_made_from_inherited_ones_are_the_defined_ones(name):
    """Verify's digest of a state after a move makes again those of the objects the move wrote
    (`World.written`): an object a generated write copied must be told as `own_fields` tells it."""
    from test_verify_keys import _walk_digests
    from tgpl.verify.runtime_machine import RuntimeMachine
    machine = RuntimeMachine(load_game(EXAMPLES / name))
    assert sum(_walk_digests(machine, seed, 40) for seed in range(2)) > 0
