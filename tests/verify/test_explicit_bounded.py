"""`verify --horizon` state by state (tgpl.verify.bounded): the solver's answers, reached by exploring.

A game too large to ground its plays at once (the lowered chess) is searched breadth
first to depth N instead of as answer sets. On the games both searches can do, both
reports must say the same: levels searched, completeness, the first stuck state, bad
goal and win with witnesses of the same length, best goals, a play still going.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from test_example_defects import reaches, replay
from tgpl.asp.bounded import bounded_verify
from tgpl.asp.kif import read_kif_file
from tgpl.asp.reasoner import GdlGame
from tgpl.asp.verify import GdlMachine
from tgpl.cli import main
from tgpl.runtime import load_game
from tgpl.verify.runtime_machine import RuntimeMachine
from tgpl.verify.bounded import explore_bounded
from tgpl.verify.graph import explore

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
GDL = [ROOT / "examples" / "gdl" / "tictactoe.kif", *sorted(DATA.glob("gdl_defect_*.kif"))]
TRIS = ROOT / "examples" / "tris.tgpl"
CHESS = ROOT / "examples" / "chess" / "chess.tgpl"
# tic-tac-toe's positions after 0..9 moves, play stopping at a win (the known counts)
TRIS_LEVELS = [1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78]


def summary(report) -> dict:
    """What both searches must agree on (witness lengths: both find shortest ones)."""
    def size(f):
        return None if f is None else len(f.witness)

    return {"searched": report.searched, "complete": report.complete, "stuck": size(report.stuck),
            "goal": size(report.bad_goal), "going": size(report.going),
            "wins": {r: size(w) for r, w in report.wins.items()},
            "best": {r: None if b is None else b[0] for r, b in report.best.items()},
            "problems": sorted(p.kind for p in report.problems)}


@pytest.mark.parametrize("path", GDL, ids=lambda p: p.stem)
def test_the_explicit_search_says_what_the_solver_says(path):
    program = read_kif_file(path)[0]
    game = GdlGame.load(path)
    for horizon in range(0, 10):
        solver = bounded_verify(program, horizon)
        explicit = explore_bounded(GdlMachine(game), horizon)
        assert summary(explicit) == summary(solver), horizon
        assert (explicit.cycle is None) <= (solver.cycle is None)  # a lasso the solver finds, exploring finds


@pytest.mark.parametrize("name, kind", [
    ("tris_stuck.tgpl", "stuck"), ("tris_unwinnable.tgpl", "unwinnable"),
    ("tris_loop.tgpl", "cycle"), ("tris_no_winner.tgpl", "goal"),
])
def test_the_defects_found_on_the_runtime_replay(name, kind):
    report = explore_bounded(RuntimeMachine(load_game(str(DATA / "defects" / name))), 9)
    problems = {p.kind: p for p in report.problems}
    assert kind in problems
    role = 1 if kind == "unwinnable" else None
    if kind == "unwinnable":
        assert report.complete and problems[kind].role == "player 1"
    reaches(kind, replay(name, problems[kind].witness.lines), role)


class Counting(RuntimeMachine):
    """The runtime, counting the states expanded and those only examined."""

    def __init__(self, game):
        super().__init__(game)
        self.calls = {"info": 0, "leaf_info": 0}

    def info(self, state, successors=True):
        self.calls["info" if successors else "leaf_info"] += 1
        return super().info(state, successors)


@pytest.mark.parametrize("depth", [0, 1, 4, 9])
def test_a_search_limited_in_depth_stores_the_levels_within_it_and_expands_all_but_the_last(depth):
    machine = Counting(load_game(str(TRIS)))
    g = explore(machine, max_depth=depth)
    assert g.complete and g.states == sum(TRIS_LEVELS[:depth + 1])
    assert max(g.depth) == depth and all(not g.edges[v] for v in range(g.states) if g.depth[v] == depth)
    assert machine.calls["leaf_info"] == TRIS_LEVELS[depth]


def test_a_capped_search_claims_only_the_levels_it_examined_whole():
    machine = RuntimeMachine(load_game(str(TRIS)))
    report = explore_bounded(machine, 9, max_states=300)
    assert report.stopped and "--max-states" in report.stopped
    assert not report.complete and report.searched == 2  # level 3 (252 states) was cut by the cap
    assert report.going is not None and len(report.going.witness) == 2
    assert all(w is None for w in report.wins.values())  # the first win takes 5 moves
    full = explore_bounded(machine, 5)
    assert full.searched == 5 and len(full.wins["player 0"].witness) == 5


def test_chess_is_searched_state_by_state_within_its_caps(shared_lowering):
    """Both searches below lower chess the same way first: lowered once for the two (`shared_lowering`)."""
    r = CliRunner().invoke(main, ["verify", str(CHESS), "--horizon", "6", "--max-states", "3000"])
    assert r.exit_code == 0, r.output
    assert "searched state by state on the runtime" in r.output
    assert "the state cap (3000 states stored, --max-states): only the plays of up to 2 moves" in r.output
    r = CliRunner().invoke(main, ["verify", str(CHESS), "--horizon", "2", "--max-states", "60", "--json",
                                  "--engine", "clingo"])
    assert r.exit_code == 0, r.output
    rep = json.loads(r.output)
    # the cap is reached while storing the replies; the first moves' states are all examined
    assert rep["states"] == 21 and rep["searched"] == 1 and len(rep["going"]["witness"]) == 1
    assert not rep["complete"] and "--max-states" in rep["stopped"]
