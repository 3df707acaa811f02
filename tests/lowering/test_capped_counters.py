"""Counters the game bounds, capped where the moves are spelled out (tgpl.lowering.saturate.capped_counters, issue 34).

A counter written only by numbers >= 0 and by sums never negative (`Pot += a + b`, two dice), read only where it is
compared with numbers or added into another such counter (`Banked += Pot`, `Banked >= 20`), plays alike from T up,
T one more than the largest number it is compared with, raised to the T of the counters it is added into. Where its
range runs away, the game is lowered again with every such counter held as min(value, T), and validated against the
runtime's values cut down to T. Sevens (tests/data/designers/sevens.tgpl, its pot rolled on for ever) and Stockpile
(tests/data/lowering/stockpile.tgpl, a shared store added into a score) were refused at the runaway write before.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from test_saturate import GAME as SATURATE_GAME
from tgpl.cli import main
from tgpl.frontend.loader import load_program
from tgpl.lowering import segments
from tgpl.lowering.saturate import capped_counters
from to_gdl_runs import to_gdl

DATA = Path(__file__).resolve().parents[1] / "data"
SEVENS = DATA / "designers" / "sevens.tgpl"
STOCKPILE = DATA / "lowering" / "stockpile.tgpl"

# test_saturate's game, its counters Pot and Banked, a die thrown before the effect
GAME = SATURATE_GAME.replace("number Moves = 0;", "number Pot = 0;").replace("number Other = 0;", "number Banked = 0;")
CHECK = "if (Game.Banked >= 20) { winner { {0, 1} }; }"


def caps(effect: str, check: str = CHECK, initial: dict | None = None) -> dict[str, int]:
    program = load_program("count.tgpl", text=GAME.format(effect="number face = roll(6); " + effect, check=check))
    assert program.ok, [d.message for d in program.diagnostics]
    return capped_counters(program, {"Pot", "Banked"}, initial or {"Pot": [0.0], "Banked": [0.0]})


def test_a_counter_added_into_a_capped_counter_takes_its_cap():
    assert caps("Game.Pot += face + 1; Game.Banked += Game.Pot; Game.Pot = 0;") == {"Banked": 21, "Pot": 21}
    # its own comparisons raise its cap past the other's; a cap never falls below the counter it is added into
    assert caps("Game.Pot += face; if (Game.Pot < 40) { Game.Banked += 2 + Game.Pot; }") == {"Banked": 21, "Pot": 41}
    assert caps("Game.Pot += face; Game.Banked += Game.Pot;", "if (Game.Banked >= 3) { winner 0; }") \
        == {"Banked": 4, "Pot": 4}


@pytest.mark.parametrize("effect", [
    "Game.Pot += face; Game.Banked += Game.Pot - 1;",  # added less something: it may fall from past the cap
    "Game.Pot -= face; Game.Banked += Game.Pot;",  # it falls
    "Game.Pot += player; Game.Banked += Game.Pot;",  # by a number the capping does not follow
    "Game.Pot += face; Game.Banked += Game.Pot * 2;",  # read in other arithmetic
    "Game.Pot += face; Game.Banked = Game.Pot;",  # its value copied
    "Game.Pot += -1; Game.Banked += Game.Pot;",  # a negative step
    "Game.Pot = -3; Game.Banked += Game.Pot;",  # set below 0: a counter past the cap would be lowered by it
    "number n = face; n = n - 7; Game.Pot += n; Game.Banked += Game.Pot;",  # a local assigned again
])
def test_a_counter_that_may_fall_or_is_read_otherwise_is_not_capped(effect):
    assert "Pot" not in caps(effect)


def test_a_counter_added_into_one_that_cannot_be_capped_is_not_capped_either():
    found = caps("Game.Pot += face; Game.Banked += Game.Pot;", "if (Game.Banked % 7 == 0) { winner 0; }")
    assert found == {}


def test_values_after_setup_past_the_cap_or_below_zero_leave_the_counter_out():
    effect = "Game.Pot += face; Game.Banked += Game.Pot;"
    assert caps(effect, initial={"Pot": [0.0], "Banked": [22.0]}) == {}  # Pot is added into Banked: out too
    assert caps(effect, initial={"Pot": [-1.0], "Banked": [0.0]}) == {}  # Banked may fall by Pot: out too
    assert caps(effect, initial={"Pot": [21.0], "Banked": [3.0]}) == {"Banked": 21, "Pot": 21}


def _values(kif: str, relation: str) -> set[int]:
    return {int(line.split()[-1].rstrip(")")) for line in kif.splitlines()
            if line.startswith(f"(base ({relation} ")}


def test_sevens_lowers_validated_its_pot_capped_at_the_bank_target(tmp_path):
    """Refused before at `Pot += a + b;` ("Thrower#0.Pot takes more than 256 values"): the pot is only compared with
    0 and banked, and the bank only compared with 20, so both are held within 0..21 and the game validates."""
    r = to_gdl(tmp_path, SEVENS)
    assert r.exit_code == 0, r.output
    kif = r.kif
    assert "; validated: " in kif and "to the end of the game" in kif
    assert _values(kif, "pot") == set(range(22)) - {1}  # the two dice make 2 at least
    assert max(_values(kif, "banked")) == 21


def test_stockpile_a_shared_store_added_into_a_score_lowers_validated(tmp_path):
    r = to_gdl(tmp_path, STOCKPILE)
    assert r.exit_code == 0, r.output
    kif = r.kif
    assert "; validated: " in kif and "to the end of the game" in kif
    assert _values(kif, "store") == set(range(32))
    r = CliRunner().invoke(main, ["check-gdl", str(r.out)])
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("source, attr, cap", [(SEVENS, "Pot", 12), (STOCKPILE, "Store", 5)])
def test_a_cap_too_low_is_caught_by_the_validation(monkeypatch, tmp_path, source, attr, cap):
    """A cap planted below what the counters it is added into need: the GDL adds the cut value where the runtime
    adds the whole one, and the validation, comparing the runtime's values cut down to the same caps, sees the
    score differ. Nothing is written."""
    def planted(*args):
        return {**capped_counters(*args), attr: cap}
    monkeypatch.setattr(segments, "capped_counters", planted)
    r = to_gdl(tmp_path, source)
    assert r.exit_code == 2, r.output
    assert "the GDL differs from the runtime" in r.output
    assert not r.out.exists()


def test_a_capped_counter_with_too_many_values_is_refused_naming_its_cap(tmp_path):
    """unbounded.tgpl without its step back, Stop legal past 400 steps: capped at 401, still past the 256 values a
    number may take; the refusal says so at the write that grows it, rather than that nothing bounds it."""
    text = (DATA / "lowering" / "unbounded.tgpl").read_text(encoding="utf-8")
    back = text.index("    action Back")
    text = text[:back] + text[text.index("    action Stop"):]
    text = text.replace("return Tabletop.Steps > 2;", "return Tabletop.Steps > 400;")
    source = tmp_path / "steps.tgpl"
    source.write_text(text, encoding="utf-8")
    r = to_gdl(tmp_path, source, "--no-validate")
    assert r.exit_code == 2 and not r.out.exists(), r.output
    first = r.output.splitlines()[0]
    assert "steps.tgpl:31:13: error: not lowerable: Tabletop.Steps takes more than 256 values" in first, first
    assert "it is held within its cap, 401," in first and "ever larger" not in first, first
    text = text.replace("Tabletop.Steps > 400", "Tabletop.Steps > 40")
    source.write_text(text, encoding="utf-8")
    r = to_gdl(tmp_path, source, "--no-validate")  # (validated, its runtime explored: minutes)
    assert r.exit_code == 0, r.output
    assert _values(r.kif, "steps") == set(range(42))
