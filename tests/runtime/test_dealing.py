"""A deck dealt at pop() (tgpl.runtime.dealing, validation only) is the same game as the deck shuffled up front.

The exact law of what a play sees (the cards each seat holds, the cards left, who won) after a fixed line of
moves, every draw enumerated (tgpl.verify.chance_machine), is the same for the ordinary runtime, whose shuffle
makes one of 6! orders and whose pop() takes the top, and for the dealing runtime, whose shuffle draws nothing
and whose pop() draws among the cards left. The ordinary runtime never deals."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from pathlib import Path

from tgpl.verify.chance_machine import ChanceMachine
from tgpl.runtime.dealing import dealing
from tgpl.runtime.game import load_game

DEAL = Path(__file__).resolve().parents[1] / "data" / "lowering" / "deal.tgpl"
DEALT = frozenset({"SixDeck"})


def _seen(state) -> tuple:
    """What a play can tell of `state`: each seat's hand in the order drawn, its total, the values left in the
    deck (their order is what dealing leaves out), whose turn, the result."""
    world = state.world
    seats, deck = [], None
    for obj in world.objects:
        f = world.fields(obj)
        if obj.cls.name == "Seat":
            seats.append((tuple(world.fields(c)["Value"] for c in f["Hand"]), f["Total"], f["Done"]))
        elif obj.cls.name == "SixDeck":
            deck = tuple(sorted(world.fields(c)["Value"] for c in f["_items"]))
    return tuple(seats), deck, world.control.player, state.is_terminal and tuple(map(tuple, world.result))


def _law(machine: ChanceMachine, state, line: list[str]) -> Counter:
    """The law of `_seen` after the moves of `line` (each by name, played by whoever is to move while the game
    goes on), every draw of every move enumerated."""
    law: Counter = Counter()
    frontier = [(Fraction(1), state)]
    for name in line:
        nxt = []
        for p, s in frontier:
            if s.is_terminal:
                nxt.append((p, s))
                continue
            move = next(m.text for m in s.legal_moves() if m.text.endswith(f".{name}()"))
            nxt.extend((p * q, t) for q, _, _, t in machine._apply_all(s, move))
        frontier = nxt
    for p, s in frontier:
        law[_seen(s)] += p
    return law


def test_dealing_at_pop_is_the_shuffled_deck():
    game = load_game(DEAL)
    machine = ChanceMachine(game, 0)
    start = game.initial_state(0)
    line = ["Shuffle", "Draw", "Draw", "Shuffle", "Draw", "Draw"]  # each player shuffles once
    ordinary = _law(machine, start, line)
    dealt = _law(machine, dealing(start, DEALT), line)
    assert sum(ordinary.values()) == sum(dealt.values()) == 1
    assert ordinary == dealt
    # the first card player 1 draws is each value with probability 1/6 (6 * 5 * 4 * 3 ordered hands of four)
    first = Counter()
    for (seats, *_), p in dealt.items():
        first[seats[1][0][0]] += p
    assert first == {v: Fraction(1, 6) for v in range(1, 7)}
    assert len(dealt) > 100


def test_dealing_draws_one_number_a_pop_and_none_a_shuffle():
    game = load_game(DEAL)
    machine = ChanceMachine(game, 0)
    start = dealing(game.initial_state(0), DEALT)
    assert len(machine._apply_all(start, "Seat#0.Shuffle()")) == 1
    runs = machine._apply_all(start, "Seat#0.Draw()")
    assert [bounds for _, _, bounds, _ in runs] == [[6]] * 6
    assert len(machine._apply_all(game.initial_state(0), "Seat#0.Shuffle()")) == 720


def test_the_ordinary_runtime_takes_the_top():
    """Without dealing, pop() takes the last item of the deck's order and draws nothing: the same seed and
    moves give the same game, as records need."""
    game = load_game(DEAL)
    start = game.initial_state(3)
    deck = next(o for o in start.world.objects if o.cls.name == "SixDeck")
    top = start.world.fields(deck)["_items"][-1]
    after = start.apply("Seat#0.Draw()")
    seat = next(o for o in after.world.objects if o.cls.name == "Seat")
    assert after.world.fields(seat)["Hand"] == [top]
    assert after.world.seldom.deals == frozenset()
    again = game.initial_state(3).apply("Seat#0.Draw()")
    assert _seen(again) == _seen(after)
