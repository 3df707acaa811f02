"""Codebreaker (a small Mastermind), written as a designer writes it from the rule sheet
(tests/data/designers/codebreaker.tgpl): the codemaker secretly sets three pegs, each one of four colours; each
guess is answered with the pegs of the right colour in the right place (`exact`, three `if (...) { exact += 1; }`)
and the ones of a right colour elsewhere (`near`, from a loop over the colours of `min(CountOf(code),
CountOf(guess))`, `CountOf` itself three if-increments). Guessing the code within five guesses wins.

The runtime is checked against an independent model: the move tree (perft) and seeded plays to the end, the code
and the last answer compared at every move; the code and the move that sets it are hidden from the codebreaker.

The lowering (CPU measured with /usr/bin/time on a shared two-core machine, not asserted): the counts lower as a
chain of relations, one per if-increment (tgpl.lowering.counted_ifs), and `tgpl to-gdl` writes about 410 rules with
a body in about 7 s where, written by cases (one rule per combination of the tests' outcomes), it wrote 2,984 in 28
s; validated by playouts to the end.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import product
from pathlib import Path

import pytest

from differential import (checks_clean_and_plays, lowered_and_validated, model_perft,
                          plays_to_the_seen_models_end, runtime_perft)
from tgpl.lowering.emit import goals_of_places, places_of
from tgpl.play.display import may_see_field
from tgpl.runtime.game import load_game
from tgpl.serve.views import redact, sight

from test_designer_games_3 import Lcg, game
from to_gdl_runs import rules_with_a_body, to_gdl, variant

COLOURS = ("Red", "Green", "Blue", "Yellow")
CODES = list(product(COLOURS, repeat=3))
GUESSES = 5


@dataclass(frozen=True)
class Codebreaker:
    """The model's state: the code (None until set), the guesses made and the last answer."""

    code: tuple | None = None
    guesses: int = 0
    exact: int = 0
    near: int = 0

    def seen(self) -> tuple:
        return (self.code, self.guesses, self.exact, self.near)


def answer(code: tuple, guess: tuple) -> tuple[int, int]:
    """(exact, near) as the rule sheet says: the pegs right in place; then the colours in common, each counted
    as often as it is in both, less the exact ones."""
    exact = sum(a == b for a, b in zip(code, guess))
    common = sum(min(code.count(c), guess.count(c)) for c in COLOURS)
    return exact, common - exact


def moves(s: Codebreaker) -> list:
    return CODES


def apply(s: Codebreaker, m: tuple):
    if s.code is None:
        return Codebreaker(code=m), None
    exact, near = answer(s.code, m)
    after = Codebreaker(s.code, s.guesses + 1, exact, near)
    return after, (1 if exact == 3 else 0 if after.guesses == GUESSES else None)


def text(s: Codebreaker, m: tuple) -> str:
    who, action = ("Maker#0", "SetCode") if s.code is None else ("Breaker#0", "Guess")
    return f"{who}.{action}(first: {m[0]}, second: {m[1]}, third: {m[2]})"


def observed(state) -> tuple:
    w = state.world
    maker = w.fields(w.named("Maker#0"))
    breaker = w.fields(w.named("Breaker#0"))
    code = tuple(maker[k] for k in ("First", "Second", "Third"))
    code = None if code[0] is None else tuple(str(c) for c in code)
    return (code, int(breaker["Guesses"]), int(breaker["Exact"]), int(breaker["Near"]))


def runtime_start():
    return load_game(game("codebreaker")).initial_state(0)


def test_the_model_answers_as_the_rule_sheet_says():
    assert answer(("Red", "Green", "Red"), ("Green", "Green", "Blue")) == (1, 0)
    assert answer(("Red", "Green", "Blue"), ("Blue", "Red", "Green")) == (0, 3)
    assert answer(("Red", "Red", "Green"), ("Red", "Green", "Red")) == (1, 2)
    assert answer(("Yellow",) * 3, ("Yellow",) * 3) == (3, 0)


def test_a_right_guess_wins_even_the_last():
    """The fifth guess right: the codebreaker wins (`winner 1` ends the move before the count of guesses)."""
    code, wrong = ("Red",) * 3, ("Blue", "Red", "Red")
    s, state, result = Codebreaker(), runtime_start(), None
    for m in [code] + [wrong] * (GUESSES - 1) + [code]:
        assert result is None
        state = state.apply(state.resolve(text(s, m)))
        s, result = apply(s, m)
        assert observed(state) == s.seen()
    assert result == 1 and s.guesses == GUESSES
    assert state.is_terminal and state.goals[1] > state.goals[0]


def test_the_move_tree_is_the_models():
    assert runtime_perft(runtime_start(), 2) == model_perft(moves, apply, Codebreaker(), 2)


@pytest.mark.parametrize("chooser", [1, 2, 3, 4, 5, 6])
def test_seeded_plays_end_as_the_model_says(chooser):
    plays_to_the_seen_models_end(runtime_start(), Codebreaker(), Lcg(chooser), moves, apply, text, observed)


def test_the_code_is_the_makers_secret():
    """After the code is set, the codebreaker reads the move with its pegs hidden and no peg of the code; the
    codemaker reads them; the answers every seat reads."""
    state = runtime_start()
    move = "Maker#0.SetCode(first: Red, second: Green, third: Red)"
    after = state.apply(state.resolve(move))
    w = after.world
    maker = w.named("Maker#0")
    for name in ("First", "Second", "Third"):
        value = w.fields(maker)[name]
        assert may_see_field(w, maker, name, value, 0) and not may_see_field(w, maker, name, value, 1)
    assert redact(move, sight(state.world, 1), sight(w, 1)) == \
        "Maker#0.SetCode(first: (hidden), second: (hidden), third: (hidden))"
    breaker = w.named("Breaker#0")
    assert may_see_field(w, breaker, "Exact", w.fields(breaker)["Exact"], 0)


def test_codebreaker_checks_clean_and_plays_to_its_end():
    checks_clean_and_plays(game("codebreaker"))


def test_the_counts_lower_as_chains_and_validate(tmp_path):
    """Each if-increment is a relation of the count after it, read by the next: hundreds of rules, not the
    thousands one per combination of the tests' outcomes made."""
    kif, _ = lowered_and_validated(game("codebreaker"), tmp_path / "codebreaker.kif")
    rules = rules_with_a_body(kif)
    assert rules <= 800, rules
    assert "\n(<= (exact_2 " in kif  # the third test's count, read from the second's


# ---------------------------------------------------------------- Sixes: a score counted by if-increments
# tests/data/designers/sixes.tgpl: each player turns one of their own three dice up a pip a turn (six back to one);
# `Sixes(h)` scores a point for each die showing six with three if-increments; three sixes win at once, and after
# twelve turns more sixes win (equal: a draw). The same counts, on numbers of the state read after the move's
# write: to-gdl wrote 324 rules with a body by cases, 94 as chains, both validated by bisimulation (2,580 states).


@dataclass(frozen=True)
class Sixes:
    """The model's state: the six dice's pips (seat 0's first, then seat 1's), the turns played, the seat to move."""

    pips: tuple = (1,) * 6
    turns: int = 0
    who: int = 0

    def seen(self) -> tuple:
        return self.pips


def six_moves(s: Sixes) -> list:
    return [3 * s.who + k for k in range(3)]


def six_apply(s: Sixes, m: int):
    pips = list(s.pips)
    pips[m] = 1 if pips[m] == 6 else pips[m] + 1
    after = Sixes(tuple(pips), s.turns + 1, 1 - s.who)
    sixes = [sum(p == 6 for p in pips[3 * seat:3 * seat + 3]) for seat in (0, 1)]
    if sixes[s.who] == 3:
        return after, s.who
    if after.turns == 12:
        return after, 0 if sixes[0] > sixes[1] else 1 if sixes[1] > sixes[0] else "draw"
    return after, None


def six_text(s: Sixes, m: int) -> str:
    return f"Hand#{s.who}.Turn(d: Die#{m})"


def six_observed(state) -> tuple:
    w = state.world
    return tuple(int(w.fields(w.named(f"Die#{k}"))["Pips"]) for k in range(6))


def six_start():
    return load_game(game("sixes")).initial_state(0)


def test_sixes_move_tree_is_the_models():
    assert runtime_perft(six_start(), 4) == model_perft(six_moves, six_apply, Sixes(), 4)


@pytest.mark.parametrize("chooser", [1, 2, 3, 4, 5, 6, 7, 8])
def test_sixes_seeded_plays_end_as_the_model_says(chooser):
    plays_to_the_seen_models_end(six_start(), Sixes(), Lcg(chooser), six_moves, six_apply, six_text, six_observed)


def test_the_models_plays_reach_every_end():
    """Three sixes at once (seat 0 turning one die five pips, then the others), and the end of twelve turns."""
    ends = set()
    for seed in range(300):
        rng, s, result = Lcg(seed), Sixes(), None
        while result is None:
            ms = six_moves(s)
            s, result = six_apply(s, ms[rng.below(len(ms))])
        ends.add((result, s.turns == 12))
    assert {(0, True), (1, True), ("draw", True)} <= ends, ends


def test_sixes_counts_lower_as_chains_and_validate(tmp_path):
    """Small enough for the GDL to be checked against the runtime state by state (bisimulation)."""
    r = to_gdl(tmp_path, Path(game("sixes")))
    kif = r.written()
    assert kif.splitlines()[1].startswith("; validated: bisimulation, 2,580 states"), kif.splitlines()[1]
    rules = rules_with_a_body(kif)
    assert rules <= 150, rules
    assert "\n(<= (n_2 " in kif  # the third die's count, read from the second's


def test_a_count_in_a_filter_and_in_the_effect_lowers_apart(tmp_path):
    """`Sixes` counted in the move's filter too (a die showing six turns only while the hand has fewer than two):
    the filter's count is read before any move is made, the effect's after it, so they are relations apart (the
    filter's condition is part of the effect's, never exclusive of it); bisimulated against the runtime."""
    source = variant(tmp_path, Path(game("sixes")),
                     ("{ return d == First || d == Second || d == Third; }",
                      "{ return (d == First || d == Second || d == Third) && (d.Pips < 6 || Sixes(h: this) < 2); }"))
    kif = to_gdl(tmp_path, source).written()
    assert kif.splitlines()[1].startswith("; validated: bisimulation"), kif.splitlines()[1]
    rules = rules_with_a_body(kif)
    assert rules <= 200, rules


# ---------------------------------------------------------------- a ranking built from counts
# tests/data/lowering/ranked_counts.tgpl: three players each pick a card (1, 2 or 2); the last pick ranks them
# by grade, `place[p]` counted by if-increments. The ranking built from the counts' values can name a player in
# two groups on a path whose condition never holds; its goals, written by the ranking, gave the term
# `(result 1 2 3)` a second goal for each role (-49, -74, -99 beside 50 for player 0: the bisimulation failed).


def test_a_ranking_built_from_counts_has_one_goal_a_result(tmp_path):
    r = to_gdl(tmp_path, Path(__file__).parent.parent / "data" / "lowering" / "ranked_counts.tgpl")
    kif = r.written()
    assert kif.splitlines()[1].startswith("; validated: bisimulation"), kif.splitlines()[1]
    goals = re.findall(r"^\(goal_args\S* (player_\d) (-?\d+) ", kif, re.M) + \
        re.findall(r"^\(<= \(goal (player_\d) (-?\d+)\)", kif, re.M)
    assert goals and all(0 <= int(g) <= 100 for _, g in goals), goals


def test_the_goals_of_a_result_are_its_places():
    """A ranking naming player 0 twice has the places of the first group naming it: (1, 2, 3), whose goals are
    those of {{0}, {1}, {2}}, not the runtime's for the ranking itself (player 0 counted twice)."""
    assert places_of(((0,), (0, 1), (2,)), 3) == [1, 2, 3]
    assert goals_of_places(((0,), (0, 1), (2,)), 3) == goals_of_places(((0,), (1,), (2,)), 3) == [100, 50, 0]
    assert goals_of_places(((1,), (0, 2)), 3) == goals_of_places(((1,),), 3) == [25, 100, 25]
    assert goals_of_places((), 1) == [0] and goals_of_places(((0,),), 1) == [100]
