"""Differential playouts: the runtime and the GDL reasoner on the lowered game, step by step.

At every step of a random playout the two must agree on: the whole state (the
runtime's state encoded as GDL fluents equals the reasoner's true fluents),
terminal status, goals at the end, and the legal moves (the mover's moves
mapped by name; every other role may only `noop`). The comparison is the one
`tgpl to-gdl` validates its output with (tgpl.validation.Differential); here a
difference fails the test.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property

from tgpl.asp.asp_emit import encode_asp
from tgpl.asp.asp_trace import AspTrace
from tgpl.asp.reasoner import GdlGame
from tgpl.lowering.lower import lower
from tgpl.runtime.game import Game, load_game
from tgpl.runtime.snapshot import snapshot
from tgpl.validation import Differential, Step


@dataclass
class Lowered:
    game: Game
    lowered: object
    gdl: GdlGame | None
    seed: int = 0

    @staticmethod
    def of(path: str, seed: int = 0, gdl: bool = True) -> "Lowered":
        game = load_game(path)
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
