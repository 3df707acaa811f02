"""Skunk, a push-your-luck dice game written as a designer writes it (tests/data/designers/skunk.tgpl): two dice
thrown with `roll(6)` in a move's effect, a shared running total (`Tavern.Pot`) and a choice to stop and bank it.
A single one loses the pot, two ones (the skunk) also wipe out what the thrower had banked; the first to bank 25
wins. The turn ends by `return` right after `turn.pass()`, in two places.

The runtime is checked against an independent model of the rules (banked scores, the pot, whose turn) on seeded
plays to their end, the model taking each throw's faces from the runtime's log. The lowering writes it as
GDL-II (the two dice a move of the chance role `random`) and validates it: 134 rules with a body, 54 playouts to
the end of the game, 6.9 s of CPU and 101 MB (`tgpl to-gdl`, measured once, not asserted)."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from click.testing import CliRunner

from differential import ends_as, lowered_and_validated
from tgpl.cli import main
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game

GOAL = 25


@dataclass
class SkunkModel:
    """The rules as a state machine: each seat's bank, the pot of the seat in turn, the result."""

    banked: list[int] = field(default_factory=lambda: [0, 0])
    pot: int = 0
    who: int = 0
    result: int | None = None

    def moves(self) -> list[str]:
        seat = f"Gambler#{self.who}"
        return [f"{seat}.Throw()"] + ([f"{seat}.Stop()"] if self.pot > 0 else [])

    def thrown(self, a: int, b: int) -> None:
        """Two faces: the skunk, a single one, or the sum added to the pot (and a win at the goal)."""
        if a == 1 and b == 1:
            self.banked[self.who], self.pot, self.who = 0, 0, 1 - self.who
        elif 1 in (a, b):
            self.pot, self.who = 0, 1 - self.who
        else:
            self.pot += a + b
            if self.banked[self.who] + self.pot >= GOAL:
                self.banked[self.who] += self.pot
                self.result = self.who

    def stop(self) -> None:
        self.banked[self.who] += self.pot
        self.pot, self.who = 0, 1 - self.who


def observed(state) -> tuple:
    w = state.world
    banked = [int(w.fields(w.named(f"Gambler#{p}"))["Banked"]) for p in (0, 1)]
    return banked, int(w.fields(w.named("Tavern"))["Pot"])


def play(seed: int) -> dict:
    """One seeded play (the runtime's dice from `seed`, the moves from the test's own chooser) beside the model,
    to its end; what happened on the way (skunks, single ones, stops)."""
    state, model, rng = load_game(game("skunk")).initial_state(seed), SkunkModel(), Lcg(seed)
    seen = {"skunk": 0, "one": 0, "stop": 0}
    while model.result is None:
        moves = model.moves()
        assert sorted(m.text for m in state.legal_moves()) == sorted(moves)
        move = moves[rng.below(len(moves))]
        state = state.apply(state.resolve(move))
        if move.endswith("Throw()"):
            line = state.log[-1]
            assert line.startswith(f"player {model.who} throws "), state.log
            a, b = (int(x) for x in line.split("throws ")[1].split(" and "))
            seen["skunk"] += a == b == 1
            seen["one"] += (a == 1) != (b == 1)
            model.thrown(a, b)
        else:
            seen["stop"] += 1
            model.stop()
        assert observed(state) == (model.banked, model.pot)
        assert state.is_terminal == (model.result is not None)
    ends_as(state, model.result)
    assert model.banked[model.result] >= GOAL > model.banked[1 - model.result]
    return seen | {"winner": model.result}


def test_the_model_wipes_the_bank_on_a_skunk_and_the_pot_on_a_single_one():
    m = SkunkModel(banked=[12, 3], pot=8)
    m.thrown(1, 4)
    assert (m.banked, m.pot, m.who) == ([12, 3], 0, 1)
    m.pot = 9
    m.thrown(1, 1)
    assert (m.banked, m.pot, m.who) == ([12, 0], 0, 0)
    m.thrown(6, 6)
    assert (m.pot, m.result) == (12, None)
    m.thrown(3, 4)
    assert (m.banked, m.result) == ([31, 0], 0)


def test_skunk_plays_as_the_model_says():
    """40 seeded plays to their end: both seats win some, and skunks, single ones and stops all occur."""
    totals = {"skunk": 0, "one": 0, "stop": 0}
    winners = set()
    for seed in range(40):
        seen = play(seed)
        winners.add(seen.pop("winner"))
        for k in totals:
            totals[k] += seen[k]
    assert winners == {0, 1}
    assert all(n > 0 for n in totals.values()), totals


def test_skunk_checks_clean():
    r = CliRunner().invoke(main, ["check", game("skunk")])
    assert r.exit_code == 0 and "warning" not in r.output, r.output


def test_skunk_lowers_to_gdl_ii_and_validates(tmp_path):
    """Validated by playouts to the end of the game, within the rules measured (134 with a body), the two dice
    one move of `random`."""
    text, _ = lowered_and_validated(game("skunk"), tmp_path / "skunk.kif")
    assert "(role random)" in text and "roll2" in text
    assert text.count("\n(<=") <= 134
