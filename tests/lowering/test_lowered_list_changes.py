"""removeAt and append on lists that are state: the runtime's list, item for item, in order.

tests/data/lowering/river.tgpl changes lists stored in attributes with
`removeAt` (at an index `indexOf` gives, at constant indexes one after the
other, and at an index that only the move counter decides, which the runtime
truncates) and `append` (of a local list, of another list that is state, of a
static list). A list that is state is a length and a slot per object of its
element class; the lowered game must be the runtime's, state for state, at
every seed; plausible mistranslations must fail the validation every to-gdl
runs; an index out of range is a runtime error, which the lowering drops and
the validation reports where a play reaches it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import tgpl.lowering.execute as execute
from differential import Lowered, bisimulate
from tgpl.cli import main
from tgpl.verify.runtime_machine import RuntimeMachine
from tgpl.validation import validate_translation
from tgpl.verify.graph import explore

GAME = Path(__file__).resolve().parents[1] / "data" / "lowering" / "river.tgpl"


def _lowered(text: str | None = None, seed: int = 0) -> Lowered:
    return Lowered.of_text(text or GAME.read_text(encoding="utf-8"), str(GAME), seed=seed)


@pytest.mark.parametrize("seed", [1, 2])  # seed 0: to-gdl below
def test_river_lowers_to_the_runtimes_game(seed):
    lw = _lowered(seed=seed)
    fluents = lw.lowered.emitter.logic.fluents
    for obj, attr in (("Tabletop", "River"), ("Hand#0", "Cards"), ("Hand#1", "Cards")):
        assert {(obj, f"{attr}.length")} | {(obj, f"{attr}[{k}]") for k in range(3)} <= set(fluents)
        assert max(fluents[(obj, f"{attr}.length")].domain) <= 3  # within its slots: the ranges bound it
    runtime = explore(RuntimeMachine(lw.game, seed))
    assert runtime.complete and runtime.states > 100
    actions = {text.split(".")[1].split("(")[0] for edges in runtime.edges for text, _, _ in edges}
    assert actions == {"Take", "TakeTwo", "Sweep", "GiveBack", "Refill"}  # every change is played
    assert bisimulate(lw).states == runtime.states


def test_to_gdl_validates_and_check_gdl_accepts_it(tmp_path):
    out = tmp_path / "river.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(GAME), "-o", str(out)])
    assert r.exit_code == 0, r.output
    text = out.read_text(encoding="utf-8")
    assert "validated: bisimulation, 177 states" in text
    r = CliRunner().invoke(main, ["check-gdl", str(out)])
    assert r.exit_code == 0, r.output


def _remove_at_leaving_a_hole(self, p, lst, n, slots, index, span):
    out = []
    for q, i in self.split(p, index):  # the item at i becomes null; the ones after it stay where they were
        at = [execute._index_is(i, k) for k in range(n)]
        r = q.fork(execute.conj(q.pc, execute.disj(*at)))
        writes = {k: execute.choice([(None, at[k]), (slots[k], execute.neg(at[k]))]) for k in range(n)}
        out.extend(self._store(r, lst, writes, float(n - 1), span))
    return out


_EXTEND = execute.Executor._extend


def _append_dropping_the_last_item(self, p, lst, n, items, span):
    return _EXTEND(self, p, lst, n, items[:-1], span)


def _append_before_the_items(self, p, lst, n, items, span):
    if not items or n == 0 or n + len(items) > lst.size:
        return _EXTEND(self, p, lst, n, items, span)
    held = [self._slot(p, lst, k, span) for k in range(n)]  # the new items first, then the ones held
    return self._store(p, lst, dict(enumerate(items + held)), float(n + len(items)), span)


def _index_rounded(i, k):
    if not isinstance(i, (int, float, execute.Num)) or isinstance(i, bool):
        return execute.FALSE  # half an index rounds up instead of down: 0.5 picks item 1
    return execute.conj(execute.as_formula(execute.sym_compare(">=", i, k - 0.5)),
                        execute.as_formula(execute.sym_compare("<", i, k + 0.5)))


@pytest.mark.parametrize("where, wrong", [
    pytest.param("Executor._remove_at", _remove_at_leaving_a_hole, id="removeAt-leaves-a-hole"),
    pytest.param("Executor._extend", _append_dropping_the_last_item, id="append-drops-the-last-item"),
    pytest.param("Executor._extend", _append_before_the_items, id="append-puts-the-items-first"),
    pytest.param("_index_is", _index_rounded, id="index-rounded-not-truncated"),
])
def test_a_wrong_lowering_of_list_changes_fails_validation(monkeypatch, where, wrong):
    owner, _, name = where.rpartition(".")
    monkeypatch.setattr(getattr(execute, owner) if owner else execute, name, wrong)
    lw = _lowered()
    result = validate_translation(lw.game, lw.lowered, lw.seed)
    assert result.mismatch is not None


def test_a_play_that_removes_past_the_end_is_found_by_the_validation():
    """The runtime stops on an index out of range; the lowering drops that case, as every runtime error, and
    assumes no play reaches it: where one does, the validation says so (the runtime's error), nothing is
    taken for the game."""
    text = GAME.read_text(encoding="utf-8")
    give = "                Cards.removeAt(Tabletop.Moves / 2 % 2);\n"
    assert give in text
    lw = _lowered(text.replace(give, "                Cards.removeAt(Cards.length);\n"))
    result = validate_translation(lw.game, lw.lowered, lw.seed)
    assert result.mismatch is not None
    assert result.mismatch.difference.runtime_error is not None
    assert "out of range" in str(result.mismatch.difference.runtime_error)


@pytest.mark.parametrize("edits, construct, reason", [
    # a stack stored in an attribute that the moves push to and read is not a list that is state
    ([("List<Hand> Hands = {};", "List<Hand> Hands = {};\n    Stack<Card> Seen = {};"),
      ("Cards.add(card);", "Cards.add(card);\n                Tabletop.Seen.push(card);\n"
                           "                if (Tabletop.Seen.length > 9) { winner 0; }")],
     "Tabletop.Seen.push(card)", "push() on a list stored in an attribute is not lowerable"),
    # removeAt on a local list is not translated
    ([("Cards.append(two);", "two.removeAt(0);\n                Cards.append(two);")],
     "two.removeAt(0)", "removeAt() on a local list is not lowerable"),
])
def test_other_list_changes_are_refused_where_written(tmp_path, monkeypatch, edits, construct, reason):
    text = GAME.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text
        text = text.replace(old, new, 1)
    (tmp_path / "game.tgpl").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["to-gdl", "game.tgpl", "--no-validate"])
    assert r.exit_code == 2, r.output
    first = r.output.splitlines()[0]
    assert first.startswith("game.tgpl:") and first.endswith(f"error: not lowerable: {reason}"), r.output
    line, col = (int(x) for x in first.split(":")[1:3])
    assert text.splitlines()[line - 1][col - 1:].startswith(construct)


TALLY = GAME.with_name("tally.tgpl")


def test_lists_of_numbers_and_players_lower_to_the_runtimes_game():
    """tally.tgpl keeps a list of numbers per seat (add, contains, indexOf, removeAt, remove, append of a
    static list) and a list of players: each is a length and as many slots as its length's range needs,
    found by lowering again with more where a first guess was passed."""
    lw = Lowered.of(str(TALLY))
    fluents = lw.lowered.emitter.logic.fluents
    for obj, attr, longest in (("Seat#0", "Scores", 3), ("Seat#1", "Scores", 4), ("Tabletop", "Order", 6)):
        assert max(fluents[(obj, f"{attr}.length")].domain) == longest
        slots = [k for k in range(20) if (obj, f"{attr}[{k}]") in fluents]
        assert slots == list(range(len(slots))) and len(slots) >= longest
    assert {x for x in fluents[("Seat#0", "Scores[0]")].domain} == {None, 0.0, 1.0, 2.0}
    runtime = explore(RuntimeMachine(lw.game, 0))
    assert runtime.complete and runtime.states > 500
    assert bisimulate(lw).states == runtime.states


def test_a_list_of_numbers_without_a_bound_is_refused_at_its_declaration(monkeypatch):
    monkeypatch.chdir(GAME.parent)
    r = CliRunner().invoke(main, ["to-gdl", "grow.tgpl", "--no-validate"])
    assert r.exit_code == 2, r.output
    assert r.output.splitlines()[0] == (
        "grow.tgpl:14:5: error: not lowerable: Tabletop.Marks may hold more than 16 items (its length's range "
        "passes every slot it was given): a list of values whose length the lowering cannot bound is not lowerable")
