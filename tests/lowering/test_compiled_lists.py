"""Lists of objects that are state, in the compiled moves (tgpl.lowering.compiled_lists, issue 34).

tests/data/lowering/played.tgpl is a hand of cards played out: a move's input is a card the hand `contains`, the
move reads the hand's first card (`Cards[0]`), takes the card out (`Cards.remove(card)`, the later cards moving
one down) and adds it to the table (`Tabletop.Played.add(card)`), whose length ends the game. With the moves
compiled, the hand's and the table's lengths and slots are fluents, as the spelled-out moves keep them, and the
translation is validated against the runtime. A `remove` that leaves the later cards where they were, or takes
out the last card holding the item rather than the first, must fail that validation."""

from __future__ import annotations

from pathlib import Path

import pytest

from tgpl.lowering.compiled_lists import ListWays, snapshot_value
from tgpl.lowering.horn import NULL
from tgpl.lowering.ir import Const
from tgpl.lowering.universe import length_cell, slot_cell
from to_gdl_runs import to_gdl, variant

GAME = Path(__file__).resolve().parents[1] / "data" / "lowering" / "played.tgpl"


def test_a_hand_played_out_lowers_with_its_moves_compiled_and_validated(tmp_path):
    text = to_gdl(tmp_path, GAME, "--moves", "compiled").written()
    assert "; validated: " in text.splitlines()[1] and "to the end of the game" in text.splitlines()[1]
    # the hand's length and slots are fluents, as the spelled-out moves lay them out
    assert "(init (cards_length hand_0 3))" in text and "(init (cards_3 hand_0 null))" in text


def _shortened(self, c, s, x, emptied):
    """`remove(x)` as a wrong lowering might make it: where a slot holds x, the list one shorter and the slot
    `emptied(k, length)` names null, the other slots left where they were."""
    hits, missing = self.found(c, s, x)
    out = list(missing)
    for c2, k in hits:
        for c3, n in self.length(c2, s):
            for size in range(k + 1, s.size + 1):
                c4 = self.sc.unify(c3, n, Const(str(size)))
                if c4 is not None:
                    for c5 in self.sc.write(c4, s.obj, slot_cell(s.attr, emptied(k, size)), NULL):
                        out += self.sc.write(c5, s.obj, length_cell(s.attr), Const(str(size - 1)))
    return out


def _not_moved_down(self, c, s, x):
    """The first slot holding x emptied, the later slots left where they were."""
    return _shortened(self, c, s, x, lambda k, size: k)


def _last_taken(self, c, s, x):
    """The list's last item taken out, whichever slot holds x."""
    return _shortened(self, c, s, x, lambda k, size: size - 1)


@pytest.mark.parametrize("wrong", [_not_moved_down, _last_taken], ids=["not-moved-down", "last-taken"])
def test_a_wrong_remove_fails_validation(tmp_path, monkeypatch, wrong):
    monkeypatch.setattr(ListWays, "remove", wrong)
    r = to_gdl(tmp_path, GAME, "--moves", "compiled")
    assert r.exit_code == 2 and not r.kif, r.output
    assert "differ" in r.output, r.output


def test_the_runtime_state_of_a_list_cell():
    """A list cell's value in a runtime snapshot: the length, an item, null past the length; other fields as
    they are."""
    fields = {"Cards": ("list", ["c1", "c2"]), "Score": 3.0}
    assert snapshot_value(fields, length_cell("Cards")) == 2.0
    assert snapshot_value(fields, slot_cell("Cards", 1)) == "c2"
    assert snapshot_value(fields, slot_cell("Cards", 2)) is None
    assert snapshot_value(fields, "Score") == 3.0


def test_other_list_changes_stay_refused_at_the_call(tmp_path):
    """`removeAt` is no compiled change: the refusal still names the list and the rewrite."""
    game = variant(tmp_path, GAME, ("Cards.remove(card);", "Cards.removeAt(0);"), name="played_at.tgpl")
    r = to_gdl(tmp_path, game, "--moves", "compiled")
    assert r.exit_code == 2, r.output
    assert "removeAt() changes the list 'Cards', and compiled moves keep no list that changes" in r.output


def test_brandubh_with_its_men_in_a_list_gets_past_the_removal(tmp_path):
    """tests/data/designers/brandubh_list.tgpl removes a taken man from `Tafl.Men` (207:29): compiled now, the moves
    stop at `On`'s loop over the men, a function reading a list that is state."""
    game = GAME.parents[1] / "designers" / "brandubh_list.tgpl"
    r = to_gdl(tmp_path, game, "--moves", "compiled")
    assert r.exit_code == 2 and "207:29" not in r.output, r.output
    assert ("brandubh_list.tgpl:112:9: error: not lowerable: the moves cannot be compiled: a loop, in On, run where "
            "it is called since rules with variables refused it (the list 'Men', which the moves change, read by a "
            "function at 112:9)") in r.output, r.output
