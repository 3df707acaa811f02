"""Objects made after setup (`new` of a class other than an event): a pool of constants, bounded by the ranges.

tests/data/lowering/spawn.tgpl promotes a pawn that reaches the far end of a strip
into a `new Queen()`, while fewer than two were made (a counter the game keeps). Setup
makes one Queen, so the runtime names the Queens made after setup Queen#1 and Queen#2,
in the order they are made, whichever player promotes first: the pool's constants are
those names, `new` takes the lowest one not made yet, and the pool's counter `made`
says how many exist. The lowered game must be the runtime's, state for state (no two
runtime states one GDL state), and a lowering of `new` that is wrong in any of the ways
planted below must fail the validation every to-gdl runs. A `new` that no counter the
game limits bounds is refused at its location.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import tgpl.lowering.execute as execute
import tgpl.lowering.lower as lower
import tgpl.lowering.segments as segments
from differential import Lowered, bisimulate
from tgpl.asp.verify import GdlMachine
from tgpl.cli import main
from tgpl.lowering.symbolic import FALSE, conj, sym_arith, sym_compare, truth
from tgpl.lowering.universe import MADE
from tgpl.runtime.snapshot import snapshot
from tgpl.verify.runtime_machine import RuntimeMachine
from tgpl.validation import validate_translation
from tgpl.verify.graph import explore

DATA = Path(__file__).resolve().parents[1] / "data" / "lowering"
GAME = DATA / "spawn.tgpl"
COUNTER = (DATA / "counter.tgpl").read_text(encoding="utf-8")


def _lowered(relations: bool = False) -> Lowered:
    return Lowered.of_text(GAME.read_text(encoding="utf-8"), str(GAME), relations=relations)


class _Encoded(RuntimeMachine):
    """The runtime's states, noting each one's encoding as GDL fluents and the Queens it holds (name, owner)."""

    def __init__(self, lw: Lowered):
        super().__init__(lw.game)
        self.lw = lw
        self.encoded: set = set()
        self.queens: set = set()
        self.snapshots: set = set()  # the states as snapshots, their objects in name order

    def key(self, state):
        snap = snapshot(state)
        self.encoded.add(self.lw.lowered.state_fluents(snap))
        self.queens.add(tuple(sorted((o["name"], o["owners"]) for o in snap["objects"] if o["class"].name == "Queen")))
        self.snapshots.add(repr(sorted((o["name"], o["owners"], sorted(((k, v) for k, v in o["fields"].items()
                                                                        if k != "Box"), key=repr))  # a pile: not state
                                       for o in snap["objects"])) + repr((snap["control"], snap["result"])))
        return super().key(state)


@pytest.mark.parametrize("relations", [False, True], ids=["calls", "functions-as-relations"])
def test_queens_made_after_setup_lower_to_the_runtimes_game(relations):
    lw = _lowered(relations)
    logic = lw.lowered.emitter.logic
    (pool,) = logic.universe.pools
    # the pool holds what the game's counter allows (two), named as the runtime names them after setup's Queen#0
    assert [o.name for o in pool.objects] == ["Queen#1", "Queen#2"]
    for o in pool.objects:
        assert {(o.name, a) for a in ("tile", "discarded", "Moved", "Crowned", execute.OWNER)} <= set(logic.fluents)
    assert logic.fluents[(pool.counter.name, MADE)].domain == [0.0, 1.0, 2.0]
    runtime = explore(RuntimeMachine(lw.game))
    assert runtime.complete and runtime.states > 50
    assert bisimulate(lw).states == runtime.states


def test_each_runtime_state_is_one_gdl_state_whatever_order_the_queens_were_made_in():
    """Queen#1 is player 0's in some plays and player 1's in others (whoever promotes first): those are other
    runtime states, and other GDL states; no two runtime states are encoded alike, and the GDL has no more."""
    lw = _lowered()
    machine = _Encoded(lw)
    runtime = explore(machine)
    gdl = explore(GdlMachine(lw.gdl))
    assert runtime.complete and gdl.complete
    assert gdl.states == len(machine.encoded) == runtime.states
    made = {q for qs in machine.queens for q in qs if q[0] != "Queen#0"}
    assert {("Queen#1", (0,)), ("Queen#1", (1,)), ("Queen#2", (0,)), ("Queen#2", (1,))} <= made


def test_the_rules_name_the_pool_and_check_as_gdl(tmp_path):
    out = tmp_path / "spawn.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(GAME), "-o", str(out)])
    assert r.exit_code == 0, r.output
    text = out.read_text()
    assert "; validated: bisimulation, 67 states" in text
    assert "(init (made queen_pool 0))" in text and "(base (made queen_pool 2))" in text
    assert "(base (made queen_pool 3))" not in text
    assert "(init (tile queen_1 null))" in text and "(init (crowned queen_2 null))" in text
    assert "(next (crowned " in text
    checked = CliRunner().invoke(main, ["check-gdl", str(out)])
    assert checked.exit_code == 0, checked.output


LISTED = [  # the pieces kept in a list that is state, the Queens made added to it, PieceAt searching it
    ("    Queen Q1 = null;\n", "    Queen Q1 = null;\n    List<Piece> All = {};\n"),
    ("            return p;\n", "            All.add(p);\n            return p;\n"),
    ("            if (P0.tile == s) { return P0; }\n            if (P1.tile == s) { return P1; }\n"
     "            if (Q0 != null && Q0.tile == s) { return Q0; }\n"
     "            if (Q1 != null && Q1.tile == s) { return Q1; }\n",
     "            for (number i = 0; i < All.length; i += 1) { if (All[i].tile == s) { return All[i]; } }\n"),
    ("                    Arena.Promoted += 1;\n", "                    Arena.Promoted += 1;\n                    Arena.All.add(q);\n"),
]


def test_a_list_that_is_state_holds_the_objects_made(tmp_path):
    """A list of pieces that is state has a slot per object of its element class, the pool's objects too."""
    text = GAME.read_text(encoding="utf-8")
    for old, new in LISTED:
        assert old in text
        text = text.replace(old, new, 1)
    lw = Lowered.of_text(text, str(tmp_path / "listed.tgpl"))
    fluents = lw.lowered.emitter.logic.fluents
    assert ("Arena", "All[4]") in fluents and ("Arena", "All[5]") not in fluents  # Pawn#0, #1, Queen#0, #1, #2
    assert bisimulate(lw).states == 67


# ---------------------------------------------------------------- planted wrong lowerings
def _made_with(counted: bool = True, order=lambda objects: objects):
    """Executor.made with a planted defect: the counter not stepped (a made object not marked as existing,
    the next `new` takes it again), or the pool's objects taken in another order."""
    def made(self, e, p, pool):
        count = self.read(p, pool.counter, MADE, e.span)
        out = []
        for k, obj in enumerate([*order(pool.objects), None]):
            ways = truth(sym_compare("==" if obj is not None else ">=", count, float(k)))
            if ways is None or conj(p.pc, ways[0]) is FALSE:
                continue
            after = sym_arith("+", count, 1.0) if counted or obj is None else count
            for q in self.write(p.fork(conj(p.pc, ways[0])), pool.counter, MADE, after, e.span):
                if obj is None:
                    q.status = "over"
                    self.overflows.append(q)
                    continue
                out.extend((r, obj) for r in self.initialized(q, obj, e.span))
        return out
    return made


def _uninitialized(self, p, obj, span):
    """Only the built-ins written: the attributes keep their null from before the object was made."""
    paths = [p]
    for name, value in (("tile", None), ("discarded", False)):
        paths = [r for q in paths for r in self.write(q, obj, name, value, span)]
    return paths


@pytest.mark.parametrize("defect", [
    pytest.param(lambda mp: mp.setattr(execute.Executor, "made", _made_with(counted=False)), id="not-marked-made"),
    pytest.param(lambda mp: mp.setattr(execute.Executor, "made", _made_with(order=lambda objs: objs[::-1])),
                 id="wrong-pool-constant"),
    pytest.param(lambda mp: mp.setattr(execute.Executor, "initialized", _uninitialized), id="attributes-not-set"),
])
def test_a_wrong_lowering_of_new_fails_validation(monkeypatch, defect):
    defect(monkeypatch)
    lw = _lowered()
    result = validate_translation(lw.game, lw.lowered, lw.seed)
    assert result.mismatch is not None
    assert any("queen" in f for side in result.mismatch.difference.fluents for f in side)


def test_a_wrong_lowering_of_new_is_not_written(monkeypatch, tmp_path):
    monkeypatch.setattr(execute.Executor, "initialized", _uninitialized)
    out = tmp_path / "spawn.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(GAME), "-o", str(out)])
    assert r.exit_code == 2
    assert "attribute 'Crowned' of Queen#1 differs: true in the runtime" in r.output
    assert not out.exists()


# ---------------------------------------------------------------- bounds
SPAWN = """    action Spawn
    {
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            Seat extra = new Seat();
            turn.pass();
        }
    }

    action Add"""


def _counter(tmp_path: Path, old: str, new: str) -> Path:
    assert old in COUNTER
    path = tmp_path / "game.tgpl"
    path.write_text(COUNTER.replace(old, new, 1))
    return path


def test_a_new_the_game_bounds_lowers_with_a_pool_as_large_as_its_counter_allows(tmp_path):
    """A Seat made in every move of a game that ends at the fifth: five Seats, found by the ranges."""
    path = _counter(tmp_path, "            G.N += 1;\n", "            Seat extra = new Seat();\n            G.N += 1;\n")
    r = CliRunner().invoke(main, ["to-gdl", str(path)])
    assert r.exit_code == 0, r.output
    assert "(base (made seat_pool 5))" in r.output and "(base (made seat_pool 6))" not in r.output


def test_a_new_no_counter_bounds_is_refused_at_its_location(tmp_path, monkeypatch):
    """Spawn makes a Seat and ends nothing: no counter bounds how many are made."""
    path = _counter(tmp_path, "    action Add", SPAWN)
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "game.kif"
    r = CliRunner().invoke(main, ["to-gdl", "game.tgpl", "-o", str(out)])
    assert r.exit_code == 2
    assert r.output.splitlines()[0] == (
        f"game.tgpl:38:26: error: not lowerable: the Seat objects made after setup cannot be bounded: more than "
        f"{segments.POOL_LIMIT} may be made, by the ranges of the game's numbers (a counter the game limits must "
        "bound how many `new` makes)")
    assert "^" in r.output
    assert list(tmp_path.iterdir()) == [path]  # nothing half-written


@pytest.mark.parametrize("old, new, expected", [
    pytest.param("class Seat\n{\n", "class Seat\n{\n    List<number> Xs = {};\n",
                 "its attribute 'Xs' holds a collection", id="collection-attribute"),
    pytest.param("class Seat\n{\n", "class Seat\n{\n    action Heard\n    {\n        trigger Ping { return true; }\n"
                                    "        effect { }\n    }\n", "its action 'Heard' listens to an event",
                 id="listener"),
])
def test_classes_a_pool_cannot_stand_for_are_refused_at_the_new(tmp_path, old, new, expected):
    text = COUNTER.replace("            G.N += 1;\n", "            Seat extra = new Seat();\n            G.N += 1;\n", 1)
    text = text.replace(old, new, 1) + "\nevent Ping { }\n"
    path = tmp_path / "game.tgpl"
    path.write_text(text)
    r = CliRunner().invoke(main, ["to-gdl", str(path)])
    assert r.exit_code == 2, r.output
    assert f"error: not lowerable: a Seat made after setup is not lowerable: {expected}" in r.output.splitlines()[0]


def test_compiled_moves_refuse_new_and_auto_spells_the_moves_out(monkeypatch):
    r = CliRunner().invoke(main, ["to-gdl", str(GAME), "--moves", "compiled", "--no-validate"])
    assert r.exit_code == 2
    assert "the moves cannot be compiled" in r.output
    monkeypatch.setattr(lower, "SPELLED_MOVES", 0)  # auto tries to compile every action, and falls back
    r = CliRunner().invoke(main, ["to-gdl", str(GAME), "--moves", "auto", "--stats"])
    assert r.exit_code == 0, r.output
    assert "validated: bisimulation, 67 states" in r.output


TWO_POOLS = [  # player 0 promotes into a Queen, player 1 into a Rook, a subclass of Queen: two pools
    ("                    Queen q = new Queen();\n                    q.assign(player);\n"
     "                    q.move_to(to);\n"
     "                    if (player == 0) { Arena.Q0 = q; } else { Arena.Q1 = q; }\n",
     "                    if (player == 0)\n                    {\n                        Queen q = new Queen();\n"
     "                        q.assign(player);\n                        q.move_to(to);\n"
     "                        Arena.Q0 = q;\n                    }\n                    else\n                    {\n"
     "                        Rook r = new Rook();\n                        r.assign(player);\n"
     "                        r.move_to(to);\n                        Arena.Q1 = r;\n                    }\n"),
    ("turn Play\n", "interactable Rook : Queen\n{\n    bool Castled = false;\n}\n\nturn Play\n"),
]


def test_two_pools_one_class_deriving_from_the_other(tmp_path):
    """A pool per exact class, as the runtime counts names per class (Queen#1, Rook#0): the Rooks are not taken
    from the Queens' pool although a Rook is a Queen, the Rook's own attribute is a fluent of its pool's objects
    only, and the game is the runtime's whichever class's object was made first. The runtime keeps its objects
    in the order it made them, so a Queen made before a Rook and one made after (the pawns put in the pile in
    the other order too) are two runtime states that no rule can tell apart (listeners, which hear objects in
    that order, are refused on pool classes; the pile is read by nothing): one GDL state, and nothing else is
    merged."""
    text = GAME.read_text(encoding="utf-8")
    for old, new in TWO_POOLS:
        assert old in text
        text = text.replace(old, new, 1)
    lw = Lowered.of_text(text, str(tmp_path / "two_pools.tgpl"))
    logic = lw.lowered.emitter.logic
    pools = {pool.cls.name: [o.name for o in pool.objects] for pool in logic.universe.pools}
    assert pools["Queen"][0] == "Queen#1" and pools["Rook"][0] == "Rook#0"
    assert ("Rook#0", "Castled") in logic.fluents and ("Queen#1", "Castled") not in logic.fluents
    machine = _Encoded(lw)
    runtime = explore(machine)
    gdl = explore(GdlMachine(lw.gdl))
    assert runtime.complete and gdl.complete
    assert gdl.states == len(machine.encoded) < runtime.states
    assert len(machine.snapshots) == len(machine.encoded)  # merged: equal but for their objects' and pile's order
    assert bisimulate(lw).states == runtime.states
