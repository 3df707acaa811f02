"""Scans that stop at the first match, over a list kept as a set (tgpl.lowering.set_scans, docs/lowering.md "Lists
kept as sets", issue 34).

tests/data/designers/trumps.tgpl deals five of twelve cards into each player's private `List<Card> Cards`; after
setup it tests `Cards.contains(card)`, runs `Cards.remove(card);` and asks `HasSuit`, a loop over the hand that
returns true at the first card of the suit. That loop reads the hand in order, but nothing it does depends on the
order, so the hand is lowered as one bool per card: 10,867 rules with a body where the hand was a length and
slots (4,100 of them the slots' and the length's changes, each `remove` moving the later cards down), about 90 s
of CPU and 1 GB; now under 1,500 rules in a few seconds. Variants show the other side: a loop whose answer
depends on which card matches first, or whose test calls a function, keeps the hand in order; a planted wrong
lowering of the scan (its test inverted) is found by the validation every to-gdl runs; and highcard.tgpl with a
rule that the answer must beat the lead where the hand can (a scan whose match answers with the card played)
keeps its hands as sets.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import tgpl.lowering.execute as execute
from tgpl.frontend import ast
from tgpl.frontend.loader import load_program
from tgpl.lowering.set_scans import SetScan
from tgpl.lowering.subset import set_lists
from to_gdl_runs import rules_with_a_body, to_gdl, variant

TRUMPS = Path(__file__).resolve().parents[1] / "data" / "designers" / "trumps.tgpl"
HIGHCARD = Path(__file__).resolve().parents[1] / "data" / "designers" / "highcard.tgpl"
MATCH = "if (Cards[i].Suit == suit) { return true; }"


def test_trumps_hands_lower_as_membership_and_validate(tmp_path):
    r = to_gdl(tmp_path, TRUMPS)
    assert r.exit_code == 0, r.output
    kif = r.kif
    assert "; validated: bisimulation, 582 states" in kif
    assert "cards_length" not in kif and "(cards_0 " not in kif
    # hand 0 is dealt cards 11, 4, 3, 2 and 10 at seed 0: whether it holds each card, a bool
    dealt = (2, 3, 4, 10, 11)
    assert {f"(init (cards_card_{k} hand_0 {'yes' if k in dealt else 'no'}))" for k in range(12)} \
        <= set(kif.splitlines())
    assert "(sees_cards_card_11 hand_0 player_0)" in kif and "(sees_cards_card_11 hand_0 player_1)" not in kif
    assert rules_with_a_body(kif) <= 1_500  # 10,867 with a length and twelve slots per hand


def test_only_scans_whose_answer_no_order_changes_keep_the_set(tmp_path):
    """A match that answers with the card's own rank depends on which card comes first; a test that calls a
    function is not taken as free of effects: both keep the hand in order."""
    assert set_lists(load_program(str(TRUMPS))) == {"Cards"}
    ranked = variant(tmp_path, TRUMPS, (MATCH, "if (Cards[i].Suit == suit) { return Cards[i].Rank > 2; }"))
    assert set_lists(load_program(str(ranked))) == frozenset()
    called = variant(tmp_path, TRUMPS, (MATCH, "if (Beats(led: Cards[i], follow: Cards[i])) { return true; }"))
    assert set_lists(load_program(str(called))) == frozenset()
    counted = variant(tmp_path, TRUMPS, (MATCH, "if (Cards.length > 4) { return true; }"))
    assert set_lists(load_program(str(counted))) == frozenset()


def test_an_inverted_scan_is_found_by_the_validation(tmp_path, monkeypatch):
    """Planted: the scan matches where some card held is not of the suit. The follower's legal cards differ."""
    real = execute.set_scan

    def inverted(s, types):
        scan = real(s, types)
        if scan is None:
            return None
        return SetScan(scan.items, scan.index, ast.Unary(scan.cond.span, "!", scan.cond), scan.hit, scan.reads)

    monkeypatch.setattr(execute, "set_scan", inverted)
    r = to_gdl(tmp_path, TRUMPS)
    assert r.exit_code == 2 and r.kif == "", r.output
    assert "trumps.tgpl:98:12: error: the GDL differs from the runtime after" in r.output, r.output
    assert "legal moves only in the runtime: Hand#" in r.output, r.output


@pytest.mark.parametrize("seed", [1, 2])
def test_trumps_hands_as_sets_at_other_seeds(tmp_path, seed):
    r = to_gdl(tmp_path, TRUMPS, "--seed", str(seed))
    assert r.exit_code == 0, r.output
    kif = r.kif
    assert "; validated: bisimulation" in kif and "cards_length" not in kif


# highcard.tgpl with a rule of its own: the answer must beat the lead where the hand can (a scan of the hand)
MUST_BEAT = """input Card card
        {
            if (!Cards.contains(card)) { return false; }
            if (Felt.Led == null) { return true; }
            for (number i = 0; i < Cards.length; i += 1)
            {
                if (Cards[i].Value > Felt.Led.Value) { return card.Value > Felt.Led.Value; }
            }
            return true;
        }"""


def test_a_scan_answering_by_the_move_keeps_the_set_and_validates(tmp_path):
    """The match's answer reads the card played, not the card found: the hand stays a set, bisimulated (50
    states where highcard without the rule has 58: the rule is seen)."""
    source = variant(tmp_path, HIGHCARD, ("input Card card { return Cards.contains(card); }", MUST_BEAT),
                     name="must_beat.tgpl")
    assert set_lists(load_program(str(source))) == {"Cards"}
    r = to_gdl(tmp_path, source)
    assert r.exit_code == 0, r.output
    kif = r.kif
    assert "; validated: bisimulation, 50 states" in kif
    assert "cards_length" not in kif and "(cards_card_5 hand_0 " in kif
