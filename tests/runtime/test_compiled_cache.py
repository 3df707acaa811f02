"""The code objects of generated functions kept by their source: a game
loaded again runs the same code in a namespace of its own, the options it was loaded with
(`RuntimeOptions`) are part of what the code is kept by, the cache stays within its bound, and games
play as when every function is compiled anew."""

from __future__ import annotations

import pytest

from tgpl.runtime import RuntimeOptions, codegen, load_game

from observed import EXAMPLE_PLAYS, EXAMPLES, assert_examples_play_alike

TRIS = EXAMPLES / "tris.tgpl"


ANEW = RuntimeOptions(code_cache=0)


def _functions(monkeypatch, options: RuntimeOptions = RuntimeOptions()) -> list:
    """The functions Tris's load with `options` compiled (`BlockGenerator._compile`), in order."""
    made: list = []
    compile_ = codegen.BlockGenerator._compile
    with monkeypatch.context() as mp:
        mp.setattr(codegen.BlockGenerator, "_compile",
                   lambda self, *a, **k: made.append(compile_(self, *a, **k)) or made[-1])
        load_game(TRIS, options=options)
    return made


def test_a_game_loaded_again_runs_the_same_code_in_its_own_namespace(monkeypatch):
    first, again = _functions(monkeypatch), _functions(monkeypatch)
    assert len(first) == len(again) > 10
    assert all(a.__code__ is b.__code__ for a, b in zip(first, again))
    assert all(a is not b and a.__globals__ is not b.__globals__ for a, b in zip(first, again))


def test_without_the_cache_each_load_compiles_anew(monkeypatch):
    first = _functions(monkeypatch, ANEW)
    again = _functions(monkeypatch, ANEW)
    assert [f.__code__.co_code for f in first] == [f.__code__.co_code for f in again]
    assert not any(a.__code__ is b.__code__ for a, b in zip(first, again))


def test_the_options_are_part_of_the_key(monkeypatch):
    """Loaded with other options, the game's functions are compiled anew, not taken from the code kept
    for the default: what code the options make is theirs alone."""
    default = _functions(monkeypatch)
    other = _functions(monkeypatch, options=RuntimeOptions(memo_budget=5))
    assert [f.__code__.co_code for f in default] == [f.__code__.co_code for f in other]
    assert not any(a.__code__ is b.__code__ for a, b in zip(default, other))
    assert all(a.__code__ is b.__code__ for a, b in zip(other, _functions(monkeypatch, options=RuntimeOptions(memo_budget=5))))


def test_the_cache_stays_within_its_bound(monkeypatch):
    monkeypatch.setattr(codegen, "_COMPILED", {})
    for _ in range(2):
        load_game(TRIS, options=RuntimeOptions(code_cache=3))
        assert 0 < len(codegen._COMPILED) <= 3


@pytest.mark.parametrize("name, seeds, limit", EXAMPLE_PLAYS)
def test_examples_play_alike_compiled_anew(monkeypatch, name, seeds, limit):
    def anew(path, players):
        return load_game(path, players, options=ANEW)

    assert_examples_play_alike(anew, name, seeds, limit)
