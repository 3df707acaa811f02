"""Harvest, written as a designer writes it (tests/data/designers/harvest.tgpl): two farmers, three plots each
(interactables in a list of every plot), a move grows one of your plots by one or two (at most 3 a plot) or raids
one of the other farmer's, taking a crop; after eight turns the larger harvest wins. The harvest is a function
that loops over the list and adds the crops of the plots a farmer owns, so the end check compares two sums of
three counters each: written as chains over a number line (tgpl.lowering.number_chains), not one rule per
combination of the six crops.

The runtime is checked against an independent model (crops by plot, plain Python): the move tree's first levels
and seeded plays to their end, legal moves and results compared at every move."""

from __future__ import annotations

import pytest

from differential import model_perft, plays_to_the_models_end, runtime_perft
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game

TURNS = 8
WORK = {-1: 0, 1: 1, 2: 2}  # a work's delta -> its object, Work#k, in the order setup made them
START = ((0,) * 6, 0, 0)  # each plot's crops (plots 0..2 are player 0's), the player to move, turns made


def owner(plot: int) -> int:
    return 0 if plot < 3 else 1


def model_moves(state) -> list[tuple[int, int]]:
    crops, who, _ = state
    out = []
    for plot, crop in enumerate(crops):
        for delta in WORK:
            if delta > 0 and owner(plot) == who and crop + delta <= 3 or delta < 0 and owner(plot) != who and crop > 0:
                out.append((plot, delta))
    return out


def model_apply(state, move):
    """The next state, and the result: the winner, "draw", or None while the play goes on."""
    crops, who, made = state
    plot, delta = move
    nxt = (crops[:plot] + (crops[plot] + delta,) + crops[plot + 1:], 1 - who, made + 1)
    if made + 1 < TURNS:
        return nxt, None
    mine, theirs = sum(nxt[0][:3]), sum(nxt[0][3:])
    return nxt, 0 if mine > theirs else 1 if theirs > mine else "draw"


def model_text(state, move) -> str:
    plot, delta = move
    return f"Farmer#{state[1]}.Tend(plot: Plot#{plot}, work: Work#{WORK[delta]})"


def crops(state) -> tuple:
    w = state.world
    return tuple(int(w.fields(w.named(f"Plot#{p}"))["Crop"]) for p in range(6))


def test_harvest_move_tree_is_the_models():
    start = load_game(game("harvest")).initial_state(0)
    assert crops(start) == START[0]
    assert model_perft(model_moves, model_apply, START, 1) == 6  # three plots, grown by one or two
    model = [model_perft(model_moves, model_apply, START, d) for d in range(1, 5)]
    assert [runtime_perft(start, d) for d in range(1, 5)] == model


@pytest.mark.parametrize("seed", range(12))
def test_harvest_plays_to_the_models_end(seed):
    plays_to_the_models_end(load_game(game("harvest")).initial_state(0), START, Lcg(seed), model_moves,
                            model_apply, model_text, crops)


def test_harvest_lowers_its_sums_as_chains(tmp_path):
    """The end check compares Harvest(who: 0) and Harvest(who: 1), three crops each in 0..3: the sums are
    relations chained over `plus`, and the lowered game is validated over whole games."""
    from click.testing import CliRunner
    from tgpl.cli import main

    out = tmp_path / "harvest.kif"
    r = CliRunner().invoke(main, ["to-gdl", game("harvest"), "-o", str(out)])
    assert r.exit_code == 0, r.output
    text = out.read_text()
    lines = text.splitlines()
    assert lines[1].startswith("; validated: ") and "to the end of the game" in lines[1], lines[1]
    rules = text.split("\n\n")
    chained = [x for x in rules if x.startswith("(<= (sum")]  # a partial sum, from the one before and a crop
    assert len(chained) == 2 and all("(plus ?u ?w ?v)" in x and "(true (crop " in x for x in chained), chained
    compared = [x for x in rules if x.startswith("(<= compare_") and "(sum " in x]
    assert compared and all("plot_0 plot_1 plot_2)" in x and "plot_3 plot_4 plot_5)" in x for x in compared)
