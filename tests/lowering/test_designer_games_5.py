"""Two games written as designers write them (tests/data/designers), each checked on the runtime against an
independent Python model, then lowered.

Konane (tests/data/designers/konane.tgpl), written as a designer writes it from the rule sheet, in a
style the tool was not tuned to: stones as numbers (0 empty, 1 black, 2 white) with the seat's colour an
attribute, an opening in two phases gated by `turn.phase.active()` in the filters, directions from list
constants, a jump's landing found by a `while (true)` walk with early returns, and the stones jumped
removed by a `while` walk in the effect that writes the hole it passes over. The runtime is checked
against an independent Python model (perft and seeded plays to the end), then lowered and validated.

Its lowering once ran the spelled-out strategy's range search for minutes: the compiled moves were
refused because the relaxation's numeric slice left `At(r + dr, c + dc).Stone = 0` unsafe (the hole bound
by nothing once the arithmetic was dropped) and because the effect's walk, relaxed, never met its target
and ran past the board (a write to a hole that is null, which the runtime stops at, was not a stop).

Quarto (quarto.tgpl) is written as docs/language.md shows a turn: the phases `Give` and `Place` have an
input and an effect of their own. The lowering once said "no move ever ends the game with a winner" (it took
only actions' inputs for moves); a phase's one input its player picks is now a move of its own (decision
101), and quarto.tgpl lowers and validates, as does quarto_actions.tgpl, the same game with actions of a
seat testing the phase. A phase with several inputs is still refused at once, where they are.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tgpl.cli import main
from tgpl.lowering.compiled import FORGOTTEN, _without
from tgpl.lowering.ir import Atom, Const, Rule, Var
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game
from test_designer_games_4 import lowers_validated

DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def at(r: int, c: int) -> int | None:
    return r * 4 + c if 0 <= r < 4 and 0 <= c < 4 else None


def jumps(board: tuple, me: int) -> list[tuple[int, int, int]]:
    """(from, to, stones jumped) for every jump of colour `me`."""
    out = []
    for i in range(16):
        if board[i] != me:
            continue
        r, c = divmod(i, 4)
        for dr, dc in DIRS:
            k = 1
            while True:
                o, land = at(r + (2 * k - 1) * dr, c + (2 * k - 1) * dc), at(r + 2 * k * dr, c + 2 * k * dc)
                if o is None or land is None or board[o] in (0, me) or board[land] != 0:
                    break
                out.append((i, land, k))
                k += 1
    return out


def model_moves(state) -> list[tuple]:
    board, phase, p = state
    me = p + 1
    if phase == "Opening":
        return [("Open", i) for i in range(16) if board[i] == me and (
            (i // 4 in (0, 3) and i % 4 in (0, 3)) or (i // 4 in (1, 2) and i % 4 in (1, 2)))]
    if phase == "Reply":
        return [("Answer", i) for i in range(16) if board[i] == me and any(
            (n := at(i // 4 + dr, i % 4 + dc)) is not None and board[n] == 0 for dr, dc in DIRS)]
    return [("Jump", i, land, k) for i, land, k in jumps(board, me)]


def model_text(p: int, m: tuple) -> str:
    def hole(i):
        return f"Holes[{i // 4}][{i % 4}]"
    if m[0] == "Jump":
        return f"Side#{p}.Jump(from: {hole(m[1])}, to: {hole(m[2])})"
    return f"Side#{p}.{m[0]}(h: {hole(m[1])})"


def model_apply(state, m: tuple):
    """The next state, and the winner (None while the game goes on)."""
    board, phase, p = state
    b = list(board)
    if m[0] in ("Open", "Answer"):
        b[m[1]] = 0
    else:
        i, land, k = m[1:]
        (r, c), (lr, lc) = divmod(i, 4), divmod(land, 4)
        dr, dc = (lr > r) - (lr < r), (lc > c) - (lc < c)
        for j in range(k):
            b[at(r + (2 * j + 1) * dr, c + (2 * j + 1) * dc)] = 0
        b[land], b[i] = p + 1, 0
    if phase == "Opening":
        return (tuple(b), "Reply", 1), None
    return (tuple(b), "Play", 1 - p), (p if not jumps(tuple(b), 2 - p) else None)


START = (tuple(1 if (i // 4 + i % 4) % 2 == 0 else 2 for i in range(16)), "Opening", 0)


def test_konane_move_tree_is_the_models():
    """Every legal move, every end and its winner, to depth 9 (the first ends come at depth 6)."""
    ends = 0

    def walk(state, model, depth):
        nonlocal ends
        assert sorted(m.text for m in state.legal_moves()) == sorted(model_text(model[2], m) for m in model_moves(model))
        if depth == 0:
            return 1
        n = 0
        for m in model_moves(model):
            nxt, won = model_apply(model, m)
            s2 = state.apply(state.move_by_text(model_text(model[2], m)))
            assert s2.is_terminal == (won is not None)
            if won is not None:
                ends += 1
                assert s2.goals[won] > s2.goals[1 - won]
                continue
            n += walk(s2, nxt, depth - 1)
        return n

    g = load_game(game("konane"))
    assert [walk(g.initial_state(), START, d) for d in (1, 2, 3, 4, 5)] == [4, 12, 16, 52, 120]
    assert walk(g.initial_state(), START, 9) == 5908
    assert ends > 0


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_konane_plays_to_the_models_end(seed):
    g = load_game(game("konane"))
    state, model, rng = g.initial_state(), START, Lcg(seed)
    while True:
        moves = model_moves(model)
        m = moves[rng.below(len(moves))]
        state = state.apply(state.move_by_text(model_text(model[2], m)))
        model, won = model_apply(model, m)
        if won is not None:
            assert state.is_terminal and state.goals[won] > state.goals[1 - won]
            return
        assert not state.is_terminal


def test_konane_lowers_validated_and_passes_check_gdl(tmp_path):
    lowers_validated(tmp_path, "konane")


def test_a_value_only_dropped_literals_bound_is_forgotten_or_ranges_over_its_domain():
    """The numeric slice's rules stay safe: a relation's position bound only by a dropped literal is written
    FORGOTTEN and read as anything; a counter's object bound only so is every object that has it."""
    x, y, v = Var("X"), Var("Y"), Var("V")
    rules = [Rule(Atom("seg|step", (x, y)), (Atom("start", (x,)), Atom("#plus", (x, Const("1"), y)))),
             Rule(Atom("num|Stone", (y, Const("0"))), (Atom("seg|step", (x, y)),)),
             Rule(Atom("seg|done", (x,)), (Atom("seg|step", (x, y)), Atom("seg|other", (y,))))]
    made = _without(rules, lambda a, r: a.relation == "#plus", {("num|Stone", 0): "#objects:Stone"})
    step, stone, done = made
    assert step.head.args == (x, FORGOTTEN) and step.body == (Atom("start", (x,)),)
    # the read of the forgotten position joins nothing; the counter's object is any that has it
    assert stone.head.args[0] == y and Atom("#objects:Stone", (y,)) in stone.body
    assert not any(a == y for b in stone.body if b.relation == "seg|step" for a in b.args)
    assert all(a != y for b in done.body if b.relation == "seg|step" for a in b.args)


# --- Quarto -------------------------------------------------------------------------------------------

LINES = ([[(a, b) for b in range(4)] for a in range(4)] + [[(a, b) for a in range(4)] for b in range(4)]
         + [[(k, k) for k in range(4)], [(k, 3 - k) for k in range(4)]])


def quarto_won(board: dict) -> bool:
    """A line of four pieces that share a trait (piece i has the traits of i's four bits)."""
    for line in LINES:
        pieces = [board.get(sq) for sq in line]
        if None not in pieces and any(len({(p >> bit) & 1 for p in pieces}) == 1 for bit in range(4)):
            return True
    return False


@pytest.mark.parametrize("name", ["quarto", "quarto_actions"])
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_quarto_plays_to_the_models_end(name, seed):
    """Both spellings play the model's game: every legal move, the winner or the draw."""
    g = load_game(game(name))
    state, rng = g.initial_state(), Lcg(seed)
    board: dict = {}
    used: set = set()
    p, phase, held = 0, "Give", None
    while True:
        if phase == "Give":
            options = [i for i in range(16) if i not in used]
            texts = [f"Piece#{i}" if name == "quarto" else f"Seat#{p}.Give(p: Piece#{i})" for i in options]
        else:
            options = [(a, b) for a in range(4) for b in range(4) if (a, b) not in board]
            texts = [f"Squares[{a}][{b}]" if name == "quarto" else f"Seat#{p}.Place(s: Squares[{a}][{b}])"
                     for a, b in options]
        assert sorted(m.text for m in state.legal_moves()) == sorted(texts)
        k = rng.below(len(options))
        state = state.apply(state.move_by_text(texts[k]))
        if phase == "Give":
            held, phase, p = options[k], "Place", 1 - p
            used.add(held)
        else:
            board[options[k]] = held
            if quarto_won(board):
                assert state.is_terminal and state.goals[p] > state.goals[1 - p]
                return
            if len(board) == 16:
                assert state.is_terminal and state.goals[0] == state.goals[1]
                return
            phase = "Give"
        assert not state.is_terminal


def test_quarto_with_phase_inputs_lowers_validated(tmp_path):
    """A phase's own input is a move of its own, named after the phase and the input, the runtime's text
    being the value picked (docs/lowering.md, "Moves")."""
    out = tmp_path / "quarto.kif"
    r = CliRunner().invoke(main, ["to-gdl", game("quarto"), "-o", str(out)])
    assert r.exit_code == 0, r.output
    text = out.read_text()
    validated = text.splitlines()[1]
    assert "to the end of the game" in validated, validated
    assert int(validated.split(" steps compared")[0].rsplit(" ", 1)[1].replace(",", "")) >= 1000
    assert ";   (give_p piece_3) = Piece#3" in text and ";   (place_s squares_1_2) = Squares[1][2]" in text
    assert "(<= (legal player_0 (give_p ?piece))" in text
    assert CliRunner().invoke(main, ["check-gdl", str(out)]).exit_code == 0
    dry = CliRunner().invoke(main, ["to-gdl", "--dry-run", game("quarto")])
    assert dry.exit_code == 0 and "Round.Place  its input a move of its own" in dry.output, dry.output
    compiled = CliRunner().invoke(main, ["to-gdl", "--moves", "compiled", game("quarto"), "-o", str(out)])
    assert compiled.exit_code == 2 and "quarto.tgpl:110:9: error: not lowerable: a game whose phase asks an input" \
        in compiled.output, compiled.output


def test_phase_input_after_an_action_is_bisimilar(tmp_path):
    """Actions in one phase, then a phase of its own input (a player, its filter reading the state): the
    GDL is the runtime's game, state for state."""
    src = Path(__file__).parent.parent / "data" / "lowering" / "phase_input.tgpl"
    out = tmp_path / "phase_input.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(src), "-o", str(out)])
    assert r.exit_code == 0, r.output
    text = out.read_text()
    assert "; validated: bisimulation, 59 states" in text.splitlines()[1], text.splitlines()[1]
    assert ";   (mark_who player_1) = 1" in text and ";   (take_2 seat_0 yes) = Seat#0.Take(big: true)" in text
    assert CliRunner().invoke(main, ["check-gdl", str(out)]).exit_code == 0
    r = CliRunner().invoke(main, ["compare", str(src), str(out)])
    assert r.exit_code == 0 and "equivalent" in r.output, r.output


def test_phase_with_two_inputs_is_refused_at_once_where_they_are(tmp_path):
    """Two inputs are two decisions in a row, with no control state between them: still refused, located."""
    src = Path(game("quarto")).read_text().replace(
        "        input Square s\n", "        input Piece q { return true; }\n        input Square s\n")
    path = tmp_path / "quarto2.tgpl"
    path.write_text(src)
    out = tmp_path / "quarto2.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(path), "-o", str(out)])
    assert r.exit_code == 2 and not out.exists()
    errors = [line for line in r.output.splitlines() if ": error: " in line]
    assert len(errors) == 1, r.output
    assert "quarto2.tgpl:124:9: error: not lowerable: the inputs of phase 'Place' are not lowerable yet" in errors[0]
    assert "an action of a class" in errors[0]
    dry = CliRunner().invoke(main, ["to-gdl", "--dry-run", str(path)])
    assert dry.exit_code == 1 and "does not lower" in dry.output, dry.output


def test_phase_input_effect_that_keeps_the_phase_is_refused(tmp_path):
    """A way through the phase's effect that does not pass would wait in the phase for actions, which its
    control cannot tell from waiting for its input."""
    src = Path(game("quarto")).read_text().replace(
        '            turn.pass(player.active() + 1, "Place");\n',
        '            if (p.Tall) { turn.pass(player.active() + 1, "Place"); }\n')
    path = tmp_path / "quarto3.tgpl"
    path.write_text(src)
    r = CliRunner().invoke(main, ["to-gdl", str(path), "-o", str(tmp_path / "q.kif")])
    assert r.exit_code == 2 and not (tmp_path / "q.kif").exists()
    assert "quarto3.tgpl:108:11: error: not lowerable: a way through phase Give after its input does not pass" \
        in r.output, r.output


def test_quarto_written_with_actions_lowers_validated(tmp_path):
    lowers_validated(tmp_path, "quarto_actions")
