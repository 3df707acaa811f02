"""A listing plan's filter keeps each candidate in a Python local only (`listing.LOCAL_ONLY`: `_all_plan`,
not `_all_opt`, which also stores it in the list of locals): the same moves listed, and the same plays, as
with the filter `Machine.candidates` runs."""

from __future__ import annotations

import pytest

from tgpl.runtime import listing, load_game

from observed import EXAMPLE_PLAYS, EXAMPLES, playout


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
    monkeypatch.setattr(listing, "LOCAL_ONLY", False)  # read when the plan is found, at the first listing
    kept = _plan_of(load_game(EXAMPLES / game), action)
    assert kept.every.__name__ == "_all_opt"


@pytest.mark.parametrize("name, seeds, limit", EXAMPLE_PLAYS)
def test_examples_play_alike_with_the_candidate_stored(monkeypatch, name, seeds, limit):
    players = 4 if name.startswith("citadels") else None

    def playouts():
        g = load_game(EXAMPLES / name, players)
        return [playout(g.initial_state(seed), seed, limit) for seed in seeds]

    local = playouts()
    monkeypatch.setattr(listing, "LOCAL_ONLY", False)
    assert local == playouts()
