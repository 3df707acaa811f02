"""The clingo GDL reasoner: the tic-tac-toe figures, playouts, moves, errors, grounding once."""

from __future__ import annotations

import random
from pathlib import Path

import clingo
import pytest

from tgpl.asp.kif import read_kif
from tgpl.asp.reasoner import GdlError, GdlGame, GdlLoadError, IllegalMove, explore
from tgpl.lowering.ir import Const, Func

ROOT = Path(__file__).resolve().parents[2]
TICTACTOE = ROOT / "examples" / "gdl" / "tictactoe.kif"
LINES = [[(m, 1), (m, 2), (m, 3)] for m in (1, 2, 3)] + [[(1, n), (2, n), (3, n)] for n in (1, 2, 3)] + [
    [(1, 1), (2, 2), (3, 3)], [(1, 3), (2, 2), (3, 1)]]


@pytest.fixture(scope="module")
def ttt() -> GdlGame:
    return GdlGame.load(TICTACTOE)


def mark(m: int, n: int) -> Func:
    return Func("mark", (Const(str(m)), Const(str(n))))


NOOP = Const("noop")


def test_explore_finds_every_tictactoe_position(ttt):
    result = explore(ttt)
    assert (result["states"], result["terminal"], result["complete"]) == (5478, 958, True)
    assert result["outcomes"] == {(100, 0): 626, (0, 100): 316, (50, 50): 16}


def test_explore_stops_at_the_limit(ttt):
    result = explore(ttt, limit=100)
    assert result["states"] == 100 and not result["complete"]


def test_initial_state(ttt):
    state = ttt.initial_state()
    assert ttt.roles == (Const("xplayer"), Const("oplayer"))
    assert state.legal_moves("xplayer") == [mark(m, n) for m in (1, 2, 3) for n in (1, 2, 3)]
    assert state.legal_moves(Const("oplayer")) == [NOOP]
    assert state.legal_moves() == [(mark(m, n), NOOP) for m in (1, 2, 3) for n in (1, 2, 3)]
    assert not state.is_terminal and state.goals == [None, None]
    assert Func("control", (Const("xplayer"),)) in state.fluents and len(state.fluents) == 10


def board_goals(state) -> list[int]:
    """What plain Python says the goals of a finished board are."""
    cells = {}
    for f in state.fluents:
        if f.name == "cell":
            m, n, v = (a.name for a in f.args)
            cells[int(m), int(n)] = v
    for who, goals in (("x", [100, 0]), ("o", [0, 100])):
        if any(all(cells[c] == who for c in line) for line in LINES):
            return goals
    assert "b" not in cells.values()
    return [50, 50]


def test_random_playouts_end_with_goals_summing_to_100(ttt):
    rng = random.Random(1)
    outcomes = set()
    for _ in range(200):
        state = ttt.initial_state()
        plies = 0
        while not state.is_terminal:
            state = state.apply(rng.choice(state.legal_moves()))
            plies += 1
        assert 5 <= plies <= 9
        assert sum(state.goals) == 100 and state.goals == board_goals(state)
        outcomes.add(tuple(state.goals))
    assert outcomes == {(100, 0), (0, 100), (50, 50)}


def test_transpositions_have_equal_keys(ttt):
    s = ttt.initial_state()
    a = s.apply((mark(1, 1), NOOP)).apply((NOOP, mark(2, 2))).apply((mark(3, 3), NOOP))
    b = s.apply((mark(3, 3), NOOP)).apply((NOOP, mark(2, 2))).apply((mark(1, 1), NOOP))
    assert a.key() == b.key() and a == b and hash(a) == hash(b)
    assert a.key() != s.key()


def test_moves_as_text_and_by_role(ttt):
    s = ttt.initial_state().apply(["(mark 2 2)", "noop"]).apply({"oplayer": "(MARK 1 1)", "xplayer": "noop"})
    assert Func("cell", (Const("1"), Const("1"), Const("o"))) in s.fluents
    assert str(s).splitlines()[0] == "(true (cell 1 1 o))"


def test_illegal_moves(ttt):
    s = ttt.initial_state()
    with pytest.raises(IllegalMove, match=r"'\(mark 2 2\)' is not a legal move for oplayer"):
        s.apply((mark(1, 1), mark(2, 2)))
    with pytest.raises(IllegalMove, match="a move for each of the 2 roles"):
        s.apply((mark(1, 1),))
    with pytest.raises(IllegalMove, match="a move for each of the 2 roles"):
        s.apply(mark(1, 1))
    won = s
    for m in [(mark(1, 1), NOOP), (NOOP, mark(2, 1)), (mark(1, 2), NOOP), (NOOP, mark(2, 2)), (mark(1, 3), NOOP)]:
        won = won.apply(m)
    assert won.is_terminal and won.goals == [100, 0] and won.goal("oplayer") == 0
    with pytest.raises(IllegalMove, match="the game is over"):
        won.apply((NOOP, NOOP))


def test_queries_never_ground_again(ttt, monkeypatch):
    def no_grounding(*args, **kwargs):
        raise AssertionError("grounded during a query")

    monkeypatch.setattr(clingo.Control, "ground", no_grounding)
    state = ttt.initial_state()
    rng = random.Random(3)
    while not state.is_terminal:
        state = state.apply(rng.choice(state.legal_moves()))


def test_games_without_base_and_input_are_played_too():
    text = TICTACTOE.read_text(encoding="utf-8")
    kept = [line for line in text.splitlines() if not line.startswith(("(<= (base", "(<= (input"))]
    game = GdlGame.from_text("\n".join(kept), "nobase.kif")
    assert [d.message.split(";")[0] for d in game.warnings] == [
        "the game defines no 'base'", "the game defines no 'input'"]
    result = explore(game)
    assert (result["states"], result["terminal"]) == (5478, 958)


PENNIES = """\
(role a) (role b)
(side heads) (side tails)
(base fresh)
(<= (base (chose ?r ?s)) (role ?r) (side ?s))
(<= (input ?r ?s) (role ?r) (side ?s))
(init fresh)
(<= (legal ?r ?s) (role ?r) (side ?s) (true fresh))
(<= (next (chose ?r ?s)) (does ?r ?s))
(<= terminal (not (true fresh)))
(<= same (true (chose a ?s)) (true (chose b ?s)))
(<= (goal a 100) same)
(<= (goal a 0) (not same))
(<= (goal b 0) same)
(<= (goal b 100) (not same))
"""


def test_simultaneous_moves():
    game = GdlGame.from_text(PENNIES)
    state = game.initial_state()
    assert len(state.legal_moves()) == 4
    assert state.legal_moves("b") == [Const("heads"), Const("tails")]
    assert state.apply((Const("heads"), Const("heads"))).goals == [100, 0]
    assert state.apply((Const("heads"), Const("tails"))).goals == [0, 100]
    assert explore(game) == {"states": 5, "terminal": 4, "complete": True, "transitions": 4,
                             "outcomes": {(100, 0): 2, (0, 100): 2}}


ODD_NAMES = """\
(role x-y)
(base (gdl_fluent 1st)) (base (gdl_fluent 007))
(input x-y (go-to 007))
(init (gdl_fluent 1st))
(<= (legal x-y (go-to 007)) (true (gdl_fluent 1st)))
(<= (next (gdl_fluent 007)) (does x-y (go-to 007)))
(<= terminal (true (gdl_fluent 007)))
(<= (goal x-y 100) (true (gdl_fluent 007)))
(<= (goal x-y 0) (true (gdl_fluent 1st)))
"""


def test_names_that_are_not_clingo_names_survive():
    game = GdlGame.from_text(ODD_NAMES)
    state = game.initial_state()
    assert game.roles == (Const("x-y"),)
    assert state.legal_moves("x-y") == [Func("go-to", (Const("007"),))]
    assert state.goals == [0]
    end = state.apply(["(go-to 007)"])
    assert end.fluents == {Func("gdl_fluent", (Const("007"),))}
    assert end.is_terminal and end.goals == [100]


def test_a_fluent_missing_from_base_is_reported():
    text = ODD_NAMES.replace("(base (gdl_fluent 007))", "")
    with pytest.raises(GdlLoadError) as e:  # the validator sees it in the rules
        GdlGame.from_text(text, "odd.kif")
    assert [d.header() for d in e.value.diagnostics] == [
        "odd.kif:6:5: error: fluent '(gdl_fluent 007)' is not in base, but this rule can make it true"]
    game = GdlGame(read_kif(text))  # not validated: the reasoner still notices it in play
    with pytest.raises(GdlError, match=r"fluents not in base: \(gdl_fluent 007\)"):
        game.initial_state().apply(["(go-to 007)"])


def test_invalid_games_are_refused_with_their_diagnostics(tmp_path):
    with pytest.raises(GdlLoadError) as e:
        GdlGame.from_text(PENNIES.replace("(goal a 100)", "(goal a 150)"), "p.kif")
    assert [d.header() for d in e.value.diagnostics] == ["p.kif:11:13: error: goal value 150 is not in 0..100"]
    assert "(<= (goal a 150) same)" in e.value.render()
    with pytest.raises(GdlLoadError, match="'\\(' is never closed"):
        GdlGame.from_text("(role a")
    missing = tmp_path / "missing.kif"
    with pytest.raises(GdlLoadError, match="cannot read .*missing.kif': no such file or directory"):
        GdlGame.load(missing)


def test_integers_beyond_clingo_numbers_are_plain_names():
    big = "99999999999999999999"
    game = GdlGame.from_text(ODD_NAMES.replace("007", big))
    end = game.initial_state().apply([f"(go-to {big})"])
    assert end.fluents == {Func("gdl_fluent", (Const(big),))} and end.goals == [100]
