"""Verify's digest of a state (`tgpl.verify.runtime_machine.RuntimeMachine.key`), with its parts digested
once and the rest of a key marshalled once per value, is the digest of the state's key as its
docstring defines it: over the number of objects, each object's part digested, and the rest."""

from __future__ import annotations

from hashlib import blake2b
from marshal import dumps
from pathlib import Path

import pytest

from tgpl.runtime import load_game
from tgpl.runtime.rng import Pcg32
from tgpl.verify.runtime_machine import RuntimeMachine

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _defined(state) -> bytes:
    objects, rest = state.key_parts()
    digests = b"".join(blake2b(dumps(part, 2), digest_size=16).digest() for part in objects)
    return blake2b(len(objects).to_bytes(4, "little") + digests + dumps(rest, 2), digest_size=16).digest()


def test_every_tris_state_has_the_defined_digest():
    machine = RuntimeMachine(load_game(EXAMPLES / "tris.tgpl"))
    states, seen, terminal = [machine.initial()], set(), 0
    while states:
        state = states.pop()
        key = machine.key(state)
        assert key == _defined(state) == machine.key(state)  # and again, from what it remembered
        if key in seen:
            continue
        seen.add(key)
        terminal += state.is_terminal
        states.extend(state.apply(m) for m in state.legal_moves())
    assert len(seen) == 5478 and terminal == 958


@pytest.mark.parametrize("seed", range(3))
def test_states_waiting_for_a_choice_have_the_defined_digest(seed):
    machine = RuntimeMachine(load_game(EXAMPLES / "citadels" / "citadels.tgpl", 4))
    state, rng, pending = machine.initial(), Pcg32(seed), 0
    for _ in range(80):
        assert machine.key(state) == _defined(state)
        if state.is_terminal or not state.legal_moves():
            break
        moves = state.legal_moves()
        state = state.apply(moves[rng.below(len(moves))])
        pending += state.request is not None
    assert pending


# ------------------------------------------------------------- inherited digests
# A state's digests of its objects' parts are those of the state its world was copied from, but for
# the objects it owns or wrote (`World.inherited`): the digest is the defined one as objects are
# made, dropped, change hands, and as worlds are copied at the entry of phases with inputs.
def _walk_digests(machine, seed: int, limit: int) -> int:
    """A random playout checking, in every state, each successor's digest against its definition;
    the number of digests made from inherited ones."""
    rng, state, inherited = Pcg32(seed), machine.initial(), 0
    for _ in range(limit):
        if state.is_terminal or not state.legal_moves():
            break
        moves = state.legal_moves()
        assert machine.key(state) == _defined(state)
        for move in moves[:8]:
            nxt = state.apply(move)
            w = nxt.world
            inherited += w.inherited is not None and w.inherited[0] == w.objects
            assert machine.key(nxt) == _defined(nxt)
        state = state.apply(moves[rng.below(len(moves))])
    return inherited


@pytest.mark.parametrize("name, players", [("cards.tgpl", None), ("treasure.tgpl", None), ("connect4.tgpl", None),
                                           ("citadels/citadels.tgpl", 4), ("graph.tgpl", None)])
def test_digests_made_from_inherited_ones_are_the_defined_ones(name, players):
    machine = RuntimeMachine(load_game(EXAMPLES / name, players))
    assert sum(_walk_digests(machine, seed, 40) for seed in range(2)) > 0


def test_a_planted_forgotten_change_is_seen(monkeypatch):
    """Digests that take only the owned objects as changed (not those written) are not the defined ones."""
    from tgpl.runtime import values

    game = load_game(EXAMPLES / "tris.tgpl")
    machine = RuntimeMachine(game)
    copy = values.World.copy

    def forgetful(self):
        new = copy(self)
        new.written = _Forgetful()
        return new

    monkeypatch.setattr(values.World, "copy", forgetful)
    with pytest.raises(AssertionError):
        _walk_digests(machine, 0, 10)


class _Forgetful(set):
    """A set of written objects that iterates as empty (and still tells membership)."""

    def __iter__(self):
        return iter(())


# ------------------------------------------------------------- parts assembled
# A part's bytes are assembled from its values' encodings (`verify._Parts`): the bytes of the part
# frozen and marshalled, whatever the values, and the digests as when every part is frozen first.
def test_assembled_parts_are_the_parts_marshalled():
    from tgpl.runtime.game import _frozen_object
    from tgpl.verify.runtime_machine import _Parts

    game = load_game(EXAMPLES / "tris.tgpl")
    world = game.initial_state(0).world.copy()
    parts = _Parts()
    odd = [-0.0, 0.0, 1.0, 1, True, False, None, "x", "é", 2.5, float("inf"), [1.0, -0.0, None], {"k": [True, 1]},
           world.objects[0], [world.objects[1], "y"]]
    obj = world.objects[3]
    for i, v in enumerate(odd):
        for owners in ((), (0,), (1, 0)):
            fields = world.own(obj)
            fields["AssignedTo"] = v
            fields[f"extra{i % 3}"] = odd[(i * 7) % len(odd)]
            world.owners[obj] = owners
            world.frozen.pop(obj, None)
            for _ in range(2):  # and again, from the encodings kept
                assert parts(world, obj) == dumps(_frozen_object(world, obj)[0], 2)


@pytest.mark.parametrize("name, players", [("tris.tgpl", None), ("citadels/citadels.tgpl", 4), ("cards.tgpl", None)])
def test_assembled_digests_are_those_of_parts_frozen_first(name, players):
    """A key made from the digests its world inherited, the changed objects' parts assembled from
    their encodings (`_Parts`), is the key made from every object's part frozen first."""

    def walk(inherit: bool) -> list:
        machine = RuntimeMachine(load_game(EXAMPLES / name, players))

        def key(state):
            if not inherit:
                state.world.inherited = None  # every part frozen and digested anew
            return machine.key(state)

        rng, state, keys = Pcg32(3), machine.initial(), []
        for _ in range(30):
            if state.is_terminal or not state.legal_moves():
                break
            moves = state.legal_moves()
            keys.append([key(state.apply(m)) for m in moves[:6]])
            state = state.apply(moves[rng.below(len(moves))])
            keys.append(key(state))
        return keys

    assert walk(True) == walk(False)
