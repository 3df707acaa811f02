"""A flood's list walked item by item, lowered as a scan of the board asking the flood's search
(tgpl.lowering.flood_walks, language decision 114).

tests/data/lowering/flood_walk.tgpl floods the group of the stone just played, then walks `group[j]` counting the
cells it holds on the top and bottom rows and setting a flag for a corner. Lowered as written it was refused
("more than 4096 ways through this loop in Joins"). The walk's passes do not depend on one another, so it is a
scan of the 16 cells asking `group.contains`, which `floods.py` makes a recursive search; the rules are validated
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
from tgpl.lowering.floods import _flood_list, _owners, _Reads, board_scans
from tgpl.lowering.flood_walks import rewrite_flood_walks
from tgpl.pipeline import start_snapshot
from tgpl.runtime.game import Game, compile_program, load_game

DATA = Path(__file__).resolve().parents[1] / "data"
FLOOD_WALK = DATA / "lowering" / "flood_walk.tgpl"

WALK = """                Cell c = group[j];
                if (c.Y == 0) { top += 1; }
                if (c.Y == 3) { bottom += 1; }
                if ((c.X == 0 || c.X == 3) && (c.Y == 0 || c.Y == 3)) { corner = true; }"""


def walks_rewritten(text: str) -> tuple[object, int]:
    """flood_walk.tgpl changed to `text`, with only its flood walks rewritten (its floods kept, so that the
    runtime can run it): the program and the number of walks rewritten."""
    game = load_game(FLOOD_WALK)
    cells = board_scans(game.program, start_snapshot(game, 0), nulls=True)
    done: list[int] = []

    def transform(m: ast.Module) -> None:
        reads = _Reads(m)
        for owner, members in _owners(m):
            if isinstance(owner, ast.ClassDef):
                done.append(rewrite_flood_walks(owner, members, cells, reads.only,
                                                lambda fn, body, k, members=members: _flood_list(fn, body, k, members)))
    program = load_program(FLOOD_WALK, text=text, transform=transform)
    assert program.ok, [str(d) for d in program.diagnostics]
    return program, sum(done)


def changed(walk: str, after: str | None = None) -> str:
    text = FLOOD_WALK.read_text()
    assert WALK in text
    text = text.replace(WALK, walk)
    if after is not None:
        text = text.replace("return top > 0 && bottom > 0 || corner && top + bottom >= 3;", after)
    return text


def test_the_walk_lowers_as_a_search_and_validates(tmp_path):
    """`tgpl to-gdl` lowers the game (the walk a scan asking the flood's search, `joinsflood1`) and validates it
    against the runtime in playouts to the end of the game. The scan asks one start every cell: the search is
    keyed by its start (`_reach`, the cells reached, floods._scanned_cell)."""
    kif, steps = lowered_and_validated(str(FLOOD_WALK), tmp_path / "flood_walk.kif")
    assert "(joinsflood1_reach " in kif and steps >= 1_000


def test_the_scan_plays_as_the_walk():
    """The program with its walk rewritten (the flood kept) run by the runtime beside the game as written: the
    same moves, states and goals, move after move, in random playouts to their end."""
    program, done = walks_rewritten(FLOOD_WALK.read_text())
    assert done == 1
    loops = [n for n in ast.walk(program.modules[0].items) if isinstance(n, ast.For) and isinstance(
        n.cond.right, ast.Member) and n.cond.right.name == "length"]
    assert len(loops) == 1  # the flood's own loop: the walk is a scan of the cells
    steps, ends = lockstep_playouts(load_game(FLOOD_WALK), Game(program, compile_program(program), None),
                                    random.Random(3), 12)
    assert steps >= 100 and any(e.goals and max(e.goals) > min(e.goals) for e in ends)


def test_order_free_walks_are_rewritten():
    """A walk adding the rows the group touches to a local list as a set, read after only by its length and
    `contains`; a counter counted down; a flag set in two places to the same value."""
    rows = changed("""                Cell c = group[j];
                if (c.Y == 0 || c.Y == 3) { top -= 1; }
                if (c.X == 0 && !seen.contains(c.Y)) { seen.add(c.Y); }
                if (c.X == 0) { corner = true; }
                if (c.X == 3) { corner = true; }""",
                   "return seen.length >= 2 && seen.contains(0) && top < 0;")
    rows = rows.replace("bool corner = false;", "bool corner = false;\n            List<number> seen = {};")
    assert walks_rewritten(rows)[1] == 1


def test_order_dependent_walks_are_left_as_written():
    """Each walk whose result may depend on the order of its passes is left alone."""
    first = changed(WALK + "\n                if (firstY < 0) { firstY = c.Y; }",
                    "return top > 0 && bottom > 0 && firstY == 0;").replace(
        "bool corner = false;", "bool corner = false;\n            number firstY = -1;")
    variants = {
        "a counter read": changed(WALK.replace("if (c.Y == 0)", "if (c.Y == 0 && top == 0)")),
        "the first item": first,
        "a break": changed(WALK + "\n                if (c.Y == 3) { break; }"),
        "a flag set to two values": changed(WALK + "\n                if (c.X == 1) { corner = false; }"),
        "a write of the state": changed(WALK + "\n                c.X = c.X;"),
        "the counter read": changed(WALK.replace("if (c.Y == 0)", "if (c.Y == 0 && j > 0)")),
        "a fraction counted": changed(WALK.replace("top += 1;", "top += 0.1;")),
        "a set passed on before the walk": changed(
            WALK + "\n                if (!seen.contains(c.Y)) { seen.add(c.Y); }", "return seen.length == 2;").replace(
            "bool corner = false;", "bool corner = false;\n            List<number> seen = {};\n"
            "            List<number> other = seen;"),
        "a list read by index": changed(WALK + "\n                if (!seen.contains(c.Y)) { seen.add(c.Y); }",
                                        "return seen[0] == 0;").replace(
            "bool corner = false;", "bool corner = false;\n            List<number> seen = {};"),
        "an add with no test": changed(WALK + "\n                seen.add(c.Y);", "return seen.length == 2;").replace(
            "bool corner = false;", "bool corner = false;\n            List<number> seen = {};"),
    }
    for why, text in variants.items():
        assert walks_rewritten(text)[1] == 0, why


def test_a_walk_recording_the_first_item_stays_refused(tmp_path):
    """The walk that records the first cell of the group on the top row (the list's order read): refused as before,
    located at the flood's loop, nothing written."""
    text = changed(WALK + "\n                if (c.Y == 0 && first == null) { first = c; }",
                   "return top > 0 && bottom > 0 && first != null && first.X == 0;").replace(
        "bool corner = false;", "bool corner = false;\n            Cell first = null;")
    path = tmp_path / "flood_first.tgpl"
    path.write_text(text)
    out = tmp_path / "flood_first.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(path), "-o", str(out)])
    assert r.exit_code == 2, r.output
    assert ("flood_first.tgpl:78:13: error: not lowerable: more than 4096 ways through this loop in Joins"
            in r.output), r.output
    assert " 78 |             for (number i = 0; i < group.length; i += 1)\n    |             ^^^^" in r.output
    assert not out.exists()
