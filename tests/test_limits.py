"""--max-seconds and --max-memory bound the whole command, lowering included (tgpl/limits.py, issue 34).

No test here depends on the machine's speed: the limits' clock is injected. `StageClock` keeps time still
until the command reaches a given stage, and jumps past the deadline at its n-th reading there, so each
command is stopped at a chosen stage and must say so with its documented exit status, write nothing and
show no traceback. `test_every_long_loop_checks` lowers Connect Four and counts the checks made by each
loop: a loop that stops checking (a planted fault) makes it fail.
"""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import tgpl.cli as cli
from tgpl.cli import main
from tgpl.limits import LimitReached, Limits

ROOT = Path(__file__).resolve().parents[1]
TRIS = str(ROOT / "examples" / "tris.tgpl")
CONNECT4 = str(ROOT / "examples" / "connect4.tgpl")
TTT = str(ROOT / "examples" / "gdl" / "tictactoe.kif")
TREASURE = str(ROOT / "examples" / "treasure.tgpl")
PIG = str(ROOT / "examples" / "pig.tgpl")  # dice: verify explores every roll with a chance machine
MONTY = str(ROOT / "examples" / "montyhall.tgpl")  # one player, a hidden car: the value knowing what it sees
INFECT = str(ROOT / "tests" / "data" / "lowering" / "infect.tgpl")  # its moves compiled
MB = 2**20


# ----------------------------------------------------------------- the object
def test_a_clock_that_advances_per_check_stops_at_the_deadline():
    ticks = itertools.count()
    limits = Limits(max_seconds=5, clock=lambda: float(next(ticks)))  # creation reads 0
    for _ in range(4):
        limits.check()  # 1, 2, 3, 4
    with pytest.raises(LimitReached) as e:
        with limits.during("lowering (emission)"):  # its entry's check reads 5: past the deadline
            pass
    assert e.value.what == "--max-seconds" and e.value.stage == "lowering (emission)"
    assert e.value.message == "stopped while lowering (emission) after 5.0 s (--max-seconds 5)"
    assert limits.stage == "starting" and limits.reached is e.value


def test_memory_past_the_cap_stops():
    limits = Limits(max_memory=100 * MB, clock=lambda: 0.0, memory=lambda: 150 * MB)
    stop = limits.stop()
    assert stop is not None and stop.what == "--max-memory"
    assert stop.message == "stopped while starting after 0.0 s (--max-memory 100 MB, 150 MB in use)"
    assert Limits(max_memory=100 * MB, clock=lambda: 0.0, memory=lambda: 50 * MB).stop() is None


def test_memory_freed_but_held_is_given_back_before_it_stops_anything():
    held = [150 * MB]
    released = []

    def release():
        released.append(True)
        held[0] = 60 * MB  # the heap's free pages given back

    limits = Limits(max_memory=100 * MB, clock=lambda: 0.0, memory=lambda: held[0], release=release)
    assert limits.stop() is None and released == [True]
    held[0] = 150 * MB
    stuck = Limits(max_memory=100 * MB, clock=lambda: 0.0, memory=lambda: held[0], release=lambda: None)
    assert stuck.stop() is not None  # still past the cap once released: stopped


def test_memory_elsewhere_counts_within_its_block():
    """`counting`: the memory of worker processes adds to this process's while they run, and only then."""
    ticks = itertools.count()
    limits = Limits(max_memory=100 * MB, clock=lambda: float(next(ticks)), memory=lambda: 60 * MB)
    assert limits.stop() is None
    with limits.counting(lambda: 50 * MB):
        stop = limits.stop()
        assert stop is not None and stop.what == "--max-memory" and stop.used == 110 * MB
    assert limits.stop() is None and not limits.elsewhere


def test_a_processs_private_memory_is_read():
    """tgpl.limits.private_memory: a process's own pages (this one's, here), none for a process that is gone."""
    import os

    from tgpl.limits import memory_in_use, private_memory

    own = private_memory(os.getpid())
    assert own is None or 0 < own <= (memory_in_use() or 0)
    assert private_memory(2**22 + 7) is None  # above Linux's largest process id


def test_releasing_free_memory_does_not_fail():
    from tgpl.limits import memory_in_use, release_free_memory

    big = [bytearray(1 << 20) for _ in range(64)]
    del big
    release_free_memory()
    assert memory_in_use() is None or memory_in_use() > 0


def test_a_step_that_cannot_be_interrupted_is_not_started_past_the_deadline():
    now = [0.0]
    limits = Limits(max_seconds=10, clock=lambda: now[0])
    now[0] = 7.0
    limits.expect(2.5)  # ends at 9.5: within
    with pytest.raises(LimitReached) as e:
        limits.expect(3.5)  # would end at 10.5
    assert e.value.foreseen == 3.5 and "would take about 3.5 s more" in e.value.message


def test_stopper_gives_the_reason_as_explore_and_the_searches_name_it():
    limits = Limits(max_seconds=1, clock=lambda: 0.0)
    assert limits.stopper()() is None
    limits.deadline = -1.0
    assert limits.stopper()() == "stopped after 1 seconds (--max-seconds)"
    assert limits.stopper("cap")() == "the time limit (1 s, --max-seconds)"


def test_without_limits_nothing_is_read():
    reads = []
    limits = Limits(clock=lambda: reads.append(1) or 0.0, memory=lambda: reads.append(2) or 0)
    for _ in range(10):
        limits.check()
    assert reads == [1] and limits.checks == 10  # the creation's reading only


# ----------------------------------------------------------------- the commands
class StageClock:
    """Time stands still until the command's stage starts with `stage`; at the `after`-th reading there (1: the
    first) it jumps past the deadline, and stays there."""

    def __init__(self, stage: str, after: int = 1):
        self.stage, self.after = stage, after
        self.limits: Limits | None = None
        self.readings = 0
        self.tripped = False

    def __call__(self) -> float:
        lim = self.limits
        if lim is None or lim.max_seconds is None:  # the creation's reading
            return 0.0
        if not self.tripped and lim.stage.startswith(self.stage):
            self.readings += 1
            self.tripped = self.readings >= self.after
        return lim.max_seconds + 0.5 if self.tripped else 0.0


@pytest.fixture
def clock(monkeypatch):
    """`clock(stage, after)`: every Limits the commands make reads a StageClock."""
    def install(stage: str, after: int = 1) -> StageClock:
        c = StageClock(stage, after)

        def limits(max_seconds, max_memory):
            c.limits = Limits(max_seconds, cli._max_memory(max_memory), clock=c)
            return c.limits

        monkeypatch.setattr(cli, "_limits", limits)
        return c
    return install


def run(*args: str):
    result = CliRunner().invoke(main, list(args))
    assert not isinstance(result.exception, LimitReached) and "Traceback" not in result.output, result.output
    return result


def nothing_written(folder: Path) -> bool:
    return not any(folder.iterdir())  # neither the output nor the temporary file it is written through


# the repairs (static loops, recursion bounds) run `outside`, named since a stop there said "stopped while starting"
LOWERING = ["lowering (symbolic execution)", "lowering (ranges)", "lowering (emission)",
            "lowering (generalisation)", "lowering (static fold)", "lowering (static loops)",
            "lowering (recursion bounds)"]


@pytest.mark.parametrize("stage", ["loading the game", "setting up", *LOWERING, "checking the GDL",
                                   "validating against the runtime", "writing the GDL"])
def test_to_gdl_stops_at_each_stage_and_writes_nothing(stage, clock, tmp_path):
    clock(stage)
    out = tmp_path / "tris.kif"
    r = run("to-gdl", TRIS, "-o", str(out), "--max-seconds", "20")
    assert r.exit_code == 2
    assert f"{TRIS}: error: stopped while {stage} after 20.5 s (--max-seconds 20): nothing written" in r.output
    assert nothing_written(tmp_path)


def test_to_gdl_within_its_limits_writes(clock, tmp_path):
    clock("no such stage")
    out = tmp_path / "tris.kif"
    assert run("to-gdl", TRIS, "-o", str(out), "--max-seconds", "20").exit_code == 0
    assert out.exists()


def test_a_stop_inside_the_symbolic_execution_says_where_it_was(clock, tmp_path):
    clock("lowering (symbolic execution)", after=50)  # well inside it: a statement's check
    r = run("to-gdl", TRIS, "-o", str(tmp_path / "t.kif"), "--max-seconds", "20")
    assert r.exit_code == 2 and "stopped while lowering (symbolic execution)" in r.output
    assert "  the lowering was running" in r.output and "tris.tgpl:" in r.output.splitlines()[-1]
    assert nothing_written(tmp_path)


def test_a_stop_while_the_moves_are_spelled_out_says_why_they_were_not_compiled(clock, tmp_path):
    """Kalah's sowing loop writes the state, so `auto` compiles its moves first; compiled, they are refused at
    once (the loop reads the seeds it sows), and then spelled out. A stop there names the stage the time ran out
    in, and the cause a designer can act on: why the moves were not compiled, located."""
    kalah = ROOT / "tests" / "data" / "designers" / "kalah.tgpl"
    clock("lowering (symbolic execution)", after=50)
    r = run("to-gdl", str(kalah), "-o", str(tmp_path / "k.kif"), "--max-seconds", "20")
    assert r.exit_code == 2 and "stopped while lowering (symbolic execution)" in r.output, r.output
    last = r.output.splitlines()[-1]
    assert last.startswith("  the moves were being spelled out: compiled, they were refused at "), r.output
    assert last.endswith("kalah.tgpl:120:13: a loop that reads 'Seeds', which it writes, and is not a counted "
                         "loop of at most 16 passes: write it as one, its condition tested in each pass (`for "
                         "(number k = 0; k < 16; k += 1) { if (C) { ... } }`, C the loop's condition, where no play "
                         "needs more passes)"), r.output
    assert nothing_written(tmp_path)


def test_a_stop_while_spelling_out_moves_never_compiled_has_no_such_note(clock, tmp_path):
    clock("lowering (symbolic execution)", after=50)
    r = run("to-gdl", TRIS, "-o", str(tmp_path / "t.kif"), "--max-seconds", "20")
    assert r.exit_code == 2 and "compiled" not in r.output, r.output


@pytest.mark.parametrize("stage", ["lowering (emission)", "encoding the ASP program",
                                   "validating against the runtime"])
def test_to_asp_stops_at_each_stage_and_writes_nothing(stage, clock, tmp_path):
    clock(stage)
    r = run("to-asp", TRIS, "-o", str(tmp_path / "tris.lp"), "--max-seconds", "20")
    assert r.exit_code == 2 and f"stopped while {stage}" in r.output and "nothing written" in r.output
    assert nothing_written(tmp_path)


def test_to_asp_of_gdl_stops_while_reading_it(clock, tmp_path):
    clock("reading the GDL")
    r = run("to-asp", TTT, "-o", str(tmp_path / "ttt.lp"), "--max-seconds", "20")
    assert r.exit_code == 2 and "stopped while reading the GDL" in r.output and nothing_written(tmp_path)


QUERY = "GameState.TickedCount == 5"  # five marks: after 5 moves


@pytest.mark.parametrize("stage", ["loading the game", *LOWERING, "lowering (symbolic execution of the query)",
                                   "grounding the game's first state", "searching the plays of 0 moves"])
def test_query_stopped_before_searching_exits_2_naming_the_stage(stage, clock):
    clock(stage)
    r = run("query", TRIS, QUERY, "--max-seconds", "20")
    assert r.exit_code == 2 and f"{TRIS}: error: stopped while {stage} after 20.5 s (--max-seconds 20)" in r.output


@pytest.mark.parametrize("stage, searched", [("grounding the plays of 3 moves", 2),
                                             ("searching the plays of 3 moves", 2)])
def test_query_stopped_while_searching_is_not_reachable_within_the_limits(stage, searched, clock):
    clock(stage)
    r = run("query", TRIS, QUERY, "--max-seconds", "20")
    assert r.exit_code == 1
    assert f"not reachable within {searched} moves, as far as the limits let it search (stopped while {stage}" \
           in r.output
    clock(stage)
    answer = json.loads(run("query", TRIS, QUERY, "--max-seconds", "20", "--json").output)
    assert not answer["found"] and answer["searched"] == searched and stage in answer["stopped"]


@pytest.mark.parametrize("stage, after, status, searched", [
    ("estimating the plays within the horizon", 1, 2, None),
    ("the dry run of the lowering", 1, 2, None),
    ("searching state by state", 1, 2, None),  # its first check is before the initial state is asked about
    ("searching state by state", 12, 1, 1),  # the initial state and the 9 after one move asked about
])
def test_query_searched_state_by_state_stops_at_each_stage(stage, after, status, searched, clock):
    clock(stage, after)
    r = run("query", TRIS, QUERY, "--horizon", "3", "--max-seconds", "20", "--json")
    assert r.exit_code == status, r.output
    if status == 2:
        assert f"{TRIS}: error: stopped while {stage} after 20.5 s (--max-seconds 20)" in r.output
        return
    answer = json.loads(r.stdout)
    assert answer["method"] == "states" and not answer["found"] and answer["searched"] == searched
    assert f"stopped while {stage}" in answer["stopped"]


def test_query_past_its_memory_stops(monkeypatch):
    monkeypatch.setattr(cli, "_limits", lambda max_seconds, max_memory: Limits(
        max_seconds, cli._max_memory(max_memory), clock=lambda: 0.0, memory=lambda: 10**12))
    r = run("query", TRIS, QUERY, "--max-memory", "64")
    assert r.exit_code == 2 and "(--max-memory 64 MB, 953,674 MB in use)" in r.output


def test_verify_gives_its_partial_report_past_the_limit(clock):
    clock("exploring", after=30)
    r = run("verify", TRIS, "--max-seconds", "20")
    assert r.exit_code == 0 and "INCOMPLETE" in r.output
    assert "stopped at the time limit (20 s, --max-seconds)" in r.output


def test_verify_stopped_while_lowering_has_no_report(clock):
    clock("lowering (emission)")
    r = run("verify", TRIS, "--engine", "clingo", "--max-seconds", "20")
    assert r.exit_code == 2 and "stopped while lowering (emission)" in r.output and "INCOMPLETE" not in r.output


def test_bounded_verify_gives_its_partial_report_past_the_limit(clock):
    clock("searching the plays of 3 moves")
    r = run("verify", TRIS, "--horizon", "6", "--max-seconds", "20")
    assert r.exit_code == 0, r.output
    assert "stopped after 20 seconds (--max-seconds): only the plays of up to 2 moves were searched" in r.output


def _trip_at_draws(monkeypatch, clock, at: int, stage: str = "") -> list[str]:
    """The clock jumps past the deadline as the chance machine starts the `at`-th enumeration of a move's (or
    setup's) draws made at a stage starting with `stage`, before its first run: what stops it then can only be the
    chance machine's own check. Gives the stage of every enumeration started."""
    from tgpl.verify.chance_machine import ChanceMachine

    c = clock("no such stage")
    started: list[str] = []
    real = ChanceMachine._enumerate

    def enumerate_draws(self, run, prefix=()):
        started.append(c.limits.stage)
        if sum(s.startswith(stage) for s in started) == at:
            c.tripped = True
        return real(self, run, prefix)

    monkeypatch.setattr(ChanceMachine, "_enumerate", enumerate_draws)
    return started


def test_verify_stopped_inside_a_moves_draws_gives_its_partial_report(clock, monkeypatch):
    """Pig's chance machine enumerates setup's draws (the first enumeration), then the first state's roll, whose
    chance node expands to no enumeration, then its outcomes' moves: the fourth enumeration is inside one of
    those states. The stop comes at its first run, the report is partial, and nothing is enumerated after it
    (without the machine's own check, the exploration went on to the end of that state: five)."""
    started = _trip_at_draws(monkeypatch, clock, at=4)
    r = run("verify", PIG, "--max-seconds", "20")
    assert r.exit_code == 0 and "INCOMPLETE" in r.output, r.output
    assert "stopped at the time limit (20 s, --max-seconds)" in r.output
    assert len(started) == 4


def test_verify_stopped_inside_a_moves_draws_reports_it_in_json(clock, monkeypatch):
    _trip_at_draws(monkeypatch, clock, at=4)
    rep = json.loads(run("verify", PIG, "--max-seconds", "20", "--json").output)
    assert rep["complete"] is False and rep["stopped"] == "the time limit (20 s, --max-seconds)"
    assert rep["states"] >= 1 and rep["chance"]["mode"] == "outcomes"


def test_verify_stopped_while_the_chance_machine_makes_the_first_state_has_no_report(clock, monkeypatch):
    """The first enumeration is setup's: no state is explored, so no report; exit 2, naming the stage."""
    started = _trip_at_draws(monkeypatch, clock, at=1)
    r = run("verify", PIG, "--max-seconds", "20")
    assert r.exit_code == 2, r.output
    assert "pig.tgpl: error: stopped while exploring after" in r.output and "INCOMPLETE" not in r.output
    assert len(started) == 1


def test_verify_stopped_inside_the_draws_of_the_value_it_sees_says_so(clock, monkeypatch):
    """Monty Hall's value knowing only what the player sees plays the game again with a chance machine of its
    own: stopped at its first enumeration (setup's), the value is not computed and the report says why; the
    rest of the report stands, exit 0."""
    stage = "the value knowing only what the player sees"
    started = _trip_at_draws(monkeypatch, clock, at=1, stage=stage)
    r = run("verify", MONTY, "--max-seconds", "20")
    assert r.exit_code == 0, r.output
    assert ("value knowing only what each sees: not computed (stopped by the time limit (20 s, --max-seconds))"
            in r.output), r.output
    assert sum(s == stage for s in started) == 1


@pytest.mark.parametrize("stage", ["loading the game", "exploring A", "loading the GDL", "exploring B",
                                   "comparing (bisimulation)"])
def test_compare_stops_at_each_stage(stage, clock):
    clock(stage)
    r = run("compare", TRIS, TTT, "--max-seconds", "20")
    assert r.exit_code == 2 and f"compare: error: stopped while {stage}" in r.output
    assert "equivalent" not in r.output


def test_compare_stops_while_a_chance_machine_builds_its_first_state(clock, monkeypatch):
    """Treasure's first state for compare is a tree of setup's deals, built at once (a minute of setup runs, with
    no check before): the clock jumps past the deadline at the second reading while exploring A (the first is
    the stage's entry), and the stop comes at the tree's first node, not after the tree."""
    from tgpl.verify.chance_machine import ChanceMachine

    nodes = []
    built = ChanceMachine._setup_dealt
    monkeypatch.setattr(ChanceMachine, "_setup_dealt", lambda self, draws: nodes.append(draws) or built(self, draws))
    clock("exploring A", after=2)
    r = run("compare", TREASURE, TREASURE, "--max-seconds", "20")
    assert r.exit_code == 2 and "compare: error: stopped while exploring A" in r.output
    assert len(nodes) == 1


def test_compare_within_its_limits_compares(clock):
    clock("no such stage")
    assert run("compare", TRIS, TTT, "--max-seconds", "20").exit_code == 0


# ----------------------------------------------------------------- where the checks are
def _sites(limits: Limits) -> dict[str, int]:
    """Counts the checks of `limits` by the function of the loop that made each (the first caller outside
    tgpl/limits.py and the helpers that wrap a check)."""
    sites: dict[str, int] = {}

    def on_check(_):
        f = sys._getframe(1)
        while f.f_globals.get("__name__") in ("tgpl.limits", "contextlib") or f.f_code.co_name in ("checked",):
            f = f.f_back
        key = f"{f.f_globals['__name__'].rsplit('.', 1)[-1]}.{f.f_code.co_name}"
        sites[key] = sites.get(key, 0) + 1
    limits.on_check = on_check
    return sites


def test_every_long_loop_checks():
    """The checks each loop of the lowering makes on Connect Four (counted: the lowering is deterministic), at
    least about a quarter of what they make today; a loop that stops checking drops its count to nothing or to
    the checks of its outer loop."""
    from tgpl.pipeline import lower_game

    game = cli._load_game(CONNECT4)
    limits = Limits(max_seconds=1e9, clock=lambda: 0.0)
    sites = _sites(limits)
    lower_game(game, 0, global_checks=False, limits=limits)
    least = {
        "execute.stmt": 2000,  # each statement run on a path (7,948)
        "execute.merge": 300,  # each merge of paths (1,348)
        "segments.run": 2,  # each control state (3)
        "segments._segment": 5,  # each move of a control state (14)
        "segments._joint_search": 10,  # each state of the counters' joint search (44)
        "minimize._prime_implicants": 1,  # every 2,048 pairs of terms of the consensus (4)
        "minimize._spread": 200,  # each disjunction multiplied out (828)
        "emit._build": 10,  # each legal move and path emitted (40)
        "emit.write_conditions": 4,  # each fluent value's conditions (14)
        "emit.prop": 5,  # each condition named (22)
        "generalize.generalize": 2,  # every 256 rules (7)
        "generalize.fold": 1,  # every 256 rules (5)
        "generalize.fold_group": 17,  # each group folded, in the two groupings (70)
        "generalize.merge_relations": 3,  # every 256 definitions and each group merged (14)
    }
    low = {k: (sites.get(k, 0), n) for k, n in least.items() if sites.get(k, 0) < n}
    assert not low, f"loops that check the limits less than they should (made, least): {low}"


def test_the_compiled_moves_check_too():
    from tgpl.pipeline import lower_game

    game = cli._load_game(str(ROOT / "tests" / "data" / "lowering" / "shifts.tgpl"))
    limits = Limits(max_seconds=1e9, clock=lambda: 0.0)
    sites = _sites(limits)
    assert lower_game(game, 0, moves="compiled", limits=limits).stats["moves compiled"] == "yes"
    assert {"compiled.compile_game", "compiled.relaxed_input", "compiled.grounded",
            "compiled._shared_renaming"} <= set(sites)
    # the relaxation's fixpoints check at each pass (Oware's sowing: 21 passes over 449 rules, 8 s of a loaded
    # machine's wall time past --max-seconds 10 without a check): here 3 passes of the slice, 4 of `_without`
    assert sites.get("horn._numeric_slice", 0) >= 3 and sites.get("compiled._without", 0) >= 4
    # a counted loop spelled out pass by pass checks at every pass (a segment's compile is no single step)
    game = cli._load_game(str(ROOT / "tests" / "data" / "lowering" / "fade_read.tgpl"))
    sites = _sites(limits)
    assert lower_game(game, 0, moves="compiled", limits=limits).stats["moves compiled"] == "yes"
    assert sites.get("compiled.unrolled", 0) >= 8


def test_the_compiled_moves_check_after_the_relaxation_too():
    """Past the relaxation, the compiled moves ran with no check: the question whether the initial state ends the
    game (clingo, Fanorona: 6 s of CPU, 33 s of a loaded machine's wall time past --max-seconds 60) and the passes
    that finish the rules (the unfolding's bounds, the keyed walks and the fold, which had no limits: Checkers, 3 s
    of CPU; Reversi's walks, 1 s). Flank asks the initial state (`ends_initially`: a check, and `outside`'s two, at
    each attempt), bounds its rules, keys its walks (a check per relation looked at) and folds."""
    from tgpl.pipeline import lower_game

    game = cli._load_game(str(ROOT / "tests" / "data" / "lowering" / "flank.tgpl"))
    limits = Limits(max_seconds=1e9, clock=lambda: 0.0)
    sites = _sites(limits)
    assert lower_game(game, 0, moves="compiled", limits=limits).stats["moves compiled"] == "yes"
    # rule_bounds checks before each rule it bounds (43 here: the unfolding bounds only the rules it compares)
    least = {"compiled.ends_initially": 3, "compiled._finished": 3, "estimate.rule_bounds": 10,
             "keyed_walks.key_walks": 25, "generalize.fold": 5}
    low = {k: (sites.get(k, 0), n) for k, n in least.items() if sites.get(k, 0) < n}
    assert not low, f"sites that check the limits less than they should (made, least): {low}"


def test_the_bound_of_the_grounding_checks_at_each_rule(clock):
    """verify --horizon and query bound the lowered game's ground instances (estimate.too_large) a rule's join at
    a time, which ran unchecked (Checkers 6x6: 1.3 s of CPU, 16 s of a loaded machine's wall time): checked at
    each rule with a body, in a stage of its own, and a stop there says so, exit 2 before any search."""
    from tgpl.asp.estimate import MAX_GROUND, too_large
    from tgpl.pipeline import lower_game

    program = lower_game(cli._load_game(TRIS), 0).program
    limits = Limits(max_seconds=1e9, clock=lambda: 0.0)
    sites = _sites(limits)
    assert too_large(program, MAX_GROUND, check=limits.check) == []
    assert sites.get("estimate.rule_bounds", 0) == sum(1 for r in program.rules if r.body) > 10
    clock(cli.ESTIMATING)
    r = run("verify", TRIS, "--horizon", "3", "--max-seconds", "20")
    assert r.exit_code == 2 and f"{TRIS}: error: stopped while {cli.ESTIMATING} after 20.5 s" in r.output, r.output


def test_the_lowering_stops_at_the_first_check_past_the_deadline():
    """A clock that advances one second per reading: the lowering stops at its 30th check (the 30th second),
    not later."""
    from tgpl.pipeline import lower_game

    game = cli._load_game(TRIS)
    ticks = itertools.count()
    limits = Limits(max_seconds=30, clock=lambda: float(next(ticks)))
    with pytest.raises(LimitReached) as e:
        lower_game(game, 0, limits=limits)
    assert limits.checks == 30 and e.value.elapsed == 30.0 and e.value.stage.startswith("lowering")


def test_a_solve_is_interrupted_once_past_the_limits(monkeypatch):
    """clingo solves in its background thread while the limits are checked every SOLVE_POLL seconds: past them,
    the solve is cancelled and LimitReached raised (a fake solve handle that never finishes stands for a
    hard question)."""
    from tgpl.asp.bounded import BoundedSearch
    from tgpl.asp.reasoner import read_gdl

    program, _ = read_gdl(TTT, None)
    now = [0.0]
    search = BoundedSearch(program, limits=Limits(max_seconds=10, clock=lambda: now[0]))
    events = []

    class Handle:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            events.append("closed")

        def wait(self, timeout):
            events.append("wait")
            now[0] += 4.0  # a long solve: the deadline passes during the third wait
            return False

        def cancel(self):
            events.append("cancel")

        def get(self):
            raise AssertionError("a cancelled solve is not waited for")

    monkeypatch.setattr(search, "_ctl", type("Ctl", (), {"solve": lambda self, **kw: Handle()})())
    with pytest.raises(LimitReached):
        search.ask("gdl_stuck")
    assert events == ["wait", "wait", "wait", "cancel", "closed"]


def test_the_asp_replay_of_to_asp_runs_under_the_commands_limits():
    """`tgpl to-asp` replays plays on its time-indexed encoding, grounded once for the longest: a grounding and a
    first solve clingo cannot interrupt (Jungle-lite's, 40 steps: 34 s to 1.8 GB, then 41 s to 6.3 GB), which ran
    without the command's limits, so `to-asp --max-memory 3000` used 6.6 GB and wrote its file (exit 0). Now the
    replay is the command's work: within the limits it replays as before; past them (a clock read per check, no
    timing involved) LimitReached, before anything is grounded."""
    import random

    from tgpl.asp.asp_emit import encode_asp
    from tgpl.pipeline import lower_game
    from tgpl.runtime.game import load_game
    from tgpl.validation import Differential, _asp_replay

    game = load_game(TRIS)
    lowered = lower_game(game, 0, global_checks=False)
    d = Differential(game, lowered, 0)
    plays = [d.playout(random.Random(k), 20) for k in range(2)]
    encoding = encode_asp(lowered.program)
    now = [0.0]
    limits = Limits(max_seconds=10, clock=lambda: now[0])
    mismatch, replays, steps = _asp_replay(d, encoding, plays, limits)
    assert mismatch is None and replays == 2 and steps == sum(len(p.steps) for p in plays)
    now[0] = 11.0
    with pytest.raises(LimitReached) as e:
        _asp_replay(d, encoding, plays, limits)
    assert e.value.what == "--max-seconds"


# ----------------------------------------------------------------- what clingo cannot interrupt
def test_a_call_clingo_cannot_interrupt_is_left_behind_past_the_limits():
    """A grounding (here: work that waits until the test lets it go) runs in a thread of its own; the limits are
    checked while it runs, and past them LimitReached is raised at once, the work left behind and its Control
    refused afterwards (tgpl.asp.interrupt). A clock that advances per reading: no timing involved."""
    import threading

    import clingo

    from tgpl.asp.interrupt import Abandoned, abandoned, interruptible

    ticks = itertools.count()
    limits = Limits(max_seconds=5, clock=lambda: float(next(ticks)))
    ctl = clingo.Control()
    release = threading.Event()
    before = abandoned()
    with pytest.raises(LimitReached):
        interruptible(ctl, lambda: release.wait(60), limits)
    assert abandoned() == before + 1  # still grounding, as far as it knows
    with pytest.raises(Abandoned):
        interruptible(ctl, lambda: None, limits)
    release.set()
    ok = Limits(max_seconds=1e9, clock=lambda: 0.0)
    assert interruptible(clingo.Control(), lambda: 42, ok) == 42
    with pytest.raises(ZeroDivisionError):  # an error of the work is raised as the work would raise it
        interruptible(clingo.Control(), lambda: 1 / 0, ok)


def test_a_solve_whose_preparation_does_not_end_is_stopped(monkeypatch):
    """clingo prepares a solve (the step's ground program made ready) before its search starts, and cannot cancel
    that: a preparation that never ends (a fake solve that blocks) is left behind past the limits."""
    import threading

    from tgpl.asp.bounded import BoundedSearch
    from tgpl.asp.reasoner import read_gdl

    program, _ = read_gdl(TTT, None)
    ticks = itertools.count()
    search = BoundedSearch(program, limits=Limits(max_seconds=10, clock=lambda: 0.0))
    search.limits = Limits(max_seconds=10, clock=lambda: float(next(ticks)))
    release = threading.Event()
    monkeypatch.setattr(search, "_ctl", type("Ctl", (), {"solve": lambda self, **kw: release.wait(60)})())
    with pytest.raises(LimitReached):
        search.ask("gdl_stuck")
    release.set()


def test_the_bounded_search_grounds_under_the_limits(monkeypatch):
    """Every grounding and parsing of the bounded search goes through tgpl.asp.interrupt, and the encoding checks
    the limits at each rule (counted: a step that stopped checking drops its count)."""
    import tgpl.asp.bounded as bounded
    import tgpl.asp.interrupt as interrupt
    from tgpl.asp.reasoner import read_gdl

    calls = []
    real = interrupt.interruptible

    def counted(ctl, work, limits):
        calls.append(1)
        return real(ctl, work, limits)
    monkeypatch.setattr(bounded, "interruptible", counted)
    monkeypatch.setattr(interrupt, "interruptible", counted)
    program, _ = read_gdl(TTT, None)
    limits = Limits(max_seconds=1e9, clock=lambda: 0.0)
    sites = _sites(limits)
    search = bounded.BoundedSearch(program, limits=limits)
    search.ask("gdl_stuck")
    search.extend()
    assert len(calls) == 4  # the program added, the base grounded, a solve prepared, a step grounded
    assert sites.get("asp_emit._groups", 0) >= len(program.rules)


def test_a_table_join_checks_and_keeps_tables_that_multiply():
    """A folded rule's table is joined away row by row (the rules the fold started from), checking the limits every
    CHECK_EVERY rows; two tables side by side that would multiply into their product stay as they are."""
    from tgpl.asp.tables import CHECK_EVERY, join_tables, table_relations
    from tgpl.lowering.ir import Atom, Const, Program, Rule, Var

    x, y, z, w = Var("x"), Var("y"), Var("z"), Var("w")
    rows = 3 * CHECK_EVERY
    facts = [Rule(Atom("fold", (Const(str(i)), Const(str(i + 1))))) for i in range(rows)]
    facts += [Rule(Atom("less", (Const(str(i)), Const(str(j))))) for i in range(60) for j in range(i + 1, 60)]
    folded = Rule(Atom("h"), (Atom("fold", (x, y)), Atom("true", (x,)), Atom("true", (y,))))
    product = Rule(Atom("h"), (Atom("less", (x, y)), Atom("less", (z, w)), Atom("true", (x,)), Atom("true", (z,))))
    tables = table_relations(Program(tuple(facts + [folded, product])))
    checks = []
    assert len(join_tables(folded, tables, lambda: checks.append(1))) == rows
    assert len(checks) == rows // CHECK_EVERY
    assert join_tables(product, tables) == [product]


@pytest.mark.parametrize("stage, status", [("lowering (compiled moves)", 2), ("grounding the game's first state", 2),
                                           ("grounding the plays of 2 moves", 1),
                                           ("searching the plays of 2 moves", 1)])
def test_query_of_a_game_with_compiled_moves_stops_at_each_stage(stage, status, clock):
    clock(stage)
    r = run("query", INFECT, "GameState.Placed == 3", "--max-seconds", "20", "--max-states", "1")  # by clingo
    assert r.exit_code == status and f"stopped while {stage} after 20.5 s (--max-seconds 20)" in r.output


def test_the_tgpl_program_counts_from_the_process_start(monkeypatch):
    """Run as the `tgpl` program, a command's limits count the seconds before they were made (Python's start, the
    imports: seconds on a busy machine); a caller of `main` (these tests) counts from the command's start."""
    import tgpl.limits

    now = [100.0]
    limits = Limits(max_seconds=20, clock=lambda: now[0]).backdate(7.0)
    assert limits.elapsed() == 7.0 and limits.remaining() == 13.0
    now[0] = 113.0
    with pytest.raises(LimitReached) as e:
        limits.check()
    assert e.value.elapsed == 20.0
    monkeypatch.setattr(tgpl.limits, "process_age", lambda: 7.0)
    with click.Context(cli.main, obj=cli._Program()):
        assert 7.0 <= cli._limits(20, None).elapsed() < 8.0
    with click.Context(cli.main):
        assert cli._limits(20, None).elapsed() < 1.0
    assert cli._limits(20, None).elapsed() < 1.0


def test_a_command_after_the_program_ran_in_this_process_counts_from_its_own_start(monkeypatch):
    """`run` once in a process (as a test does) must not make later commands count from the process's start:
    the suite's CI failed 52 tests that way, each 'stopped while loading the game after 1501 s'."""
    import tgpl.limits

    monkeypatch.setattr(tgpl.limits, "process_age", lambda: 10**6)
    monkeypatch.setattr(cli.os, "_exit", lambda code: None)
    monkeypatch.setattr(sys, "argv", ["tgpl", "check", TRIS])
    cli.run()
    seen = []
    monkeypatch.setattr(cli, "_limits", lambda *a, _made=cli._limits: seen.append(_made(*a)) or seen[-1])
    r = run("query", TRIS, QUERY, "--max-seconds", "600")
    assert seen and seen[0].elapsed() < 600 and "stopped" not in r.output, r.output
    assert 0.0 < tgpl.limits.process_age() < 10**7  # this process's own age, read from /proc


def test_compare_stops_while_a_gdl_game_grounds(clock, monkeypatch):
    """A .kif game grounded once (within --max-ground, yet seconds long) grounds in a thread of its own: a grounding
    that does not end (here: one that waits for the test) is left behind past the limits, the stage named."""
    import threading

    from tgpl.asp.reasoner import GdlGame

    from tgpl.asp.interrupt import abandoned

    release = threading.Event()
    grounding = []
    monkeypatch.setattr(GdlGame, "initial_state", lambda self: grounding.append(1) or release.wait(60))
    clock("loading the GDL", after=5)  # its entry, the check after reading, the one before grounding, two polls
    before = abandoned()
    r = run("compare", TRIS, TTT, "--max-seconds", "20")
    left = abandoned() - before  # the grounding still under way when the command ended
    release.set()
    assert grounding and left == 1
    assert r.exit_code == 2 and "compare: error: stopped while loading the GDL" in r.output


def test_the_environment_sets_the_default_time_limit_and_the_option_wins(monkeypatch, tmp_path):
    """TGPL_MAX_SECONDS (decision 110) is --max-seconds's default: the suite runs with `inf` (tests/conftest.py);
    a tiny one stops the command at once, naming the value, and --max-seconds on the command line wins."""
    out = tmp_path / "tris.kif"
    monkeypatch.setenv(cli.MAX_SECONDS_VAR, "0.001")
    r = run("to-gdl", TRIS, "-o", str(out))
    assert r.exit_code == 2 and "(--max-seconds 0.001): nothing written" in r.output, r.output
    assert nothing_written(tmp_path)
    assert run("to-gdl", TRIS, "-o", str(out), "--max-seconds", "600").exit_code == 0 and out.exists()
    monkeypatch.setenv(cli.MAX_SECONDS_VAR, "soon")
    r = run("verify", TRIS)
    assert r.exit_code == 2 and "TGPL_MAX_SECONDS" in r.output, r.output


def test_to_gdl_stops_while_the_check_of_the_gdl_grounds(clock, monkeypatch, tmp_path):
    """The check of the GDL before it is written grounds the relaxed game of a game played one state at a time,
    which clingo cannot interrupt: it runs `outside`, left behind past the limits. It ran in the command's own
    thread, so `tgpl to-gdl --moves compiled --max-seconds 600` of tests/data/designers/fanorona5_counted.tgpl was
    still grounding there 1,380 s after it started (on a loaded machine; the traceback in
    `asp.relaxed.relaxed_model`). Here a check that blocks until released."""
    import threading

    import tgpl.pipeline as pipeline

    release, finished = threading.Event(), []

    def blocked(program, grounding, path="<gdl>"):
        release.wait(30)
        finished.append(True)
        return []
    monkeypatch.setattr(pipeline, "written_gdl_errors", blocked)
    clock("checking the GDL", after=2)  # past the deadline at the first check made while the check runs
    r = run("to-gdl", TRIS, "-o", str(tmp_path / "tris.kif"), "--max-seconds", "20")
    stopped_first = not finished
    release.set()
    assert r.exit_code == 2 and stopped_first, r.output
    assert f"{TRIS}: error: stopped while checking the GDL after 20.5 s (--max-seconds 20): nothing written" \
        in r.output
    assert nothing_written(tmp_path)


# ----------------------------------------------------------------- the range search's questions to clingo
def test_a_range_question_waits_for_clingo_under_the_limits():
    """The range search's questions (satisfy.Solver: `satisfiable` and `combinations`) are searched in clingo's
    background thread and waited for under the limits, checked at least once per question: past them the question
    is cancelled and LimitReached raised, where a blocking solve, checked by nobody, ran on (Oware's ranges, issue
    34: 79 s past --max-seconds 240). A clock past the deadline from its second reading on: no timing involved."""
    from tgpl.lowering.satisfy import Solver
    from tgpl.lowering.symbolic import FluentLit, lit

    a, b = lit(FluentLit("o", "a", 0)), lit(FluentLit("o", "b", 1))
    for ask in (lambda s: s.satisfiable(a, b, lambda k: None), lambda s: s.combinations(a, [[b]], lambda k: None, 9)):
        readings = itertools.count()
        limits = Limits(max_seconds=10, clock=lambda: 0.0 if next(readings) == 0 else 11.0)
        with pytest.raises(LimitReached):
            ask(Solver(limits))
        assert ask(Solver(Limits(max_seconds=10, clock=lambda: 0.0))) in (True, {(0,)})


def test_the_ranges_stage_stops_inside_a_question_to_clingo(clock, monkeypatch, tmp_path):
    """A limit passed while clingo answers one of the range search's questions (examples/race.tgpl asks some) stops
    the command there: located, nothing written, exit 2, and no question answered after the deadline."""
    import tgpl.lowering.satisfy as satisfy

    c = clock("no such stage")
    inside = [False]
    answered_after = [0]

    def watched(ask):
        def question(self, *args, **kwargs):
            inside[0] = True
            try:
                answer = ask(self, *args, **kwargs)
            finally:
                inside[0] = False
            answered_after[0] += c.tripped
            return answer
        return question

    def reading():
        if inside[0] and c.limits is not None and c.limits.stage == "lowering (ranges)":
            c.tripped = True
        return StageClock.__call__(c)

    monkeypatch.setattr(satisfy.Solver, "satisfiable", watched(satisfy.Solver.satisfiable))
    monkeypatch.setattr(satisfy.Solver, "combinations", watched(satisfy.Solver.combinations))
    monkeypatch.setattr(cli, "_limits", lambda s, m: setattr(c, "limits", Limits(s, cli._max_memory(m), clock=reading))
                        or c.limits)
    r = run("to-gdl", str(ROOT / "examples" / "race.tgpl"), "-o", str(tmp_path / "r.kif"), "--max-seconds", "20")
    assert r.exit_code == 2, r.output
    assert "error: stopped while lowering (ranges) after 20.5 s (--max-seconds 20): nothing written" in r.output
    assert answered_after[0] == 0 and nothing_written(tmp_path)


def test_a_stop_in_the_range_search_names_the_numbers_it_was_ranging(clock, tmp_path):
    """A designer's Ultimate tic-tac-toe stopped at --max-seconds 300 "while lowering (ranges)", naming nothing to
    change. The stop now names the counters the search was ranging, with the values found so far and where the
    moves write them, as the dry run's "undecided" does (examples/race.tgpl, stopped at its 50th check there); a stop
    before the search has found any value adds nothing."""
    clock("lowering (ranges)", 50)
    r = run("to-gdl", str(ROOT / "examples" / "race.tgpl"), "-o", str(tmp_path / "r.kif"), "--max-seconds", "20")
    assert r.exit_code == 2 and nothing_written(tmp_path), r.output
    assert "error: stopped while lowering (ranges) after 20.5 s (--max-seconds 20): nothing written" in r.output
    assert ("  the search of the numbers' ranges was ranging Runner#0.At, Runner#1.At (0 to 10 found so far, written "
            "at examples/race.tgpl:31:13); where one of these grows without end") in r.output, r.output
    clock("lowering (ranges)", 1)
    r = run("to-gdl", str(ROOT / "examples" / "race.tgpl"), "-o", str(tmp_path / "r.kif"), "--max-seconds", "20")
    assert r.exit_code == 2 and "was ranging" not in r.output, r.output


def test_a_product_of_the_counters_values_is_polled():
    """Inside one step of a range search, the combinations of the values a move writes (Oware's sowing writes eight
    pits) are walked with the limits polled every POLL_EVERY of them: past the deadline the walk stops there, and
    no check is counted (the dry run's budget of range steps counts checks)."""
    from tgpl.lowering.segments import POLL_EVERY, _polled

    readings = itertools.count()
    limits = Limits(max_seconds=10, clock=lambda: 0.0 if next(readings) < 2 else 11.0)  # the creation, one poll
    walked = []
    with pytest.raises(LimitReached):
        for combo in _polled(itertools.product(range(100), repeat=4), limits):
            walked.append(combo)
    assert len(walked) == 2 * POLL_EVERY and limits.checks == 0
