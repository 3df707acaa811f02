"""A row of cards, a `List` that is state, emptied by a `while` that takes out its first card and discards it
(tests/data/lowering/clearout.tgpl, the market sweep of tests/data/designers/bazaar.tgpl made small).

The card the loop discards is a slot of the list, known by cases of the cards it may be: the lowering discards
each of them where it is that card, on one path (`Executor.discard_by_cases`), rather than forking a path per
card at every pass (6! ways for six cards: refused past one control state's budget of parts, 21 s of CPU and
1.5 GB where measured). The translation must be the runtime's game, state for state, and a discard by cases that
forgets the passes before it, or discards every card the slot may hold, must fail the validation.

With the moves compiled, `add` and `remove` of a list of objects are compiled (tgpl.lowering.compiled_lists); any
other change of a list is refused at the call, naming the list, the change and the rewrite, one for a list taken
from (the sweep's `removeAt`) and one for a list added to (`append`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import tgpl.lowering.execute as execute
from differential import Lowered
from tgpl.cli import main
from tgpl.lowering.symbolic import TRUE
from tgpl.runtime.game import load_game
from tgpl.verify.runtime_machine import RuntimeMachine
from tgpl.validation import validate_translation
from tgpl.verify.graph import explore

GAME = Path(__file__).resolve().parents[1] / "data" / "lowering" / "clearout.tgpl"


def test_a_row_cleared_by_a_while_lowers_validated_by_a_bisimulation_of_every_state(tmp_path):
    """Every state the runtime reaches is compared (the header's count is the runtime's); the clearing move
    writes the cards' `discarded`, each under the case that the slot the loop reads holds it."""
    runtime = explore(RuntimeMachine(load_game(str(GAME))))
    assert runtime.complete and runtime.states > 300
    out = tmp_path / "clearout.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(GAME), "-o", str(out)])
    assert r.exit_code == 0, r.output
    text = out.read_text()
    assert text.splitlines()[1] == f"; validated: bisimulation, {runtime.states} states"
    assert "(<= (discarded_done ?x1 yes)" in text


def _forgets_earlier_passes(self, p, obj, name, v, f, span):
    """Each pass's discard as if the move had written nothing before it: the last pass's card alone is out."""
    return execute._where(v, f)


def _ignores_the_case(self, p, obj, name, v, f, span):
    """Every card the slot may hold discarded, whichever it is."""
    return v if name == "discarded" else execute._where(v, TRUE)


@pytest.mark.parametrize("wrong", [_forgets_earlier_passes, _ignores_the_case],
                         ids=["forgets-earlier-passes", "ignores-the-case"])
def test_a_wrong_discard_by_cases_fails_validation(monkeypatch, wrong):
    monkeypatch.setattr(execute.Executor, "_written_where", wrong)
    lw = Lowered.of(str(GAME))
    assert validate_translation(lw.game, lw.lowered, lw.seed).mismatch is not None


DESIGNERS = GAME.parents[1] / "designers"


def test_compiled_moves_refuse_a_list_emptied_by_index_naming_it_and_the_rewrite(tmp_path):
    """The row's `remove(card)` is compiled (its cells are state, tgpl.lowering.compiled_lists); its sweep,
    `removeAt(0)` in a `while`, is not: the refusal names the list, the change and what to write instead."""
    r = CliRunner().invoke(main, ["to-gdl", str(GAME), "--moves", "compiled", "-o", str(tmp_path / "x.kif")])
    assert r.exit_code == 2 and not (tmp_path / "x.kif").exists(), r.output
    assert ("clearout.tgpl:68:17: error: not lowerable: the moves cannot be compiled: removeAt() changes the list "
            "'Row', and compiled moves keep no list that changes after setup: keep every item in 'Row' as setup made "
            "it and mark the ones taken out with an attribute of the item (`bool Out`)") in r.output, r.output


def test_compiled_moves_take_ends_row_and_stop_at_the_hands_totals(tmp_path):
    """Ends' row, a list its moves take cards out of, is compiled; the next obstacle is `Total`'s loop over a
    hand the moves add to, which no compiled function reads (a list that is state is read by the segments)."""
    r = CliRunner().invoke(main, ["to-gdl", str(DESIGNERS / "ends.tgpl"), "--moves", "compiled",
                                  "-o", str(tmp_path / "x.kif")])
    assert r.exit_code == 2 and not (tmp_path / "x.kif").exists(), r.output
    assert "ends.tgpl:55:13" not in r.output, r.output
    assert ("ends.tgpl:70:13: error: not lowerable: the moves cannot be compiled: a loop, in Total, run where it is "
            "called since rules with variables refused it (the list 'Cards', which the moves change, read by a "
            "function at 70:13)") in r.output, r.output


def test_compiled_moves_refuse_a_list_appended_to_with_the_rewrite_for_a_growing_list(tmp_path):
    text = GAME.read_text(encoding="utf-8").replace("    bool Cleared = false;\n",
                                                    "    bool Cleared = false;\n    List<Card> Won = {};\n")
    text = text.replace("            Stall.Row.remove(card);\n",
                        "            Won.append(Stall.Row);\n            Stall.Row.remove(card);\n")
    game = tmp_path / "won.tgpl"
    game.write_text(text, encoding="utf-8")
    r = CliRunner().invoke(main, ["to-gdl", str(game), "--moves", "compiled", "-o", str(tmp_path / "x.kif")])
    assert r.exit_code == 2, r.output
    assert ("won.tgpl:53:13: error: not lowerable: the moves cannot be compiled: append() changes the list 'Won', "
            "and compiled moves keep no list that changes after setup: mark the items it would hold with an attribute "
            "of the item (`bool Held`), or keep what is read of it in a number the move changes (a running total)"
            ) in r.output, r.output
