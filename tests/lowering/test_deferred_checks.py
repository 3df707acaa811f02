"""End-of-game checks of compiled segments left to the next decision (tgpl.lowering.deferral).

`shifts.tgpl` with its move counter moved into the moves' effects: its `Finish` (is the next player stuck? six
moves made?) then only reads the state, and the compiled game asks it in `terminal` and `goal` at the next
player's `MovePhase`, reading `true`, instead of in `next` through the views of the move's writes. Each variant
is bisimulated against the runtime; each condition the deferral rests on is planted away once, and the
bisimulation finds the other game.
"""

from __future__ import annotations

import pytest

import tgpl.lowering.compiled as compiled
from differential import bisimulate
from test_compiled_moves import SHIFTS, shifts_variant
from tgpl.frontend.diagnostics import Diagnostic, Severity, Span
from tgpl.lowering.deferral import Undefer
from tgpl.lowering.universe import Universe
from tgpl.runtime.game import load_game
from tgpl.runtime.snapshot import snapshot
from tgpl.verify.runtime_machine import RuntimeMachine
from tgpl.verify.graph import explore
from to_gdl_runs import variant

COUNTED = (  # the counter written by the moves, not by the check
    ("            Moves += 1;\n            if (!HasMove", "            if (!HasMove"),
    ("            from.Side = null;\n            turn.pass(player, \"EndPhase\");",
     "            from.Side = null;\n            Rules.Moves += 1;\n            turn.pass(player, \"EndPhase\");"),
    ("            b.Mark = !b.Mark;\n            turn.pass(player, \"EndPhase\");",
     "            b.Mark = !b.Mark;\n            Rules.Moves += 1;\n            turn.pass(player, \"EndPhase\");"),
)
OVER_AT_ONCE = ("if (Moves >= 6) { winner { {0, 1} }; }", "if (Moves >= 0) { winner { {0, 1} }; }")
"""The check ends the game on any state, the initial one included, where the runtime never runs it."""
UNCHECKED = ("            b.Mark = !b.Mark;\n            Rules.Moves += 1;\n            turn.pass(player, \"EndPhase\");",
             "            b.Mark = !b.Mark;\n            if (Rules.Moves < 6) { Rules.Moves += 1; }\n"
             "            turn.pass(player + 1, \"MovePhase\");")
"""A Flip counts too, but passes the turn without the end phase: its ways wait at MovePhase unchecked, and a sixth
move made by a Flip ends the game only after the next Shift."""


def relations(lw) -> set[str]:
    return {r.head.relation for r in lw.lowered.program.rules}


def runtime_states(lw) -> int:
    graph = explore(RuntimeMachine(lw.game))
    assert graph.complete
    return graph.states


def test_a_check_that_only_reads_is_asked_at_the_next_decision(tmp_path):
    lw = shifts_variant(tmp_path, *COUNTED)
    rules = lw.lowered.program.rules
    assert "ended" in relations(lw)
    assert any(r.head.relation == "terminal" and r.body[0].relation == "ended" for r in rules)
    # `next` no longer asks the search: no rule of the next state reads a function instance
    assert not any(r.head.relation == "next" and any("hasmove" in str(x) for x in r.body) for r in rules)
    assert bisimulate(lw).states == runtime_states(lw)


def test_a_check_that_would_end_the_initial_state_stays_where_it_runs(tmp_path, monkeypatch):
    edits = (*COUNTED, OVER_AT_ONCE)
    lw = shifts_variant(tmp_path, *edits)
    assert "ended" not in relations(lw)
    assert bisimulate(lw).states == runtime_states(lw)
    # planted: the initial state not asked
    monkeypatch.setattr(compiled.CompiledGame, "ends_initially", lambda self, rules, targets: None)
    planted = shifts_variant(tmp_path, *edits)
    assert "ended" in relations(planted)
    with pytest.raises(AssertionError, match="terminal"):
        bisimulate(planted)


def test_a_way_that_waits_unchecked_keeps_the_check_where_it_runs(tmp_path, monkeypatch):
    edits = (*COUNTED, UNCHECKED)
    lw = shifts_variant(tmp_path, *edits)
    assert "ended" not in relations(lw)
    assert bisimulate(lw).states == runtime_states(lw)
    # planted: the ways that wait there not looked at
    real = compiled.CompiledGame.check_targets

    def lenient(self):
        try:
            return real(self)
        except Undefer:
            return {k: ("Play", "MovePhase") for k in self.deferral.met}
    monkeypatch.setattr(compiled.CompiledGame, "check_targets", lenient)
    planted = shifts_variant(tmp_path, *edits)
    assert "ended" in relations(planted)
    with pytest.raises(AssertionError):
        bisimulate(planted)


def test_a_write_after_the_check_keeps_it_where_it_runs(tmp_path):
    """The end phase counts the move after the check: the check must read the state before that write."""
    late = ("        Rules.Finish(mover: player.active());\n        turn.pass();",
            "        Rules.Finish(mover: player.active());\n        Rules.Moves += 1;\n        turn.pass();")
    lw = shifts_variant(tmp_path, COUNTED[0], late)
    assert "ended" not in relations(lw)
    assert bisimulate(lw).states == runtime_states(lw)


def test_the_counters_values_are_those_of_the_game_with_its_checks_in_place(tmp_path):
    """NeedRanges: a deferred check bounds the move counter, so its values come from the game compiled with its
    checks where they run. `counter_ranges` relaxes only the counters: the rows must be those the whole lowering
    of that game finds."""
    path = variant(tmp_path, SHIFTS, *COUNTED, name="counted.tgpl")
    game = load_game(str(path))
    universe = Universe.from_snapshot(snapshot(game.initial_state(0)))
    whole = compiled.CompiledGame(game.program, universe, None, None, {})
    whole.lowered()
    want = {rel: rows for rel, rows in whole.found.items() if rel.split("|")[0] in ("num", "over")}
    got = compiled.CompiledGame(game.program, universe, None, None, {}).counter_ranges()
    assert got == want and any(len(rows) > 1 for rows in got.values())


INLINE = ("        Rules.Finish(mover: player.active());\n        turn.pass();",
          "        number limit = 6;\n"
          "        if (!Rules.HasMove(side: player.active() + 1)) { winner player.active(); }\n"
          "        else { if (Rules.Moves >= limit) { winner { {0, 1} }; } }\n"
          "        turn.pass();")
"""The check written in the end phase itself, as a designer would, reading a local and the player to move."""


def test_an_if_statement_that_only_reads_is_asked_at_the_next_decision(tmp_path):
    lw = shifts_variant(tmp_path, *COUNTED, INLINE)
    rules = lw.lowered.program.rules
    assert "ended" in relations(lw)
    assert not any(r.head.relation == "next" and any("hasmove" in str(x) for x in r.body) for r in rules)
    assert bisimulate(lw).states == runtime_states(lw)


def test_a_local_that_differs_between_ways_is_computed_again_with_the_check(tmp_path):
    """`limit` is 6 or 7 by the state: the declaration, the `if` that changes it and the check are one run
    (`grouped`), asked whole at the next decision, where the state is the one they read."""
    differs = ("        number limit = 6;\n", "        number limit = 6;\n        if (Rules.Moves > 3) { limit = 7; }\n")
    lw = shifts_variant(tmp_path, *COUNTED, INLINE, differs)
    assert "ended" in relations(lw)
    assert bisimulate(lw).states == runtime_states(lw)


def test_an_if_statement_that_writes_a_local_of_the_phase_stays_where_it_runs(tmp_path):
    writes = ("{ winner { {0, 1} }; } }", "{ winner { {0, 1} }; } limit = 5; }")
    read_after = ("        turn.pass();", "        if (limit == 5) { turn.pass(); } else { turn.pass(); }")
    lw = shifts_variant(tmp_path, *COUNTED, INLINE, writes, read_after)
    # `limit` is read after the check, so the check is no run of its own (`grouped`): the outer `if`, which
    # writes it, runs where it is (`next` asks the search); the inner one, which reads `limit` before the
    # write, is left to the next decision with the value it read
    assert any(r.head.relation == "next" and any("hasmove" in str(x) for x in r.body) for r in lw.lowered.program.rules)
    assert "ended" in relations(lw)
    assert bisimulate(lw).states == runtime_states(lw)


GROUPED = ("        Rules.Finish(mover: player.active());\n        turn.pass();",
           "        player me = player.active();\n"
           "        number limit = 6;\n"
           "        bool stuck = !Rules.HasMove(side: me + 1);\n"
           "        if (stuck) { winner me; }\n"
           "        if (Rules.Moves >= limit) { winner { {0, 1} }; }\n"
           "        turn.pass();")
"""The check in several statements: locals declared, then two tests (tgpl.lowering.deferral, `grouped`)."""

ALIASED = ("        Rules.Finish(mover: player.active());\n        turn.pass();",
           "        player me = player.active();\n"
           "        if (!Rules.HasMove(side: me + 1)) { winner me; }\n"
           "        else { if (Rules.Moves >= 6) { winner { {0, 1} }; } }\n"
           "        turn.pass(me + 1, \"MovePhase\");")
"""A local holding the player to move, read by the check and after it: the mover where the check is asked."""


@pytest.mark.parametrize("written", [GROUPED, ALIASED], ids=["grouped", "aliased"])
def test_a_check_in_several_statements_or_reading_the_mover_is_asked_at_the_next_decision(written, tmp_path):
    lw = shifts_variant(tmp_path, *COUNTED, written)
    rules = lw.lowered.program.rules
    assert "ended" in relations(lw)
    assert not any(r.head.relation == "next" and any("hasmove" in str(x) for x in r.body) for r in rules)
    assert bisimulate(lw).states == runtime_states(lw)


def test_a_group_whose_local_is_read_after_it_is_not_made(tmp_path):
    """`stuck` read after the run: the run stops before its declaration, and the check stays where it runs."""
    after = ("        turn.pass();", "        if (stuck) { turn.pass(me + 1, \"MovePhase\"); } else { turn.pass(); }")
    lw = shifts_variant(tmp_path, *COUNTED, GROUPED, after)
    assert any(r.head.relation == "next" and any("hasmove" in str(x) for x in r.body) for r in lw.lowered.program.rules)
    assert bisimulate(lw).states == runtime_states(lw)


def test_rules_that_break_gdls_with_checks_left_are_compiled_again_with_the_checks_in_place(tmp_path):
    """Where the rules made with some checks left to the next decision break GDL's (`check` says so), the game is
    compiled once more with every check where it runs: the retry makes a new CompiledGame (it once called a
    Program by the maker's name, a TypeError) and its rules are the ones returned."""
    path = variant(tmp_path, SHIFTS, *COUNTED, name="counted.tgpl")
    game = load_game(str(path))
    universe = Universe.from_snapshot(snapshot(game.initial_state(0)))
    seen = []

    def check(program):
        seen.append({r.head.relation for r in program.rules})
        return [Diagnostic(Severity.ERROR, Span("<gdl>", 1, 1, 1, 1), "planted: the first rules break GDL's")] \
            if len(seen) == 1 else []

    lowered = compiled.compile_game(game.program, universe, check)
    assert len(seen) == 2
    assert "ended" in seen[0] and "ended" not in seen[1]  # the first with the check left, the second in place
    assert {r.head.relation for r in lowered.program.rules} == seen[1]
