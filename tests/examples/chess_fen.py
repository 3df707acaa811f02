"""Test-only helpers for examples/chess: build the TGPL game from a FEN, convert
the runtime's move text to UCI, and read the board back as a FEN placement.

The TGPL game starts from the board literal in examples/chess/chess.tgpl; a
FEN position is set up by generating a copy of that file with the FEN's
placement as the literal and a few lines added to `setup` (side to move,
castling rights, en passant square, half-move clock).
"""

from __future__ import annotations

import atexit
import re
import shutil
import tempfile
from functools import lru_cache
from pathlib import Path

from tgpl.runtime import Move, State, load_game

ROOT = Path(__file__).resolve().parents[2]
CHESS = ROOT / "examples" / "chess"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
PROMOTION = {"Queen": "q", "Rook": "r", "Bishop": "b", "Knight": "n"}
SQUARES = {"__"} | {side + piece for side in "wb" for piece in "KQRBNP"}
LETTER = {"King": "k", "Queen": "q", "Rook": "r", "Bishop": "b", "Knight": "n", "Pawn": "p"}

_tmp = Path(tempfile.mkdtemp(prefix="tgpl-chess-"))
atexit.register(shutil.rmtree, _tmp, True)


def _grid(placement: str) -> str:
    rows = []
    for row in placement.split("/"):
        cells = []
        for ch in row:
            if ch.isdigit():
                cells += ["__"] * int(ch)
            else:
                cells.append(("w" if ch.isupper() else "b") + ch.upper())
        assert len(cells) == 8, row
        rows.append("            " + ", ".join(cells) + ";")
    return "\n".join(rows)


def source_for(fen: str) -> str:
    """The text of chess.tgpl set up for `fen`."""
    placement, side, castling, ep, halfmove, *_ = fen.split() + ["0", "1"]
    text = (CHESS / "chess.tgpl").read_text(encoding="utf-8")
    text, n = re.subn(r"(grid\s*\{\n)(.*?)(\n\s*\})", lambda m: m.group(1) + _grid(placement) + m.group(3),
                      text, count=1, flags=re.S)
    assert n == 1
    extra = []
    # castling rights live on the home squares (Chess.Squares from a1): the king's, and each rook's
    homes = {"K": 7, "Q": 0, "k": 63, "q": 56, "KQ": 4, "kq": 60}
    for flags, index in homes.items():
        if not any(flag in castling for flag in flags):
            extra.append(f"    Chess.Squares[{index}].Unmoved = false;")
    if ep != "-":
        index = (int(ep[1]) - 1) * 8 + "abcdefgh".index(ep[0])
        extra.append(f"    Chess.EnPassant = Chess.Squares[{index}];")
    extra.append(f"    Chess.Quiet = {int(halfmove)};")
    text = text.replace("    turn.use(", "\n".join(extra) + "\n    turn.use(", 1)
    if side == "b":
        text = text.replace('turn.pass(0, "MovePhase");', 'turn.pass(1, "MovePhase");', 1)
    return text


@lru_cache(maxsize=None)
def game_for(fen: str = START):
    if fen == START:
        return load_game(CHESS / "chess.tgpl")
    folder = _tmp / f"p{abs(hash(fen))}"
    folder.mkdir(exist_ok=True)
    shutil.copy(CHESS / "rules.tgpl", folder / "rules.tgpl")
    (folder / "chess.tgpl").write_text(source_for(fen), encoding="utf-8")
    return load_game(folder / "chess.tgpl")


def chess_perft(board, depth: int) -> int:
    """Leaves of python-chess's legal-move tree from `board` (a chess.Board, pushed and popped)."""
    if depth == 1:
        return board.legal_moves.count()
    n = 0
    for move in board.legal_moves:
        board.push(move)
        n += chess_perft(board, depth - 1)
        board.pop()
    return n


def state_for(fen: str = START) -> State:
    return game_for(fen).initial_state()


def square_name(tile_name: str) -> str:
    """`Board[4][6]` -> `e2` (Board[file][row], row 0 = rank 8)."""
    f, r = map(int, re.fullmatch(r"Board\[(\d)\]\[(\d)\]", tile_name).groups())
    return "abcdefgh"[f] + str(8 - r)


def to_uci(state: State, move: Move) -> str:
    """`Seat#0.Move(from: Board[4][6], to: Board[4][4])` -> `e2e4`, read against the state the move is legal in."""
    inputs = dict(move.inputs)
    uci = square_name(inputs["from"][1]) + square_name(inputs["to"][1])
    if "piece" in inputs:
        uci += PROMOTION[inputs["piece"][1]]
    return uci


def uci_moves(state: State) -> dict[str, Move]:
    out = {}
    for m in state.legal_moves():
        uci = to_uci(state, m)
        assert uci not in out, f"two TGPL moves for {uci}"
        out[uci] = m
    return out


def placement(state: State) -> str:
    """The FEN piece placement of the state's board."""
    board = [["."] * 8 for _ in range(8)]
    for o in state.world.objects:
        fields = state.world.fields(o)
        kind = fields.get("Piece")
        if o.cls.name in SQUARES and kind is not None:
            sq = square_name(o.name)
            letter = LETTER[kind.cls.name]
            board[8 - int(sq[1])]["abcdefgh".index(sq[0])] = letter.upper() if fields["Side"] == 0 else letter
    rows = []
    for row in board:
        text, empty = "", 0
        for c in row:
            if c == ".":
                empty += 1
            else:
                text += (str(empty) if empty else "") + c
                empty = 0
        rows.append(text + (str(empty) if empty else ""))
    return "/".join(rows)


def perft(state: State, depth: int) -> int:
    if depth == 0:
        return 1
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(state.apply(m), depth - 1) for m in moves)
