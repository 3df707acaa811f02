"""A listing plan's filter keeps each candidate in a Python local only (`_all_plan`,
not `_all_opt`, which also stores it in the list of locals)."""

from __future__ import annotations

import pytest

from tgpl.runtime import listing, load_game

from observed import EXAMPLES


def _plan_of(g, name: str):
    state = g.initial_state(0)
    state.legal_moves()
    for obj in state.world.actors():
        for ra in obj.cls.choice_actions():
            if ra.name == name:
                return listing.quick(g.compiled, ra, g.choice_event_cls)
    raise AssertionError(name)


@pytest.mark.parametrize("game, action", [("tris.tgpl", "Tick"), ("connect4.tgpl", "Drop")])
def test_plans_loop_over_a_local(monkeypatch, game, action):
    plan = _plan_of(load_game(EXAMPLES / game), action)
    assert plan.every.__name__ == "_all_plan"
