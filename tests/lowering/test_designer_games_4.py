"""Two more games written as designers write them (tests/data/designers), in styles the tool was not
tuned to, checked on the runtime against independent Python models written from the same rules, then
lowered and validated:

- clobber.tgpl: Clobber on 4x4, neighbours found through the tiles' `connections`, a move onto an
  adjacent enemy stone, the player with no move loses (judged in a phase after each move);
- achi.tgpl: three men's morris on a graph board built in the group's `default`, men as interactables
  placed from a seat's hand (`Hand[0].move_to(where)`) and then stepped along lines, the line found by
  comparing rows and columns, a draw after 30 turns. The lowering once refused it at `m.move_to(where)`:
  on the path where the hand is empty the man is null, a runtime error the lowering now drops as it
  drops every other.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from tgpl.cli import main
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game


def moves_of(state) -> list[str]:
    """The runtime's legal moves as texts, sorted."""
    return sorted(m.text for m in state.legal_moves())


# --- Clobber -----------------------------------------------------------------------------------------

def clobber_near(i: int) -> list[int]:
    r, c = divmod(i, 4)
    return [rr * 4 + cc for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)) if 0 <= rr < 4 and 0 <= cc < 4]


def clobber_moves(board: tuple, p: int) -> list[tuple[int, int]]:
    return [(i, j) for i in range(16) if board[i] == p for j in clobber_near(i) if board[j] == 1 - p]


def clobber_apply(board: tuple, m: tuple[int, int]) -> tuple:
    i, j = m
    b = list(board)
    b[j], b[i] = b[i], None
    return tuple(b)


def clobber_text(p: int, m: tuple[int, int]) -> str:
    (r, c), (u, v) = divmod(m[0], 4), divmod(m[1], 4)
    return f"Seat#{p}.Clobber(from: Spots[{r}][{c}], to: Spots[{u}][{v}])"


CLOBBER_START = tuple((i // 4 + i % 4) % 2 for i in range(16))


def test_clobber_move_tree_is_the_models():
    def model(board, p, depth):
        moves = clobber_moves(board, p)
        if depth == 0 or not moves:
            return 1
        return sum(model(clobber_apply(board, m), 1 - p, depth - 1) for m in moves)

    def runtime(state, depth):
        if depth == 0 or state.is_terminal:
            return 1
        return sum(runtime(state.apply(m), depth - 1) for m in state.legal_moves())

    start = load_game(game("clobber")).initial_state(0)
    counts = [runtime(start, d) for d in (1, 2, 3)]
    assert counts == [model(CLOBBER_START, 0, d) for d in (1, 2, 3)]
    assert counts[0] == 24  # every stone but the corners' has 3 or 4 enemies next to it: 2*2 + 8*3 + 4*4 over 2


@pytest.mark.parametrize("seed", range(5))
def test_clobber_plays_to_the_end_as_the_model_does(seed):
    rng, board, p = Lcg(seed), CLOBBER_START, 0
    state = load_game(game("clobber")).initial_state(0)
    while True:
        legal = clobber_moves(board, p)
        assert moves_of(state) == sorted(clobber_text(p, m) for m in legal)
        m = legal[rng.below(len(legal))]
        state = state.apply(state.resolve(clobber_text(p, m)))
        board = clobber_apply(board, m)
        w = state.world
        assert tuple(w.fields(w.named(f"Spots[{i // 4}][{i % 4}]"))["Stone"] for i in range(16)) == board
        if not clobber_moves(board, 1 - p):
            assert state.is_terminal and state.ranking == [[p]]
            return
        assert not state.is_terminal
        p = 1 - p


# --- Three men's morris ------------------------------------------------------------------------------

ACHI_LINKS = {(i, i + 1) for i in range(9) if i % 3 < 2} | {(i, i + 3) for i in range(6)} | {
    (0, 4), (2, 4), (4, 6), (4, 8)}
ACHI_NEAR = {i: sorted({b for a, b in ACHI_LINKS if a == i} | {a for a, b in ACHI_LINKS if b == i}) for i in range(9)}


def achi_lined(men: dict, who: int) -> bool:
    at = [pt for (p, _), pt in men.items() if p == who and pt is not None]
    if len(at) < 3:
        return False
    rows, cols = {pt // 3 for pt in at}, {pt % 3 for pt in at}
    return len(rows) == 1 or len(cols) == 1 or all(pt // 3 == pt % 3 for pt in at) or all(
        pt // 3 + pt % 3 == 2 for pt in at)


def achi_moves(men: dict, p: int, turns: int) -> list[str]:
    taken = {pt for pt in men.values() if pt is not None}
    if turns < 6:
        return [f"Seat#{p}.Place(where: Point#{i})" for i in range(9) if i not in taken]
    return [f"Man#{3 * who + k}.Step(dest: Point#{j})" for (who, k), pt in sorted(men.items())
            if who == p for j in ACHI_NEAR[pt] if j not in taken]


def achi_apply(men: dict, p: int, text: str) -> dict:
    out = dict(men)
    dest = int(text.rsplit("#", 1)[1].rstrip(")"))
    if ".Place(" in text:
        k = sum(1 for (who, _), pt in men.items() if who == p and pt is not None)
        out[(p, k)] = dest
    else:
        out[(p, int(text.split("#", 1)[1].split(".", 1)[0]) - 3 * p)] = dest
    return out


@pytest.mark.parametrize("seed", range(6))
def test_achi_plays_to_the_end_as_the_model_does(seed):
    rng, p, turns = Lcg(seed), 0, 0
    men = {(who, k): None for who in (0, 1) for k in range(3)}
    state = load_game(game("achi")).initial_state(0)
    while True:
        legal = achi_moves(men, p, turns)
        assert moves_of(state) == sorted(legal)
        text = legal[rng.below(len(legal))]
        state = state.apply(state.resolve(text))
        men, turns = achi_apply(men, p, text), turns + 1
        w = state.world
        for (who, k), pt in men.items():
            tile = w.fields(w.named(f"Man#{3 * who + k}"))["tile"]
            assert (tile.name if tile is not None else None) == (f"Point#{pt}" if pt is not None else None)
        if achi_lined(men, p) or turns == 30:
            assert state.is_terminal
            assert state.ranking == ([[p]] if achi_lined(men, p) else [[0, 1]])
            return
        assert not state.is_terminal
        p = 1 - p


# --- Both lower ---------------------------------------------------------------------------------------

def lowers_validated(tmp_path, name: str) -> None:
    """tests/data/designers/NAME.tgpl lowers, validated by plays to the end of the game comparing at least
    1,000 steps, and check-gdl accepts what is written."""
    out = tmp_path / f"{name}.kif"
    r = CliRunner().invoke(main, ["to-gdl", game(name), "-o", str(out)])
    assert r.exit_code == 0, r.output
    validated = out.read_text().splitlines()[1]
    assert validated.startswith("; validated: ") and "to the end of the game" in validated, validated
    steps = int(validated.split(" steps compared")[0].rsplit(" ", 1)[1].replace(",", ""))
    assert steps >= 1000, validated
    r = CliRunner().invoke(main, ["check-gdl", str(out)])
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("name", ["clobber", "achi"])
def test_each_lowers_validated_and_passes_check_gdl(tmp_path, name):
    lowers_validated(tmp_path, name)
