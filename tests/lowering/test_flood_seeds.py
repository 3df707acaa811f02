"""A flood's list seeded by a walk that adds what it finds (tgpl.lowering.flood_seeds, issue 34).

tests/data/lowering/flood_seeded.tgpl checks a crossing on 4 x 4 with two floods, each started empty and seeded by
a walk: White's by a conditional loop over the board's list of its left cells (`if (Left[i].Stone == who) {
reached.add(Left[i]); }`), read by a search; Black's by a scan of the top row (with the guard `!reached.contains`),
read by `contains`. Lowered as written it was refused (more than 500,000 statements on symbolic paths in
`CrossesLeftRight`, and with the moves compiled, the add to a local list); each use now calls a function that runs
the seed walk asking the flood's search from each seed.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from differential import lockstep_playouts

from tgpl.cli import main
from tgpl.frontend import ast
from tgpl.frontend.loader import load_program
from tgpl.lowering.floods import rewrite_floods
from tgpl.runtime.game import Game, compile_program, load_game

from refused_alike import refused_alike

DATA = Path(__file__).resolve().parents[1] / "data"
SEEDED = DATA / "lowering" / "flood_seeded.tgpl"
HAVANNAH = DATA / "designers" / "havannah3.tgpl"
MADE = ["CrossesLeftRightFlood1", "CrossesLeftRightSeeds1", "CrossesTopBottomFlood1", "CrossesTopBottomSeeds1"]


def rewritten(text: str, steps: int = 15) -> tuple[list[str], object]:
    made: list[str] = []
    program = load_program(SEEDED, text=text, transform=lambda m: made.extend(rewrite_floods(m, lambda t: steps)))
    assert program.ok, [str(d) for d in program.diagnostics]
    return made, program


def functions(program) -> dict[str, ast.FunctionDef]:
    return {name: f.defn for c in program.classes for name, f in c.functions.items()}


def calls(fn: ast.FunctionDef) -> set[str]:
    return {n.callee.name for n in ast.walk(fn.effect.body) if isinstance(n, ast.Call)
            and isinstance(n.callee, ast.Name)}


def test_each_use_asks_the_search_from_every_seed_the_walk_adds():
    """A search and a function that walks the seeds for each flood; the list gone from the caller, which calls the
    seeds' function; each seeds' function calls the search (from each seed), the search itself."""
    made, program = rewritten(SEEDED.read_text())
    assert made == MADE
    fns = functions(program)
    for caller in ("CrossesLeftRight", "CrossesTopBottom"):
        body = fns[caller].effect.body
        assert not any(isinstance(n, ast.Name) and n.name == "reached" for n in ast.walk(body)), caller
        assert calls(fns[caller]) == {f"{caller}Seeds1"}
        assert f"{caller}Flood1" in calls(fns[f"{caller}Seeds1"])
        assert f"{caller}Flood1" in calls(fns[f"{caller}Flood1"])


def test_each_made_function_names_what_the_designer_wrote():
    """The functions the rewrite makes carry what they stand for (`ast.Origin`), which messages print rather than
    the made names the designer never wrote (issue 34): the caller, the flood's list, and the line of the flood's
    loop or of the seed walk."""
    text = SEEDED.read_text()
    _, program = rewritten(text)
    fns = functions(program)
    lines = text.splitlines()
    walks = [k + 2 for k, line in enumerate(lines) if line.strip() == "List<Cell> reached = {};"]  # next line
    floods = [k + 1 for k, line in enumerate(lines) if "i < reached.length" in line]
    for caller, walk, flood in zip(("CrossesLeftRight", "CrossesTopBottom"), walks, floods):
        assert ast.shown_name(fns[f"{caller}Flood1"]) == f"{caller}, its flood of the list 'reached' at line {flood}"
        assert ast.shown_name(fns[f"{caller}Seeds1"]) == \
            f"{caller}, the walk that seeds its list 'reached' at line {walk}"
        assert ast.shown_name(fns[caller]) == caller and fns[caller].origin is None


def test_a_refusal_in_a_flood_names_it_as_written(tmp_path):
    """A construct the lowering refuses inside the flood's loop (`copy()`): `to-gdl` and the dry run refuse it
    alike at it, and the dry run's line for the search the rewrite made (`CrossesLeftRightFlood1`, never
    written) names `CrossesLeftRight`'s flood of `reached` at the loop's line; the seed walk's function stands
    at the walk, not tried (issue 34)."""
    flood = "            for (number i = 0; i < reached.length; i += 1)\n            {\n"
    text = SEEDED.read_text().replace(flood, flood + "                List<Cell> edge = Left.copy();\n", 1)
    src = tmp_path / "flood_copy.tgpl"
    src.write_text(text)
    lines = text.splitlines()
    walks = [k + 2 for k, line in enumerate(lines) if line.strip() == "List<Cell> reached = {};"]  # next line
    loops = [k + 1 for k, line in enumerate(lines) if "i < reached.length" in line]
    (walk, _), (loop, _) = walks, loops
    hint, said = refused_alike(src, tmp_path / "flood_copy.kif", "Left.copy()", "the built-in copy() is not "
                               "lowerable", len("Left.copy()"))
    assert hint == "  note: hint: see docs/lowering.md, \"Writing games that lower\"", said
    assert "  NO  function  Board.CrossesLeftRight, its flood of the list 'reached' at line " \
           f"{loop}  refused" in said, said
    assert "  --  function  Board.CrossesLeftRight, the walk that seeds its list 'reached' at line " \
           f"{walk}  not tried (refused first)" in said, said
    assert not any("Flood1" in line or "Seeds1" in line for line in said), said
    answer = json.loads(CliRunner().invoke(main, ["to-gdl", "--dry-run", "--json", str(src)]).output)
    made = [(p["name"], p["made"], p["line"], p["lowers"]) for p in answer["parts"] if "made" in p]
    assert made == [("Board.CrossesLeftRight", "the walk that seeds its list 'reached'", walks[0], True),
                    ("Board.CrossesLeftRight", "its flood of the list 'reached'", loops[0], False),
                    ("Board.CrossesTopBottom", "the walk that seeds its list 'reached'", walks[1], True),
                    ("Board.CrossesTopBottom", "its flood of the list 'reached'", loops[1], True)], made


SMALL = [("            Cell, Cell, Cell, Cell;\n", "            Cell, Cell, Cell;\n"), ("x < 4", "x < 3"),
         ("y < 4", "y < 3"), ("x > 3 || y > 3", "x > 2 || y > 2"), ("X == 3", "X == 2"), ("[x][3]", "[x][2]"),
         ("Placed == 16", "Placed == 9")]


def test_the_rewritten_game_plays_as_written():
    """The runtime playing the rewrite and the game as written in lockstep, on 3 x 3 (the searches, bounded by the
    cells less one, are exponential when run): the same legal moves, states and goals at every step of random
    playouts, won by each player and drawn."""
    text = SEEDED.read_text()
    for old, new in SMALL:
        assert old in text, old
        text = text.replace(old, new)
    text = text.replace("            Cell, Cell, Cell;\n", "", 1)
    written = load_program(SEEDED, text=text)
    made, program = rewritten(text, steps=8)
    assert made == MADE
    rewrite = Game(program, compile_program(program), None)
    rewrite.step_limit = 10 ** 8  # the searches' paths, not the game's
    steps, ends = lockstep_playouts(Game(written, compile_program(written), None), rewrite, random.Random(5), 12)
    results = {tuple(a.goals.values()) if isinstance(a.goals, dict) else tuple(a.goals) for a in ends}
    assert steps >= 90 and results == {(100, 0), (0, 100), (50, 50)}, results


WALK = """                if (Left[i].Stone == who)
                {
                    reached.add(Left[i]);
                }"""


@pytest.mark.parametrize("change", [
    # the seed walk writes the state
    (WALK, WALK.replace("reached.add(Left[i]);", "reached.add(Left[i]);\n                    Hold.Placed += 0;")),
    # it reads the list otherwise than in its adds
    ("if (Left[i].Stone == who)", "if (Left[i].Stone == who && reached.length < 2)"),
    # it may leave the function
    (WALK, WALK + "\n                if (Left[i].Stone == null) { return false; }"),
    # the walk as it should be, but the list read otherwise after the flood (its length)
    ("if (reached[j].X == 3) { return true; }", "if (reached[j].X == 3 && reached.length > 3) { return true; }"),
    # its condition reads a local assigned after the list
    ("            List<Cell> reached = {};\n            for (number i = 0; i < Left.length",
     "            player w = who;\n            List<Cell> reached = {};\n            w = who;\n"
     "            for (number i = 0; i < Left.length"),
])
def test_what_is_not_exactly_a_seed_walk_is_left_alone(change):
    old, new = change
    text = SEEDED.read_text()
    assert old in text
    if "w = who;" in new:
        text = text.replace("if (Left[i].Stone == who)", "if (Left[i].Stone == w)")
    made, _ = rewritten(text.replace(old, new, 1))
    assert made == MADE[2:]


def test_seeded_game_lowers_and_validates(tmp_path):
    """Refused before (see the module's docstring); now it lowers, and its rules are played against the runtime's
    game as written (counts of the validation's playouts pinned: the same rules and seed give the same)."""
    out = tmp_path / "flood_seeded.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(SEEDED), "--max-seconds", "300", "-o", str(out)])
    assert r.exit_code == 0, r.output
    kif = out.read_text()
    assert kif.splitlines()[1] == "; validated: 63 playouts (63 to the end of the game), 1,007 steps compared, " \
        "the deepest at move 16", kif.splitlines()[1]
    for search in ("crossesleftrightflood1", "crossestopbottomflood1"):
        assert f"({search}_found " in kif, search  # closures, no step count
