"""Lists whose order nothing observes, lowered as sets (`subset.set_lists`, docs/lowering.md "Lists kept as sets").

tests/data/designers/highcard.tgpl deals three cards into each player's private `List<Card> Cards` and after
setup only tests `Cards.contains(card)` and runs `Cards.remove(card);`: its hands are one bool per card a hand
may hold, not a length and slots shifted by every removal (2,958 rules with a body in slots). Variants of it
show the other side: a hand whose first card the filter reads keeps its slots; a card put back after its
removal (an `add` the lowering proves cannot repeat an item) stays a set; an `add` that may repeat one makes
the hand ordered again, where the refusal of a list holding an object twice is the ordered form's own.
Every lowering here is validated against the runtime by bisimulation.
"""

from __future__ import annotations

from pathlib import Path

from tgpl.frontend.loader import load_program
from tgpl.lowering.subset import set_lists
from to_gdl_runs import rules_with_a_body, to_gdl, variant

HIGHCARD = Path(__file__).resolve().parents[1] / "data" / "designers" / "highcard.tgpl"
HANDS = Path(__file__).resolve().parents[1] / "data" / "lowering" / "hands.tgpl"
PLAY = "            Cards.remove(card);\n"
FILTER = "return Cards.contains(card); }"


def test_only_lists_read_by_contains_add_and_remove_are_sets(tmp_path):
    """highcard's hands are a set; its tricks (`Taken[taker] += 1`, read by index) and hands.tgpl's hands
    (read at `a[0]` and by length) are not, nor highcard's hands once the filter reads `Cards[0]`."""
    assert set_lists(load_program(str(HIGHCARD))) == {"Cards"}
    assert set_lists(load_program(str(HANDS))) == frozenset()
    first = variant(tmp_path, HIGHCARD, (FILTER, "return Cards.contains(card) && Cards[0] == card; }"))
    assert set_lists(load_program(str(first))) == frozenset()


def test_highcard_hands_lower_as_membership_and_validate(tmp_path):
    r = to_gdl(tmp_path, HIGHCARD)
    assert r.exit_code == 0, r.output
    kif = r.kif
    assert "; validated: bisimulation, 58 states" in kif
    assert "cards_length" not in kif and "(cards_0 " not in kif
    # hand 0 is dealt cards 5, 2 and 4 at seed 0: whether it holds each card, a bool
    assert {f"(init (cards_card_{k} hand_0 {'yes' if k in (2, 4, 5) else 'no'}))" for k in range(6)} \
        <= set(kif.splitlines())
    assert "(sees_cards_card_5 hand_0 player_0)" in kif and "(sees_cards_card_5 hand_0 player_1)" not in kif
    assert rules_with_a_body(kif) <= 650  # 2,958 with a length and six slots per hand


def test_a_card_put_back_after_its_removal_stays_a_set(tmp_path):
    """`Cards.remove(card); Cards.add(card);`: the card is not held when it is added (the removal wrote it
    false), so the hand is still a set; the runtime moves the card to the end, which nothing reads."""
    r = to_gdl(tmp_path, variant(tmp_path, HIGHCARD, (PLAY, PLAY + "            Cards.add(card);\n")))
    assert r.exit_code == 0, r.output
    assert "; validated: bisimulation, 154 states" in r.kif and "cards_length" not in r.kif


def test_an_add_that_may_repeat_a_card_keeps_the_hand_in_order(tmp_path):
    """`Cards.add(card)` of a card the hand holds: a set would lose the second copy, so the hand is lowered in
    order, and refused as a list that may hold an object twice, as before sets."""
    r = to_gdl(tmp_path, variant(tmp_path, HIGHCARD, (PLAY, "            Cards.add(card);\n")))
    assert r.exit_code == 2 and r.kif == ""
    assert "error: not lowerable: Hand#0.Cards may hold 7 items, more than the 6 objects it can hold once each" \
        in r.output


def test_a_hand_whose_first_card_is_read_keeps_its_slots(tmp_path):
    """The filter lets a player play only the first card of the hand: the order is the game."""
    first = variant(tmp_path, HIGHCARD, (FILTER, "return Cards.contains(card) && Cards[0] == card; }"))
    r = to_gdl(tmp_path, first)
    assert r.exit_code == 0, r.output
    kif = r.kif
    assert "; validated: bisimulation, 5 states" in kif
    assert "(init (cards_length hand_0 3))" in kif and "(init (cards_0 hand_0 card_5))" in kif
    assert "cards_card_" not in kif
