"""`State.apply` plays a move found before (`Game.played`) itself, without `_play`'s layers
(`Machine.play_plain`): games play the same the first time (found by `_play`), again (found by
`apply`) and as the plain reference, and a settled state's fields other than its game and world are
their defaults."""

from __future__ import annotations

import dataclasses

import pytest

from tgpl.runtime import game as game_module, load_game

from observed import EXAMPLES, EXAMPLE_PLAYS, playout, reference


@pytest.mark.parametrize("name,seeds,limit", EXAMPLE_PLAYS)
def test_examples_play_alike_through_play(name, seeds, limit):
    players = 4 if name.startswith("citadels") else None
    g = load_game(EXAMPLES / name, players)
    plain = reference(EXAMPLES / name, players)
    for seed in seeds:
        first = playout(g.initial_state(seed), seed, limit)
        again = playout(g.initial_state(seed), seed, limit)  # every move known by now
        assert first == again == playout(plain.initial_state(seed), seed, limit)


def test_known_moves_skip_play(monkeypatch):
    g = load_game(EXAMPLES / "tris.tgpl")
    start = g.initial_state(0)
    played = []
    play = game_module._play
    monkeypatch.setattr(game_module, "_play", lambda *args: (played.append(args[3]), play(*args))[1])
    first = [start]
    while not first[-1].is_terminal:
        first.append(first[-1].apply(first[-1].legal_moves()[0]))
    assert len(played) == len(first) - 1  # found by `_play` the first time
    again = [start]
    while not again[-1].is_terminal:
        again.append(again[-1].apply(again[-1].legal_moves()[0]))
    assert len(played) == len(first) - 1  # not again
    assert [s.key() for s in again] == [s.key() for s in first]


def test_a_settled_state_has_its_fields_defaults():
    g = load_game(EXAMPLES / "tris.tgpl")
    state = g.initial_state(0)
    state = state.apply(state.legal_moves()[0])
    for f in dataclasses.fields(state):
        if f.name not in ("game", "world"):
            assert getattr(state, f.name) == f.default
    assert dataclasses.replace(state).world is state.world
