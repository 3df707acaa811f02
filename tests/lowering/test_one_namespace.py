"""A constant and a relation of the GDL are never given one name (tgpl.lowering.emit.Names, `share`).

Lines of Action's turn `Turns` and its attribute `Lines.Turns` were both written `turns`: a constant in
`(control player_0 turns play)` and a function of two arguments in `(turns lines 3)`, one symbol of two
arities, which `check-gdl` warns of and GDL's checkers refuse. Both emitters (the moves spelled out, and
compiled) name constants and relations in namespaces that share their names."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tgpl.cli import main
from tgpl.lowering.emit import Names

RUNS = Path(__file__).resolve().parents[1] / "data" / "lowering" / "runs.tgpl"


def test_shared_namespaces_give_no_name_twice():
    constants = Names()
    relations = Names(share=constants)
    assert constants.name(("turn", "Turns"), "Turns") == "turns"
    assert relations.name(("attr", "Turns"), "Turns") == "turns_2"
    assert relations.name(("attr", "Owner"), "Owner") == "owner"
    assert constants.name(("obj", "owner"), "owner") == "owner_2"
    assert Names().name(("attr", "Turns"), "Turns") == "turns"  # alone, as before


@pytest.mark.parametrize("moves", ["spelled", "compiled"])
def test_a_turn_and_an_attribute_of_one_name_are_two_symbols(tmp_path, moves):
    src = tmp_path / "clash.tgpl"
    src.write_text(RUNS.read_text(encoding="utf-8").replace("Claims", "Turns"), encoding="utf-8")
    out = tmp_path / "clash.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(src), "--moves", moves, "-o", str(out)])
    assert r.exit_code == 0, r.output
    text = out.read_text(encoding="utf-8")
    assert "(turns line " in text and "(control player_0 turns_2 play)" in text
    r = CliRunner().invoke(main, ["check-gdl", str(out)])
    assert r.exit_code == 0, r.output
    assert "is a constant here but a function" not in r.output, r.output
