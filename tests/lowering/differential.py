"""Differential checks: the runtime and the GDL reasoner on the lowered game, step by step.

At every step of a random playout (`playout`), or at every reachable state
(`bisimulate`), the two must agree on: the whole state (the runtime's state
encoded as GDL fluents equals the reasoner's true fluents), terminal status,
goals at the end, and the legal moves (the mover's moves mapped by name; every
other role may only `noop`).
"""

from __future__ import annotations

import random
import re
from collections import deque
from dataclasses import dataclass

from tgpl.asp.asp_emit import encode_asp
from tgpl.asp.asp_trace import AspTrace
from tgpl.asp.kif import read_term
from tgpl.asp.reasoner import GdlGame
from tgpl.asp.validate import validate
from tgpl.asp.verify import GdlMachine
from tgpl.frontend.diagnostics import render_all
from tgpl.frontend.loader import load_program
from tgpl.lowering.lower import NotLowerable, lower
from tgpl.runtime.compiler import compile_program
from tgpl.runtime.game import Game, load_game
from tgpl.runtime.snapshot import snapshot
from tgpl.runtime.verify import RuntimeMachine


@dataclass
class Lowered:
    game: Game
    lowered: object
    gdl: GdlGame | None

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
        return Lowered(game, lowered, GdlGame(lowered.program) if gdl else None)


@dataclass
class Step:
    legal: list[str]  # the mover's legal moves, runtime texts, sorted
    mover: int | None
    terminal: bool
    goals: list[int] | None


def asp_check(lw: Lowered, trace: AspTrace, joints: list, steps: list[Step]) -> None:
    """The ASP output along a recorded play: legal moves, terminal status and goals at every step."""
    texts = lw.lowered.move_texts
    got = trace.run(joints)
    assert len(got) == len(steps)
    for t, (a, want) in enumerate(zip(got, steps)):
        assert a.terminal == want.terminal, f"ASP, step {t}"
        if want.terminal:
            assert [g[0] if len(g) == 1 else g for g in a.goals] == want.goals, f"ASP, step {t}"
            continue
        for i, moves in enumerate(a.legal):
            if i == want.mover:
                assert sorted(texts[str(m)] for m in moves) == want.legal, f"ASP, step {t}"
            else:
                assert [str(m) for m in moves] == ["noop"], f"ASP, step {t}"


def asp_trace(lw: Lowered, horizon: int | None = None) -> AspTrace:
    """One trace for many plays: grounded once up to `horizon` moves (grown as needed without one)."""
    return AspTrace(encode_asp(lw.lowered.program), horizon=horizon)


def playout(lw: Lowered, rng: random.Random, seed: int = 0, max_steps: int = 500, state_check: bool = True,
            record: list | None = None) -> list:
    """One random playout checked at every step; returns its joint moves (and fills `record` with Steps)."""
    state = lw.game.initial_state(seed)
    g = lw.gdl.initial_state()
    texts = lw.lowered.move_texts
    roles = lw.gdl.roles
    joints: list = []
    for step in range(max_steps + 1):
        where = f"after {step} moves"
        if state_check:
            assert {str(f) for f in g.fluents} == lw.lowered.state_fluents(snapshot(state)), where
        assert g.is_terminal == state.is_terminal, where
        if state.is_terminal:
            assert g.goals == state.goals, where
            if record is not None:
                record.append(Step([], None, True, state.goals))
            return joints
        mover = state.active_player
        runtime_moves = sorted(m.text for m in state.legal_moves())
        if record is not None:
            record.append(Step(runtime_moves, mover, False, None))
        gdl_moves = sorted(texts[str(m)] for m in g.legal_moves(roles[mover]))
        assert gdl_moves == runtime_moves, where
        for i, r in enumerate(roles):
            if i != mover:
                assert [str(m) for m in g.legal_moves(r)] == ["noop"], where
        if not runtime_moves:
            return joints
        move = rng.choice(runtime_moves)
        term = next(t for t, text in texts.items() if text == move)
        joint = [term if i == mover else "noop" for i in range(len(roles))]
        state = state.apply(move)
        g = g.apply(joint)
        joints.append(tuple(read_term(x) for x in joint))
    raise AssertionError(f"no end after {max_steps} moves")



@dataclass
class Bisimulation:
    states: int  # reachable states, the same on both sides
    terminal: int


def bisimulate(lw: Lowered, seed: int = 0, max_states: int = 50_000, state_check: bool = True) -> Bisimulation:
    """Explore the runtime's game and the lowered GDL side by side, every reachable state: they must be one game.

    A breadth-first walk of pairs (runtime state, GDL state) from the initial states, through
    the adapters `tgpl verify` and `tgpl compare` explore (RuntimeMachine, GdlMachine with the
    lowered game's move texts). At each pair, terminal status, goals, who moves, who is stuck
    and the legal moves by their runtime text must agree (so every role not in control may only
    `noop`), and with `state_check` the runtime state encoded as GDL fluents must equal the GDL
    state; then each move is made on both sides. Both games are deterministic, so this is the
    bisimulation of the two graphs with moves matched by name; on top, the pairing must be one
    to one, so the runtime and the GDL have the same number of states.
    """
    rm = RuntimeMachine(lw.game, seed)
    gm = GdlMachine(lw.gdl, move_texts=lw.lowered.move_texts)
    a, b = rm.initial(), gm.initial()
    pairs = {rm.key(a): gm.key(b)}
    back = {gm.key(b): rm.key(a)}
    queue = deque([(a, b, ())])
    terminal = 0
    while queue:
        a, b, moves = queue.popleft()
        where = "after " + (" ; ".join(moves) if moves else "setup")
        ia, ib = rm.info(a), gm.info(b)
        if state_check:
            assert {str(f) for f in b.fluents} == lw.lowered.state_fluents(snapshot(a)), where
        assert ia.terminal == ib.terminal, where
        if ia.terminal:
            terminal += 1
            assert list(ia.goals) == list(ib.goals), where
            continue
        assert (ia.movers, ia.stuck) == (ib.movers, ib.stuck), where
        next_a = {text: nxt for text, _, nxt in ia.moves}
        next_b = {text: nxt for text, _, nxt in ib.moves}
        assert sorted(next_a) == sorted(next_b), where
        for text in sorted(next_a):
            ka, kb = rm.key(next_a[text]), gm.key(next_b[text])
            if ka not in pairs and kb not in back:
                pairs[ka], back[kb] = kb, ka
                queue.append((next_a[text], next_b[text], moves + (text,)))
                assert len(pairs) <= max_states, f"more than {max_states} states"
            assert pairs.get(ka) == kb and back.get(kb) == ka, \
                f"{where} ; {text}: the runtime and the GDL pair their states differently"
    return Bisimulation(len(pairs), terminal)


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
