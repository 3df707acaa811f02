"""The code objects of generated functions kept by their source (`codegen.COMPILED_CACHE`): a game
loaded again runs the same code in a namespace of its own, a switch of what is done to a source
before it is compiled is part of what the code is kept by, the cache stays within its bound, and
games play as when every function is compiled anew."""

from __future__ import annotations

import pytest

from tgpl.runtime import codegen, load_game

from observed import EXAMPLE_PLAYS, EXAMPLES, assert_examples_play_alike, switched

TRIS = EXAMPLES / "tris.tgpl"


def _functions(monkeypatch, *switches) -> list:
    """The functions Tris's load compiled (`BlockGenerator._compile`), in order, with `switches` set."""
    made: list = []
    compile_ = codegen.BlockGenerator._compile
    with monkeypatch.context() as mp:
        for module, name, value in switches:
            mp.setattr(module, name, value)
        mp.setattr(codegen.BlockGenerator, "_compile",
                   lambda self, src, span, name: made.append(compile_(self, src, span, name)) or made[-1])
        load_game(TRIS)
    return made


def test_a_game_loaded_again_runs_the_same_code_in_its_own_namespace(monkeypatch):
    first, again = _functions(monkeypatch), _functions(monkeypatch)
    assert len(first) == len(again) > 10
    assert all(a.__code__ is b.__code__ for a, b in zip(first, again))
    assert all(a is not b and a.__globals__ is not b.__globals__ for a, b in zip(first, again))


def test_without_the_cache_each_load_compiles_anew(monkeypatch):
    first = _functions(monkeypatch, (codegen, "COMPILED_CACHE", 0))
    again = _functions(monkeypatch, (codegen, "COMPILED_CACHE", 0))
    assert [f.__code__.co_code for f in first] == [f.__code__.co_code for f in again]
    assert not any(a.__code__ is b.__code__ for a, b in zip(first, again))


@pytest.mark.parametrize("switch", ["DROP_UNUSED", "DROP_UNREAD", "DEAD_LOADS", "SINK_MEMO_TABLES"])
def test_a_switch_of_the_passes_before_compiling_is_part_of_the_key(monkeypatch, switch):
    """Each switch changes Tris's code; loaded with it off after a load with it on (and the other
    way), the code is the one compiled for the switch as it is, not the one kept for the other."""
    on = [f.__code__.co_code for f in _functions(monkeypatch)]
    off = [f.__code__.co_code for f in _functions(monkeypatch, (codegen, switch, False))]
    assert on != off
    fresh = [f.__code__.co_code for f in _functions(monkeypatch, (codegen, switch, False), (codegen, "COMPILED_CACHE", 0))]
    assert off == fresh
    assert [f.__code__.co_code for f in _functions(monkeypatch)] == on


def test_the_cache_stays_within_its_bound(monkeypatch):
    monkeypatch.setattr(codegen, "_COMPILED", {})
    monkeypatch.setattr(codegen, "COMPILED_CACHE", 3)
    for _ in range(2):
        load_game(TRIS)
        assert 0 < len(codegen._COMPILED) <= 3


@pytest.mark.parametrize("name, seeds, limit", EXAMPLE_PLAYS)
def test_examples_play_alike_compiled_anew(monkeypatch, name, seeds, limit):
    assert_examples_play_alike(switched(monkeypatch, (codegen, "COMPILED_CACHE", 0)), name, seeds, limit)
