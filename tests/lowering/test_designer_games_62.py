"""Abalone on a hexagon of side 3 (19 cells), inline moves only, written as a designer writes it from the rule sheet
(tests/data/designers/abalone.tgpl): five marbles a side on a row-oriented hex group padded with blanks; a move picks
a marble and a neighbouring cell, and the line of the mover's marbles from it (at most three) moves one along,
pushing fewer enemy marbles into an empty cell or off the board. The cells carry doubled-column coordinates set in
setup, a function finds a cell by them, `while` walks find the line's end (`CanPush`, the effect), the pushed-off
count is a global list indexed by the player; two off wins, a player who cannot move loses, after 60 moves more
pushed off wins.

The runtime is checked against an independent model (axial coordinates, the push as arithmetic on the line's
length): the board's neighbours, the move tree and seeded plays to the end, the marbles compared at every move. Then
`tgpl to-gdl` on it: refused, located twice. Spelled out (361 ways to fill the move's inputs, and play walks with
`while`), `CanPush`'s walks pass the lowering's 500,000 symbolic statements; compiled once, the write
`Game.Off[player] += 1` (an element of a list attribute) is not a form compiled moves take (measured on a shared
two-core machine, not asserted: about 72 s CPU to the refusal, 92 MB; with `--moves compiled`, refused at the write
alone in about 2 s). The smallest rewrite that lowers,
tests/data/designers/abalone_seats.tgpl, keeps the count on each seat (`Off += 1`) and reads the other seat's through
a list of the seats: its moves compile and it validates to the end (193 rules, about 16 s CPU, 272 MB).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from differential import (checks_clean_and_plays, lowered_and_validated, model_perft, model_steps,
                          plays_to_the_seen_models_end, runtime_perft)
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game
from to_gdl_runs import rules_with_a_body, to_gdl

CELLS = [(q, r) for r in range(-2, 3) for q in range(-2, 3) if abs(q + r) <= 2]
ON = set(CELLS)
DIRECTIONS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]
LIMIT, TO_WIN = 60, 2


def name(cell: tuple) -> str:
    """The runtime's name of an axial cell: rows from the top, each row's columns counted in the 5 x 5 grid the
    hexagon is padded into."""
    q, r = cell
    return f"Cells[{r + 2}][{q + 2 + (r + 1) // 2}]"


def step(cell: tuple, d: tuple, n: int = 1) -> tuple:
    return cell[0] + n * d[0], cell[1] + n * d[1]


@dataclass(frozen=True)
class Abalone:
    """The model's state: the marbles as (cell, seat), the seat to move, the moves made and each seat's pushed-off
    count."""

    marbles: tuple = tuple(sorted([((q, -2), 0) for q in (0, 1, 2)] + [((q, -1), 0) for q in (0, 1)]
                                  + [((q, 2), 1) for q in (-2, -1, 0)] + [((q, 1), 1) for q in (-1, 0)]))
    who: int = 0
    made: int = 0
    off: tuple = (0, 0)

    def seen(self) -> tuple:
        return tuple(sorted(self.marbles))


def line(at: dict, start: tuple, d: tuple, who: int):
    """The mover's marbles and the enemy's in a row from `start` along `d`, (mine, theirs), where that push is legal:
    at most three of the mover's, fewer of the enemy's, and past them an empty cell, or the edge once the enemy's
    are pushed; None where it is not."""
    mine = 0
    while step(start, d, mine) in ON and at.get(step(start, d, mine)) == who:
        mine += 1
    theirs = 0
    while step(start, d, mine + theirs) in ON and at.get(step(start, d, mine + theirs)) == 1 - who:
        theirs += 1
    past = step(start, d, mine + theirs)
    if mine > 3 or theirs >= mine or (past not in ON and theirs == 0) or (past in ON and past in at):
        return None
    return mine, theirs


def legal(at: dict, who: int) -> list:
    return [(p, d) for p in sorted(c for c, s in at.items() if s == who) for d in DIRECTIONS
            if line(at, p, d, who) is not None]


def moves(s: Abalone) -> list:
    return legal(dict(s.marbles), s.who)


def apply(s: Abalone, m: tuple):
    p, d = m
    at = dict(s.marbles)
    mine, theirs = line(at, p, d, s.who)
    del at[p]
    at[step(p, d, mine)] = s.who
    off = list(s.off)
    if theirs:
        if step(p, d, mine + theirs) in ON:
            at[step(p, d, mine + theirs)] = 1 - s.who
        else:
            off[s.who] += 1
    after = Abalone(tuple(sorted(at.items())), 1 - s.who, s.made + 1, tuple(off))
    if off[s.who] == TO_WIN:
        return after, s.who
    if after.made == LIMIT:
        a, b = off[s.who], off[1 - s.who]
        return after, (s.who if a > b else 1 - s.who if b > a else "draw")
    return after, (s.who if not legal(at, 1 - s.who) else None)


def text(s: Abalone, m: tuple) -> str:
    p, d = m
    return f"Seat#{s.who}.Push(from: {name(p)}, to: {name(step(p, d))})"


def observed(state) -> tuple:
    w = state.world
    return tuple(sorted((c, int(f["Marble"])) for c in CELLS
                        if (f := w.fields(w.named(name(c))))["Marble"] is not None))


def runtime_start(name: str = "abalone"):
    return load_game(game(name)).initial_state(0)


def test_the_hex_groups_neighbours_are_the_models():
    state = runtime_start()
    w = state.world
    assert len(CELLS) == 19 and len({name(c) for c in CELLS}) == 19
    for c in CELLS:
        linked = {link.name.split("->")[1] for link in w.fields(w.named(name(c)))["connections"]}
        assert linked == {name(step(c, d)) for d in DIRECTIONS if step(c, d) in ON}, c


def test_the_model_pushes_fewer_and_off_the_edge():
    # two of player 0's push one of player 1's along row r = 0 off the board's right end
    at = {(0, 0): 0, (1, 0): 0, (2, 0): 1}
    assert line(at, (0, 0), (1, 0), 0) == (2, 1)
    after, result = apply(Abalone(tuple(sorted(at.items())), 0, 0, (1, 0)), ((0, 0), (1, 0)))
    assert dict(after.marbles) == {(1, 0): 0, (2, 0): 0} and after.off == (2, 0) and result == 0
    # one against one does not push; three against three neither; an own marble past the enemy blocks
    assert line({(0, 0): 0, (1, 0): 1}, (0, 0), (1, 0), 0) is None
    assert line({(-2, 0): 0, (-1, 0): 0, (0, 0): 0, (1, 0): 1, (2, 0): 0}, (-2, 0), (1, 0), 0) is None
    # a lone marble never steps off the board
    assert line({(2, 0): 0}, (2, 0), (1, 0), 0) is None


def test_the_move_tree_is_the_models():
    assert runtime_perft(runtime_start(), 3) == model_perft(moves, apply, Abalone(), 3) == 2_550


@pytest.mark.parametrize("chooser", range(1, 9))
def test_seeded_plays_end_as_the_model_says(chooser):
    plays_to_the_seen_models_end(runtime_start(), Abalone(), Lcg(chooser), moves, apply, text, observed)


def test_the_seeded_plays_push_off_and_reach_both_wins():
    plays = [list(model_steps(moves, apply, Abalone(), Lcg(c))) for c in range(1, 9)]
    assert sum(play[-1][1].off != (0, 0) for play in plays) >= 2
    assert {play[-1][2] for play in plays} == {0, 1, "draw"}


def test_abalone_checks_clean_and_plays_to_its_end():
    checks_clean_and_plays(game("abalone"))


def test_abalone_is_refused_at_its_walk_and_at_its_list_write(tmp_path):
    r = to_gdl(tmp_path, Path(game("abalone")))
    assert r.exit_code == 2 and not r.out.exists(), r.output
    assert ("abalone.tgpl:110:9: error: not lowerable: the lowering ran more than 500,000 statements on symbolic paths"
            " (here, in CanPush)") in r.output, r.output
    assert ("abalone.tgpl:169:36: error: not lowerable: with the moves compiled instead: an assignment of something"
            " other than a local or an attribute") in r.output, r.output
    shown = " 169 |                 if (end == null) { Game.Off[player] += 1; }\n"
    assert shown + "     |" + " " * 36 + "^" * 22 in r.output, r.output


def test_abalone_compiled_is_refused_at_once_at_the_list_write(tmp_path):
    r = to_gdl(tmp_path, Path(game("abalone")), "--moves", "compiled")
    assert r.exit_code == 2 and not r.out.exists(), r.output
    assert r.output.count(": error: not lowerable:") == 1
    assert ("abalone.tgpl:169:36: error: not lowerable: the moves cannot be compiled: an assignment of something other"
            " than a local or an attribute") in r.output, r.output


@pytest.mark.parametrize("chooser", range(1, 4))
def test_the_rewrite_with_the_count_on_each_seat_plays_as_the_model_says(chooser):
    plays_to_the_seen_models_end(runtime_start("abalone_seats"), Abalone(), Lcg(chooser), moves, apply, text, observed)


def test_the_rewrite_lowers_its_moves_compiled_and_validates_to_the_end(tmp_path):
    kif, _ = lowered_and_validated(game("abalone_seats"), tmp_path / "abalone_seats.kif")
    assert 0 < rules_with_a_body(kif) <= 2_000
    assert "(its moves compiled)" in kif.splitlines()[2]
