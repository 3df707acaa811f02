"""Kalah written as a designer would (tests/data/lowering/others/kalah.tgpl): pits are objects linked in a ring
and sowing is a `while (hand > 0)` loop over the seeds in hand, a count read from the state.

Its symbolic execution once built `hand - 1 - 1 - ...` pass after pass until hashing the value ran out of
Python's stack (then refused, "a value grew too deep"). A loop whose condition compares a number of the state
runs as many passes as that number's range allows: it is cut after `execute.LOOP_CUT_START` passes, the paths
cut there feed the ranges only (as a `new` past its pool), and once the ranges are known a state they hold that
meets a cut path's condition means the cut was too short: lowered again with twice the passes
(`segments.Lowering.check_loop_cuts`, `segments.lowered_logic`). Kalah's hands hold few seeds, and the game
lowers, bisimulated against the runtime (24 states)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tgpl.cli import main
from tgpl.lowering import execute, segments
from tgpl.lowering.universe import Universe
from tgpl.runtime.game import load_game
from tgpl.runtime.snapshot import snapshot
from tgpl.verify.runtime_machine import RuntimeMachine
from tgpl.verify.graph import explore
from to_gdl_runs import ToGdl, rules_with_a_body, to_gdl

KALAH = str(Path(__file__).resolve().parents[1] / "data" / "lowering" / "others" / "kalah.tgpl")


@pytest.fixture(scope="module")
def lowered(tmp_path_factory) -> ToGdl:
    return to_gdl(tmp_path_factory.mktemp("kalah"), Path(KALAH))


def test_the_runtime_plays_every_play_to_its_end():
    g = explore(RuntimeMachine(load_game(KALAH)), 1_000)
    assert g.complete and g.states == 24
    ends = [i for i in range(g.states) if g.terminal[i]]
    assert ends and all(sorted(g.goals[i]) in ([0, 100], [50, 50]) for i in ends)


def test_the_sowing_loop_lowers_and_bisimulates(lowered):
    """to-gdl validates before it writes: every one of the runtime's 24 states against the GDL's."""
    text = lowered.written()
    assert "; validated: bisimulation, 24 states" in text
    assert "(role " in text and "(<= terminal" in text


def test_no_rule_tests_what_another_test_of_its_body_implies(lowered):
    """A way that sowed k seeds tested `hand > 0` at each pass, `pit - 0 > 0` ... `pit - (k-1) > 0`: a rule keeps
    the last (tgpl.lowering.implied), and no body holds a comparison that another in it implies. 1,636 rules with
    the tests of every pass, 1,633 without."""
    assert rules_with_a_body(lowered.written()) <= 1_633


def test_the_rules_check_as_gdl(lowered):
    assert lowered.exit_code == 0, lowered.output
    r = CliRunner().invoke(main, ["check-gdl", str(lowered.out)])
    assert r.exit_code == 0, r.output
    assert r.output.strip().endswith(": ok"), r.output


def test_a_cut_too_short_is_found_by_the_ranges_and_lowered_again(monkeypatch):
    """With a cut of one pass, some state the ranges hold sows more seeds than that: the first lowering raises
    LoopCutShort at the loop, and the next ones double the cut until no state reaches it."""
    monkeypatch.setattr(execute, "LOOP_CUT_START", 1)
    game = load_game(KALAH)
    program = game.program
    tried: list[tuple[int, bool]] = []

    class Watched(segments.Lowering):
        def run(self):
            try:
                logic = super().run()
            except segments.LoopCutShort as e:
                assert (e.span.line, e.span.col) == (112, 13)
                tried.append((self.loop_cut, False))
                raise
            tried.append((self.loop_cut, True))
            return logic

    segments.lowered_logic(program, Universe.from_snapshot(snapshot(game.initial_state(0))),
                           lambda u: Watched(program, u))
    cuts = [c for c, _ in tried]
    assert tried[0] == (1, False) and tried[-1][1] and all(not ok for _, ok in tried[:-1])
    assert cuts == [2 ** k for k in range(len(cuts))]


def test_a_cut_the_last_ranges_show_short_is_not_ranged_again(monkeypatch):
    """Once a cut was too short, a longer cut whose cut paths the ranges it found already reach is raised short
    before its own ranges are searched (`Lowering.early_loop_cuts`). From a cut of one pass, only the first cut
    and the last are searched; the cuts tried, and the ranges found, are those the searches alone gave. (Paths
    past a cut go on where the shorter cut's ranges reach them, up to LOOP_CUT_AHEAD times the cut: at 1, every
    path past the cut is cut, as before that.)"""
    monkeypatch.setattr(execute, "LOOP_CUT_START", 1)
    monkeypatch.setattr(execute, "LOOP_CUT_AHEAD", 1)
    game = load_game(KALAH)
    program = game.program
    searched: list[int] = []
    tried: list[int] = []
    domains = segments.number_domains

    def counted(logic, lowering):
        searched.append(lowering.loop_cut)
        return domains(logic, lowering)

    class Watched(segments.Lowering):
        def run(self):
            tried.append(self.loop_cut)
            return super().run()

    monkeypatch.setattr(segments, "number_domains", counted)
    _, logic = segments.lowered_logic(program, Universe.from_snapshot(snapshot(game.initial_state(0))),
                                      lambda u: Watched(program, u))
    assert len(tried) >= 3 and tried == [2 ** k for k in range(len(tried))]
    assert searched == [tried[0], tried[-1]], (searched, tried)
    cuts = list(tried)
    monkeypatch.setattr(segments.Lowering, "early_loop_cuts", lambda self: None)
    searched.clear()
    tried.clear()
    _, alone = segments.lowered_logic(program, Universe.from_snapshot(snapshot(game.initial_state(0))),
                                      lambda u: Watched(program, u))
    assert searched == tried == cuts
    assert {k: fl.domain for k, fl in alone.fluents.items()} == {k: fl.domain for k, fl in logic.fluents.items()}


def test_the_dry_run_says_it_lowers():
    r = CliRunner().invoke(main, ["to-gdl", KALAH, "--dry-run"])
    assert r.exit_code == 0, r.output
    first = r.output.splitlines()[0]
    assert (": lowers; its moves spelled out one by one (a loop writes the state; compiled, refused: a loop that "
            "reads 'Seeds', which it writes, and is not a counted loop of at most 16 passes: write it as one") in first
    assert first.endswith("where no play needs more passes))"), r.output
    assert "ok  action    Seat.Sow" in r.output


SOW_ONE = str(Path(__file__).resolve().parents[1] / "data" / "lowering" / "sow_one.tgpl")


def test_the_cut_after_one_too_short_goes_as_far_as_its_ranges_need(monkeypatch):
    """Kalah 2x4x1 (tests/data/lowering/sow_one.tgpl): a hand holds up to 8 seeds, sown in up to 10 passes (the
    other side's store skipped). The cut at 4 passes is short; the next lowering, at 8, lets the paths that the
    first one's ranges reach go on past its cut (`Executor._past_cut`), and is the last: two lowerings, both
    searched, where the doubling alone lowered three times (4, 8 raised short before its search, 16). The paths
    it cut are those no state in its own ranges meets (`check_loop_cuts` passed), and the seeds keep 0..8."""
    game = load_game(SOW_ONE)
    program = game.program
    tried: list[int] = []
    searched: list[int] = []
    passes: list[int] = []
    domains = segments.number_domains
    past = execute.Executor._past_cut

    def counted(logic, lowering):
        searched.append(lowering.loop_cut)
        return domains(logic, lowering)

    def watched_cut(self, p, n):
        passes.append(n)
        return past(self, p, n)

    class Watched(segments.Lowering):
        def run(self):
            tried.append(self.loop_cut)
            return super().run()

    monkeypatch.setattr(segments, "number_domains", counted)
    monkeypatch.setattr(execute.Executor, "_past_cut", watched_cut)
    _, logic = segments.lowered_logic(program, Universe.from_snapshot(snapshot(game.initial_state(0))),
                                      lambda u: Watched(program, u))
    assert tried == searched == [execute.LOOP_CUT_START, 2 * execute.LOOP_CUT_START], (tried, searched)
    assert 9 <= max(passes) < 4 * execute.LOOP_CUT_START, max(passes)
    seeds = {k: fl.domain for k, fl in logic.fluents.items() if k[1] == "Seeds"}
    assert len(seeds) == 10 and all(list(d) == list(range(9)) for d in seeds.values()), seeds


@pytest.mark.parametrize("name", ["sow_one_for", "sow_one_ring"])
def test_the_sowing_spelled_otherwise_lowers_alike(tmp_path, name):
    """sow_one.tgpl's sowing as a designer may also write it: a counted `for (i = 0; i < hand; i += 1)` stepping
    through the board's `Next` (sow_one_for.tgpl), or a `while (hand > 0)` over an index into the ring of holes,
    `i = (i + 1) % 10` read through `RingAt(i)` (sow_one_ring.tgpl). Each is sow_one's game (the runtimes
    bisimulate), and each lowers through the same loop cuts, validated by bisimulation over all of its states."""
    other = str(Path(SOW_ONE).with_name(f"{name}.tgpl"))
    same = CliRunner().invoke(main, ["compare", SOW_ONE, other])
    assert same.exit_code == 0 and "equivalent" in same.output, same.output
    out = tmp_path / f"{name}.kif"
    r = CliRunner().invoke(main, ["to-gdl", other, "-o", str(out)])
    assert r.exit_code == 0, r.output
    states = explore(RuntimeMachine(load_game(other)), 10_000)
    assert states.complete
    assert f"; validated: bisimulation, {states.states:,} states" in out.read_text(encoding="utf-8")
