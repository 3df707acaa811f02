"""Bazaar, a card game with a shared market row, written as a designer writes it (tests/data/designers/bazaar.tgpl):
twelve goods cards (interactables with a colour string and a value) in a deck made shuffled, three laid face up
as the market (a `List` the global class holds, refilled by a `while` that pops the deck), a move taking a card
of the market into the hand (`Take`, an input filtered by `Market.contains`), once a game a `Sweep` that discards
the market into the deck's discard pile and lays three fresh cards, and a score read from the hand (values, and 3
for each colour held three times) when the market is empty.

The runtime is checked against an independent model (the supply's order as setup shuffled it, the market and the
hands as lists of card numbers) on seeded plays to their end. What the lowering does with it is in
`test_bazaar_lowering_as_it_is`."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from click.testing import CliRunner

from differential import ends_as
from tgpl.cli import main
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game

COLOURS = ("red", "green", "blue")


def colour(card: int) -> str:
    """Goods#k is made k-th: colour by colour, values 1 to 4."""
    return COLOURS[card // 4]


def value(card: int) -> int:
    return card % 4 + 1


def score(hand: list[int]) -> int:
    held = {c: sum(colour(k) == c for k in hand) for c in COLOURS}
    return sum(value(k) for k in hand) + 3 * sum(n >= 3 for n in held.values())


def number(obj) -> int:
    return int(str(obj).split("#")[1])


@dataclass
class BazaarModel:
    """The rules as a state machine over card numbers; the supply's top is its last item."""

    supply: list[int]
    market: list[int]
    hands: tuple[list[int], list[int]] = ([], [])
    swept: tuple[bool, bool] = (False, False)
    discards: int = 0
    who: int = 0
    result: object = None

    def moves(self) -> list[str]:
        seat = f"Merchant#{self.who}"
        out = [f"{seat}.Take(card: Goods#{k})" for k in self.market]
        return out + ([f"{seat}.Sweep()"] if not self.swept[self.who] and len(self.supply) >= 3 else [])

    def refill(self) -> None:
        while len(self.market) < 3 and self.supply:
            self.market.append(self.supply.pop())

    def play(self, move: str) -> None:
        if move.endswith("Sweep()"):
            self.swept = tuple(s or p == self.who for p, s in enumerate(self.swept))
            self.discards += len(self.market)
            self.market = []
        else:
            k = int(move.split("Goods#")[1].rstrip(")"))
            self.market.remove(k)
            self.hands[self.who].append(k)
        self.refill()
        if not self.market:
            a, b = score(self.hands[0]), score(self.hands[1])
            self.result = 0 if a > b else 1 if b > a else "draw"
        self.who = 1 - self.who


def observed(state) -> tuple:
    w = state.world
    bazaar = w.fields(w.named("Bazaar"))
    deck = w.fields(w.named("GoodsDeck#0"))
    hands = tuple([number(g) for g in w.fields(w.named(f"Merchant#{p}"))["Hand"]] for p in (0, 1))
    swept = tuple(bool(w.fields(w.named(f"Merchant#{p}"))["Swept"]) for p in (0, 1))
    return ([number(g) for g in deck["_items"]], [number(g) for g in bazaar["Market"]], hands, swept,
            len(deck["discard_stack"]))


def play(seed: int) -> BazaarModel:
    """One play: setup shuffled by `seed` (the model starts from the supply it left), the moves from the test's
    own chooser, every state compared."""
    state = load_game(game("bazaar")).initial_state(seed)
    supply, market, _, _, _ = observed(state)
    model, rng = BazaarModel(supply=supply, market=market, hands=([], [])), Lcg(seed)
    assert sorted(supply + market) == list(range(12)) and len(market) == 3
    while model.result is None:
        moves = model.moves()
        assert sorted(m.text for m in state.legal_moves()) == sorted(moves)
        move = moves[rng.below(len(moves))]
        state = state.apply(state.resolve(move))
        model.play(move)
        assert observed(state) == (model.supply, model.market, model.hands, model.swept, model.discards)
        assert state.is_terminal == (model.result is not None)
    ends_as(state, model.result)
    return model


def test_the_models_score_adds_three_for_each_colour_held_three_times():
    assert score([0, 1, 2, 4]) == 1 + 2 + 3 + 1 + 3  # three reds
    assert score([0, 4, 8]) == 3


def test_bazaar_plays_as_the_model_says():
    """40 seeded plays to their end: both seats win, some plays sweep, and the hands take every card not swept."""
    winners, sweeps = set(), 0
    for seed in range(40):
        model = play(seed)
        winners.add(model.result)
        sweeps += sum(model.swept)
        assert len(model.hands[0]) + len(model.hands[1]) + model.discards == 12
    assert {0, 1} <= winners and sweeps > 0


def test_bazaar_checks_clean():
    r = CliRunner().invoke(main, ["check", game("bazaar")])
    assert r.exit_code == 0 and "warning" not in r.output, r.output


def test_bazaar_lowering_as_it_is(tmp_path):
    """Refused in seconds (4.7 to 4.8 s of CPU, 165 MB): `Score` reads the hand, a list the moves add to, for each
    colour, so it is spelled out for every content the hand can have, and one control state passes its budget of
    parts. The refusal stands in `Score`'s loop and names the list that loop reads, `Hand` (a bare name, the
    merchant's own), with the rewrite for a list that only grows: a running total. (It named `Market`, read by
    `EndOfDay`, said to be called by `Score`, and the rewrite for pieces taken out of a list: the hint looked
    through what the outermost block called, not the function being run.) Rewritten with running totals, the
    game is next refused at `Refill`'s loop, which adds the supply's top card to the market by cases of the
    lengths of both (`Sweep`'s loop, which discards the market card by card, is spelled out on one path per
    length: tests/lowering/test_cleared_rows.py). Compiled, the market's `remove` and the hand's `add` are compiled
    (tgpl.lowering.compiled_lists), and the moves are refused at `Refill`'s loop, a `while` loop that reads the
    market it adds to (a loop that reads what it writes is compiled only when counted)."""
    r = CliRunner().invoke(main, ["to-gdl", game("bazaar"), "-o", str(tmp_path / "b.kif")])
    assert r.exit_code == 2 and not (tmp_path / "b.kif").exists(), r.output
    assert "bazaar.tgpl:123:21: error: not lowerable: the lowering built conditions of more than 3,000,000 parts " \
           "for the legal moves and the moves of one control state (here, in Score)" in r.output
    assert "the loop reads the list 'Hand', which the moves change (`add` at 87:13)" in r.output, r.output
    assert "a running total, `Score += card.Value;` in the move that changes 'Hand'" in r.output
    spelled = r.output.split("bazaar.tgpl:64:13")[0]  # the refusal of the moves spelled out, before the compiled
    assert "calls EndOfDay" not in spelled and "bool Out" not in spelled
    assert "bazaar.tgpl:64:13: error: not lowerable: with the moves compiled instead: a loop that reads 'Market', " \
        "which it writes, and is not a counted loop" in r.output, r.output
