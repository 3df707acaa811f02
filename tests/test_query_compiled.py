"""`tgpl query` on games whose moves are compiled (tgpl.lowering.compiled_query; issue 34).

Each answer is checked against the runtime: a breadth-first search of the runtime's states finds the fewest
moves after which the condition holds (the condition written twice: as the query's TGPL expression, and as a
test of the runtime's snapshot), and the query's witness, replayed on the runtime, must end in a state where it
holds, after exactly that many moves; a condition no state within the horizon meets must be answered "not
reachable".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tgpl.cli import QUERY_FUNCTION, _load_game, load_program, main
from tgpl.runtime.game import Game, compile_program
from tgpl.runtime.snapshot import snapshot

DATA = Path(__file__).resolve().parent / "data" / "lowering"
INFECT = str(DATA / "infect.tgpl")
FLANK = str(DATA / "flank.tgpl")


def disc(square: str, who: float | None):
    """The snapshot test `square`'s Disc is `who` (a player, or None)."""
    def holds(snap: dict) -> bool:
        return next(o for o in snap["objects"] if o["name"] == square)["fields"]["Disc"] == who
    return holds


def fewest_moves(path: str, holds, horizon: int) -> int | None:
    """The fewest moves after which `holds(snapshot)` on the runtime (breadth first), None within `horizon`."""
    game = _load_game(path)
    level = [game.initial_state(0)]
    seen = {level[0].key()}
    for depth in range(horizon + 1):
        if any(holds(snapshot(s)) for s in level):
            return depth
        nxt = []
        for s in level:
            if s.is_terminal:
                continue
            for m in s.legal_moves():
                after = s.apply(m)
                if after.key() not in seen:
                    seen.add(after.key())
                    nxt.append(after)
        level = nxt
    return None


def ask(path: str, expr: str, horizon: int, method: str = "clingo") -> dict:
    """The query's answer by `method`: "clingo" (the lowering's rules, --max-states 1 keeps the search from the
    runtime's states) or "states" (tgpl.verify.reach: these horizons are well within its default)."""
    cap = ["--max-states", "1"] if method == "clingo" else []
    result = CliRunner().invoke(main, ["query", path, expr, "--horizon", str(horizon), "--json", *cap])
    assert result.exit_code in (0, 1) and "Traceback" not in result.output, result.output
    answer = json.loads(result.output)
    assert answer["method"] == method
    return answer


CASES = [
    (INFECT, "GameState.Placed == 3", lambda snap: snap["objects"][0]["fields"]["Placed"] == 3.0, 5),
    (INFECT, "(GameState.Board.Spots[0][0] as Spot).Disc == 1 && (GameState.Board.Spots[2][1] as Spot).Disc == 1",
     lambda snap: disc("Spots[0][0]", 1.0)(snap) and disc("Spots[2][1]", 1.0)(snap), 4),
    (INFECT, "GameState.Board.Discs(who: 1) >= 4",
     lambda snap: sum(o["fields"].get("Disc") == 1.0 for o in snap["objects"]) >= 4, 6),
    (FLANK, "(GameState.Board.Grid[1][0] as Square).Disc == 0", disc("Grid[1][0]", 0.0), 3),
    (FLANK, "(GameState.Board.Grid[0][0] as Square).Disc == 0", disc("Grid[0][0]", 0.0), 3),  # a corner: never
]


@pytest.mark.parametrize("method", ["clingo", "states"])
@pytest.mark.parametrize("path, expr, holds, horizon", CASES)
def test_the_answer_is_the_runtimes_and_its_witness_replays(path, expr, holds, horizon, method):
    answer = ask(path, expr, horizon, method)
    expected = fewest_moves(path, holds, horizon)
    assert answer["found"] == (expected is not None), answer
    if expected is None:
        assert answer["searched"] == horizon or answer["complete"]
        return
    assert answer["moves"] == expected
    state = _load_game(path).initial_state(0)
    for text in answer["witness"]:
        state = state.apply(text)  # every move of the witness is legal on the runtime
    assert holds(snapshot(state))


def test_the_query_is_a_relation_of_the_compiled_rules():
    """The compiled moves are kept for the query (the spelled-out lowering is what took minutes): `tgpl_query`'s
    rules read the state (`true`) and the control, nothing of a move."""
    from tgpl.pipeline import lower_game

    text = Path(FLANK).read_text() + (f"\nfunction {QUERY_FUNCTION}\n{{\n    returns bool;\n    effect\n    {{\n"
                                      "        return (GameState.Board.Grid[1][0] as Square).Disc == 0;\n    }\n}\n")
    program = load_program(FLANK, text=text)
    assert program.ok
    lowered = lower_game(Game(program, compile_program(program)), 0, QUERY_FUNCTION, global_checks=False)
    assert lowered.stats["moves compiled"] == "yes"
    rules = [r for r in lowered.program.rules if r.head.relation == "tgpl_query"]
    assert rules
    for r in rules:
        relations = {a.relation for a, _ in r.body_atoms()}
        assert "true" in relations and "does" not in relations
