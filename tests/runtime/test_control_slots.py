"""A world's copy makes its control by setting its slots (`World.copy`), not by `Control.__init__`: a
copy's control is its own."""

from __future__ import annotations

import pytest

from tgpl.runtime import load_game, values
from tgpl.runtime.rng import Pcg32

from observed import EXAMPLES


@pytest.mark.parametrize("name", ["tris.tgpl", "connect4.tgpl", "draughts.tgpl"])
def test_a_copy_has_its_own_control(name):
    """Every state of a playout shows the same control after its successors were played."""
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
