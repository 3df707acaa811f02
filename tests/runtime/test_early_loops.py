"""A counted loop that may end early, with no loop in its body and calls only of functions that
count no steps, is spelled out value by value, its steps counted at once and given back at a `break`
(`BlockGenerator.unrolled`). Games play, and pass the step limit with the same error at the same
step, as when the loop counts its steps one by one (the plain reference)."""

from __future__ import annotations

import re

import pytest

from tgpl.runtime import RuntimeOptions, codegen, load_game, unrolling
from tgpl.runtime.errors import TGPLRuntimeError

from observed import EXAMPLES, compiled_with_sources, ends_with_limits, reference, written_both_ways

LOOPS = """
game "t";
players 1;
global class Box { number Sum = 0; number Moves = 0; List<number> Items = {}; }
function Same { function input number a; function input number b; returns bool; effect { if (a == b) { return true; } return false; } }
function Twice { function input number n; returns number; effect { number s = 0; for (number k = 0; k < 2; k += 1) { s += n; } return s; } }
class Seat
{
    action Go
    {
        require { return Box.Moves < 4; }
        trigger PlayerChoiceEvent { return true; }
        effect { Box.Moves += 1; turn.pass(0, "Check"); }
    }
}
turn T
{
    phase Idle { }
    phase Check
    {
        // spelled out: ends at the value the move gives (1 to 4), or runs to the end (4: the third)
        number found = -1;
        for (number i = 0; i < 3; i += 1)
        {
            if (Same(a: i, b: Box.Moves - 1)) { found = i; break; }
            Box.Sum += i;
        }
        // spelled out: a break at the first value, in a nested if
        for (number i = 0; i < 4; i += 1) { if (i >= 0) { if (Box.Moves > 0) { break; } } Box.Sum += 100; }
        // spelled out, no break at all (a call of a function that counts no steps)
        for (number i = 1; i < 3; i += 1) { if (Same(a: i, b: 2)) { Box.Sum += 1; } }
        // an error in the body, on the fourth move, in its second step
        if (Box.Moves == 4) { for (number i = 0; i < 2; i += 1) { if (i == 1) { Box.Sum += Box.Items[5]; } } }
        // not spelled out: a call of a function that counts steps; too many values; a continue
        for (number i = 0; i < 2; i += 1) { Box.Sum += Twice(n: i); if (i == found) { break; } }
        for (number i = 0; i < 6; i += 1) { if (i == 2) { break; } }
        for (number i = 0; i < 3; i += 1) { if (i == 1) { continue; } if (i == found) { break; } }
        // steps after them all, one by one: a limit is passed where the count above says
        number k = 0;
        while (k < found + 2) { k += 1; }
        Box.Sum += found;
        turn.pass(0, "Idle");
    }
}
setup { Seat s = new Seat(); s.assign(0); turn.use("T"); turn.pass(0, "Idle"); }
"""


@pytest.fixture
def two(tmp_path, monkeypatch):
    """LOOPS compiled with loops spelled out, and with every step counted one by one; the sources."""
    return written_both_ways(LOOPS, tmp_path, monkeypatch)


def _ends(game, limits, moves: int = 4) -> list:
    """How `moves` moves end with each step limit: the key after each, or the error as rendered."""
    return ends_with_limits(game, limits, ["Seat#0.Go()"] * moves)


def test_which_loops_are_spelled_out(two):
    _, _, sources, _ = two
    check = [src for src in sources if "m.steps + 3 <= SL" in src and "for _once in (None,):" in src]
    assert check
    for src in check:
        assert "m.steps + 4 <= SL" in src and "m.steps + 2 <= SL" in src
        assert "m.steps + 6 <= SL" not in src  # too many values
        assert "m.steps -= 2" in src and "m.steps -= 3" in src  # breaks give back what they skip
        assert len(re.findall(r"<= SL:", src)) == 4  # the three, and the one that errs


def test_limits_are_passed_at_the_same_step(two):
    early, plain, _, _ = two
    limits = range(0, 70)
    ends = _ends(early, limits)
    assert ends == _ends(plain, limits)
    errors = {e[2].splitlines()[0] for e in ends if e[0] == "error"}
    assert any("--max-steps" in e for e in errors) and any("index" in e or "list" in e for e in errors)
    assert ends[-1][0] == "error" and len(ends[-1][1]) == 3  # the fourth move errs in the body


def test_a_planted_miscount_is_seen(two, monkeypatch):
    """Were a `break` to give back one step too few, some limit would be passed where it is not."""
    _, plain, _, path = two
    unrolled = codegen.BlockGenerator.unrolled

    def wrong(self, head, depth, x, values, j, plain_):
        unrolled(self, head, depth, x, values, j, plain_)
        self.lines[head:] = [line.replace("m.steps -= 2", "m.steps -= 1") for line in self.lines[head:]]

    monkeypatch.setattr(codegen.BlockGenerator, "unrolled", wrong)
    planted = load_game(path)
    assert _ends(planted, range(0, 70)) != _ends(plain, range(0, 70))


def test_tris_win_check_is_spelled_out(monkeypatch):
    _, sources = compiled_with_sources(EXAMPLES / "tris.tgpl", monkeypatch)
    check = [src for src in sources if "m.steps + 3 <= SL" in src]
    assert check and all("m.steps -= 2" in src and "m.steps -= 1" in src for src in check)


def test_tris_limits_are_passed_at_the_same_step(monkeypatch):
    """Tris's move: the table (12 steps), then the win check's loop (1 to 3 steps)."""
    moves = ["PlayerState#0.Tick(TickTile#4)", "PlayerState#1.Tick(TickTile#0)", "PlayerState#0.Tick(TickTile#5)",
             "PlayerState#1.Tick(TickTile#1)", "PlayerState#0.Tick(TickTile#2)"]
    early = load_game(EXAMPLES / "tris.tgpl")
    plain = reference(EXAMPLES / "tris.tgpl")

    def ends(game):
        out = []
        for limit in range(0, 20):
            game.step_limit = limit
            state = game.initial_state(0)
            seen = []
            try:
                for move in moves:
                    legal = [m.text for m in state.legal_moves()]
                    state = state.apply(move if move in legal else legal[0])
                    seen.append((state.key(), state.ranking if state.is_terminal else None))
                out.append(("ok", seen))
            except TGPLRuntimeError as e:
                out.append(("error", seen, e.render()))
        return out

    got = ends(early)
    assert got == ends(plain)
    assert any(e[0] == "error" for e in got) and any(e[0] == "ok" for e in got)


def test_the_counter_set_before_each_value_plays_alike(two, monkeypatch):
    """The counter read as its literal in each copy: it plays as the reference, which counts each step."""
    early, _, sources, path = two
    assert any(re.search(r"\bif 2\.0 >= 0\.0 ", src) for src in sources)  # `i >= 0` read with its value
    set_ = reference(path)
    assert _ends(early, range(0, 70)) == _ends(set_, range(0, 70))


def test_a_branch_taken_replaces_each_if_on_the_test():
    """A loop spelled twice on a flat view: each `if` on it (and its `else`), however nested, replaced
    by the branch taken, a `pass` where that is empty; `elif` included."""
    x = codegen._local(1)
    body = ["try:", "    if _fv2:", "        a = 1", "        if _fv2:", "            b = 2", "    else:", "        c = 3",
            "except E:", "    pass", "if _fv2 and x:", "    d = 4", "if _fv2:", "    e = 5", "elif b:", "    f = 6"]
    spelled = unrolling.spell(tuple("    " + line for line in body), 0, x, None, (0.0,), ("_fv1", "_fv2"), (), 400)
    copy = ["try:", "    a = 1", "    b = 2", "except E:", "    pass", "if _fv2 and x:", "    d = 4", "e = 5"]
    other = ["try:", "    c = 3", "except E:", "    pass", "if _fv2 and x:", "    d = 4", "if b:", "    f = 6"]
    assert spelled == ("if m.steps + 1 <= SL:", "    m.steps += 1", "    if _fv2:", "        for _once in (None,):",
                       *("            " + line for line in copy), "    else:", "        for _once in (None,):",
                       *("            " + line for line in other))
    assert unrolling.spell(tuple("    " + line for line in body), 0, x, None, (0.0,), ("_fv2",), (), 20)[2] \
        == "    for _once in (None,):"  # twice is too long: once, the view tested in the copy


def test_a_copy_substitutes_names_not_text():
    """The counter's int read as its literal (a negative one parenthesised where it must be), not
    in a string nor in a longer name; its local (a marker) likewise; a `break` gives back steps.
    Spellings a later pass finds by their text are kept as they are, unless they name the counter."""
    x, y = codegen._local(1), codegen._local(10)
    kept, counted = f"(D[{y}.place]['F'] if {y} else None)", f"(D[{x}.place]['F'] if {x} else None)"
    body = unrolling.parse((f"        z = _j1 ** 2 + len('_j1') + _j10 + {x} + {y}", f"        w = {kept} + {counted}",
                            "        if z:", "            break"), 8, x, "_j1", (kept, counted))
    assert body.read_only and body.kept == [kept] and unrolling.own_breaks(body.tree) == 1
    copies = unrolling.spelled_out(body, unrolling.marker_name(x), "_j1", (-2.0, 0.5))
    assert unrolling.unparse(copies, 0, body.kept) == [
        f"z = (-2) ** 2 + len('_j1') + _j10 + -2.0 + {y}", f"w = {kept} + (D[(-2.0).place]['F'] if -2.0 else None)",
        "if z:", "    m.steps -= 1", "    break",
        f"z = 0 ** 2 + len('_j1') + _j10 + 0.5 + {y}", f"w = {kept} + (D[0.5.place]['F'] if 0.5 else None)",
        "if z:", "    break"]
    assert unrolling.own_breaks(unrolling.parse(("for a in b:", "    break"), 0, x, None).tree) is None
    assert unrolling.spell(("    if a:", "        continue"), 0, x, None, (0.0, 1.0), (), (), 400) is None
    stores = unrolling.parse((f"({x} := 3)", f"w = {counted}"), 0, x, None, (counted,))
    assert not stores.read_only and stores.kept == [counted]  # the counter set before each copy: still a name
    assert unrolling.unparse(unrolling.spelled_out(stores, unrolling.marker_name(x), None, (1.0, 2.0)), 0,
                             stores.kept) == [f"{x} = 1.0", f"({x} := 3)", f"w = {counted}", f"{x} = 2.0",
                                              f"({x} := 3)", f"w = {counted}"]


def test_tris_tests_its_view_once_for_the_win_check(monkeypatch):
    _, sources = compiled_with_sources(EXAMPLES / "tris.tgpl", monkeypatch)
    check = [src for src in sources if "m.steps + 3 <= SL" in src]
    for src in check:
        quick = src[src.index("m.steps + 3 <= SL"):]
        quick = quick[:quick.index("\n    else:\n")]
        assert len(re.findall(r"^ *if _fv\d+:$", quick, re.M)) == 1


def test_tris_first_moves_alike_with_its_view_tested_in_each_copy(monkeypatch):
    """The first run after setup builds the table (no view yet: the general branch); memo budgets
    of 0 keep every run so."""
    moves = ["PlayerState#0.Tick(TickTile#4)", "PlayerState#1.Tick(TickTile#0)", "PlayerState#0.Tick(TickTile#3)",
             "PlayerState#1.Tick(TickTile#1)", "PlayerState#0.Tick(TickTile#5)"]
    for budget in (0, 1 << 18):
        fast = load_game(EXAMPLES / "tris.tgpl", options=RuntimeOptions(memo_budget=budget))
        plain = reference(EXAMPLES / "tris.tgpl")
        for game in (fast, plain):
            state = game.initial_state(0)
            seen = []
            for move in moves:
                legal = [m.text for m in state.legal_moves()]
                state = state.apply(move if move in legal else legal[0])
                seen.append((state.key(), state.ranking if state.is_terminal else None))
            if game is fast:
                first = seen
        assert first == seen
