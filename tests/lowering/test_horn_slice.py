"""The relaxation of compiled functions through a slice (tgpl/lowering/horn.py, `_numeric_slice`), and what it
tells the executor (`HornCompiler.possible`).

The slice forgets arguments and drops literals, so it may only ever find more rows
than the whole rules: checked here table by table. What a compiled filter can
return is found through it once for every pair of arguments; the executor then
leaves out the values no state can give (chess: no piece goes from a1 to b3).
That must never leave out a move a state allows: checked against the runtime's
legal moves along random games.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tgpl.lowering import horn
from tgpl.lowering.segments import Lowering
from tgpl.lowering.universe import Universe
from tgpl.runtime import load_game
from tgpl.runtime.snapshot import snapshot

ROOT = Path(__file__).resolve().parents[2]


def compiler(path: str):
    game = load_game(ROOT / path)
    u = Universe.from_snapshot(snapshot(game.initial_state(0)))
    hc = Lowering(game.program, u, relations=True).ex.horn
    assert hc is not None
    return game, u, hc


@pytest.mark.parametrize("path, owner, function, arity", [
    ("tests/data/lowering/reach.tgpl", "Reach", "Claimable", 2),
    ("tests/data/lowering/reach.tgpl", "Reach", "Strong", 2),
    ("examples/chess/chess.tgpl", "Chess", "Reaches", 2),
])
def test_the_slice_finds_every_row_the_whole_rules_find(path, owner, function, arity, monkeypatch):
    _, u, hc = compiler(path)
    this = u.globals[owner]
    hf = hc.compile(this.cls.functions[function], this)
    rng = random.Random(function)
    cells = [hc.const_of(o) for o in u.objects if {(o.name, "Piece"), (o.name, "Owner")} & hc.fluent_cells]
    second = [horn.Const("#p:0"), horn.Const("#p:1")] if owner == "Reach" else cells
    rows = {(rng.choice(cells), rng.choice(second)) for _ in range(40)}
    sliced = horn.instantiate(hc, {(hf.name, 0): rows}, hc.relaxed_reads)
    monkeypatch.setattr(horn, "_numeric_slice", lambda rules, whole=frozenset(): rules)
    full = horn.instantiate(hc, {(hf.name, 0): rows}, hc.relaxed_reads)
    assert sliced.rules == full.rules
    assert set(full.tables) == set(sliced.tables)
    for name, got in full.tables.items():
        assert set(got) <= set(sliced.tables[name]), name
    assert any(full.tables.values())


def test_a_filters_possible_values_never_leave_out_a_legal_move():
    """Along random games of chess, every move the runtime allows is one `possible` keeps: CanMove(from, to)
    may be true; and a pair no piece can go between is only ever false."""
    game, u, hc = compiler("examples/chess/chess.tgpl")
    chess = u.globals["Chess"]
    fi = chess.cls.functions["CanMove"]
    hf = hc.compile(fi, chess)
    possible = hc.possible(hf.name, fi)
    assert possible is not None
    by_name = {o.name: hc.const_of(o) for o in u.objects}
    yes, no = horn.Const("yes"), horn.Const("no")
    a1, a2, b3, c4 = (by_name[f"Board[{f}][{r}]"] for f, r in ((0, 7), (0, 6), (1, 5), (2, 4)))
    assert possible[(a1, c4)] == {no}  # no piece goes from a1 to c4
    assert possible[(a1, a2)] == {yes, no} and possible[(a1, b3)] == {yes, no}  # a rook's or queen's, a knight's
    assert sum(yes in v for v in possible.values()) < len(possible) // 2
    rng = random.Random("possible moves")
    for _ in range(3):
        state = game.initial_state(0)
        for _ in range(60):
            if state.is_terminal:
                break
            moves = state.legal_moves()
            for m in moves:
                inputs = dict(m.inputs)
                pair = (by_name[inputs["from"][1]], by_name[inputs["to"][1]])
                assert yes in possible[pair], m.text
            state = state.apply(rng.choice(moves))
