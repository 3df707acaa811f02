"""Differential checks: the runtime and the GDL reasoner on the lowered game, step by step.

At every step of a random playout (`playout`), or at every reachable state
(`bisimulate`), the two must agree on: the whole state (the runtime's state
encoded as GDL fluents equals the reasoner's true fluents), terminal status,
goals at the end, and the legal moves (the mover's moves mapped by name; every
other role may only `noop`). The comparison is the one `tgpl to-gdl` validates its
output with (tgpl.validation); here a difference fails the test.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import cached_property

from tgpl.asp.asp_emit import encode_asp
from tgpl.asp.asp_trace import AspTrace
from tgpl.asp.reasoner import GdlGame
from tgpl.asp.validate import validate
from tgpl.frontend.diagnostics import render_all
from tgpl.frontend.loader import load_program
from tgpl.lowering.lower import NotLowerable, lower
from tgpl.runtime.compiler import compile_program
from tgpl.runtime.game import Game, load_game
from tgpl.runtime.snapshot import snapshot
from tgpl.validation import Differential, Step, validate_translation


@dataclass
class Lowered:
    game: Game
    lowered: object
    gdl: GdlGame | None
    seed: int = 0

    @staticmethod
    def of(path: str, seed: int = 0, gdl: bool = True) -> "Lowered":
        return Lowered.of_game(load_game(path), seed, gdl)

    @staticmethod
    def of_text(text: str, path: str = "game.tgpl", seed: int = 0) -> "Lowered":
        """A game given as source text (which must check without errors)."""
        program = load_program(path, text=text)
        assert program.ok, render_all(program.diagnostics, program.sources)
        return Lowered.of_game(Game(program, compile_program(program)), seed)

    @staticmethod
    def of_game(game: Game, seed: int = 0, gdl: bool = True) -> "Lowered":
        lowered = lower(game.program, snapshot(game.initial_state(seed)))
        return Lowered(game, lowered, GdlGame(lowered.program) if gdl else None, seed)

    @cached_property
    def differential(self) -> Differential:
        return Differential(self.game, self.lowered, self.seed, self.gdl)


def asp_check(lw: Lowered, trace: AspTrace, joints: list, steps: list[Step]) -> None:
    """The ASP output along a recorded play: legal moves, terminal status and goals at every step."""
    got = trace.run(joints)
    assert len(got) == len(steps)
    for t, (a, want) in enumerate(zip(got, steps)):
        diff = lw.differential.asp_compare(want, a)
        assert diff is None, f"ASP, step {t}: " + "; ".join(diff.lines("the ASP program"))


def asp_trace(lw: Lowered, horizon: int | None = None) -> AspTrace:
    """One trace for many plays: grounded once up to `horizon` moves (grown as needed without one)."""
    return AspTrace(encode_asp(lw.lowered.program), horizon=horizon)


def playout(lw: Lowered, rng: random.Random, max_steps: int = 500, state_check: bool = True,
            record: list | None = None) -> list:
    """One random playout checked at every step; returns its joint moves (and fills `record` with Steps).

    A runtime error is raised as itself, a difference as an AssertionError, and so
    is a play still going after `max_steps` moves.
    """
    play = lw.differential.playout(rng, max_steps, state_check)
    if record is not None:
        record.extend(play.steps)
    if play.mismatch is not None:
        if play.mismatch.runtime_error is not None:
            raise play.mismatch.runtime_error
        raise AssertionError(f"after {len(play.moves)} moves: " + "; ".join(play.mismatch.lines("the GDL")))
    if not play.ended and len(play.moves) >= max_steps:
        raise AssertionError(f"no end after {max_steps} moves")
    return play.joints



@dataclass
class Bisimulation:
    states: int  # reachable states compared (pairs of a runtime state and a GDL state)


def bisimulate(lw: Lowered, max_states: int = 50_000, state_check: bool = True) -> Bisimulation:
    """Explore the runtime's game and the lowered GDL side by side, every reachable state: they must be one game.

    This is the bisimulation `tgpl to-gdl` validates with (tgpl.validation), run
    to completion: at every reachable pair of states the same fluents, terminal
    status, goals and legal moves by their runtime text, then every move made on
    both sides. A pair is keyed by both states, so a GDL transition that goes
    astray reaches a new pair, which is compared too.
    """
    assert state_check, "the validator always compares fluents"
    result = validate_translation(lw.game, lw.lowered, lw.seed, seconds=3600, state_bound=max_states)
    assert result.mismatch is None, "; ".join(result.mismatch.difference.lines("the GDL")) + \
        " after " + (" ; ".join(result.mismatch.moves) or "setup")
    assert result.complete, f"more than {max_states} states"
    return Bisimulation(result.states)


def known_invalid(message: str, functions: set[str]) -> bool:
    """A validator error on lowered rules of one of two known kinds (exit 2 from `tgpl to-gdl`).

    - Dependencies between relations (a negation cycle, `legal` depending on `does`)
      whose chain runs through a called function's relation. The calls of a function
      share one relation (`holder`), and what it reads after the move's writes one view
      relation per site (`owner_holder`), whatever the arguments and wherever the call
      is. So a call in an effect, whose view depends on the move (`does`), joins the
      relation a filter's call uses, and a call whose result decides a write that a call
      with other arguments reads makes the relation depend on itself through negation.
      The ground rules have no such dependency, but GDL asks it of relations.
    - A fluent missing from `base` that the relaxed game (the rules without their
      negations) can make: `base` lists the values the lowering's range analysis finds,
      which can be fewer (a write behind `!(n >= 0)` never happens).
    """
    if message.startswith("fluent '") and "' is not in base, but this rule can make it true" in message:
        return True
    if not (message.startswith("negation cycle: ") or " cannot depend on " in message):
        return False
    hops = re.split(r" -> |: ", message)
    return any(re.sub(r"_v\d+$", "", hop.removeprefix("not ")) in functions for hop in hops)


def lowers_to_the_same_game(source: str, path: str = "generated.tgpl") -> tuple[str, int]:
    """A generated game: "rejected" by the checker, "refused" by the lowering, "invalid" (the emitted
    GDL has a defect of `known_invalid`), or "lowered" and `bisimulate`d; and its states.

    Raises AssertionError when the lowered game is not the runtime's, or when the
    validator finds any other problem with the emitted GDL.
    """
    program = load_program(path, text=source)
    if not program.ok:
        return "rejected", 0
    game = Game(program, compile_program(program))
    try:
        lowered = lower(program, snapshot(game.initial_state(0)))
    except NotLowerable:
        return "refused", 0
    errors = [d.message for d in validate(lowered.program) if d.is_error]
    functions = {fi.name.lower() for fi in program.functions}
    if errors and all(known_invalid(m, functions) for m in errors):
        return "invalid", 0
    assert errors == []
    return "lowered", bisimulate(Lowered(game, lowered, GdlGame(lowered.program))).states
