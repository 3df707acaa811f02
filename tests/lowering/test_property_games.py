"""Property test: every small generated game lowers to the runtime's game, or is refused.

tests/lowering/gamegen.py generates small two-player games whose bool, number,
object and player attributes are written by the moves and read back in every
position (filters, `require`, effects, phases, functions, `if`, loops, `&&`,
`||`, `!`, `==`, `null` tests, locals). For each game the checker accepts and
the lowering translates, the runtime's game and the GDL reasoner on the
emitted rules are explored completely, side by side (`bisimulate`): the same
legal moves by their text, the same next states (the runtime's state as GDL
fluents), terminal status and goals at every reachable state.

Deterministic by default. `TGPL_PROPERTY_SEED=n` draws other games (a failure
prints the seed and the game's source to reproduce it), `TGPL_PROPERTY_EXAMPLES=n`
sets how many, and `TGPL_PROPERTY_SHRINK=1` lets hypothesis shrink a failing game
to a smaller one (minutes: every candidate is lowered and explored).
bench/property_games.py runs many more games.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest
from hypothesis import HealthCheck, Phase, given, note, seed, settings

from differential import lowers_to_the_same_game, through_a_call
from gamegen import games
from test_bool_conditions import GAME
from tgpl.asp.validate import validate
from tgpl.frontend.loader import load_program
from tgpl.lowering.lower import lower
from tgpl.runtime.compiler import compile_program
from tgpl.runtime.game import Game
from tgpl.runtime.snapshot import snapshot

SEED = os.environ.get("TGPL_PROPERTY_SEED")
EXAMPLES = int(os.environ.get("TGPL_PROPERTY_EXAMPLES", "40"))
PHASES = [Phase.explicit, Phase.generate] + ([Phase.shrink] if os.environ.get("TGPL_PROPERTY_SHRINK") else [])


def test_generated_games_lower_to_the_runtimes_game():
    tally: Counter = Counter()

    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=SEED is None, phases=PHASES,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(games())
    def check(source: str) -> None:
        note(f"reproduce: TGPL_PROPERTY_SEED={SEED} (unset: the deterministic run); the game:\n{source}")
        outcome, states = lowers_to_the_same_game(source)
        tally[outcome] += 1
        tally["states"] += states

    if SEED is not None:
        check = seed(int(SEED))(check)
    check()
    print(f"generated games: {dict(tally)}")
    total = sum(n for k, n in tally.items() if k != "states")
    assert total >= EXAMPLES // 2
    assert tally["rejected"] <= total // 10, tally  # the generator writes valid games
    assert tally["lowered"] >= 0.8 * total, tally  # and most of them lower


@pytest.mark.xfail(strict=True, reason="known defect of the emitter, found by the generated games: "
                                       "see differential.through_a_call")
def test_calls_of_one_function_with_other_arguments_give_valid_gdl():
    """`!Open(x: A)` decides a write that `Open(x: B)` then reads: B's rules mention A's call negatively."""
    source = GAME.replace("return x.Free;", "if (x.Free) { return true; } return false;")
    source = source.replace("FILTER", "return c.Free;").replace("CHECK", "").replace(
        "EFFECT", "c.Free = false; "
                  "if (!Open(x: GameState.Board.Grid[0][0] as Cell)) { (GameState.Board.Grid[1][0] as Cell).Free = false; } "
                  "if (!Open(x: GameState.Board.Grid[1][0] as Cell)) { GameState.Bonus = 1; }")
    program = load_program("calls.tgpl", text=source)
    assert program.ok
    lowered = lower(program, snapshot(Game(program, compile_program(program)).initial_state(0)))
    errors = [d.message for d in validate(lowered.program) if d.is_error]
    assert all(through_a_call(m, {"open"}) for m in errors)  # the defect, and nothing else
    assert errors == []
