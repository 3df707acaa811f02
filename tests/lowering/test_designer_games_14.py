"""Brandubh, the Irish tafl game on 7x7, written as a designer writes it (tests/data/designers/brandubh.tgpl):
pieces are interactables on squares (`move_to`), found by a search over the list of every piece (`On(s)`), a
rook's slide is a recursive function (`Slides`), captures close a man between the mover and a hostile square
(a piece of the mover's, a corner, the empty throne), the king is taken when surrounded. Its twin
brandubh_list.tgpl removes taken men from the list instead of marking them `Out`.

The runtime is checked against an independent model (positions of the thirteen men, plain Python): the move
tree's first levels and seeded plays to their end, legal moves and positions compared at every move. The game
lowers (its moves compiled) and validates over whole games; the twin is refused in seconds, the message naming
the list the moves change and where (execute.changed_lists_read)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from differential import lowered_and_validated, model_perft, plays_to_the_models_end, runtime_perft
from tgpl.cli import main
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game

ATTACKERS = [(3, 0), (3, 1), (3, 5), (3, 6), (0, 3), (1, 3), (5, 3), (6, 3)]  # Man#0..7, player 0's
DEFENDERS = [(3, 2), (3, 4), (2, 3), (4, 3), (3, 3)]  # Man#8..12, player 1's; Man#12 the king
KING = 12
START = (tuple(ATTACKERS + DEFENDERS), 0, 0)  # each man's square (None once taken), the player to move, moves made
DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1)]
THRONE = (3, 3)
CORNERS = {(0, 0), (0, 6), (6, 0), (6, 6)}


def side(man: int) -> int:
    return 0 if man < 8 else 1


def on(men, square):
    return next((m for m, at in enumerate(men) if at == square), None)


def inside(x: int, y: int) -> bool:
    return 0 <= x < 7 and 0 <= y < 7


def model_moves(state) -> list[tuple[int, tuple[int, int]]]:
    men, who, _ = state
    out = []
    for m, at in enumerate(men):
        if at is None or side(m) != who:
            continue
        for dx, dy in DIRS:
            x, y = at[0] + dx, at[1] + dy
            while inside(x, y) and on(men, (x, y)) is None:  # any piece passes over the empty throne
                if m == KING or ((x, y) != THRONE and (x, y) not in CORNERS):
                    out.append((m, (x, y)))
                x, y = x + dx, y + dy
    return out


def hostile(men, square, who) -> bool:
    if not inside(*square):
        return False
    m = on(men, square)
    if m is None:
        return square == THRONE or square in CORNERS
    return side(m) == who


def king_taken(men) -> bool:
    kx, ky = men[KING]
    for dx, dy in DIRS:
        s = (kx + dx, ky + dy)
        if not inside(*s):
            return False
        m = on(men, s)
        if s != THRONE and (m is None or side(m) != 0):
            return False
    return True


def model_apply(state, move):
    """The next state, and the result: the winner, "draw", or None while the play goes on."""
    men, who, made = state
    m, to = move
    men = list(men)
    men[m] = to
    for dx, dy in DIRS:
        near = (to[0] + dx, to[1] + dy)
        victim = on(men, near) if inside(*near) else None
        if victim is not None and side(victim) != who and victim != KING:
            if hostile(men, (near[0] + dx, near[1] + dy), who):
                men[victim] = None
    nxt = (tuple(men), 1 - who, made + 1)
    if men[KING] in CORNERS:
        return nxt, 1
    if king_taken(men):
        return nxt, 0
    return nxt, "draw" if made + 1 >= 40 else None


def model_text(state, move) -> str:
    m, (x, y) = move
    return f"Man#{m}.Go(to: Cells[{x}][{y}])"


def positions(state) -> tuple:
    w = state.world
    out = []
    for m in range(13):
        f = w.fields(w.named(f"Man#{m}"))
        if f.get("Out"):
            out.append(None)
        else:
            name = f["tile"].name  # "Cells[x][y]"
            out.append(tuple(int(k) for k in name[len("Cells["):-1].split("][")))
    return tuple(out)


def test_brandubh_move_tree_is_the_models():
    start = load_game(game("brandubh")).initial_state(0)
    assert positions(start) == START[0]
    model = [model_perft(model_moves, model_apply, START, d) for d in range(1, 4)]
    assert model[0] == 4 * 4 + 4 * 6  # the attackers' first moves: 4 from an arm's end (corners barred), 6 inside
    assert [runtime_perft(start, d) for d in range(1, 4)] == model


@pytest.mark.parametrize("seed", range(10))
def test_brandubh_plays_to_the_models_end(seed):
    plays_to_the_models_end(load_game(game("brandubh")).initial_state(0), START, Lcg(seed), model_moves,
                            model_apply, model_text, positions)


def test_brandubh_lowers_and_validates_over_whole_games(tmp_path):
    text, _ = lowered_and_validated(game("brandubh"), tmp_path / "brandubh.kif")
    assert "(role player_0)" in text and text.count("\n(<=") <= 2_000


@pytest.mark.parametrize("command", [["to-gdl", "--dry-run"], ["to-gdl", "--no-validate"]])
def test_brandubh_removing_its_men_is_refused_naming_the_list(command, tmp_path):
    out = tmp_path / "brandubh_list.kif"
    r = CliRunner().invoke(main, [*command, game("brandubh_list"), "-o", str(out)])
    assert r.exit_code == (1 if "--dry-run" in command else 2), r.output
    assert not out.exists()
    assert "brandubh_list.tgpl:114:42: error: not lowerable: " in r.output, r.output
    assert "the loop reads the list 'Men', which the moves change (`remove` at 207:29)" in r.output, r.output
    assert "mark the ones taken out" in r.output
