"""Counters written together by one merged path are searched together (issue 34, Pente's `Stones`).

tests/data/lowering/captures4.tgpl is Pente's counting on a 4x4 board: a move adds one to
`Game.Stones`, and each pair it captures takes two from it and adds one to the mover's
`Pairs` (two pairs win). The captures of a move are merged into one symbolic path, whose
writes of `Stones` and `Pairs` are values by cases: fewer stones exactly where more pairs.
The range search (`segments.joint_ranges`) admitted each counter's values on its own, so
it saw a move take stones away while the pairs stayed put, and `Stones` fell without
bound: "Game.Stones takes more than 256 values". Judged together (`segments.Together`),
every capture raises a `Pairs` that ends the game at 2, and `Stones` is bounded.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import tgpl.lowering.segments as segments
from tgpl.lowering.lower import NotLowerable, game_logic
from tgpl.runtime.game import load_game
from tgpl.runtime.snapshot import snapshot

GAME = Path(__file__).resolve().parents[1] / "data" / "lowering" / "captures4.tgpl"


def logic_of(path: Path):
    game = load_game(str(path))
    return game_logic(game.program, snapshot(game.initial_state(0)))


def test_a_capture_writes_stones_and_pairs_by_cases_on_one_path():
    logic = logic_of(GAME)
    merged = [p for st in logic.states.values() for p in st.paths
              if all(isinstance(p.store.get(k), (segments.Choice, segments.Partial))
                     for k in (("Game", "Stones"), ("Seat#0", "Pairs")))]
    assert merged, "the game no longer merges captures: it no longer tests the joint admission"


def test_stones_is_bounded_by_the_pairs_that_end_the_game():
    logic = logic_of(GAME)
    stones = logic.fluents[("Game", "Stones")].domain
    pairs = [logic.fluents[(s, "Pairs")].domain for s in ("Seat#0", "Seat#1")]
    # every value a play can reach (0..16 stones, 0..4 pairs as the last move may take 3) is in range
    assert set(range(17)) <= set(stones) and max(stones) == 16
    assert min(stones) >= -16 and len(stones) <= 40
    assert pairs == [[0.0, 1.0, 2.0, 3.0, 4.0]] * 2


def test_judged_apart_the_stones_run_past_every_bound(monkeypatch):
    """The same search with each counter admitted on its own is refused as before the fix."""
    monkeypatch.setattr(segments.Together, "combos",
                        lambda self, pcs, writes, options, *args: list(itertools.product(*options)))
    with pytest.raises(NotLowerable, match="Game.Stones takes more than 256 values"):
        logic_of(GAME)
