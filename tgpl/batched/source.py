"""The GDL program of a game file: a `.kif` read and validated, a `.tgpl` lowered as `tgpl to-gdl` lowers it.

Every refusal is a BatchedLoadError whose text is what a command prints: located diagnostics for a file that
cannot be read, has errors or does not lower, and a plain sentence for what the batched engine itself cannot do
(a chance game, a network over the size bound).
"""

from __future__ import annotations

from pathlib import Path

from tgpl.asp.estimate import rule_bounds
from tgpl.frontend.diagnostics import Diagnostic, Severity, Span, render_all
from tgpl.lowering.ir import Program

MAX_GATES = 2_000_000
"""The default bound on the network's size, in ground rule instances (each at most an AND gate), checked
before clingo grounds anything: clingo grounds a few hundred thousand instances a second here and cannot be
interrupted, and the network's index arrays take about 40 bytes a literal, so the bound keeps building under
about ten seconds and the arrays under a few hundred megabytes."""


class BatchedLoadError(Exception):
    """The game cannot be run batched: the message says why (rendered diagnostics or one sentence)."""


def chance_reason(program: Program) -> str | None:
    """Why a GDL program is a chance or imperfect-information game (GDL-II), or None."""
    roles = {str(a.args[0]) for a in program.facts("role") if a.args}
    if "random" in roles:
        return "it has the role 'random' (a chance player, GDL-II)"
    if any(r.head.relation == "sees" for r in program.rules):
        return "it has 'sees' rules (imperfect information, GDL-II)"
    return None


def gdl_program(path: str | Path, seed: int = 0, limits=None) -> Program:
    """The game at `path` as a valid GDL program (raises BatchedLoadError); `limits` (tgpl.limits) bound the
    lowering of a `.tgpl` (LimitReached past them)."""
    name = str(path)
    if name.endswith(".tgpl"):
        return _lowered(name, seed, limits)
    from tgpl.asp.reasoner import GdlLoadError, read_gdl

    try:
        program, _ = read_gdl(name, max_ground=None)
    except GdlLoadError as e:
        raise BatchedLoadError(e.render()) from None
    reason = chance_reason(program)
    if reason is not None:
        raise BatchedLoadError(f"{name}: error: the batched engine plays deterministic games with perfect "
                               f"information only: {reason}")
    return program


def _lowered(name: str, seed: int, limits=None) -> Program:
    from tgpl.frontend.loader import load_program
    from tgpl.runtime.game import Game, compile_program

    program = load_program(name)
    if not program.ok:
        errors = [d for d in program.diagnostics if d.is_error]
        raise BatchedLoadError(render_all(errors, program.sources))
    return lowered_game(Game(program, compile_program(program), None), seed, limits).program


def lowered_game(game, seed: int = 0, limits=None):
    """A runtime game (tgpl.runtime.game.Game, no errors) lowered for the batched engine, as a LoweredGame: its
    program and the encoding of runtime states as fluents (LoweredGame.state_fluents), which an MCTS agent's
    batched leaf rollouts start from (tgpl.play.batched_leaf). Raises BatchedLoadError for a chance game (before
    lowering) or one that does not lower."""
    from tgpl.frontend.after_setup import chance_site_texts
    from tgpl.lowering.chance import effect_roll_calls, setup_deal_calls, setup_roll_calls
    from tgpl.lowering.lower import NotLowerable
    from tgpl.pipeline import lower_game, not_lowerable

    program = game.program
    sites = chance_site_texts(program)
    if sites and (effect_roll_calls(program) or setup_roll_calls(program) or setup_deal_calls(program)):
        # random moves in its GDL-II: not lowered (treasure's lowering would run for minutes before it is refused)
        raise BatchedLoadError(f"{sites[0]}: error: the batched engine plays deterministic games only: this game "
                               f"draws on chance at {', '.join(sites)}, random's moves in its GDL-II")
    try:
        return lower_game(game, seed, limits=limits)
    except NotLowerable as e:
        message = render_all(not_lowerable(e, program.main), program.sources)
        if sites:  # whatever stopped the lowering, a game that draws on chance is not the batched engine's
            message += (f"\nthe batched engine plays deterministic games only: this game draws on chance at "
                        f"{', '.join(sites)} (GDL-II's random)")
        raise BatchedLoadError(message) from None


def check_size(program: Program, name: str, max_gates: int | None) -> int | None:
    """The bound on the network's gates (ground rule instances, tgpl.asp.estimate), computed before
    grounding; BatchedLoadError when over `max_gates` (None: no bound, and nothing computed)."""
    if max_gates is None:
        return None
    bounds = rule_bounds(program)
    if bounds is None:
        return None
    total = sum(b.instances for b in bounds)
    if total > max_gates:
        diagnostic = Diagnostic(Severity.ERROR, Span(name, 1, 1, 1, 1),
                                f"the game's propositional network can have {total:,} gates (ground rule "
                                f"instances), more than the {max_gates:,} the batched engine builds (max_gates)")
        raise BatchedLoadError(render_all([diagnostic], _source_of(name)))
    return total


def _source_of(name: str) -> dict[str, str]:
    """The file's text for a diagnostic's source line, when it can be read."""
    try:
        return {name: Path(name).read_text(encoding="utf-8")}
    except (OSError, UnicodeDecodeError):
        return {}


__all__ = ["MAX_GATES", "BatchedLoadError", "chance_reason", "check_size", "gdl_program", "lowered_game"]
