"""Mū tōrere, written as a designer writes it from the rule sheet (tests/data/designers/mutorere.tgpl): eight
points on a ring around a centre, a graph board built in the group's `default`; four stones a player, pieces
(interactables) moved with `move_to` and found through a list of every stone (`Holder`), not an attribute of
the points. A stone moves to the one empty place next to it; into the centre only from a point with a stone
of the other player beside it on the ring; a player who cannot move loses; 40 moves are a draw.

The runtime is checked against an independent model (stones by place, plain Python): the move tree's first
levels and seeded plays to their end, legal moves and results compared at every move."""

from __future__ import annotations

import pytest

from differential import model_perft, plays_to_the_models_end, runtime_perft
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game

CENTRE = 8  # ring points 0..7 are Spot#1..Spot#8, the centre is Spot#0
LIMIT = 40
START = (tuple(range(8)), 0, 0)  # where each stone is (stones 0..3 are player 0's), the player to move, moves made


def owner(stone: int) -> int:
    return 0 if stone < 4 else 1


def neighbours(point: int) -> list[int]:
    if point == CENTRE:
        return list(range(8))
    return [(point + 1) % 8, (point - 1) % 8, CENTRE]


def model_moves(state) -> list[tuple[int, int]]:
    places, who, _ = state
    held = {p: owner(s) for s, p in enumerate(places)}
    out = []
    for s, p in enumerate(places):
        if owner(s) != who:
            continue
        for q in neighbours(p):
            if q in held:
                continue
            if q == CENTRE and not any(held.get(n) == 1 - who for n in neighbours(p) if n != CENTRE):
                continue
            out.append((s, q))
    return out


def model_apply(state, move):
    """The next state, and the result: the winner, "draw", or None while the play goes on."""
    places, who, made = state
    s, q = move
    nxt = (places[:s] + (q,) + places[s + 1:], 1 - who, made + 1)
    if not model_moves(nxt):
        return nxt, who
    if made + 1 >= LIMIT:
        return nxt, "draw"
    return nxt, None


def spot(point: int) -> str:
    return "Spot#0" if point == CENTRE else f"Spot#{point + 1}"


def model_text(move) -> str:
    return f"Stone#{move[0]}.Slide(dest: {spot(move[1])})"


def places(state) -> tuple:
    w = state.world
    where = {spot(p): p for p in range(9)}
    return tuple(where[str(w.fields(w.named(f"Stone#{s}"))["tile"])] for s in range(8))


def test_mutorere_move_tree_is_the_models():
    start = load_game(game("mutorere")).initial_state(0)
    assert places(start) == START[0]
    assert model_perft(model_moves, model_apply, START, 1) == 2  # the two stones beside the enemy
    model = [model_perft(model_moves, model_apply, START, d) for d in range(1, 9)]
    assert [runtime_perft(start, d) for d in range(1, 9)] == model


@pytest.mark.parametrize("seed", range(16))
def test_mutorere_plays_to_the_models_end(seed):
    plays_to_the_models_end(load_game(game("mutorere")).initial_state(0), START, Lcg(seed), model_moves,
                            model_apply, lambda model, m: model_text(m), places)


def test_mutorere_lowers_with_its_moves_compiled(tmp_path):
    """Its moves compiled (`move_to` a write of the piece's `tile`), its functions rules with variables
    (`c.to as Spot`, where every tile is a Spot, is the tile itself), validated over whole games; check-gdl
    accepts it. Before, the casts kept every function out of the rules and the moves were spelled out: 7,237
    rules with a body against 89 now."""
    from click.testing import CliRunner
    from tgpl.cli import main

    r = CliRunner().invoke(main, ["to-gdl", "--dry-run", game("mutorere")])
    assert r.exit_code == 0, r.output
    assert "its moves compiled once" in r.output.splitlines()[0], r.output
    for name in ("Holder", "BesideEnemy", "MayGo", "CanMove"):
        line = next(x for x in r.output.splitlines() if f"function  {name} " in x)
        assert "rules with variables" in line and ": no" not in line, line
    out = tmp_path / "mutorere.kif"
    r = CliRunner().invoke(main, ["to-gdl", game("mutorere"), "-o", str(out)])
    assert r.exit_code == 0, r.output
    lines = out.read_text().splitlines()
    assert lines[1].startswith("; validated: ") and "to the end of the game" in lines[1], lines[1]
    assert "its moves compiled" in lines[2], lines[2]
    assert sum(1 for x in lines if x.startswith("(<=")) < 300
    r = CliRunner().invoke(main, ["check-gdl", str(out)])
    assert r.exit_code == 0, r.output
