"""Property test: mutants of the lowerable examples lower faithfully, or are refused.

The examples are edited the way a designer edits a prototype (tests/conftest.py).
Every mutant the checker accepts is either refused by the lowering with a located
`NotLowerable`, or lowered to GDL that the validator accepts and that agrees with
the runtime, step by step, on random playouts (states, legal moves, terminal
status, goals). Mutants whose runtime stops with an error are skipped: the
lowering assumes the game never reaches a runtime error (docs/lowering.md).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from differential import Lowered, playout
from tgpl.asp.reasoner import GdlGame
from tgpl.asp.validate import validate
from tgpl.frontend.loader import load_program
from tgpl.lowering.lower import NotLowerable, lower
from tgpl.runtime.errors import TGPLRuntimeError
from tgpl.runtime.game import Game, compile_program
from tgpl.runtime.rng import Pcg32
from tgpl.runtime.snapshot import snapshot

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize("example, mutants", [("tris", 40), ("hex", 12), ("connect4", 8)])
def test_accepted_mutants_lower_faithfully_or_are_refused(example, mutants, mutate):
    path = EXAMPLES / f"{example}.tgpl"
    source = path.read_text(encoding="utf-8")
    rng = Pcg32(7)
    lowered_count = 0
    for n in range(mutants):
        program = load_program(path, text=mutate(source, rng))
        if not program.ok:
            continue
        game = Game(program, compile_program(program))
        try:
            start = game.initial_state(0)
            if start.is_terminal:
                continue
            result = lower(program, snapshot(start))
        except NotLowerable as e:
            assert e.reason  # refused, with its reason (and location where the code has one)
            continue
        except TGPLRuntimeError:
            continue  # setup itself fails: no game to lower
        assert [d for d in validate(result.program) if d.is_error] == []
        lw = Lowered(game, result, GdlGame(result.program))
        plays = random.Random(n)
        try:
            for _ in range(5):
                playout(lw, plays, max_steps=60)
        except TGPLRuntimeError:
            continue  # the mutant's runtime stops with an error
        except AssertionError as e:
            if "no end after" in str(e):
                continue  # a mutant that never ends is a game too, but not one to play out here
            raise AssertionError(f"mutant {n} of {example} disagrees with the runtime: {e}") from e
        lowered_count += 1
    assert lowered_count >= 2  # enough mutants must survive to make the test mean something
