"""Items of lists read as one lookup in the optimistic spelling of code that reads only
(`codegen.BlockGenerator.quick_item`), and counted loops that also count in ints
(`BlockGenerator.list_index`): games play exactly as the plain reference does, the same moves, logs, keys and
errors (an index past the end, negative, fractional, infinite, a null list, a null index)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tgpl.runtime import RuntimeOptions, load_game
from observed import outcome, reference

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def plain(monkeypatch):
    """load(path) -> the game run the plain way (`RuntimeOptions.reference()`: the closures only)."""
    return reference


def test_chess_reads_its_squares_steps_as_one_lookup(plain):
    chess = load_game(EXAMPLES / "chess" / "chess.tgpl")
    attacked = chess.compiled.classes["Chess"].functions["Attacked"].effect.direct_call
    assert any(n.startswith("_j") for n in attacked.__code__.co_varnames)  # `d` also counts in ints
    assert "IndexError" in attacked.__code__.co_names  # an item past the end is a miss
    slides = chess.compiled.classes["Chess"].functions["Slides"].effect.direct_call
    assert "_IX" in slides.__code__.co_names  # `Step[d]`, `d` a number read from `Dir`


# Each function reads only; each action logs one of them with `Util.K` set by the K actions.
ITEMS = """
game "t";
players 1;
tile Cell { number Value = 0; }
board B { group G { geometry square; grid { Cell, Cell, Cell; } } }
global class Util
{
    number K = 0;
    number P = 0;
    number R = 0;
    List<number> Xs = {10, 20, 30};
    List<number> Ks = {0, 1, 2, 5};
    List<number> Ys = null;
    // an input as the index: a number, not a local known to hold floats only
    function At { function input number k; returns number; effect { return Xs[k]; } }
    // a local that holds floats only (`numeric`)
    function Local { function input number k; returns number; effect { number j = k + 0; return Xs[j]; } }
    // a number read from a list, then the index
    function Via { function input number k; returns number; effect { number d = Ks[k]; return Xs[d]; } }
    // a counter that counts in ints too, past the end when n > 3
    function Sum
    {
        function input number n;
        returns number;
        effect
        {
            number s = 0;
            for (number i = 0; i < 4; i += 1) { if (i < n) { s += Xs[i]; } }
            return s;
        }
    }
    // a counter that indexes nothing: no ints
    function Plain
    {
        function input number n;
        returns number;
        effect
        {
            number s = 0;
            for (number i = 0; i < 3; i += 1) { if (i < n) { s += i; } }
            return s;
        }
    }
    // a counter of fractional steps: no ints
    function Half
    {
        function input number n;
        returns number;
        effect
        {
            number s = 0;
            for (number i = 0; i < 3; i += 0.5) { if (i < n) { s += Xs[i]; } }
            return s;
        }
    }
    // a whole literal as the index, of a null list when n is 1, past the end when n is 2
    function Lit
    {
        function input number n;
        returns number;
        effect
        {
            if (n == 1) { return Ys[0]; }
            if (n == 2) { return Xs[3]; }
            return Xs[2];
        }
    }
}
global class Board { B Grid = null; }
class Seat
{
    action Pick
    {
        input Cell target { return Util.Xs[Util.P] + Util.At(k: Util.P) > target.Value; }
        trigger PlayerChoiceEvent { return true; }
        effect { target.Value = 100; turn.pass(); }
    }
""" + "".join(f"""    action {name} {{ trigger PlayerChoiceEvent {{ return true; }} effect {{ Util.R = Util.{call}; log("" + Util.R); turn.pass(); }} }}
""" for name, call in (("A", "At(k: Util.K)"), ("L", "Local(k: Util.K)"), ("V", "Via(k: Util.K)"),
                       ("S", "Sum(n: Util.K)"), ("H", "Half(n: Util.K)"), ("Q", "Plain(n: Util.K)"), ("I", "Lit(n: Util.K)"))) + "".join(
    f"""    action {field}{name} {{ trigger PlayerChoiceEvent {{ return true; }} effect {{ Util.{field} = {k}; turn.pass(); }} }}
""" for field in "KP" for name, k in (("0", "0"), ("1", "1"), ("2", "2"), ("3", "3"), ("4", "4"), ("M1", "-1"), ("H", "0.5"),
                    ("X", "2.5"), ("N", "0 / 0"), ("INF", "1 / 0"))) + """}
turn T { phase P { } default { return 0; } }
setup
{
    Board.Grid = new B();
    Seat s = new Seat(); s.assign(0);
    turn.use("T");
    turn.pass(0, "P");
}
"""

ACTIONS = ("A", "L", "V", "S", "H", "I", "Q")
VALUES = ("0", "1", "2", "3", "4", "M1", "H", "X", "N", "INF")


@pytest.fixture(scope="module")
def three(tmp_path_factory):
    """The game compiled as it runs, and the plain reference's way (as `slow` and `general`, the ways the
    tests below compare it with: without quick items nor int counters, and with no optimistic spelling)."""
    folder = tmp_path_factory.mktemp("items")
    games = {}
    for name, options in (("fast", RuntimeOptions()), ("slow", RuntimeOptions.reference()),
                          ("general", RuntimeOptions.reference())):
        (folder / f"{name}.tgpl").write_text(ITEMS, encoding="utf-8")
        games[name] = load_game(folder / f"{name}.tgpl", options=options)
    return games


def test_the_items_are_read_as_one_lookup(three):
    fns = three["fast"].compiled.classes["Util"].functions
    assert "_IX" in fns["At"].effect.direct_call.__code__.co_names
    assert "_IX" in fns["Local"].effect.direct_call.__code__.co_names
    assert any(n.startswith("_j") for n in fns["Sum"].effect.direct_call.__code__.co_varnames)
    assert not any(n.startswith("_j") for n in fns["Half"].effect.direct_call.__code__.co_varnames)
    assert not any(n.startswith("_j") for n in fns["Plain"].effect.direct_call.__code__.co_varnames)
    assert "IndexError" in fns["Lit"].effect.direct_call.__code__.co_names


@pytest.mark.parametrize("value", VALUES)
@pytest.mark.parametrize("action", ACTIONS + ("Pick",))
def test_list_items_come_out_the_same(three, action, value):
    # Pick: its filter lists the cells (or fails) after the P move
    moves = [f"Seat#0.P{value}()"] if action == "Pick" else [f"Seat#0.K{value}()", f"Seat#0.{action}()"]
    for _ in range(2):  # the second time through sites bound by the first
        outcomes = [outcome(three[name], moves, f"{name}.tgpl") for name in ("fast", "slow", "general")]
        assert outcomes[0] == outcomes[1] == outcomes[2]


@pytest.mark.parametrize("action, value, text", [
    ("A", "3", "index"), ("S", "4", "index"), ("I", "2", "index"), ("I", "1", "null"), ("V", "3", "index"),
    ("A", "M1", "index"), ("A", "INF", None), ("L", "N", None), ("Pick", "3", "index"),
])
def test_misses_raise_where_expected(three, action, value, text):
    moves = [f"Seat#0.P{value}()"] if action == "Pick" else [f"Seat#0.K{value}()", f"Seat#0.{action}()"]
    ended = outcome(three["fast"], moves, "fast.tgpl")
    assert ended[0] == "error"
    if text is not None:
        assert text in ended[2]


@pytest.mark.parametrize("action, value, logged", [
    ("A", "2", "30"), ("A", "H", "10"), ("A", "X", "30"), ("L", "X", "30"), ("V", "2", "30"),
    ("S", "3", "60"), ("H", "2", "60"), ("I", "0", "30"),
])
def test_hits_and_truncated_indexes_read_the_item(three, action, value, logged):
    ended = outcome(three["fast"], [f"Seat#0.K{value}()", f"Seat#0.{action}()"], "fast.tgpl")
    assert ended[0] == "ok" and ended[2][-1] == logged
