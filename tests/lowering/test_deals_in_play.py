"""GDL-II out: a deck made shuffled that play pops without shuffling it, dealt by random at each pop() (decision 102).

tests/data/lowering/gift.tgpl, a designer's game: five cards shuffled when the deck is made, each turn one drawn
face up, then kept or given away. Its deck is never shuffled after setup, so it was the seed's order (the game of
setup seed 0, one of 120 deals); it is now random's deal at each draw, validated against the runtime dealing at
pop() (tgpl.runtime.dealing), and its .kif verified over every deal. A deck that does not qualify stays the
seed's, as its header says, and is not refused for it; a dealt deck that setup takes from keeps that draw the
seed's, and the header says so."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from differential import lowered_kif, never_deals_the_first_item
from tgpl import builtin_calls
from tgpl.cli import main
from to_gdl_runs import to_gdl, variant

DATA = Path(__file__).resolve().parents[1] / "data" / "lowering"
GIFT = DATA / "gift.tgpl"


def test_gift_lowers_to_random_dealing_each_draw(tmp_path_factory):
    assert CliRunner().invoke(main, ["check", str(GIFT)]).exit_code == 0
    kif = lowered_kif(tmp_path_factory, GIFT).read_text()
    assert "; validated: bisimulation, 582 states" in kif  # 68 as the seed's game: every deal is now in it
    assert "gift.tgpl:58:26 deals from a shuffled deck as a move of the chance role random" in kif
    assert "its shuffles at " in kif and "gift.tgpl:36:9 change nothing here" in kif  # its default's only
    assert "; Chance:" not in kif  # no draw is left to the seed
    assert "\n(role random)\n" in kif and "(input random (roll 5))" in kif and "(input random (roll 6))" not in kif
    assert "(init (items_length fivedeck_0 5))" in kif
    r = CliRunner().invoke(main, ["check-gdl", str(lowered_kif(tmp_path_factory, GIFT))])
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[-1].endswith("ok (GDL-II: the chance role random and percepts (sees))")


def test_verify_of_the_gift_kif_explores_every_deal(tmp_path_factory):
    """The seed's game had one deal: its .kif's first draw could give one card. Random's first deal has five
    moves, and the expected goals are over every deal (the runtime's verify over the 120 orders says 80/20)."""
    from tgpl.asp.reasoner import GdlGame

    path = lowered_kif(tmp_path_factory, GIFT)
    r = CliRunner().invoke(main, ["verify", str(path)])
    assert r.exit_code == 0, r.output
    assert "complete: 770 states, 16 terminal" in r.output
    assert "chance: GDL-II role 'random' is a chance node" in r.output
    assert "expected goals: player_0: 80, player_1: 20" in r.output
    runtime = CliRunner().invoke(main, ["verify", str(GIFT)])
    assert "player 0 80.000000000, player 1 20.000000000" in runtime.output
    game = GdlGame.load(str(path))
    p0, p1, rnd = game.roles
    state = game.initial_state()
    state = state.apply([next(m for m in state.legal_moves(p0) if str(m) == "(draw_2 seat_0)"),
                         state.legal_moves(p1)[0], state.legal_moves(rnd)[0]])
    assert sorted(str(m) for m in state.legal_moves(rnd)) == [f"(roll {j})" for j in range(1, 6)]
    shown = set()
    for move in state.legal_moves(rnd):
        after = state.apply([state.legal_moves(p0)[0], state.legal_moves(p1)[0], move])
        shown |= {f for f in after.fluent_texts() if f.startswith("(shown felt ")}
    assert shown == {f"(shown felt card_{k})" for k in range(5)}  # each card may come first


def test_a_wrong_deal_fails_the_validation(tmp_path, monkeypatch):
    """A runtime planted never to deal the first card left while others are (the last twice as often) differs
    from random's deals: random may deal the first card, the runtime not. Nothing written."""
    wrong = never_deals_the_first_item(builtin_calls.deal)
    monkeypatch.setattr(builtin_calls, "deal", wrong)
    r = to_gdl(tmp_path, GIFT)
    assert r.exit_code != 0, r.output
    assert "the translation failed its validation against the runtime: nothing written" in r.output
    assert not r.out.exists()
    # located at the action whose draw random's move is
    assert ("gift.tgpl:52:12: error: the GDL differs from the runtime after 1 move; the last move is action "
            "'Draw' of Seat#0") in r.output
    assert "    Seat#0.Draw()\n" in r.output
    assert "note: legal moves only in the GDL: (roll 1)" in r.output


def test_compare_deals_the_runtimes_deck_as_the_kif_does(tmp_path_factory):
    """`tgpl compare gift.tgpl gift.kif`: the runtime side starts from the seed's setup and deals at pop(), each
    pop a chance node over the cards left, as random's moves are in the .kif (it compared 120 orders of setup
    against random's deals, or one seed's order, and found them different after the first draw)."""
    kif = lowered_kif(tmp_path_factory, GIFT)
    r = CliRunner().invoke(main, ["compare", str(GIFT), str(kif)])
    assert r.exit_code == 0, r.output
    assert "gift.tgpl: 770 states" in r.output and "gift.kif: 770 states" in r.output
    assert "equivalent: the same game up to the names of moves and fluents" in r.output


@pytest.mark.parametrize("old, new", [
    pytest.param("            Felt.Drawn += 1;\n",
                 "            Felt.Drawn += 1;\n            if (Felt.Deck.peek() == null) { log(\"last\"); }\n",
                 id="peeked"),
    pytest.param("    Felt.Deck = new FiveDeck();\n",
                 "    Felt.Deck = new FiveDeck();\n    Felt.Spare = new FiveDeck();\n", id="two-decks"),
    pytest.param("for (number v = 1; v <= 5; v += 1)", "for (number v = 1; v <= 17; v += 1)", id="17-cards"),
])
def test_a_deck_random_may_not_deal_stays_the_seeds(tmp_path, old, new):
    """A peek() at the card under the drawn one reads the deck's order, random deals from one deck of a class,
    and a deck of more than chance.DEALT_IN_PLAY_ITEMS (8) cards would make the state every set of cards left
    (examples/cards.tgpl's ten: 75 s to lower instead of 0.6 s): random does not deal these, and the game is the
    seed's, as before and as its header says; nothing is refused for it."""
    edits = [(old, new)]
    if "Spare" in new:  # the second deck's attribute
        edits.append(("    FiveDeck Deck = null;\n", "    FiveDeck Deck = null;\n    FiveDeck Spare = null;\n"))
    src = variant(tmp_path, GIFT, *edits)
    assert CliRunner().invoke(main, ["check", str(src)]).exit_code == 0
    r = to_gdl(tmp_path, src)
    assert r.exit_code == 0, r.output
    kif = r.kif
    assert "(role random)" not in kif and "deals from a shuffled deck" not in kif
    line = src.read_text().splitlines().index("        shuffle();") + 1  # the deck's default shuffle
    assert f"gift.tgpl:{line}:9: this GDL is the game of setup seed 0" in kif


def test_a_card_setup_takes_keeps_the_seeds_deal_in_the_header(tmp_path):
    """Setup deals each seat a card from deal.tgpl's deck, shuffled again in play (decision 100): random deals
    in play, but the cards setup took are the seed's, so its default's shuffle is a chance site of the header
    (it was listed as changing nothing, and the header claimed no draw left to the seed)."""
    src = variant(tmp_path, DATA / "deal.tgpl", (
        "        Felt.Seats.add(s);\n",
        "        Felt.Seats.add(s);\n        Card first = Felt.Deck.pop();\n        s.Hand.add(first);\n"
        "        s.Total += first.Value;\n"))
    r = to_gdl(tmp_path, src)
    assert r.exit_code == 0, r.output
    kif = r.kif
    assert "deal.tgpl:64:22 deals from a shuffled deck as a move of the chance role random" in kif
    assert "its shuffles at " in kif and "deal.tgpl:80:13 change nothing here" in kif
    assert "deal.tgpl:40:9 change nothing" not in kif and "deal.tgpl:40:9, " not in kif
    assert "; Chance: the game draws on its random numbers at " in kif
    assert "deal.tgpl:40:9: this GDL is the game of setup seed 0" in kif


def test_the_ten_cards_of_the_cards_example_are_dealt(tmp_path):
    """examples/cards.tgpl's ten cards, past the eight a dealt deck could hold while its items left were a list
    (75 s to lower): as the set of the cards left (decision 104) random deals them, and the validation, by playouts
    (its states with random's deals are past validation.CHANCE_STATE_BOUND), compares at least its 1,000 steps."""
    r = to_gdl(tmp_path, DATA.parents[2] / "examples" / "cards.tgpl")
    assert r.exit_code == 0, r.output
    kif = r.kif
    assert "cards.tgpl:44:32 deals from a shuffled deck as a move of the chance role random" in kif
    assert "; Chance:" not in kif
    assert "(input random (roll 10))" in kif and "(input random (roll 11))" not in kif
    validated = kif.splitlines()[1]
    assert validated.startswith("; validated: ") and "playouts" in validated and "breadth first" not in validated
    steps = int(validated.split(" steps compared")[0].rsplit(" ", 1)[1].replace(",", ""))
    assert steps >= 1000
    # random's (roll k) deals the deck's k-th card while it is left: the first deal may give any of the ten
    assert "(init (items_length numberdeck_0 10))" in kif
    assert all(f"(init (items_{k} numberdeck_0 yes))" in kif for k in range(10))
