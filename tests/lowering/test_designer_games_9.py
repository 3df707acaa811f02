"""Domineering on a 4x5 board, written as a designer writes it from the rule sheet
(tests/data/designers/domineering.tgpl): Vertical (player 0) places a domino on a cell and the one below it,
Horizontal (player 1) on a cell and the one to its right, both empty; a player who cannot place on their turn
loses, so the winner is the last to place. The cells are tiles of a square grid with a `Covered` flag, the
partner cell a function by the player, and whether the next player can place a loop over the board.

The game keeps a statistic nothing reads, `Board0.Placed += 1` (dominoes placed): as a fluent it refused the
game ("Board0.Placed takes more than 256 values ... numbers need a finite range"). It is no state of the
lowered game now (language decision 109): the game lowers, validated against the runtime, and its GDL says so
in its header and has no fluent of it. The runtime is checked first against an independent model of the rules
(a plain-Python board): the legal placements along seeded plays, and the move tree's first levels."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from differential import model_perft, plays_to_the_models_end, runtime_perft
from tgpl.cli import main
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game

ROWS, COLS = 4, 5
START = (frozenset(), 0)  # the covered cells (column, row), and the player to place


def partner(cell: tuple[int, int], who: int) -> tuple[int, int] | None:
    """The other cell a domino of `who` covers: below for Vertical (0), to the right for Horizontal (1)."""
    c, r = cell
    other = (c, r + 1) if who == 0 else (c + 1, r)
    return other if other[0] < COLS and other[1] < ROWS else None


def model_moves(state) -> list[tuple[int, int]]:
    covered, who = state
    return [(c, r) for r in range(ROWS) for c in range(COLS)
            if (c, r) not in covered and (o := partner((c, r), who)) is not None and o not in covered]


def model_apply(state, cell):
    """The next state, and the winner: the mover where the other player has no placement left, else None."""
    covered, who = state
    nxt = (covered | {cell, partner(cell, who)}, 1 - who)
    return nxt, (who if not model_moves(nxt) else None)


def model_text(who: int, cell: tuple[int, int]) -> str:
    return f"Seat#{who}.Place(at: Cells[{cell[0]}][{cell[1]}])"


def covered(state) -> frozenset:
    w = state.world
    return frozenset((c, r) for r in range(ROWS) for c in range(COLS)
                     if w.fields(w.named(f"Cells[{c}][{r}]"))["Covered"])


def test_domineering_move_tree_is_the_models():
    """15 upright placements first, then the tree to 3 plies, as the model counts it."""
    start = load_game(game("domineering")).initial_state(0)
    assert covered(start) == START[0]
    assert model_perft(model_moves, model_apply, START, 1) == 15
    model = [model_perft(model_moves, model_apply, START, d) for d in range(1, 4)]
    assert [runtime_perft(start, d) for d in range(1, 4)] == model


@pytest.mark.parametrize("seed", range(12))
def test_domineering_plays_to_the_models_end(seed):
    plays_to_the_models_end(load_game(game("domineering")).initial_state(0), START, Lcg(seed), model_moves, model_apply,
                            lambda model, m: model_text(model[1], m), covered)


def test_domineering_lowers_without_its_unread_counter(tmp_path):
    """Validated against the runtime, `Board0.Placed` named in the header and in no rule; check-gdl accepts it."""
    out = tmp_path / "domineering.kif"
    r = CliRunner().invoke(main, ["to-gdl", game("domineering"), "-o", str(out)])
    assert r.exit_code == 0, r.output
    kif = out.read_text()
    lines = kif.splitlines()
    assert lines[1].startswith("; validated: ") and "1,000 steps compared" in lines[1], lines[1]
    assert "; Not lowered: Board0.Placed (written, never read)." in lines
    body = "\n".join(line for line in lines if not line.startswith(";"))
    assert "placed" not in body and "(covered cells_0_0 no)" in body
    r = CliRunner().invoke(main, ["check-gdl", str(out)])
    assert r.exit_code == 0, r.output


def test_read_in_the_input_filter_the_counter_is_state(tmp_path):
    """The same game with `Placed` read in the placement's filter (a test that always holds): state again."""
    from tgpl.frontend.loader import load_program
    from tgpl.lowering.unread import unread_attributes

    source = open(game("domineering"), encoding="utf-8").read()
    written = "input Cell at { return Fits(c: at, who: player); }"
    assert written in source
    source = source.replace(written, "input Cell at { return Board0.Placed < 99 && Fits(c: at, who: player); }")
    program = load_program(str(tmp_path / "domineering.tgpl"), text=source)
    assert program.ok
    assert unread_attributes(program).names == frozenset()
    assert unread_attributes(load_program(game("domineering"))).labels == ("Board0.Placed",)
