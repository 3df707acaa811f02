"""An operand evaluated once for paths that differ only in their conditions (`Executor._eval_shared`).

`Heavy(x: GameState.Last) + FreeCount()`: the first call leaves one path per
value it returns, alike but for their conditions, and the second call, which
reads the move's write through a view, is run once for all of them. The game
must stay the runtime's, state for state.
"""

from __future__ import annotations

from pathlib import Path

import tgpl.lowering.execute as execute
from differential import Lowered, bisimulate
from tgpl.verify.runtime_machine import RuntimeMachine
from tgpl.verify.graph import explore

GAME = Path(__file__).resolve().parents[1] / "data" / "lowering" / "shared_operands.tgpl"


def test_a_shared_operand_lowers_to_the_runtimes_game(monkeypatch):
    shared = []
    original = execute.Executor._eval_shared

    def spy(self, e, out):
        found = original(self, e, out)
        shared.append((len(out), found is not None))
        return found

    monkeypatch.setattr(execute.Executor, "_eval_shared", spy)
    lw = Lowered.of_text(GAME.read_text(encoding="utf-8"), str(GAME))
    assert any(n > 1 and done for n, done in shared)  # the case this test is about happened
    runtime = explore(RuntimeMachine(lw.game))
    assert runtime.complete and runtime.states > 20
    assert bisimulate(lw).states == runtime.states
