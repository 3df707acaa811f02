"""`State.legal_moves`: the same moves as the reference, in the same order, each call a list of its
own, for states listed by plans, by the general way (no plans), waiting for a choice, and finished."""

from __future__ import annotations

import pytest

from tgpl.runtime import load_game

from observed import EXAMPLES, EXAMPLE_PLAYS, playout, reference


def _listings(g, seed: int, limit: int) -> list:
    """The moves listed along a random playout, each state asked twice (the second from what it kept)."""
    from tgpl.runtime.rng import Pcg32

    rng = Pcg32(seed)
    state, seen = g.initial_state(seed), []
    for _ in range(limit):
        first, again = state.legal_moves(), state.legal_moves()
        assert first == again and first is not again
        seen.append([m.text for m in first])
        if not first:
            break
        state = state.apply(first[rng.below(len(first))])
    return seen


@pytest.mark.parametrize("name, seeds, limit", EXAMPLE_PLAYS)
def test_examples_list_alike_with_the_reference(name, seeds, limit):
    players = 4 if name.startswith("citadels") else None

    def observed(g):
        return [(_listings(g, seed, limit), playout(g.initial_state(seed), seed, limit)) for seed in seeds]

    assert observed(load_game(EXAMPLES / name, players)) == observed(reference(EXAMPLES / name, players))


def test_finished_and_waiting_states_list_as_before():
    g = load_game(EXAMPLES / "tris.tgpl")
    state = g.initial_state(0)
    while not state.is_terminal:
        state = state.apply(state.legal_moves()[0])
    assert state.legal_moves() == []
    eights = load_game(EXAMPLES.parent / "tests" / "data" / "eights.tgpl")
    state = eights.initial_state(0)
    for _ in range(200):  # until a choice waits (an eight played asks for a suit)
        if state.pending or state.is_terminal:
            break
        moves = state.legal_moves()
        eight = [m for m in moves if "8" in m.text]
        state = state.apply((eight or moves)[0])
    assert state.pending and [m.text for m in state.legal_moves()] == [m.text for m in state._legal]
