"""Where the layers meet: a TGPL game run to its setup, then lowered to logic.

The lowering may not import the runtime (frontend -> runtime and frontend ->
lowering -> asp are separate lines), yet it starts from the objects setup
creates. This module, like the CLI above it, composes the two: it runs setup
on the runtime, takes a plain-data snapshot and hands it to the lowering.
"""

from __future__ import annotations

from tgpl.frontend.diagnostics import Diagnostic, Severity, Span
from tgpl.lowering.lower import LoweredGame, NotLowerable, lower
from tgpl.runtime.game import Game
from tgpl.runtime.snapshot import snapshot


def lower_game(game: Game, seed: int = 0) -> LoweredGame:
    """The game after setup (with `seed`, for setups that shuffle) as GDL; raises NotLowerable."""
    return lower(game.program, snapshot(game.initial_state(seed)))


def not_lowerable(e: NotLowerable, main: str) -> Diagnostic:
    """The diagnostic of a refusal: at the construct's location, or at the game file's start."""
    span = e.span if e.span is not None else Span(main, 1, 1, 1, 1)
    return Diagnostic(Severity.ERROR, span, f"not lowerable: {e.reason}")
