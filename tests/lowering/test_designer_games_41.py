"""Ultimate tic-tac-toe, written as a designer writes it from the rule sheet (tests/data/designers/ultimate.tgpl):
nine small 3 x 3 boards as one 9 x 9 group of cells, each cell pointing to its small board, a tile of a second
3 x 3 group of the same board (`Square`), which keeps who won it and how many of its cells are filled. The cell a
player marks sends the other to the small board at the same place of the big board; sent to a board that is won or
full, they may play in any open board. Three in a row inside a small board wins it, three won boards in a row win
the game; no open board left is a draw.

The runtime is checked against an independent model (the 81 cells as one tuple, boards found by integer division)
on the move tree's first levels, a set position that sends a player to a won board, and seeded plays to their end.

What the designer met: `tgpl play` drew every cell of the 9 x 9 group as `S` whatever was marked on it: the board
view shows a tile by its first attribute that says who holds it, and `Square Home` (the cell's small board, a link
between places) came before `player Mark`. A tile-valued attribute is no longer taken for a holder
(tgpl/play/display.py), and the view shows the marks (pinned below).

The lowering as a designer tries it (CPU and peak memory measured once with /usr/bin/time on a shared two-core
machine, not asserted): `tgpl check --lowerable` and the dry run say it lowers, estimated from a sampled run (4.2 s,
65 MB; 3.5 s, 67 MB), its one action spelled out 81 ways, the line functions as rules with variables, "the ranges of
the numbers were not searched". `tgpl to-gdl --max-seconds 300` (auto) stopped "while lowering (ranges)", nothing
written (97 s of CPU in the 300 s, 403 MB), and named nothing to change. The stop now names the numbers the search
was ranging, as the dry run's undecided note does: `Squares[0][0].Filled ... and 6 more (0 to 2 found so far,
written at ...:174:13)` (to-gdl --max-seconds 200: 44 s of CPU, 231 MB; tests/test_limits.py pins the note). Nine
counts of filled cells and a count of closed boards, bounded but many together. Followed, ultimate_scan.tgpl keeps
no count (whether a board is full, and whether any is open, read from the marks): the dry run says lowers (3.7 s,
69 MB), and `tgpl to-gdl` (auto) lowers and validates it, 17 playouts to the end, 1,042 steps, `BigLine` made a
check of every line by induction (18 s of CPU, 175 MB; pinned below); `tgpl check-gdl` is clean. `tgpl analyze
--games 20` (0.9 s, 38 MB, either file): 20 finished, seat 0 11 wins, seat 1 5, 4 draws, 47 to 67 moves. `tgpl
verify` was not tried: 81 cells of three values each, far past what a complete search explores.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest
from click.testing import CliRunner

from differential import (SeenModel, lowered_and_validated, model_perft, played_beside, plays_to_the_models_end,
                          runtime_perft)
from tgpl.cli import main
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game

LINES = [[(i, 0), (i, 1), (i, 2)] for i in range(3)] + [[(0, i), (1, i), (2, i)] for i in range(3)] + \
        [[(0, 0), (1, 1), (2, 2)], [(2, 0), (1, 1), (0, 2)]]


@dataclass(frozen=True)
class Ult:
    """The model's state: each cell's mark (cell (x, y) at index 9x + y; None, 0 or 1), each small board's winner
    (board (bx, by) at 3bx + by), the board the mover is sent to (None: any open board) and the seat to move."""

    marks: tuple = (None,) * 81
    owners: tuple = (None,) * 9
    target: int | None = None
    who: int = 0

    def full(self, b: int) -> bool:
        bx, by = divmod(b, 3)
        return all(self.marks[9 * (3 * bx + i) + 3 * by + j] is not None for i in range(3) for j in range(3))

    def open(self, b: int) -> bool:
        return self.owners[b] is None and not self.full(b)

    def seen(self) -> tuple:
        return self.marks, self.owners, self.target


def small_line(marks: tuple, b: int, who: int) -> bool:
    bx, by = divmod(b, 3)
    return any(all(marks[9 * (3 * bx + i) + 3 * by + j] == who for i, j in line) for line in LINES)


def moves(s: Ult) -> list[tuple[int, int]]:
    """The cells the mover may mark: the empty cells of the board they are sent to, else of every open board."""
    boards = [s.target] if s.target is not None else [b for b in range(9) if s.open(b)]
    return sorted((x, y) for x in range(9) for y in range(9)
                  if (x // 3) * 3 + y // 3 in boards and s.marks[9 * x + y] is None)


def apply(s: Ult, m: tuple[int, int]):
    """The state after the mover marks `m`, and the result: the mover on a line of won boards, "draw" when no
    board is open, else None."""
    x, y = m
    marks = s.marks[:9 * x + y] + (s.who,) + s.marks[9 * x + y + 1:]
    home = (x // 3) * 3 + y // 3
    owners = s.owners
    if small_line(marks, home, s.who):
        owners = owners[:home] + (s.who,) + owners[home + 1:]
        if any(all(owners[3 * i + j] == s.who for i, j in line) for line in LINES):
            return replace(s, marks=marks, owners=owners), s.who
    after = replace(s, marks=marks, owners=owners)
    if not any(after.open(b) for b in range(9)):
        return after, "draw"
    sent = 3 * (x % 3) + y % 3
    return replace(after, target=sent if after.open(sent) else None, who=1 - s.who), None


def text(s: Ult, m: tuple[int, int]) -> str:
    return f"Seat#{s.who}.Place(c: Cells[{m[0]}][{m[1]}])"


def observed(state) -> tuple:
    """The runtime's marks, small boards' winners and target board, in the model's order."""
    w = state.world
    marks = tuple(w.fields(w.named(f"Cells[{x}][{y}]"))["Mark"] for x in range(9) for y in range(9))
    owners = tuple(w.fields(w.named(f"Squares[{bx}][{by}]"))["Owner"] for bx in range(3) for by in range(3))
    target = w.fields(w.named("Match"))["Target"]
    if target is not None:
        t = w.fields(target)
        target = 3 * int(t["X"]) + int(t["Y"])
    return marks, owners, target


SEEN = SeenModel(moves, apply, text)
paired, paired_moves, paired_apply, paired_text = SEEN.pair, SEEN.pair_moves, SEEN.pair_apply, SEEN.pair_text


# the game as first written (counters of filled cells and closed boards) and as rewritten for the lowering
# (whether a board is full, and whether any is open, read from the marks)
GAMES = ["ultimate", "ultimate_scan"]


def runtime_start(name: str = "ultimate"):
    return load_game(game(name)).initial_state(0)


def test_the_model_sends_the_next_player():
    """The first move is free; a cell's place in its small board names the board the other player is sent to."""
    s = Ult()
    assert len(moves(s)) == 81
    s, result = apply(s, (4, 4))  # the centre of the centre board
    assert result is None and s.target == 4
    assert moves(s) == [(x, y) for x in (3, 4, 5) for y in (3, 4, 5) if (x, y) != (4, 4)]
    s, _ = apply(s, (5, 3))  # the centre board's cell x 2, y 0 (its top right): the top right board
    assert s.target == 6 and s.who == 0


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_the_move_tree_is_the_models(name, depth):
    assert runtime_perft(runtime_start(name), depth) == model_perft(moves, apply, Ult(), depth)


# X takes the top-left board's column x = 0 while O keeps sending X back to it; O's last mark, a top-left corner,
# sends X to the board X has just won
SENT_TO_A_WON_BOARD = [(4, 4), (3, 3), (0, 0), (1, 1), (4, 3), (3, 0), (0, 1), (0, 3), (0, 2), (0, 6)]


@pytest.mark.parametrize("name", GAMES)
def test_a_player_sent_to_a_won_board_may_play_anywhere_open(name):
    """After SENT_TO_A_WON_BOARD X owns the top-left board and is sent to it: X may mark any empty cell of the
    eight other boards (72 cells less the 6 marked there), and the runtime agrees cell by cell."""
    state, model, result = played_beside(runtime_start(name), paired(Ult()), SENT_TO_A_WON_BOARD, paired_apply,
                                         paired_text, observed)
    s = model[1]
    assert result is None and s.owners[0] == 0 and s.target is None and s.who == 0
    assert len(moves(s)) == 66 and all(x >= 3 or y >= 3 for x, y in moves(s))
    assert sorted(m.text for m in state.legal_moves()) == sorted(text(s, m) for m in moves(s))


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", range(12))
def test_seeded_plays_end_as_the_model_says(name, seed):
    plays_to_the_models_end(runtime_start(name), paired(Ult()), Lcg(seed), paired_moves, paired_apply, paired_text,
                            observed)


def test_the_seeded_plays_meet_every_rule():
    """Over the seeded plays above both seats win and some play is drawn (no open board left), boards are won, and a
    player is sent to a won board and to a full one, and freed both times."""
    results, won, to_won, to_full = set(), 0, 0, 0
    for seed in range(12):
        s, rng, result = Ult(), Lcg(seed), None
        while result is None:
            ms = moves(s)
            m = ms[rng.below(len(ms))]
            s, result = apply(s, m)
            sent = 3 * (m[0] % 3) + m[1] % 3
            if result is None and s.target is None:
                to_won += s.owners[sent] is not None
                to_full += s.owners[sent] is None
        won += sum(o is not None for o in s.owners)
        results.add(result)
    assert results == {0, 1, "draw"} and won > 0 and to_won > 0 and to_full > 0, (results, to_won, to_full)


def test_the_board_view_shows_the_marks():
    """`tgpl play` draws a marked cell as its player, an empty one as `.` (a cell's link to its small board, a
    tile, is not taken for who holds it)."""
    r = CliRunner().invoke(main, ["play", game("ultimate"), "--players", "random,random", "--seed", "3",
                                  "--max-moves", "2"])
    cells = r.output.split("Cells:\n", 1)[1].splitlines()[:9]
    assert "S" not in "".join(cells), r.output
    assert sorted("".join(cells).split()) == ["."] * 79 + ["0", "1"], r.output


def test_the_rewrite_without_counters_lowers_and_validates(tmp_path):
    """ultimate_scan.tgpl, whose boards' fullness is read from the marks: `tgpl to-gdl` (auto) lowers it, the moves
    spelled out, and validates it by playouts to the end of the game; the line of won boards, checked from the move
    just made, is proven the same game as the check of every line (language decision 85)."""
    text, _ = lowered_and_validated(game("ultimate_scan"), tmp_path / "ultimate_scan.kif")
    assert "; Checks made global, proven the same game by induction: BigLine." in text.splitlines()[:4]
    assert ";   (place seat_1 cells_4_4) = Seat#1.Place(c: Cells[4][4])" in text
