"""examples/draughts.tgpl: 6 x 6 draughts with English rules, against an independent model.

The model below is plain Python written from the rules in the game's header
(compulsory capture, chains of jumps by one piece, crowning ends the move, a
player who cannot move loses, 40 quiet moves draw). Along random plays it must
agree with the runtime on every legal move, every position and the outcome.
"""

from __future__ import annotations

import random
import re

import pytest

from example_harness import (
    SEEDS, assert_check_clean, assert_replays, assert_same_seed_same_record, assert_sane_end,
    assert_tamper_rejected, load, play_random, texts,
)

NAME = "draughts"
DIRS = [(1, 1), (-1, 1), (1, -1), (-1, -1)]
MOVE = re.compile(r"Seat#\d+\.Move\(from: Board\[(\d)\]\[(\d)\], to: Board\[(\d)\]\[(\d)\]\)")


# ------------------------------------------------------------------ the model
def _inside(sq) -> bool:
    return 0 <= sq[0] < 6 and 0 <= sq[1] < 6


def _goes(side: int, king: bool, dr: int) -> bool:
    return king or dr == (1 if side == 0 else -1)


def jumps(pos: dict, sq) -> list:
    side, king = pos[sq]
    out = []
    for df, dr in DIRS:
        over, to = (sq[0] + df, sq[1] + dr), (sq[0] + 2 * df, sq[1] + 2 * dr)
        if _goes(side, king, dr) and _inside(to) and over in pos and pos[over][0] != side and to not in pos:
            out.append(to)
    return out


def steps(pos: dict, sq) -> list:
    side, king = pos[sq]
    return [to for df, dr in DIRS
            if _goes(side, king, dr) and _inside(to := (sq[0] + df, sq[1] + dr)) and to not in pos]


def legal(pos: dict, side: int, chain) -> set:
    if chain is not None:
        return {(chain, to) for to in jumps(pos, chain)}
    captures = {(sq, to) for sq in pos if pos[sq][0] == side for to in jumps(pos, sq)}
    return captures or {(sq, to) for sq in pos if pos[sq][0] == side for to in steps(pos, sq)}


def make(pos: dict, frm, to):
    """The position after a move, the square of a piece that must jump on (or None), and whether it was quiet."""
    new = dict(pos)
    side, king = new.pop(frm)
    taken = abs(to[0] - frm[0]) == 2
    if taken:
        del new[((frm[0] + to[0]) // 2, (frm[1] + to[1]) // 2)]
    crowned = not king and to[1] == (5 if side == 0 else 0)
    new[to] = (side, king or crowned)
    chain = to if taken and not crowned and jumps(new, to) else None
    return new, chain, not taken and king


# ------------------------------------------------------------------ the runtime's state, as the model sees it
def position(state) -> dict:
    world = state.world
    pos = {}
    for o in world.objects:
        if o.cls.name not in ("__", "wM", "bM"):
            continue
        f = world.fields(o)
        if f["Side"] is not None:
            pos[(int(f["File"]), int(f["Rank"]))] = (int(f["Side"]), bool(f["King"]))
    return pos


def moves(state) -> dict:
    """The runtime's legal moves as (from, to) squares -> move text."""
    out = {}
    for text in texts(state):
        f0, r0, f1, r1 = (int(x) for x in MOVE.fullmatch(text).groups())
        out[((f0, 5 - r0), (f1, 5 - r1))] = text
    return out


def _compare_play(seed: int) -> tuple[int, bool]:
    """A random play, the runtime and the model side by side; (moves played, whether a chain was seen)."""
    state = load(NAME).initial_state(0)
    rng = random.Random(seed)
    pos, side, chain, quiet, chains = position(state), 0, None, 0, False
    for n in range(400):
        assert position(state) == pos, f"move {n}"
        assert state.world.control.phase == ("JumpPhase" if chain is not None else "MovePhase")
        if state.is_terminal:
            return n, chains
        assert state.active_player == side
        runtime = moves(state)
        assert set(runtime) == legal(pos, side, chain), f"move {n}"
        frm, to = rng.choice(sorted(runtime))
        state = state.apply(runtime[(frm, to)])
        pos, chain, was_quiet = make(pos, frm, to)
        quiet = quiet + 1 if was_quiet else 0
        chains = chains or chain is not None
        if chain is None:
            foe = 1 - side
            if not legal(pos, foe, None):
                assert state.is_terminal and state.ranking[0] == [side] and state.goals[side] == 100
                return n + 1, chains
            if quiet >= 40:
                assert state.is_terminal and state.goals == [50, 50]
                return n + 1, chains
            side = foe
        assert not state.is_terminal
    raise AssertionError("the play did not end")


# ------------------------------------------------------------------ tests
def test_check_is_clean():
    assert_check_clean(NAME)


def test_the_first_moves():
    start = load(NAME).initial_state(0)
    assert sorted(moves(start)) == [((1, 1), (0, 2)), ((1, 1), (2, 2)), ((3, 1), (2, 2)), ((3, 1), (4, 2)),
                                    ((5, 1), (4, 2))]


def test_capturing_is_compulsory():
    state = load(NAME).initial_state(0)
    state = state.apply(moves(state)[((1, 1), (2, 2))])
    state = state.apply(moves(state)[((4, 4), (3, 3))])
    assert list(moves(state)) == [((2, 2), (4, 4))]  # the only move: the jump over (3, 3)
    state = state.apply(moves(state)[((2, 2), (4, 4))])
    assert (3, 3) not in position(state)  # the black man left the board
    assert sorted(moves(state)) == [((3, 5), (5, 3)), ((5, 5), (3, 3))]  # Black must take back


@pytest.mark.parametrize("seed", range(12))
def test_random_plays_agree_with_the_model(seed):
    played, _ = _compare_play(seed)
    assert played > 4


def test_chains_of_jumps_happen_and_agree():
    """Over these plays at least one chain of jumps (the JumpPhase) occurred, and was compared."""
    assert any(_compare_play(seed)[1] for seed in range(100, 140))


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_random_games_end(seed):
    assert_sane_end(play_random(NAME, seed).state)


def test_records_replay_and_tampering_is_refused(tmp_path):
    text = assert_same_seed_same_record(NAME, 3, tmp_path)
    assert_replays(text, tmp_path)
    assert_tamper_rejected(text, 0, "Seat#0.Move(from: Board[0][5], to: Board[1][4])", tmp_path)
