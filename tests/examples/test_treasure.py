"""examples/treasure.tgpl: Treasure, drawing from a shuffled deck with a discard pile."""

from __future__ import annotations

from collections import Counter

import pytest

from example_harness import (
    SEEDS, assert_check_clean, assert_replays, assert_same_seed_same_record, assert_sane_end,
    assert_tamper_rejected, field, load, obj, play_random, texts,
)

NAME = "treasure"
VALUES = Counter({v: 2 for v in range(1, 7)} | {-5: 2})


def hand(state, p: int) -> list:
    return field(state, f"Hand#{p}", "Cards")


def deck(state) -> list:
    return field(state, "TreasureDeck#0", "_items")


def discards(state) -> list:
    return field(state, "TreasureDeck#0", "discard_stack")


def tabletop(state, attribute: str):
    return field(state, "Tabletop", attribute)


def discard(p: int, card) -> str:
    return f"Hand#{p}.Discard(card: {card.name})"


def total(state, p: int) -> float:
    return sum(state.world.fields(c)["Value"] for c in hand(state, p))


@pytest.fixture
def start():
    return load(NAME).initial_state(0)


# ------------------------------------------------------------------ generic
def test_check_is_clean():
    assert_check_clean(NAME)


@pytest.mark.parametrize("seed", SEEDS)
def test_random_games_end_after_eight_rounds(seed):
    outcome = play_random(NAME, seed)
    state = outcome.state
    assert_sane_end(state)
    assert len(outcome.record.moves) == 16
    assert tabletop(state, "Reshuffles") >= 1
    a, b = total(state, 0), total(state, 1)
    assert state.log[-1] == f"totals: {a:g} and {b:g}"
    assert state.ranking == ([[0]] if a > b else [[1]] if b > a else [[0, 1]])


def test_same_seed_same_record_and_replay(tmp_path):
    text = assert_same_seed_same_record(NAME, 3, tmp_path)
    state = assert_replays(text, tmp_path)
    assert state.log[-1].startswith("totals: ")


def test_a_different_seed_deals_differently():
    one, two = load(NAME).initial_state(1), load(NAME).initial_state(2)
    first = [one.world.fields(c)["Name"] for c in hand(one, 0)]
    second = [two.world.fields(c)["Name"] for c in hand(two, 0)]
    assert first != second


def test_tampered_record_is_rejected(tmp_path):
    text = play_random(NAME, 6).record.to_json()
    start = load(NAME).initial_state(6)
    # player 0 discards a card from player 1's hand
    error = assert_tamper_rejected(text, 0, discard(0, hand(start, 1)[0]), tmp_path)
    assert "filter 1 of input" in error.reason and "rejects" in error.reason
    # player 0 plays with player 1's hand
    error = assert_tamper_rejected(text, 0, "Hand#1.Keep()", tmp_path)
    assert "does not belong to player 0" in error.reason


# ------------------------------------------------------------------ rules
def test_the_deck_is_built_and_dealt(start):
    cards = [o for o in start.world.objects if o.cls.name == "Card"]
    assert Counter(start.world.fields(c)["Value"] for c in cards) == VALUES
    # two cards each, then player 0's first draw
    assert len(hand(start, 0)) == 3 and len(hand(start, 1)) == 2
    assert len(deck(start)) == 14 - 5
    assert discards(start) == []
    assert start.log == [f"player 0 draws {start.world.fields(hand(start, 0)[2])['Name']} and holds "
                         + ", ".join(start.world.fields(c)["Name"] for c in hand(start, 0))]


def test_the_moves_are_discarding_a_card_of_the_hand_or_keeping(start):
    assert start.active_player == 0
    assert texts(start) == sorted(
        [discard(0, c) for c in hand(start, 0)], key=lambda t: int(t.split("#")[2].rstrip(")"))
    ) + ["Hand#0.Keep()"]


def test_a_discard_goes_to_the_discard_stack(start):
    card = hand(start, 0)[1]
    state = start.apply(discard(0, card))
    moved = obj(state, card.name)
    assert moved not in hand(state, 0)
    assert discards(state) == [moved]
    assert state.world.fields(moved)["discarded"] is True
    # player 1 has drawn their third card
    assert state.active_player == 1
    assert len(hand(state, 1)) == 3 and len(deck(state)) == 8


def test_keeping_is_allowed_up_to_four_cards(start):
    state = start.apply("Hand#0.Keep()").apply("Hand#1.Keep()")
    assert len(hand(state, 0)) == 4
    assert "Hand#0.Keep()" in texts(state)
    state = state.apply("Hand#0.Keep()").apply("Hand#1.Keep()")
    assert len(hand(state, 0)) == 5
    assert "Hand#0.Keep()" not in texts(state)
    assert len(texts(state)) == 5


def test_the_deck_reshuffles_its_discards_when_empty(start):
    state = start
    while len(deck(state)) > 0:
        state = state.apply(texts(state)[0])  # discard the first card of the hand
    assert tabletop(state, "Reshuffles") == 0
    assert len(discards(state)) == 9
    last = hand(state, state.active_player)[0]
    pile = [c.name for c in discards(state)] + [last.name]
    state = state.apply(discard(state.active_player, last))
    # the next player's draw found the deck empty: the ten discards came back, one was drawn
    assert tabletop(state, "Reshuffles") == 1
    assert state.log[-2:] == [
        "the discards are shuffled into the deck",
        f"player {state.active_player} draws {state.world.fields(hand(state, state.active_player)[-1])['Name']} and holds "
        + ", ".join(state.world.fields(c)["Name"] for c in hand(state, state.active_player)),
    ]
    assert discards(state) == []
    drawn = hand(state, state.active_player)[-1]
    assert sorted([c.name for c in deck(state)] + [drawn.name]) == sorted(pile)
    assert all(not state.world.fields(c)["discarded"] for c in deck(state)) and not state.world.fields(drawn)["discarded"]
    assert len(hand(state, 0)) + len(hand(state, 1)) + len(deck(state)) == 14
    # the game goes on with the reshuffled deck
    state = state.apply(texts(state)[0])
    assert len(deck(state)) == 8
