"""Onitama-lite (5 x 5), written as a designer writes it from the rule sheet (tests/data/designers/onitama.tgpl):
each side's master and four students as values on squares (`Side`, `Master`); five move cards as data, each an
interactable with its steps in two lists of numbers (`DX`, `DY`, as player 0 sees them; player 1 plays them turned
round) and its holder (null beside the board), dealt in a fixed order by a function of setup taking the lists as
arguments; a move names a card the mover holds, a piece and a square one of the card's steps reaches, capturing a
piece of the other side there; the card then goes beside the board and the mover takes the card that lay there; a
player with no move passes, still exchanging a card. Capturing the other master wins, and so does the master on
the square the other master started on; forty moves draw.

The runtime is checked against an independent model: the move tree (perft) from the start, and seeded plays to
the end, the legal moves, the squares, where each card is and the count of moves compared at every move. No
random play passes (none of 30,000 by the model): onitama_march.tgpl deals five cards that only step forward,
whose plays pass often, to check the pass in the runtime and on the lowered game.

The lowering (CPU and peak memory measured once with /usr/bin/time on a shared two-core machine, not asserted):
the dry run says it lowers compiled (1.0 s, 56 MB); `tgpl to-gdl` (auto: compiled) 5.5 s, 147 MB, 76 rules with a
body, validated by 37 playouts to the end; `--moves spelled` 14.6 s, 148 MB; `tgpl to-asp` 45 s and 1.9 GB (its
replay of 20 plays on the ASP program). The cards' lists of steps are read as static tables. The sixteen cards
shuffled in setup (onitama_deal.tgpl) lower as the game of setup's seed (10.3 s, 344 MB), as the header says.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from click.testing import CliRunner

from differential import (checks_clean_and_plays, lowered_and_validated, model_perft, model_steps,
                          plays_to_the_seen_models_end, runtime_perft)
from tgpl.asp.reasoner import GdlGame
from tgpl.cli import main
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game

SQUARES = [(x, y) for x in range(5) for y in range(5)]
# Card#k in setup's order: its steps as player 0 sees them (dy = -1 one row forward), and its first holder
CARDS = [((0, -2), (0, 1)),                       # Tiger
         ((0, -1), (-2, 0), (2, 0)),              # Crab
         ((-1, -1), (1, -1), (-1, 1), (1, 1)),    # Monkey
         ((0, -1), (-1, 1), (1, 1)),              # Crane
         ((0, -1), (-1, 0), (1, 0))]              # Boar
TEMPLE = {0: (2, 0), 1: (2, 4)}  # the square each side's master wins on: the other master's start
DRAW_AFTER = 40
# The test's choosers: 500..504, whose plays (by the model) capture, take masters and draw at the cap, and 511, the
# first of 500..599 whose play ends on the temple (the tally below); no random play of 500..1499 passes
CHOOSERS = [500, 501, 502, 503, 504, 511]


def start_board() -> tuple:
    board = {}
    for x in range(5):
        board[(x, 0)] = (1, x == 2)
        board[(x, 4)] = (0, x == 2)
    return tuple(sorted(board.items()))


@dataclass(frozen=True)
class Onitama:
    """The model's state: the pieces ((x, y) -> (side, is master)) as a sorted tuple, each card's holder (None
    beside the board), the moves made and the side to move."""

    board: tuple = start_board()
    holders: tuple = (0, 0, 1, 1, None)
    made: int = 0
    who: int = 0

    def seen(self) -> tuple:
        return self.board, self.holders, self.made


def targets(s: Onitama, card: int, sq: tuple, cards: list = CARDS) -> list:
    """The squares the piece on `sq` reaches with `card`: each step, turned round for player 1, onto the board
    and not onto a piece of the mover's."""
    board = dict(s.board)
    turned = 1 if s.who == 0 else -1
    out = []
    for dx, dy in cards[card]:
        to = (sq[0] + turned * dx, sq[1] + turned * dy)
        if to in SQUARES and board.get(to, (None,))[0] != s.who:
            out.append(to)
    return out


def moves(s: Onitama, cards: list = CARDS) -> list:
    board = dict(s.board)
    out = [("move", c, sq, to) for c in range(5) if s.holders[c] == s.who
           for sq, (side, _) in board.items() if side == s.who for to in targets(s, c, sq, cards)]
    return out or [("pass", c) for c in range(5) if s.holders[c] == s.who]


def apply(s: Onitama, m: tuple):
    """The state after `m` and the result: the mover wins when the other master is gone or its own stands on the
    temple; forty moves draw; None while play goes on."""
    board = dict(s.board)
    if m[0] == "move":
        _, card, sq, to = m
        board[to] = board.pop(sq)
    else:
        card = m[1]
    holders = list(s.holders)
    holders[holders.index(None)] = s.who
    holders[card] = None
    after = Onitama(tuple(sorted(board.items())), tuple(holders), s.made + 1, 1 - s.who)
    if (1 - s.who, True) not in board.values() or board.get(TEMPLE[s.who]) == (s.who, True):
        return after, s.who
    if after.made >= DRAW_AFTER:
        return after, "draw"
    return after, None


def text(s: Onitama, m: tuple) -> str:
    if m[0] == "pass":
        return f"Seat#{s.who}.Pass(card: Card#{m[1]})"
    _, card, (fx, fy), (tx, ty) = m
    return f"Seat#{s.who}.Move(card: Card#{card}, from: Grid[{fx}][{fy}], to: Grid[{tx}][{ty}])"


def observed(state) -> tuple:
    """The runtime's pieces, each card's holder, and its count of moves."""
    w = state.world
    board = []
    for x, y in SQUARES:
        f = w.fields(w.named(f"Grid[{x}][{y}]"))
        if f["Side"] is not None:
            board.append(((x, y), (f["Side"], f["Master"])))
    holders = tuple(w.fields(w.named(f"Card#{k}"))["Holder"] for k in range(5))
    assert str(w.fields(w.named("Onitama"))["Beside"]) == f"Card#{holders.index(None)}"
    return tuple(sorted(board)), holders, int(w.fields(w.named("Onitama"))["Moves"])


def runtime_start():
    return load_game(game("onitama")).initial_state(0)



def model_play(chooser: int) -> None:
    plays_to_the_seen_models_end(runtime_start(), Onitama(), Lcg(chooser), moves, apply, text, observed)


def test_the_model_turns_cards_swaps_them_and_ends():
    """From the start player 0 has Tiger's two-forward and Crab's one-forward (not Crab's sideways jumps onto its own
    students, nor Tiger's back step off the board); the card used goes beside the board and the Boar comes to the
    mover; player 1 plays Monkey turned round; the temple and a master taken win; a player with no move passes."""
    s = Onitama()
    assert len(moves(s)) == 10
    s, _ = apply(s, ("move", 0, (2, 4), (2, 2)))
    assert s.holders == (None, 0, 1, 1, 0)
    assert set(targets(s, 2, (0, 0))) == {(1, 1)}  # Monkey for player 1: (1, 1) forward-right, turned round
    board = (((2, 1), (0, True)), ((2, 4), (1, True)))
    assert apply(Onitama(board=board), ("move", 0, (2, 1), (2, 2)))[1] is None
    board = (((2, 2), (0, True)), ((2, 4), (1, True)))
    assert apply(Onitama(board=board), ("move", 0, (2, 2), (2, 0)))[1] == 0  # Tiger onto the temple
    board = (((2, 2), (0, True)), ((2, 1), (1, True)))
    assert apply(Onitama(board=board), ("move", 1, (2, 2), (2, 1)))[1] == 0  # Crab takes the master
    board = tuple(((x, 0), (0, x == 0)) for x in range(5)) + (((4, 4), (1, True)),)  # player 0 all on the far row
    s = Onitama(board=board, holders=(None, 0, 1, 1, 0))  # Crab and Boar: forward off the board, sideways its own
    assert moves(s) == [("pass", 1), ("pass", 4)]
    assert apply(s, ("pass", 1)) == (Onitama(board, (0, None, 1, 1, 0), 1, 1), None)

def test_the_move_tree_is_the_models():
    """Perft from the start: the runtime's move tree to three plies is the model's."""
    assert runtime_perft(runtime_start(), 3) == model_perft(moves, apply, Onitama(), 3)


@pytest.mark.parametrize("chooser", CHOOSERS)
def test_seeded_plays_end_as_the_model_says(chooser):
    model_play(chooser)


def test_the_seeded_plays_meet_every_rule():
    """Over the plays above: captures, every card used, a master taken, the temple reached and a draw."""
    seen = {"capture": 0, "master taken": 0, "temple": 0}
    used, ends = set(), set()
    for chooser in CHOOSERS:
        rng, s, result = Lcg(chooser), Onitama(), None
        while result is None:
            ms = moves(s)
            m = ms[rng.below(len(ms))]
            used.add(m[1])
            taken = None if m[0] == "pass" else dict(s.board).get(m[3])
            seen["capture"] += taken is not None
            s, result = apply(s, m)
            if result in (0, 1):
                seen["master taken" if taken == (1 - result, True) else "temple"] += 1
        ends.add(result)
    assert min(seen.values()) > 0 and used == set(range(5)) and "draw" in ends, (seen, used, ends)


def test_onitama_checks_clean_and_plays_to_its_end():
    checks_clean_and_plays(game("onitama"))



# --- cards that only step forward: passes -------------------------------------------------------------------

MARCH = [((0, -1),), ((-1, -1), (1, -1)), ((0, -2),), ((0, -1), (1, -1)), ((-1, -1),)]  # Step, Fork, Leap, Stride, Lean
# onitama_march.tgpl's choosers: 602, the first of 600..699 whose play (by the model) passes, and 606, the first
# whose play moves again after a pass (the card taken gives a move)
MARCH_CHOOSERS = [602, 606]


def march_play(chooser: int) -> int:
    """A seeded play of onitama_march.tgpl beside the model with its cards: the passes it made."""
    passes = sum(m[0] == "pass" for m, _, _ in model_steps(lambda s: moves(s, MARCH), apply, Onitama(),
                                                           Lcg(chooser)))
    start = load_game(game("onitama_march")).initial_state(0)
    plays_to_the_seen_models_end(start, Onitama(), Lcg(chooser), lambda s: moves(s, MARCH), apply, text, observed)
    return passes


def test_forward_cards_make_players_pass_as_the_model_says():
    """onitama_march.tgpl: the same rules with five cards that only step forward, whose pieces get stuck. Over its
    plays the runtime passes where the model does (no move at all) and only there."""
    assert all(march_play(chooser) > 0 for chooser in MARCH_CHOOSERS)

# --- the lowering -------------------------------------------------------------------------------------

def test_the_dry_run_says_it_lowers_compiled():
    r = CliRunner().invoke(main, ["to-gdl", "--dry-run", game("onitama")])
    assert r.exit_code == 0, r.output
    assert "onitama.tgpl: lowers; its moves compiled once (an action has 3,125 ways to fill its inputs" in r.output
    assert "ok  function  Onitama.Reaches    rules with variables (compiled function)" in r.output


def test_onitama_lowers_compiled_and_validates(tmp_path):
    """`tgpl to-gdl` (auto): the moves compiled once, the cards' steps read from their lists as static tables,
    validated by playouts to the end."""
    kif, _ = lowered_and_validated(game("onitama"), tmp_path / "onitama.kif")
    assert "; Played one state at a time (its moves compiled)" in kif
    assert "; Not lowered: Card.Name (written, never read)." in kif


def test_the_shuffled_deal_lowers_as_the_game_of_the_seed(tmp_path):
    """onitama_deal.tgpl: the sixteen cards shuffled in setup and five dealt. The GDL is the game of setup's seed,
    the header says so at the shuffle, and validates; the seed deals other cards."""
    kif, _ = lowered_and_validated(game("onitama_deal"), tmp_path / "onitama_deal.kif")
    assert "; Chance: the game draws on its random numbers at " in kif
    assert "onitama_deal.tgpl:27:5: this GDL is the game of setup seed 0, one outcome of those draws." in kif

    def dealt(seed: int) -> tuple:
        w = load_game(game("onitama_deal")).initial_state(seed).world
        return tuple(w.fields(w.named(f"Card#{k}"))["Holder"] for k in range(16))

    assert dealt(0) != dealt(1) and sorted(map(str, dealt(0))) == sorted(map(str, dealt(1)))


def gdl_move(s: Onitama, m: tuple) -> str:
    if m[0] == "pass":
        return f"(pass seat_{s.who} card_{m[1]})"
    _, card, (fx, fy), (tx, ty) = m
    return f"(move seat_{s.who} card_{card} grid_{fx}_{fy} grid_{tx}_{ty})"


def test_the_forward_cards_lower_and_pass_on_the_reasoner(tmp_path):
    """onitama_march.tgpl lowers (auto: compiled), validated by playouts to the end; on the reasoner, the play of
    chooser 606 (passes, a move after them, and a draw at the cap) has the model's legal moves at every step."""
    lowered_and_validated(game("onitama_march"), tmp_path / "onitama_march.kif")
    g = GdlGame.load(tmp_path / "onitama_march.kif")
    st, s, rng, result, passes = g.initial_state(), Onitama(), Lcg(606), None, 0
    while result is None:
        ms = moves(s, MARCH)
        assert sorted(str(x) for x in st.legal_moves(f"player_{s.who}")) == sorted(gdl_move(s, m) for m in ms)
        m = ms[rng.below(len(ms))]
        passes += m[0] == "pass"
        st = st.apply([gdl_move(s, m), "noop"] if s.who == 0 else ["noop", gdl_move(s, m)])
        s, result = apply(s, m)
    assert result == "draw" and passes > 0 and st.is_terminal and st.goals == [50, 50]
