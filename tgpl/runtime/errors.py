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
        # The move texts that reach the error from the initial state, the failing one last, when a
        # whole game was being played (tgpl.play.play sets them): `tgpl play --moves` replays them.
        self.moves: list[str] | None = None

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


def too_deep(what: str) -> str:
    """The error of a RecursionError (the host's stack ran out) in `what`, a call or an action."""
    return f"calls nested too deeply (in {what}): is the recursion endless?"


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
    """Raised when execution needs a choice that the move script does not hold yet.

    As it unwinds, it also describes where the suspended code stands, for the state's key
    (`State.key`, docs/runtime.md "State identity"). `frame` is the innermost TGPL frame not
    described yet and `point` the site it stands at (an input, or a call of an action made as
    a statement); the layer that made the frame describes it (`close`), a statement-level
    action call opens its caller's frame (`reopen`), and the segment's outer loop adds the
    event being resolved (`outer`). Any other layer in between (a function, an event thrown
    with `throw_sync`, a default block, a filter...) leaves the description `broken`: the key
    then falls back on the segment's history.
    """

    def __init__(self, request: InputRequest, frame=None, point=None):
        super().__init__(request.name)
        self.request = request
        self.frame = frame
        self.point = point
        self.links: list[tuple] = []  # innermost first
        self.broken = False

    def close(self, frame, home, what: tuple) -> None:
        """`frame`, made by the layer this passes through, stands at `self.point`: described by
        the point, the frame and `what` (the action, phase or setup) when the point is a site of
        that layer's own code (`home`), at the level of its statements or declared inputs."""
        if self.frame is frame and not self.broken and self.point.home is home:
            self.links.append((self.point, frame, what))
            self.frame = None
        else:
            self.broken = True

    def reopen(self, frame, site) -> None:
        """A call made as a statement at `site` of `frame` returns here: the callee is
        described, the caller's frame is next."""
        if self.frame is None and not self.broken:
            self.frame = frame
            self.point = site
        else:
            self.broken = True

    def outer(self, link: tuple) -> None:
        """The segment's own loop, around a frame it started that is described now."""
        if self.frame is None and not self.broken:
            self.links.append(link)
        else:
            self.broken = True

    @property
    def described(self) -> bool:
        return self.frame is None and not self.broken


@dataclass
class Returned:
    """The signal a `return` statement sends up to its callable."""

    value: object = None


BREAK = "break"
CONTINUE = "continue"
