"""A Fanorona on 5 x 5 points, written as a designer writes it (tests/data/designers/fanorona5.tgpl): three
actions (`Approach`, `Withdraw`, `Paika`) each pick a stone and a neighbouring point along a line (diagonals
only from the strong points, x + y even); the direction is the pair dx, dy of the step, and the captured line is
walked by a `while` in a global function (`TakeLine`) from the first enemy stone on until an empty point, a stone
of the mover or the edge; capture is compulsory (Paika's `require` scans the board), one capture a turn; the last
enemy stone taken or an enemy left without a step wins, and after 40 moves the side with more stones wins.

The runtime is checked against an independent model (the points as a tuple, captures found by stepping along the line)
on the move tree's first levels, set positions and seeded plays to their end. Then the lowering as a designer tries
it. `TakeLine`'s `while` reads 'Stone', which it writes; its direction is a number, which the evaluation cannot
list, so its passes are bounded from its callers, `Approach` and `Withdraw`, on the pairs of points their filters
admit (tgpl.lowering.while_passes): 3 passes, and the moves compile, as they do for the designer's rewrite as a
counted loop (fanorona5_counted.tgpl, 4 passes); the dry run says both lower. `to-gdl` lowers fanorona5 so (measured
once on a loaded two-core machine, not pinned here: 403 rules with a body, validated by 44 playouts, 1,006 steps,
31 s of CPU): its check of base and input grounds the relaxed game with each unrelated join of a body apart
(tgpl.asp.cross_products; 127 s of clingo before). fanorona5_counted lowers too, slower
(1,378 rules, about 90 s of CPU: its four passes to fanorona5's three; clingo's relaxations of the compiled moves are about 10 s of it, the rest spread over the passes that finish the rules and the check). Before the bound, `auto` spelled the moves out and was refused after 31 s of CPU at
conditions of more than 3,000,000 parts in phase `Judge`."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from differential import (checks_clean_and_plays, model_end, model_perft, model_results, played_beside,
                          model_steps, plays_to_the_models_end, runtime_perft)
from tgpl.cli import main
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game

SIZE = 5
MIDDLE = (1, 0, None, 1, 0)
# the model's state: ((each point's stone, row by row: None, 0 or 1), moves made), the seat to move
START = ((tuple(1 if y < 2 else 0 if y > 2 else MIDDLE[x] for y in range(SIZE) for x in range(SIZE)), 0), 0)


def stone(stones, x: int, y: int):
    """The stone on (x, y): None when empty or off the board."""
    return stones[y * SIZE + x] if 0 <= x < SIZE and 0 <= y < SIZE else None


def steps(stones, who: int):
    """Every step of `who`'s stones to an empty neighbour along a line: ((x, y), (dx, dy))."""
    for y in range(SIZE):
        for x in range(SIZE):
            if stone(stones, x, y) != who:
                continue
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    diagonal_ok = (x + y) % 2 == 0 or dx == 0 or dy == 0
                    u, v = x + dx, y + dy
                    if (dx or dy) and diagonal_ok and 0 <= u < SIZE and 0 <= v < SIZE and stone(stones, u, v) is None:
                        yield (x, y), (dx, dy)


def enemy(stones, x: int, y: int, who: int) -> bool:
    return stone(stones, x, y) == 1 - who


def model_moves(state):
    """Captures when there are any (an approach and a withdrawal of one step are two moves), else plain steps."""
    (stones, _), who = state
    captures = []
    for (x, y), (dx, dy) in steps(stones, who):
        if enemy(stones, x + 2 * dx, y + 2 * dy, who):
            captures.append(("Approach", (x, y), (x + dx, y + dy)))
        if enemy(stones, x - dx, y - dy, who):
            captures.append(("Withdraw", (x, y), (x + dx, y + dy)))
    if captures:
        return captures
    return [("Paika", (x, y), (x + dx, y + dy)) for (x, y), (dx, dy) in steps(stones, who)]


def model_apply(state, move):
    """The next state and the result: the winner, "draw", or None."""
    (stones, made), who = state
    kind, (x, y), (u, v) = move
    dx, dy = u - x, v - y
    board = list(stones)
    board[y * SIZE + x], board[v * SIZE + u] = None, who
    if kind == "Approach":
        px, py, sx, sy = u + dx, v + dy, dx, dy
    elif kind == "Withdraw":
        px, py, sx, sy = x - dx, y - dy, -dx, -dy
    if kind != "Paika":
        while enemy(board, px, py, who):
            board[py * SIZE + px] = None
            px, py = px + sx, py + sy
    stones, made = tuple(board), made + 1
    nxt = ((stones, made), 1 - who)
    if (1 - who) not in stones or not any(True for _ in steps(stones, 1 - who)):
        return nxt, who
    if made >= 40:
        a, b = stones.count(0), stones.count(1)
        return nxt, 0 if a > b else 1 if b > a else "draw"
    return nxt, None


def model_text(state, move) -> str:
    kind, (x, y), (u, v) = move
    return f"Side#{state[1]}.{kind}(from: Grid[{x}][{y}], to: Grid[{u}][{v}])"


def observed(state) -> tuple:
    w = state.world
    stones = tuple(w.fields(w.named(f"Grid[{x}][{y}]"))["Stone"] for y in range(SIZE) for x in range(SIZE))
    return stones, int(w.fields(w.named("GameState"))["Plies"])


def test_fanorona5_checks_clean_and_plays_to_its_end():
    checks_clean_and_plays(game("fanorona5"))


def test_fanorona5_move_tree_is_the_models():
    start = load_game(game("fanorona5")).initial_state(0)
    assert observed(start) == START[0]
    model = [model_perft(model_moves, model_apply, START, d) for d in range(1, 4)]
    # into the centre from (1,2): approach takes (3,2), withdrawal takes (0,2); from (1,3), (2,3), (3,3): approach
    assert sorted(model_moves(START)) == sorted([("Approach", (1, 2), (2, 2)), ("Withdraw", (1, 2), (2, 2)),
                                                 ("Approach", (1, 3), (2, 2)), ("Approach", (2, 3), (2, 2)),
                                                 ("Approach", (3, 3), (2, 2))])
    assert [runtime_perft(start, d) for d in range(1, 4)] == model


def play(moves):
    """The moves played on the runtime and the model side by side (`played_beside`) from the start."""
    return played_beside(load_game(game("fanorona5")).initial_state(0), START, moves, model_apply, model_text, observed)


def test_an_approach_takes_the_line_up_to_the_first_gap():
    """(2,3) steps up into the centre: (2,1) and (2,0) of the enemy go, the line walked to the edge."""
    _, model, _ = play([("Approach", (2, 3), (2, 2))])
    stones = model[0][0]
    assert stone(stones, 2, 1) is None and stone(stones, 2, 0) is None and stone(stones, 2, 2) == 0
    assert stones.count(1) == 10 and stones.count(0) == 12


def test_a_withdrawal_takes_the_line_behind_and_stops_at_the_own_stone():
    """(1,2) withdraws to the centre: (0,2) goes; the approach from there would have taken (3,2) and stopped at
    (4,2), the mover's own stone."""
    _, model, _ = play([("Withdraw", (1, 2), (2, 2))])
    assert stone(model[0][0], 0, 2) is None and stone(model[0][0], 3, 2) == 1
    _, model, _ = play([("Approach", (1, 2), (2, 2))])
    assert stone(model[0][0], 3, 2) is None and stone(model[0][0], 4, 2) == 0


@pytest.mark.parametrize("seed", range(12))
def test_fanorona5_plays_to_the_models_end(seed):
    plays_to_the_models_end(load_game(game("fanorona5")).initial_state(0), START, Lcg(seed), model_moves,
                            model_apply, model_text, observed)


def test_the_seeded_plays_end_more_than_one_way_and_some_use_paika():
    """Both seats win among the plays above; some play makes a plain step (no capture anywhere), and some ends
    before the 40th move."""
    assert {0, 1} <= model_results(model_moves, model_apply, START, map(Lcg, range(12)))
    paika, early = False, False
    for seed in range(12):
        for m, state, _ in model_steps(model_moves, model_apply, START, Lcg(seed)):
            paika |= m[0] == "Paika"
        early |= state[0][1] < 40
    assert paika and early


@pytest.mark.parametrize("seed", range(3))
def test_the_counted_copy_plays_as_the_model(seed):
    plays_to_the_models_end(load_game(game("fanorona5_counted")).initial_state(0), START, Lcg(seed), model_moves,
                            model_apply, model_text, observed)


def test_the_dry_run_says_fanorona5_and_its_counted_copy_lower_compiled():
    """`TakeLine`'s `while` is bounded from its callers (tgpl.lowering.while_passes): run from `Approach` and
    `Withdraw` on every pair of points their filters admit, with the direction they compute, it takes at most 3
    passes, and the moves compile as they do for the counted copy. Neither dry run has run the relaxation by
    clingo, which is what takes `to-gdl` past issue 34's 30 s on both (the check of the GDL's base and input)."""
    r = CliRunner().invoke(main, ["check", "--lowerable", game("fanorona5")])
    assert r.exit_code == 0, r.output
    assert "fanorona5.tgpl: lowers; its moves compiled once (a loop writes the state)" in r.output, r.output
    r = CliRunner().invoke(main, ["check", "--lowerable", game("fanorona5_counted")])
    assert r.exit_code == 0, r.output
    assert "fanorona5_counted.tgpl: lowers; its moves compiled once (a loop writes the state)" in r.output
