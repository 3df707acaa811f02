"""State the game never reads is not lowered (language decision 109, tgpl.lowering.unread).

tests/data/lowering/switches.tgpl keeps two statistics nothing reads: `Panel.Flips`, a counter that grows for
ever (plays go on, on, off, on ...), and `Panel.Last`, who flipped last. As fluents, the counter has no finite
range and the game was refused ("Panel.Flips takes more than 256 values"). Left out, the game lowers, its header
says so, and it is bisimulated with the runtime, whose states that differ only in them are one state. Where the
same attribute is read, only in a `winner` or only in a trigger's condition, it is state as before.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from differential import Lowered, bisimulate
from tgpl.cli import main
from tgpl.frontend.loader import load_program
from tgpl.lowering.lower import NotLowerable
from tgpl.lowering.unread import unread_attributes

GAME = Path(__file__).resolve().parents[1] / "data" / "lowering" / "switches.tgpl"
HEADER = "; Not lowered: Panel.Flips, Panel.Last (written, never read)."


def text() -> str:
    return GAME.read_text()


def rules(kif: str) -> str:
    """The GDL without its header's comments."""
    return "\n".join(line for line in kif.splitlines() if not line.startswith(";"))


def test_the_unread_statistics_are_found():
    found = unread_attributes(load_program(str(GAME)))
    assert found.names == {"Flips", "Last"}
    assert found.labels == ("Panel.Flips", "Panel.Last")
    assert len(found.writes) == 4  # `+= 1`, `= Panel.Flips + 1`, and `Last = player` twice


@pytest.mark.parametrize("moves", ["spelled", "compiled"])
def test_to_gdl_leaves_them_out_and_validates_by_bisimulation(tmp_path, moves):
    """Spelled out, the executor drops their writes; compiled, the segments' compiler does."""
    out = tmp_path / "switches.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(GAME), "--moves", moves, "-o", str(out)])
    assert r.exit_code == 0, r.output
    kif = out.read_text()
    lines = kif.splitlines()
    assert lines[1] == "; validated: bisimulation, 4 states"
    assert HEADER in lines
    assert "flips" not in rules(kif) and "last" not in rules(kif)
    r = CliRunner().invoke(main, ["check-gdl", str(out)])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(main, ["compare", str(GAME), str(out)])
    assert r.exit_code == 0 and "equivalent" in r.output, r.output


def test_the_runtime_states_differing_only_in_them_are_one_state():
    lw = Lowered.of(str(GAME))
    assert {attr for _, attr in lw.lowered.emitter.logic.fluents} == {"A", "B"}
    assert bisimulate(lw).states == 4
    d = lw.differential
    start = d.initial
    again = start.apply("Seat#0.FlipA()").apply("Seat#1.FlipA()")  # back to both off, two flips later
    assert again.key() != start.key() and d.key(again) == d.key(start)
    assert d.encoded(again) == d.encoded(start)


def test_the_dry_run_says_so():
    r = CliRunner().invoke(main, ["to-gdl", "--dry-run", str(GAME)])
    assert r.exit_code == 0, r.output
    assert "note: not lowered: Panel.Flips, Panel.Last (written, never read: no state, their writes dropped)" \
        in r.output


def test_read_only_in_a_winner_it_is_state(tmp_path):
    """`winner Panel.Last;` reads Last: a fluent again, bisimulated; Flips still left out."""
    source = text().replace("winner player;", "winner Panel.Last;")
    assert source.count("winner Panel.Last;") == 2
    lw = Lowered.of_text(source, str(tmp_path / "switches.tgpl"))
    assert {attr for _, attr in lw.lowered.emitter.logic.fluents} == {"A", "B", "Last"}
    assert unread_attributes(lw.game.program).labels == ("Panel.Flips",)
    # both off with no flip yet, and both off again after player 1's: Last tells them apart
    assert bisimulate(lw).states == 5


def test_read_only_in_a_trigger_it_is_state_and_refused_as_before(tmp_path):
    """A trigger's condition reads Flips: state again, and with no bound the game is refused at the counter."""
    source = text().replace("trigger PlayerChoiceEvent { return true; }",
                            "trigger PlayerChoiceEvent { return Panel.Flips < 1000; }", 1)
    with pytest.raises(NotLowerable, match="Panel.Flips takes more than 256 values"):
        Lowered.of_text(source, str(tmp_path / "switches.tgpl"))


@pytest.mark.parametrize("write, unread", [
    ("Panel.Flips = 1 + Panel.Flips;", True),  # its own read, either side of a +
    ("Panel.Flips -= 2;", True),
    ("Panel.Flips *= 2;", False),  # not a write this pass reads as one: kept
    ("Panel.Flips = 2 - Panel.Flips;", False),  # the value depends on it otherwise than by a step
    ("number n = Panel.Flips;", False),  # a read, whatever is done with it
    ("if (Panel.Flips > 3) { Panel.A = true; }", False),
])
def test_what_counts_as_never_read(tmp_path, write, unread):
    source = text().replace("Panel.Flips += 1;", write)
    program = load_program(str(tmp_path / "switches.tgpl"), text=source)
    assert program.ok
    assert ("Flips" in unread_attributes(program).names) == unread


def test_a_game_with_secrets_keeps_them(tmp_path):
    """There a player sees, after every step, the attributes it may see: nothing is left out."""
    source = text().replace("    bool A = false;", "    private bool A = false;")
    program = load_program(str(tmp_path / "switches.tgpl"), text=source)
    assert program.ok
    assert unread_attributes(program).names == frozenset()


def test_to_asp_shares_the_lowering_and_says_so(tmp_path):
    out = tmp_path / "switches.lp"
    r = CliRunner().invoke(main, ["to-asp", str(GAME), "-o", str(out)])
    assert r.exit_code == 0, r.output
    lines = out.read_text().splitlines()
    assert lines[0].startswith("% switches: validated: bisimulation, 4 states")
    assert lines[1] == "% Not lowered: Panel.Flips, Panel.Last (written, never read)."
    assert not any("flips" in line for line in lines[2:])


def test_a_game_whose_setup_throws_dice_keeps_them(tmp_path):
    """Setup's dice set cells that random's first move sets (chance.setup_throw): nothing is left out."""
    source = text().replace("    turn.use(\"T\");\n", "    Panel.Flips = roll(2);\n    turn.use(\"T\");\n", 1)
    program = load_program(str(tmp_path / "switches.tgpl"), text=source)
    assert program.ok
    assert unread_attributes(program).names == frozenset()


def test_a_step_of_what_may_be_null_is_a_read(tmp_path):
    """`Flips += 1` on a number declared null stops the runtime: kept, so the lowering meets the step."""
    source = text().replace("    number Flips = 0;", "    number Flips = null;")
    program = load_program(str(tmp_path / "switches.tgpl"), text=source)
    assert program.ok
    assert unread_attributes(program).names == {"Last"}
