"""The generated Python functions and the closures they stand in for play identical games."""

from __future__ import annotations

from pathlib import Path

import pytest

import tgpl.runtime.compiler as compiler
from tgpl.frontend.loader import load_program
from tgpl.runtime.agents import RandomAgent
from tgpl.runtime.game import Game
from tgpl.runtime.play import play

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GAMES = ["tris.tgpl", "connect4.tgpl", "hex.tgpl", "treasure.tgpl", "graph.tgpl", "cards.tgpl"]


def record_of(name: str, seed: int, generate: bool, monkeypatch) -> str:
    monkeypatch.setattr(compiler, "GENERATE", generate)
    program = load_program(EXAMPLES / name)
    game = Game(program, compiler.compile_program(program))
    agents = [RandomAgent(seed, p) for p in range(game.players)]
    return play(game, agents, seed, name).record.to_json()


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_generated_code_and_closures_agree(name, seed, monkeypatch):
    generated = record_of(name, seed, True, monkeypatch)
    closures = record_of(name, seed, False, monkeypatch)
    assert generated == closures
    assert '"result": {' in generated  # the game really ended


def test_generated_for_loop_runs_post_after_continue(tmp_path):
    src = (
        'game "t"; players 1;\n'
        "setup { number s = 0;\n"
        "  for (number i = 0; i < 5; i += 1) { if (i == 1) { continue; } if (i == 3) { break; } s += i; }\n"
        "  number w = 0; while (w < 3) { w += 1; if (w == 2) { continue; } }\n"
        '  log("s=" + s + " w=" + w); winner 0; }\n'
    )
    path = tmp_path / "g.tgpl"
    path.write_text(src, encoding="utf-8")
    from tgpl.runtime import load_game

    state = load_game(path).initial_state(0)
    assert state.log == ["s=2 w=3"]  # i = 0 and 2 are added; 1 is skipped; 3 breaks
