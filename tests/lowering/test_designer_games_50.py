"""Sim (six dots, fifteen lines), written as a designer writes it from the rule sheet on a graph board
(tests/data/designers/sim.tgpl): the dots are tiles, each line a connection each way holding who coloured it; a
move colours the line between two dots (`from` the lower-numbered) both ways; a triangle of the mover's own colour,
found by a scan of the third dots through a function that walks a dot's connections (`LineOf`), loses.

The runtime is checked against an independent model: the move tree (perft) and seeded plays to the end, the
coloured lines compared at every move. The model checks that no play draws (Ramsey's R(3,3) = 6).

The lowering (CPU measured once with /usr/bin/time on a shared two-core machine, not asserted): the dry run says
it lowers with its moves spelled out (1.2 s); `tgpl to-gdl` writes 21 rules (2.6 s): the moves spelled out are
generalised back into rules over the dots, `LineOf` a relation, validated by playouts to the end.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import pytest
from click.testing import CliRunner

from differential import (checks_clean_and_plays, lowered_and_validated, model_perft,
                          plays_to_the_seen_models_end, runtime_perft)
from tgpl.cli import main
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game
from to_gdl_runs import rules_with_a_body

LINES = list(combinations(range(6), 2))


@dataclass(frozen=True)
class Sim:
    """The model's state: who coloured each line, as ((a, b), seat) with a < b, and the seat to move."""

    coloured: tuple = ()
    who: int = 0

    def seen(self) -> tuple:
        return tuple(sorted(self.coloured))


def moves(s: Sim) -> list:
    taken = {line for line, _ in s.coloured}
    return [line for line in LINES if line not in taken]


def apply(s: Sim, m: tuple):
    """The line `m` coloured by the mover; a triangle of the mover's lines through `m` loses."""
    after = Sim(s.coloured + ((m, s.who),), 1 - s.who)
    mine = {line for line, by in after.coloured if by == s.who}
    a, b = m
    closed = any(tuple(sorted((a, c))) in mine and tuple(sorted((b, c))) in mine for c in range(6) if c not in m)
    return after, (1 - s.who if closed else None)


def text(s: Sim, m: tuple) -> str:
    return f"Crayon#{s.who}.Colour(from: Dot#{m[0]}, to: Dot#{m[1]})"


def observed(state) -> tuple:
    """Every coloured line as the model keeps it, each checked coloured alike both ways."""
    w = state.world
    out = {}
    for a in range(6):
        for ref in w.fields(w.named(f"Dot#{a}"))["connections"]:
            f = w.fields(ref)
            b = int(str(f["to"]).split("#")[1])
            if f["By"] is not None:
                out[(a, b)] = int(f["By"])
    assert all(out.get((b, a)) == by for (a, b), by in out.items())
    return tuple(sorted(((a, b), by) for (a, b), by in out.items() if a < b))


def runtime_start():
    return load_game(game("sim")).initial_state(0)


def test_the_model_loses_on_a_triangle_of_ones_own():
    s = Sim()
    for m in [(0, 1), (3, 4), (1, 2), (3, 5)]:
        s, result = apply(s, m)
        assert result is None
    s, result = apply(s, (0, 2))  # player 0's 0-1, 1-2 and now 0-2
    assert result == 1


def test_no_play_of_the_model_draws():
    for seed in range(200):
        rng, s, result = Lcg(seed), Sim(), None
        while result is None:
            ms = moves(s)
            assert ms, s
            s, result = apply(s, ms[rng.below(len(ms))])


def test_the_move_tree_is_the_models():
    assert runtime_perft(runtime_start(), 3) == model_perft(moves, apply, Sim(), 3)


@pytest.mark.parametrize("chooser", [1, 2, 3, 4, 5])
def test_seeded_plays_end_as_the_model_says(chooser):
    plays_to_the_seen_models_end(runtime_start(), Sim(), Lcg(chooser), moves, apply, text, observed)


def test_sim_checks_clean_and_plays_to_its_end():
    checks_clean_and_plays(game("sim"))


def test_sim_lowers_spelled_out_and_validates(tmp_path):
    r = CliRunner().invoke(main, ["to-gdl", "--dry-run", game("sim")])
    assert r.exit_code == 0 and "sim.tgpl: lowers; its moves spelled out" in r.output, r.output
    kif, _ = lowered_and_validated(game("sim"), tmp_path / "sim.kif")
    rules = rules_with_a_body(kif)
    assert rules <= 40, rules
