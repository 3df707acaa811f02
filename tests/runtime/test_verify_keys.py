"""Verify's digest of a state (`tgpl.runtime.verify.RuntimeMachine.key`), with its parts digested
once and the rest of a key marshalled once per value, is the digest of the state's key as its
docstring defines it: over the number of objects, each object's part digested, and the rest."""

from __future__ import annotations

from hashlib import blake2b
from marshal import dumps
from pathlib import Path

import pytest

from tgpl.runtime import load_game
from tgpl.runtime.rng import Pcg32
from tgpl.runtime.verify import RuntimeMachine

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
