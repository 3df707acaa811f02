"""Checkers on a 6 x 6 board, written as a designer writes it (tests/data/designers/checkers6.tgpl): the men are
attributes of the squares (`Man`, `King`), each square knows its own coordinates (set in setup), captures are
compulsory (the `Step` action's `require` asks `MustCapture`, a scan of the board), and a multi-jump is several
`Jump` moves of one turn: after a capture the same player is passed the `Jumping` phase, where `Jump`'s first
filter admits only the piece that jumped (`GameState.Jumper`). Crowning ends the turn; a player left without a
move loses; 60 turns without a winner are a draw.

The runtime is checked against an independent model (a dict of pieces, the jumper, the turn count): the move
tree's first levels and seeded plays to their end, chains of jumps among them. What the lowering does with it is
in `test_auto_compiles_the_moves_of_both_actions_together` and the tests after it."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from differential import model_perft, plays_to_the_models_end, runtime_perft
from tgpl.cli import main
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game

SIZE, DRAW_AFTER = 6, 60


def start_board() -> tuple:
    """The pieces as sorted ((x, y), owner, king) triples."""
    return tuple(sorted(((x, y), 0 if y < 2 else 1, False) for x in range(SIZE) for y in range(SIZE)
                        if (x + y) % 2 == 1 and (y < 2 or y > 3)))


# the model's state: ((pieces,), (player to move, the jumper's square or None, turns made))
START = ((start_board(),), (0, None, 0))


def forward(owner: int, king: bool, dy: int) -> bool:
    return king or dy == (1 if owner == 0 else -1)


def inside(x: int, y: int) -> bool:
    return 0 <= x < SIZE and 0 <= y < SIZE


def jumps_from(at: dict, sq: tuple) -> list:
    """The squares the piece on `sq` may jump to: over an enemy piece onto the empty square beyond."""
    owner, king = at[sq]
    out = []
    for dx in (-1, 1):
        for dy in (-1, 1):
            over, land = (sq[0] + dx, sq[1] + dy), (sq[0] + 2 * dx, sq[1] + 2 * dy)
            if forward(owner, king, dy) and inside(*land) and over in at and at[over][0] != owner and land not in at:
                out.append(land)
    return out


def steps_from(at: dict, sq: tuple) -> list:
    owner, king = at[sq]
    return [(sq[0] + dx, sq[1] + dy) for dx in (-1, 1) for dy in (-1, 1)
            if forward(owner, king, dy) and inside(sq[0] + dx, sq[1] + dy) and (sq[0] + dx, sq[1] + dy) not in at]


def model_moves(state):
    """("jump" | "step", from, to) moves: the jumper's jumps in a chain, else every jump, else every step."""
    (pieces,), (who, jumper, _) = state
    at = {sq: (o, k) for sq, o, k in pieces}
    if jumper is not None:
        return [("jump", jumper, t) for t in jumps_from(at, jumper)]
    mine = sorted(sq for sq, (o, _) in at.items() if o == who)
    jumps = [("jump", sq, t) for sq in mine for t in jumps_from(at, sq)]
    return jumps or [("step", sq, t) for sq in mine for t in steps_from(at, sq)]


def model_apply(state, move):
    (pieces,), (who, _, turns) = state
    kind, a, b = move
    at = {sq: (o, k) for sq, o, k in pieces}
    owner, king = at.pop(a)
    if kind == "jump":
        del at[((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)]
    crowned = not king and b[1] == (SIZE - 1 if owner == 0 else 0)
    at[b] = (owner, king or crowned)
    pieces = tuple(sorted((sq, o, k) for sq, (o, k) in at.items()))
    if kind == "jump" and not crowned and jumps_from(at, b):
        return ((pieces,), (who, b, turns)), None
    turns += 1
    other = 1 - who
    if not any(steps_from(at, sq) or jumps_from(at, sq) for sq, (o, _) in at.items() if o == other):
        return ((pieces,), (other, None, turns)), who
    if turns >= DRAW_AFTER:
        return ((pieces,), (other, None, turns)), "draw"
    return ((pieces,), (other, None, turns)), None


def model_text(state, move) -> str:
    (_,), (who, _, _) = state
    kind, (x, y), (u, v) = move
    return f"Side#{who}.{kind.capitalize()}(from: Squares[{x}][{y}], to: Squares[{u}][{v}])"


def observed(state) -> tuple:
    w = state.world
    out = []
    for x in range(SIZE):
        for y in range(SIZE):
            f = w.fields(w.named(f"Squares[{x}][{y}]"))
            if f["Man"] is not None:
                out.append(((x, y), int(f["Man"]), bool(f["King"])))
    return (tuple(sorted(out)),)


def test_the_model_chains_jumps_and_stops_a_chain_at_the_crown():
    pieces = (((1, 1), 0, False), ((2, 2), 1, False), ((2, 4), 1, False), ((5, 5), 1, False))
    state = ((pieces,), (0, None, 0))
    assert model_moves(state) == [("jump", (1, 1), (3, 3))]
    state, won = model_apply(state, ("jump", (1, 1), (3, 3)))
    assert won is None and state[1] == (0, (3, 3), 0)   # the same piece must go on
    assert model_moves(state) == [("jump", (3, 3), (1, 5))]
    state, won = model_apply(state, ("jump", (3, 3), (1, 5)))
    assert state[0][0] == (((1, 5), 0, True), ((5, 5), 1, False)) and state[1] == (1, None, 1)
    assert won is None  # the man on (5, 5) can still step to (4, 4)


def test_checkers_move_tree_is_the_models():
    start = load_game(game("checkers6")).initial_state(0)
    assert observed(start) == START[0]
    model = [model_perft(model_moves, model_apply, START, d) for d in range(1, 5)]
    assert model[0] == 5
    assert [runtime_perft(start, d) for d in range(1, 5)] == model


@pytest.mark.parametrize("seed", range(16))
def test_checkers_plays_to_the_models_end(seed):
    plays_to_the_models_end(load_game(game("checkers6")).initial_state(0), START, Lcg(seed), model_moves,
                            model_apply, model_text, observed)


def test_seeded_plays_chain_jumps_crown_men_and_end_every_way():
    """The plays above are not all alike: over 16 seeds some turns are chains of jumps, some men are crowned,
    and both wins and the draw occur (checked on the model, which the plays above hold the runtime to)."""
    chains = crowns = 0
    results = set()
    for seed in range(16):
        rng, state, result = Lcg(seed), START, None
        while result is None:
            ms = model_moves(state)
            state, result = model_apply(state, ms[rng.below(len(ms))])
            chains += state[1][1] is not None
        crowns += any(k for _, _, k in state[0][0])
        results.add(result)
    assert chains > 0 and crowns > 0
    assert results == {0, 1, "draw"}, results


def test_checkers_checks_clean():
    r = CliRunner().invoke(main, ["check", game("checkers6")])
    assert r.exit_code == 0 and "warning" not in r.output, r.output


def test_compiled_moves_take_the_division():
    """`--moves compiled` compiles `Jump`, whose filter halves the jump (`dy / 2`): a table of the exact quotients
    the relaxation asks (tgpl.lowering.horn); it was refused at the division (217:58)."""
    r = CliRunner().invoke(main, ["to-gdl", "--dry-run", "--moves", "compiled", game("checkers6")])
    assert r.exit_code == 0, r.output
    assert "ok  action    Side.Jump" in r.output and "ok  action    Side.Step" in r.output


def test_auto_compiles_the_moves_of_both_actions_together():
    """Step and Jump have 1,296 ways each to fill their inputs, under `auto`'s 2,000 for one action, but 2,592
    together (`compiled.all_moves`): compiled. Spelled out (as it was), 3.3 million parts of conditions (2,571 a
    move, as five in a row's 2,376 that stays spelled out, under the spelled-out budget's 8,000), 26,013 rules
    with a body (a rule set per pair of squares), 108 s of CPU and 715 MB: past issue 34's budgets."""
    r = CliRunner().invoke(main, ["to-gdl", "--dry-run", game("checkers6")])
    assert r.exit_code == 0, r.output
    assert "checkers6.tgpl: lowers; its moves compiled once (the actions have 2,592 ways to fill their inputs " \
           "together, more than 2,000)" in r.output


def test_checkers_lowers_compiled_and_validates(tmp_path):
    """`auto` (compiled, above), the game as written, its halvings (`dy / 2`, `(from.X + to.X) / 2`) tables of the
    even numbers the relaxation asks for: validated by playouts to the end of the game, 1,231 rules with a body
    (11.3 s of CPU, 185 MB, measured once), within issue 34's budgets (with the halvings written by signs
    instead, 1,354 rules, 11 s). 1,338 before the ways that read a jump landing where it leaves were dropped
    (tgpl.lowering.unplayable)."""
    r = CliRunner().invoke(main, ["to-gdl", game("checkers6"), "-o", str(tmp_path / "c.kif")])
    assert r.exit_code == 0, r.output
    kif = (tmp_path / "c.kif").read_text(encoding="utf-8")
    validated = kif.splitlines()[1]
    assert validated.startswith("; validated: ") and "to the end of the game" in validated, validated
    assert kif.count("\n(<=") <= 1_300
    assert "(divide ?" in kif  # the halving is the table's, not folded away
