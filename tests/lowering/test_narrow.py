"""A lowered game narrowed by its relaxed game (tgpl.asp.narrow): the same game, a bound check-gdl takes.

Reversi's compiled move carries the target square with its coordinates and its counters through the `plus`
table's range: its bound (tgpl.asp.estimate) was 5.6e8 against about 2e5 ground rules, over `--max-ground`.
"""

from __future__ import annotations

from pathlib import Path

from differential import Lowered, bisimulate
from tgpl.asp.estimate import MAX_GROUND, rule_bounds
from tgpl.asp.ground_size import ground_size
from tgpl.asp.kif import read_kif
from tgpl.asp.narrow import NARROW_MOST, NARROW_PAYS_MOST, RANGE_PREFIX, TABLE_PREFIX, narrow_pays
from tgpl.asp.reasoner import GdlGame
from tgpl.asp.recursion import bind_recursion, unbound_recursive
from tgpl.asp.validate import validate
from tgpl.lowering.lower import lower
from tgpl.pipeline import gdl_errors, lower_game
from tgpl.runtime.game import load_game

ROOT = Path(__file__).resolve().parents[2]
FLANK = ROOT / "tests" / "data" / "lowering" / "flank.tgpl"
REVERSI = ROOT / "examples" / "reversi.tgpl"


def total(program) -> int:
    return sum(b.instances for b in rule_bounds(program))


def _lowered(path: Path, narrowing: int | None) -> Lowered:
    return Lowered.with_options(path, grounded_whole=True, check=gdl_errors,
                                repair=lambda program: bind_recursion(program, narrowing=narrowing))


def _made(program, prefix: str) -> set[str]:
    return {r.head.relation for r in program.rules if r.head.relation.startswith(prefix)}


def test_a_narrowed_game_is_the_runtimes_game_with_a_bound_that_still_holds():
    """flank.tgpl (Reversi's rules on a 4x4 midgame, within the limit) narrowed whatever its bound: arguments
    dropped and counters bounded, bisimulated with the runtime, its bound lower and still over its grounding."""
    wide = _lowered(FLANK, None).lowered.program
    lw = _lowered(FLANK, 0)
    program = lw.lowered.program
    assert _made(program, TABLE_PREFIX) and _made(program, RANGE_PREFIX)
    assert not _made(wide, TABLE_PREFIX)
    assert not gdl_errors(program) and not unbound_recursive(program)
    assert ground_size(program).rules <= total(program) < total(wide) / 4
    assert bisimulate(lw).states == 905


def test_reversi_8x8_is_within_the_default_bound_and_check_gdl_takes_it():
    program = lower_game(load_game(str(REVERSI))).program
    assert sum(1 for r in program.rules if r.body) <= 150
    assert total(program) <= MAX_GROUND / 2  # 2.7e5 (2.0e6 before static_loops); 5.6e8 before the narrowing
    assert not [d for d in validate(program) if d.is_error]  # check-gdl's defaults, base and input included


GAME = """
(role p)
(cellat c1 1) (cellat c2 2) (cellat c3 3) (cellat c4 4)
""" + " ".join(f"(step {n} {n + 1})" for n in range(8)) + "\n" + " ".join(
    f"(add {i} {m} {i + m})" for i in range(1, 5) for m in range(9)) + """
(init (at c1))
(<= (base (at ?c)) (cellat ?c ?i))
(<= (input p (go ?c)) (cellat ?c ?i))
(<= (walk ?c ?i 0) (true (at ?c)) (cellat ?c ?i))
(<= (walk ?c ?i ?m) (walk ?c ?i ?n) (step ?n ?m) (add ?i ?m ?j) (cellat ?d ?j) (not (true (at c4))))
(<= (legal p (go ?d)) (walk ?c ?i ?n) (add ?i ?n ?j) (cellat ?d ?j) (distinct ?n 0))
(<= (next (at ?d)) (does p (go ?d)))
(<= terminal (true (at c4)))
(<= (goal p 100) (true (at c4)))
(<= (goal p 0) (not (true (at c4))))
"""


def test_an_argument_that_is_a_function_of_another_is_dropped_and_joined_where_read():
    """`walk` carries a square and its index, one a function of the other: one is dropped from `walk` and joined
    from a table where `legal` reads it; the step counter is bounded by the values the relaxed game gives it
    (0..3, against the `step` table's 0..8). The same game: the same moves and outcomes all along."""
    program = read_kif(GAME)
    narrowed = bind_recursion(program, narrowing=0)
    assert {a for r in narrowed.rules for a in (r.head, *(x for x, _ in r.body_atoms()))
            if a.relation == "walk"} and all(a.arity == 2 for r in narrowed.rules
                                                for a in (r.head, *(x for x, _ in r.body_atoms()))
                                                if a.relation == "walk")
    assert _made(narrowed, TABLE_PREFIX) and _made(narrowed, RANGE_PREFIX)
    assert ground_size(narrowed).rules <= total(narrowed) < total(program)
    games = [GdlGame(p) for p in (program, narrowed)]
    states = [g.initial_state() for g in games]
    while True:
        assert states[0].legal_moves() == states[1].legal_moves()
        assert states[0].is_terminal == states[1].is_terminal
        if states[0].is_terminal:
            assert states[0].goals == states[1].goals == [100]
            break
        move = states[0].legal_moves()[0]
        states = [s.apply(move) for s in states]


def test_a_bound_too_far_past_the_limit_for_narrowing_to_bring_within_is_left_as_it_is():
    """A game whose bound is past NARROW_PAYS_MOST is not narrowed, its relaxed game never grounded: narrowing had
    not brought such a bound within `--max-ground` (Pente 9x9's 3.4e9 to 2.1e9, in 40 s of CPU). GAME with a
    rule of twelve independent `step`s (8^12 = 6.9e10 instances, within NARROW_MOST) is returned as it is,
    where GAME alone is narrowed."""
    steps = " ".join(f"(step ?a{k} ?b{k})" for k in range(12))
    wide = read_kif(GAME + f"(<= (wide ?a0 ?a11) {steps})\n")
    assert NARROW_PAYS_MOST < total(wide) <= NARROW_MOST
    assert narrow_pays(read_kif(GAME), 0) and not narrow_pays(wide, 0)
    assert bind_recursion(wide, narrowing=0) is wide
    assert _made(bind_recursion(read_kif(GAME), narrowing=0), TABLE_PREFIX)
