"""examples/reversi.tgpl: Reversi on 8 x 8, written as a designer would, against an independent model.

The model (tests/examples/reversi_model.py) is plain Python written from the rules in the game's header
(flanking in eight directions, every flanked line turned over, a player with no move passes, the game
ends when neither can move, more discs wins). Along random plays it must agree with the runtime on every
legal move, every position, every pass and the outcome; and perft from the start is Reversi's known 4,
12, 56, 244."""

from __future__ import annotations

import random
import re

import pytest

from example_harness import assert_check_clean, assert_sane_end, load, play_random, texts
from reversi_model import legal, place, start

NAME = "reversi"
PLACE = re.compile(r"Seat#\d+\.Place\(target: Grid\[(\d)\]\[(\d)\]\)")


def position(state) -> dict:
    world = state.world
    out = {}
    for o in world.objects:
        if o.cls.name in ("E", "B", "W"):
            disc = world.fields(o)["Disc"]
            if disc is not None:
                x, y = (int(k) for k in re.fullmatch(r"Grid\[(\d)\]\[(\d)\]", o.name).groups())
                out[(x, y)] = int(disc)
    return out


def moves(state) -> dict:
    """The runtime's legal moves: a square -> its text, or "pass"."""
    out = {}
    for text in texts(state):
        m = PLACE.fullmatch(text)
        out[(int(m.group(1)), int(m.group(2))) if m else "pass"] = text
    return out


def _compare_play(seed: int) -> tuple[int, int]:
    """A random play, runtime and model side by side: (moves played, passes seen)."""
    state = load(NAME).initial_state(0)
    rng = random.Random(seed)
    board, who, passes = start(), 0, 0
    for n in range(200):
        assert position(state) == board, f"move {n}"
        if not legal(board, 0) and not legal(board, 1):
            assert state.is_terminal
            black, white = sum(v == 0 for v in board.values()), sum(v == 1 for v in board.values())
            assert state.goals == ([100, 0] if black > white else [0, 100] if white > black else [50, 50])
            return n, passes
        assert not state.is_terminal and state.active_player == who
        runtime = moves(state)
        expected = legal(board, who)
        assert set(runtime) == (expected or {"pass"}), f"move {n}"
        choice = rng.choice(sorted(runtime, key=str))
        state = state.apply(runtime[choice])
        if choice == "pass":
            passes += 1
        else:
            board = place(board, choice, who)
        who = 1 - who
    raise AssertionError("the play did not end")


def test_check_is_clean():
    assert_check_clean(NAME)


@pytest.mark.parametrize("seed", range(8))
def test_random_plays_agree_with_the_model(seed):
    played, _ = _compare_play(seed)
    assert played > 50


def test_perft_from_the_start():
    """Reversi's perft: 4, 12, 56, 244 positions after one to four moves."""
    layer = [load(NAME).initial_state(0)]
    counts = []
    for _ in range(4):
        layer = [s.apply(t) for s in layer for t in texts(s)]
        counts.append(len(layer))
    assert counts == [4, 12, 56, 244]


def test_random_games_end():
    assert_sane_end(play_random(NAME, 1).state)
