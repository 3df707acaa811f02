"""Decks popped after setup, and lists that nothing reads: examples/cards.tgpl lowers (with a card burned in
setup, its deck keeps the seed's order; as it is, random deals it: test_deals_in_play.py).

A deck (a stack object) whose items nothing but pop() changes after setup keeps
the order setup shuffled it into, so what a play changes is how many are left:
its `length` is a fluent, and pop() gives the item on top by cases of it. A list
attribute that code after setup only changes (`Cards.add(c);`) and never reads
cannot affect the game, so it is no fluent. Both must give the runtime's game,
state for state, at every seed; plausible mistranslations must fail the
validation every to-gdl runs; and what breaks the conditions is refused.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import tgpl.lowering.execute as execute
from differential import Lowered, bisimulate
from tgpl.cli import main
from tgpl.verify.runtime_machine import RuntimeMachine
from tgpl.validation import validate_translation
from tgpl.verify.graph import explore
from to_gdl_runs import variant

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CARDS = EXAMPLES / "cards.tgpl"


SETUP = "    Tabletop.Deck = new Lib.NumberDeck();\n"


def _cards_variant(folder: Path, *edits: tuple[str, str], name: str = "cards.tgpl") -> Path:
    """examples/cards.tgpl with `edits` made (`to_gdl_runs.variant`), written in `folder` as `name` with the
    library it imports beside it."""
    (folder / "lib").mkdir()
    shutil.copy(EXAMPLES / "lib" / "deck.tgpl", folder / "lib" / "deck.tgpl")
    return variant(folder, CARDS, *edits, name=name)


@pytest.fixture(scope="module")
def burned(tmp_path_factory) -> str:
    """examples/cards.tgpl with the deck's top card burned in setup: setup takes from the deck, so it is not
    dealt by random in play (decision 102) but kept in the order the setup seed shuffled it."""
    return str(_cards_variant(tmp_path_factory.mktemp("burned"), (SETUP, SETUP + "    Tabletop.Deck.pop();\n")))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_deck_setup_draws_from_lowers_to_the_runtimes_game_at_every_seed(burned, seed):
    """Each seed shuffles the deck differently at setup: each is its own (deterministic) GDL game."""
    lw = Lowered.of(burned, seed=seed)
    fluents = set(lw.lowered.emitter.logic.fluents)
    assert ("NumberDeck#0", "length") in fluents
    assert not any(attr == "Cards" for _, attr in fluents)  # added to, never read: no fluent
    runtime = explore(RuntimeMachine(lw.game, seed))
    assert runtime.complete and runtime.states >= 2
    assert bisimulate(lw).states == runtime.states


_ITEM_AT = execute._item_at


def _wrong_card(items: tuple, n):
    return _ITEM_AT(items[1:] + items[:1], n)


@pytest.mark.parametrize("defect", [
    pytest.param(lambda mp: mp.setattr(execute, "_one_less", lambda n: n), id="pop-leaves-the-length"),
    pytest.param(lambda mp: mp.setattr(execute, "_item_at", _wrong_card), id="pop-takes-the-wrong-card"),
])
def test_a_wrong_lowering_of_decks_fails_validation(monkeypatch, burned, defect):
    defect(monkeypatch)
    lw = Lowered.of(burned)
    result = validate_translation(lw.game, lw.lowered, lw.seed)
    assert result.mismatch is not None


def _printed_gdl(tmp_path, monkeypatch, old: str, new: str):
    """`tgpl to-gdl game.tgpl --no-validate` run in `tmp_path`, game.tgpl cards.tgpl with `old` made `new`: the
    result, the GDL printed (messages located as `game.tgpl:line:col`)."""
    _cards_variant(tmp_path, (old, new), name="game.tgpl")
    monkeypatch.chdir(tmp_path)
    return CliRunner().invoke(main, ["to-gdl", "game.tgpl", "--no-validate"])


DRAWN = "            Cards.add(c);\n"


def test_a_list_read_after_setup_becomes_state(tmp_path):
    """Once something reads the hand, its cards are no longer dropped: the list is state (a length and
    slots, test_lowered_lists.py), and the game, which now ends by the hand's size, still lowers and is the
    runtime's (validated). A deck of four cards, so that a hand reaches the size that wins: the hands'
    lists are state as with the example's ten cards, which lower alike in far more CPU."""
    game = _cards_variant(tmp_path, (DRAWN, DRAWN + "            if (Cards.length > 1) { winner player; }\n"),
                          name="game.tgpl")
    deck = tmp_path / "lib" / "deck.tgpl"
    variant(tmp_path / "lib", deck, ("v <= 10", "v <= 4"))
    r = CliRunner().invoke(main, ["to-gdl", str(game), "-o", str(tmp_path / "game.kif")])
    assert r.exit_code == 0, r.output
    kif = (tmp_path / "game.kif").read_text(encoding="utf-8")
    assert kif.splitlines()[1].startswith("; validated: bisimulation, "), kif.splitlines()[1]
    assert "(init (cards_length hand_0 0))" in kif
    assert "(cards_length hand_0 2)" in kif  # the second card a hand draws wins


@pytest.mark.parametrize("old, new, expected", [
    pytest.param(DRAWN, DRAWN + "            Tabletop.Deck.push(c);\n",
                 "46:13: error: not lowerable: the built-in push() is not lowerable", id="a-deck-pushed-to"),
])
def test_what_breaks_the_conditions_is_refused_with_its_location(tmp_path, monkeypatch, old, new, expected):
    r = _printed_gdl(tmp_path, monkeypatch, old, new)
    assert r.exit_code == 2, r.output
    assert r.output.splitlines()[0] == f"game.tgpl:{expected}"
