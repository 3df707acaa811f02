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
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

from tgpl.asp.asp_emit import encode_asp
from tgpl.asp.asp_trace import AspTrace
from tgpl.asp.reasoner import GdlGame
from tgpl.asp.induction import same_game
from tgpl.asp.recursion import bind_recursion
from tgpl.asp.validate import validate
from tgpl.frontend.diagnostics import render_all
from tgpl.frontend.loader import load_program
from tgpl.lowering.ir import Program
from tgpl.lowering.lower import NotLowerable, lower
from tgpl.runtime.game import Game, compile_program, load_game
from tgpl.runtime.snapshot import snapshot
from tgpl.validation import Differential, Step, validate_translation
from to_gdl_runs import to_gdl


@lru_cache(maxsize=4)
def to_gdl_once(game: str, tmp: str) -> tuple[int, str, str]:
    """`tgpl to-gdl GAME -o TMP/<name>.kif`, run once for the module's tests: its exit status, its output and the
    GDL written ("" where nothing was)."""
    r = to_gdl(Path(tmp), Path(game))
    return r.exit_code, r.output, r.kif


def lowered_and_validated(game: str, out: Path, to_the_end: bool = True) -> tuple[str, int]:
    """`tgpl to-gdl GAME -o OUT`, asserted to exit 0 with a validation line (the KIF's second) that compared at
    least 1,000 steps, by playouts that reached the end of the game where `to_the_end`: the GDL written, and the
    steps compared."""
    from click.testing import CliRunner

    from tgpl.cli import main

    r = CliRunner().invoke(main, ["to-gdl", game, "-o", str(out)])
    assert r.exit_code == 0, r.output
    text = out.read_text(encoding="utf-8")
    validated = text.splitlines()[1]
    assert validated.startswith("; validated: ") and "steps compared" in validated, validated
    assert not to_the_end or "to the end of the game" in validated, validated
    steps = int(validated.split(" steps compared")[0].rsplit(" ", 1)[1].replace(",", ""))
    assert steps >= 1_000, validated
    return text, steps


def lowered_kif(tmp_path_factory, game: Path) -> Path:
    """The .kif `tgpl to-gdl` writes for `game`, in the session's base temporary folder, lowered once (asserting
    that it lowers) for every test that reads it."""
    tmp = tmp_path_factory.getbasetemp() / game.stem
    tmp.mkdir(exist_ok=True)
    code, output, _ = to_gdl_once(str(game), str(tmp))
    assert code == 0, output
    return tmp / f"{game.stem}.kif"


def verify_and_compare_agree(game: Path, kif: Path, gdl_goals: str, runtime_goals: str) -> None:
    """`tgpl verify` gives the same expected goals on the .tgpl and its .kif (`gdl_goals`, `runtime_goals` as each
    prints them), and `tgpl compare` finds the two the same game."""
    from click.testing import CliRunner

    from tgpl.cli import main

    r = CliRunner().invoke(main, ["verify", str(kif)])
    assert r.exit_code == 0, r.output
    assert f"expected goals: {gdl_goals}" in r.output
    runtime = CliRunner().invoke(main, ["verify", str(game)])
    assert runtime_goals in runtime.output
    r = CliRunner().invoke(main, ["compare", str(game), str(kif)])
    assert r.exit_code == 0, r.output
    assert "equivalent: the same game up to the names of moves and fluents" in r.output


def never_deals_the_first_item(real):
    """A planted runtime mistake for the dealt-deck tests: `builtin_calls.deal` (`real`) with pop() taking the item
    after the one drawn, the last for the last two draws: the first item left is never dealt while others are, the
    last twice as often (a mistake that only renumbers the items, each still as likely, would be the same game)."""
    def wrong(m, deck, name):
        if name != "pop":
            return real(m, deck, name)
        items = m.world.own(deck)["_items"]
        return items.pop(min(m.world.random().below(len(items)) + 1, len(items) - 1)) if items else None
    return wrong


def declares_base_and_input(program: Program) -> bool:
    """Whether a lowered game has rules for both `base` and `input` (tests/lowering/test_base_and_input.py)."""
    return {"base", "input"} <= program.defined()


@dataclass
class Lowered:
    game: Game
    lowered: object
    gdl: GdlGame | None
    seed: int = 0

    @staticmethod
    def of(path: str, seed: int = 0, gdl: bool = True, relations: bool = False) -> "Lowered":
        return Lowered.of_game(load_game(path), seed, gdl, relations)

    @staticmethod
    def of_text(text: str, path: str = "game.tgpl", seed: int = 0, relations: bool = False) -> "Lowered":
        """A game given as source text (which must check without errors)."""
        program = load_program(path, text=text)
        assert program.ok, render_all(program.diagnostics, program.sources)
        return Lowered.of_game(Game(program, compile_program(program)), seed, relations=relations)

    @staticmethod
    def of_game(game: Game, seed: int = 0, gdl: bool = True, relations: bool = False) -> "Lowered":
        lowered = lower(game.program, snapshot(game.initial_state(seed)), relations, same_game, repair=bind_recursion)
        return Lowered(game, lowered, GdlGame(lowered.program) if gdl else None, seed)

    @staticmethod
    def with_options(path: Path | str, grounded_whole: bool = False, **options) -> "Lowered":
        """The game at `path` lowered at seed 0 by `lower` with `options` (moves, check, repair...), without a
        GdlGame. With `grounded_whole` the reasoner grounds the game whole, faster for every state of a small game
        than grounding state by state."""
        game = load_game(str(path))
        lowered = lower(game.program, snapshot(game.initial_state(0)), **options)
        if grounded_whole:
            lowered.grounding = None
        return Lowered(game, lowered, None)

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


def asp_trace(lw: Lowered) -> AspTrace:
    """One trace for many plays: the encoding grounded once for one step (tgpl.asp.asp_trace)."""
    return AspTrace(encode_asp(lw.lowered.program))


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
    result = validate_translation(lw.game, lw.lowered, lw.seed, state_bound=max_states)
    assert result.mismatch is None, "; ".join(result.mismatch.difference.lines("the GDL")) + \
        " after " + (" ; ".join(result.mismatch.moves) or "setup")
    assert result.complete, f"more than {max_states} states"
    return Bisimulation(result.states)


def lowers_to_the_same_game(source: str, path: str = "generated.tgpl", relations: bool = False,
                            moves: str = "auto") -> tuple[str, int]:
    """A generated game: "rejected" by the checker, "refused" by the lowering, or "lowered" and
    `bisimulate`d ("compiled" when some of its functions were written as relations, `relations`;
    "moves compiled" when its segments were, `moves`, tgpl.lowering.compiled); and its states.

    Raises AssertionError when the lowered game is not the runtime's, or when the
    validator finds any other problem with the emitted GDL.
    """
    program = load_program(path, text=source)
    if not program.ok:
        return "rejected", 0
    game = Game(program, compile_program(program))
    try:
        lowered = lower(program, snapshot(game.initial_state(0)), relations, same_game, moves=moves, repair=bind_recursion)
    except NotLowerable:
        return "refused", 0
    errors = [d.message for d in validate(lowered.program) if d.is_error]
    assert errors == []
    outcome = "compiled" if lowered.stats.get("functions as relations") else "lowered"
    if lowered.stats.get("moves compiled"):
        outcome = "moves compiled"
        lowered.grounding = None  # a small game: ground it whole if it fits, faster for every state
    return outcome, bisimulate(Lowered(game, lowered, GdlGame(lowered.program))).states


def ends_as(state, result) -> None:
    """A runtime state the model says is over with `result`: "draw", or the winning seat of two."""
    assert state.is_terminal
    if result == "draw":
        assert state.goals[0] == state.goals[1]
    else:
        assert state.goals[result] > state.goals[1 - result]


def runtime_perft(state, depth: int) -> int:
    """The runtime's move tree from `state` to `depth` plies, counted as perft counts (an ended state a leaf)."""
    if depth == 0 or state.is_terminal:
        return 1
    return sum(runtime_perft(state.apply(m), depth - 1) for m in state.legal_moves())


def model_perft(moves, apply, state, depth: int) -> int:
    """An independent model's move tree counted as `runtime_perft` counts: `moves(state)` its moves, `apply(state,
    move)` the next state and the winner (None while the play goes on)."""
    if depth == 0:
        return 1
    n = 0
    for m in moves(state):
        nxt, won = apply(state, m)
        n += 1 if won is not None else model_perft(moves, apply, nxt, depth - 1)
    return n


def mover_first_result(holds_line, who: int, made: int, draw_after: int):
    """A model move's result where a line of the mover wins, else a line of the other seat (a move can make
    theirs), else a draw once `draw_after` moves are made: the winner, "draw", or None while play goes on.
    `holds_line(seat)` says whether the seat has a line after the move."""
    if holds_line(who):
        return who
    if holds_line(1 - who):
        return 1 - who
    return "draw" if made >= draw_after else None


def model_steps(moves, apply, start, rng) -> Iterator[tuple]:
    """An independent model's play from `start` whose moves `rng` chooses (as `plays_to_the_models_end` chooses
    them), to its end: each move made, with the state after it and the result (None while the play goes on)."""
    state, result = start, None
    while result is None:
        ms = moves(state)
        m = ms[rng.below(len(ms))]
        state, result = apply(state, m)
        yield m, state, result


def model_end(moves, apply, start, rng) -> tuple:
    """The last state and the result of an independent model's play from `start` (`model_steps`)."""
    state, result = start, None
    for _, state, result in model_steps(moves, apply, start, rng):
        pass
    return state, result


def winners_and_tallies(play, seeds) -> tuple[set, dict]:
    """The results of `play(seed)` for each seed (a model with `result` and a tally `seen` of the rules it met) and
    the tallies summed: what a game's seeded plays beside its model are shown to cover."""
    winners: set = set()
    totals: dict = {}
    for seed in seeds:
        model = play(seed)
        winners.add(model.result)
        for key, n in model.seen.items():
            totals[key] = totals.get(key, 0) + n
    return winners, totals


def model_results(moves, apply, start, rngs) -> set:
    """The results an independent model reaches from `start` on the plays each of `rngs` chooses (as
    `plays_to_the_models_end` chooses them): what seeded plays of the runtime beside it are worth."""
    return {model_end(moves, apply, start, rng)[1] for rng in rngs}


def plays_to_the_models_end(state, model, rng, moves, apply, text, observed) -> None:
    """A seeded play of the runtime `state` beside an independent model, to the end: at every move the legal
    move texts are equal, the move `rng` picks from the model's is played on both, `observed(state)` equals
    the model state's first part (None: the states are not compared, the moves and the end only), and the runtime
    ends when the model says, as it says (`ends_as`). `moves`/`apply` as `model_perft` takes them; `text(model,
    move)` the runtime's text of a model move."""
    while True:
        ms = moves(model)
        assert sorted(m.text for m in state.legal_moves()) == sorted(text(model, m) for m in ms)
        m = ms[rng.below(len(ms))]
        state = state.apply(state.resolve(text(model, m)))
        model, result = apply(model, m)
        assert observed is None or observed(state) == model[0]
        if result is not None:
            ends_as(state, result)
            return
        assert not state.is_terminal


def plays_to_the_seen_models_end(state, model, rng, moves, apply, text, observed) -> None:
    """`plays_to_the_models_end` for a model whose states say what the runtime should show by `seen()`: `model`,
    `moves(model)`, `apply(model, move)` and `text(model, move)` take the model's own states, and `observed(state)`
    is compared with `seen()` of the model's state after each move."""
    plays_to_the_models_end(state, (model.seen(), model), rng, lambda p: moves(p[1]),
                            lambda p, m: (lambda r: ((r[0].seen(), r[0]), r[1]))(apply(p[1], m)),
                            lambda p, m: text(p[1], m), observed)


def played_beside(state, model, moves, apply, text, observed) -> tuple:
    """`moves` (the model's) played on the runtime `state` and the independent model beside it, each asserted legal
    on the runtime and the states compared after each (as `plays_to_the_models_end` takes them): the runtime's last
    state, the model's and the model's last result (None while play goes on; no move may follow a result)."""
    result = None
    for m in moves:
        assert result is None
        assert text(model, m) in [x.text for x in state.legal_moves()]
        state = state.apply(state.resolve(text(model, m)))
        model, result = apply(model, m)
        assert observed(state) == model[0]
    return state, model, result


def checks_clean_and_plays(game: str, seed: int = 5) -> None:
    """`tgpl check GAME` with no error nor warning, and `tgpl play GAME` between two random seats to its end."""
    from click.testing import CliRunner

    from tgpl.cli import main

    r = CliRunner().invoke(main, ["check", game])
    assert r.exit_code == 0 and "warning" not in r.output, r.output
    r = CliRunner().invoke(main, ["play", game, "--players", "random,random", "--seed", str(seed)])
    assert r.exit_code == 0 and "-- game over" in r.output, r.output


def lockstep_playouts(written, rewritten, rng, plays: int) -> tuple[int, list]:
    """`plays` random playouts of the game as written and of its rewrite in lockstep, the same legal moves, state
    and goals asserted at every step: the steps taken and the written game's final states."""
    steps, ends = 0, []
    for _ in range(plays):
        a, b = written.initial_state(0), rewritten.initial_state(0)
        while not a.is_terminal:
            moves = sorted(str(m) for m in a.legal_moves())
            assert moves == sorted(str(m) for m in b.legal_moves())
            move = rng.choice(moves)
            a, b = a.apply(move), b.apply(move)
            assert a.key() == b.key() and a.goals == b.goals
            steps += 1
        assert b.is_terminal
        ends.append(a)
    return steps, ends


@dataclass(frozen=True)
class SeenModel:
    """An independent model whose states say `seen()` (what the runtime is compared with), read by the helpers above
    as pairs `(seen, state)`: its moves, apply and text are asked of the pair's state."""

    moves: object
    apply: object
    text: object

    def pair(self, s) -> tuple:
        return s.seen(), s

    def pair_moves(self, p):
        return self.moves(p[1])

    def pair_apply(self, p, m):
        s, result = self.apply(p[1], m)
        return self.pair(s), result

    def pair_text(self, p, m):
        return self.text(p[1], m)
