"""The games the batched engine's tests share, built once per session: lowering Connect Four takes seconds."""

from __future__ import annotations

from pathlib import Path

import pytest

import tgpl.batched as batched
from tgpl.asp.reasoner import GdlGame

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GAMES = {
    "tris.tgpl": EXAMPLES / "tris.tgpl",
    "connect4.tgpl": EXAMPLES / "connect4.tgpl",
    "tictactoe.kif": EXAMPLES / "gdl" / "tictactoe.kif",
    "connect4.kif": EXAMPLES / "gdl" / "connect4.kif",
    "reversi.kif": EXAMPLES / "gdl" / "reversi.kif",
}
_built: dict[str, tuple] = {}


def env_and_reasoner(name: str) -> tuple[batched.BatchedEnv, GdlGame]:
    """The batched environment of a game and the reasoner on the same GDL program."""
    if name not in _built:
        program = batched.gdl_program(GAMES[name])
        _built[name] = (batched.from_program(program, path=name), GdlGame(program, mode="once"))
    return _built[name]


@pytest.fixture
def tris_env() -> batched.BatchedEnv:
    return env_and_reasoner("tris.tgpl")[0]
