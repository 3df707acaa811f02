"""A comparison of several numbers of the state that is not a sum (no chain over the number line writes it) is
written one rule per combination of their values in range: past segments.COMPARED_COMBOS combinations it is refused
at the comparison, located, with the rewrite to make; the same game with smaller ranges lowers and validates.
tests/data/lowering/product.tgpl compares `Width * Height` with `Goal + 50`, each in 0..100 (101^3 combinations)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from differential import lowered_and_validated
from tgpl.cli import main
from tgpl.lowering.segments import COMPARED_COMBOS

PRODUCT = Path(__file__).resolve().parents[1] / "data" / "lowering" / "product.tgpl"


def test_a_product_of_counters_past_the_combinations_is_refused_at_the_comparison(tmp_path):
    assert 101 ** 3 > COMPARED_COMBOS
    out = tmp_path / "p.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(PRODUCT), "--no-validate", "-o", str(out)])
    assert r.exit_code == 2, r.output
    first = r.output.splitlines()[0]
    assert first.endswith("product.tgpl:30:17: error: not lowerable: this comparison reads 3 numbers of the state at "
                          "once (G.Goal, G.Height, G.Width), with 1,030,301 combinations of their values in range: "
                          "GDL has no arithmetic, so a comparison of numbers is written one rule per combination of "
                          "their values, and past 1,000,000 that is not done; compare fewer numbers at once: keep "
                          "the total compared in an attribute of its own, updated where its parts change (a score "
                          "beside the pieces it counts), or compare each number with a constant"), first
    assert "G.Width * G.Height > G.Goal + 50" in r.output  # the source line, under its caret
    assert not out.exists()


def test_the_same_product_with_small_ranges_lowers_and_validates(tmp_path):
    small = tmp_path / "small.tgpl"
    small.write_text(PRODUCT.read_text().replace("< 100;", "< 12;").replace("+ 50", "+ 5"))
    lowered_and_validated(str(small), tmp_path / "s.kif", to_the_end=False)
