"""What a random playout lets one observe of a game: for tests that compare two ways of running it."""

from __future__ import annotations

import textwrap
from pathlib import Path

from tgpl.runtime import RuntimeOptions, load_game
from tgpl.runtime.errors import TGPLRuntimeError
from tgpl.runtime.rng import Pcg32

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
# the examples a change to the runtime's fast paths must play as before: (game, seeds, moves at most)
EXAMPLE_PLAYS = [
    ("chess/chess.tgpl", range(3), 80),
    ("draughts.tgpl", range(2), 60),
    ("connect4.tgpl", range(2), 400),
    ("tris.tgpl", range(3), 400),
    ("hex.tgpl", range(2), 400),
    ("citadels/citadels.tgpl", range(1), 40),
]


def reference(path, players=None):
    """The game at `path` compiled to run the plain way (`RuntimeOptions.reference()`: every block through
    the compiler's closures): what the default, with every fast path, must play like."""
    return load_game(path, players, RuntimeOptions.reference())


def compiled_with_sources(path, monkeypatch, options: RuntimeOptions = RuntimeOptions()):
    """The game at `path` compiled with `options`, and the Python sources its compilation generated:
    for tests that look for a fast path's spelling in them."""
    from tgpl.runtime import codegen

    sources: list[str] = []
    compile_ = codegen.BlockGenerator._compile

    def seen(self, src, span, name):
        sources.append(src)
        return compile_(self, src, span, name)

    with monkeypatch.context() as mp:
        mp.setattr(codegen.BlockGenerator, "_compile", seen)
        return load_game(path, options=options), sources


def written_both_ways(source: str, folder: Path, monkeypatch):
    """`source` (dedented) written to game.tgpl in `folder`, then compiled by default and the plain way:
    (default game, reference game, the default's generated sources, the file's path), for the tests that
    check a fast path both plays as the reference and is spelled in the sources."""
    path = folder / "game.tgpl"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    game, sources = compiled_with_sources(path, monkeypatch)
    return game, reference(path), sources, path


def outcome(g, moves: list[str], name: str):
    """The moves listed along `moves` and how the play ends: its log and key, or the error as rendered (with
    the game's file called game.tgpl, so that two games compiled apart compare)."""
    state = g.initial_state(0)
    listed = []
    try:
        for move in moves:
            listed.append([m.text for m in state.legal_moves()])
            state = state.apply(move)
        listed.append([m.text for m in state.legal_moves()])
        return ("ok", listed, state.log, state.key())
    except TGPLRuntimeError as e:
        return ("error", listed, e.render().replace(name, "game.tgpl"))


def playout(state, seed: int, limit: int = 400) -> list:
    """Everything observable along a random playout: moves, logs, keys, the ranking."""
    rng = Pcg32(seed)
    seen = []
    for _ in range(limit):
        if state.is_terminal:
            break
        moves = state.legal_moves()
        seen.append(([m.text for m in moves], state.key(), tuple(state.log)))
        if not moves:
            break
        state = state.apply(moves[rng.below(len(moves))])
    seen.append((state.ranking, state.key(), tuple(state.log)))
    return seen


def assert_examples_play_alike(other, name: str, seeds, limit: int) -> None:
    """The example `name` plays the same, seed by seed, as loaded and as `other(path, players)` loads it (the
    plain reference, `reference`, or the runtime run with other options)."""
    players = 4 if name.startswith("citadels") else None
    fast = load_game(EXAMPLES / name, players)
    slow = other(EXAMPLES / name, players)
    for seed in seeds:
        assert playout(fast.initial_state(seed), seed, limit) == playout(slow.initial_state(seed), seed, limit)


def ends_with_limits(game, limits, moves: list[str], observe=lambda state: state.key()) -> list:
    """How `moves` end with each step limit: what `observe` says after each move, or the error as rendered."""
    out = []
    for limit in limits:
        game.step_limit = limit
        state = game.initial_state(0)
        seen = []
        try:
            for move in moves:
                state = state.apply(move)
                seen.append(observe(state))
            out.append(("ok", seen))
        except TGPLRuntimeError as e:
            out.append(("error", seen, e.render()))
    return out
