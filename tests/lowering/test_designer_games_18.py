"""Snakes and ladders on 16 squares, written as a designer writes it (tests/data/designers/snakes.tgpl): a die of
four thrown by the move, where each square leads kept in a list of numbers read by the square reached, an
exact landing on the last square to win (a throw that overshoots leaves the token where it is), and a rest
allowed once a game (`require`).

Compiled (`--moves compiled`), the throw that overshoots is a way that tests a number, writes no counter and
goes on: no probe of the relaxation read it, so its test (`greater`) had no rows and the way never held; the
validation caught it (exit 2). Every such way is now a probe (`CompiledGame.probes`)."""

from __future__ import annotations

import re

from click.testing import CliRunner

from tgpl.cli import main
from tgpl.verify.chance_machine import ChanceMachine
from tgpl.runtime.game import load_game

from test_designer_games_3 import game


def square(state, seat: int) -> float:
    w = state.world
    return w.fields(w.named(f"Token#{seat}"))["Square"]


def test_an_overshooting_throw_stays_and_passes_the_turn():
    """Played on the runtime with each die's face chosen (every outcome of a throw, as the validation plays them)."""
    game_ = load_game(game("snakes"))
    chances = ChanceMachine(game_, 0)

    def play(state, text, face=None):
        runs = chances._apply_all(state, state.resolve(text))
        if face is None:
            assert len(runs) == 1 and not runs[0][2]
            return runs[0][3]
        (nxt,) = [nxt for _, values, _, nxt in runs if values == [face - 1]]
        return nxt

    state = game_.initial_state(0)
    for text, face in [("Token#0.Throw()", 3), ("Token#1.Throw()", 1), ("Token#0.Throw()", 3),
                       ("Token#1.Rest()", None), ("Token#0.Throw()", 2), ("Token#1.Throw()", 3)]:
        state = play(state, text, face)
    assert square(state, 0) == 13  # 3 climbs the ladder to 8, then 11, then 13
    state = play(state, "Token#0.Throw()", 3)  # 16 overshoots 15
    assert square(state, 0) == 13
    assert not state.is_terminal and [m.text for m in state.legal_moves()] == ["Token#1.Throw()"]


def test_snakes_compiled_lowers_and_validates(tmp_path):
    r = CliRunner().invoke(main, ["to-gdl", game("snakes"), "--moves", "compiled", "-o", str(tmp_path / "c.kif")])
    assert r.exit_code == 0, r.output
    text = (tmp_path / "c.kif").read_text()
    validated = text.splitlines()[1]
    steps = int(re.search(r"([\d,]+) steps compared", validated).group(1).replace(",", ""))
    assert steps >= 1_000, validated
    assert "(greater 16 15)" in text and "(greater 17 15)" in text
    assert text.count("\n(<=") <= 60


def test_snakes_by_auto_bisimulates(tmp_path):
    r = CliRunner().invoke(main, ["to-gdl", game("snakes"), "-o", str(tmp_path / "s.kif")])
    assert r.exit_code == 0, r.output
    assert "; validated: bisimulation" in (tmp_path / "s.kif").read_text().splitlines()[1]
