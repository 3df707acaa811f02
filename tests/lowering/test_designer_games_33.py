"""Halma for two on 5 x 5 with chained hops, written as a designer writes it (tests/data/designers/halma5.tgpl): a
turn is a step, or a chain of hops played as several moves of one piece in a second phase (`Hopping`) and closed
by an explicit `Stop`; the cells the piece stood on this turn are kept in a global list of tiles (`Game.Trail`)
that a hop may not land on again; three pieces in the opposite camp win, and after 60 turns the player with more
pieces there wins (else a draw).

The runtime is checked against an independent model (each seat's cells as a set, the chain's trail as a tuple)
on the move tree's first levels and seeded plays to their end. Then the lowering's result. Compiled, the moves are
refused at once at `Game.Trail.clear()` (a list in the state). Spelled out, `Arrived`'s count (if-increments, a
chain of relations: tgpl.lowering.counted_ifs) ends each of Step's 144 moves in 104 ways, and the lowering refuses
the first control state at Step past 4,096 ways through the moves' effects, after tens of seconds of CPU (over
issue 34's 10 s for a refusal); `auto` asks the dry run's estimate first (tgpl.lowering.lowerable.spelled_forecast:
the ways its sampled Step ended in, times Step's moves) and refuses in seconds, with both reasons: the compiled
refusal at the list, the spelled-out estimate at Step.
A designer's rewrite (halma5_flags.tgpl: a `Visited` flag on each cell instead of the list, the other camp as "a
camp, not mine" since `who + 1` is arithmetic on players, which compiled functions refuse) lowers compiled: it
first failed its validation (a lowering bug, fixed: `test_a_player_field_fixed_after_setup_is_compared_as_a_player`);
now validated by playouts to the end of the game. Its end of the turn clears the flag of every cell, a loop unrolled
into 25 writes, so each way that ends the turn had 25 `next` and 25 `touched` rules alike but for the cell: 2,494
rules with a body, over issue 34's 2,000. Folded over a table of the cells (tgpl.lowering.generalize.fold_program),
574."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from differential import lowers_to_the_same_game, model_perft, model_steps, plays_to_the_models_end, runtime_perft
from to_gdl_runs import rules_with_a_body
from tgpl.cli import main
from tgpl.lowering.execute import NotLowerable
from tgpl.pipeline import lower_game
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game

SIZE = 5
CAMPS = (frozenset({(0, 0), (1, 0), (0, 1)}), frozenset({(4, 4), (3, 4), (4, 3)}))
# the model's state: ((cells of seat 0, cells of seat 1), trail of the hopping piece (() between turns), turns),
# the seat to move
START = (((CAMPS[0], CAMPS[1]), (), 0), 0)


def on_board(x: int, y: int) -> bool:
    return 0 <= x < SIZE and 0 <= y < SIZE


def hops_from(pieces, cell, trail):
    occupied = pieces[0] | pieces[1]
    x, y = cell
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            to = (x + 2 * dx, y + 2 * dy)
            if (dx or dy) and on_board(*to) and to not in occupied and (x + dx, y + dy) in occupied \
                    and to not in trail:
                yield to


def model_moves(state):
    (pieces, trail, _), who = state
    if trail:
        return [("stop",)] + [("hop", trail[-1], to) for to in hops_from(pieces, trail[-1], trail)]
    occupied = pieces[0] | pieces[1]
    moves = []
    for x, y in sorted(pieces[who]):
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if (dx or dy) and on_board(x + dx, y + dy) and (x + dx, y + dy) not in occupied:
                    moves.append(("step", (x, y), (x + dx, y + dy)))
        moves += [("hop", (x, y), to) for to in hops_from(pieces, (x, y), ())]
    return moves


def arrived(pieces, who: int) -> int:
    return len(pieces[who] & CAMPS[1 - who])


def model_apply(state, move):
    """The next state and the result: the winner, "draw", or None while play goes on."""
    (pieces, trail, turns), who = state
    if move[0] != "stop":
        _, frm, to = move
        mine = (pieces[who] - {frm}) | {to}
        pieces = (mine, pieces[1]) if who == 0 else (pieces[0], mine)
    if move[0] == "hop":
        return ((pieces, (trail or (frm,)) + (to,), turns), who), None
    turns += 1
    nxt = ((pieces, (), turns), 1 - who)
    if arrived(pieces, who) == 3:
        return nxt, who
    if turns == 60:
        mine, theirs = arrived(pieces, who), arrived(pieces, 1 - who)
        return nxt, who if mine > theirs else 1 - who if theirs > mine else "draw"
    return nxt, None


def model_text(state, move) -> str:
    who = state[1]
    if move[0] == "stop":
        return f"Mover#{who}.Stop()"
    (a, b), (c, d) = move[1], move[2]
    return f"Mover#{who}.{move[0].capitalize()}(from: Cells[{a}][{b}], to: Cells[{c}][{d}])"


def observed(state) -> tuple:
    w = state.world
    at = {str(w.named(f"Cells[{x}][{y}]")): (x, y) for x in range(SIZE) for y in range(SIZE)}
    pieces = tuple(frozenset(at[c] for c in at if w.fields(w.named(c))["Piece"] == p) for p in (0, 1))
    g = w.fields(w.named("Game"))
    return pieces, tuple(at[str(c)] for c in g["Trail"]), int(g["Turns"])


def test_halma5_move_tree_is_the_models():
    start = load_game(game("halma5")).initial_state(0)
    assert observed(start) == START[0]
    model = [model_perft(model_moves, model_apply, START, d) for d in range(1, 4)]
    assert model[0] == 7 + 2  # steps: 3 from (0,1), 3 from (1,0), 1 from (0,0); hops: from (0,0) over either
    assert [runtime_perft(start, d) for d in range(1, 4)] == model


def test_a_chain_of_hops_never_lands_where_it_stood():
    """(0,0) hops over (1,0) to (2,0); the only hop from there goes back over (1,0) to (0,0), where the piece
    stood this turn, so only Stop is left."""
    state, model = load_game(game("halma5")).initial_state(0), START
    for m in [("hop", (0, 0), (2, 0))]:
        state = state.apply(state.resolve(model_text(model, m)))
        model, result = model_apply(model, m)
        assert observed(state) == model[0] and result is None
    assert [m.text for m in state.legal_moves()] == ["Mover#0.Stop()"] == [model_text(model, m)
                                                                         for m in model_moves(model)]


@pytest.mark.parametrize("seed", range(8))
def test_halma5_plays_to_the_models_end(seed):
    plays_to_the_models_end(load_game(game("halma5")).initial_state(0), START, Lcg(seed), model_moves,
                            model_apply, model_text, observed)


def test_the_seeded_plays_chain_hops_and_end_more_than_one_way():
    """Some play above chains two hops in one turn, and the plays end in more than one result."""
    chained, results = False, set()
    for seed in range(8):
        run = 0
        for m, _, result in model_steps(model_moves, model_apply, START, Lcg(seed)):
            run = run + 1 if m[0] == "hop" else 0
            chained |= run >= 2
        results.add(result)
    assert chained and len(results) >= 2, results


def test_a_player_field_fixed_after_setup_is_compared_as_a_player():
    """halma_camps.tgpl: `c.Camp != who`, `Camp` a player attribute set to the number 0 or 1 in the group's default
    and never written again, read through a scan of the board. The compiled rules took its value from the state
    after setup as the number `0` and compared it with the player constant `player_0`: never equal, so a piece
    back in its own camp counted as arrived and the GDL ended the game a move after the runtime (caught by the
    validation: "terminal: no in the runtime, yes in the GDL", nothing written). The field's value is now the
    player's constant where the attribute is a player (`horn.RuleCompiler.member`): bisimulated."""
    outcome, states = lowers_to_the_same_game(Path(game("halma_camps")).read_text(), game("halma_camps"),
                                              moves="compiled")
    assert outcome == "moves compiled" and states > 100


@pytest.mark.parametrize("seed", range(3))
def test_the_flags_copy_plays_as_the_game(seed):
    """halma5_flags.tgpl has the same moves and results as halma5.tgpl along seeded plays."""
    rng, a, b = Lcg(seed), load_game(game("halma5")).initial_state(0), load_game(game("halma5_flags")).initial_state(0)
    while not a.is_terminal:
        moves = sorted(m.text for m in a.legal_moves())
        assert moves == sorted(m.text for m in b.legal_moves())
        m = moves[rng.below(len(moves))]
        a, b = a.apply(a.resolve(m)), b.apply(b.resolve(m))
    assert b.is_terminal and a.goals == b.goals


def test_halma5_compiled_moves_are_refused_at_the_list_of_the_trail(tmp_path):
    r = CliRunner().invoke(main, ["to-gdl", game("halma5"), "--moves", "compiled", "-o", str(tmp_path / "h.kif")])
    assert r.exit_code == 2 and not (tmp_path / "h.kif").exists()
    assert ("halma5.tgpl:176:13: error: not lowerable: the moves cannot be compiled: clear() changes the list "
            "'Trail'") in r.output, r.output


class _SpelledOn(Exception):
    """The spelled-out lowering went on past the parts a refusal must come before."""


def test_auto_refuses_halma5_before_spelling_out_its_moves(tmp_path):
    """`auto` answers from the estimate: the spelled-out run never passes 100,000 parts of conditions (before, it
    ran on to one control state's 3,000,000; with Arrived's count a chain of relations, to the 4,096 ways through
    the moves' effects of its first state: 104 each of Step's 144 moves), and the refusal says both why the moves
    were not compiled and what spelling them out would cost: the ways its sampled Step ended in, times its moves."""
    told: list[int] = []

    def progress(statements: int, parts: int) -> None:
        told.append(parts)
        if parts > 100_000:
            raise _SpelledOn(parts)
    with pytest.raises(NotLowerable) as e:
        lower_game(load_game(game("halma5")), progress=progress)
    assert e.value.span.line == 176
    assert e.value.reason.startswith("the moves cannot be compiled: clear() changes the list 'Trail'")
    ((span, estimate),) = e.value.more
    assert span.file.endswith("halma5.tgpl") and (span.line, span.col) == (123, 12)  # at Step, as the lowering's
    assert "in one control state would end in about " in estimate and "through Step: about 104 a move" in estimate
    assert "more than the 4,096 ways through the moves' effects" in estimate and "hint: " in estimate
    assert max(told, default=0) <= 100_000
    r = CliRunner().invoke(main, ["to-gdl", game("halma5"), "-o", str(tmp_path / "h.kif")])
    assert r.exit_code == 2 and not (tmp_path / "h.kif").exists()
    assert "halma5.tgpl:176:13: error: not lowerable: the moves cannot be compiled" in r.output, r.output
    assert "halma5.tgpl:123:12: error: not lowerable: spelled out move by move, the moves' effects" in r.output


def test_dry_run_refuses_halma5_for_the_ways_its_steps_end_in():
    """The dry run's answer is the forecast's: refused, predicted, at Step, where the lowering refuses it; every
    one of Step's moves ends in 104 ways (the lowering's own count, measured over the 40 it runs before it refuses),
    so the estimate is 104 times Step's legal moves as the sample's walk of the candidates extrapolates them (144
    in the lowering; measured 15,024 ways for 144.5 moves), past three times the 4,096 the lowering allows one
    control state."""
    r = CliRunner().invoke(main, ["to-gdl", game("halma5"), "--dry-run", "--json"])
    out = json.loads(r.output)
    assert r.exit_code == 1 and out["verdict"] == "refused"
    (ways,) = [x for x in out["refusals"] if x["predicted"]]
    assert (ways["line"], ways["column"]) == (123, 12) and "about 104 a move of it" in ways["reason"]
    estimate = out["figures"]["ways through one state's moves estimated"]
    assert 3 * 4096 < estimate and abs(estimate - 104 * 144) <= 0.05 * 104 * 144  # the walk's moves, extrapolated


def test_halma5_with_flags_lowers_compiled_and_validates(tmp_path):
    """Validated by playouts to the end of the game; 574 rules with a body measured (2,494 before the compiled
    rules were folded over tables; issue 34 asks 2,000)."""
    out = tmp_path / "h.kif"
    r = CliRunner().invoke(main, ["to-gdl", game("halma5_flags"), "--moves", "compiled", "-o", str(out)])
    assert r.exit_code == 0, r.output
    text = out.read_text()
    assert "to the end of the game" in text.splitlines()[1] and "steps compared" in text.splitlines()[1]
    assert 0 < rules_with_a_body(text) <= 1_000
