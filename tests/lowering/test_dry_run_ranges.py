"""The dry run never says "lowers" for a game whose counters' ranges the lowering refuses (issue 34).

With its moves compiled, the dry run stopped after compiling the segments and said "lowers" for
tests/data/designers/oware_counted.tgpl, which `tgpl to-gdl --moves compiled` refuses at its write `Seeds += 1`
in the counters' relaxation. It now searches the ranges as the lowering does, up to its own bound
(tgpl.lowering.dry_ranges.DRY_BOUND, a count: the largest number grounded), and past it says "undecided".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tgpl.cli import main
from tgpl.frontend.loader import load_program
from tgpl.lowering import dry_ranges
from tgpl.lowering.lower import NotLowerable
from tgpl.pipeline import assess_game, lower_game
from tgpl.runtime.game import Game, compile_program

ROOT = Path(__file__).resolve().parents[2]
DESIGNERS = ROOT / "tests" / "data" / "designers"


def _game(path: Path | None = None, text: str | None = None) -> Game:
    program = load_program(str(path) if path is not None else "count.tgpl", text=text)
    assert program.ok, [d.message for d in program.diagnostics]
    return Game(program, compile_program(program))


def _counting(end: int) -> str:
    """A game whose one counter steps each move and ends the game at `end`: its range is 0..end."""
    return f"""game "count";
players 2;
setup {{ Seat a = new Seat(); a.assign(0); Seat b = new Seat(); b.assign(1); turn.use("T"); turn.pass(0, "P"); }}
global class Tally {{ number Moves = 0; }}
class Seat
{{
    action Step
    {{
        input bool big {{ return true; }}
        trigger PlayerChoiceEvent {{ return true; }}
        effect {{ Tally.Moves += 1; if (Tally.Moves >= {end}) {{ winner player; }} turn.pass(); }}
    }}
}}
turn T
{{
    phase P {{ }}
    default {{ return player.active() + 1; }}
}}
"""


def test_oware_counted_compiled_is_refused_where_the_lowering_refuses_it():
    game = _game(DESIGNERS / "oware_counted.tgpl")
    answer = assess_game(game, moves="compiled")
    assert answer.verdict == "refused"
    with pytest.raises(NotLowerable) as lowered:
        lower_game(game, moves="compiled", global_checks=False)
    first = answer.refusals[0]
    assert (first.span.line, first.span.col) == (139, 21)
    assert (first.span, first.reason) == (lowered.value.span, lowered.value.reason)
    assert "'Seeds'" in first.reason and "not bounded by the game" in first.reason


def test_the_cli_dry_run_of_oware_counted_compiled_does_not_exit_0():
    r = CliRunner().invoke(main, ["to-gdl", "--dry-run", "--moves", "compiled", str(DESIGNERS / "oware_counted.tgpl")])
    assert r.exit_code == 1, r.output
    assert "oware_counted.tgpl:139:21: error: not lowerable: the moves cannot be compiled" in r.stderr
    assert "does not lower: 1 refusal" in r.stdout


def test_ranges_within_the_dry_runs_bound_are_found_and_the_game_lowers():
    game = _game(text=_counting(100))
    answer = assess_game(game, moves="compiled")
    assert answer.verdict == "lowers", answer.notes
    assert answer.figures["counters' ranges searched up to"] <= dry_ranges.DRY_BOUND
    lower_game(game, moves="compiled", global_checks=False)  # and the lowering agrees


def test_ranges_past_the_dry_runs_bound_are_undecided_not_lowers(monkeypatch, tmp_path):
    path = tmp_path / "count.tgpl"
    path.write_text(_counting(100))
    monkeypatch.setattr(dry_ranges._RangedGame, "dry_bound", 32)  # the counter needs 100: past the first rung
    answer = assess_game(_game(path), moves="compiled")
    assert answer.verdict == "undecided"
    assert any("counters' ranges were searched up to 32" in n for n in answer.notes), answer.notes
    r = CliRunner().invoke(main, ["to-gdl", "--dry-run", "--moves", "compiled", str(path)])
    assert r.exit_code == 2, r.output  # undecided (docs/lowering.md, the dry run)
    assert "undecided" in r.stdout
