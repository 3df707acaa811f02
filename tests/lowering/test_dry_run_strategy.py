"""A dry run asked for a strategy that cannot apply refuses the game, located, as the lowering does.

`--moves compiled` on a game whose deal is random's move (GDL-II) is refused by `lower.moves_strategy`; the
lowering reported it, and the dry run let it out as a traceback. (An action's dice are compiled now:
tests/lowering/test_chance_out.py.)
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from tgpl.cli import main

DEAL = str(Path(__file__).resolve().parents[2] / "tests" / "data" / "lowering" / "deal.tgpl")
REASON = "is lowered with its moves spelled out, not compiled (--moves spelled or auto)"


def test_compiled_moves_of_a_dealing_game_are_refused_by_the_dry_run_as_by_the_lowering():
    dry = CliRunner().invoke(main, ["to-gdl", DEAL, "--dry-run", "--moves", "compiled"])
    assert dry.exit_code == 1, dry.output
    assert dry.exception is None or isinstance(dry.exception, SystemExit)
    first = dry.output.splitlines()[0]
    assert ": error: not lowerable: " in first and REASON in first and first.startswith("tests/data/lowering/deal.tgpl:61:22:"), first
    lowered = CliRunner().invoke(main, ["to-gdl", DEAL, "--moves", "compiled", "--no-validate", "-o", "/dev/null"])
    assert lowered.exit_code == 2 and lowered.output.splitlines()[0] == first, lowered.output
