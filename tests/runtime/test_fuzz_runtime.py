"""Property test: games the checker accepts never crash the runtime.

The bundled examples are mutated the way a designer edits a prototype
(numbers, arithmetic and comparison operators, `&&`/`||`, true/false/null);
every mutant that `tgpl check` accepts is played by random agents, and the
only ways a game may stop early are the game's own errors: a runtime error,
a stuck state or an illegal move, never a Python exception.
"""

from __future__ import annotations

from pathlib import Path

from tgpl.frontend.loader import load_program
from tgpl.play.agents import RandomAgent
from tgpl.runtime.errors import TGPLRuntimeError
from tgpl.runtime.game import Game, IllegalMove, compile_program
from tgpl.play.play import StuckError, play
from tgpl.runtime.rng import Pcg32

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SOURCES = {p: p.read_text(encoding="utf-8") for p in sorted(EXAMPLES.glob("*.tgpl"))}
def test_accepted_mutants_only_stop_with_game_errors(mutate):
    rng = Pcg32(2024)
    played = 0
    paths = list(SOURCES)
    for n in range(36):
        path = paths[rng.below(len(paths))]
        program = load_program(path, text=mutate(SOURCES[path], rng))
        if not program.ok:
            continue
        played += 1
        game = Game(program, compile_program(program))
        agents = [RandomAgent(n, p) for p in range(game.players)]
        try:
            play(game, agents, n, str(path), max_moves=40)
        except (TGPLRuntimeError, StuckError, IllegalMove):
            pass
    assert played >= 10  # the mutations must leave enough programs to play
