"""A loop that sums an item field over a list that is state keeps a running total (decision 113).

tests/data/lowering/totals.tgpl compares two hands' totals (`Hand.Total`, a loop adding every card's value) after
`add`, `remove` and `removeAt`. Spelled out slot by slot, its dry run passed 879,643 parts of conditions without
deciding; with the running totals it lowers in 24,751, and the lowered game is bisimulated with the runtime.
tests/data/lowering/gains.tgpl sums only the cards worth more than nothing (an `if` in the loop): no running
total, and the budget of one control state refuses it (tests/lowering/test_state_work.py).
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from tgpl.cli import main
from tgpl.frontend.loader import load_program
from tgpl.lowering import execute
from tgpl.lowering.list_sums import nulls_cell, runtime_total, sum_cell, summed_fields, total_domain, total_of

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "lowering"
TOTALS = str(DATA / "totals.tgpl")


def _program(path):
    found = load_program(path)
    return found[0] if isinstance(found, tuple) else found


def test_the_loop_that_adds_every_item_is_a_sum_and_the_one_that_tests_them_is_not():
    assert summed_fields(_program(TOTALS)) == {"Cards": {"Value"}}
    assert summed_fields(_program(str(DATA / "gains.tgpl"))) == {}
    assert summed_fields(_program(str(ROOT / "examples" / "treasure.tgpl"))) == {"Cards": {"Value"}}


def test_the_cells_of_a_total_name_their_list():
    assert total_of(sum_cell("Cards", "Value")) == ("Cards", "Value")
    assert total_of(nulls_cell("Cards")) == ("Cards", None)
    assert total_of("Cards.length") is None and total_of("Cards[2]") is None and total_of("Score") is None


def test_a_totals_range_is_its_longest_list_times_the_fields_extremes():
    assert total_domain([3.0, -5.0, 1.0], 2, 0.0) == [float(x) for x in range(-10, 7)]
    assert total_domain([2.0], 3, 0.0) == [float(x) for x in range(0, 7)]
    assert total_domain([1.0], 0, 4.0) == [0.0, 1.0, 2.0, 3.0, 4.0]  # setup's total is always in it


def test_the_runtime_total_sums_the_items_and_counts_the_nulls():
    class Item:
        def __init__(self, v):
            self.fields = {"Value": v}
    items = [Item(3.0), None, Item(-5.0)]
    assert runtime_total(items, "Value") == -2.0 and runtime_total(items, None) == 1.0


def test_the_totals_lower_within_a_budget_the_slot_by_slot_sums_passed(monkeypatch):
    """The old lowering built 879,643 parts in the dry run's sample alone; under a budget of 200,000 parts for a
    control state it was refused, where the running totals need 24,751 in all."""
    monkeypatch.setattr(execute, "STATE_WORK", 200_000)
    dry = CliRunner().invoke(main, ["to-gdl", TOTALS, "--dry-run"])
    assert dry.exit_code == 0, dry.output
    assert "totals.tgpl: lowers" in dry.output


def test_the_totals_are_fluents_and_the_lowered_game_plays_as_the_runtime(tmp_path):
    out = tmp_path / "totals.kif"
    r = CliRunner().invoke(main, ["to-gdl", TOTALS, "-o", str(out)])
    assert r.exit_code == 0, r.output
    text = out.read_text()
    assert text.splitlines()[1].startswith("; validated: bisimulation"), text.splitlines()[1]
    assert "(cards_sum_value hand_0" in text and "(cards_nulls hand_0" in text


def test_treasures_totals_pass_the_budget_of_one_control_state():
    """examples/treasure.tgpl was refused at 168:35 by the budget of one control state; with running totals its
    dry run refuses nothing: its sampled run estimates the moves within the lowering's budgets. It does not search
    the numbers' ranges, which decide whether treasure lowers (its lists' lengths are counters, searched
    together, `test_treasures_hands_are_ranged_as_a_play_fills_them`): with running totals, an estimate within
    the budgets is undecided (exit 2), never "lowers"."""
    dry = CliRunner().invoke(main, ["to-gdl", str(ROOT / "examples" / "treasure.tgpl"), "--dry-run"])
    assert "not lowerable" not in dry.output and "refused" not in dry.output, dry.output
    assert dry.exit_code == 2 and "treasure.tgpl: undecided within the dry run's budget" in dry.output, dry.output
    assert "Hand#0.Cards, Hand#1.Cards keep running totals" in dry.output, dry.output


class _Ranged(Exception):
    """Stops a lowering once its numbers are ranged."""


def test_treasures_hands_are_ranged_as_a_play_fills_them(monkeypatch):
    """A Discard's effect runs in random's step, after the deal of the next card; its filter (the card is in the
    hand) holds there too (`segments.made_legal`), so its remove() finds the card. Without it, the joint search
    let the card be missed: the hands' lengths reached 10, and the search passed its work (JOINT_WORK_LIMIT) and
    treasure was refused at Reshuffles (81:17). Now the counters are ranged together: a hand holds at most 5
    cards, the deck is reshuffled at most once, and the game ends at its 16th turn."""
    from tgpl import pipeline
    from tgpl.lowering import segments
    from tgpl.runtime.game import load_game

    ranged = segments.number_domains
    got: dict = {}

    def stop(logic, lowering):
        ranged(logic, lowering)
        got.update({k: fl.domain for k, fl in logic.fluents.items() if fl.numeric})
        raise _Ranged

    monkeypatch.setattr(segments, "number_domains", stop)
    game = load_game(str(ROOT / "examples" / "treasure.tgpl"))
    try:
        pipeline.lower_game(game)
    except _Ranged:
        pass
    assert max(got[("Hand#0", "Cards.length")]) == 5.0 and max(got[("Hand#1", "Cards.length")]) == 5.0, got
    assert got[("Tabletop", "Reshuffles")] == [0.0, 1.0], got
    assert max(got[("Tabletop", "Turns")]) == 16.0, got
