"""Loops that write the state through what they call, in the compiled moves (issue 34).

A loop writes the state where a function it calls does (inlined, its writes are made on every pass) and where
it changes a list that is state (`add`, `remove`: tgpl.lowering.compiled_lists), not only where its own
statements assign an attribute (tgpl.lowering.loop_code). Taken for a loop that writes nothing, its passes'
writes became one view where every pass read the state the loop began with: wrong next states, found by the
generated games (tests/lowering/test_property_games.py) once lists that are state were compiled.
tests/data/lowering/bumped.tgpl is that game cut down: a counted loop calls `Bump` twice, which steps a cell's
`Marks`. Counted, such a loop is spelled out pass by pass; a `while` loop that reads what it writes is refused
at the loop, and `auto` spells the moves out.

The shapes evaluator (tgpl.lowering.shapes), which decides whether a loop's passes are independent
(tgpl.lowering.footprint), must not read a list that is state as setup left it."""

from __future__ import annotations

from pathlib import Path

from differential import lowers_to_the_same_game
from to_gdl_runs import to_gdl, variant

DATA = Path(__file__).resolve().parents[1] / "data" / "lowering"
BUMPED = DATA / "bumped.tgpl"
PLAYED = DATA / "played.tgpl"
COUNTED = "for (number k = 0; k < 2; k += 1) { bool b = Bump(x: GameState.A); }"
WHILE = "number k = 0; while (k < 2) { bool b = Bump(x: GameState.A); k += 1; }"


def test_a_counted_loop_whose_calls_write_is_the_runtimes_game():
    """Each pass's `Bump` reads the Marks the pass before wrote: Marks 2 after the check phase, not 1."""
    assert COUNTED in BUMPED.read_text(encoding="utf-8")
    outcome, states = lowers_to_the_same_game(BUMPED.read_text(encoding="utf-8"), str(BUMPED), moves="compiled")
    assert outcome == "moves compiled" and states > 0


def test_a_while_loop_whose_call_reads_what_it_writes_is_refused_at_the_loop(tmp_path):
    game = variant(tmp_path, BUMPED, (COUNTED, WHILE), name="bumped_while.tgpl")
    r = to_gdl(tmp_path, game, "--moves", "compiled")
    assert r.exit_code == 2 and not r.kif, r.output
    assert ("bumped_while.tgpl:72:23: error: not lowerable: the moves cannot be compiled: a loop that reads 'Marks', "
            "which it writes, and is not a counted loop") in r.output, r.output
    r = to_gdl(tmp_path, game)  # auto: the moves spelled out, validated
    assert r.exit_code == 0 and "; validated: " in r.kif.splitlines()[1], r.output


PLAY = "            Tabletop.Played.add(card);\n"


def test_list_changes_in_a_counted_loop_are_made_pass_by_pass(tmp_path):
    """Each pass moves the hand's first card to the table: the second pass finds the hand the first left. With
    two cards a hand (played.tgpl deals three), the card played leaves one, which the first pass moves: the
    second finds the hand empty, where a pass that read the hand the loop began with would move that card again
    (played.tgpl's three cards, two passes moving cards, lower alike in four times the CPU)."""
    game = variant(tmp_path, PLAYED, (PLAY, PLAY + (
        "            for (number k = 0; k < 2; k += 1) "
        "{ if (Cards.length > 0) { Card f = Cards[0]; Cards.remove(f); Tabletop.Played.add(f); } }\n")),
        ("v <= 3", "v <= 2"), ("Tabletop.Played.length == 6", "Tabletop.Played.length == 4"),
        name="played_more.tgpl")
    r = to_gdl(tmp_path, game, "--moves", "compiled")
    assert r.exit_code == 0 and "; validated: " in r.kif.splitlines()[1], r.output


def test_list_changes_in_a_while_loop_are_refused_at_the_loop(tmp_path):
    game = variant(tmp_path, PLAYED, (PLAY, PLAY + (
        "            number k = 0; while (k < 2 && Cards.length > 0) "
        "{ Card f = Cards[0]; Cards.remove(f); Tabletop.Played.add(f); k += 1; }\n")), name="played_while.tgpl")
    r = to_gdl(tmp_path, game, "--moves", "compiled")
    assert r.exit_code == 2 and not r.kif, r.output
    assert ("played_while.tgpl:51:27: error: not lowerable: the moves cannot be compiled: a loop that reads 'Cards', "
            "which it writes") in r.output, r.output


def test_passes_that_read_a_list_that_is_state_are_not_taken_for_independent(tmp_path):
    """The second pass reads the `Lit` the first wrote, on the ways where the table holds two cards: setup left
    it empty, which the shapes evaluator read as the table every state has, so it found the passes independent
    and each read the `Lit` the loop began with."""
    first = "            if (Cards[0] == card) { Score += 1; }\n"
    game = variant(tmp_path, PLAYED, (first, (
        "            for (number k = 0; k < 2; k += 1) { if (Tabletop.Played.length > 1) "
        "{ Tabletop.Hands[k].Lit = !Tabletop.Hands[1 - k].Lit; } }\n") + first),
        ("    number Score = 0;\n", "    number Score = 0;\n    bool Lit = false;\n"), name="played_lit.tgpl")
    r = to_gdl(tmp_path, game, "--moves", "compiled")
    assert r.exit_code == 0 and "; validated: " in r.kif.splitlines()[1], r.output


def test_a_loops_code_is_read_once_with_what_it_calls():
    """bumped.tgpl's counted loop writes `Marks` only in the `Bump` it calls, and `Bump` reads it: the loop's
    `LoopCode` says so (its own statements assign `b` and `k` alone), and the compile keeps one per loop."""
    from tgpl.frontend import ast
    from tgpl.lowering.compiled import CompiledGame, play_code
    from test_other_hands import loaded

    program, universe = loaded(BUMPED)
    loop = next(n for n in play_code(program) if isinstance(n, ast.For))
    g = CompiledGame(program, universe)
    code = g.loop(loop)
    assert g.loop(loop) is code
    assert code.writes_state and set(code.values) == {"Marks"}
    assert {"b", "k", "x"} <= code.names and "Marks" in code.reads and "Marks" in code.called_reads
    assert not any(isinstance(n, ast.Assign) and isinstance(n.target, ast.Member) for n in ast.walk([loop]))
