"""Nine men's morris on a graph board, written as a designer writes it (tests/data/designers/morris.tgpl): 24
points built in the board's `default` with their lines as connections, the 16 rows of three a static list of
`Row` objects, the men as values on the points (`player Man`), a seat per player counting the men in hand and
the men left; placing, then stepping along a line, a mill takes a man not in a mill (unless all are), a
player with two men or no step loses, a draw after 100 placements and steps. Flying is left out.

The runtime is checked against an independent model written from the board's drawing (each point a pair of
coordinates on the 7 x 7 lattice; lines and rows found from the coordinates, not from the game's numbering
of rings): the move tree's first levels and seeded plays to their end, legal moves and positions compared at
every move. Its twin morris_men.tgpl, the same game, checks the men left where the take writes them.

Under `auto` the moves are spelled out first, and one control state passes its budget of conditions (the
searches over the 24 points and 16 rows split every move on the board); they are then compiled
(`execute.StateTooCostly`), and both lower and validate. morris.tgpl's end check reads the seat again
through `Game.Seats[1 - Index()]` after the take's `them.Men -= 1`: the compiled moves give the same lookup
of the same keys the same term (`SegmentCompiler.known`), so the check reads the value written and bounds
'Men' (before, they took it for maybe another seat, and refused the game as 'Men' falling without bound)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from differential import lowered_and_validated, model_perft, plays_to_the_models_end, runtime_perft
from tgpl.cli import main
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game

DRAW_AFTER = 100


def coordinates() -> list[tuple[int, int]]:
    """Point#i's place on the lattice, centre (0, 0): ring r (0 outside) is the square of half side 3 - r,
    its points clockwise from the top left corner, as the game creates them."""
    out = []
    for r in range(3):
        d = 3 - r
        out += [(-d, -d), (0, -d), (d, -d), (d, 0), (d, d), (0, d), (-d, d), (-d, 0)]
    return out


AT = coordinates()


def lines_of_points() -> list[list[int]]:
    """Each straight line of the drawing, as the points on it in order: the rows and columns of the lattice,
    the middle row and column cut in two by the empty centre."""
    out = []
    for axis in (0, 1):
        for c in range(-3, 4):
            on = sorted((p for p in range(24) if AT[p][1 - axis] == c), key=lambda p: AT[p][axis])
            if c == 0:
                out.append([p for p in on if AT[p][axis] < 0])
                out.append([p for p in on if AT[p][axis] > 0])
            else:
                out.append(on)
    return out


LINES = lines_of_points()
ROWS = [tuple(line) for line in LINES]  # every line of the drawing holds exactly three points: a row
NEIGHBOURS = {p: set() for p in range(24)}
for _line in LINES:
    for _a, _b in zip(_line, _line[1:]):
        NEIGHBOURS[_a].add(_b)
        NEIGHBOURS[_b].add(_a)

# the model's state: ((board, men in hand, men left), the player to move, must take, moves made)
START = (((None,) * 24, (9, 9), (9, 9)), 0, False, 0)


def in_mill(board, p, who) -> bool:
    return any(p in row and all(board[q] == who for q in row) for row in ROWS)


def can_step(board, who) -> bool:
    return any(board[p] == who and any(board[q] is None for q in NEIGHBOURS[p]) for p in range(24))


def model_moves(state) -> list[tuple]:
    (board, hand, _), who, taking, _ = state
    if taking:
        other = 1 - who
        theirs = [p for p in range(24) if board[p] == other]
        all_in = all(in_mill(board, p, other) for p in theirs)
        return [("take", p) for p in theirs if all_in or not in_mill(board, p, other)]
    if hand[who] > 0:
        return [("place", p) for p in range(24) if board[p] is None]
    return [("step", p, q) for p in range(24) if board[p] == who for q in sorted(NEIGHBOURS[p]) if board[q] is None]


def model_apply(state, move):
    """The next state, and the result: the winner, "draw", or None while the play goes on."""
    (board, hand, men), who, taking, made = state
    board, hand, men = list(board), list(hand), list(men)
    other = 1 - who
    if move[0] == "take":
        board[move[1]] = None
        men[other] -= 1
        taking = False
        closed = False
    else:
        if move[0] == "place":
            at = move[1]
            hand[who] -= 1
        else:
            board[move[1]] = None
            at = move[2]
        board[at] = who
        made += 1
        closed = in_mill(board, at, who) and men[other] > hand[other]  # they have a man on the board
    position = (tuple(board), tuple(hand), tuple(men))
    if closed:
        return (position, who, True, made), None
    nxt = (position, other, False, made)
    if men[other] < 3 or (hand[other] == 0 and not can_step(board, other)):
        return nxt, who
    return nxt, "draw" if made >= DRAW_AFTER else None


def model_text(state, move) -> str:
    who = state[1]
    if move[0] == "take":
        return f"Seat#{who}.Take(victim: Point#{move[1]})"
    if move[0] == "place":
        return f"Seat#{who}.Place(where: Point#{move[1]})"
    return f"Seat#{who}.Step(src: Point#{move[1]}, dst: Point#{move[2]})"


def positions(state) -> tuple:
    w = state.world
    owner = {None: None, 0: 0, 1: 1}
    board = tuple(owner[w.fields(w.named(f"Point#{p}"))["Man"]] for p in range(24))
    seats = [w.fields(w.named(f"Seat#{s}")) for s in range(2)]
    return board, tuple(s["InHand"] for s in seats), tuple(s["Men"] for s in seats)


def test_the_models_board_is_nine_mens_morris():
    assert len(ROWS) == 16 and all(len(r) == 3 for r in ROWS)
    assert sum(len(n) for n in NEIGHBOURS.values()) == 2 * 32
    assert sorted(len(NEIGHBOURS[p]) for p in range(24)) == [2] * 12 + [3] * 8 + [4] * 4


TWINS = ["morris", "morris_men"]


@pytest.mark.parametrize("name", TWINS)
def test_morris_move_tree_is_the_models(name):
    start = load_game(game(name)).initial_state(0)
    assert positions(start) == START[0]
    model = [model_perft(model_moves, model_apply, START, d) for d in range(1, 4)]
    assert model == [24, 24 * 23, 24 * 23 * 22]  # placing: no row can close in three placements
    assert [runtime_perft(start, d) for d in range(1, 4)] == model


def test_morris_move_tree_after_a_mill_is_the_models():
    """From a position where player 0 closes a row on the next move: the take and what follows."""
    start = load_game(game("morris")).initial_state(0)
    model = START
    for m in [("place", 0), ("place", 8), ("place", 1), ("place", 9)]:
        start = start.apply(start.resolve(model_text(model, m)))
        model, result = model_apply(model, m)
        assert result is None
    assert positions(start) == model[0]
    counts = [model_perft(model_moves, model_apply, model, d) for d in range(1, 4)]
    assert [runtime_perft(start, d) for d in range(1, 4)] == counts
    closing = ("place", 2)
    after, _ = model_apply(model, closing)
    assert after[2] and model_moves(after) == [("take", 8), ("take", 9)]


@pytest.mark.parametrize("name", TWINS)
@pytest.mark.parametrize("seed", range(10))
def test_morris_plays_to_the_models_end(name, seed):
    plays_to_the_models_end(load_game(game(name)).initial_state(0), START, Lcg(seed), model_moves,
                            model_apply, model_text, positions)


@pytest.mark.parametrize("name", TWINS)
def test_morris_lowers_and_validates(name, tmp_path):
    text, _ = lowered_and_validated(game(name), tmp_path / f"{name}.kif")
    assert "Played one state at a time (its moves compiled)" in text
    assert "(role player_0)" in text and text.count("\n(<=") <= 2_000


@pytest.mark.parametrize("name", TWINS)
def test_morris_dry_run_is_undecided_compiled(name):
    r = CliRunner().invoke(main, ["to-gdl", "--dry-run", game(name)])
    assert r.exit_code == 2, r.output
    assert "its moves compiled once (spelled out, one control state built more than 3,000,000 parts" in r.output
    assert "the dry run does not run: `tgpl to-gdl` decides" in r.output
