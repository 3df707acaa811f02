"""Dice in a phase as designers write them (issue 34, language decision 117): the dry run and `to-gdl` agree.

Small games of tests/data/lowering/ written the way a designer would: a throw then the move of a piece
(dice_stay: the phase that throws is the one played in, re-entered for the next player; dice_coin_bonus: an
action's coin, then the next player's throw, in one move), a throw then a choice of which die to use
(dice_pick), a re-roll (dice_reroll asks it as a phase's input, refused; dice_reroll_actions, the rewrite
its refusal names), and a way through a phase that throws only some of its dice (dice_partial, refused; the
rewrite its message names). Each either lowers and validates, the dry run not refusing it, or is refused by
both at the same die with the same caret, with a hint; followed, the rewrite lowers and validates."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tgpl.cli import main

from refused_alike import refused_alike

DATA = Path(__file__).resolve().parents[1] / "data" / "lowering"

PARTIAL_THROW = ('''        if (pos > Race.Middle)
        {
            Race.Steps = roll(3);
        }
        else
        {
            Race.Steps = roll(3) + roll(3);
        }
''', '''        number first = roll(3);
        number second = roll(3);
        if (pos > Race.Middle)
        {
            Race.Steps = first;
        }
        else
        {
            Race.Steps = first + second;
        }
''')


def _partial_rewritten() -> str:
    """dice_partial.tgpl as its refusal says to write it: every die thrown before the condition."""
    text = (DATA / "dice_partial.tgpl").read_text()
    old, new = PARTIAL_THROW
    assert text.count(old) == 1
    return text.replace(old, new)


# name: (the game's text, random's moves in the GDL-II)
LOWERED = {
    "dice_stay": ((DATA / "dice_stay.tgpl").read_text(), [f"(roll {k})" for k in (1, 2, 3)]),
    "dice_coin_bonus": ((DATA / "dice_coin_bonus.tgpl").read_text(), [f"(roll {k})" for k in (1, 2, 3)]),
    "dice_pick": ((DATA / "dice_pick.tgpl").read_text(), [f"(roll2 {a} {b})" for a in (1, 2, 3) for b in (1, 2, 3)]),
    "dice_reroll_actions": ((DATA / "dice_reroll_actions.tgpl").read_text(), [f"(roll {k})" for k in (1, 2, 3, 4)]),
    "dice_partial_rewritten": (_partial_rewritten(), [f"(roll2 {a} {b})" for a in (1, 2, 3) for b in (1, 2, 3)]),
}

# name: (the die refused as written in the game, the refusal after its location, the hint's start)
REFUSED = {
    "dice_reroll": ("roll(4)", "roll() in phase Throw, whose flow passes in the same move to phase Decide, which "
                               "asks an input, is not lowerable: the runtime waits for the input in the middle of "
                               "the move, after the draws, which the validation against the runtime does not "
                               "replay (make the choice an action of phase Decide, required in it with "
                               "turn.phase.active())",
                    "make the choice an action of the phase the throw passes to"),
    "dice_partial": ("roll(3) + roll(3)", "a way through phase Throw throws 1 of its 3 dice, not this one: random "
                                          "throws the phase's dice as the flow enters it, so every way through the "
                                          "phase must throw all of them (throw it on every way, before the "
                                          "condition, and read it only where needed)",
                     "dice thrown in a phase lower as random's move at each entry of the phase"),
}


@pytest.fixture(scope="module")
def lowered(tmp_path_factory) -> dict[str, Path]:
    """Each game of LOWERED written, lowered and validated by `to-gdl`, as a .kif."""
    root = tmp_path_factory.mktemp("designer_phase_dice")
    out = {}
    for name, (text, _) in LOWERED.items():
        src = root / f"{name}.tgpl"
        src.write_text(text)
        kif = root / f"{name}.kif"
        r = CliRunner().invoke(main, ["to-gdl", str(src), "-o", str(kif)])
        assert r.exit_code == 0, (name, r.output)
        out[name] = kif
    return out


@pytest.mark.parametrize("name", sorted(LOWERED))
def test_each_lowers_validated_with_random_throwing_every_face_and_the_dry_run_does_not_refuse(name, lowered,
                                                                                              tmp_path):
    text = lowered[name].read_text()
    lines = text.splitlines()
    assert lines[1].startswith("; validated: ") and "playouts" in lines[1], lines[1]
    assert "\n(role random)\n" in text
    thrown = sorted(line[len("(input random "):-1] for line in lines if line.startswith("(input random ("))
    assert thrown == sorted(LOWERED[name][1])
    src = tmp_path / f"{name}.tgpl"
    src.write_text(LOWERED[name][0])
    dry = CliRunner().invoke(main, ["to-gdl", "--dry-run", str(src)])
    assert dry.exit_code in (0, 2) and ": error:" not in dry.output, dry.output  # lowers, or undecided
    assert "random's move as the flow enters it" in dry.output


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_each_refused_is_refused_alike_by_the_dry_run_at_the_die_with_a_hint(name, tmp_path):
    die, reason, hint = REFUSED[name]
    said, _ = refused_alike(DATA / f"{name}.tgpl", tmp_path / f"{name}.kif", die, reason, len("roll(k)"))  # the call
    assert said.startswith(f"  note: hint: {hint}"), said


def test_the_re_roll_is_the_player_s_once_a_turn(lowered):
    """dice_reroll_actions' GDL-II: the throw as the turn starts is random's; Again hands it to random again,
    after which only Keep is legal; Keep moves by the second throw and random throws for the other player."""
    from tgpl.asp.reasoner import GdlGame

    game = GdlGame.load(str(lowered["dice_reroll_actions"]))
    p0, p1, rnd = game.roles
    state = game.initial_state()

    def legal(role) -> list[str]:
        return sorted(str(m) for m in state.legal_moves(role))

    def play(role, text: str) -> None:
        nonlocal state
        moves = [next(m for m in state.legal_moves(r) if str(m) == text) if r == role else state.legal_moves(r)[0]
                 for r in (p0, p1, rnd)]
        state = state.apply(moves)

    assert legal(p0) == ["(again seat_0)", "(keep seat_0)"] and legal(rnd) == ["noop"]  # setup's throw: the seed's
    play(p0, "(again seat_0)")
    assert legal(rnd) == [f"(roll {k})" for k in (1, 2, 3, 4)] and legal(p0) == ["noop"]
    play(rnd, "(roll 2)")
    assert legal(p0) == ["(keep seat_0)"]
    play(p0, "(keep seat_0)")
    assert "(pos0 race 2)" in state.fluent_texts() and "(rerolled race no)" in state.fluent_texts()
    assert legal(rnd) == [f"(roll {k})" for k in (1, 2, 3, 4)] and legal(p1) == ["noop"]
    play(rnd, "(roll 3)")
    assert legal(p1) == ["(again seat_1)", "(keep seat_1)"]


def test_the_coin_after_a_move_and_the_next_throw_are_two_steps_of_random_s(lowered):
    """dice_coin_bonus' GDL-II: after a move, random flips the action's coin (two faces), then throws the next
    player's die as the flow enters Throw (three faces), a step each."""
    from tgpl.asp.reasoner import GdlGame

    game = GdlGame.load(str(lowered["dice_coin_bonus"]))
    p0, p1, rnd = game.roles
    state = game.initial_state()
    mover = next(k for k, r in enumerate((p0, p1)) if [str(m) for m in state.legal_moves(r)] != ["noop"])
    me = (p0, p1)[mover]
    start = next(int(f.split()[-1][:-1]) for f in state.fluent_texts() if f.startswith(f"(pos runner_{mover} "))
    die = next(int(f.split()[-1][:-1]) for f in state.fluent_texts() if f.startswith("(die race "))

    def apply(role, text: str) -> None:
        nonlocal state
        state = state.apply([next(m for m in state.legal_moves(r) if str(m) == text) if r == role
                             else state.legal_moves(r)[0] for r in (p0, p1, rnd)])

    apply(me, f"(move_2 runner_{mover})")
    assert sorted(str(m) for m in state.legal_moves(rnd)) == ["(roll 1)", "(roll 2)"]
    apply(rnd, "(roll 2)")  # heads: one square more
    assert f"(pos runner_{mover} {start + die + 1})" in state.fluent_texts()
    assert sorted(str(m) for m in state.legal_moves(rnd)) == ["(roll 1)", "(roll 2)", "(roll 3)"]
