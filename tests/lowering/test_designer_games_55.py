"""Kamisado on the standard 8 x 8 board, written as a designer writes it from the rule sheet
(tests/data/designers/kamisado.tgpl): every square has one of eight colours in the fixed pattern, read from a
64-number table in setup; each player's eight towers (interactables, one of each colour, moved with `move_to`)
slide straight or diagonally forward over empty squares; the tower that must move is the mover's tower of the
colour of the square the last move ended on, held in a global (`Kamisado.Forced`); a blocked forced tower makes a
zero-length move onto its own square, and a deadlock (the tower then forced blocked too) loses for the player
whose move caused it. Towers only move forward, so no move cap is needed.

The runtime is checked against an independent model written from the rules: the move tree (perft) and seeded
plays to the end, the towers' squares compared at every move; the plays are checked to meet zero-length moves,
deadlocks and wins by reaching the far row.

The lowering (CPU measured on a shared two-core machine, not asserted): spelled out, refused for one control
state's work in `CanSlide` (the board's 16 towers read for every square of every slide); `--moves auto` then
compiles the moves: 113 rules with a body, validated by playouts to the end, in about 70 s of CPU on the loaded
machine.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from differential import (checks_clean_and_plays, lowered_and_validated, model_perft, plays_to_the_seen_models_end,
                          runtime_perft)
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game
from to_gdl_runs import rules_with_a_body

PATTERN = [
    [0, 1, 2, 3, 4, 5, 6, 7],
    [5, 0, 3, 6, 1, 4, 7, 2],
    [6, 3, 0, 5, 2, 7, 4, 1],
    [3, 2, 1, 0, 7, 6, 5, 4],
    [4, 5, 6, 7, 0, 1, 2, 3],
    [1, 4, 7, 2, 5, 0, 3, 6],
    [2, 7, 4, 1, 6, 3, 0, 5],
    [7, 6, 5, 4, 3, 2, 1, 0],
]  # PATTERN[y][x]: the colour of the square in column x, row y


def colour(x: int, y: int) -> int:
    return PATTERN[y][x]


def start_towers() -> tuple:
    """The sixteen towers as (seat, colour, x, y), in the runtime's creation order (Tower#0 .. Tower#15)."""
    return tuple((seat, colour(x, row), x, row) for seat, row in ((0, 0), (1, 7)) for x in range(8))


@dataclass(frozen=True)
class Kamisado:
    """The model's state: the towers (seat, colour, x, y) by number, the forced tower's number (None before the
    first move), the seat to move."""

    towers: tuple = start_towers()
    forced: int | None = None
    who: int = 0

    def seen(self) -> tuple:
        return tuple((x, y) for _, _, x, y in self.towers)


def slides(s: Kamisado, t: int) -> list:
    """The squares tower t can slide to: forward, straight or diagonally, over empty squares."""
    seat, _, x, y = s.towers[t]
    taken = {(tx, ty) for _, _, tx, ty in s.towers}
    dy = 1 if seat == 0 else -1
    out = []
    for dx in (-1, 0, 1):
        cx, cy = x + dx, y + dy
        while 0 <= cx < 8 and 0 <= cy < 8 and (cx, cy) not in taken:
            out.append((cx, cy))
            cx, cy = cx + dx, cy + dy
    return out


def moves(s: Kamisado) -> list:
    towers = [s.forced] if s.forced is not None else [t for t in range(16) if s.towers[t][0] == s.who]
    out = []
    for t in towers:
        to = slides(s, t)
        out += [(t, sq) for sq in to] if to else [(t, s.towers[t][2:])]
    return out


def tower_of(s: Kamisado, seat: int, c: int) -> int:
    return next(t for t, (owner, hue, _, _) in enumerate(s.towers) if owner == seat and hue == c)


def apply(s: Kamisado, m: tuple):
    t, (x, y) = m
    seat = s.who
    blocked = s.towers[t][2:] == (x, y)
    towers = tuple((tw[0], tw[1], x, y) if i == t else tw for i, tw in enumerate(s.towers))
    nxt = tower_of(s, 1 - seat, colour(x, y))
    after = Kamisado(towers, nxt, 1 - seat)
    if y == (7 if seat == 0 else 0):
        return after, seat
    if blocked and not slides(after, nxt):
        return after, seat  # deadlock: the opponent's move caused it
    return after, None


def text(s: Kamisado, m: tuple) -> str:
    t, (x, y) = m
    return f"Tower#{t}.Move(to: Squares[{x}][{y}])"


def observed(state) -> tuple:
    """Each tower's square (x, y), read from its built-in `tile` (`Squares[x][y]`)."""
    w = state.world
    out = []
    for t in range(16):
        x, y = str(w.fields(w.named(f"Tower#{t}"))["tile"])[len("Squares["):-1].split("][")
        out.append((int(x), int(y)))
    return tuple(out)


def runtime_start():
    return load_game(game("kamisado")).initial_state(0)


def test_the_model_forces_the_tower_of_the_colour_landed_on():
    s = Kamisado()
    assert len(moves(s)) == sum(len(slides(s, t)) for t in range(8)) == 102
    s, result = apply(s, (0, (0, 3)))  # the orange tower up three squares, onto pink
    assert result is None and s.forced == tower_of(s, 1, 3) and s.who == 1
    assert all(t == s.forced for t, _ in moves(s))


def test_the_model_makes_a_blocked_tower_move_zero_squares_and_judges_a_deadlock():
    # White's tower 0 on (0, 6) faces Black towers on (0, 7) and (1, 7): blocked
    towers = list(start_towers())
    towers[0] = (0, 0, 0, 6)
    s = Kamisado(tuple(towers), 0, 0)
    assert moves(s) == [(0, (0, 6))]
    after, result = apply(s, (0, (0, 6)))
    assert after.forced == tower_of(s, 1, colour(0, 6)) and after.who == 1
    # Black's tower of that colour (purple, 2) stands on (5, 7) and can move: no deadlock
    assert result is None
    # a Black tower blocked too is a deadlock, which White's zero-length move makes Black's last move's fault
    towers[tower_of(s, 1, 2)] = (1, 2, 5, 1)
    towers[5] = (0, 5, 5, 0)
    towers[4], towers[6] = (0, 4, 4, 0), (0, 6, 6, 0)
    after, result = apply(Kamisado(tuple(towers), 0, 0), (0, (0, 6)))
    assert result == 0


def test_the_move_tree_is_the_models():
    assert runtime_perft(runtime_start(), 3) == model_perft(moves, apply, Kamisado(), 3)


# eight plays of the first choosers, and four found to end in a deadlock (102, 134) or to make several
# zero-length moves (87, 105)
CHOOSERS = [*range(1, 9), 87, 102, 105, 134]


@pytest.mark.parametrize("chooser", CHOOSERS)
def test_seeded_plays_end_as_the_model_says(chooser):
    plays_to_the_seen_models_end(runtime_start(), Kamisado(), Lcg(chooser), moves, apply, text, observed)


def test_the_seeded_plays_meet_zero_length_moves_deadlocks_and_both_winners():
    """What the seeded plays above are worth: the rules they cover, counted on the model."""
    seen = {"zero-length": 0, "deadlock": 0, 0: 0, 1: 0}
    for chooser in CHOOSERS:
        s, result, rng = Kamisado(), None, Lcg(chooser)
        while result is None:
            ms = moves(s)
            m = ms[rng.below(len(ms))]
            zero = s.towers[m[0]][2:] == m[1]
            seen["zero-length"] += zero
            s, result = apply(s, m)
        seen[result] += 1
        seen["deadlock"] += zero
    assert all(seen.values()), seen


def test_kamisado_checks_clean_and_plays_to_its_end():
    checks_clean_and_plays(game("kamisado"))


def test_kamisado_lowers_with_its_moves_compiled_and_validates(tmp_path):
    """Spelled out, one control state passes the lowering's work budget in `CanSlide`; `--moves auto` then
    compiles the moves. `CanSlide`'s loop runs to a distance known at run time and returns false where a square
    is `Occupied`: the loop's relation went on only where `Occupied` said no while `Occupied`'s demand was asked in
    the loop, a negation cycle through the callee's rules, refused at 1:1 with no hint before. Compiled again with
    `CanSlide` as a search (language decision 120), the game lowers and validates by playouts to the end."""
    kif, _ = lowered_and_validated(game("kamisado"), tmp_path / "kamisado.kif")
    assert "; Played one state at a time (its moves compiled)" in kif
    assert re.search(r"^\(<= \(canslide_\w*_found ", kif, re.M) and re.search(r"\(not \(canslide_\w*_found ", kif)
    assert 0 < rules_with_a_body(kif) <= 150
