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

from click.testing import CliRunner

from tgpl.cli import main
from tgpl.frontend.loader import load_program
from tgpl.lowering.subset import set_lists

HIGHCARD = Path(__file__).resolve().parents[1] / "data" / "designers" / "highcard.tgpl"
HANDS = Path(__file__).resolve().parents[1] / "data" / "lowering" / "hands.tgpl"
PLAY = "            Cards.remove(card);\n"
FILTER = "return Cards.contains(card); }"


def _variant(tmp_path, old: str, new: str) -> Path:
    text = HIGHCARD.read_text(encoding="utf-8")
    assert old in text
    out = tmp_path / "variant.tgpl"
    out.write_text(text.replace(old, new, 1), encoding="utf-8")
    return out


def _to_gdl(tmp_path, source: Path) -> tuple[int, str, str]:
    """(exit status, output, the GDL written or '')."""
    out = tmp_path / "out.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(source), "-o", str(out)])
    return r.exit_code, r.output, out.read_text() if out.exists() else ""


def _rules(kif: str) -> int:
    """Rules with a body, as issue 34 counts them."""
    return sum(1 for line in kif.splitlines() if line.startswith("(<= "))


def test_only_lists_read_by_contains_add_and_remove_are_sets(tmp_path):
    """highcard's hands are a set; its tricks (`Taken[taker] += 1`, read by index) and hands.tgpl's hands
    (read at `a[0]` and by length) are not, nor highcard's hands once the filter reads `Cards[0]`."""
    assert set_lists(load_program(str(HIGHCARD))) == {"Cards"}
    assert set_lists(load_program(str(HANDS))) == frozenset()
    first = _variant(tmp_path, FILTER, "return Cards.contains(card) && Cards[0] == card; }")
    assert set_lists(load_program(str(first))) == frozenset()


def test_highcard_hands_lower_as_membership_and_validate(tmp_path):
    code, output, kif = _to_gdl(tmp_path, HIGHCARD)
    assert code == 0, output
    assert "; validated: bisimulation, 58 states" in kif
    assert "cards_length" not in kif and "(cards_0 " not in kif
    # hand 0 is dealt cards 5, 2 and 4 at seed 0: whether it holds each card, a bool
    assert {f"(init (cards_card_{k} hand_0 {'yes' if k in (2, 4, 5) else 'no'}))" for k in range(6)} \
        <= set(kif.splitlines())
    assert "(sees_cards_card_5 hand_0 player_0)" in kif and "(sees_cards_card_5 hand_0 player_1)" not in kif
    assert _rules(kif) <= 650  # 2,958 with a length and six slots per hand


def test_a_card_put_back_after_its_removal_stays_a_set(tmp_path):
    """`Cards.remove(card); Cards.add(card);`: the card is not held when it is added (the removal wrote it
    false), so the hand is still a set; the runtime moves the card to the end, which nothing reads."""
    code, output, kif = _to_gdl(tmp_path, _variant(tmp_path, PLAY, PLAY + "            Cards.add(card);\n"))
    assert code == 0, output
    assert "; validated: bisimulation, 154 states" in kif and "cards_length" not in kif


def test_an_add_that_may_repeat_a_card_keeps_the_hand_in_order(tmp_path):
    """`Cards.add(card)` of a card the hand holds: a set would lose the second copy, so the hand is lowered in
    order, and refused as a list that may hold an object twice, as before sets."""
    code, output, kif = _to_gdl(tmp_path, _variant(tmp_path, PLAY, "            Cards.add(card);\n"))
    assert code == 2 and kif == ""
    assert "error: not lowerable: Hand#0.Cards may hold 7 items, more than the 6 objects it can hold once each" \
        in output


def test_a_hand_whose_first_card_is_read_keeps_its_slots(tmp_path):
    """The filter lets a player play only the first card of the hand: the order is the game."""
    first = _variant(tmp_path, FILTER, "return Cards.contains(card) && Cards[0] == card; }")
    code, output, kif = _to_gdl(tmp_path, first)
    assert code == 0, output
    assert "; validated: bisimulation, 5 states" in kif
    assert "(init (cards_length hand_0 3))" in kif and "(init (cards_0 hand_0 card_5))" in kif
    assert "cards_card_" not in kif
