"""A flood's group cleared in a loop, written as a scan of the board (tgpl.lowering.group_clears, decision 116).

Atari Go's `Place` removes a captured group with `List<Point> dead = goban.GroupOf(...); for (i < dead.length)
{ dead[i].Stone = null; }`, a list of values not known when compiling. The rewrite scans the 25 points (a scan
proved to visit each once) and clears those `GroupOfHas1` (GroupOf asking `group.contains(goal)`) finds, every
pass reading the state the loop started with (the loops are marked `reads_before`).
"""

from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest
from differential import lockstep_playouts

from tgpl.frontend import ast
from tgpl.frontend.loader import load_program
from tgpl.lowering.floods import board_scans
from tgpl.lowering.group_clears import rewrite_group_clears
from tgpl.pipeline import start_snapshot
from tgpl.runtime.game import Game, compile_program, load_game

ATARIGO = Path(__file__).resolve().parents[1] / "data" / "designers" / "atarigo.tgpl"
CLEAR = "for (number i = 0; i < dead.length; i += 1) { dead[i].Stone = null; }"


def scans_of_atarigo():
    game = load_game(ATARIGO)
    return board_scans(game.program, start_snapshot(game, 0))


def rewritten(text: str | None = None, scans=None, then=None):
    scans = scans if scans is not None else scans_of_atarigo()
    made: list[str] = []

    def transform(m):
        made.extend(rewrite_group_clears(m, scans))
        if then is not None:
            then(m)
    program = load_program(ATARIGO, text=text, transform=transform)
    assert program.ok, [str(d) for d in program.diagnostics]
    return program, made


def place_of(program) -> ast.ActionDef:
    return next(n for m in program.modules for n in ast.walk(m.items) if isinstance(n, ast.ActionDef)
                and n.name == "Place")


def calls(node, name: str) -> list[ast.Call]:
    return [n for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.callee, (ast.Name, ast.Member))
            and n.callee.name == name]


def test_the_board_scan_is_proved_for_the_points_only():
    scans = scans_of_atarigo()
    assert scans("Goban", "Point", ["Points"]) == ("Points", [("x", 0, 5), ("y", 0, 5)])
    assert scans("Goban", "Goban", ["Points"]) is None  # the cells are no Gobans
    assert scans("Point", "Point", []) is None  # 25 points: no one object of the class


def test_atari_go_removal_is_a_marked_scan_asking_the_group():
    program, made = rewritten()
    assert made == ["GroupOfHas1"]
    place = place_of(program)
    assert calls(place, "GroupOf") == [] and len(calls(place, "GroupOfHas1")) == 1
    outer = next(n for n in ast.walk(place) if isinstance(n, ast.For) and n.reads_before)
    inner = outer.body.body[0]
    assert isinstance(inner, ast.For) and inner.reads_before
    assert (outer.cond.right.value, inner.cond.right.value) == (5, 5)
    item, test = inner.body.body
    # the board read through the global path the local `goban` was declared from
    cell = item.init.expr
    assert isinstance(cell.obj.obj, ast.Member) and cell.obj.obj.name == "Points"
    assert isinstance(cell.obj.obj.obj, ast.Member) and cell.obj.obj.obj.name == "Goban"
    (write,) = test.then.body
    assert write.expr.target.name == "Stone" and isinstance(write.expr.value, ast.NullLit)
    call = test.cond
    assert [a.name for a in call.args] == ["start", "played", "who", "goal1"]
    goban = next(c for c in program.classes if c.name == "Goban")
    search = goban.functions["GroupOfHas1"].defn
    last = search.effect.body.body[-1]
    assert isinstance(last, ast.Return) and last.value.callee.name == "contains"


@pytest.mark.parametrize("change", [
    "for (number i = 0; i < dead.length; i += 1) { dead[i].Stone = player; }",  # not a literal
    "for (number i = 0; i < dead.length; i += 1) { dead[i].X = i; }",  # the order matters (the counter)
    "for (number i = 0; i < dead.length; i += 1) { dead[i].Stone = null; dead[i].X = 0; }",  # another field
    "for (number i = 1; i < dead.length; i += 1) { dead[i].Stone = null; }",  # not every item
    "for (number i = 0; i < dead.length; i += 1) { dead[0].Stone = null; }",  # another item
    "for (number i = 0; i < dead.length; i += 1) { dead[i].Stone = null; }\n if (dead.length > 3) { winner player; }",
])
def test_what_is_not_exactly_a_cleared_group_is_left_alone(change):
    text = ATARIGO.read_text()
    assert CLEAR in text
    program, made = rewritten(text.replace(CLEAR, change))
    assert made == [] and len(calls(place_of(program), "GroupOf")) == 1


def test_without_a_proved_scan_it_is_left_alone():
    program, made = rewritten(scans=lambda owner, item, groups: None)
    assert made == [] and len(calls(place_of(program), "GroupOf")) == 1


def test_a_list_that_is_not_a_flood_is_left_alone():
    text = ATARIGO.read_text()
    old = "List<Point> dead = goban.GroupOf(start: n, played: at, who: player);"
    assert old in text
    program, made = rewritten(text.replace(old, "List<Point> dead = goban.Around(p: n);"))
    assert made == [] and len(calls(place_of(program), "Around")) == 2


def _as_run(m: ast.Module) -> None:
    """Each marked scan run in two steps, as its marking says it reads: a list of the items it would clear, made
    before the first write, then the writes. The runtime runs this; the lowering reads the marked loop so."""
    for block in [n for n in ast.walk(m.items) if isinstance(n, ast.Block)]:
        for k, s in enumerate(block.body):
            if not (isinstance(s, ast.For) and s.reads_before and isinstance(s.body.body[0], ast.For)):
                continue  # the outer loop of a scan
            inner = s.body.body[0]
            item, test = inner.body.body
            (write,) = test.then.body
            span = s.span
            listed = ast.Name(span, "clearedItems")
            add = ast.ExprStmt(span, ast.Call(span, ast.Member(span, listed, "add", span),
                                              [ast.Arg(span, None, ast.Name(span, item.name))]))
            test.then.body = [add]
            j = ast.Name(span, "clearedAt")
            target = ast.Member(span, ast.Index(span, listed, j), write.expr.target.name, span)
            clear = ast.For(span, ast.VarDecl(span, ast.TypeRef(span, "number"), "clearedAt", span,
                                              ast.NumberLit(span, 0.0)),
                            ast.Binary(span, "<", j, ast.Member(span, listed, "length", span)),
                            ast.Assign(span, j, "+=", ast.NumberLit(span, 1.0)),
                            ast.Block(span, [ast.ExprStmt(span, ast.Assign(span, target, "=", write.expr.value))]))
            decl = ast.VarDecl(span, ast.TypeRef(span, "List", [ast.TypeRef(span, item.type.name)]), "clearedItems",
                               span, ast.InitList(span, []))
            block.body[k:k + 1] = [decl, s, clear]
            break


def _captured(state) -> bool:
    """Did the game end by a capture (a winner), not by the draw when nobody can play?"""
    return len(set(state.goals.values() if isinstance(state.goals, dict) else state.goals)) > 1


def test_atari_go_with_its_removal_scanned_plays_as_written():
    """The rewritten game, its scans run as marked (membership first, then the writes), played by the runtime:
    the same legal moves, states and goals at every step as the game as written, in random playouts that end by
    captures (every capture runs the scan)."""
    written = load_game(ATARIGO)
    program, made = rewritten(then=_as_run)
    assert made == ["GroupOfHas1"]
    scanned = Game(program, compile_program(program), None)
    steps, ends = lockstep_playouts(written, scanned, random.Random(11), 8)
    captures = sum(map(_captured, ends))
    assert steps >= 60 and captures >= 3


def test_a_two_stone_capture_needs_the_state_before_the_writes():
    """White's group (0,0)-(0,1) captured by Black on (1,0): the group is asked of (0,0), which the scan reaches
    first. Run as marked, both stones go, as in the game as written; run pass after pass, the first write empties
    (0,0), the flood from it then finds nothing, and (0,1) would stay: why the scan is marked."""
    def played(game):
        state = game.initial_state(0)
        for x, y, who in [(1, 1, 0), (0, 0, 1), (0, 2, 0), (0, 1, 1), (1, 0, 0)]:
            state = state.apply(f"Stones#{who}.Place(at: Points[{x}][{y}])")
        return state
    written = played(load_game(ATARIGO))
    program, _ = rewritten(then=_as_run)
    marked = played(Game(program, compile_program(program), None))
    assert written.is_terminal and marked.key() == written.key() and marked.goals == written.goals
    program, _ = rewritten()
    in_order = played(Game(program, compile_program(program), None))
    assert in_order.key() != written.key()


def test_atari_go_3x3_with_its_removal_lowers_compiled_and_validates(tmp_path):
    """tests/data/lowering/atarigo3.tgpl (Atari Go with its bounds made 3) lowers with its moves compiled, the
    removal a marked scan, and its rules are validated against the game as written: on 3 x 3 about a third of
    random games capture a group whose first scanned point is the one asked (run pass after pass, those differ),
    so the validation's playouts check the scan reads the state it started with."""
    from click.testing import CliRunner

    from tgpl.cli import main

    out = tmp_path / "go3.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(ATARIGO.parents[1] / "lowering" / "atarigo3.tgpl"), "--moves",
                                  "compiled", "--max-seconds", "600", "-o", str(out)])
    assert r.exit_code == 0, r.output
    head = out.read_text().splitlines()[1]
    assert head.startswith("; validated:") and "to the end of the game" in head, head
    # the searches are closures (decision 115): the scan's demand, asked where it is entered, made no negation
    # cycle that would have the moves compiled again with the counts kept
    assert "groupofhas1flood1_found" in out.read_text() and "breathesflood1_found" in out.read_text()


def test_the_board_is_read_through_the_local_where_its_attribute_may_change():
    """`Goban goban = Go.Goban;` is read as `Go.Goban` only where no code after setup assigns `Goban`."""
    text = ATARIGO.read_text()
    old = "            winner player;\n"
    assert old in text
    program, made = rewritten(text.replace(old, "            Go.Goban = goban;\n" + old, 1))
    assert made == ["GroupOfHas1"]
    place = place_of(program)
    outer = next(n for n in ast.walk(place) if isinstance(n, ast.For) and n.reads_before)
    board = outer.body.body[0].body.body[0].init.expr.obj.obj.obj
    assert isinstance(board, ast.Name) and board.name == "goban"


def searches_of_atarigo() -> dict[str, ast.FunctionDef]:
    """Atari Go's Goban functions after the whole flood rewrite (the removal scanned, the floods searches)."""
    from tgpl.lowering.floods import rewrite_floods

    program, _ = rewritten(then=lambda m: rewrite_floods(m, lambda t: 24))
    goban = next(c for c in program.classes if c.name == "Goban")
    return {name: f.defn for name, f in goban.functions.items()}


def test_the_group_search_is_keyed_by_its_start():
    """The scan asks `GroupOfHas1` of every point: its search is marked, and proved, to be compiled as the set of
    points reached from its start (closures.reached_of), the goal dropped from its recursion; `Breathes`'s
    search, which asks no goal, is not."""
    from tgpl.lowering.closures import closure_of, reached_of

    fns = searches_of_atarigo()
    search = fns["GroupOfHas1Flood1"]
    names = [d.name for d in search.inputs]
    assert search.reaches == names[1] and search.stops == names[-1]
    reach = reached_of(search, closure_of(search))
    assert reach is not None and reach.goal == names[1] and reach.index == 1
    assert id(search.effect.body.body[0]) == reach.test
    breathes = fns["BreathesFlood1"]
    assert breathes.reaches is None and reached_of(breathes, closure_of(breathes)) is None


def test_the_made_functions_name_what_the_designer_wrote():
    """Messages name a function the rewrites made by what the designer wrote (issue 34): `GroupOfHas1` is
    `GroupOf` asked about its list for `Place`'s clear, its flood's search `GroupOf`'s flood (not
    `GroupOfHas1`'s: the designer never wrote it), and `BreathesFlood1` the flood `Breathes` asks, filled in
    `GroupOf`, whose statements were inlined in it."""
    text = ATARIGO.read_text()
    lines = text.splitlines()
    flood = next(k + 1 for k, line in enumerate(lines) if "i < group.length" in line)
    clear = next(k + 1 for k, line in enumerate(lines) if "i < dead.length" in line)
    fns = searches_of_atarigo()
    shown = {name: ast.shown_name(f) for name, f in fns.items() if f.origin is not None}
    assert shown == {
        "GroupOfHas1": f"GroupOf, asked whether the list it returns holds a Point for the clear in Place at line {clear}",
        "GroupOfHas1Flood1": f"GroupOf, its flood of the list 'group' at line {flood}",
        "BreathesFlood1": f"Breathes, its flood of the list 'group' filled in GroupOf at line {flood}"}


@pytest.mark.parametrize("change", ["goal read", "test second", "another true", "unmarked"])
def test_where_the_keyed_proof_fails_the_goal_is_carried(change):
    """reached_of refuses what it cannot prove: the goal read besides its test, a statement before the test, a
    `return true` that is no step, or a search not marked."""
    from tgpl.lowering.closures import closure_of, reached_of

    fn = copy.deepcopy(searches_of_atarigo()["GroupOfHas1Flood1"])
    goal, at = fn.inputs[1].name, fn.inputs[0].name
    body = fn.effect.body.body
    span = body[0].span
    if change == "goal read":  # `if (goal == null) { return false; }` after the test
        body.insert(1, ast.If(span, ast.Binary(span, "==", ast.Name(span, goal), ast.NullLit(span)),
                              ast.Block(span, [ast.Return(span, ast.BoolLit(span, False))]), None))
    elif change == "test second":  # `if (at == null) { return false; }` before the test
        body.insert(0, ast.If(span, ast.Binary(span, "==", ast.Name(span, at), ast.NullLit(span)),
                              ast.Block(span, [ast.Return(span, ast.BoolLit(span, False))]), None))
    elif change == "another true":  # `if (at == null) { return true; }` after the test
        body.insert(1, ast.If(span, ast.Binary(span, "==", ast.Name(span, at), ast.NullLit(span)),
                              ast.Block(span, [ast.Return(span, ast.BoolLit(span, True))]), None))
    else:
        fn.reaches = None
    assert closure_of(fn) is not None  # still a closure: only the keyed form is refused
    assert reached_of(fn, closure_of(fn)) is None


def _ground_rules(tmp_path, name: str) -> tuple[int, str]:
    from click.testing import CliRunner

    from tgpl.asp.ground_size import ground_size
    from tgpl.asp.reasoner import read_gdl
    from tgpl.cli import main

    out = tmp_path / name
    r = CliRunner().invoke(main, ["to-gdl", str(ATARIGO.parents[1] / "lowering" / "atarigo3.tgpl"), "--moves",
                                  "compiled", "--no-validate", "--max-seconds", "600", "-o", str(out)])
    assert r.exit_code == 0, r.output
    return ground_size(read_gdl(out, max_ground=None)[0]).rules, out.read_text()


def test_the_keyed_group_search_grounds_to_less_than_three_fifths(tmp_path, monkeypatch):
    """atarigo3 with its moves compiled: keyed by its start, the group search's rows are the points reached from
    the few starts asked (its `_reach` relation), not every point reached times every point asked about: the
    ground program has less than three fifths of the rules it has with the goal carried (115,872 against
    217,792; both forms give each pass of the four directions to the search as rules of their own)."""
    from tgpl.lowering import horn

    keyed, kif = _ground_rules(tmp_path, "keyed.kif")
    assert "(groupofhas1flood1_reach " in kif and "(breathesflood1_reach " not in kif
    monkeypatch.setattr(horn, "reached_of", lambda fn, closure: None)
    carried, old = _ground_rules(tmp_path, "carried.kif")
    assert "groupofhas1flood1_reach" not in old
    assert keyed * 5 < carried * 3, (keyed, carried)
