"""Helpers for the runtime behaviour tests: small TGPL games written inline."""

from __future__ import annotations

import textwrap

import pytest

from tgpl.runtime import GameLoadError, RuntimeOptions, load_game


@pytest.fixture
def game(tmp_path):
    """make(src, players=None, name="game.tgpl", options=RuntimeOptions()) -> Game, failing the test on
    check errors."""

    def make(src: str, players: int | None = None, name: str = "game.tgpl", options: RuntimeOptions = RuntimeOptions()):
        path = tmp_path / name
        path.write_text(textwrap.dedent(src), encoding="utf-8")
        try:
            return load_game(path, players, options)
        except GameLoadError as e:
            pytest.fail("the test game has errors:\n" + e.render())

    return make


@pytest.fixture
def start(game):
    """make(src, seed=0) -> the initial State of the game."""

    def make(src: str, seed: int = 0, players: int | None = None):
        return game(src, players).initial_state(seed)

    return make


@pytest.fixture
def run_setup(start):
    """run(body, defs="", players=2, seed=0) -> the State after a setup made of `body`."""

    def run(body: str, defs: str = "", players: int = 2, seed: int = 0):
        src = (
            f'game "t";\nplayers {players};\n'
            + textwrap.dedent(defs)
            + "\nsetup\n{\n"
            + textwrap.dedent(body)
            + "\n}\n"
        )
        return start(src, seed)

    return run


@pytest.fixture
def setup_log(run_setup):
    """log(body, defs="", players=2, seed=0) -> the game log after a setup made of `body`."""

    def log(body: str, defs: str = "", players: int = 2, seed: int = 0) -> list[str]:
        return run_setup(body, defs, players, seed).log

    return log

