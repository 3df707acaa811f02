"""Games written as designers write them, from docs/language.md alone (tests/data/designers): each checks,
plays, verifies, and lowers to GDL that its validation accepts. Each found a defect when it was written.

- nim.tgpl: heaps and amounts as objects (Nim 3-4-5, take 1 to 3): a first-player win, as its Grundy
  values (3, 0, 1 mod 4) say.
- boxes.tgpl: dots and boxes on 2x2 boxes; a box closed gives another turn, the scores are two calls of one
  function compared (`Score(who: 0) > Score(who: 1)`). Compiled moves made the two calls one instance
  but the ways' `next` rules still read the second's relation, which had no rules: a draw was neither a
  result nor a turn (caught by the validation, nothing written), and the validation's report then
  crashed on the compiled emitter (`attr_names`).
- slide.tgpl: a 3x2 sliding puzzle for one player, lost after 12 slides (`winner {};`, decision 96).
- claims.tgpl: who owns each spot kept in a list attribute written by index (`Owners[spot.Index] = player`),
  which the lowering refused ("only local lists and tables can be changed by index").
- highcard.tgpl: a trick-taking game with secret hands dealt from a shuffled deck and tricks counted in a list
  by index. Refused at the count's range after minutes: the end check reads the list by a player's index,
  which the slots' ranges, found with every case's condition aside, did not follow. The slots are now
  searched with the counters where that runs away (`segments.number_domains`): it lowers, bisimulated.
- same_names.tgpl: a lamp's bool `On` and the switchboard's number `On`, read after the move's writes in a
  function: the view of `On` held a number written by arithmetic, which the spelled-out emitter could not
  write (`float(Num)`, an internal error).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tgpl.cli import main
from tgpl.lowering.ir import Atom, Func
from tgpl.pipeline import lower_game
from tgpl.runtime.game import load_game

DESIGNERS = Path(__file__).resolve().parents[1] / "data" / "designers"


def to_gdl(tmp_path, name: str, *args: str) -> str:
    out = tmp_path / f"{name}.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(DESIGNERS / f"{name}.tgpl"), "-o", str(out), *args])
    assert r.exit_code == 0, r.output
    text = out.read_text()
    assert r.output == "" and "; validated: " in text
    r = CliRunner().invoke(main, ["check-gdl", str(out)])
    assert r.exit_code == 0, r.output
    return text


@pytest.mark.parametrize("name", ["nim", "boxes"])
def test_each_checks_and_verifies(name):
    r = CliRunner().invoke(main, ["verify", str(DESIGNERS / f"{name}.tgpl")])
    assert r.exit_code == 0, r.output
    assert "  value: win for player 0" in r.output.splitlines()


def test_verify_finds_the_lamps_game_decided_before_it_starts():
    """Three lamps, one a turn: the first player always lights the last one, whatever anyone does."""
    r = CliRunner().invoke(main, ["verify", str(DESIGNERS / "same_names.tgpl")])
    assert r.exit_code == 1, r.output
    assert "problem (unwinnable): player 1 never wins (best goal: 0)" in r.output


def test_nim_lowers_and_bisimulates(tmp_path):
    assert "; validated: bisimulation" in to_gdl(tmp_path, "nim")


def test_two_calls_of_one_function_compared_lower_with_their_moves_compiled(tmp_path):
    text = to_gdl(tmp_path, "boxes", "--moves", "compiled")
    assert "to the end of the game" in text.splitlines()[1]  # playouts that reached the draws and the wins


def test_a_number_and_a_bool_of_one_name_read_through_a_view_lower_spelled_out(tmp_path):
    assert "; validated: bisimulation" in to_gdl(tmp_path, "same_names", "--moves", "spelled")


@pytest.mark.parametrize("moves", ["compiled", "spelled"])
def test_the_emitters_name_the_attribute_of_each_fluent(moves):
    """What the validation's report reads to name the attribute of a fluent that differs."""
    lowered = lower_game(load_game(str(DESIGNERS / "same_names.tgpl")), moves=moves, global_checks=False)
    relations = {a.args[0].name for r in lowered.program.rules
                 if r.head.relation == "base" and not r.body
                 for a in [r.head] if isinstance(a.args[0], Func)}
    named = {lowered.emitter.attribute_named(rel) for rel in relations}
    assert {"On"} <= named and "Lamps" not in named
    assert lowered.emitter.attribute_named("control") is None


def test_a_puzzle_for_one_lowers_with_its_loss(tmp_path):
    text = to_gdl(tmp_path, "slide")
    assert "; validated: bisimulation" in text and "(<= (goal player_0 0) (true (result none)))" in text
    r = CliRunner().invoke(main, ["verify", str(DESIGNERS / "slide.tgpl")])
    assert r.exit_code == 0 and "  value: win for player 0" in r.output.splitlines()


@pytest.mark.parametrize("moves", ["auto", "spelled"])
def test_a_list_attribute_written_by_index_lowers(tmp_path, moves):
    assert "; validated: bisimulation" in to_gdl(tmp_path, "claims", "--moves", moves)
    # compiled moves do not write list items yet: refused where it is written
    r = CliRunner().invoke(main, ["to-gdl", str(DESIGNERS / "claims.tgpl"), "--moves", "compiled"])
    assert r.exit_code == 2 and "claims.tgpl:43:13: error: not lowerable: the moves cannot be compiled" in r.output


def test_the_trick_taking_game_lowers_with_its_tricks_counted_by_index(tmp_path):
    """`Felt.Taken[taker] += 1` then `if (Felt.Taken[taker] == 2) { winner taker; }`: the slots of the list,
    searched with the game's other numbers, take 0..2 (with the conditions aside they ran past 256 values)."""
    r = CliRunner().invoke(main, ["verify", str(DESIGNERS / "highcard.tgpl")])
    assert r.exit_code == 0 and "hidden information: deck Pack: the order of its items; Hand.Cards (private)" \
        in r.output
    text = to_gdl(tmp_path, "highcard", "--moves", "spelled")
    assert "; validated: bisimulation" in text
    assert [line for line in text.splitlines() if line.startswith("(base (taken_")] == [
        "(base (taken_length felt 2))", *(f"(base (taken_{k} felt {x}))" for k in (0, 1) for x in (0, 1, 2)),
        "(base (taken_2 felt null))", "(base (taken_3 felt null))"]


def test_the_trick_count_searched_apart_is_refused_with_how_to_rewrite(monkeypatch, tmp_path):
    """Where the game's numbers with the slots are too many states together (here: the limit cut to none), the
    slots are searched apart, every test aside, and `Taken[taker] += 1` runs past every bound: refused at the
    list, saying why and what to write instead; nothing written. That search judges every case with nothing
    known, once per case (it judged them again for every value of every slot: minutes before the refusal)."""
    from tgpl.lowering import segments

    monkeypatch.setattr(segments, "SLOTS_JOINT_LIMIT", 0)
    out = tmp_path / "h.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(DESIGNERS / "highcard.tgpl"), "--moves", "spelled",
                                  "--no-validate", "-o", str(out)])
    assert r.exit_code == 2 and not out.exists(), r.output
    first = r.output.splitlines()[0]
    assert "highcard.tgpl:50:5: error: not lowerable: Felt.Taken[0] takes more than 256 values" in first
    assert first.endswith("keep it in a number attribute (one per player) that the game tests, or bound it by a "
                          "constant before it is written"), first
    assert "List<number> Taken" in r.output.splitlines()[1]


def test_ludo_with_its_die_lowers_and_validates(tmp_path):
    """Four tokens' `Walked` and a die are too many states together for the joint search: each token is then
    searched with the die its writes read (`segments.alone_ranges`), not left to the search by counter, whose
    capture conditions multiply every token's values past its budget."""
    text = to_gdl(tmp_path, "ludo")
    assert "; validated: " in text and " playouts " in text
