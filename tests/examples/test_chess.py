"""examples/chess: chess in TGPL, checked against python-chess (a test-only oracle).

Move generation is compared as sets of UCI moves: perft-style trees from the
initial position and standard perft positions, and positions reached by
random play. The end of the game (checkmate, stalemate, fifty-move rule) and
promotion are checked directly.
"""

from __future__ import annotations

import pytest

from chess_fen import KIWIPETE, START, game_for, perft, placement, state_for, to_uci, uci_moves
from example_harness import cli
from tgpl.frontend.loader import load_program
from tgpl.runtime.rng import Pcg32

chess = pytest.importorskip("chess")

POSITION3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
POSITION4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"  # promotions, pins
POSITION5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
POSITION6 = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"


def compare_tree(state, board, depth: int) -> int:
    """Compare the legal moves with python-chess's down to `depth`; return the leaf count."""
    mine = uci_moves(state)
    theirs = {m.uci() for m in board.legal_moves}
    assert set(mine) == theirs, (board.fen(), sorted(set(mine) - theirs), sorted(theirs - set(mine)))
    assert placement(state) == board.board_fen()
    if depth == 1:
        return len(mine)
    total = 0
    for uci, move in mine.items():
        board.push_uci(uci)
        total += compare_tree(state.apply(move), board, depth - 1)
        board.pop()
    return total


def test_check_clean():
    program = load_program("examples/chess/chess.tgpl")
    assert [d.message for d in program.diagnostics] == []
    result = cli("check", "examples/chess/chess.tgpl")
    assert result.exit_code == 0 and result.stdout == "examples/chess/chess.tgpl: ok\n"


def test_initial_moves():
    state = state_for()
    assert state.active_player == 0
    moves = uci_moves(state)
    assert len(moves) == 20
    assert moves["e2e4"].text == "Seat#0.Move(from: Board[4][6], to: Board[4][4])"
    assert moves["g1f3"].text == "Seat#0.Move(from: Board[6][7], to: Board[5][5])"


@pytest.mark.parametrize("fen, depth, count", [
    (START, 1, 20),
    (START, 2, 400),
    (START, 3, 8902),
    (KIWIPETE, 1, 48),
    (KIWIPETE, 2, 2039),
    (POSITION3, 1, 14),
    (POSITION3, 2, 191),
    (POSITION3, 3, 2812),
    (POSITION4, 1, 6),
    (POSITION4, 2, 264),
    (POSITION5, 1, 44),
    (POSITION5, 2, 1486),
    (POSITION6, 1, 46),
    (POSITION6, 2, 2079),
])
def test_perft_against_python_chess(fen, depth, count):
    assert compare_tree(state_for(fen), chess.Board(fen), depth) == count


def test_perft_function():
    assert perft(state_for(POSITION3), 2) == 191


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_random_games_match_python_chess(seed):
    """About 100 random plies: every position's legal moves and board agree."""
    rng = Pcg32(seed)
    state, board = state_for(), chess.Board()
    for _ in range(100):
        assert placement(state) == board.board_fen()
        if board.is_checkmate() or board.is_stalemate() or board.halfmove_clock >= 100:
            break
        assert not state.is_terminal
        assert state.active_player == (0 if board.turn else 1)
        mine = uci_moves(state)
        assert set(mine) == {m.uci() for m in board.legal_moves}, board.fen()
        uci = sorted(mine)[rng.below(len(mine))]
        state = state.apply(mine[uci])
        board.push_uci(uci)
    assert state.is_terminal == (board.is_checkmate() or board.is_stalemate() or board.halfmove_clock >= 100)


def play(state, *ucis):
    for uci in ucis:
        state = state.apply(uci_moves(state)[uci])
    return state


def test_fools_mate():
    state = play(state_for(), "f2f3", "e7e5", "g2g4")
    assert not state.is_terminal
    state = play(state, "d8h4")
    assert state.is_terminal
    assert state.ranking == [[1]] and state.goals == [0, 100]
    assert state.legal_moves() == []


def test_stalemate_is_a_draw():
    state = play(state_for("k7/8/3Q4/8/8/8/8/K7 w - - 0 1"), "d6c7")
    assert chess.Board("k7/2Q5/8/8/8/8/8/K7 b - - 1 1").is_stalemate()
    assert state.is_terminal
    assert state.ranking == [[0, 1]] and state.goals == [50, 50]


def test_check_is_not_mate():
    state = play(state_for("k7/8/8/8/8/8/8/KQ6 w - - 0 1"), "b1b8")
    assert not state.is_terminal            # the king takes the unprotected queen
    assert set(uci_moves(state)) == {"a8b8"}


def test_fifty_move_rule():
    state = state_for("k7/8/8/8/8/8/8/KQ6 w - - 99 80")
    pushed = play(state, "b1b2")        # a quiet move: the 100th half-move
    assert pushed.is_terminal and pushed.ranking == [[0, 1]]
    state = state_for("k7/8/8/8/8/8/1p6/KQ6 w - - 99 80")
    captured = play(state, "b1b2")      # a capture resets the count
    assert not captured.is_terminal


def test_promotion_offers_the_pieces():
    state = state_for("8/P6k/8/8/8/8/8/K7 w - - 0 1")
    texts = [m.text for m in state.legal_moves() if m.action == "Promote"]
    assert texts == [f"Seat#0.Promote(from: Board[0][1], to: Board[0][0], piece: {p})"
                     for p in ("Queen", "Rook", "Bishop", "Knight")]
    knighted = state.apply(texts[3])
    assert placement(knighted) == "N7/7k/8/8/8/8/8/K7"
    assert knighted.active_player == 1
    # the new knight moves as a knight
    after = play(knighted, "h7h6")
    assert {"a8b6", "a8c7"} <= set(uci_moves(after))


def test_castling_and_en_passant():
    state = play(state_for(KIWIPETE), "e1g1")
    assert placement(state) == "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R4RK1"
    assert "e8c8" in uci_moves(state)
    state = play(state, "e8c8")
    assert placement(state).startswith("2kr3r/")
    # en passant: a2a4 lets the b4 pawn take on a3
    state = play(state_for(KIWIPETE), "a2a4")
    assert "b4a3" in uci_moves(state)
    assert placement(play(state, "b4a3")) == "r3k2r/p1ppqpb1/bn2pnp1/3PN3/4P3/p1N2Q1p/1PPBBPPP/R3K2R"
    # the king may not cross or land on an attacked square; the rook may
    assert {"e1g1", "e1c1"} & set(uci_moves(state_for("3rk3/8/8/8/8/8/8/R3K2R w KQ - 0 1"))) == {"e1g1"}
    assert {"e1g1", "e1c1"} & set(uci_moves(state_for("2r1k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"))) == {"e1g1"}
    assert {"e1g1", "e1c1"} <= set(uci_moves(state_for("1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1")))
    # nor castle out of check
    assert {"e1g1", "e1c1"} & set(uci_moves(state_for("4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1"))) == set()
    # a king move ends both rights, a rook move one
    state = play(state_for("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"), "h1h2", "e8e7", "h2h1", "e7e8")
    assert {"e1g1", "e1c1"} & set(uci_moves(state)) == {"e1c1"}
    assert {"e8g8", "e8c8"} & set(uci_moves(play(state, "e1c1"))) == set()
    # capturing a rook on its corner ends that right
    fen = "r3k2r/8/8/8/8/8/6B1/R3K2R w KQkq - 0 1"
    state, board = play(state_for(fen), "g2a8"), chess.Board(fen)
    board.push_uci("g2a8")
    assert set(uci_moves(state)) == {m.uci() for m in board.legal_moves}
    assert {"e8g8", "e8c8"} & set(uci_moves(state)) == {"e8g8"}


def test_move_text_converts_to_uci():
    state = state_for(POSITION4)
    promos = sorted(to_uci(state, m) for m in state.legal_moves() if m.action == "Promote")
    assert promos == []  # b2 is Black's pawn; White is to move
    black = play(state, "c4c5")
    assert {"b2a1q", "b2a1r", "b2a1b", "b2a1n"} <= set(uci_moves(black))
    assert game_for(POSITION4) is game_for(POSITION4)


@pytest.mark.parametrize("seed", [2, 3, 8])  # a fifty-move draw, two checkmates
def test_whole_random_game_matches_python_chess(seed):
    """A random game to its end: same moves all along, same outcome."""
    rng = Pcg32(seed)
    state, board = state_for(), chess.Board()
    while not state.is_terminal:
        mine = uci_moves(state)
        assert set(mine) == {m.uci() for m in board.legal_moves}, board.fen()
        uci = sorted(mine)[rng.below(len(mine))]
        state = state.apply(mine[uci])
        board.push_uci(uci)
        assert placement(state) == board.board_fen()
        if board.halfmove_clock >= 100 and not board.is_checkmate():
            assert state.is_terminal and state.ranking == [[0, 1]]   # the fifty-move rule
    if board.is_checkmate():
        assert state.ranking == [[0 if board.turn == chess.BLACK else 1]]
    else:
        assert board.is_stalemate() or board.halfmove_clock >= 100
        assert state.ranking == [[0, 1]]


def test_record_and_replay(tmp_path):
    out = tmp_path / "game.json"
    result = cli("play", "examples/chess/chess.tgpl", "--players", "random,random", "--seed", "6",
                 "--record", str(out), "--quiet")
    assert result.exit_code == 0, result.output
    assert "winner: player 1" in result.stdout
    result = cli("replay", str(out))
    assert result.exit_code == 0, result.output
    assert "ok, 50 moves" in result.stdout
