"""GDL-II out: a deck shuffled after setup dealt by random at each pop() (tgpl.lowering.chance.dealt_decks).

The deck is the set of its items left (`items_k`: whether its k-th item is), each pop() random's move `(roll k)`
taking the deck's k-th item, legal while it is left; the runtime compared deals at pop() too (tgpl.runtime.dealing, whose law is the
shuffled deck's: tests/runtime/test_dealing.py), so the validation matches random's moves with its draws."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from differential import never_deals_the_first_item, to_gdl_once
from tgpl import builtin_calls
from tgpl.cli import main
from to_gdl_runs import to_gdl, variant

DEAL = Path(__file__).resolve().parents[1] / "data" / "lowering" / "deal.tgpl"


def _deal_kif(tmp_path_factory) -> str:
    code, output, kif = to_gdl_once(str(DEAL), str(tmp_path_factory.getbasetemp() / "deal"))
    assert code == 0, output
    return kif


def test_the_deal_game_lowers_validated_and_checked(tmp_path_factory):
    (tmp_path_factory.getbasetemp() / "deal").mkdir(exist_ok=True)
    kif = _deal_kif(tmp_path_factory)
    assert "; validated: bisimulation, 22,025 states" in kif
    assert "deal.tgpl:61:22 deals from a shuffled deck as a move of the chance role random" in kif
    assert "deal.tgpl:37:9, " in kif and "deal.tgpl:77:13 change nothing here" in kif
    assert "; Chance:" not in kif  # no draw is left to the seed
    assert "\n(role random)\n" in kif and "(input random (roll 6))" in kif and "(input random (roll 7))" not in kif
    out = tmp_path_factory.getbasetemp() / "deal" / "deal.kif"
    r = CliRunner().invoke(main, ["check-gdl", str(out)])
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[-1].endswith("ok (GDL-II: the chance role random and percepts (sees))")


def test_the_cards_left_and_the_hands_stay_hidden(tmp_path_factory):
    (tmp_path_factory.getbasetemp() / "deal").mkdir(exist_ok=True)
    kif = _deal_kif(tmp_path_factory)
    sees = [line for line in kif.splitlines() if line.startswith("(<= (sees ")]
    assert any("(sees ?tgpl_seer (items_length " in s for s in sees)  # how many are left: every seat
    assert not any("(items_0 " in s or "(items_5 " in s for s in sees)  # which are left: no seat
    assert "(distinct ?q random)" in kif  # random's deals are seen by nobody (the game has secrets)


def test_random_deals_each_card_left(tmp_path_factory):
    from tgpl.asp.reasoner import GdlGame

    (tmp_path_factory.getbasetemp() / "deal").mkdir(exist_ok=True)
    _deal_kif(tmp_path_factory)
    game = GdlGame.load(str(tmp_path_factory.getbasetemp() / "deal" / "deal.kif"))
    p0, p1, rnd = game.roles
    state = game.initial_state()

    def play(role, text: str):
        moves = [[m for m in state.legal_moves(r) if str(m) == text] if r == role else state.legal_moves(r)
                 for r in game.roles]
        assert all(len(ms) == 1 for ms in moves), (text, moves)
        return state.apply([ms[0] for ms in moves])

    state = play(p0, "(draw seat_0)")
    assert sorted(str(m) for m in state.legal_moves(rnd)) == [f"(roll {j})" for j in range(1, 7)]
    state = play(rnd, "(roll 3)")  # the deck's third card
    left = sorted(str(f) for f in state.fluent_texts() if f.startswith("(items_"))
    assert "(items_length sixdeck_0 5)" in left and "(items_2 sixdeck_0 no)" in left
    assert all(f"(items_{k} sixdeck_0 yes)" in left for k in (0, 1, 3, 4, 5))
    state = play(p1, "(draw seat_1)")
    assert sorted(str(m) for m in state.legal_moves(rnd)) == [f"(roll {j})" for j in (1, 2, 4, 5, 6)]


def _refused(tmp_path: Path, src: Path):
    """`to-gdl` of `src`, refused: exit 2 and nothing written (the result, for its messages)."""
    r = to_gdl(tmp_path, src, "--no-validate")
    assert r.exit_code == 2, r.output
    assert not r.out.exists()
    return r


def test_a_deck_read_by_order_is_refused_where_it_is_read(tmp_path):
    src = variant(tmp_path, DEAL, ("            Card c = Felt.Deck.pop();",
                                   "            Card seen = Felt.Deck.peek();\n            Card c = Felt.Deck.pop();"))
    assert CliRunner().invoke(main, ["check", str(src)]).exit_code == 0
    r = _refused(tmp_path, src)
    assert ("deal.tgpl:61:25: error: not lowerable: peek() on a SixDeck, a deck shuffled after setup, is not "
            "lowerable: random deals its items at each pop(), which is sound only while nothing else reads or "
            "changes its order") in r.output
    assert "deal.tgpl:78:13: error: not lowerable: shuffle() after setup is not lowerable" in r.output


def test_a_deck_filled_in_order_is_refused_at_its_shuffle(tmp_path):
    src = variant(tmp_path, DEAL,
                  ("            push(c);\n        }\n        shuffle();", "            push(c);\n        }"))
    r = _refused(tmp_path, src)
    assert "deal.tgpl:76:13: error: not lowerable: shuffle() after setup is not lowerable" in r.output


def test_a_wrong_deal_fails_the_validation(tmp_path, monkeypatch):
    """A runtime that deals the item after the one drawn (a planted mistake on one side) differs from random's
    deals, and to-gdl says so and writes nothing. Four cards, to keep it short."""
    src = variant(tmp_path, DEAL, ("v <= 6", "v <= 4"))
    wrong = never_deals_the_first_item(builtin_calls.deal)
    r = to_gdl(tmp_path, src)
    assert r.exit_code == 0, r.output
    r.out.unlink()
    monkeypatch.setattr(builtin_calls, "deal", wrong)
    r = to_gdl(tmp_path, src)
    assert r.exit_code != 0, r.output
    assert "differ" in r.output or "mismatch" in r.output, r.output
    assert not r.out.exists()


def test_a_deal_short_of_a_card_fails_the_validation(tmp_path, monkeypatch):
    """A planted mistake on the GDL's side: random may never deal the last card left in the deck's order. The
    runtime's draw of it has no move of random's to match, and to-gdl writes nothing."""
    from tgpl.lowering import segments

    src = variant(tmp_path, DEAL, ("v <= 6", "v <= 4"))
    real = segments.Lowering.legal_moves

    def short(self, cs):
        out = real(self, cs)
        if len(cs) == 4 and self.rolls[id(self.moves[cs[3]].action)].deals:
            return out[:-1]
        return out
    monkeypatch.setattr(segments.Lowering, "legal_moves", short)
    r = to_gdl(tmp_path, src)
    assert r.exit_code != 0, r.output
    assert "the translation failed its validation against the runtime: nothing written" in r.output
    assert not r.out.exists()


def test_a_deal_in_a_phase_of_treasure_is_the_move_entering_it(tmp_path):
    """examples/treasure.tgpl with its reshuffle written as a shuffle (its discards never come back; five
    rounds, so that the deck suffices): its deck qualifies, and the deal in a function the phase entering a turn
    calls is random's move after the move that enters the phase (decision 106; it was refused at the pop). The
    dry run refuses nothing: the deck and its deal lower, and the hands' totals, refused by the budget of one
    control state when summed slot by slot, are running totals (decision 113); with them, the estimate leaves
    the search of the numbers' ranges undecided (exit 2)."""
    src = variant(tmp_path, DEAL.parents[2].parent / "examples" / "treasure.tgpl",
                  ("                Deck.reshuffle();", "                Deck.shuffle();"),
                  ("number Rounds = 8;", "number Rounds = 5;"))
    r = CliRunner().invoke(main, ["check", "--lowerable", str(src)])
    assert r.exit_code == 2, r.output
    assert "treasure.tgpl: undecided within the dry run's budget" in r.output and "not lowerable" not in r.output
    assert "keep running totals (decision 113)" in r.output
    assert "ok  phase     Round.default" in r.output and "ok  function  Tabletop.Draw" in r.output
    assert "ok  phase     Round.DrawPhase" in r.output and "GDL-II's random moves" in r.output


def test_a_card_pushed_onto_the_deck_in_setup_is_refused_where_it_is_pushed(tmp_path):
    """The card setup pushes after the deck's shuffle is the first a pop() takes: random may not deal it."""
    src = variant(tmp_path, DEAL, ("    Felt.Deck = new SixDeck();\n",
                                   "    Felt.Deck = new SixDeck();\n    Card top = new Card();\n    top.Value = 6;\n"
                                   "    Felt.Deck.push(top);\n"))
    r = _refused(tmp_path, src)
    assert ("deal.tgpl:13:5: error: not lowerable: push() onto a SixDeck in setup puts an item where a pop() "
            "takes it next") in r.output
