"""A set of numbers filled by a flood's walk, read as one flag per value it can hold (tgpl.lowering.flood_walks,
language decision 114).

tests/data/lowering/flood_set.tgpl floods the group of the stone just played, then walks `group[j]` adding the
column of each cell outside the third row to a local `List<number>` as a set, read after only by `length` and
`contains`. The column of a cell is fixed by setup (0 to 4), so the set holds v exactly where some cell of the
group has column v: one flag per column, set in the scan, and a count of the flags set. The rules are validated
against the runtime, which runs the game as written, and the rewrite itself is played beside the game as written.
"""

from __future__ import annotations

import random
from pathlib import Path

from click.testing import CliRunner
from differential import lockstep_playouts, lowered_and_validated

from tgpl.cli import main
from tgpl.frontend import ast
from tgpl.frontend.loader import load_program
from tgpl.lowering.floods import _flood_list, _owners, _Reads, board_scans, board_values
from tgpl.lowering.flood_walks import rewrite_flood_walks
from tgpl.pipeline import start_snapshot
from tgpl.runtime.game import Game, compile_program, load_game

DATA = Path(__file__).resolve().parents[1] / "data"
FLOOD_SET = DATA / "lowering" / "flood_set.tgpl"
ADD = "if (c.Y != 2 && !columns.contains(c.X)) { columns.add(c.X); }"


def sets_rewritten(text: str) -> tuple[object, int]:
    """flood_set.tgpl changed to `text`, with only its flood walks (and the sets they fill) rewritten, its flood
    kept so that the runtime can run it: the program and the number of `add` calls left in it."""
    game = load_game(FLOOD_SET)
    start = start_snapshot(game, 0)
    cells, values = board_scans(game.program, start, nulls=True), board_values(game.program, start)

    def transform(m: ast.Module) -> None:
        reads = _Reads(m)
        for owner, members in _owners(m):
            if isinstance(owner, ast.ClassDef):
                rewrite_flood_walks(owner, members, cells, reads.only,
                                    lambda fn, body, k, members=members: _flood_list(fn, body, k, members), values)
    program = load_program(FLOOD_SET, text=text, transform=transform)
    assert program.ok, [str(d) for d in program.diagnostics]
    adds = [n for n in ast.walk(program.modules[0].items) if isinstance(n, ast.Call)
            and isinstance(n.callee, ast.Member) and n.callee.name == "add"]
    return program, len(adds)


def test_the_set_lowers_and_validates(tmp_path):
    """`tgpl to-gdl` lowers the game and validates it against the runtime in playouts to the end of the game."""
    kif, steps = lowered_and_validated(str(FLOOD_SET), tmp_path / "flood_set.kif")
    assert "(joinsflood1_reach " in kif and steps >= 1_000


def test_the_flags_play_as_the_set():
    """The program with its walk a scan and its set five flags (the flood kept) run by the runtime beside the game
    as written: the same moves, states and goals, move after move, in random playouts to their end."""
    program, adds = sets_rewritten(FLOOD_SET.read_text())
    assert adds == 1  # the flood's own: the set's add is gone
    flags = sorted(n.name for n in ast.walk(program.modules[0].items)
                   if isinstance(n, ast.VarDecl) and n.name.startswith("columnsHas"))
    assert flags == [f"columnsHas{k}" for k in range(1, 6)]
    steps, ends = lockstep_playouts(load_game(FLOOD_SET), Game(program, compile_program(program), None),
                                    random.Random(5), 12)
    assert steps >= 100 and any(e.goals and max(e.goals) > min(e.goals) for e in ends)


def test_sets_whose_values_are_not_told_are_left_as_written():
    """A value read from an input, a field the moves write, or a set of cells: the set is left as written."""
    text = FLOOD_SET.read_text()
    assert ADD in text
    variants = {
        "an input read": ADD.replace("c.X", "(c.X + start.X)"),
        "a field the moves write": ADD.replace("c.X", "Hold.Placed"),
        "a set holding a value from the start": None,
    }
    for why, add in variants.items():
        changed = text.replace(ADD, add) if add is not None else text.replace(
            "List<number> columns = {};", "List<number> columns = {0};")
        assert sets_rewritten(changed)[1] == 2, why


def test_a_set_of_values_read_from_an_input_stays_refused(tmp_path):
    """havannah3.tgpl with the sides counted from the start's side (a value no scan tells): refused at the set,
    located where the budget of parts runs out, at the set's test (`contains`), nothing written."""
    text = (DATA / "designers" / "havannah3.tgpl").read_text()
    old = "if (cell.Side > 0 && !sides.contains(cell.Side))"
    assert old in text
    text = text.replace(old, "if (cell.Side > 0 && !sides.contains(cell.Side + start.Side))").replace(
        "sides.add(cell.Side);", "sides.add(cell.Side + start.Side);")
    path = tmp_path / "havannah_input.tgpl"
    path.write_text(text)
    out = tmp_path / "havannah_input.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(path), "-o", str(out)])
    assert r.exit_code == 2, r.output
    assert "havannah_input.tgpl:152:17: error: not lowerable: " in r.output, r.output
    assert " 152 |                 if (cell.Side > 0 && !sides.contains(cell.Side + start.Side))\n     |  " in r.output
    assert not out.exists()
