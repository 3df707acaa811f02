"""The deterministic runtime: compiles a checked program and plays it.

`load_game(path)` gives a `Game`; `Game.initial_state(seed)` a `State`, whose
`legal_moves()` and `apply(move)` drive the game (see tgpl.runtime.game).
"""

from tgpl.runtime.game import Game, GameLoadError, IllegalMove, Move, State, explore, goals_of, load_game

__all__ = ["Game", "GameLoadError", "IllegalMove", "Move", "State", "explore", "goals_of", "load_game"]
