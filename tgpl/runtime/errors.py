"""Runtime errors and the control signals that unwind TGPL code."""

from __future__ import annotations

from dataclasses import dataclass

from tgpl.frontend.diagnostics import Span


@dataclass
class Frame:
    """One entry of the TGPL call stack, for error reports."""

    what: str  # "function WinCheck", "action PlayerState.Tick", "setup", ...
    span: Span


class TGPLRuntimeError(Exception):
    """An error in the game's code: reported as `path:line:col: runtime error: ...`."""

    def __init__(self, span: Span | None, message: str, stack: list[Frame] | None = None):
        super().__init__(message)
        self.span = span
        self.message = message
        # The machine keeps its stack as (what, span) pairs, made on every call; the
        # report's frames are built only here, when an error happens.
        self.stack = [f if isinstance(f, Frame) else Frame(*f) for f in stack or []]

    def render(self) -> str:
        where = f"{self.span}: " if self.span else ""
        lines = [f"{where}runtime error: {self.message}"]
        frames = list(reversed(self.stack))
        if len(frames) > 20:  # endless recursion: the innermost and outermost calls say enough
            frames = [*frames[:10], None, *frames[-10:]]
        for frame in frames:
            if frame is None:
                lines.append(f"  ... {len(self.stack) - 20} more calls")
                continue
            lines.append(f"  in {frame.what}" + (f" at {frame.span}" if frame.span else ""))
        return "\n".join(lines)


TOO_LARGE = "a number grew past the doubles (to infinity) and was used as a player or an index here"
"""The error of an OverflowError in the game's code: caught where a block or call runs, located there."""


class Cancelled(Exception):
    """A non-optional input found no candidate: the action does not run (3.3.3).

    Caught where an action or function asks its inputs; an input statement in an effect, a
    phase or setup has nothing to cancel, and becomes a runtime error at the input
    (Machine._no_candidate). `inp` is the input, where known.
    """

    def __init__(self, inp=None):
        super().__init__()
        self.inp = inp


class GameOver(Exception):
    """`winner` was executed: the game ends with this ranking."""

    def __init__(self, ranking: list[list[int]]):
        super().__init__("game over")
        self.ranking = ranking


@dataclass
class InputRequest:
    """The game waits for a player to pick one of `options` (values, in order)."""

    player: int
    name: str  # the input's name
    options: list
    span: Span
    optional: bool = False
    where: str = ""


class NeedInput(Exception):
    """Raised when execution needs a choice that the move script does not hold yet."""

    def __init__(self, request: InputRequest):
        super().__init__(request.name)
        self.request = request


@dataclass
class Returned:
    """The signal a `return` statement sends up to its callable."""

    value: object = None


BREAK = "break"
CONTINUE = "continue"
