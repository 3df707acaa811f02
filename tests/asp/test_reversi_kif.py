"""examples/gdl/reversi.kif, the hand-written GDL baseline, is the game of examples/reversi.tgpl.

The model (tests/examples/reversi_model.py) is plain Python written from the rules in
examples/reversi.tgpl's header (black, player 0, moves first; a disc flanks lines of the other colour in
eight directions and turns them over; a player with no move passes; the game ends when neither can move;
more discs wins, equal is a draw). Seeded random playouts on the GDL reasoner and on the model, side by
side: at every state the legal moves (mapped one to one), the board, the terminal status and the goals
must agree; and perft from the start is Reversi's known 4, 12, 56. (tests/examples/test_reversi.py
checks the same model's rules against the runtime game.)

The mapping (the KIF file's header says the same):

| model / runtime | GDL |
| --- | --- |
| player 0, player 1 | roles `black`, `white` |
| a disc on square (x, y), the runtime's `Grid[x][y]` | `(true (cell x+1 y+1 black\\|white))`; no disc is `b` |
| placing on (x, y): `Seat#p.Place(target: Grid[x][y])` | `(place x+1 y+1)` for the role of p; the other role `noop` |
| passing: `Seat#p.Pass()` | `pass`; the other role `noop` |
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
from reversi_model import SIZE, legal, place, start  # noqa: E402
from tgpl.asp.kif import read_kif_file, read_term
from tgpl.asp.reasoner import GdlGame
from tgpl.asp.validate import validate

ROOT = Path(__file__).resolve().parents[2]
KIF = ROOT / "examples" / "gdl" / "reversi.kif"
ROLES = ("black", "white")
# A state costs the reasoner 10-15 ms and a random game is about 60 moves: four playouts and the
# perft (73 states) keep this file at a few seconds. Seeds 1 and 2 play a pass, seed 2 ends in a draw.
SEEDS = range(4)
WIPEOUT = 1593  # the seed of a 9-move play that leaves black alone on the board, 13 discs
STEP_BUDGET = 200  # moves per playout, passes included; a game of Reversi has at most 60 placements and
                   # no two passes in a row before its end


# ------------------------------------------------------------------ the model (reversi_model) and its goals
def goals(board: dict) -> list[int]:
    black = sum(v == 0 for v in board.values())
    white = sum(v == 1 for v in board.values())
    return [100, 0] if black > white else [0, 100] if white > black else [50, 50]


# ------------------------------------------------------------------ the mapping
def gdl_move(move) -> str:
    """The GDL move of a model move (a square, or "pass")."""
    return "pass" if move == "pass" else f"(place {move[0] + 1} {move[1] + 1})"


def gdl_board(board: dict) -> set[str]:
    return {f"(cell {x + 1} {y + 1} {'b' if (x, y) not in board else ROLES[board[(x, y)]]})"
            for x in range(SIZE) for y in range(SIZE)}


@pytest.fixture(scope="module")
def game():
    return GdlGame.load(KIF)


def agrees(gdl, board: dict, who: int) -> list:
    """The GDL state is the model's (board, player to move); the model's legal moves, sorted."""
    fluents = gdl.fluent_texts()
    assert {f for f in fluents if f.startswith("(cell")} == gdl_board(board)
    over = not legal(board, 0) and not legal(board, 1)
    assert gdl.is_terminal == over
    if over:
        assert gdl.goals == goals(board)
        return []
    assert f"(control {ROLES[who]})" in fluents
    moves = sorted(legal(board, who)) or ["pass"]
    joints = {tuple(map(str, j)) for j in gdl.legal_moves()}
    want = {tuple(gdl_move(m) if i == who else "noop" for i in range(2)) for m in moves}
    assert joints == want
    assert len(joints) == len(moves)  # one to one
    return moves


def step(gdl, board: dict, who: int, move):
    """A model move played on both: the GDL state, the board and the player to move after it."""
    gdl = gdl.apply({ROLES[who]: read_term(gdl_move(move)), ROLES[1 - who]: read_term("noop")})
    if move != "pass":
        board = place(board, move, who)
    return gdl, board, 1 - who


def test_the_kif_is_valid_gdl():
    program, _ = read_kif_file(KIF)
    assert validate(program, str(KIF)) == []


def test_the_model_starts_as_the_runtime_does(game):
    gdl = game.initial_state()
    assert agrees(gdl, start(), 0) == [(2, 3), (3, 2), (4, 5), (5, 4)]
    assert not gdl.is_terminal and gdl.goals == [50, 50]  # 2 discs each


def playout(game, seed) -> tuple[int, dict]:
    """A seeded random play on both, checked at every state: the passes played and the last board."""
    rng = random.Random(f"reversi.kif {seed}")
    gdl, board, who, passes = game.initial_state(), start(), 0, 0
    for _ in range(STEP_BUDGET):
        moves = agrees(gdl, board, who)
        if not moves:
            return passes, board
        move = rng.choice(moves)
        passes += move == "pass"
        gdl, board, who = step(gdl, board, who, move)
    raise AssertionError(f"seed {seed}: no end after {STEP_BUDGET} moves")


def test_random_playouts_agree_with_the_model(game):
    passes, outcomes = 0, set()
    for seed in SEEDS:
        played, board = playout(game, seed)
        passes += played
        outcomes.add(tuple(goals(board)))
    assert passes > 0  # the seeds play a pass
    assert outcomes == {(100, 0), (0, 100), (50, 50)}  # both roles win some, and a draw


def test_a_wipeout_ends_the_game_before_the_board_is_full(game):
    passes, board = playout(game, WIPEOUT)
    assert passes == 0 and len(board) == 13 and set(board.values()) == {0}


def test_perft_from_the_start(game):
    """Reversi's perft: 4, 12, 56 positions after one to three moves, each the model's."""
    layer = [(game.initial_state(), start(), 0)]
    counts = []
    for _ in range(3):
        layer = [step(gdl, board, who, m) for gdl, board, who in layer for m in agrees(gdl, board, who)]
        counts.append(len(layer))
    assert counts == [4, 12, 56]
    for gdl, board, who in layer:
        agrees(gdl, board, who)
    assert len({gdl.key() for gdl, _, _ in layer}) == len({frozenset(board.items()) for _, board, _ in layer})
