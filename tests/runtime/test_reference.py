"""The default runtime, every fast path on, plays every example as the plain reference does
(`RuntimeOptions.reference()`: every block through the compiler's closures): the same moves listed,
logs, keys and rankings along random playouts, the same records of `tgpl play`, and the same with the
memo of pure functions and fixed expressions full from the start (`RuntimeOptions.memo_budget`)."""

from __future__ import annotations

from dataclasses import FrozenInstanceError

import pytest

from tgpl.runtime import RuntimeOptions, load_game
from tgpl.play.agents import RandomAgent
from tgpl.play.play import play

from observed import EXAMPLE_PLAYS, EXAMPLES, assert_examples_play_alike, reference

RECORDED = ["tris.tgpl", "connect4.tgpl", "cards.tgpl", "treasure.tgpl", "graph.tgpl", "hex.tgpl"]


@pytest.mark.parametrize("name, seeds, limit", EXAMPLE_PLAYS)
def test_examples_play_as_the_reference(name, seeds, limit):
    assert_examples_play_alike(reference, name, seeds, limit)


@pytest.mark.parametrize("name", RECORDED)
def test_records_are_those_of_the_reference(name):
    path = EXAMPLES / name
    records = []
    for options in (RuntimeOptions(), RuntimeOptions.reference()):
        game = load_game(path, options=options)
        agents = [RandomAgent(3, p) for p in range(game.players)]
        outcome = play(game, agents, 3, str(path), max_moves=300)
        records.append(outcome.record.to_json())
    assert records[0] == records[1]
    assert '"moves"' in records[0]


@pytest.mark.parametrize("budget", [0, 1, 5])
@pytest.mark.parametrize("name", ["tris.tgpl", "connect4.tgpl", "chess/chess.tgpl"])
def test_a_memo_soon_full_plays_as_the_reference(name, budget):
    small = RuntimeOptions(memo_budget=budget)
    assert_examples_play_alike(lambda path, players: load_game(path, players, small), name, range(2), 40)


def test_the_options_are_one_frozen_value_kept_by_the_compiled_game():
    game = load_game(EXAMPLES / "tris.tgpl", options=RuntimeOptions(memo_budget=7))
    assert game.compiled.options == RuntimeOptions(memo_budget=7)
    assert load_game(EXAMPLES / "tris.tgpl").compiled.options == RuntimeOptions()
    with pytest.raises(FrozenInstanceError):
        game.compiled.options.generate = False  # type: ignore[misc]
    assert RuntimeOptions.reference().generate is False and RuntimeOptions().generate is True


def test_the_reference_runs_no_generated_code(monkeypatch):
    from tgpl.runtime import codegen

    made = []
    monkeypatch.setattr(codegen.BlockGenerator, "generate", lambda self, block: made.append(block))
    reference(EXAMPLES / "tris.tgpl").initial_state(0).legal_moves()
    assert made == []
