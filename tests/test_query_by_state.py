"""`tgpl query` searched state by state on the runtime (tgpl.verify.reach) where the plays within the horizon are
few, and by clingo over the lowered game otherwise: both must give the same answer, the same number of moves, a
witness that replays to a state where the expression holds, and the same word on whether the search was
complete."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tgpl.cli import main
from tgpl.runtime.game import load_game
from tgpl.verify.runtime_machine import RuntimeMachine
from tgpl.verify.reach import estimate_plays, search

ROOT = Path(__file__).resolve().parents[1]
TRIS = str(ROOT / "examples" / "tris.tgpl")
CONNECT4 = str(ROOT / "examples" / "connect4.tgpl")
REVERSI = str(ROOT / "examples" / "reversi.tgpl")
SHUTTLE = str(ROOT / "tests" / "data" / "query" / "shuttle.tgpl")
CITADELS = str(ROOT / "examples" / "citadels" / "citadels.tgpl")


def ask(*args: str) -> tuple[int, dict]:
    r = CliRunner().invoke(main, ["query", *args, "--json"])
    assert r.exit_code in (0, 1), r.output
    return r.exit_code, json.loads(r.stdout)


SAME = [
    (TRIS, "GameState.TickedCount == 3", 3),
    (TRIS, "GameState.TickedCount == 3", 2),
    (TRIS, "(GameState.Board.TrisGrid[1][1] as TickTile).AssignedTo != null && GameState.TickedCount == 2", 3),
    (SHUTTLE, "Track.Pos == 3", 6),
    (SHUTTLE, "Track.Pos == 5", 6),
    (CONNECT4, "(GameState.Board.Grid[3][5] as Cell).Disc == 0 && (GameState.Board.Grid[3][4] as Cell).Disc == 1", 3),
]


@pytest.mark.parametrize("game, expr, horizon", SAME)
def test_the_runtimes_states_and_clingo_give_the_same_answer(game, expr, horizon):
    by_state = ask(game, expr, "--horizon", str(horizon))
    by_clingo = ask(game, expr, "--horizon", str(horizon), "--max-states", "1")
    assert by_state[1]["method"] == "states" and by_clingo[1]["method"] == "clingo"
    assert by_state[0] == by_clingo[0]
    same = ("found", "moves", "complete", "searched")
    assert {k: by_state[1][k] for k in same} == {k: by_clingo[1][k] for k in same}
    if by_state[1]["found"]:
        state = load_game(game).initial_state(0)
        for text in by_state[1]["witness"]:
            state = state.apply(text)
        assert not state.error


def test_a_game_that_every_play_ends_is_complete_by_state_too():
    # Tris's 5,478 states, searched whole: every play ends within 9 moves, and no state has ten marks
    code, answer = ask(TRIS, "GameState.TickedCount == 10", "--horizon", "20", "--max-states", "1000000")
    assert code == 1 and answer["method"] == "states"
    assert answer["complete"] and answer["searched"] == 9 and not answer["found"]


def test_a_play_that_never_ends_is_not_complete_but_every_state_was_seen():
    """Shuttle's plays go back and forth for ever: not complete, but its 4 states were all examined, so the
    expression holds in none of them at any horizon."""
    r = CliRunner().invoke(main, ["query", SHUTTLE, "Track.Pos == 5", "--horizon", "6"])
    assert r.exit_code == 1
    assert "unreachable: no state of the game satisfies Track.Pos == 5 (its 4 reachable states were all examined)" \
        in r.stdout
    machine = RuntimeMachine(load_game(SHUTTLE))
    reach = search(machine, lambda s: False, 6, 100)
    assert (reach.complete, reach.exhausted, reach.states, reach.searched) == (False, True, 4, 6)


def test_reversi_at_five_moves_is_searched_state_by_state():
    """The horizon the lowering took minutes over: 1,595 states, the runtime's own. A corner cannot be taken in
    five moves; the square next to the first discs can, in two."""
    code, corner = ask(REVERSI, "(GameState.Board.Grid[0][0] as Square).Disc != null", "--horizon", "5")
    assert code == 1 and corner["method"] == "states" and corner["searched"] == 5 and not corner["complete"]
    code, near = ask(REVERSI, "(GameState.Board.Grid[2][2] as Square).Disc != null", "--horizon", "5")
    assert code == 0 and near["moves"] == 2
    state = load_game(REVERSI).initial_state(0)
    for text in near["witness"]:
        state = state.apply(text)
    assert any(o["name"] == "Grid[2][2]" and o["fields"]["Disc"] is not None for o in state.to_json()["objects"])


def test_knuths_estimate_is_exact_where_every_level_is_as_wide():
    # Tris: 9 moves, then 8 from each state: 1 + 9 + 72 plays of up to 2 moves, whichever moves the probes take
    start = load_game(TRIS).initial_state(0)
    assert estimate_plays(start, 0, 2, cap=10**6) == 82
    assert estimate_plays(start, 0, 9, cap=100) > 100  # past the cap after a few moves of the first probe


def test_the_state_cap_stops_the_search_and_says_so():
    machine = RuntimeMachine(load_game(TRIS))
    reach = search(machine, lambda s: False, 3, 50)
    assert reach.stopped is not None and "state cap (50 states stored" in reach.stopped
    assert reach.searched == 1 and not reach.complete  # the 9 states of level 1 examined, if not all expanded


def test_a_game_that_does_not_lower_is_still_refused():
    """query answers for the games the lowering takes: citadels removes from a local list."""
    r = CliRunner().invoke(main, ["query", CITADELS, "true", "--horizon", "1"])
    assert r.exit_code == 2 and "not lowerable" in r.stderr
