"""GDL-II out: a dealt deck whose discards a reshuffle takes back (decision 105).

tests/data/lowering/refill.tgpl: three cards shuffled when the deck is made; a seat with no card draws one, a
seat holding one banks it and discards it onto the deck's pile; a draw from the empty deck reshuffles the pile
into it first. The deck is the set of its items left (decision 104), so the reshuffle makes the discarded items
left again and random deals any of them. Refused on main at the reshuffle ("reshuffle() after setup is not
lowerable"); bisimulated now, and the .kif's expected goals are the runtime's."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from differential import lowered_kif, verify_and_compare_agree
from tgpl import builtin_calls
from tgpl.cli import main
from to_gdl_runs import to_gdl, variant

DATA = Path(__file__).resolve().parents[1] / "data" / "lowering"
REFILL = DATA / "refill.tgpl"


def test_a_reshuffle_of_the_discards_lowers_and_is_bisimulated(tmp_path_factory):
    kif = lowered_kif(tmp_path_factory, REFILL).read_text()
    assert "; validated: bisimulation, 64 states" in kif
    assert "refill.tgpl:64:20 deals from a shuffled deck as a move of the chance role random" in kif
    assert "refill.tgpl:61:17 make the discarded items left again, for random to deal." in kif
    assert "; Chance:" not in kif  # the reshuffle is random's, no draw is left to the seed
    assert "(init (discard_stack_length threedeck_0 0))" in kif
    r = CliRunner().invoke(main, ["check-gdl", str(lowered_kif(tmp_path_factory, REFILL))])
    assert r.exit_code == 0, r.output


def test_random_deals_the_discards_after_the_deck_runs_out(tmp_path_factory):
    """Three draws empty the deck; two cards banked lie on the pile. The fourth draw reshuffles them back: random
    may deal either of them, not the card a seat holds."""
    from tgpl.asp.reasoner import GdlGame

    game = GdlGame.load(str(lowered_kif(tmp_path_factory, REFILL)))
    p0, p1, rnd = game.roles
    state = game.initial_state()

    def play(text: str, role=None, deal: str | None = None):
        nonlocal state
        moves = []
        for r in (p0, p1, rnd):
            legal = state.legal_moves(r)
            wanted = deal if r == rnd and deal else text if r == role else None
            moves.append(next(m for m in legal if str(m) == wanted) if wanted else legal[0])
        state = state.apply(moves)

    play("(draw seat_0)", p0)
    play("", deal="(roll 1)")
    play("(draw seat_1)", p1)
    play("", deal="(roll 3)")
    play("(bank seat_0)", p0)
    play("(bank seat_1)", p1)
    play("(draw seat_0)", p0)
    play("", deal="(roll 2)")
    assert "(items_length threedeck_0 0)" in state.fluent_texts()
    play("(draw seat_1)", p1)
    assert sorted(str(m) for m in state.legal_moves(rnd)) == ["(roll 1)", "(roll 3)"]


def test_verify_of_the_kif_gives_the_runtimes_expected_goals(tmp_path_factory):
    kif = lowered_kif(tmp_path_factory, REFILL)
    verify_and_compare_agree(REFILL, kif, "player_0: 50, player_1: 50", "player 0 50.000000000, player 1 50.000000000")


def test_a_reshuffle_that_leaves_a_discard_behind_fails_the_validation(tmp_path, monkeypatch):
    """A runtime planted to leave the last discard on the pile at a reshuffle deals from fewer cards than random's
    reshuffle makes left: the validation finds it at the draw that reshuffles. Nothing written."""
    real = builtin_calls.deal

    def wrong(m, deck, name):
        if name != "reshuffle":
            return real(m, deck, name)
        pile = m.world.own(deck)["discard_stack"]
        kept = pile[-1:]
        del pile[-1:]
        real(m, deck, name)
        pile.extend(kept)
        return None

    monkeypatch.setattr(builtin_calls, "deal", wrong)
    r = to_gdl(tmp_path, REFILL)
    assert r.exit_code == 2, r.output
    assert "the translation failed its validation against the runtime: nothing written" in r.output
    assert "refill.tgpl:53:12: error: the GDL differs from the runtime" in r.output
    assert not r.out.exists()


def test_a_discard_elsewhere_is_refused_at_the_discard(tmp_path):
    """A card discarded onto another pile would not come back at a reshuffle, though its `discarded` is true:
    the lowering refuses the discard, located, where random's deals would otherwise stand for the wrong cards."""
    src = variant(tmp_path, REFILL, ("            Held.discard(Felt.Deck.discard_stack);\n",
                                     "            Held.discard(Felt.Spent);\n"),
                  ("    number Turns = 0;\n", "    number Turns = 0;\n    Stack<Card> Spent = {};\n"))
    assert CliRunner().invoke(main, ["check", str(src)]).exit_code == 0
    r = to_gdl(tmp_path, src)
    assert r.exit_code == 2, r.output
    assert "refill.tgpl:78:13: error: not lowerable: discard() into a pile other than the ThreeDeck's discard_stack" \
        in r.output


def test_a_card_dealt_in_setup_that_may_come_back_is_randoms_first_move(tmp_path):
    """Setup deals seat 0 a card: it may be discarded and reshuffled back, and random's deals name the cards the
    deck holds before setup deals, setup's pop() random's first move (decision 112; it was refused at the
    reshuffle). Bisimulated."""
    src = variant(tmp_path, REFILL, ("        Felt.Seats.add(s);\n",
                                     "        Felt.Seats.add(s);\n        if (p == 0) { s.Held = Felt.Deck.pop(); }\n"))
    assert CliRunner().invoke(main, ["check", str(src)]).exit_code == 0
    r = to_gdl(tmp_path, src)
    assert r.exit_code == 0, r.output
    kif = r.kif
    assert kif.splitlines()[1].startswith("; validated: bisimulation, ")
    assert "; GDL-II: setup's pop() is random's first move, dealt as in play." in kif
    assert "(init (control random round deal1))" in kif
