"""Lists stored in attributes that the moves change and read: their length and items are fluents.

tests/data/lowering/hands.tgpl deals from a deck into hands (`Cards.add`), lets
players discard a card they hold (`Cards.contains` in the filter, `Cards.remove`)
or keep them all (`Cards.length` in a require), and decides the winner by the
hands' lengths and first cards (`a[0]`). A list that is state is a length and a
slot per object of its element class (slots past the length null); the lowered
game must be the runtime's, state for state, at every seed; plausible
mistranslations must fail the validation every to-gdl runs; and a list that may
hold an object twice (more items than slots) is refused.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import tgpl.lowering.execute as execute
from differential import Lowered, bisimulate
from tgpl.verify.runtime_machine import RuntimeMachine
from tgpl.validation import validate_translation
from tgpl.verify.graph import explore

GAME = Path(__file__).resolve().parents[1] / "data" / "lowering" / "hands.tgpl"


def _lowered(text: str | None = None, seed: int = 0) -> Lowered:
    return Lowered.of_text(text or GAME.read_text(encoding="utf-8"), str(GAME), seed=seed)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_hands_lower_to_the_runtimes_game(seed):
    lw = _lowered(seed=seed)
    fluents = set(lw.lowered.emitter.logic.fluents)
    for hand in ("Hand#0", "Hand#1"):
        assert {(hand, "Cards.length")} | {(hand, f"Cards[{k}]") for k in range(5)} <= fluents
    lengths = lw.lowered.emitter.logic.fluents[("Hand#0", "Cards.length")].domain
    assert max(lengths) <= 3  # two kept, and a card drawn
    runtime = explore(RuntimeMachine(lw.game, seed))
    assert runtime.complete and runtime.states > 20
    assert bisimulate(lw).states == runtime.states


_LIST_METHOD = execute.Executor._list_method


def _remove_without_shifting(self, p, lst, n, name, vals, span):
    if name != "remove":
        return _LIST_METHOD(self, p, lst, n, name, vals, span)
    slot = [self._slot(p, lst, k, span) for k in range(n)]
    found = [execute.as_formula(execute.sym_equal(s, vals[0])) or execute.FALSE for s in slot]
    out = [p]
    for k in range(n):  # the item becomes null where it was, the others stay
        v = execute.choice([(None, found[k]), (slot[k], execute.neg(found[k]))])
        out = [r for q in out for r in self.write(q, lst.obj, execute.slot_cell(lst.attr, k), v, span)]
    length = execute.choice([(float(n - 1), execute.disj(*found)), (float(n), execute.neg(execute.disj(*found)))]) \
        if n else 0.0
    return [(r, None) for q in out for r in self.write(q, lst.obj, execute.length_cell(lst.attr), length, span)]


def _add_at_the_front(self, p, lst, n, name, vals, span):
    if name != "add" or n == 0 or n >= lst.size:
        return _LIST_METHOD(self, p, lst, n, name, vals, span)
    out = [p]
    for k in range(n, 0, -1):  # moves every item up and puts the new one first: an insert, not an add
        v = self._slot(p, lst, k - 1, span)
        out = [r for q in out for r in self.write(q, lst.obj, execute.slot_cell(lst.attr, k), v, span)]
    out = [r for q in out for r in self.write(q, lst.obj, execute.slot_cell(lst.attr, 0), vals[0], span)]
    return [(r, None) for q in out for r in self.write(q, lst.obj, execute.length_cell(lst.attr), float(n + 1), span)]


@pytest.mark.parametrize("wrong", [
    pytest.param(_remove_without_shifting, id="remove-leaves-a-hole"),
    pytest.param(_add_at_the_front, id="add-puts-the-card-first"),
])
def test_a_wrong_lowering_of_lists_fails_validation(monkeypatch, wrong):
    monkeypatch.setattr(execute.Executor, "_list_method", wrong)
    lw = _lowered()
    result = validate_translation(lw.game, lw.lowered, lw.seed)
    assert result.mismatch is not None


def _drawn_twice() -> str:
    text = GAME.read_text(encoding="utf-8")
    draw = "        hand.Cards.add(Tabletop.Deck.pop());\n"
    assert draw in text
    return text.replace(draw, "        Card drawn = Tabletop.Deck.pop();\n        hand.Cards.add(drawn);\n"
                              "        hand.Cards.add(drawn);\n")


def test_a_list_that_may_hold_more_items_than_objects_is_refused():
    """Each card drawn goes in twice, and nothing caps the hand: it may hold 6 items of 5 cards."""
    cap = "        require { return Cards.length <= 2; }\n"
    text = _drawn_twice()
    assert cap in text
    with pytest.raises(execute.NotLowerable) as refused:
        _lowered(text.replace(cap, ""))
    assert "Hand#0.Cards may hold 6 items, more than the 5 objects" in refused.value.reason
    assert "a list that may hold an object twice is not lowerable" in refused.value.reason


def test_a_list_holding_an_object_twice_within_its_slots_is_the_runtimes_game():
    """With the hand capped, the counters searched together (tgpl.lowering.segments, `Together`) bound its
    length by its slots: a card held twice is two slots, and the lowering is exact."""
    lw = _lowered(_drawn_twice())
    assert bisimulate(lw).states > 0
