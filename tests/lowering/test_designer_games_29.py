"""Dots and boxes on a graph board, written as a designer writes it (tests/data/designers/dotsgraph.tgpl): nine
dots (tiles of a `geometry graph` group, built in its `default` block) joined to their neighbours by connections
that carry a `Drawn` flag, one each way; a move names two neighbouring dots (the second filtered by the first,
`LineBetween` a search of the first dot's connections), draws both connections, and counts the boxes it closes by
walking the drawn lines around it; closing a box draws again; when the twelve lines are drawn, more boxes wins.

The runtime is checked against an independent model (lines as pairs of dot numbers, boxes as their four sides):
the move tree's first levels and seeded plays to their end. What the lowering does with it is in
`test_dotsgraph_lowering_as_it_is`."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from differential import model_perft, model_results, plays_to_the_models_end, runtime_perft
from tgpl.cli import main
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game

# the lines, as (lower dot, higher dot) on the 3 x 3 dots numbered row by row
LINES = tuple(sorted([(d, d + 1) for d in range(9) if d % 3 < 2] + [(d, d + 3) for d in range(6)]))
# each box by its top-left dot: its four sides
BOXES = tuple(frozenset({(t, t + 1), (t, t + 3), (t + 1, t + 4), (t + 3, t + 4)}) for t in (0, 1, 3, 4))

# the model's state: ((each seat's boxes, lines drawn), (the drawn lines, the seat to move))
START = (((0, 0), 0), (frozenset(), 0))


def model_moves(state):
    _, (drawn, _) = state
    return [line for line in LINES if line not in drawn]


def model_apply(state, line):
    """The next state, and the result once every line is drawn (None while the play goes on)."""
    (boxes, count), (drawn, who) = state
    drawn = drawn | {line}
    closed = sum(1 for box in BOXES if line in box and box <= drawn)
    boxes = tuple(b + closed if p == who else b for p, b in enumerate(boxes))
    nxt = ((boxes, count + 1), (drawn, who if closed else 1 - who))
    if count + 1 < len(LINES):
        return nxt, None
    return nxt, 0 if boxes[0] > boxes[1] else 1 if boxes[1] > boxes[0] else "draw"


def model_text(state, line) -> str:
    _, (_, who) = state
    return f"Pencil#{who}.DrawLine(from: Dot#{line[0]}, to: Dot#{line[1]})"


def observed(state) -> tuple:
    w = state.world
    boxes = tuple(int(w.fields(w.named(f"Pencil#{p}"))["Boxes"]) for p in (0, 1))
    return (boxes, int(w.fields(w.named("Sheet"))["Lines"]))


def test_the_model_closes_two_boxes_with_the_middle_line():
    drawn = frozenset(LINES) - {(1, 4)}
    state = (((0, 0), 11), (drawn, 1))
    (boxes, _), (_, who) = model_apply(state, (1, 4))[0]
    assert boxes == (0, 2) and who == 1
    assert model_apply(state, (1, 4))[1] == 1


def test_dotsgraph_move_tree_is_the_models():
    start = load_game(game("dotsgraph")).initial_state(0)
    assert observed(start) == START[0]
    model = [model_perft(model_moves, model_apply, START, d) for d in range(1, 4)]
    assert model == [12, 12 * 11, 12 * 11 * 10]  # no box can close in three lines
    assert [runtime_perft(start, d) for d in range(1, 4)] == model


@pytest.mark.parametrize("seed", range(16))
def test_dotsgraph_plays_to_the_models_end(seed):
    plays_to_the_models_end(load_game(game("dotsgraph")).initial_state(0), START, Lcg(seed), model_moves,
                            model_apply, model_text, observed)


def test_the_seeded_plays_reach_every_result():
    """The plays above are worth something only if they close boxes and end every way: both seats win, or draw."""
    assert model_results(model_moves, model_apply, START, map(Lcg, range(16))) == {0, 1, "draw"}


def test_dotsgraph_lowering_as_it_is():
    """Refused in seconds (11 s of CPU, 400 MB), located at `LineBetween`'s loop over a dot's connections with the
    rewrite hint: spelled out, the move's effect asks `LineBetween` and `IsDrawn` of every dot around the new line,
    each a search of connections whose `Drawn` flags the moves change, past the budget of parts. Compiled, the
    counter ranges' relaxation (`CompiledGame.relax`, part "numbers") follows `closed`, counted in two loops over
    connections, to at most their lengths (tests/lowering/test_forgotten_counts.py), and `Boxes += closed` is a
    counter nothing bounds (the game ends on `Lines`): refused at that write, before the two seats' `Boxes` are
    compared pair by pair up to the bound (2.6 GB and a minute of grounding for a rewrite with `Boxes += 1`)."""
    r = CliRunner().invoke(main, ["to-gdl", game("dotsgraph"), "--no-validate"])
    assert r.exit_code == 2
    first = r.output.splitlines()[0]
    assert "dotsgraph.tgpl:95:13: error: not lowerable: " in first and "LineBetween" in first, first
    assert "--moves compiled or --functions-as-relations" in first
    compiled = next(line for line in r.output.splitlines() if "with the moves compiled instead" in line)
    assert "dotsgraph.tgpl:151:13: error: not lowerable: " in compiled, r.output
    assert "numbers grow past 1000" in compiled and "'Boxes' (0..32 so far) not bounded" in compiled, compiled
    assert "unsafe" not in r.output, r.output


def test_dotsgraph_with_its_boxes_tested_before_the_write_lowers_compiled(tmp_path):
    """The rewrite the refusal asks for, `if (Boxes <= 4)` before `Boxes += closed` (true in every play: four
    boxes in all), lowers with the moves compiled (`auto` falls back to them) and passes its validation: `closed`
    is followed through both loops, and the turn passed on where no box closes reaches the GDL (a join after the
    loops used to give every way the mover's turn, `compiled._passed_on`; the first move kept the turn)."""
    source = tmp_path / "dotsgraph_bounded.tgpl"
    text = Path(game("dotsgraph")).read_text()
    assert text.count("Boxes += closed;") == 1
    source.write_text(text.replace("Boxes += closed;", "if (Boxes <= 4) { Boxes += closed; }"))
    out = tmp_path / "dotsgraph_bounded.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(source), "-o", str(out)])
    assert r.exit_code == 0, r.output
    kif = out.read_text()
    assert "; validated:" in kif and "its moves compiled" in kif
