"""The deterministic runtime: compiles a checked program and plays it.

`load_game(path)` gives a `Game`; `Game.initial_state(seed)` a `State`, whose
`legal_moves()` and `apply(move)` drive the game (see tgpl.runtime.game). How it runs, not what
it does, is a `RuntimeOptions` given to `load_game`.
"""

from tgpl.runtime.game import Game, GameLoadError, IllegalMove, Move, State, explore, goals_of, load_game
from tgpl.runtime.options import RuntimeOptions

__all__ = ["Game", "GameLoadError", "IllegalMove", "Move", "State", "explore", "goals_of", "load_game", "RuntimeOptions"]
