"""The dry run follows `auto`'s choice of moves where the lowering makes it while spelling them out (issue 34).

`tgpl to-gdl` (`--moves auto`) spells out the moves of Knight Isolation on 5 x 5 (25 ways to fill its action's
inputs) until their parts of conditions pass its budget (`lower.spelled_budget`: 200,000), then compiles them and
lowers the game. The dry run stopped its own run at its budget of statements (lowerable.STEPS), before that point,
and said "undecided" (exit 2) from a sampled run of the spelled-out moves that `auto` never finishes. It now runs on
toward the budget of parts while their rate says it is near, stops where the lowering stops (the same statement,
the same parts), and dry-runs the compiled moves there.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from tgpl.cli import main
from tgpl.frontend.loader import load_program
from tgpl.lowering import lower
from tgpl.pipeline import assess_game, lower_game
from tgpl.runtime.game import Game, compile_program

ROOT = Path(__file__).resolve().parents[2]
ISOLATION = ROOT / "tests" / "data" / "designers" / "isolation.tgpl"
TRIS = ROOT / "examples" / "tris.tgpl"


def _game(path: Path) -> Game:
    program = load_program(str(path))
    assert program.ok, [d.message for d in program.diagnostics]
    return Game(program, compile_program(program))


def test_isolations_dry_run_says_it_lowers_with_the_moves_auto_compiles():
    dry = CliRunner().invoke(main, ["to-gdl", str(ISOLATION), "--dry-run"])
    assert dry.exit_code == 0, dry.output
    first = dry.output.splitlines()[0]
    assert first.startswith(f"{ISOLATION}: lowers; its moves compiled once (spelled out, the moves built "), first
    assert "compiled once, its inputs as variables" in dry.output


def test_the_dry_run_stops_spelling_out_where_the_lowering_does(monkeypatch):
    crossed: list[tuple[int, int]] = []
    told = lower._CompiledPast.told

    def watched(self, statements: int, parts: int) -> None:
        if not self.tried and parts > self.budget:
            crossed.append((statements, parts))
        told(self, statements, parts)
    monkeypatch.setattr(lower._CompiledPast, "told", watched)
    game = _game(ISOLATION)
    lowered = lower_game(game, global_checks=False)
    assert len(crossed) == 1 and lowered.program.rules, crossed  # compiled past the budget, and lowered so
    statements, parts = crossed[0]
    answer = assess_game(game)
    assert answer.verdict == "lowers" and answer.moves == "compiled", (answer.verdict, answer.notes)
    assert f"built {parts:,} parts of conditions in {statements:,} statements, more than 200,000" in answer.why


def test_a_game_auto_spells_out_within_its_budget_is_dry_run_spelled_out():
    answer = assess_game(_game(TRIS))
    assert answer.verdict == "lowers" and answer.moves == "spelled", (answer.verdict, answer.why, answer.notes)
    assert not answer.estimated and answer.figures["parts"] <= lower.SPELLED_PARTS, answer.figures
    assert "compiled" not in answer.why, answer.why
