"""A move played through its action's plain spelling is found once per index of objects by name
(`game._plain_play`): its object, action and locals looked up by the move in worlds that share the
index. Games play as when every move is found anew (a `Game.played` that remembers nothing)."""

from __future__ import annotations

import pytest

from tgpl.runtime import load_game

from observed import EXAMPLE_PLAYS, EXAMPLES, assert_examples_play_alike


@pytest.mark.parametrize("name,seeds,limit", EXAMPLE_PLAYS)
def test_examples_play_alike(monkeypatch, name, seeds, limit):
    # the slow game's table of moves played is kept empty: every move is found again
    def slow(path, players=None):
        g = load_game(path, players)
        g.played = _Forgetful()
        return g

    assert_examples_play_alike(slow, name, seeds, limit)


class _Forgetful(dict):
    """A `Game.played` that remembers nothing: every move is found anew."""

    def __setitem__(self, key, value) -> None:
        pass


def test_tris_moves_are_found_once():
    g = load_game(EXAMPLES / "tris.tgpl")
    start = g.initial_state(0)
    state = start
    while not state.is_terminal:
        state = state.apply(state.legal_moves()[0])
    played = dict(g.played)
    again = start
    while not again.is_terminal:
        again = again.apply(again.legal_moves()[0])
    assert played and g.played == played  # the second play found each move as the first did
    assert again.key() == state.key()


def test_a_new_index_finds_moves_anew():
    """A world whose objects differ has another index: a move remembered with one is found again."""
    g = load_game(EXAMPLES / "tris.tgpl")
    start = g.initial_state(0)
    move = start.legal_moves()[0]
    first = start.apply(move)
    entry = g.played[id(move)]
    start.world._by_name = None  # as when an object is created or dropped
    second = start.apply(move)
    assert g.played[id(move)][1] is not entry[1]
    assert second.key() == first.key()
