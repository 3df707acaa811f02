"""`tgpl verify` and `tgpl compare`: complete exploration, planted defects, bisimulation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tgpl.asp.reasoner import GdlGame
from tgpl.asp.verify import GdlMachine
from tgpl.cli import main
from tgpl.runtime import load_game
from tgpl.verify.runtime_machine import RuntimeMachine
from tgpl.verify.graph import Graph, compare, explore, find_cycle, forced, verify

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
TRIS = str(ROOT / "examples" / "tris.tgpl")
TICTACTOE = str(ROOT / "examples" / "gdl" / "tictactoe.kif")
NO_DIAGONAL = str(DATA / "tictactoe_no_antidiagonal.kif")


@pytest.fixture(scope="module")
def tris_graph() -> Graph:
    return explore(RuntimeMachine(load_game(TRIS)))


@pytest.fixture(scope="module")
def tictactoe_graph() -> Graph:
    return explore(GdlMachine(GdlGame.load(TICTACTOE)))


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def check_tictactoe(report: dict, roles: list[str]) -> None:
    assert report["complete"] and report["well_formed"]
    assert (report["states"], report["terminal"], report["transitions"]) == (5478, 958, 16167)
    assert report["stuck"] == 0 and report["terminates"] and report["goals_ok"]
    assert report["roles"] == roles
    assert all(report["weakly_winnable"][r]["winnable"] for r in roles)
    assert not any(report["forced_win"].values())
    assert report["guaranteed_goal"] == {r: 50 for r in roles}
    assert report["value"] == "draw"
    assert report["problems"] == []


def test_tris_verifies_complete(tris_graph):
    check_tictactoe(verify(tris_graph), ["player 0", "player 1"])


def test_tictactoe_gdl_verifies_complete(tictactoe_graph):
    check_tictactoe(verify(tictactoe_graph), ["xplayer", "oplayer"])


def test_tris_win_witnesses_replay(tris_graph):
    report = verify(tris_graph)
    for p, role in enumerate(report["roles"]):
        state = load_game(TRIS).initial_state(0)
        for line in report["weakly_winnable"][role]["witness"]:
            state = state.apply(line)
        assert state.is_terminal and state.goals[p] == 100


# ------------------------------------------------------------ planted defects
def replay(path: Path, witness: list[str]):
    game = load_game(str(path))
    state = game.initial_state(0)
    states = [state]
    for line in witness:
        state = state.apply(line)
        states.append(state)
    return states


def problems(path: Path) -> dict:
    report = verify(explore(RuntimeMachine(load_game(str(path)))))
    assert report["complete"] and not report["well_formed"]
    return {p["kind"]: p for p in report["problems"]}


def test_stuck_state_is_found_and_replayed():
    found = problems(DATA / "defect_stuck.tgpl")
    assert set(found) == {"stuck"}
    end = replay(DATA / "defect_stuck.tgpl", found["stuck"]["witness"])[-1]
    assert not end.is_terminal and end.legal_moves() == []


def test_unwinnable_seat_is_found_and_replayed():
    found = problems(DATA / "defect_unwinnable.tgpl")
    assert set(found) == {"unwinnable"} and found["unwinnable"]["role"] == "player 1"
    end = replay(DATA / "defect_unwinnable.tgpl", found["unwinnable"]["witness"])[-1]
    assert end.is_terminal and end.goals == [100, 0]


def test_endless_turn_order_is_found_and_replayed():
    found = problems(DATA / "defect_loop.tgpl")
    assert set(found) == {"cycle"}
    states = replay(DATA / "defect_loop.tgpl", found["cycle"]["witness"])
    keys = [s.key() for s in states]
    assert keys[-1] in keys[:-1]  # the witness comes back to a state it went through: a loop


def test_terminal_without_winner_is_found_and_replayed():
    found = problems(DATA / "defect_no_winner.tgpl")
    assert set(found) == {"goal"}
    end = replay(DATA / "defect_no_winner.tgpl", found["goal"]["witness"])[-1]
    assert end.is_terminal and not any(end.ranking)


@pytest.mark.parametrize("name, kind", [
    ("gdl_defect_stuck.kif", "stuck"), ("gdl_defect_unwinnable.kif", "unwinnable"),
    ("gdl_defect_loop.kif", "cycle"), ("gdl_defect_no_goal.kif", "goal"),
])
def test_gdl_defects_are_found_and_replayed(name, kind):
    game = GdlGame.load(DATA / name)
    report = verify(explore(GdlMachine(game)))
    found = {p["kind"]: p for p in report["problems"]}
    assert kind in found
    state = game.initial_state()
    seen = [state.key()]
    for line in found[kind]["witness"]:
        state = state.apply([m.strip() for m in line.split("|")])
        seen.append(state.key())
    if kind == "stuck":
        assert not state.is_terminal and state.legal_moves("a") == []
    elif kind == "cycle":
        assert seen[-1] in seen[:-1]
    elif kind == "unwinnable":
        assert state.is_terminal and state.goals == [100, 0]
    else:
        assert state.is_terminal and None in state.goals


# ------------------------------------------------------------ graph algorithms
def toy(edges: dict[int, list[int]], terminal: dict[int, tuple], movers: dict[int, int]) -> Graph:
    """A hand-made turn-based graph: node -> successors, terminal node -> goals, node -> mover."""
    g = Graph(["a", "b"])
    n = 1 + max([*edges, *terminal, *(w for ws in edges.values() for w in ws)])
    g.parent = [None] * n
    for v in range(n):
        g.terminal.append(v in terminal)
        g.goals.append(terminal.get(v, ()))
        g.goal_error.append(None)
        g.movers.append((movers.get(v, 0),))
        g.stuck.append(())
        joint = lambda w, v=v: tuple(f"m{w}" if r == movers.get(v, 0) else None for r in range(2))
        g.edges.append([(f"m{w}", joint(w), w) for w in edges.get(v, [])])
    for v in range(n):  # BFS tree
        for _, _, w in g.edges[v]:
            if g.parent[w] is None and w != 0:
                g.parent[w] = (v, f"m{w}")
    g.expanded = n
    return g


def test_forced_win_needs_every_reply_to_lose():
    # a picks 1 or 2; at 1, b picks between a win for a (3) and for b (4); at 2 b can only lose.
    g = toy({0: [1, 2], 1: [3, 4], 2: [3]}, {3: (100, 0), 4: (0, 100)}, {0: 0, 1: 1, 2: 1})
    assert forced(g, 0, lambda v: g.goals[v][0] == 100) == [True, False, True, True, False]
    assert not forced(g, 1, lambda v: g.goals[v][1] == 100)[0]
    assert verify(g)["value"] == "win for a"


def test_an_endless_play_is_not_a_forced_win():
    g = toy({0: [1, 2], 1: [0]}, {2: (100, 0)}, {0: 1, 1: 0})  # b can loop for ever instead of losing
    assert not forced(g, 0, lambda v: g.goals[v][0] == 100)[0]
    assert find_cycle(g) == ["m1", "m0"]


def test_simultaneous_forced_win_is_against_every_joint_reply():
    g = Graph(["a", "b"], parent=[None, (0, "x|x"), (0, "x|y")], expanded=3)
    g.terminal, g.goals, g.goal_error = [False, True, True], [(), (100, 0), (0, 100)], [None] * 3
    g.movers, g.stuck = [(0, 1), (), ()], [(), (), ()]
    g.edges = [[("x|x", ("x", "x"), 1), ("x|y", ("x", "y"), 2)], [], []]  # b's reply decides
    assert not forced(g, 0, lambda v: g.goals[v][0] == 100)[0]
    assert forced(g, 1, lambda v: g.goals[v][1] == 100)[0]


# ------------------------------------------------------------------ compare
def test_tris_is_the_gdl_baseline(tris_graph, tictactoe_graph):
    assert compare(tris_graph, tictactoe_graph) == {"states": [5478, 5478], "equivalent": True}


def test_a_missing_diagonal_is_told_apart(tris_graph):
    other = explore(GdlMachine(GdlGame.load(NO_DIAGONAL)))
    report = compare(tris_graph, other)
    assert not report["equivalent"]
    assert len(report["witness"]) == 5  # the earliest a line can be completed
    state = load_game(TRIS).initial_state(0)
    gdl = GdlGame.load(NO_DIAGONAL).initial_state()
    for step in report["witness"]:
        state = state.apply(step["a"])
        gdl = gdl.apply([m.strip() for m in step["b"].split("|")])
    assert state.is_terminal != gdl.is_terminal


# ---------------------------------------------------------------------- CLI
def test_cli_verify_tris(tmp_path):
    result = run("verify", TRIS)
    assert result.exit_code == 0, result.output
    assert "complete: 5478 states, 958 terminal, 16167 transitions" in result.output
    assert "value: draw" in result.output and "well formed" in result.output


def test_cli_verify_gdl_json():
    result = run("verify", TICTACTOE, "--json")
    assert result.exit_code == 0
    check_tictactoe(json.loads(result.output), ["xplayer", "oplayer"])


def test_cli_verify_defect_writes_a_witness_play_accepts(tmp_path):
    game = str(DATA / "defect_stuck.tgpl")
    result = run("verify", game, "--witness-dir", str(tmp_path))
    assert result.exit_code == 1
    assert "problem (stuck)" in result.output
    witness = tmp_path / "01-stuck.txt"
    assert witness.read_text().splitlines() == ["PlayerState#0.Step()", "PlayerState#1.Jump()"]
    played = run("play", game, "--players", "first,first", "--moves", str(witness))
    assert "stuck: player 0 has no legal move" in played.output


def test_cli_verify_incomplete():
    result = run("verify", TRIS, "--max-states", "100", "--json")
    report = json.loads(result.output)
    # at most 100 states stored: the run stops when the next one would pass the cap
    assert not report["complete"] and 0 < report["states"] < 100 and "--max-states" in report["stopped"]
    assert result.exit_code == 0 and report["well_formed"]
    text = run("verify", TRIS, "--max-states", "100")
    assert "stopped at the state cap (100 states stored, --max-states)" in text.output


def test_cli_compare():
    same = run("compare", str(DATA / "gdl_defect_unwinnable.kif"), str(DATA / "gdl_defect_unwinnable.kif"))
    assert same.exit_code == 0 and "equivalent" in same.output
    differ = run("compare", str(DATA / "defect_unwinnable.tgpl"), str(DATA / "gdl_defect_stuck.kif"))
    assert differ.exit_code == 1 and "different after" in differ.output


def test_cli_compare_needs_complete_graphs():
    result = run("compare", TRIS, TICTACTOE, "--max-states", "50")
    assert result.exit_code == 2 and "cannot compare" in result.output


def test_graph_module_imports_neither_runtime_nor_asp():
    def imports(path: Path) -> str:
        return "\n".join(line for line in path.read_text().splitlines() if line.startswith(("import ", "from ")))

    graph = imports(ROOT / "tgpl" / "verify" / "graph.py")
    assert "tgpl.runtime" not in graph and "tgpl.asp" not in graph
    assert "tgpl.runtime" not in imports(ROOT / "tgpl" / "asp" / "verify.py")


# ------------------------------------------------------------ releasing states
# A game whose moves ask for choices mid-move (pending states re-run from the world they
# started from) and that ends when a player reaches 3 points, so it is finite.
CHOICES = """
game "choices";
players 2;
interactable Token { number v = 0; }
global class Score { number a = 0; number b = 0; }
class Seat
{
    action Go
    {
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            input Token t { return t.v > 0; }
            player [player.active() + 1] input bool agree;
            if (agree) { if (player.active() == 0) { Score.a += t.v; } else { Score.b += t.v; } }
            if (Score.a >= 3) { winner 0; }
            if (Score.b >= 3) { winner 1; }
            turn.pass();
        }
    }
}
turn T { phase P { } default { return player.active() + 1; } }
setup
{
    for (number i = 0; i < 3; i += 1) { Token t = new Token(); t.v = i; }
    Seat s0 = new Seat(); s0.assign(0);
    Seat s1 = new Seat(); s1.assign(1);
    turn.use("T");
    turn.pass(0, "P");
}
"""


class _NoRelease:
    """The same machine without `release`: explore leaves every state to Python."""

    def __init__(self, machine: RuntimeMachine):
        self.inner = machine
        self.roles = machine.roles

    def initial(self):
        return self.inner.initial()

    def key(self, state):
        return self.inner.key(state)

    def info(self, state):
        return self.inner.info(state)


def test_releasing_states_keeps_the_graph_of_a_game_with_choices(tmp_path):
    path = tmp_path / "choices.tgpl"
    path.write_text(CHOICES, encoding="utf-8")
    game = load_game(path)
    released = explore(RuntimeMachine(game))
    kept = explore(_NoRelease(RuntimeMachine(game)))
    assert released.complete and released.states == kept.states > 10
    assert released.edges == kept.edges and released.parent == kept.parent
    assert released.terminal == kept.terminal and released.goals == kept.goals
    assert any(len(e) and e[0][0] in ("true", "false") for e in released.edges)  # choices were explored


def test_release_clears_a_world_only_once_no_pending_state_starts_from_it(tmp_path):
    path = tmp_path / "choices.tgpl"
    path.write_text(CHOICES, encoding="utf-8")
    machine = RuntimeMachine(load_game(path))
    start = machine.initial()
    (_, _, pending), = [m for m in machine.info(start).moves]  # Seat#0.Go(): asks for a token
    assert pending.request is not None and pending.base is start.world
    machine.release(start)
    assert start.world.objects  # the pending state re-runs from it: kept
    chosen = [nxt for _, _, nxt in machine.info(pending).moves]
    assert len(chosen) == 2 and all(c.base is start.world for c in chosen)
    machine.release(pending)
    assert start.world.objects  # still used by the states after the token was chosen
    assert not pending.world.objects  # its own partial world is gone
    replies = [nxt for _, _, nxt in machine.info(chosen[0]).moves]
    assert {s.request is None for s in replies} == {True}  # agreeing or not finishes the move
    for c in chosen:
        machine.release(c)
    assert not start.world.objects  # the last pending state using it is released
    assert replies[0].world.objects and replies[0].legal_moves()  # states not released are intact


def test_explore_pauses_the_garbage_collector_and_restores_it_even_on_errors():
    import gc

    class Failing(_NoRelease):
        def info(self, state):
            raise RuntimeError("boom")

    assert gc.isenabled()
    during = []
    explore(RuntimeMachine(load_game(TRIS)), progress=lambda done, seen: during.append(gc.isenabled()))
    assert during and not any(during) and gc.isenabled()
    with pytest.raises(RuntimeError, match="boom"):
        explore(Failing(RuntimeMachine(load_game(TRIS))))
    assert gc.isenabled()
    gc.disable()
    try:
        explore(RuntimeMachine(load_game(TRIS)), max_states=10)
        assert not gc.isenabled()  # a caller's choice is kept
    finally:
        gc.enable()


def test_exploring_tris_leaves_no_cyclic_garbage():
    import gc

    machine = RuntimeMachine(load_game(TRIS))  # loading leaves cycles of its own
    gc.collect()
    gc.disable()
    try:
        graph = explore(machine)
        assert graph.states == 5478
        assert gc.collect() < 1000  # released worlds went by reference counting (there are 16,167)
    finally:
        gc.enable()


def test_exploring_stores_compact_states():
    """Past the memory it may keep whole states in, explore stores a compact key per state seen
    and rebuilds frontier states from their moves: memory per stored state stays small even on a
    15 x 15 board, where one state takes about 100 KB."""
    import tracemalloc

    machine = RuntimeMachine(load_game(ROOT / "examples" / "fiveinarow.tgpl"))
    tracemalloc.start()
    try:
        g = explore(machine, max_states=300, keep_memory=0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert not g.complete and g.stored == 300 and "--max-states" in g.stopped
    assert len(machine.key(machine.initial())) == 16
    # Bytes per stored state at the peak, which holds one expansion's 224 successors (whole, as
    # the runtime makes them): kept whole, the 300 states alone would take over 100 KB each.
    assert peak / g.stored < 90_000, peak / g.stored
