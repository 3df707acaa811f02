"""Lights Out on 3 x 3, a puzzle for one written as a designer writes it (tests/data/designers/lights.tgpl): a
press toggles the lamp and, by a loop over the tile's `connections`, its neighbours; setup lights the lamps of
a list of cell numbers; won when every lamp is off, lost (`winner {}`) after six presses.

The runtime is checked against an independent model (lamps as a bit mask, each press a fixed mask): perft
and the puzzle's value. `verify` finds it a forced win (three presses solve it); the lowering spells the nine
presses out and bisimulates (39 rules). `auto` compiles the moves, as for any game whose loop writes the
state: the loop over the connections is spelled out pass by pass, up to the board's largest number of
connections (`SegmentCompiler.static_bound`; refused before, when `auto` fell back to spelling the moves out),
and validates by playouts."""

from __future__ import annotations

from click.testing import CliRunner

from differential import lowered_and_validated, runtime_perft
from tgpl.cli import main
from tgpl.runtime.game import load_game

from test_designer_games_3 import game

LIMIT = 6


def press_mask(x: int, y: int) -> int:
    cells = [(x, y), (x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
    return sum(1 << (cx + 3 * cy) for cx, cy in cells if 0 <= cx < 3 and 0 <= cy < 3)


START = (1 << 0) | (1 << 4) | (1 << 8)


def model_perft(lit: int, presses: int, depth: int) -> int:
    if depth == 0:
        return 1
    n = 0
    for x in range(3):
        for y in range(3):
            after = lit ^ press_mask(x, y)
            done = after == 0 or presses + 1 == LIMIT
            n += 1 if done else model_perft(after, presses + 1, depth - 1)
    return n


def lamps(state) -> int:
    w = state.world
    return sum(1 << (x + 3 * y) for x in range(3) for y in range(3) if w.fields(w.named(f"Lamps[{x}][{y}]"))["On"])


def test_setup_lights_the_corners_and_the_centre():
    assert lamps(load_game(game("lights")).initial_state(0)) == START


def test_lights_move_tree_is_the_models():
    start = load_game(game("lights")).initial_state(0)
    assert [runtime_perft(start, d) for d in range(1, 4)] == [model_perft(START, 0, d) for d in range(1, 4)]


def test_pressing_the_corners_and_the_centre_wins():
    state = load_game(game("lights")).initial_state(0)
    for x, y in [(0, 0), (1, 1), (2, 2)]:
        assert not state.is_terminal
        state = state.apply(state.resolve(f"Solver#0.Push(lamp: Lamps[{x}][{y}])"))
    assert lamps(state) == 0 and state.is_terminal and state.goals[0] == 100


def test_lights_verifies_as_a_forced_win_and_lowers_spelled_out_bisimulated(tmp_path):
    r = CliRunner().invoke(main, ["verify", game("lights")])
    assert r.exit_code == 0, r.output
    assert "  value: win for player 0" in r.output.splitlines()
    out = tmp_path / "lights.kif"
    r = CliRunner().invoke(main, ["to-gdl", game("lights"), "--moves", "spelled", "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert out.read_text().splitlines()[1].startswith("; validated: bisimulation")


def test_lights_compiled_by_auto_unrolls_the_loop_over_the_connections_and_validates(tmp_path):
    text, _ = lowered_and_validated(game("lights"), tmp_path / "lights.kif")
    assert "Played one state at a time (its moves compiled)" in text
