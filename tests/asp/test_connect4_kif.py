"""examples/gdl/connect4.kif, the hand-written GDL baseline, is the game of examples/connect4.tgpl.

Seeded random playouts of the runtime game and of the GDL game on the reasoner,
side by side: at every step the board, the legal moves (mapped one to one), the
terminal status and the goals must agree.

The mapping between the two (the KIF file's header says the same):

| runtime | GDL |
| --- | --- |
| player 0, player 1 | roles `red`, `yellow` |
| `Player#p.Drop(column: Grid[c][0])` | `(drop c+1)` for the role of p; the other role `noop` |
| `Grid[c][r].Disc == p` (row 0 at the top) | `(true (cell c+1 6-r role_of_p))`; a null Disc is `b` |
"""

from __future__ import annotations

import random
import re
from functools import lru_cache
from pathlib import Path

import pytest

from tgpl.asp.kif import read_kif_file, read_term
from tgpl.asp.reasoner import GdlGame
from tgpl.asp.validate import validate
from tgpl.runtime import load_game

ROOT = Path(__file__).resolve().parents[2]
KIF = ROOT / "examples" / "gdl" / "connect4.kif"
TGPL = ROOT / "examples" / "connect4.tgpl"
ROLES = ("red", "yellow")
COLUMNS, ROWS = 7, 6
# The runtime lists Connect Four's moves in about 6 ms (ColumnOf scans the grid for each candidate), so a
# playout costs it about 0.13 s: 40 playouts keep this file at a few seconds. The lowering's differential
# test plays 100 more of the same game.
PLAYOUTS = 40

# A full grid without four in a row (columns of the drops, player 0 first).
DRAW = [3, 5, 6, 4, 3, 1, 2, 0, 0, 1, 3, 1, 2, 6, 4, 6, 2, 4, 6, 5, 4, 5, 6, 4, 6, 2, 2, 0, 2, 4, 5, 5, 0, 5, 1,
        3, 1, 0, 3, 3, 1, 0]

_DROP = re.compile(r"Player#(\d)\.Drop\(column: Grid\[(\d)\]\[0\]\)")


def gdl_move(text: str) -> tuple[int, str]:
    """The role index and GDL move of a runtime move text."""
    m = _DROP.fullmatch(text)
    assert m is not None, text
    return int(m.group(1)), f"(drop {int(m.group(2)) + 1})"


@lru_cache(maxsize=None)
def term(text: str):
    return read_term(text)


def runtime_move(player: int, column: int) -> str:
    return f"Player#{player}.Drop(column: Grid[{column}][0])"


def gdl_board(state) -> set[str]:
    """The runtime's grid as the GDL cell fluents it corresponds to."""
    discs = {o.name: state.world.fields(o)["Disc"] for o in state.world.objects if o.name.startswith("Grid[")}
    cells = set()
    for c in range(COLUMNS):
        for r in range(ROWS):
            disc = discs[f"Grid[{c}][{r}]"]
            cells.add(f"(cell {c + 1} {ROWS - r} {'b' if disc is None else ROLES[disc]})")
    return cells


@pytest.fixture(scope="module")
def games():
    return load_game(TGPL), GdlGame.load(KIF)


def step_agrees(rt, gdl) -> None:
    """Board, terminal status, goals and legal moves of a runtime state and a GDL state agree."""
    fluents = {str(f) for f in gdl.fluents}
    assert {f for f in fluents if f.startswith("(cell")} == gdl_board(rt)
    assert rt.is_terminal == gdl.is_terminal
    if rt.is_terminal:
        assert gdl.goals == rt.goals
        return
    assert f"(control {ROLES[rt.active_player]})" in fluents
    mapped = [gdl_move(m.text) for m in rt.legal_moves()]
    assert {p for p, _ in mapped} == {rt.active_player}
    joints = {tuple(map(str, j)) for j in gdl.legal_moves()}
    want = {tuple(move if i == p else "noop" for i in range(2)) for p, move in mapped}
    assert joints == want
    assert len(mapped) == len(joints)  # one to one


def play_both(games, moves):
    """Plays runtime moves (texts) on both games, checking agreement at every step; the last states."""
    game, kif = games
    rt, gdl = game.initial_state(0), kif.initial_state()
    step_agrees(rt, gdl)
    for text in moves:
        rt, gdl = step_both(rt, gdl, text)
    return rt, gdl


def step_both(rt, gdl, text: str):
    """One runtime move (a text) on both games, checked."""
    player, move = gdl_move(text)
    rt = rt.apply(text)
    gdl = gdl.apply({ROLES[player]: term(move), ROLES[1 - player]: term("noop")})
    step_agrees(rt, gdl)
    return rt, gdl


def test_the_kif_is_valid_gdl():
    program, _ = read_kif_file(KIF)
    assert validate(program, str(KIF)) == []


def test_random_playouts_agree_with_the_runtime(games):
    game, kif = games
    rng = random.Random("connect4.kif")
    outcomes: dict[tuple, int] = {}
    for _ in range(PLAYOUTS):
        rt, gdl = game.initial_state(0), kif.initial_state()
        step_agrees(rt, gdl)
        while not rt.is_terminal:
            text = rng.choice(rt.legal_moves()).text
            rt, gdl = step_both(rt, gdl, text)
        outcomes[tuple(rt.goals)] = outcomes.get(tuple(rt.goals), 0) + 1
    assert {(100, 0), (0, 100)} <= set(outcomes) <= {(100, 0), (0, 100), (50, 50)}  # both seats win some


def test_a_full_grid_without_four_is_a_draw(games):
    rt, gdl = play_both(games, [runtime_move(i % 2, c) for i, c in enumerate(DRAW)])
    assert rt.is_terminal and gdl.is_terminal
    assert gdl.goals == rt.goals == [50, 50]


@pytest.mark.parametrize("columns, goals", [
    ([0, 1, 0, 1, 0, 1, 0], [100, 0]),               # vertical, red
    ([0, 0, 1, 1, 2, 2, 3], [100, 0]),               # horizontal, red
    ([6, 0, 6, 1, 6, 2, 5, 3], [0, 100]),            # horizontal, yellow
    ([0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3], [100, 0]),   # diagonal up-right, red
    ([6, 5, 5, 4, 4, 3, 4, 3, 3, 0, 3], [100, 0]),   # diagonal up-left (down-right), red
])
def test_scripted_wins_agree(games, columns, goals):
    rt, gdl = play_both(games, [runtime_move(i % 2, c) for i, c in enumerate(columns)])
    assert rt.is_terminal and gdl.is_terminal
    assert gdl.goals == rt.goals == goals


def test_a_full_column_is_no_longer_legal(games):
    _, gdl = play_both(games, [runtime_move(i % 2, 2) for i in range(6)])
    assert "(drop 3)" not in {str(m) for m in gdl.legal_moves("red")}
    assert len(gdl.legal_moves("red")) == COLUMNS - 1
