"""Chomp (4 rows x 5 columns), written as a designer writes it from the rule sheet, in two styles: the bite eats
the rectangle above and to the right of the picked square with two `for` loops starting at the picked square's row
and column (tests/data/designers/chomp.tgpl), or walks the whole bar and eats each square whose row and column are
both at least the picked one's (chomp_scan.tgpl). Eating the poisoned square (row 0, column 0) loses.

The runtime is checked against an independent model: the move tree (perft) and seeded plays to the end, the
squares eaten compared at every move, both styles.

The lowering (CPU and peak memory measured once with /usr/bin/time on a shared two-core machine, not asserted):
the dry run says both lower with their moves compiled (1.2 s); `tgpl to-gdl` writes chomp.tgpl in 2.3 s as 15
rules with a body, the rectangle as a loop relation over the picked square and a static table of what each pass
writes, and chomp_scan.tgpl in 1.5 s as 15 too: the scan of the whole bar is one relation over its counters
(`SegmentCompiler.scanned`), the squares where the test holds a static table of the picked square, where it
was unrolled square by square, 151 rules, each square a join of three cases (issue 34). Both validate by
playouts to the end.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from click.testing import CliRunner

from differential import (checks_clean_and_plays, lowered_and_validated, model_perft,
                          plays_to_the_seen_models_end, runtime_perft)
from tgpl.cli import main
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game
from to_gdl_runs import rules_with_a_body

ROWS, COLS = 4, 5
SQUARES = [(c, r) for r in range(ROWS) for c in range(COLS)]
STYLES = ["chomp", "chomp_scan"]


@dataclass(frozen=True)
class Chomp:
    """The model's state: the squares eaten, as (column, row), and the seat to move."""

    eaten: frozenset = frozenset()
    who: int = 0

    def seen(self) -> tuple:
        return tuple(sorted(self.eaten))


def moves(s: Chomp) -> list:
    return [sq for sq in SQUARES if sq not in s.eaten]


def apply(s: Chomp, m: tuple):
    """The bite at `m` eats every square at or above its row and at or right of its column; the poisoned square
    eaten, the other seat wins."""
    bite = {(c, r) for c, r in SQUARES if c >= m[0] and r >= m[1]}
    after = Chomp(s.eaten | bite, 1 - s.who)
    return after, (1 - s.who if m == (0, 0) else None)


def text(s: Chomp, m: tuple) -> str:
    return f"Eater#{s.who}.Bite(at: Squares[{m[0]}][{m[1]}])"


def observed(state) -> tuple:
    w = state.world
    return tuple(sq for sq in sorted(SQUARES) if w.fields(w.named(f"Squares[{sq[0]}][{sq[1]}]"))["Eaten"])


def runtime_start(style: str):
    return load_game(game(style)).initial_state(0)


def test_the_model_bites_rectangles_and_the_poison_loses():
    s, result = apply(Chomp(), (2, 1))
    assert result is None and len(s.eaten) == 3 * 3 and (2, 1) in s.eaten and (1, 1) not in s.eaten
    assert len(moves(s)) == 20 - 9
    s, result = apply(s, (0, 0))
    assert result == 0 and s.eaten == frozenset(SQUARES)


@pytest.mark.parametrize("style", STYLES)
def test_the_move_tree_is_the_models(style):
    assert runtime_perft(runtime_start(style), 3) == model_perft(moves, apply, Chomp(), 3)


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("chooser", [1, 2, 3, 4])
def test_seeded_plays_end_as_the_model_says(style, chooser):
    plays_to_the_seen_models_end(runtime_start(style), Chomp(), Lcg(chooser), moves, apply, text, observed)


@pytest.mark.parametrize("style", STYLES)
def test_chomp_checks_clean_and_plays_to_its_end(style):
    checks_clean_and_plays(game(style))


@pytest.mark.parametrize("style", STYLES)
def test_the_dry_run_says_it_lowers_compiled(style):
    r = CliRunner().invoke(main, ["to-gdl", "--dry-run", game(style)])
    assert r.exit_code == 0, r.output
    assert f"{style}.tgpl: lowers; its moves compiled once" in r.output


@pytest.mark.parametrize("style, most", [("chomp", 30), ("chomp_scan", 20)])
def test_chomp_lowers_compiled_and_validates(tmp_path, style, most):
    """Both styles lower with their moves compiled and validate by playouts to the end, each in a few rules: the
    rectangle a loop relation over the picked square, the scan one relation over the bar, no join per square."""
    kif, _ = lowered_and_validated(game(style), tmp_path / f"{style}.kif")
    assert "; Played one state at a time (its moves compiled)" in kif
    rules = rules_with_a_body(kif)
    assert rules <= most, rules
    assert "(<= (join_2 " not in kif
