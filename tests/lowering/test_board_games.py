"""Property test: every generated board game lowers to the runtime's game, or is refused at a place in it.

tests/lowering/boardgen.py writes small two-player games on a 3×3 or 4×3 board in the
shapes designers write (issue 34): a `while` walking a direction through `At(x, y)` with
an early `return`, a function summing that walk over directions, flanking that flips or
removes what the walk found, counts over the board in `winner` decisions and
`require`s, end checks in the phase and in functions. Each game must check clean,
and for `--moves auto` and `--moves compiled` (tgpl.pipeline.lower_game) either
lower to GDL that to-gdl's own check accepts and that the validator's bisimulation
finds to be the runtime's game at every reachable state, or be refused with
NotLowerable at a line of the game. Any other exception is an internal error and
fails the test, hypothesis printing the game's source.

Deterministic by default, with a count of games (never a time). `TGPL_BOARD_SEED=n`
draws other games, `TGPL_BOARD_EXAMPLES=n` sets how many, `TGPL_BOARD_SHRINK=1` lets
hypothesis shrink a failing game (minutes). `bench/property_games.py --board` runs
many more.
"""

from __future__ import annotations

import os
from pathlib import Path
from collections import Counter

import pytest
from hypothesis import HealthCheck, Phase, given, note, seed, settings

from boardgen import boards, lowers_or_is_refused

SEED = os.environ.get("TGPL_BOARD_SEED")
EXAMPLES = int(os.environ.get("TGPL_BOARD_EXAMPLES", "5"))
PHASES = [Phase.explicit, Phase.generate] + ([Phase.shrink] if os.environ.get("TGPL_BOARD_SHRINK") else [])


def test_generated_board_games_lower_to_the_runtimes_game_or_are_refused_at_a_place():
    tally: Counter = Counter()

    @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=SEED is None, phases=PHASES,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(boards())
    def check(game) -> None:
        note(f"reproduce: TGPL_BOARD_SEED={SEED} (unset: the deterministic run); shapes {' '.join(game.shapes)}; "
             f"the game:\n{game.source}")
        for outcome in lowers_or_is_refused(game.source):
            tally[outcome.result] += 1
            tally["states"] += outcome.states

    if SEED is not None:
        check = seed(int(SEED))(check)
    check()
    print(f"generated board games: {dict(tally)}")
    assert tally["lowered"] + tally["refused"] >= EXAMPLES, tally
    assert tally["lowered"] >= 1, tally  # the generator writes games that lower, not refusals only


COUNTER_BASE = Path(__file__).resolve().parents[1] / "data" / "lowering" / "counter_base.tgpl"


def test_a_counter_beside_a_count_lowers_to_the_runtimes_game():
    """The smallest game the generator found the failure below with: it lowers and bisimulates."""
    outcomes = lowers_or_is_refused(COUNTER_BASE.read_text(), check_gdl=True)
    assert [(o.moves, o.result) for o in outcomes] == [("auto (compiled)", "lowered")]
    assert outcomes[0].states > 10


def test_a_counter_beside_a_count_gives_gdl_that_check_gdl_accepts():
    """Its moves compiled, the counter's next rule (`(plus ?x7 1 ?x8)`, over the numbers 0..9 the count over the
    board reaches) made, in GDL's relaxed game, values 5..9 that `base` did not list (`tgpl check-gdl` rejected
    what to-gdl wrote): its next value is now one of the values base lists (`moves_values`)."""
    outcomes = lowers_or_is_refused(COUNTER_BASE.read_text(), check_gdl=True)
    assert outcomes[0].check_gdl == (), outcomes[0].check_gdl


def test_to_gdl_writes_nothing_check_gdl_would_reject(tmp_path, monkeypatch):
    """A fluent that base leaves out is the lowering's own error, caught before writing: exit 2, nothing written
    (here the counter's guard is taken out of the lowered game, as it was before the fix above, and the sum
    table goes on to 5, as it did while the count over the board was carried as a number 0..9; the count is now
    asked as an existence, lowering.existence, and the table stops at 4)."""
    import tgpl.pipeline
    from click.testing import CliRunner
    from tgpl.cli import main
    from tgpl.lowering.ir import Atom, Const, Program, Rule

    lower_game = tgpl.pipeline.lower_game

    def unguarded(*args, **kwargs):
        lowered = lower_game(*args, **kwargs)
        rules = tuple(Rule(r.head, tuple(x for x in r.body if not (isinstance(x, Atom) and x.relation == "moves_values")),
                           r.span) for r in lowered.program.rules)
        assert any(r.head == Atom("plus", (Const("3"), Const("1"), Const("4"))) for r in rules)
        lowered.program = Program(rules + (Rule(Atom("plus", (Const("4"), Const("1"), Const("5")))),))
        return lowered

    monkeypatch.setattr(tgpl.pipeline, "lower_game", unguarded)
    out = tmp_path / "counter.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(COUNTER_BASE), "-o", str(out)])
    assert r.exit_code == 2, r.output
    assert "internal error: the emitted GDL is not valid: fluent '(moves gamestate 5)' is not in base" in r.output
    assert not out.exists()


SPELLED_COSTLY = COUNTER_BASE.parent / "spelled_costly.tgpl"


def test_auto_compiles_the_moves_where_spelling_them_out_costs_more():
    """boardgen's game whose counts over the board make each spelled-out move split on every board: `auto`
    used to spell it out (no loop writes the state, 12 ways to fill the inputs), past 60 s; it now stops the
    spelled-out moves at their budget of parts of conditions (tgpl.lowering.lower.spelled_budget), compiles
    them, and the GDL bisimulates with the runtime's game."""
    from tgpl.frontend.loader import load_program
    from tgpl.lowering.compiled import most_moves
    from tgpl.lowering.lower import SPELLED_PARTS, moves_strategy, spelled_budget
    from tgpl.lowering.universe import Universe
    from tgpl.runtime.game import Game, compile_program
    from tgpl.runtime.snapshot import snapshot

    program = load_program(str(SPELLED_COSTLY))
    universe = Universe.from_snapshot(snapshot(Game(program, compile_program(program)).initial_state(0)))
    assert moves_strategy(program, universe)[0] == "spelled"  # what the static scan alone says
    assert most_moves(program, universe) == 12 and spelled_budget(program, universe) == SPELLED_PARTS
    outcomes = lowers_or_is_refused(SPELLED_COSTLY.read_text(), check_gdl=True)
    assert [(o.moves, o.result) for o in outcomes] == [("auto (compiled)", "lowered")]
    assert outcomes[0].check_gdl == () and outcomes[0].states > 10


def test_a_cheap_game_stays_spelled_out():
    """Tris spells out its moves in a few hundred statements, far within its budget: `auto` keeps them spelled."""
    from tgpl.frontend.loader import load_program
    from tgpl.pipeline import lower_game
    from tgpl.runtime.game import Game, compile_program

    program = load_program(str(Path(__file__).resolve().parents[2] / "examples" / "tris.tgpl"))
    lowered = lower_game(Game(program, compile_program(program)))
    assert not lowered.stats.get("moves compiled")


def test_past_the_budget_a_refused_compilation_goes_on_spelling_out(monkeypatch):
    """The captures game (tests/data/lowering/captures.tgpl: `assign`, outside the compiled subset) with its budget
    of parts lowered to 1,000: past it the compiled moves are tried where the spelled-out run stands, refused, and
    the run goes on, once (it was run again from the start): the GDL is the one spelled out from the start."""
    import tgpl.lowering.lower as lowering
    from tgpl.asp.kif import to_kif
    from tgpl.runtime.game import load_game
    from tgpl.runtime.snapshot import snapshot

    game = load_game(str(COUNTER_BASE.parent / "captures.tgpl"))
    start = snapshot(game.initial_state(0))
    spelled = to_kif(lowering.lower(game.program, start, moves="spelled").program)
    runs, compiled, told = [], [], []
    real_logic, real_compile = lowering.lowered_logic, lowering.compile_game
    monkeypatch.setattr(lowering, "lowered_logic", lambda *a, **k: runs.append(1) or real_logic(*a, **k))
    monkeypatch.setattr(lowering, "compile_game", lambda *a, **k: compiled.append(max(told)) or real_compile(*a, **k))
    monkeypatch.setattr(lowering, "SPELLED_PARTS", 1_000)
    monkeypatch.setattr(lowering, "PARTS_PER_WAY", 1)
    lowered = lowering.lower(game.program, start, progress=lambda statements, parts: told.append(parts))
    assert not lowered.stats.get("moves compiled")
    assert to_kif(lowered.program) == spelled
    assert len(runs) == 1 and len(compiled) == 1 and compiled[0] > 1_000


def test_the_dry_run_chooses_as_the_lowering_does():
    """`to-gdl --dry-run` runs the spelled-out moves as the lowering does, and past the lowering's budget of parts
    of conditions (more than 100,000 here, counted, never timed) says that `auto` compiles them, as it does."""
    from click.testing import CliRunner
    from tgpl.cli import main

    r = CliRunner().invoke(main, ["to-gdl", str(SPELLED_COSTLY), "--dry-run"])
    assert r.exit_code == 0, r.output
    first = r.output.splitlines()[0]
    assert first.startswith(f"{SPELLED_COSTLY}: lowers; its moves compiled once (spelled out, the moves built "), first
    built = int(first.split("the moves built ")[1].split(" parts")[0].replace(",", ""))
    assert built > 100_000, first
