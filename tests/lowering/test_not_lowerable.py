"""Programs outside the lowering's subset are refused with the construct's location, never mistranslated.

Each case edits the small counter game in tests/data/lowering/counter.tgpl (which
lowers) and checks the exact diagnostic, the exit status and that no output file
is left behind.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tgpl.cli import main

COUNTER = (Path(__file__).resolve().parents[1] / "data" / "lowering" / "counter.tgpl").read_text()

ADD = "            G.N += 1;\n"
WIN = "            if (G.N == 5) { winner player; }\n"
STOP = """    action Stop
    {
        trigger PlayerChoiceEvent { return true; }
        effect { winner player; }
    }

    action Add"""

CASES = [
    pytest.param(
        [(ADD, "            Stack<Seat> extra = new Stack<Seat>();\n" + ADD)],
        "38:33: error: not lowerable: collections made with `new` after setup are not lowerable",
        id="new-collection-after-setup"),
    pytest.param(
        [(ADD, "            List<number> xs = {1, 2};\n            xs.shuffle();\n" + ADD)],
        "39:13: error: not lowerable: shuffle() after setup is not lowerable: it is a chance move over the orders of "
        "the items shuffled (k! of them for k items), and GDL-II's random deals only from a deck made shuffled that play only pops (decision 100)",
        id="shuffle-after-setup"),
    pytest.param(
        [(ADD, ADD + "            number i = 0;\n            while (i < G.N * 1000) { i += 1; }\n")],
        "40:13: error: not lowerable: this loop runs more than 512 passes in states the ranges of the game's numbers "
        "hold: its condition compares a number read from the state whose values let it run that long; bound it by a "
        "constant known after setup or by the board, or count down a smaller number",
        id="loop-longer-than-its-number-allows"),
    pytest.param(
        [(ADD, ADD + "            for (number i = 0; i < 3; ) { }\n")],
        "39:13: error: not lowerable: this loop never ends: its condition stays true, and no pass changes what it "
        "reads ('i') or breaks out of it (the runtime stops at its step limit)",
        id="loop-that-changes-nothing"),
    pytest.param(
        [(ADD, "            G.N += Up(n: 0);\n")],
        "27:16: error: not lowerable: calls nested deeper than 64: recursion is not lowerable",
        id="recursion"),
    pytest.param(
        [(WIN, ""), ("    action Add", STOP)],
        "44:13: error: not lowerable: G.N takes more than 256 values (0 to 256 found): numbers need a finite range to "
        "be lowered, and the lowering sees nothing that stops this write from making it ever larger (it follows the "
        "turns, and other counters only as far as it can search them together): test it before it changes (an `if` "
        "or a `require`), or end the game when it reaches a bound",
        id="number-without-range"),
    pytest.param(
        [(WIN, "")],
        "1:1: error: not lowerable: no move ever ends the game with a winner: GDL needs terminal states and goals",
        id="never-ends"),
    pytest.param(
        [(ADD, ADD + '            if ("now " + G.N == "now 3") { G.N += 1; }\n')],
        "39:17: error: not lowerable: string operations are not lowerable",
        id="string-operation"),
]


def _game(tmp_path: Path, edits) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    text = COUNTER
    for old, new in edits:
        assert old in text
        text = text.replace(old, new, 1)
    path = tmp_path / "game.tgpl"
    path.write_text(text)
    return path


def test_log_messages_are_no_part_of_the_lowered_game(tmp_path):
    """log() is for people: its text (here a string operation, which is not lowerable) is never computed,
    and the rules are those of the game without it."""
    plain, logged = (CliRunner().invoke(main, ["to-gdl", str(_game(tmp_path / d, edits)), "--no-validate"])
                     for d, edits in (("a", []), ("b", [(ADD, ADD + '            log("now " + G.N);\n')])))
    assert plain.exit_code == logged.exit_code == 0, logged.output
    rules = [out.output.split("\n", 1)[1] for out in (plain, logged)]  # all but the header naming the file
    assert rules[0] == rules[1]


def test_the_counter_game_lowers(tmp_path):
    path = _game(tmp_path, [])
    r = CliRunner().invoke(main, ["to-gdl", str(path), "--stats", "--no-validate"])
    assert r.exit_code == 0, r.output
    assert "moves           2" in r.output


def test_a_loop_bounded_by_a_number_of_the_state_lowers(tmp_path):
    """`while (i < G.N)` runs as many passes as G.N's range (0..5, the game ends at 5) allows: cut after
    execute.LOOP_CUT_START passes, found too short by the ranges, lowered again with twice as many
    (segments.Lowering.check_loop_cuts); to-gdl's validation is a bisimulation. It was refused ("this loop runs
    more than 1000 times")."""
    path = _game(tmp_path, [(ADD, ADD + "            number i = 0;\n            while (i < G.N) { i += 1; }\n")])
    out = tmp_path / "game.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(path), "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert "; validated: bisimulation, 6 states" in out.read_text()


@pytest.mark.parametrize("edits, expected", CASES)
def test_refused_with_its_location(tmp_path, monkeypatch, edits, expected):
    path = _game(tmp_path, edits)
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "game.kif"
    r = CliRunner().invoke(main, ["to-gdl", "game.tgpl", "-o", str(out)])
    assert r.exit_code == 2  # the command cannot do its job
    first = r.output.splitlines()[0]
    assert first == f"game.tgpl:{expected}"
    assert "^" in r.output  # the caret under the construct
    assert not out.exists()
    assert list(tmp_path.iterdir()) == [path]  # nothing half-written


CITADELS = [
    "scoring.tgpl:55:63: error: not lowerable: remove() on a local list is not lowerable",
    "table.tgpl:83:13: error: not lowerable: remove() on a local list is not lowerable",
    "table.tgpl:214:37: error: not lowerable: reshuffle() of the discards of a DistrictDeck that setup deals from is "
    "not lowerable here: random deals setup's pops only where each deal's item goes to the same place whichever item "
    "it is (decision 112), and an item setup dealt may be discarded and come back",
    "table.tgpl:215:20: error: not lowerable: pop() of a shuffled deck in a loop (or a function calling itself) is not "
    "lowerable: random deals one item a move",
    "table.tgpl:266:37: error: not lowerable: collections made with `new` after setup are not lowerable",
    "table.tgpl:272:17: error: not lowerable: push() on a local stack is not lowerable",
    "table.tgpl:274:13: error: not lowerable: shuffle() after setup is not lowerable: it is a chance move over the orders "
    "of the items shuffled (k! of them for k items), and GDL-II's random deals only from a deck made shuffled that play only pops (decision 100)",
    "table.tgpl:275:24: error: not lowerable: pop() on a local stack is not lowerable",
    "table.tgpl:280:31: error: not lowerable: pop() on a local stack is not lowerable",
    "table.tgpl:369:17: error: not lowerable: event.throw_sync() after setup is not lowerable",
    # after the moves spelled out, why they were not compiled: at the attribute's declaration
    "table.tgpl:179:5: error: not lowerable: with the moves compiled instead: a collection in the state ('FaceUp'): "
    "keep a flag on each object instead (`bool Visited = false;` on the cell: `to.Visited = true;` for `add(to)`, "
    "`to.Visited` for `contains(to)`, a counted scan setting it false for `clear()`), or a number for each item it "
    "would count",
]


@pytest.mark.parametrize("example, expected", [
    # citadels: every construct, in each of its files, at once
    ("citadels/citadels.tgpl", CITADELS),
])
def test_examples_outside_the_subset_are_refused_all_at_once(example, expected):
    """Every construct the lowering never translates, each located, before any code runs (citadels: at once)."""
    game = Path(__file__).resolve().parents[2] / "examples" / example
    r = CliRunner().invoke(main, ["to-gdl", str(game)])
    assert r.exit_code == 2
    errors = [line.rsplit("/", 1)[1] for line in r.output.splitlines() if ": error: not lowerable:" in line]
    assert errors == expected


def test_counters_whose_range_cannot_be_found_are_refused_within_a_budget(tmp_path, monkeypatch):
    """Two scores bounded only by the moves left: the search of the counters together bounds them
    (test_lower_examples.py); when it cannot (here its budget is cut to a few states), the search counter
    by counter grows them apart, cubically, and the game is refused at a score once that search has tried
    its budget of cases, not after hours."""
    import tgpl.lowering.segments as segments

    monkeypatch.setattr(segments, "RANGE_WORK_LIMIT", 50_000)
    monkeypatch.setattr(segments, "JOINT_LIMIT", 5)
    game = Path(__file__).resolve().parents[1] / "data" / "lowering" / "scores.tgpl"
    out = tmp_path / "scores.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(game), "--no-validate", "-o", str(out)])
    assert r.exit_code == 2
    first = r.output.splitlines()[0]
    # either score, at the write that raises it: each, searched alone with the turns, grows past every bound
    # (only the move counter, searched with it, bounds it), so it is named before the counter that grew most
    source = game.read_text().splitlines()
    writes = {name: (i + 1, line.index(f"GameState.{name} += 1") + 1) for i, line in enumerate(source)
              for name in ("First", "Second") if f"GameState.{name} += 1" in line}
    assert any((
        f"scores.tgpl:{line}:{col}: error: not lowerable: the range of GameState.{name} could not be bounded within "
        "50,000 cases of the counters' values (") in first and first.endswith(
        "found): numbers need a finite range to be lowered, and the lowering sees nothing that stops this write from "
        "making it ever larger (it follows the turns, and other counters only as far as it can search them "
        "together): test it before it changes (an `if` or a `require`), or end the game when it reaches a bound")
        for name, (line, col) in writes.items()), first
    assert not out.exists()


def test_too_many_ways_through_the_moves_effects_are_refused_at_the_action(monkeypatch):
    """The moves of a control state are lowered one by one; more ways through their effects than can be
    merged are refused at the action they come from (here the limit is cut to twelve: reach.tgpl's nine claims),
    as soon as they pass the limit, not at the game's first line after every move has run."""
    from tgpl.lowering import execute

    monkeypatch.setattr(execute, "PATH_LIMIT", 12)
    game = Path(__file__).resolve().parents[1] / "data" / "lowering" / "reach.tgpl"
    r = CliRunner().invoke(main, ["to-gdl", str(game), "--no-validate"])
    assert r.exit_code == 2
    first = r.output.splitlines()[0]
    line = game.read_text().splitlines().index("    action Claim") + 1
    assert f"reach.tgpl:{line}:12: error: not lowerable: more than 12 ways through the moves' effects in one " \
           "control state (14 through Claim, with 9 moves to lower)" in first
    monkeypatch.setattr(execute, "PATH_LIMIT", 20)
    assert CliRunner().invoke(main, ["to-gdl", str(game), "--no-validate"]).exit_code == 0
