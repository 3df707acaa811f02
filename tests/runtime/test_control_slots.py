"""A world's copy makes its control by setting its slots (`values.CONTROL_SLOTS`): games play as with the
control made by `Control.__init__`, and a copy's control is its own."""

from __future__ import annotations

import pytest

from tgpl.runtime import load_game, values
from tgpl.runtime.rng import Pcg32

from observed import EXAMPLE_PLAYS, EXAMPLES, playout


@pytest.mark.parametrize("name, seeds, limit", EXAMPLE_PLAYS)
def test_examples_play_alike_with_the_control_made_by_init(monkeypatch, name, seeds, limit):
    # the switch is read as worlds are copied: the same game played with it on, then off
    players = 4 if name.startswith("citadels") else None
    game = load_game(EXAMPLES / name, players)
    slots = [playout(game.initial_state(s), s, limit) for s in seeds]
    monkeypatch.setattr(values, "CONTROL_SLOTS", False)
    assert [playout(game.initial_state(s), s, limit) for s in seeds] == slots


@pytest.mark.parametrize("on", [True, False])
@pytest.mark.parametrize("name", ["tris.tgpl", "connect4.tgpl", "draughts.tgpl"])
def test_a_copy_has_its_own_control(monkeypatch, on, name):
    """Every state of a playout shows the same control after its successors were played."""
    monkeypatch.setattr(values, "CONTROL_SLOTS", on)
    game = load_game(EXAMPLES / name)
    state, rng, seen = game.initial_state(0), Pcg32(5), []
    for _ in range(30):
        if state.is_terminal:
            break
        c = state.world.control
        seen.append((c, (c.player, c.turn, c.phase)))
        moves = state.legal_moves()
        for sibling in moves[:3]:
            state.apply(sibling)
        state = state.apply(moves[rng.below(len(moves))])
        assert state.world.control is not c and state.world.control.__class__ is values.Control
    assert len(seen) > 5 and all((c.player, c.turn, c.phase) == before for c, before in seen)
