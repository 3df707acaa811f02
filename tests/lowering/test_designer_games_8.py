"""Lines of Action on a 5 x 5 board (tests/data/designers/loa.tgpl), written as a designer writes it from the
rule sheet, in a style the tool was not tuned to: the number of squares a piece moves is a function counting the
pieces on the line with a loop (`LineCount`), the win a recursive function (`Linked`: a chain of touching pieces
of at most `steps` steps, every piece linked to the first one found), a pass only when the player cannot move
(`CanMove`, a loop over every piece and direction), and a 60-turn cap.

The runtime is checked against an independent Python model written from the same rules (perft and seeded plays
to the end); then its lowering. The designer's first win check, a flood fill over a local list grown while it is
walked, is refused at that loop (`test_a_flood_over_a_growing_list_is_refused_at_its_loop`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from differential import ends_as
from tgpl.cli import main
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game

DIRS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]
START = {**{(k, 0): 0 for k in (1, 2, 3)}, **{(k, 4): 0 for k in (1, 2, 3)},
         **{(0, k): 1 for k in (1, 2, 3)}, **{(4, k): 1 for k in (1, 2, 3)}}
CAP = 60


def on(x: int, y: int) -> bool:
    return 0 <= x < 5 and 0 <= y < 5


def loa_moves(board: dict, p: int) -> list:
    """Every move (from, to) of seat p, or ["pass"] when it has none."""
    out = []
    for (x, y), owner in sorted(board.items()):
        if owner != p:
            continue
        for dx, dy in DIRS:
            n = sum(1 for k in range(-4, 5) if (x + k * dx, y + k * dy) in board)
            tx, ty = x + n * dx, y + n * dy
            if not on(tx, ty) or board.get((tx, ty)) == p:
                continue
            if any(board.get((x + k * dx, y + k * dy), p) != p for k in range(1, n)):
                continue
            out.append(((x, y), (tx, ty)))
    return out or ["pass"]


def connected(board: dict, p: int) -> bool:
    mine = {s for s, o in board.items() if o == p}
    if not mine:
        return False
    todo, seen = [min(mine)], {min(mine)}
    while todo:
        x, y = todo.pop()
        for dx, dy in DIRS:
            t = (x + dx, y + dy)
            if t in mine and t not in seen:
                seen.add(t)
                todo.append(t)
    return seen == mine


def loa_apply(board: dict, p: int, turns: int, m) -> tuple[dict, object]:
    """The board after move m of seat p at turn `turns` (0 for the first), and the result: None while the game
    goes on, a seat, or "draw"."""
    b = dict(board)
    if m != "pass":
        a, t = m
        b[t] = b.pop(a)
    if connected(b, p):
        return b, p
    if connected(b, 1 - p):
        return b, 1 - p
    return b, "draw" if turns + 1 >= CAP else None


def loa_text(p: int, m) -> str:
    if m == "pass":
        return f"Seat#{p}.Pass()"
    (a, b), (c, d) = m
    return f"Seat#{p}.Move(from: Cells[{a}][{b}], to: Cells[{c}][{d}])"


def test_loa_move_tree_is_the_models():
    """Every legal move and every end with its winner, to depth 3 from the start."""
    g = load_game(game("loa"))

    def walk(state, board, p, turns, depth):
        moves = loa_moves(board, p)
        assert sorted(m.text for m in state.legal_moves()) == sorted(loa_text(p, m) for m in moves)
        if depth == 0:
            return 1
        n = 0
        for m in moves:
            b2, result = loa_apply(board, p, turns, m)
            s2 = state.apply(state.move_by_text(loa_text(p, m)))
            assert s2.is_terminal == (result is not None)
            n += 1 if result is not None else walk(s2, b2, 1 - p, turns + 1, depth - 1)
        return n

    counts = [walk(g.initial_state(), START, 0, 0, d) for d in (1, 2, 3)]
    assert counts[0] == 18
    assert counts == sorted(counts) and counts[2] > counts[1] > counts[0]


def play(seed: int):
    """A seeded play on the runtime beside the model, legal moves equal at every step; its result."""
    g = load_game(game("loa"))
    state, board, p, rng = g.initial_state(), dict(START), 0, Lcg(seed)
    for turns in range(CAP):
        moves = loa_moves(board, p)
        assert sorted(m.text for m in state.legal_moves()) == sorted(loa_text(p, m) for m in moves)
        m = moves[rng.below(len(moves))]
        state = state.apply(state.move_by_text(loa_text(p, m)))
        board, result = loa_apply(board, p, turns, m)
        if result is not None:
            ends_as(state, result)
            return result
        assert not state.is_terminal
        p = 1 - p
    raise AssertionError("the model's game did not end within the cap")


ENDS = {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 0, 7: 1, 8: 1, 9: 1, 10: 1, 42: "draw", 62: 1}
"""Each seed's result by the model: seed 6 won by Black; 8 (at the last turn) and 62 by a move of White's that
connects both sides (the mover wins); 42 the draw at the 60-turn cap."""


@pytest.mark.parametrize("seed", sorted(ENDS))
def test_loa_plays_to_the_models_end(seed):
    assert play(seed) == ENDS[seed]


def test_a_recursion_in_play_is_a_walk_whose_moves_auto_compiles():
    """`Linked` calls itself: play walks the board (lower.walks_in_play, as a `while` does), and Move has 625 ways
    to fill its inputs, more than WALKED_MOVES, so `auto` compiles the moves; the flood's `while` does the same."""
    from tgpl.lowering.lower import WALKED_MOVES, moves_strategy, walks_in_play
    from tgpl.pipeline import start_snapshot
    from tgpl.lowering.universe import Universe

    g = load_game(game("loa"))
    assert walks_in_play(g.program) and 625 > WALKED_MOVES
    assert moves_strategy(g.program, Universe.from_snapshot(start_snapshot(g))) == (
        "compiled", "an action has 625 ways to fill its inputs, more than 64, and play walks the board with while or "
                    "recursion")
    assert not walks_in_play(load_game(str(Path(__file__).resolve().parents[2] / "examples" / "tris.tgpl")).program)


def test_loa_lowers_compiled_validated_and_passes_check_gdl(tmp_path):
    """`Linked` recurses over the board, so `auto` compiles the 625 ways to fill Move's inputs (lower.walks_in_play;
    spelled out, 24,578 rules and 9.6 MB). Validated by plays to the end of the game, at least 1,000 steps; its
    bound is past --max-ground, so it is checked, and played, one state at a time, as its header says."""
    out = tmp_path / "loa.kif"
    r = CliRunner().invoke(main, ["to-gdl", game("loa"), "-o", str(out)])
    assert r.exit_code == 0, r.output
    head = out.read_text().splitlines()[:4]
    assert head[1].startswith("; validated: ") and "to the end of the game" in head[1], head
    assert int(head[1].split(" steps compared")[0].rsplit(" ", 1)[1].replace(",", "")) >= 1000, head
    assert "its moves compiled" in head[2] and "--grounding per-state" in head[3], head
    r = CliRunner().invoke(main, ["check-gdl", "--grounding", "per-state", str(out)])
    assert r.exit_code == 0, r.output


def test_a_flood_seeded_by_a_count_lowers_and_validates(tmp_path):
    """The designer's first win check (tests/data/designers/loa_flood.tgpl): a flood that walks a local list while it
    adds to it, seeded by the first piece a scan of the board finds, its size compared with the scan's count. The
    scan visits each square once (evaluated over the static board), so the check is "every piece is reached from
    the first", one scan asking a recursive search, as loa.tgpl's `Linked` (language decision 114,
    tgpl.lowering.flood_counts), five steps deep: no player ever has more than its six pieces of the start
    (tgpl.lowering.held_counts; the 25 squares' bound, 24, cost about five times the CPU and four times the
    memory). Validated by plays to the end of the game, at least 1,000 steps."""
    out = tmp_path / "loa_flood.kif"
    r = CliRunner().invoke(main, ["to-gdl", game("loa_flood"), "-o", str(out)])
    assert r.exit_code == 0, r.output
    head = out.read_text().splitlines()[:4]
    assert head[1].startswith("; validated: ") and "to the end of the game" in head[1], head
    assert int(head[1].split(" steps compared")[0].rsplit(" ", 1)[1].replace(",", "")) >= 1000, head
