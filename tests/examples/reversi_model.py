"""Reversi on 8 x 8 in plain Python, written from the rules in examples/reversi.tgpl's header: the independent
model both the runtime game (tests/examples/test_reversi.py) and the hand-written GDL
(tests/asp/test_reversi_kif.py) are compared with. A board is {(x, y): player} for the squares with a disc."""

from __future__ import annotations

SIZE = 8
DIRS = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]


def start() -> dict:
    m = SIZE // 2
    return {(m - 1, m - 1): 1, (m, m): 1, (m, m - 1): 0, (m - 1, m): 0}


def flipped(board: dict, sq, who: int) -> list:
    """The discs a disc of `who` on the empty square `sq` turns over."""
    out = []
    for dx, dy in DIRS:
        line, (x, y) = [], (sq[0] + dx, sq[1] + dy)
        while 0 <= x < SIZE and 0 <= y < SIZE and board.get((x, y)) == 1 - who:
            line.append((x, y))
            x, y = x + dx, y + dy
        if line and 0 <= x < SIZE and 0 <= y < SIZE and board.get((x, y)) == who:
            out += line
    return out


def legal(board: dict, who: int) -> set:
    return {(x, y) for x in range(SIZE) for y in range(SIZE) if (x, y) not in board and flipped(board, (x, y), who)}


def place(board: dict, sq, who: int) -> dict:
    """The board after `who` puts a disc on `sq`."""
    after = dict(board)
    for s in flipped(board, sq, who) + [sq]:
        after[s] = who
    return after
