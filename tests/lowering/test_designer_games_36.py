"""A Tak on 4 x 4 squares with stacks, written as a designer writes it (tests/data/designers/tak4.tgpl): each square
holds a `List<player>` of stones, bottom first; a turn places a stone from the hand on an empty square, or spreads a
stack the mover controls (their stone on top): 1 to 4 stones (`Carry` objects, since a number cannot be chosen)
lifted off the top and dropped one a square along a line with a `while`; a road (the mover's squares joined from
one edge to the opposite one) wins, checked by a flood over the squares' `connections` with a list of the squares
seen and a list still to visit (from each edge at once, returning as soon as the far edge is popped); an empty hand,
a full board or 40 moves end the game on the squares controlled.

The runtime is checked against an independent model (stacks as tuples, roads found by growing the set reached from
an edge to a fixed point) on the move tree's first levels, set positions and seeded plays to their end. Then the
lowering as a designer tries it. The dry run, `tgpl to-gdl` (auto) and `--moves compiled` each refuse in 0.8 s of CPU,
located: `removeAt()` on a local list, at the flood's `todo.removeAt` and at the spread's `held.removeAt` (compiled,
also `add()` on the list 'Pieces', which compiled moves do not keep). The hint these refusals gave was the one for
list attributes ("keep lists fixed after setup: a list attribute of objects changed by add/remove ... lowers"),
which says nothing of the flood the lowering does take (language decision 114: one start a walk, a flag for what it
finds, no return from the walk); it now names both rewrites (tgpl/lowering/lowerable.py, HINTS). Followed for the
flood (tak4_road.tgpl: `Reaches(start, ...)` called per edge square), the flood is no longer refused. With the
spread also read by index (`at.Pieces.add(from.Pieces[first + k - 1])`, then `from.Pieces.removeAt(first)` N times)
and 8 stones a hand (a copy not kept: its rules differ), the moves are spelled out
(compiled: 'Pieces' changes) and refused after 23 s of CPU, 150 MB: conditions of more than 3,000,000 parts in
`Controlled`, whose `Top` reads the list 'Pieces' the moves change, the hint asking for the value in a number the
moves change (the square's owner kept as an attribute of its own: not tried)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from differential import (checks_clean_and_plays, model_end, model_perft, model_results, played_beside,
                          plays_to_the_models_end, runtime_perft)
from tgpl.cli import main
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game

SIZE = 4
FOUR = ((1, 0), (-1, 0), (0, 1), (0, -1))
# the model's state: ((each square's stack, row by row, bottom first), (stones in hand), moves made), the seat to move
START = (((),) * SIZE * SIZE, (10, 10), 0), 0


def at(x: int, y: int) -> int:
    return y * SIZE + x


def top(stacks, x: int, y: int):
    s = stacks[at(x, y)]
    return s[-1] if s else None


def road(stacks, who: int) -> bool:
    """Whether `who`'s squares join the left and right edges, or the top and bottom ones."""
    mine = {(x, y) for x in range(SIZE) for y in range(SIZE) if top(stacks, x, y) == who}
    for axis in (0, 1):  # 0: from the left edge to the right one; 1: from the top to the bottom
        reached = {c for c in mine if c[axis] == 0}
        grown = None
        while grown != reached:
            grown = set(reached)
            reached |= {(x + dx, y + dy) for x, y in grown for dx, dy in FOUR if (x + dx, y + dy) in mine}
        if any(c[axis] == SIZE - 1 for c in reached):
            return True
    return False


def model_moves(state):
    (stacks, hands, _), who = state
    moves = []
    if hands[who] > 0:
        moves += [("place", (x, y)) for y in range(SIZE) for x in range(SIZE) if not stacks[at(x, y)]]
    for y in range(SIZE):
        for x in range(SIZE):
            if top(stacks, x, y) != who:
                continue
            for dx, dy in FOUR:
                for n in range(1, min(len(stacks[at(x, y)]), 4) + 1):
                    if 0 <= x + n * dx < SIZE and 0 <= y + n * dy < SIZE:
                        moves.append(("spread", (x, y), (dx, dy), n))
    return moves


def model_apply(state, move):
    """The next state and the result: the winner, "draw", or None."""
    (stacks, hands, made), who = state
    board = [list(s) for s in stacks]
    if move[0] == "place":
        board[at(*move[1])].append(who)
        hands = tuple(h - 1 if s == who else h for s, h in enumerate(hands))
    else:
        _, (x, y), (dx, dy), n = move
        held = board[at(x, y)][-n:]
        del board[at(x, y)][-n:]
        for k, piece in enumerate(held, 1):
            board[at(x + k * dx, y + k * dy)].append(piece)
    stacks, made = tuple(tuple(s) for s in board), made + 1
    nxt = ((stacks, hands, made), 1 - who)
    if road(stacks, who):
        return nxt, who
    if road(stacks, 1 - who):
        return nxt, 1 - who
    if made >= 40 or all(stacks) or 0 in hands:
        a = sum(1 for x in range(SIZE) for y in range(SIZE) if top(stacks, x, y) == 0)
        b = sum(1 for x in range(SIZE) for y in range(SIZE) if top(stacks, x, y) == 1)
        return nxt, 0 if a > b else 1 if b > a else "draw"
    return nxt, None


def model_text(state, move) -> str:
    who = state[1]
    if move[0] == "place":
        return f"Hand#{who}.Place(at: Grid[{move[1][0]}][{move[1][1]}])"
    _, (x, y), (dx, dy), n = move
    return f"Hand#{who}.Spread(from: Grid[{x}][{y}], towards: Grid[{x + dx}][{y + dy}], carry: Carry#{n - 1})"


def observed(state) -> tuple:
    w = state.world
    stacks = tuple(tuple(w.fields(w.named(f"Grid[{x}][{y}]"))["Pieces"]) for y in range(SIZE) for x in range(SIZE))
    hands = tuple(int(w.fields(w.named(f"Hand#{p}"))["Stones"]) for p in (0, 1))
    return stacks, hands, int(w.fields(w.named("GameState"))["Plies"])


def test_tak4_checks_clean_and_plays_to_its_end():
    checks_clean_and_plays(game("tak4"))


def test_tak4_move_tree_is_the_models():
    start = load_game(game("tak4")).initial_state(0)
    assert observed(start) == START[0]
    model = [model_perft(model_moves, model_apply, START, d) for d in range(1, 4)]
    assert model[:2] == [16, 16 * 15]
    assert [runtime_perft(start, d) for d in range(1, 4)] == model


def play(moves):
    """The moves played on the runtime and the model side by side (`played_beside`) from the start."""
    return played_beside(load_game(game("tak4")).initial_state(0), START, moves, model_apply, model_text, observed)


def test_a_spread_drops_the_bottom_stone_first():
    """Light moves onto dark's stone on (0,1), then lifts both and spreads them right: dark (the bottom) is dropped
    on (1,1), light on (2,1); lifting only the top stone leaves dark in control of (0,1)."""
    moves = [("place", (1, 1)), ("place", (0, 1)), ("spread", (1, 1), (-1, 0), 1), ("place", (3, 3))]
    state, model, result = play(moves)
    assert result is None and model[0][0][at(0, 1)] == (1, 0)
    assert model_text(model, ("spread", (0, 1), (1, 0), 3)) not in [m.text for m in state.legal_moves()]
    _, model, _ = play(moves + [("spread", (0, 1), (1, 0), 2)])
    stacks = model[0][0]
    assert stacks[at(0, 1)] == () and stacks[at(1, 1)] == (1,) and stacks[at(2, 1)] == (0,)
    _, model, _ = play(moves + [("spread", (0, 1), (0, 1), 1)])
    assert model[0][0][at(0, 1)] == (1,) and model[0][0][at(0, 2)] == (0,)


def test_a_road_across_wins_and_a_bent_one_too():
    """Light's squares (0,0) (1,0) (1,1) (2,1) (3,1): a road bending down once, found by the flood."""
    state, _, result = play([("place", (0, 0)), ("place", (0, 3)), ("place", (1, 0)), ("place", (1, 3)),
                             ("place", (1, 1)), ("place", (2, 3)), ("place", (2, 1))])
    assert result is None and not state.is_terminal
    state, _, result = play([("place", (0, 0)), ("place", (0, 3)), ("place", (1, 0)), ("place", (1, 3)),
                             ("place", (1, 1)), ("place", (2, 3)), ("place", (2, 1)), ("place", (3, 0)),
                             ("place", (3, 1))])
    assert result == 0 and state.is_terminal and state.goals[0] > state.goals[1]


@pytest.mark.parametrize("seed", range(12))
def test_tak4_plays_to_the_models_end(seed):
    plays_to_the_models_end(load_game(game("tak4")).initial_state(0), START, Lcg(seed), model_moves,
                            model_apply, model_text, observed)


def test_the_seeded_plays_end_by_roads_and_by_counts():
    """Both seats win among the plays above, some by a road and some on the squares controlled."""
    assert {0, 1} <= model_results(model_moves, model_apply, START, map(Lcg, range(12)))
    ends = [model_end(model_moves, model_apply, START, Lcg(seed)) for seed in range(12)]
    by_road = [road(state[0][0], result) for state, result in ends if result != "draw"]
    assert True in by_road and False in by_road


@pytest.mark.parametrize("seed", range(3))
def test_the_copy_with_one_start_a_walk_plays_as_the_model(seed):
    plays_to_the_models_end(load_game(game("tak4_road")).initial_state(0), START, Lcg(seed), model_moves,
                            model_apply, model_text, observed)


def lowerable(name: str) -> tuple[int, str]:
    """`tgpl check --lowerable GAME`: its exit code and output."""
    r = CliRunner().invoke(main, ["check", "--lowerable", game(name)])
    return r.exit_code, r.output


FLOOD_HINT = ("a search's stack or queue (`todo`) lowers where the walk has one start (`seen.add(s); todo.add(s);`, a "
              "call per start), pushes a neighbour only when first seen")


def test_tak4_is_refused_at_its_two_local_lists_with_the_rewrite(tmp_path):
    """The flood's `todo.removeAt` and the spread's `held.removeAt`, each located, each with the hint that names
    both rewrites (reading by index; the flood's shape)."""
    code, out = lowerable("tak4")
    assert code == 1, out
    assert "tak4.tgpl:136:13: error: not lowerable: removeAt() on a local list is not lowerable" in out, out
    assert "tak4.tgpl:244:17: error: not lowerable: removeAt() on a local list is not lowerable" in out, out
    assert out.count(FLOOD_HINT) == 2 and "read it by index rather than taking items out" in out
    r = CliRunner().invoke(main, ["to-gdl", game("tak4"), "-o", str(tmp_path / "t.kif")])
    assert r.exit_code == 2 and not (tmp_path / "t.kif").exists(), r.output
    assert "tak4.tgpl:136:13: error: not lowerable: removeAt() on a local list" in r.output, r.output


def test_the_flood_with_one_start_a_walk_gets_past_its_refusal():
    """Following the hint (tak4_road.tgpl: `Reaches(start, ...)` called per edge square, a flag instead of the
    return) the flood lowers; the spread's list is refused as before."""
    code, out = lowerable("tak4_road")
    assert code == 1, out
    assert out.count(": error: not lowerable:") == 1
    assert "tak4_road.tgpl:245:17: error: not lowerable: removeAt() on a local list is not lowerable" in out, out
