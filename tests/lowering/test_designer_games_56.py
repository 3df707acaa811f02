"""Blokus mini, written as a designer writes it from the rule sheet (tests/data/designers/blokus.tgpl): a 6 x 6
board, two players with the same six polyominoes (monomino, domino, I- and L-tromino, square and T-tetromino),
each piece's shape a list of offsets from its anchor (`List<number> DX, DY`, copied in setup from a global list
of lists); no rotations, Black's pieces turned half a turn (offsets negated). Placement validity is a loop over
the offsets: on the board, on empty cells, no edge of the player's own, and a corner of the player's own or the
start corner covered. A player who cannot place is passed over by the game; when neither can, the fewest squares
left in hand win.

The runtime is checked against an independent model written from the rules: the move tree (perft) and seeded
plays to the end, the owners of the cells compared at every move; the plays are checked to meet passes, draws
and both winners.

The lowering (CPU measured on a shared two-core machine, not asserted): `--moves auto` compiles the moves (a
loop writes the state), 277 rules with a body in about 5 s of CPU; `tgpl to-gdl`'s validation (114 playouts to the
end, 1,000 steps) takes about 170 s more, the reasoner grounding each state of the compiled rules (about half a
second a step), so the test plays a budget of three playouts beside the runtime.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from click.testing import CliRunner

from differential import (Lowered, checks_clean_and_plays, model_perft, playout, plays_to_the_seen_models_end,
                          runtime_perft)
from tgpl.asp.kif import to_kif
from tgpl.cli import main
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game
from to_gdl_runs import rules_with_a_body

SHAPES = [  # White's offsets (dx, dy) from the anchor, in the order of `Blokus.DX`
    [(0, 0)],
    [(0, 0), (1, 0)],
    [(0, 0), (1, 0), (2, 0)],
    [(0, 0), (1, 0), (0, 1)],
    [(0, 0), (1, 0), (0, 1), (1, 1)],
    [(0, 0), (1, 0), (2, 0), (1, 1)],
]
CORNER = [(0, 0), (5, 5)]


@dataclass(frozen=True)
class Blokus:
    """The model's state: the owner of each cell as ((x, y), seat), the pieces placed (Piece#k: seat k // 6,
    shape k % 6), the seat to move."""

    owners: tuple = ()
    placed: frozenset = frozenset()
    who: int = 0

    def seen(self) -> tuple:
        return tuple(sorted(self.owners))


def cells(seat: int, shape: int, at: tuple) -> list:
    d = 1 if seat == 0 else -1
    return [(at[0] + d * dx, at[1] + d * dy) for dx, dy in SHAPES[shape]]


def fits(s: Blokus, seat: int, shape: int, at: tuple) -> bool:
    owner = dict(s.owners)
    mine = {c for c, o in owner.items() if o == seat}
    covered = cells(seat, shape, at)
    if any(not (0 <= x < 6 and 0 <= y < 6) or (x, y) in owner for x, y in covered):
        return False
    if any((x + dx, y + dy) in mine for x, y in covered for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))):
        return False
    return CORNER[seat] in covered or any((x + dx, y + dy) in mine for x, y in covered
                                          for dx in (-1, 1) for dy in (-1, 1))


def placements(s: Blokus, seat: int) -> list:
    return [(k, (x, y)) for k in range(6 * seat, 6 * seat + 6) if k not in s.placed
            for x in range(6) for y in range(6) if fits(s, seat, k % 6, (x, y))]


def moves(s: Blokus) -> list:
    return placements(s, s.who)


def left(s: Blokus, seat: int) -> int:
    return sum(len(SHAPES[k % 6]) for k in range(6 * seat, 6 * seat + 6) if k not in s.placed)


def apply(s: Blokus, m: tuple):
    k, at = m
    owners = s.owners + tuple((c, s.who) for c in cells(s.who, k % 6, at))
    after = Blokus(owners, s.placed | {k}, 1 - s.who)
    if placements(after, 1 - s.who):
        return after, None
    after = Blokus(owners, after.placed, s.who)  # the opponent cannot place: passed over
    if placements(after, s.who):
        return after, None
    mine, theirs = left(after, s.who), left(after, 1 - s.who)
    return after, (s.who if mine < theirs else 1 - s.who if theirs < mine else "draw")


def text(s: Blokus, m: tuple) -> str:
    k, (x, y) = m
    return f"Piece#{k}.Place(at: Cells[{x}][{y}])"


def observed(state) -> tuple:
    w = state.world
    return tuple(((x, y), int(o)) for x in range(6) for y in range(6)
                 if (o := w.fields(w.named(f"Cells[{x}][{y}]"))["Owner"]) is not None)


def runtime_start():
    return load_game(game("blokus")).initial_state(0)


def test_the_model_starts_in_the_corner_and_touches_corners_only():
    s = Blokus()
    assert moves(s) == [(k, (0, 0)) for k in range(6)]  # every piece's anchor is its corner-most square
    s, _ = apply(s, (4, (0, 0)))  # White's square on (0, 0) .. (1, 1)
    assert s.who == 1 and moves(s) == [(k, (5, 5)) for k in range(6, 12)]
    s, _ = apply(s, (6, (5, 5)))
    assert fits(s, 0, 0, (2, 2)) and not fits(s, 0, 0, (2, 1)) and not fits(s, 0, 0, (3, 3))


def test_the_move_tree_is_the_models():
    assert runtime_perft(runtime_start(), 4) == model_perft(moves, apply, Blokus(), 4)


CHOOSERS = [*range(1, 9), 12, 16]  # 12 and 16 end in a draw


@pytest.mark.parametrize("chooser", CHOOSERS)
def test_seeded_plays_end_as_the_model_says(chooser):
    plays_to_the_seen_models_end(runtime_start(), Blokus(), Lcg(chooser), moves, apply, text, observed)


def test_the_seeded_plays_meet_passes_draws_and_both_winners():
    """What the seeded plays above are worth: the rules they cover, counted on the model."""
    seen = {"pass": 0, "draw": 0, 0: 0, 1: 0}
    for chooser in CHOOSERS:
        s, result, rng = Blokus(), None, Lcg(chooser)
        while result is None:
            ms = moves(s)
            mover = s.who
            s, result = apply(s, ms[rng.below(len(ms))])
            seen["pass"] += result is None and s.who == mover
        seen[result] += 1
    assert all(seen.values()), seen


def test_blokus_checks_clean_and_plays_to_its_end():
    checks_clean_and_plays(game("blokus"))


def test_the_dry_run_compiles_the_moves_reading_each_pieces_own_offsets():
    """`Fits` reads `p.DX[k]` of a `Piece` (a `List<number>`) and `Place` its own `DX[k]`; a global class's
    `List<List<number>> DX` (the shapes setup copies from) made the compiled moves refuse both as "a list of lists
    in 'DX'", and the dry run said the game was undecided, spelled out. The list fields read through an object
    known at run time are looked up among the objects of the reader's class: the moves compile."""
    r = CliRunner().invoke(main, ["to-gdl", "--dry-run", game("blokus")])
    assert r.exit_code == 0, r.output
    assert "lowers; its moves compiled once (a loop writes the state)" in r.output.splitlines()[0]
    assert "list of lists" not in r.output


def test_blokus_lowers_with_its_moves_compiled_and_playouts_agree():
    """`--moves auto` compiles the moves (a loop writes the owners of the cells a piece covers); the lowered game is
    the runtime's on seeded random playouts to the end, the state, legal moves, terminal status and goals compared
    at every step. A budget of plays, not `tgpl to-gdl`'s 1,000 steps: the reasoner grounds each state of the
    compiled rules, about half a second of CPU a step."""
    lw = Lowered.of(game("blokus"))
    assert lw.lowered.stats.get("moves compiled")
    for seed in range(3):  # each play to its end (`playout` fails a play still going after 500 moves)
        assert len(playout(lw, random.Random(seed))) >= 5
    assert 0 < rules_with_a_body(to_kif(lw.lowered.program)) <= 300
