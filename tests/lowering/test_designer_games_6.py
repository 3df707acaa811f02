"""Two games written as designers write them: Mini Pentago (below) and the Game of the Amazons on 4 x 4 (tests/data/designers/amazons.tgpl), written as a designer writes it from
the rule sheet, in a style the tool was not tuned to: a move with three inputs (the amazon, where it goes,
where its arrow lands), each later filter reading the earlier inputs; a queen line walked by a recursive
function (`Open` calls itself on the next square); the amazons interactables whose owner is read through the
square that holds them (`s.Queen.player`); the loser the player left without a move, judged in the effect.

The runtime is checked against an independent Python model (perft and seeded plays to the end); then its
lowering. `CanMove` reads the owner of an object known only at run time: as rules with variables that is a
static table from each amazon to its owner (once refused, "'player' of an object known at run time")."""

from __future__ import annotations

import pytest

from differential import plays_to_the_models_end
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game

QUEEN = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]
START = ({(1, 0): 0, (2, 3): 0, (0, 2): 1, (3, 1): 1}, frozenset(), 0)


def line(queens: dict, burnt: frozenset, a: tuple, gone: tuple | None) -> list[tuple]:
    """The squares a queen at `a` reaches over free squares (`gone` is free again)."""
    out = []
    for dx, dy in QUEEN:
        x, y = a[0] + dx, a[1] + dy
        while 0 <= x < 4 and 0 <= y < 4 and ((x, y) == gone or ((x, y) not in queens and (x, y) not in burnt)):
            out.append((x, y))
            x, y = x + dx, y + dy
    return out


def model_moves(state) -> list[tuple]:
    queens, burnt, p = state
    moves = []
    for a, owner in queens.items():
        if owner != p:
            continue
        for b in line(queens, burnt, a, None):
            rest = {k: v for k, v in queens.items() if k != a}
            rest[b] = p
            moves += [(a, b, c) for c in line(rest, burnt, b, a)]
    return moves


def model_apply(state, m: tuple):
    """The next state, and the winner (None while the game goes on)."""
    queens, burnt, p = state
    a, b, c = m
    q = {k: v for k, v in queens.items() if k != a}
    q[b] = p
    nxt = (q, burnt | {c}, 1 - p)
    return nxt, (p if not model_moves(nxt) else None)


def model_text(p: int, m: tuple) -> str:
    a, b, c = (f"Cells[{x}][{y}]" for x, y in m)
    return f"Seat#{p}.Move(from: {a}, to: {b}, arrow: {c})"


def test_amazons_move_tree_is_the_models():
    """Every legal move, every end and its winner, to depth 2 everywhere and depth 4 along seeded lines."""
    g = load_game(game("amazons"))

    def walk(state, model, depth):
        assert sorted(m.text for m in state.legal_moves()) == sorted(model_text(model[2], m) for m in model_moves(model))
        if depth == 0:
            return 1
        n = 0
        for m in model_moves(model):
            nxt, won = model_apply(model, m)
            s2 = state.apply(state.move_by_text(model_text(model[2], m)))
            assert s2.is_terminal == (won is not None)
            n += 1 if won is not None else walk(s2, nxt, depth - 1)
        return n

    assert [walk(g.initial_state(), START, d) for d in (1, 2)] == [122, sum(
        len(model_moves(model_apply(START, m)[0])) for m in model_moves(START))]


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6, 7, 8])
def test_amazons_plays_to_the_models_end(seed):
    plays_to_the_models_end(load_game(game("amazons")).initial_state(), START, Lcg(seed), model_moves, model_apply,
                            lambda model, m: model_text(model[2], m), None)


# --- Mini Pentago ----------------------------------------------------------------------------------------
# tests/data/designers/pentago.tgpl: a move of three inputs (a square, one of four blocks, a direction), a
# quarter turn written with four locals, the judge a phase after every move (a draw when both colours line up).
# It plays as the model does, and lowers: the twist copies marbles round a block (`a.Marble = vd`), so the sixteen
# `Marble`s are ranged by their closure (segments.copy_ranges) and left out of the range searches, which had
# searched every board (not done in 400 s; now 4.5 s user for the whole lowering).

PENTAGO_LINES = ([[(x, y) for x in range(4)] for y in range(4)] + [[(x, y) for y in range(4)] for x in range(4)]
                 + [[(k, k) for k in range(4)], [(k, 3 - k) for k in range(4)]])


def pentago_apply(board: dict, p: int, m: tuple) -> tuple[dict, object]:
    """The board after move m = (square, block, clockwise) of seat p, and the result: None while the game goes
    on, a seat, or "draw"."""
    (x, y), k, cw = m
    b = dict(board)
    b[(x, y)] = p + 1
    left, top = (k % 2) * 2, k - k % 2
    ring = [(left, top), (left + 1, top), (left + 1, top + 1), (left, top + 1)]
    old = [b[s] for s in ring]
    for i, s in enumerate(ring):
        b[s] = old[(i - 1) % 4] if cw else old[(i + 1) % 4]
    lines = {c for c in (1, 2) if any(all(b[s] == c for s in line) for line in PENTAGO_LINES)}
    if len(lines) == 2:
        return b, "draw"
    if lines:
        return b, next(iter(lines)) - 1
    return b, "draw" if all(b.values()) else None


def pentago_moves(board: dict) -> list[tuple]:
    return [((x, y), k, cw) for x in range(4) for y in range(4) if not board[(x, y)] for k in range(4)
            for cw in (False, True)]


def pentago_text(p: int, m: tuple) -> str:
    (x, y), k, cw = m
    return f"Seat#{p}.Play(at: Spots[{x}][{y}], twist: Block#{k}, clockwise: {'true' if cw else 'false'})"


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_pentago_plays_to_the_models_end(seed):
    def apply(model: tuple, m: tuple) -> tuple:
        """The model (board, seat to move) after m, and the result."""
        board, result = pentago_apply(*model, m)
        return (board, 1 - model[1]), result

    empty = {(x, y): 0 for x in range(4) for y in range(4)}
    plays_to_the_models_end(load_game(game("pentago")).initial_state(), (empty, 0), Lcg(seed),
                            lambda model: pentago_moves(model[0]), apply,
                            lambda model, m: pentago_text(model[1], m), None)


def test_pentago_lowers_validated_and_passes_check_gdl(tmp_path):
    from test_designer_games_4 import lowers_validated

    lowers_validated(tmp_path, "pentago")
