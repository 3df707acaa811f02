"""Dobutsu Shogi ("Let's catch the lion", 3 x 4), written as a designer writes it from the rule sheet
(tests/data/designers/dobutsu.tgpl): the board as values on squares (the kind of the piece, a global object of a
`Kind` class, and its side), pieces in hand as counters per seat and kind (`Chicks`, `Giraffes`, `Elephants` on the
seat), a move of a piece (`Move`) or a drop from the hand on an empty square (`Drop`, the kind chosen as a global
object); the lion steps in eight directions, the giraffe orthogonally, the elephant diagonally, the chick forward,
promoting to a hen (a gold general) on the far row; a captured piece goes to the captor's hand, a hen as a chick;
capturing the lion wins, and so does the try (the mover's lion on the far row where nothing attacks it); sixty
plies draw.

The runtime is checked against an independent model: the move tree (perft) from the start, and seeded plays to
the end, the legal moves, the squares, the hands and the count of moves compared at every move.

The lowering as a designer tries it (CPU and peak memory measured once with /usr/bin/time on a shared two-core
machine, not asserted):
- the dry run (35 s, 66 MB) is undecided (exit 2): the search of the numbers' ranges passes its budget ranging the
  plies and the hands' counters (the chicks already at 6: the search sees no board, which bounds a hand by the two
  pieces of a kind); `tgpl to-gdl` (auto, spelled out) stops at `--max-seconds 300` in that search (76 s of CPU),
  naming the same counters, with the hint "test it before it changes ... or fewer of them (a count read from the
  board instead of kept)";
- the first hint followed (`Chicks < 2` before each `Chicks += 1`, never false in play) lowers spelled out and
  validates (83 playouts to the end) in 107 s of CPU, 134 MB, 1,134 rules with a body (not pinned: too slow);
- the second followed, the hands as spots beside the board (dobutsu_stand.tgpl, the same moves), lowers spelled
  out (auto and `--moves spelled` give the same bytes) in 11 s of CPU, 211 MB, 433 rules with a body, validated
  by 83 playouts to the end; `--moves compiled` 3.0 s, 76 MB, 166 rules; `tgpl to-asp` 15.5 s, 304 MB;
- `--moves compiled` of the counted hands is refused at `Chicks += 1` (2.0 s): nothing tests a hand before it
  changes (the drop filter `Held(kind: kind) > 0` tests a function's result, which the range search evaluates but
  which bounds no write); of the guarded hands it lowers, the filter's `Held` evaluated over the hands' ranges,
  in 5.3 s of CPU, 120 MB, 341 rules with a body, validated by 83 playouts to the end
  (tests/lowering/test_counted_legality.py). A `Held` that reads some counters through another function is
  refused at the filter, with the rewrites that lower it (either lowers compiled and validates, 4.8 s of CPU,
  120 MB); the dry run with `--moves compiled` refuses it alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from differential import (checks_clean_and_plays, lowered_and_validated, model_perft, plays_to_the_seen_models_end,
                          runtime_perft)
from tgpl.cli import main
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game
from to_gdl_runs import to_gdl, variant

SQUARES = [(x, y) for x in range(3) for y in range(4)]
START = {(0, 0): ("Giraffe", 1), (1, 0): ("Lion", 1), (2, 0): ("Elephant", 1), (1, 1): ("Chick", 1),
         (1, 2): ("Chick", 0), (0, 3): ("Elephant", 0), (1, 3): ("Lion", 0), (2, 3): ("Giraffe", 0)}
HAND_KINDS = ("Chick", "Giraffe", "Elephant")  # a hand's counters, in the seat's order
DRAW_AFTER = 60
# The test's choosers: 400..403, whose plays (by the model) meet every rule but the cap (the tally below), and
# 1486, the first of 400..1999 whose play reaches the cap: random plays of sixty plies rarely draw
CHOOSERS = [400, 401, 402, 403, 1486]


@dataclass(frozen=True)
class Dobutsu:
    """The model's state: the pieces on the board ((x, y) -> (kind, side)) as a sorted tuple, each seat's hand
    (chicks, giraffes, elephants), the plies made and the side to move."""

    board: tuple = tuple(sorted(START.items()))
    hands: tuple = ((0, 0, 0), (0, 0, 0))
    made: int = 0
    who: int = 0

    def seen(self) -> tuple:
        return self.board, self.hands, self.made


def forward(side: int) -> int:
    return -1 if side == 0 else 1


def far_row(side: int) -> int:
    return 0 if side == 0 else 3


def steps(kind: str, side: int, dx: int, dy: int) -> bool:
    """Whether a piece of `kind` of `side` moves by (dx, dy): one square, in the directions its kind has."""
    if max(abs(dx), abs(dy)) != 1:
        return False
    orthogonal = abs(dx) + abs(dy) == 1
    return {"Lion": True, "Giraffe": orthogonal, "Elephant": not orthogonal,
            "Chick": dx == 0 and dy == forward(side),
            "Hen": orthogonal or dy == forward(side)}[kind]


def attacked(board: dict, at: tuple, side: int) -> bool:
    return any(s == side and steps(k, s, at[0] - x, at[1] - y) for (x, y), (k, s) in board.items())


def moves(s: Dobutsu) -> list:
    board = dict(s.board)
    out = [("move", sq, to) for sq, (k, side) in board.items() if side == s.who for to in SQUARES
           if board.get(to, (None, None))[1] != s.who and steps(k, side, to[0] - sq[0], to[1] - sq[1])]
    out += [("drop", kind, to) for i, kind in enumerate(HAND_KINDS) if s.hands[s.who][i] > 0
            for to in SQUARES if to not in board]
    return out


def apply(s: Dobutsu, m: tuple):
    """The state after `m` and the result: the mover wins when the other lion is gone or by the try, sixty plies
    draw; None while play goes on."""
    board = dict(s.board)
    hand = list(s.hands[s.who])
    if m[0] == "move":
        _, sq, to = m
        if to in board:
            kind = board[to][0]
            if kind != "Lion":
                hand[HAND_KINDS.index("Chick" if kind == "Hen" else kind)] += 1
        kind = board.pop(sq)[0]
        if kind == "Chick" and to[1] == far_row(s.who):
            kind = "Hen"
        board[to] = (kind, s.who)
    else:
        _, kind, to = m
        hand[HAND_KINDS.index(kind)] -= 1
        board[to] = (kind, s.who)
    hands = list(s.hands)
    hands[s.who] = tuple(hand)
    after = Dobutsu(tuple(sorted(board.items())), tuple(hands), s.made + 1, 1 - s.who)
    other = 1 - s.who
    if ("Lion", other) not in board.values():
        return after, s.who
    if any(board.get((x, far_row(s.who))) == ("Lion", s.who) and not attacked(board, (x, far_row(s.who)), other)
           for x in range(3)):
        return after, s.who
    if after.made >= DRAW_AFTER:
        return after, "draw"
    return after, None


def text(s: Dobutsu, m: tuple) -> str:
    if m[0] == "move":
        (fx, fy), (tx, ty) = m[1], m[2]
        return f"Seat#{s.who}.Move(from: Grid[{fx}][{fy}], to: Grid[{tx}][{ty}])"
    x, y = m[2]
    return f"Seat#{s.who}.Drop(kind: {m[1]}, to: Grid[{x}][{y}])"


def board_of(w) -> list:
    """The runtime's pieces on the board: ((x, y), (kind, side)) for each occupied square."""
    board = []
    for x, y in SQUARES:
        f = w.fields(w.named(f"Grid[{x}][{y}]"))
        if f["Piece"] is not None:
            board.append(((x, y), (str(f["Piece"]), f["Side"])))
    return board


def observed(state) -> tuple:
    """The runtime's pieces on the board, the seats' hands, and its count of moves."""
    w = state.world
    board = board_of(w)
    hands = tuple(tuple(int(w.fields(w.named(f"Seat#{p}"))[n]) for n in ("Chicks", "Giraffes", "Elephants"))
                  for p in range(2))
    return tuple(sorted(board)), hands, int(w.fields(w.named("Dobutsu"))["Moves"])


def runtime_start():
    return load_game(game("dobutsu")).initial_state(0)



def model_play(chooser: int) -> None:
    plays_to_the_seen_models_end(runtime_start(), Dobutsu(), Lcg(chooser), moves, apply, text, observed)


def test_the_model_promotes_captures_drops_and_tries():
    """Hand-set positions: a chick reaching the far row becomes a hen, and a captured hen goes to the hand as a
    chick; a piece in hand drops on every empty square; the lion's try wins where nothing attacks the square and
    not where something does; capturing the lion wins."""
    s = Dobutsu(board=(((1, 0), ("Lion", 1)), ((1, 1), ("Chick", 0)), ((1, 3), ("Lion", 0))))
    assert apply(s, ("move", (1, 1), (1, 0)))[1] == 0  # the chick takes the lion
    s = Dobutsu(board=(((0, 1), ("Chick", 0)), ((1, 0), ("Lion", 1)), ((1, 3), ("Lion", 0))))
    s, won = apply(s, ("move", (0, 1), (0, 0)))
    assert won is None and dict(s.board)[(0, 0)] == ("Hen", 0)
    s, won = apply(s, ("move", (1, 0), (0, 0)))  # the lion takes the hen: a chick in the hand
    assert won is None and s.hands[1] == (1, 0, 0) and not [m for m in moves(s) if m[0] == "drop"]
    s = Dobutsu(s.board, s.hands, s.made, 1)
    assert [m for m in moves(s) if m[0] == "drop"] == [("drop", "Chick", sq) for sq in SQUARES
                                                       if sq not in dict(s.board)]
    # the try: player 0's lion onto the far row, attacked there by the lion at (1, 0), then not
    s = Dobutsu(board=(((1, 0), ("Lion", 1)), ((2, 1), ("Lion", 0))))
    assert apply(s, ("move", (2, 1), (2, 0)))[1] is None
    s = Dobutsu(board=(((0, 3), ("Lion", 1)), ((2, 1), ("Lion", 0))))
    assert apply(s, ("move", (2, 1), (2, 0)))[1] == 0


def test_the_move_tree_is_the_models():
    """Perft from the start: the runtime's move tree to four plies is the model's."""
    assert runtime_perft(runtime_start(), 4) == model_perft(moves, apply, Dobutsu(), 4)


@pytest.mark.parametrize("chooser", CHOOSERS)
def test_seeded_plays_end_as_the_model_says(chooser):
    model_play(chooser)


def test_the_seeded_plays_meet_every_rule():
    """Over the plays above: captures, drops, promotions, a hen captured, tries, lions captured, both sides
    winning and a draw."""
    seen = {"capture": 0, "drop": 0, "promotion": 0, "hen captured": 0, "try": 0, "lion captured": 0}
    ends = set()
    for chooser in CHOOSERS:
        rng, s, result = Lcg(chooser), Dobutsu(), None
        while result is None:
            ms = moves(s)
            m = ms[rng.below(len(ms))]
            board = dict(s.board)
            if m[0] == "drop":
                seen["drop"] += 1
            else:
                taken = board.get(m[2], (None,))[0]
                seen["capture"] += taken is not None
                seen["hen captured"] += taken == "Hen"
                seen["promotion"] += board[m[1]][0] == "Chick" and m[2][1] == far_row(s.who)
            s, result = apply(s, m)
            if result in (0, 1):
                seen["lion captured" if m[0] == "move" and taken == "Lion" else "try"] += 1
        ends.add(result)
    assert min(seen.values()) > 0 and ends == {0, 1, "draw"}, (seen, ends)


def test_dobutsu_checks_clean_and_plays_to_its_end():
    checks_clean_and_plays(game("dobutsu"))


# --- the hands as spots beside the board -----------------------------------------------------------------

def stand_observed(state) -> tuple:
    """dobutsu_stand.tgpl's pieces, hands and moves, each hand counted from its row of the stand (`Stand[slot][seat]`,
    two spots a kind), whose second spot of a kind is full only where its first is."""
    w = state.world
    board = board_of(w)
    hands = []
    for p in range(2):
        spots = [w.fields(w.named(f"Stand[{slot}][{p}]"))["Piece"] for slot in range(6)]
        assert all(spots[2 * k] is not None or spots[2 * k + 1] is None for k in range(3)), spots
        assert all(s is None or str(s) == HAND_KINDS[i // 2] for i, s in enumerate(spots)), spots
        hands.append(tuple(sum(s is not None for s in spots[2 * k:2 * k + 2]) for k in range(3)))
    return tuple(sorted(board)), tuple(hands), int(w.fields(w.named("Dobutsu"))["Moves"])


def test_the_stand_plays_the_same_game():
    """dobutsu_stand.tgpl (the hand a row of spots, two for each kind: a capture fills the first empty spot of its
    kind, a drop empties the last full one) has the model's move tree and plays."""
    start = load_game(game("dobutsu_stand")).initial_state(0)
    assert runtime_perft(start, 3) == model_perft(moves, apply, Dobutsu(), 3)
    for chooser in (403, 1486):
        plays_to_the_seen_models_end(start, Dobutsu(), Lcg(chooser), moves, apply, text, stand_observed)


# --- the lowering -------------------------------------------------------------------------------------

def test_the_dry_run_of_the_counted_hands_is_undecided_at_the_counters():
    """The hands as counters: the dry run's search of the numbers' ranges passes its budget ranging the moves and
    the hands' counters, which it names with where they are written (`tgpl to-gdl` alike stops at 300 s, naming the
    same counters, the hands' grown to 6: the search sees no board, so nothing it sees bounds a hand by the two
    pieces of a kind)."""
    r = CliRunner().invoke(main, ["to-gdl", "--dry-run", game("dobutsu")])
    assert r.exit_code == 2, r.output
    assert "dobutsu.tgpl: undecided within the dry run's budget; its moves spelled out one by one" in r.output
    out = " ".join(r.output.split())
    assert "the search of the numbers' ranges passed the dry run's budget (5,000 steps) while ranging " \
           "Dobutsu.Moves (0 to 60 found so far, written at " in out, out
    assert "Seat#0.Chicks, Seat#1.Chicks (0 to 6 found so far, written at " in out, out
    assert "where one of these grows without end, test it before it changes or end the game at a bound" in out


def test_the_stand_lowers_spelled_out_and_validates(tmp_path):
    """dobutsu_stand.tgpl: the dry run says it lowers (estimated), spelled out; `tgpl to-gdl` (auto, which spells
    the moves out, as `--moves spelled` does, to the same bytes) lowers it, validated by playouts to the end."""
    r = CliRunner().invoke(main, ["to-gdl", "--dry-run", game("dobutsu_stand")])
    assert r.exit_code == 0, r.output
    assert "dobutsu_stand.tgpl: lowers (estimated); its moves spelled out one by one" in r.output
    kif, _ = lowered_and_validated(game("dobutsu_stand"), tmp_path / "dobutsu_stand.kif")
    assert "; Check it with: tgpl check-gdl FILE.kif" in kif and "(input player_0 (drop seat_0 chick grid_0_0))" in kif


HELD = """            if (kind == Chick) { return Chicks; }
            if (kind == Giraffe) { return Giraffes; }
            if (kind == Elephant) { return Elephants; }
            return 0;
        }
    }
"""
HELD_THROUGH_OTHER = """            if (kind == Chick) { return Chicks; }
            return Other(kind: kind);
        }
    }

    // How many pieces of `kind`, not a chick, the hand holds
    function Other
    {
        function input Kind kind;
        returns number;
        effect
        {
            if (kind == Giraffe) { return Giraffes; }
            if (kind == Elephant) { return Elephants; }
            return 0;
        }
    }
"""


def test_compiled_a_test_of_a_function_reading_counters_through_another_is_refused_at_the_test(tmp_path):
    """`--moves compiled`: the counters' range search evaluates a function that reads counters (dobutsu_guarded's
    `Held`, tests/lowering/test_counted_legality.py), but not one that calls another function: `Held` reading the
    giraffes and elephants through `Other` leaves the drop's filter `Held(kind: kind) > 0` comparing a result the
    search takes as anything, which could not be grounded. Refused at the test, naming the function, the counters
    it reads and the function it calls, with the rewrites (`test_the_rewrite_the_refusal_names_lowers_and_validates`).
    The dry run with `--moves compiled` refuses it alike (exit 1), asking the rules the range search would ground."""
    path = variant(tmp_path, Path(game("dobutsu_guarded")), (HELD, HELD_THROUGH_OTHER),
                   ('game "dobutsu_guarded";', 'game "dobutsu_other";'), name="dobutsu_other.tgpl")
    source = path.read_text(encoding="utf-8")
    test = "Held(kind: kind) > 0"
    assert source.count(test) == 1
    before = source[:source.index(test)]
    line, column = before.count("\n") + 1, len(before) - before.rfind("\n")
    said = (f"dobutsu_other.tgpl:{line}:{column}: error: not lowerable: the moves cannot be compiled: this reads the "
            "result of Seat.Held, a function that reads the counters Chicks, Elephants, Giraffes and calls Seat.Other: "
            "the compiled moves follow a counter's values through the result of a function that calls no other; "
            "read the counter here instead, or make the test inside the function (one "
            "returning a bool); or lower the moves spelled out (--moves spelled, which `auto` falls back to)")
    r = to_gdl(tmp_path, path, "--moves", "compiled")
    assert r.exit_code == 2 and not r.out.exists(), r.output
    assert said in " ".join(r.output.split()), r.output
    caret = r.output.splitlines()[2]
    assert caret.index("^") == r.output.splitlines()[1].index("|") + 1 + column and caret.count("^") == len(test)
    dry = CliRunner().invoke(main, ["to-gdl", "--dry-run", "--moves", "compiled", str(path)])
    assert dry.exit_code == 1 and said in " ".join(dry.output.split()), dry.output
    assert " lowers" not in dry.output, dry.output


@pytest.mark.parametrize("rewrite", ["the counters read in the filter", "the test inside the function"])
def test_the_rewrite_the_refusal_names_lowers_and_validates(tmp_path, rewrite):
    """dobutsu_guarded.tgpl rewritten as the refusal says, either way: the drop filter reads the hand's counters
    itself, or calls a function that makes the test inside (`InHand`, a bool): `--moves compiled` lowers it, the
    translation validated by playouts to the end."""
    source = open(game("dobutsu_guarded"), encoding="utf-8").read()
    filter_ = "input Kind kind { return Held(kind: kind) > 0; }"
    if rewrite == "the counters read in the filter":
        source = source.replace(filter_, "input Kind kind { return kind == Chick && Chicks > 0 || kind == Giraffe "
                                         "&& Giraffes > 0 || kind == Elephant && Elephants > 0; }")
    else:
        source = source.replace(filter_, "input Kind kind { return InHand(kind: kind); }").replace("""    action Move
""", """    function InHand
    {
        function input Kind kind;
        returns bool;
        effect
        {
            if (kind == Chick) { return Chicks > 0; }
            if (kind == Giraffe) { return Giraffes > 0; }
            if (kind == Elephant) { return Elephants > 0; }
            return false;
        }
    }

    action Move
""", 1)
    assert filter_ not in source
    path = tmp_path / "dobutsu_rewritten.tgpl"
    path.write_text(source.replace('game "dobutsu_guarded";', 'game "dobutsu_rewritten";'), encoding="utf-8")
    out = tmp_path / "dobutsu_rewritten.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(path), "--moves", "compiled", "-o", str(out)])
    assert r.exit_code == 0, r.output
    validated = out.read_text(encoding="utf-8").splitlines()[1]
    assert validated.startswith("; validated: ") and "to the end of the game" in validated, validated


def test_the_guarded_hands_play_the_same_game():
    """dobutsu_guarded.tgpl (`Chicks < 2` before `Chicks += 1`, `Chicks >= 1` before `Chicks -= 1`, and alike for
    the other kinds: never false in play) plays as the model."""
    start = load_game(game("dobutsu_guarded")).initial_state(0)
    plays_to_the_seen_models_end(start, Dobutsu(), Lcg(403), moves, apply, text, observed)
