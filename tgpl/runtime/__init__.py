"""The deterministic runtime: compiles a checked program and plays it.

`load_game(path)` gives a `Game`; `Game.initial_state(seed)` a `State`, whose
`legal_moves()` and `apply(move)` drive the game (see tgpl.runtime.game). How it runs, not what
it does, is a `RuntimeOptions` given to `load_game`.

The names below are imported when first read: the checker reads the built-ins' runtime code
(`tgpl.builtin_calls`, which imports `values` and `operators`) without loading the runtime.
"""

from importlib import import_module

_HOME = {
    "Game": "game", "GameLoadError": "game", "IllegalMove": "game", "Move": "game", "State": "game",
    "explore": "game", "goals_of": "game", "load_game": "game", "RuntimeOptions": "options",
}


def __getattr__(name: str):
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'tgpl.runtime' has no attribute {name!r}")
    value = getattr(import_module(f"tgpl.runtime.{home}"), name)
    globals()[name] = value
    return value


__all__ = ["Game", "GameLoadError", "IllegalMove", "Move", "State", "explore", "goals_of", "load_game", "RuntimeOptions"]
