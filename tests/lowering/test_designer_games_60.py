"""Snort on a map of nine counties, written as a designer writes it from the rule sheet
(tests/data/designers/snort.tgpl): a graph board built in the group's `default` (named counties, thirteen borders
joined both ways by a function), a move paints a county whose filter walks its connections (no neighbour of the
other colour), and the turn's `default` ends the game when the next player has no county left (an existence over
the whole graph): the last to paint wins.

The runtime is checked against an independent model (the graph written as edges, not connections): the whole move
tree (perft to the end) and seeded plays, the colours compared at every move. Then `tgpl to-gdl` on it: it lowers
and its bisimulation with the runtime is complete (measured once on a shared two-core machine, not asserted: 98
rules, about 3 s CPU, 66 MB).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from differential import (checks_clean_and_plays, model_perft, model_results, plays_to_the_seen_models_end,
                          runtime_perft)
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game
from to_gdl_runs import rules_with_a_body, to_gdl

NAMES = ["Ashby", "Brook", "Crane", "Dale", "Elmore", "Fenwick", "Garth", "Heath", "Ivy"]
SPOTS = range(len(NAMES))
EDGES = {frozenset((NAMES.index(a), NAMES.index(b))) for a, b in (
    ("Ashby", "Brook"), ("Ashby", "Crane"), ("Brook", "Crane"), ("Brook", "Dale"), ("Crane", "Elmore"),
    ("Crane", "Garth"), ("Dale", "Elmore"), ("Dale", "Fenwick"), ("Elmore", "Garth"), ("Fenwick", "Garth"),
    ("Fenwick", "Heath"), ("Garth", "Ivy"), ("Heath", "Ivy"))}
NEIGHBOURS = {s: {t for e in EDGES if s in e for t in e if t != s} for s in SPOTS}


@dataclass(frozen=True)
class Snort:
    """The model's state: the painted counties as (county, seat), and the seat to move."""

    colours: tuple = ()
    who: int = 0

    def seen(self) -> tuple:
        return tuple(sorted(self.colours))


def legal(colours: dict, seat: int) -> list:
    return [s for s in SPOTS if s not in colours and all(colours.get(t, seat) == seat for t in NEIGHBOURS[s])]


def moves(s: Snort) -> list:
    return legal(dict(s.colours), s.who)


def apply(s: Snort, m: int):
    after = Snort(tuple(sorted(s.colours + ((m, s.who),))), 1 - s.who)
    return after, (s.who if not legal(dict(after.colours), after.who) else None)


def text(s: Snort, m: int) -> str:
    return f"Painter#{s.who}.Paint(shire: Shire#{m})"


def observed(state) -> tuple:
    w = state.world
    return tuple(sorted((s, int(f["Colour"])) for s in SPOTS
                        if (f := w.fields(w.named(f"Shire#{s}")))["Colour"] is not None))


def runtime_start():
    return load_game(game("snort")).initial_state(0)


def test_the_model_counts_the_maps_plays():
    assert len(EDGES) == 13 and sorted(len(NEIGHBOURS[s]) for s in SPOTS) == [2, 2, 2, 3, 3, 3, 3, 4, 4]
    # painting Crane first leaves blue only Dale, Fenwick, Heath and Ivy; blue's Fenwick then shuts red out of Dale
    s, result = apply(Snort(), 2)
    assert moves(s) == [3, 5, 7, 8] and result is None
    s, result = apply(s, 5)
    assert moves(s) == [0, 1, 4, 8] and result is None


def test_the_whole_move_tree_is_the_models():
    assert runtime_perft(runtime_start(), 10) == model_perft(moves, apply, Snort(), 10) == 702


@pytest.mark.parametrize("chooser", range(1, 9))
def test_seeded_plays_end_as_the_model_says(chooser):
    plays_to_the_seen_models_end(runtime_start(), Snort(), Lcg(chooser), moves, apply, text, observed)


def test_the_seeded_plays_reach_both_wins():
    assert model_results(moves, apply, Snort(), [Lcg(c) for c in range(1, 9)]) == {0, 1}


def test_snort_checks_clean_and_plays_to_its_end():
    checks_clean_and_plays(game("snort"))


def test_snort_lowers_and_is_bisimilar_to_the_runtime(tmp_path):
    r = to_gdl(tmp_path, Path(game("snort")))
    assert r.exit_code == 0, r.output
    # every reachable state compared: the model's 702 plays end in fewer states than that
    assert r.kif.splitlines()[1].startswith("; validated: bisimulation, ")
    assert 0 < rules_with_a_body(r.kif) <= 2_000
