"""Shared checks for the example games in examples/: clean check, random play,
deterministic records, replay and tampered replays, plus small state helpers.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from tgpl.cli import main
from tgpl.frontend.loader import load_program
from tgpl.runtime import IllegalMove, State, load_game
from tgpl.play.agents import RandomAgent
from tgpl.play.play import play, replay
from tgpl.play.record import Record
from tgpl.runtime.values import Obj

ROOT = Path(__file__).resolve().parents[2]
SEEDS = [0, 1, 2, 3, 4, 5, 6, 7]


def path_of(name: str) -> str:
    return f"examples/{name}.tgpl"


@lru_cache(maxsize=None)
def load(name: str):
    return load_game(ROOT / path_of(name))


def cli(*args: str, cwd: Path = ROOT):
    import os

    old = os.getcwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(main, list(args))
    finally:
        os.chdir(old)


# ------------------------------------------------------------------ generic checks
def assert_check_clean(name: str) -> None:
    program = load_program(ROOT / path_of(name))
    assert [d.message for d in program.diagnostics] == []
    result = cli("check", path_of(name))
    assert result.exit_code == 0, result.output
    assert result.stdout == f"{path_of(name)}: ok\n"


def play_random(name: str, seed: int):
    game = load(name)
    agents = [RandomAgent(seed, p) for p in range(game.players)]
    return play(game, agents, seed, path_of(name))


def assert_sane_end(state: State, players: int = 2) -> None:
    assert state.is_terminal
    assert state.legal_moves() == []
    ranking = state.ranking
    placed = [p for rank in ranking for p in rank]
    assert ranking and all(ranking)
    assert len(placed) == len(set(placed)) and set(placed) <= set(range(players))
    assert sorted(state.goals) in ([0, 100], [50, 50])
    if len(ranking[0]) == 1:
        assert state.goals[ranking[0][0]] == 100


def assert_same_seed_same_record(name: str, seed: int, tmp_path: Path) -> str:
    first = play_random(name, seed).record.to_json()
    load.cache_clear()
    second = play_random(name, seed).record.to_json()
    assert first == second
    # the command line writes the same bytes
    out = tmp_path / "cli.json"
    result = cli("play", path_of(name), "--players", "random,random", "--seed", str(seed),
                 "--record", str(out), "--quiet")
    assert result.exit_code == 0, result.output
    assert out.read_bytes() == first.encode("utf-8")
    return first


def assert_replays(text: str, tmp_path: Path) -> State:
    record = Record.from_json(text)
    state = replay(load(_name(record)), record)
    assert state.is_terminal
    assert {"ranking": state.ranking, "goals": state.goals} == record.result
    f = tmp_path / "record.json"
    f.write_text(text, encoding="utf-8")
    result = cli("replay", str(f))
    assert result.exit_code == 0, result.output
    assert f"ok, {len(record.moves)} moves" in result.stdout
    return state


def assert_tamper_rejected(text: str, index: int, new_move: str, tmp_path: Path) -> IllegalMove:
    """Replace move `index` (0-based) of a record by `new_move`: replay must refuse it."""
    data = json.loads(text)
    assert data["moves"][index]["move"] != new_move
    data["moves"][index]["move"] = new_move
    record = Record.from_json(json.dumps(data))
    with pytest.raises(IllegalMove) as info:
        replay(load(_name(record)), record)
    assert f"move {index + 1}:" in info.value.reason
    f = tmp_path / "tampered.json"
    f.write_text(json.dumps(data), encoding="utf-8")
    result = cli("replay", str(f))
    assert result.exit_code == 1
    assert "illegal move" in result.stderr
    return info.value


def _name(record: Record) -> str:
    return Path(record.path).stem


# ------------------------------------------------------------------ state helpers
def obj(state: State, name: str) -> Obj:
    for o in state.world.objects:
        if o.name == name:
            return o
    raise KeyError(name)


def field(state: State, name: str, attribute: str):
    return state.world.fields(obj(state, name))[attribute]


def apply_all(state: State, moves: list[str]) -> State:
    for move in moves:
        assert not state.is_terminal, f"the game ended before {move}"
        state = state.apply(move)
    return state


def texts(state: State) -> list[str]:
    return [m.text for m in state.legal_moves()]
