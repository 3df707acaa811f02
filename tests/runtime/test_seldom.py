"""A world keeps its generator, log, name counters and next object serial in one `Seldom`, shared by its
copies until one of them creates an object, draws or logs (`World.unshare`): games that do play as the
plain reference does, the objects they make get the same names and serials, and a state shows the same
whatever is played from it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tgpl.runtime import load_game
from tgpl.runtime.rng import Pcg32

from observed import playout, reference

ROOT = Path(__file__).resolve().parents[2]
# games that draw random numbers, log, create objects or assign owners as they are played
GAMES = [("examples/cards.tgpl", None), ("examples/treasure.tgpl", None), ("tests/data/dice.tgpl", None),
         ("examples/graph.tgpl", None), ("examples/citadels/citadels.tgpl", 4), ("tests/data/eights.tgpl", None)]


def _made(state) -> tuple:
    """What a state's world holds of its `Seldom`, and the names and serials of its objects."""
    w = state.world
    return (tuple(w.log), w.rng.key(), dict(w.counters), w.serials, [(o.name, o.serial) for o in w.objects])


def _walk(game, seed: int, limit: int) -> list:
    """A random playout in which, before each move, the first legal moves are played from the state,
    which must show the same before and after; what each state on the way holds (`_made`)."""
    rng = Pcg32(seed)
    state = game.initial_state(seed)
    seen = []
    for _ in range(limit):
        if state.is_terminal:
            break
        moves = state.legal_moves()
        if not moves:
            break
        before = _made(state)
        for move in moves[:8]:
            state.apply(move)
        assert _made(state) == before
        seen.append((before, playout(state, seed, 3)))
        state = state.apply(moves[rng.below(len(moves))])
    return seen


def test_a_copy_shares_them_until_it_changes_one():
    g = load_game(ROOT / "tests/data/dice.tgpl")
    world = g.initial_state(0).world
    copy = world.copy()
    assert copy.seldom is world.seldom
    copy.random().next_u32()
    assert copy.seldom is not world.seldom and copy.rng.key() != world.rng.key()
    assert copy.log == world.log and copy.log is not world.log and copy.serials == world.serials


@pytest.mark.parametrize("name, players", GAMES)
def test_games_play_as_the_reference(name, players):
    shared = [_walk(load_game(ROOT / name, players), seed, 40) for seed in range(2)]
    assert shared == [_walk(reference(ROOT / name, players), seed, 40) for seed in range(2)]
    assert any(shared)
