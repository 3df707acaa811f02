"""Floods over a local list lowered as recursive functions (tgpl.lowering.floods, language decision 114).

tests/data/lowering/flood.tgpl grows the group of the stone just played in a local list that is also its queue,
then asks `group.contains(goal)` (Black) and searches the group for a cell in a column (both sides). Lowered as
written it was refused ("more than 4096 ways through this loop in Touches"); each use is now a recursive function
over the neighbours, and the lowered rules are validated against the runtime, which runs the game as written.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from differential import lockstep_playouts

from tgpl.cli import main
from tgpl.frontend import ast
from tgpl.frontend.loader import load_program
from tgpl.lowering.floods import chain_bounds, find_flood, has_flood, rewrite_floods, with_floods
from tgpl.pipeline import start_snapshot
from tgpl.runtime.game import load_game

DATA = Path(__file__).resolve().parents[1] / "data"
FLOOD = DATA / "lowering" / "flood.tgpl"
ATARIGO = DATA / "designers" / "atarigo.tgpl"


TICK = """    function Tick
    {
        returns bool;
        effect { Hold.Placed += 0; return true; }
    }

    // The cell at (x, y), or null off the board"""


def made_by(text: str, steps: int | None = 15) -> list[str]:
    """The functions `rewrite_floods` makes for the game `text` (flood.tgpl changed), the bound `steps`."""
    made: list[str] = []
    program = load_program(FLOOD, text=text, transform=lambda m: made.extend(rewrite_floods(m, lambda t: steps)))
    assert program.ok, [str(d) for d in program.diagnostics]
    return made


def functions(program) -> dict[str, ast.FunctionDef]:
    return {f.name: f.defn for f in program.functions} | {
        name: f.defn for c in program.classes for name, f in c.functions.items()}


def test_both_uses_become_recursive_functions_that_check():
    """Two searches in Touches (one use) and a `contains` in Joined: a function each, which calls itself, and the
    flood's loop gone from the caller."""
    made = made_by(FLOOD.read_text())
    assert made == ["TouchesFlood1", "JoinedFlood1"]
    program = load_program(FLOOD, text=FLOOD.read_text(), transform=lambda m: rewrite_floods(m, lambda t: 15))
    fns = functions(program)
    for name in made:
        calls = [n for n in ast.walk(fns[name].effect.body) if isinstance(n, ast.Call)
                 and isinstance(n.callee, ast.Name) and n.callee.name == name]
        assert len(calls) == 1  # the step to a neighbour
    for caller in ("Touches", "Joined"):
        assert find_flood(fns[caller], fns[caller].effect.body.body) is None
        assert not any(isinstance(n, ast.Index) for n in ast.walk(fns[caller].effect.body))


@pytest.mark.parametrize("change", [
    ("if (n != null && n.Stone == who && !group.contains(n)) { group.add(n); }",
     "if (n != null && n.Stone == who) { group.add(n); }"),  # no guard: the list may hold an item twice
    ("group.add(n); }", "group.add(n); Hold.Placed += 0; }"),  # the add not alone
    ("Cell n = At(x: group[i].X + dx", "Cell n = At(x: i + group[i].X + dx"),  # the index read otherwise
    ("return group.contains(goal);", "return group.length > 2 && group.contains(goal);"),  # another use
    ("if (group[j].X == col) { return true; }", "if (group[j].X == col) { Hold.Placed += 1; return true; }"),
    ("return group.contains(goal);", "Hold.Placed += 0; return group.contains(goal);"),  # a write before the use
    ("n.Stone == who && !group", "n.Stone == who && Tick() && !group"),  # a call that writes, in the flood
    # the search reads a local that may change (an outer loop's counter)
    ("for (number j = 0; j < group.length; j += 1)\n            {\n"
     "                if (group[j].X == col) { return true; }\n            }",
     "for (number c = col; c <= col; c += 1) { for (number j = 0; j < group.length; j += 1) "
     "{ if (group[j].X == c) { return true; } } }"),
])
def test_what_is_not_exactly_a_flood_is_left_alone(change):
    """A change anywhere the rewrite relies on leaves that function as written (to the lowering's refusal); the
    other function's flood is still rewritten."""
    text = FLOOD.read_text()
    assert change[0] in text
    changed = text.replace(change[0], change[1]).replace("    // The cell at (x, y), or null off the board", TICK)
    assert len(made_by(changed)) < len(made_by(text))


def test_unknown_bound_leaves_it_alone():
    assert made_by(FLOOD.read_text(), steps=None) == []


def test_chain_bound_is_the_cells_less_one():
    game = load_game(FLOOD)
    start = start_snapshot(game)
    steps = chain_bounds(game.program, start)
    assert steps("Cell") == 15 and steps("Board") == 0 and steps("Nothing") is None
    program, moved = with_floods(game.program, start)
    assert program is not game.program and not has_flood(program)
    assert {o["class"].name for o in moved["objects"]} == {o["class"].name for o in start["objects"]}
    assert all(any(o["class"] is c for c in program.classes) or o["class"].builtin for o in moved["objects"])


def test_made_after_setup_the_bound_is_unknown():
    text = FLOOD.read_text().replace("Hold.Placed += 1;", "Hold.Placed += 1; Board spare = new Board();")
    program = load_program(FLOOD, text=text)
    assert program.ok
    game = load_game(FLOOD)
    assert chain_bounds(program, start_snapshot(game))("Board") is None


def test_atari_go_flood_function_is_inlined_where_its_caller_only_searches():
    """Atari Go's `GroupOf` returns its list. `Breathes` declares `List<Point> group = GroupOf(...)` and only
    searches it: the call is replaced by GroupOf's statements (inputs and locals renamed), and the search becomes
    `BreathesFlood1`. `Place` writes through the list (`dead[i].Stone = null`), a use this rewrite does not follow:
    GroupOf stays, called there."""
    program = load_program(ATARIGO)
    assert has_flood(program)
    made: list[str] = []
    rewritten = load_program(ATARIGO, transform=lambda m: made.extend(rewrite_floods(m, lambda t: 24)))
    assert rewritten.ok and made == ["BreathesFlood1"]
    fns = functions(rewritten)
    breathes = fns["Breathes"].effect.body
    assert not any(isinstance(n, ast.Call) and isinstance(n.callee, ast.Name) and n.callee.name == "GroupOf"
                   for n in ast.walk(breathes))
    assert any(isinstance(n, ast.Call) and isinstance(n.callee, ast.Name) and n.callee.name == "BreathesFlood1"
               for n in ast.walk(breathes))
    assert "GroupOf" in fns


def test_flood_function_not_inlined_where_the_caller_does_more():
    """A caller that also returns the list keeps the call: inlined, its flood would not be rewritten."""
    text = ATARIGO.read_text().replace(
        "List<Point> group = GroupOf(start: start, played: played, who: who);",
        "List<Point> group = GroupOf(start: start, played: played, who: who);\n"
        "            if (group.length > 24) { return false; }")
    assert "group.length > 24" in text
    made: list[str] = []
    program = load_program(ATARIGO, text=text, transform=lambda m: made.extend(rewrite_floods(m, lambda t: 24)))
    assert program.ok and made == []
    assert any(isinstance(n, ast.Call) and isinstance(n.callee, ast.Name) and n.callee.name == "GroupOf"
               for n in ast.walk(functions(program)["Breathes"].effect.body))


def test_flood_game_lowers_and_validates(tmp_path):
    """Refused before; now it lowers, and its rules are played against the runtime's game as written."""
    out = tmp_path / "flood.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(FLOOD), "--max-seconds", "300", "-o", str(out)])
    assert r.exit_code == 0, r.output
    second = out.read_text().splitlines()[1]
    assert second.startswith("; validated:") and "to the end of the game" in second, second


def test_search_that_returns_false_lowers_and_validates(tmp_path):
    """The search written the other way round: `Avoids` returns false on the first cell in the column (a for-all
    over the group), the game asking `!Avoids(...)`; its use becomes `if (<some reached cell>) { return false; }`."""
    text = FLOOD.read_text()
    search = "if (group[j].X == col) { return true; }\n            }\n            return false;"
    assert search in text
    text = text.replace(search, "if (group[j].X == col) { return false; }\n            }\n            return true;")
    text = text.replace("function Touches", "function Avoids").replace("board.Touches(", "!board.Avoids(")
    made: list[str] = []
    assert load_program(FLOOD, text=text, transform=lambda m: made.extend(rewrite_floods(m, lambda t: 15))).ok
    assert "AvoidsFlood1" in made
    path = tmp_path / "avoid.tgpl"
    path.write_text(text)
    out = tmp_path / "avoid.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(path), "--max-seconds", "300", "-o", str(out)])
    assert r.exit_code == 0, r.output
    second = out.read_text().splitlines()[1]
    assert second.startswith("; validated:") and "to the end of the game" in second, second


# --- a walk with a stack or a queue that feeds a visited list (tgpl/lowering/flood_shapes.py) ---------------

STACK = DATA / "lowering" / "flood_stack.tgpl"


def stack_made(text: str) -> list[str]:
    made: list[str] = []
    program = load_program(STACK, text=text, transform=lambda m: made.extend(rewrite_floods(m, lambda t: 15)))
    assert program.ok, [str(d) for d in program.diagnostics]
    return made


def test_stack_and_queue_walks_become_recursive_searches():
    """Touches (a stack, a flag set for the cells popped in a column) and Joined (a queue, `contains` after it):
    each walk is the worklist form, the flag a search after it; no stack is left in either function."""
    program = load_program(STACK)
    assert has_flood(program)
    made: list[str] = []
    rewritten = load_program(STACK, transform=lambda m: made.extend(rewrite_floods(m, lambda t: 15)))
    assert rewritten.ok and made == ["TouchesFlood1", "JoinedFlood1"]
    fns = functions(rewritten)
    for caller in ("Touches", "Joined"):
        body = fns[caller].effect.body
        assert not any(isinstance(n, (ast.While, ast.Index)) for n in ast.walk(body))
        assert not any(isinstance(n, ast.Name) and n.name in ("todo", "seen") for n in ast.walk(body))
    touches = fns["Touches"].effect.body.body
    assert any(isinstance(s, ast.If) and isinstance(s.then.body[0], ast.ExprStmt)
               and isinstance(s.then.body[0].expr, ast.Assign) and s.then.body[0].expr.target.name == "hit"
               for s in touches)  # `if (TouchesFlood1(...)) { hit = true; }`


@pytest.mark.parametrize("change", [
    ("if (c.X == col) { hit = true; }", "if (c.X == col && todo.length > 1) { hit = true; }"),  # the stack read
    ("if (c.X == col) { hit = true; }", "if (c.X == col) { hit = true; }\n                hit = hit;"),  # flag
    ("bool hit = false;", "bool hit = false;\n            hit = false;"),  # the flag written before the walk
    ("if (c.X == col) { hit = true; }", "if (c.X == col + dxs) { hit = true; }\n                dxs += 1;"),
    ("seen.add(start);\n            todo.add(start);", "seen.add(start);\n            todo.add(at0);"),  # starts differ
    ("todo.removeAt(todo.length - 1);", "todo.removeAt(0);"),  # takes one end, removes the other
    ("                                seen.add(n);\n                                todo.add(n);",
     "                                seen.add(n);\n                                todo.add(n);\n"
     "                                todo.add(n);"),  # pushed twice
])
def test_what_is_not_exactly_a_stack_walk_is_left_alone(change):
    """A change anywhere the rewrite relies on leaves Touches as written (to the lowering's refusal); Joined's
    queue is still rewritten."""
    walk = "List<Cell> seen = {};\n            List<Cell> todo = {};"
    text = STACK.read_text().replace(walk, "number dxs = 0;\n            Cell at0 = start;\n            " + walk)
    assert stack_made(text) == ["TouchesFlood1", "JoinedFlood1"]
    assert change[0] in text
    assert stack_made(text.replace(change[0], change[1])) == ["JoinedFlood1"]


def test_stack_game_lowers_and_validates(tmp_path):
    """Refused at its `removeAt` before; its rules are now played against the runtime's game as written."""
    from differential import lowered_and_validated

    lowered_and_validated(str(STACK), tmp_path / "stack.kif")


WALK_FOR = "List<Cell> group = {start};\n            for (number i = 0; i < group.length; i += 1)\n            {\n"
WALK_WHILE = ("List<Cell> group = {start};\n            number i = 0;\n"
              "            while (i < group.length)\n            {\n")
STEP = "                }\n            }\n            for (number j"


def while_text() -> str:
    """flood.tgpl with Touches' walk a `while` and a counter of its own (the form of loa_flood.tgpl's walk)."""
    text = FLOOD.read_text()
    assert text.count(WALK_FOR) == 2 and text.count(STEP) == 1
    text = text.replace(WALK_FOR, WALK_WHILE, 1)
    return text.replace(STEP, "                }\n                i += 1;\n            }\n            for (number j")


def test_while_walk_is_the_for_walk():
    assert made_by(while_text()) == ["TouchesFlood1", "JoinedFlood1"]


@pytest.mark.parametrize("change", [
    ("                i += 1;\n", "                i += 1;\n                if (i > 20) { continue; }\n"),  # continue
    ("                i += 1;\n            }\n", "                i += 1;\n            }\n            i = 0;\n"),
    ("number i = 0;", "number i = 1;"),  # starts past the first item
    ("                i += 1;\n", "                i += 2;\n"),  # skips items
    ("while (i < group.length)\n            {\n",
     "while (i < group.length)\n            {\n                Cell first = group[0];\n"),  # the list read otherwise
])
def test_what_is_not_exactly_a_while_walk_is_left_alone(change):
    text = while_text()
    assert change[0] in text
    changed = text.replace(change[0], change[1], 1)
    assert load_program(FLOOD, text=changed).ok
    assert made_by(changed) == ["JoinedFlood1"]


def test_while_game_lowers_to_the_rules_of_the_for_game_and_validates(tmp_path):
    from differential import lowered_and_validated

    path = tmp_path / "flood.tgpl"  # the same name: the same rules, byte for byte, but the first line
    path.write_text(while_text())
    text, _ = lowered_and_validated(str(path), tmp_path / "while.kif")
    r = CliRunner().invoke(main, ["to-gdl", str(FLOOD), "--no-validate", "-o", str(tmp_path / "for.kif")])
    assert r.exit_code == 0, r.output
    body = [x for x in text.splitlines() if not x.startswith(";")]
    assert body == [x for x in (tmp_path / "for.kif").read_text().splitlines() if not x.startswith(";")]


LOA_FLOOD = DATA / "designers" / "loa_flood.tgpl"
SCAN = "                Sq s = At(x: x, y: y);\n                if (s.Stone == who)\n                {\n                    total += 1;"


def connected_rewritten(tmp_path, text: str) -> bool:
    """Is loa_flood.tgpl's `Connected`, changed to `text`, rewritten as a search (flood_counts)?"""
    path = tmp_path / "loa_flood.tgpl"
    path.write_text(text)
    game = load_game(path)
    program, _ = with_floods(game.program, start_snapshot(game))
    return "ConnectedFlood1" in {f.defn.name for f in program.functions}


def test_a_flood_started_by_a_count_is_one_scan_asking_a_search():
    """loa_flood.tgpl's `Connected`: the flood seeded by the first piece of a count and compared with the count is
    one scan that takes the first piece and asks the search of each piece, as loa.tgpl's `Linked` is asked."""
    game = load_game(LOA_FLOOD)
    program, _ = with_floods(game.program, start_snapshot(game))
    fns = functions(program)
    body = fns["Connected"].effect.body.body
    assert [type(s).__name__ for s in body] == ["VarDecl", "For", "Return"]
    assert isinstance(body[-1].value, ast.BoolLit) and body[-1].value.value is True
    calls = [n for n in ast.walk(body) if isinstance(n, ast.Call) and isinstance(n.callee, ast.Name)
             and n.callee.name == "ConnectedFlood1"]
    assert len(calls) == 1
    assert not any(isinstance(n, ast.Member) and n.name in ("length", "add") for n in ast.walk(body))
    assert {a.name: a.value.value for a in calls[0].args if isinstance(a.value, ast.NumberLit)} == {"steps1": 5.0}


def connected_depth(tmp_path, text: str) -> float:
    """The depth `Connected` of loa_flood.tgpl, changed to `text`, gives its search."""
    path = tmp_path / "loa_flood.tgpl"
    path.write_text(text)
    assert load_program(path, text=text).ok
    game = load_game(path)
    program, _ = with_floods(game.program, start_snapshot(game))
    body = functions(program)["Connected"].effect.body.body
    return next(a.value.value for n in ast.walk(body) if isinstance(n, ast.Call) and isinstance(n.callee, ast.Name)
                and n.callee.name == "ConnectedFlood1" for a in n.args if isinstance(a.value, ast.NumberLit))


MOVE = "            to.Stone = from.Stone;\n            from.Stone = null;\n"
PASS = "        effect\n        {\n            Judge(mover: player);"


def test_a_counted_flood_searches_as_deep_as_a_player_has_pieces(tmp_path):
    """Six pieces a side after setup, and no move adds one (a move clears the square it leaves; a capture
    overwrites a piece): a chain of a player's pieces has at most five steps, where the 25 squares allow 24
    (tgpl.lowering.held_counts). The same with a piece taken off the board by a pass."""
    text = LOA_FLOOD.read_text()
    assert MOVE in text and PASS in text
    assert connected_depth(tmp_path, text) == 5
    cleared = PASS.replace("Judge(", "At(x: 0, y: 0).Stone = null; Judge(")
    assert connected_depth(tmp_path, text.replace(PASS, cleared)) == 5


@pytest.mark.parametrize("change", [
    (PASS, PASS.replace("Judge(", "At(x: 2, y: 2).Stone = player; Judge(")),  # a pass adds a piece
    (MOVE, "            to.Stone = from.Stone;\n"),  # a move that leaves its piece behind: one more
    (MOVE, "            from.Stone = null;\n            to.Stone = player;\n"),  # not the move's shape
    (MOVE, "            to.Stone = from.Stone;\n            Lines.Turns += 0;\n            from.Stone = null;\n"),
    ("Connected(who: mover + 1)", "Connected(who: At(x: 0, y: 0).Stone)"),  # who may be null: empty squares
    ("Connected(who: mover + 1)", "Connected(who: mover + At(x: 0, y: 0).Stone)"),
    ("Judge(mover: player);\n        }\n    }\n\n    action Pass",
     "Judge(mover: null);\n        }\n    }\n\n    action Pass"),
    ("        Seat s = new Seat();\n        s.assign(p);", "        Seat s = new Seat();"),  # `player` null
])
def test_a_game_that_may_count_more_keeps_the_squares_bound(tmp_path, change):
    """Where a piece may be added after setup, or the player asked about may be null (the empty squares, which
    captures make more of), the depth is the squares less one, as before."""
    text = LOA_FLOOD.read_text()
    assert change[0] in text
    assert connected_depth(tmp_path, text.replace(change[0], change[1], 1)) == 24


def test_a_scan_in_another_order_still_counts_each_square_once(tmp_path):
    text = LOA_FLOOD.read_text()
    assert SCAN in text
    assert connected_rewritten(tmp_path, text.replace(SCAN, SCAN.replace("At(x: x, y: y)", "At(x: y, y: x)")))


@pytest.mark.parametrize("change", [
    (SCAN, SCAN.replace("At(x: x, y: y)", "At(x: x, y: 0)")),  # a square counted five times
    (SCAN, SCAN.replace("At(x: x, y: y)", "At(x: x, y: y - 1)")),  # null off the board, a row not counted
    ("total = 0;\n        for (number x = 0; x < 5;", "total = 0;\n        for (number x = 0; x < 4;"),  # a column
    ("t.Stone == who && !reached", "t.Stone != null && !reached"),  # the walk adds what the count does not count
    ("total += 1;", "total += 2;"),
    ("return reached.length == total;", "return reached.length >= total;"),
    ("return reached.length == total;", "Lines.Turns += 0; return reached.length == total;"),  # a write
    ("if (s.Stone == who)\n                {\n                    total",
     "if (s.Stone == who || s.Stone == null)\n                {\n                    total"),  # C not the walk's
])
def test_what_is_not_exactly_a_counted_flood_is_left_alone(tmp_path, change):
    """A scan that does not visit every square once, or a walk that adds what the count does not count, or a
    comparison other than `==`: `Connected` is left as written (to the lowering's refusal)."""
    text = LOA_FLOOD.read_text()
    assert change[0] in text
    changed = text.replace(change[0], change[1], 1)
    assert load_program(LOA_FLOOD, text=changed).ok
    assert not connected_rewritten(tmp_path, changed)
    assert connected_rewritten(tmp_path, text)


# --- a walk over the list a neighbour function returns (tgpl.lowering.list_calls) ----------------------------

def rewritten_atarigo(text: str | None = None):
    made: list[str] = []
    program = load_program(ATARIGO, text=text, transform=lambda m: made.extend(rewrite_floods(m, lambda t: 24)))
    assert program.ok, [str(d) for d in program.diagnostics]
    return program, made


def calls_of(fn: ast.FunctionDef, name: str) -> int:
    return sum(isinstance(n, ast.Call) and isinstance(n.callee, ast.Name) and n.callee.name == name
               for n in ast.walk(fn.effect.body))


def test_atari_go_around_is_walked_as_its_own_loop():
    """`Around` returns a list its callers walk: each walk by a bare-name call becomes Around's loop over the four
    directions, the caller's body run on each point it would have added; so does `Place`'s walk of `goban.Around`
    (a method of an object, below). The flood in Breathes is still found, through the inlined loop, and its searcher's
    own test (some neighbour empty) is a `while`, not a counted `for` (horn.py's "some pass" read under `not`)."""
    program, made = rewritten_atarigo()
    assert made == ["BreathesFlood1"]
    fns = functions(program)
    for name in ("GroupOf", "Breathes", "Captures", "BreathesFlood1"):
        assert calls_of(fns[name], "Around") == 0, name
    assert calls_of(fns["Breathes"], "BreathesFlood1") == 1
    searcher = fns["BreathesFlood1"].effect.body.body
    assert [type(s).__name__ for s in searcher] == ["VarDecl", "While", "If", "For", "Return"]
    place = next(n for m in program.modules for n in ast.walk(m.items) if type(n).__name__ == "ActionDef"
                 and n.name == "Place")
    assert not any(isinstance(n, ast.Member) and n.name == "Around" for n in ast.walk(place))


@pytest.mark.parametrize("change", [
    ("if (n != null) { out.add(n); }", "if (n != null) { out.add(n); out.add(n); }"),  # two adds
    ("List<Point> out = {};", "List<Point> out = {p};"),  # a list that does not start empty
    ("for (number d = 0; d < 4; d += 1)\n            {\n                Point n",
     "for (number d = 0; d < p.X + 1; d += 1)\n            {\n                Point n"),  # a bound of the state
    ("List<number> dx = {1, -1, 0, 0};", "List<number> dx = {1, -1, 0, p.X};"),  # a table read from the state
])
def test_what_is_not_exactly_a_list_function_is_left_alone(change):
    """Around changed: its callers keep the call (Breathes's flood, read through the list, is still made)."""
    text = ATARIGO.read_text()
    assert change[0] in text
    program, _ = rewritten_atarigo(text.replace(change[0], change[1]))
    fns = functions(program)
    assert calls_of(fns["Captures"], "Around") == 1


def test_a_walk_whose_argument_reads_the_length_of_a_list_it_grows_keeps_the_call():
    """GroupOf adds to `group` while it walks: an argument `group[i]` is the same item each pass, but
    `group.length` is not, so that walk keeps its call (Breathes's, reading `group.length` of a list it does not
    grow, is still inlined)."""
    text = ATARIGO.read_text()
    old = "function input Point p;\n        returns List<Point>;"
    assert old in text
    text = text.replace(old, "function input Point p;\n        function input number s;\n        returns List<Point>;")
    text = text.replace("Around(p: group[i])", "Around(p: group[i], s: group.length)")
    text = text.replace("Around(p: p)", "Around(p: p, s: 0)").replace("Around(p: at)", "Around(p: at, s: 0)")
    program, _ = rewritten_atarigo(text)
    fns = functions(program)
    assert calls_of(fns["GroupOf"], "Around") == 1
    assert calls_of(fns["Captures"], "Around") == 0


def test_a_walk_that_reads_the_list_otherwise_keeps_the_call():
    """Captures reading `next.length` besides `next[k]` (the list's size is not a pass of the loop)."""
    text = ATARIGO.read_text()
    old = "if (n.Stone != null && n.Stone != who && !Breathes("
    assert old in text
    program, _ = rewritten_atarigo(text.replace(old, "if (next.length > 2 && n.Stone != null && n.Stone != who "
                                                     "&& !Breathes(", 1))
    assert calls_of(functions(program)["Captures"], "Around") == 1


def test_atari_go_with_its_walks_inlined_plays_as_written():
    """The program with only its list walks inlined (the floods' searches, bounded by the points less one, are
    exponential when run) run by the runtime: the same legal moves and the same states, move after move, as the
    game as written, in random playouts (every inlined walk runs: GroupOf's, Breathes's and Captures's)."""
    import random

    from tgpl.lowering.floods import _owners, _Reads
    from tgpl.lowering.list_calls import inline_list_walks
    from tgpl.runtime.game import Game, compile_program

    written = load_game(ATARIGO)
    inlined: list[int] = []
    program = load_program(ATARIGO, transform=lambda m: inlined.extend(
        inline_list_walks(members, _Reads(m).only) for _, members in _owners(m)))
    assert program.ok and sum(inlined) == 3  # GroupOf, Breathes, Captures
    rewritten = Game(program, compile_program(program), None)
    steps, ends = lockstep_playouts(written, rewritten, random.Random(7), 6)
    assert len(ends) == 6 and steps >= 60


# --- a walk over a list function called through an object (`goban.Around(p: at)`, issue 34) -----------------

def place_of(program) -> ast.ActionDef:
    return next(n for m in program.modules for n in ast.walk(m.items) if isinstance(n, ast.ActionDef)
                and n.name == "Place")


def member_calls(node, name: str) -> list[ast.Call]:
    return [n for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.callee, ast.Member)
            and n.callee.name == name]


def test_a_walk_through_an_object_is_the_functions_loop_read_through_it():
    """Place walks `goban.Around(p: at)`: the walk becomes Around's loop over the four directions, Around's bare
    call `PointAt(...)` read through the object (`goban.PointAt`), its input a fresh local given `at`; the walk's
    own writes (`dead[i].Stone = null`) are of a field no pass reads (X, Y, Points are read)."""
    program, _ = rewritten_atarigo()
    place = place_of(program)
    assert member_calls(place, "Around") == []
    at = member_calls(place, "PointAt")
    assert len(at) == 1 and isinstance(at[0].callee.obj, ast.Name) and at[0].callee.obj.name == "goban"
    loop = next(n for n in ast.walk(place) if isinstance(n, ast.For) and n.init.name.startswith("around"))
    assert loop.cond.right.value == 4
    first = loop.body.body[0]
    assert first.name.startswith("aroundP") and isinstance(first.init, ast.Name) and first.init.name == "at"
    assert member_calls(place, "GroupOf")  # the walk's own body, kept


@pytest.mark.parametrize("change", [
    # the walk writes what a pass reads: a point's X
    ("for (number i = 0; i < dead.length; i += 1) { dead[i].Stone = null; }",
     "for (number i = 0; i < dead.length; i += 1) { dead[i].Stone = null; dead[i].X = 0; }"),
    # the object changes between passes: the walk writes the local the passes read it through
    ("for (number i = 0; i < dead.length; i += 1) { dead[i].Stone = null; }",
     "for (number i = 0; i < dead.length; i += 1) { dead[i].Stone = null; }\n goban = Go.Goban;"),
    # the object is a local declared twice: its class is not known from one declaration
    ("bool captured = goban.Captures(p: at, who: player);",
     "bool captured = goban.Captures(p: at, who: player);\n if (captured) { Goban goban = Go.Goban; }"),
])
def test_a_walk_through_an_object_that_may_change_is_left_alone(change):
    text = ATARIGO.read_text()
    assert change[0] in text
    program, _ = rewritten_atarigo(text.replace(change[0], change[1]))
    assert len(member_calls(place_of(program), "Around")) == 1


def test_a_walk_through_a_global_attribute_is_inlined():
    """`Go.Goban.Around(p: at)` (a global class's attribute of the board's class) is read through that path."""
    text = ATARIGO.read_text()
    old = "List<Point> next = goban.Around(p: at);"
    assert old in text
    program, _ = rewritten_atarigo(text.replace(old, "List<Point> next = Go.Goban.Around(p: at);"))
    place = place_of(program)
    assert member_calls(place, "Around") == []
    at = member_calls(place, "PointAt")
    assert len(at) == 1 and isinstance(at[0].callee.obj, ast.Member) and at[0].callee.obj.name == "Goban"


def test_atari_go_with_its_object_walk_inlined_plays_as_written():
    """As above, with Place's walk of `goban.Around(p: at)` inlined too (the capture: its passes write `Stone`,
    which no pass reads): random playouts give the same legal moves, states and goals at every step, and games
    end by a capture (the inlined walk removes the dead groups)."""
    import random

    from tgpl.lowering.floods import _owners, _Reads
    from tgpl.lowering.list_calls import inline_list_walks, inline_object_walks
    from tgpl.runtime.game import Game, compile_program

    written = load_game(ATARIGO)
    inlined: list[int] = []

    def inline(m):
        reads = _Reads(m)
        inlined.append(inline_object_walks(m, reads.only, reads.functions))
        inlined.extend(inline_list_walks(members, reads.only) for _, members in _owners(m))
    program = load_program(ATARIGO, transform=inline)
    assert program.ok and inlined[0] == 1 and sum(inlined) == 4  # Place; GroupOf, Breathes, Captures
    rewritten = Game(program, compile_program(program), None)
    steps, ends = lockstep_playouts(written, rewritten, random.Random(11), 6)
    won = sum(len(set(a.goals.values()) if isinstance(a.goals, dict) else set(a.goals)) > 1 for a in ends)
    assert steps >= 60 and won >= 1


# --- a list made empty and seeded by `add`, and a scan clearing what the flood missed (hackenbush, rooted) ----
ROOTED = DATA / "lowering" / "rooted.tgpl"
HACKENBUSH = DATA / "designers" / "hackenbush.tgpl"
SEEDS = "List<Cell> held = {};\n            held.add(At(x: 0, y: 0));"
CLEAR = "if (!held.contains(q)) { q.Stone = null; }"


def rooted_rewritten(text: str | None = None) -> tuple[list[str], ast.FunctionDef]:
    """The functions `rewrite_floods` makes for rooted.tgpl (or `text`), and its `Fall` as rewritten."""
    made: list[str] = []
    program = load_program(ROOTED, text=text or ROOTED.read_text(),
                           transform=lambda m: made.extend(rewrite_floods(m, lambda t: 8)))
    assert program.ok, [str(d) for d in program.diagnostics]
    return made, functions(program)["Fall"]


def test_a_list_seeded_by_add_is_declared_with_its_seeds():
    """`List<T> L = {}; L.add(a); L.add(b);` then a walk of `L`: `List<T> L = {a, b};`, the same list. Not a list
    a seed reads, nor one no walk follows (it is no flood's start)."""
    from tgpl.lowering.floods import seeded

    def body(text: str) -> list:
        program = load_program(ROOTED, text=ROOTED.read_text().replace(SEEDS, text))
        assert program.ok, [str(d) for d in program.diagnostics]
        return functions(program)["Fall"].effect.body.body

    two = seeded(body("List<Cell> held = {};\n held.add(At(x: 0, y: 0));\n held.add(At(x: 1, y: 0));"))
    assert isinstance(two[0], ast.VarDecl) and len(two[0].init.items) == 2
    assert isinstance(two[1], ast.VarDecl) and two[1].name == "i"  # the walk's counter follows
    assert seeded(body("List<Cell> held = {};\n held.add(At(x: 0, y: held.length));")) is None
    assert seeded(body("List<Cell> held = {};\n held.add(At(x: 0, y: 0));\n Hold.Moves += 0;")) is None


def test_a_flood_seeded_by_add_and_the_scan_of_what_it_missed_are_rewritten():
    """rooted.tgpl's `Fall`: the flood from the root becomes `FallFlood1`, asked by the scan of the grid that
    clears every cell the flood missed, a loop marked to read the state it started with (as the list was read
    before its first write). Before, nothing was rewritten (the seed by `add`; a use in a loop that writes)."""
    made, fall = rooted_rewritten()
    assert made == ["FallFlood1"]
    scans = [n for n in ast.walk(fall.effect.body) if isinstance(n, ast.For) and n.reads_before]
    assert len(scans) == 1 and scans[0].init.name == "x"
    assert not any(_is_list_named(n, "held") for n in ast.walk(fall.effect.body))


def test_a_flood_with_two_seeds_asks_its_search_from_each():
    """Seeded from two corners: one search, asked from each seed, joined by `||` (the list holds what either
    reaches); before, a list of two seeds was no flood."""
    made, fall = rooted_rewritten(ROOTED.read_text().replace(SEEDS, SEEDS + "\n held.add(At(x: 2, y: 2));"))
    assert made == ["FallFlood1"]
    either = [n for n in ast.walk(fall.effect.body) if isinstance(n, ast.Binary) and n.op == "||"]
    assert len(either) == 1
    assert all(isinstance(x, ast.Call) and x.callee.name == "FallFlood1" for x in (either[0].left, either[0].right))
    starts = [x.args[0].value.name for x in (either[0].left, either[0].right)]  # the item reached first
    assert len(set(starts)) == 2


def _is_list_named(n, name: str) -> bool:
    return isinstance(n, ast.VarDecl) and n.name == name


@pytest.mark.parametrize("change", [
    (CLEAR, "if (!held.contains(q) && q.Stone != null) { q.Stone = null; }"),  # reads what it writes
    (CLEAR, "if (!held.contains(q)) { q.Stone = null; Hold.Moves += 1; }\n Hold.Moves -= 1;"),  # two loops write
    (CLEAR, "if (!held.contains(q)) { q.Stone = At(x: 0, y: 0).Stone; }"),  # a call in the scan
    ("Cell q = Cells[x][y] as Cell;", "Cell q = Cells[x][y] as Cell; held.add(q);"),  # the list grows after
])
def test_what_is_not_exactly_a_scan_of_what_the_flood_missed_is_left_alone(change):
    text = ROOTED.read_text()
    assert change[0] in text
    made, fall = rooted_rewritten(text.replace(change[0], change[1]))
    assert made == [] and not any(isinstance(n, ast.For) and n.reads_before for n in ast.walk(fall.effect.body))


def test_places_a_board_builds_in_its_groups_default_bound_the_flood():
    """Hackenbush's places are made by its board's `Add`, called from the group's `default` only, in setup: no
    `new` runs after setup, so a chain of places is at most the 8 places less one (before: unknown, refused)."""
    game = load_game(HACKENBUSH)
    assert chain_bounds(game.program, start_snapshot(game))("Place") == 7


FILL = [("        returns;\n        effect\n        {\n            List<Cell> held",
          "        function input player who;\n        returns;\n        effect\n        {\n            List<Cell> held"),
         (CLEAR, "if (!held.contains(q)) { q.Stone = who; }"), ("board.Fall();", "board.Fall(who: player);")]


@pytest.mark.parametrize("changes, most", [([], 150), ([(SEEDS, SEEDS + "\n held.add(At(x: 2, y: 2));")], 200),
                                           (FILL, 150)], ids=["one seed", "two seeds", "fill"])
def test_rooted_lowers_its_flood_as_a_search_and_validates(tmp_path, changes, most):
    """A second designer's way of writing the hackenbush construct (a list seeded by `add`, walked by a `while`,
    and every cell it missed cleared by a scan of the grid), from one corner or two: lowered with its flood a
    recursive relation, validated against the runtime (which runs the flood as written), within a rule count
    (98 and 126 rules with a body). And every cell the flood missed filled with the mover's stone (a write the
    search reads: the scan reads the state it started with, as the list was grown before its first pass)."""
    text = ROOTED.read_text()
    for old, new in changes:
        assert old in text
        text = text.replace(old, new)
    src, out = tmp_path / "rooted.tgpl", tmp_path / "rooted.kif"
    src.write_text(text)
    r = CliRunner().invoke(main, ["to-gdl", str(src), "-o", str(out)])
    assert r.exit_code == 0, r.output
    kif = out.read_text()
    second = kif.splitlines()[1]
    assert second.startswith("; validated:") and ("to the end of the game" in second or "bisimulation" in second)
    assert "(fallflood1" in kif and kif.count("\n(<=") <= most


def test_one_start_asked_the_items_of_a_list_by_a_counted_loop_is_keyed_by_its_start():
    """Havannah's `group.contains(Edge[i])` in a counted loop over the rim, and `open.contains(Edge[j])`: one start
    asked many goals, so the searches are marked to be keyed by their start (closures.reached_of: the items
    reached, not those times every goal asked; issue 34). flood.tgpl's `group.contains(goal)`, asked one goal, is
    left keyed by its goal."""
    path = DATA / "designers" / "havannah3_contains.tgpl"
    program = load_program(path, text=path.read_text(), transform=lambda m: rewrite_floods(m, lambda t: 18))
    assert program.ok, [str(d) for d in program.diagnostics]
    fns = functions(program)
    for name in ("BridgeOrForkFlood1", "EscapesFlood1"):
        goal = [d.name for d in fns[name].inputs][1]
        assert fns[name].reaches == goal, name
    program = load_program(FLOOD, text=FLOOD.read_text(), transform=lambda m: rewrite_floods(m, lambda t: 15))
    assert functions(program)["JoinedFlood1"].reaches is None
