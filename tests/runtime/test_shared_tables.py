"""A world copy shares the tables a move seldom changes (objects' list, owners, globals, the
generator, the log, name counters) until one of the two worlds changes one (`World.unshare`).
Games play as with every table copied at once, and a state stays as it was whatever is played
from it, or from the world it was copied from."""

from __future__ import annotations

from pathlib import Path

import pytest

from tgpl.runtime import load_game
from tgpl.runtime.rng import Pcg32
from tgpl.runtime.values import World

from observed import playout

ROOT = Path(__file__).resolve().parents[2]
# games that draw random numbers, log, create objects or assign owners as they are played
GAMES = [("examples/cards.tgpl", None), ("examples/treasure.tgpl", None), ("tests/data/dice.tgpl", None),
         ("examples/graph.tgpl", None), ("examples/citadels/citadels.tgpl", 4), ("tests/data/eights.tgpl", None)]

_lazy_copy = World.copy


def _eager_copy(self: World) -> World:
    """The copy as it was: every table copied at once (the shared ones copied at once)."""
    new = _lazy_copy(self)
    self.unshare()
    new.unshare()
    return new


def _seen(state) -> tuple:
    """All a state shows of its world's shared tables, as values."""
    w = state.world
    return (state.key(), tuple(w.log), w.rng.key(), [o.name for o in w.objects],
            {o.name: w.owners_of(o) for o in w.objects}, dict(w.counters), sorted(w.globals), state.to_json())


def _walk(game, seed: int, limit: int) -> int:
    """A random playout in which, before each move, every legal move is played from the state, and
    the state must show the same before and after. Returns the number of states checked."""
    rng = Pcg32(seed)
    state = game.initial_state(seed)
    checked = 0
    for _ in range(limit):
        if state.is_terminal:
            break
        moves = state.legal_moves()
        if not moves:
            break
        before = _seen(state)
        for move in moves[:12]:
            after = state.apply(move)
            after.legal_moves()
        assert _seen(state) == before
        checked += 1
        state = state.apply(moves[rng.below(len(moves))])
    return checked


@pytest.mark.parametrize("name, players", GAMES)
def test_games_play_as_with_every_table_copied(monkeypatch, name, players):
    lazy = load_game(ROOT / name, players)
    expected = {}
    with monkeypatch.context() as mp:
        mp.setattr(World, "copy", _eager_copy)
        for seed in range(3):
            expected[seed] = playout(lazy.initial_state(seed), seed, 150)
    for seed in range(3):
        assert playout(lazy.initial_state(seed), seed, 150) == expected[seed]


@pytest.mark.parametrize("name, players", GAMES)
def test_states_stay_as_they_were(name, players):
    game = load_game(ROOT / name, players)
    assert sum(_walk(game, seed, 60) for seed in range(2)) > 0


def _changes(world: World) -> None:
    """A draw, a line of log, an object created and an owner set: every shared table changed."""
    world.random().next_u32()
    if world.shared:
        world.unshare()
    world.log.append("changed")
    obj = world.new_object(world.objects[0].cls)
    world.set_owners(obj, (0,))


@pytest.mark.parametrize("changed", ["copy", "source"])
def test_either_world_changes_its_own_tables(changed):
    game = load_game(ROOT / "examples" / "cards.tgpl")
    source = game.initial_state(1).world
    copy = source.copy()
    assert source.shared and copy.shared and copy.log is source.log and copy.rng is source.rng
    kept = copy if changed == "source" else source
    before = (kept.rng.key(), list(kept.log), list(kept.objects), dict(kept.owners), dict(kept.counters))
    _changes(source if changed == "source" else copy)
    assert (kept.rng.key(), list(kept.log), list(kept.objects), dict(kept.owners), dict(kept.counters)) == before


def test_a_planted_share_is_caught(monkeypatch):
    """`unshare` that copies nothing: the checks above see the copy change its source."""
    monkeypatch.setattr(World, "unshare", lambda self: setattr(self, "shared", False))
    with pytest.raises(AssertionError):
        test_either_world_changes_its_own_tables("copy")
    game = load_game(ROOT / "tests" / "data" / "dice.tgpl")
    with pytest.raises(AssertionError):
        _walk(game, 0, 60)
