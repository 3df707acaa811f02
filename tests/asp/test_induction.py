"""Anchored checks made global where clingo proves it is the same game (tgpl.asp.induction, lower.globalize).

Connect Four's `MakesFour(c, r)` of the disc just dropped is the same as "some
window of four is full" on every reachable state, since the game ends at the
first one; the pairs game goes on after a pair, so its `MakesPair(c, r)` is not
"some pair exists", and the rewrite that would say so is refused. Forced, that
rewrite is a different game: the proof is what stands between the two.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lowering"))

from differential import Lowered, bisimulate, playout  # noqa: E402
from tgpl.asp.induction import same_game  # noqa: E402
from tgpl.asp.reasoner import GdlGame  # noqa: E402
from tgpl.lowering.emit import emit_gdl  # noqa: E402
from tgpl.lowering.ir import Program  # noqa: E402
from tgpl.lowering.lower import INVARIANT, lower  # noqa: E402
from tgpl.runtime.game import load_game  # noqa: E402
from tgpl.runtime.snapshot import snapshot  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PAIRS = ROOT / "tests" / "data" / "lowering" / "pairs.tgpl"


def _lowered(path: Path):
    game = load_game(path)
    return game, lower(game.program, snapshot(game.initial_state(0)), prove=same_game)


def test_connect_four_checks_any_window_of_four():
    game, lowered = _lowered(ROOT / "examples" / "connect4.tgpl")
    assert lowered.emitter.anywhere == {"MakesFour"}
    relations = lowered.program.relations()
    assert relations["makesfour"] == {0}  # one relation without arguments: "some window is full"
    lw = Lowered(game, lowered, GdlGame(lowered.program))
    rng = random.Random(5)
    for _ in range(30):
        playout(lw, rng)  # runtime and GDL agree step by step


def test_a_check_that_the_game_outlives_is_not_made_global():
    game, lowered = _lowered(PAIRS)
    emitter = lowered.emitter
    assert emitter.global_candidates() == {"MakesPair"}
    assert emitter.anywhere == frozenset()
    forced = emit_gdl(emitter.logic, None, emitter.global_checks(frozenset({"MakesPair"})))
    assert not same_game(lowered.program, forced.program, emitter.state_cells(),
                         forced.emitter.invariant_rules(INVARIANT))
    assert bisimulate(Lowered(game, lowered, GdlGame(lowered.program))).states > 1000
    with pytest.raises(AssertionError):  # the unproven rewrite is another game
        bisimulate(Lowered(game, forced, GdlGame(forced.program)))


def test_the_proof_finds_a_rewrite_that_breaks_the_first_state():
    """An `init` that differs is a counter-example too (the base case of the induction)."""
    game, lowered = _lowered(PAIRS)
    rules = [r for r in lowered.program.rules if r.head.relation != "init" or "lastpair" not in str(r)]
    assert len(rules) < len(lowered.program.rules)
    assert not same_game(lowered.program, Program(tuple(rules)), lowered.emitter.state_cells(), [])
    assert same_game(lowered.program, lowered.program, lowered.emitter.state_cells(), [])


def test_no_proof_within_the_budget_means_no_rewrite(monkeypatch):
    """The solver's budget is counted in conflicts, so the output is the same on every machine."""
    import tgpl.asp.induction as induction

    monkeypatch.setattr(induction, "CONFLICTS", 1)
    _, lowered = _lowered(ROOT / "examples" / "connect4.tgpl")
    assert lowered.emitter.anywhere == frozenset()
    assert "makesfour" in lowered.program.relations()


def test_a_relation_is_shared_only_with_what_it_reads():
    """`next` has the same rules in both programs, but reads `u`, which only the original defines: the
    rewritten game never moves on, and the proof must see it (were `next` shared, it would not)."""
    from tgpl.asp.kif import read_kif
    from tgpl.lowering.ir import Const, Func

    common = """
        (role a)
        (init (c 0))
        (<= (legal a noop) (true (c ?x)))
        (<= (next (c 1)) u)
        (<= (next (c 0)) (true (c 1)))
    """
    original = read_kif(common + "(<= u (true (c 0)))")
    rewritten = read_kif(common)
    cells = [([Func("c", (Const("0"),)), Func("c", (Const("1"),))], False)]
    assert same_game(original, original, cells, [])
    assert not same_game(original, rewritten, cells, [])


def test_to_gdl_says_which_checks_were_made_global():
    from click.testing import CliRunner

    from tgpl.cli import main

    r = CliRunner().invoke(main, ["to-gdl", str(ROOT / "examples" / "connect4.tgpl"), "--no-validate"])
    assert r.exit_code == 0, r.output
    assert "; Checks made global, proven the same game by induction: MakesFour." in r.output.splitlines()[:4]
    r = CliRunner().invoke(main, ["to-gdl", str(PAIRS), "--no-validate", "--stats"])
    assert r.exit_code == 0 and "checks made global" not in r.output


def test_the_invariant_may_read_tables_of_its_own_but_never_the_games_relations():
    """Five in a row's invariant is one rule over a table of the windows; its relations are the lowering's
    own (`tgpl_`: a game's relation of that name is renamed), and one the game defines is refused."""
    from tgpl.asp.kif import read_kif
    from tgpl.lowering.emit import Names
    from tgpl.lowering.ir import Const, Func

    assert Names().name(("function", "tgpl_bad"), "tgpl_bad") == "game_tgpl_bad"
    game = read_kif("""
        (role a)
        (init (c 0))
        (<= (legal a noop) (true (c ?x)))
        (<= (next (c 1)) (true (c 0)))
        (<= (next (c 1)) (true (c 1)))
    """)
    cells = [([Func("c", (Const("0"),)), Func("c", (Const("1"),))], False)]
    # "c 1 is bad", through a table: the game reaches it, and keeps no invariant
    bad = read_kif("(tgpl_bad_args 1) (<= tgpl_bad (tgpl_bad_args ?v) (true (c ?v)))").rules
    assert not same_game(game, game, cells, list(bad))
    never = read_kif("(tgpl_bad_args 2) (<= tgpl_bad (tgpl_bad_args ?v) (true (c ?v)))").rules
    assert same_game(game, game, cells, list(never))
    with pytest.raises(ValueError):
        same_game(game, game, cells, list(read_kif("(legal a noop) (<= tgpl_bad (true (c 1)))").rules))
