"""The repair of GDL's restrictions in two stages (tgpl.lowering.repair): the costly one, bind_recursion's
relaxation, only on the compilation of the moves that is kept.

tests/data/lowering/atari3.tgpl (Atari Go on 3 x 3) is compiled twice: its first compilation's rules hold a
negation cycle through a call's demand, seen once the loops are tables, and the game is compiled again with its
demands loosened (tests/lowering/test_demand_cycles.py). bind_recursion then runs on the second alone, the proof
that chooses between a compilation's two programs (tgpl.asp.covers) too, and the rules are those the repair done
whole on each compilation, with every proof asked, makes.
"""

from __future__ import annotations

from pathlib import Path

import tgpl.lowering.compiled as compiled_module
import tgpl.pipeline as pipeline
from tgpl.asp.recursion import bind_recursion
from tgpl.asp.static_loops import static_loops
from tgpl.asp.validate import negation_cycles
from tgpl.lowering.floods import with_floods
from tgpl.lowering.ir import Program
from tgpl.lowering.lower import lower
from tgpl.lowering.repair import StagedRepair
from tgpl.runtime.game import load_game
from tgpl.runtime.snapshot import snapshot

ATARI3 = Path(__file__).resolve().parents[1] / "data" / "lowering" / "atari3.tgpl"


def _counting(monkeypatch, module, name: str) -> list[int]:
    """`module.name` replaced by itself counting its calls (the list's length)."""
    calls: list[int] = []
    real = getattr(module, name)

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)
    monkeypatch.setattr(module, name, counted)
    return calls


def test_a_compilation_compiled_again_is_not_relaxed_nor_proved(monkeypatch):
    """lower_game's repair: each program looked at has its loops made tables, only the kept one's recursion
    bound. The first compilation's two programs (its move's calls read from the legal moves' instances or not)
    are both compiled again: the proof that would choose between them (tgpl.asp.covers) is asked of the kept
    compilation alone, whose first program is kept."""
    compilations = _counting(monkeypatch, compiled_module.CompiledGame, "lowered")
    emissions = _counting(monkeypatch, compiled_module.Emission, "lowered")
    proofs = _counting(monkeypatch, compiled_module, "covers")
    cheap = _counting(monkeypatch, pipeline, "static_loops")
    costly = _counting(monkeypatch, pipeline, "bind_recursion")
    lowered = pipeline.lower_game(load_game(str(ATARI3)), moves="compiled")
    assert len(compilations) == 2 and len(emissions) == 3 and len(cheap) == 3
    assert len(proofs) == 1 and len(costly) == 1
    assert not pipeline.gdl_errors(lowered.program)


def test_the_stages_make_the_rules_the_whole_repair_makes():
    """Staged or done whole on every compilation, the repair gives the same rules, in the same order."""
    game = load_game(str(ATARI3))
    program, start = with_floods(game.program, snapshot(game.initial_state(0)))  # as lower_game has it

    def whole(program: Program) -> Program:
        return bind_recursion(static_loops(program))
    staged = lower(program, start, moves="compiled", check=pipeline.gdl_errors,
                   repair=StagedRepair(static_loops, bind_recursion, negation_cycles))
    plain = lower(program, start, moves="compiled", check=pipeline.gdl_errors, repair=whole)
    assert staged.program.rules == plain.program.rules
    assert any(r.head.relation.startswith("tgpl_domain_") for r in plain.program.rules)  # bound where kept


def test_a_plain_repair_is_one_stage_and_both_stages_run_when_called():
    """A function given as the repair is all of it (nothing left for later), as is a costly stage without the
    cycles that would tell when to leave it; called, a StagedRepair runs both stages."""
    def mend(program: Program) -> Program:
        return program
    assert StagedRepair.of(mend) == StagedRepair(mend, None) and not StagedRepair.of(mend).spares
    staged = StagedRepair(mend, mend, negation_cycles)
    assert StagedRepair.of(staged) is staged and staged.spares
    assert not StagedRepair(mend, mend).spares  # nothing tells which compilations are compiled again
    done: list[str] = []

    def stage(name: str):
        def run(program: Program) -> Program:
            done.append(name)
            return program
        return run
    StagedRepair(stage("cheap"), stage("costly"))(Program(()))
    assert done == ["cheap", "costly"]


def test_the_compiled_lowering_is_collected_as_seldom_as_the_spelled_one(monkeypatch):
    """compile_game runs with the collector's first threshold raised (lower.fewer_collections), as the spelled-out
    lowering does, and the threshold is restored after it."""
    import gc

    import tgpl.lowering.lower as lower_module
    real, seen = lower_module.compile_game, []

    def recording(*args, **kwargs):
        seen.append(gc.get_threshold()[0])
        return real(*args, **kwargs)
    monkeypatch.setattr(lower_module, "compile_game", recording)
    game = load_game(str(ATARI3))
    program, start = with_floods(game.program, snapshot(game.initial_state(0)))
    before = gc.get_threshold()
    lower(program, start, moves="compiled", check=pipeline.gdl_errors,
          repair=StagedRepair(static_loops, bind_recursion, negation_cycles))
    assert seen and all(t >= lower_module.COLLECT_EVERY for t in seen)
    assert gc.get_threshold() == before
