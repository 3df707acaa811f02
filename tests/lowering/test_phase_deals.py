"""GDL-II out: a deal in the code of a phase a move enters (decision 106).

tests/data/lowering/drawn.tgpl: entering a seat's turn deals it a card when its hand is empty (the discards
reshuffled back when the deck is empty, decision 105), in phase code, through a function; the seat then banks
its card or waits. Refused on main ("pop() of a shuffled deck is lowered only in the effect of an action a player
chooses"). Random now moves after every move of an action that may pass the turn into that phase: its `(roll k)`
deals the k-th card where the way deals, and where the way deals nothing (the seat holds a card, the game
ended) its one move `(roll 1)` changes nothing."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from differential import lowered_kif, verify_and_compare_agree
from tgpl.cli import main

DATA = Path(__file__).resolve().parents[1] / "data" / "lowering"
DRAWN = DATA / "drawn.tgpl"


def test_a_deal_in_a_phase_lowers_and_is_bisimulated(tmp_path_factory):
    kif = lowered_kif(tmp_path_factory, DRAWN).read_text()
    assert "; validated: bisimulation, 526 states" in kif
    assert "drawn.tgpl:53:20 deals from a shuffled deck as a move of the chance role random" in kif
    assert "drawn.tgpl:52:37 make the discarded items left again, for random to deal." in kif
    assert "; Chance:" not in kif
    r = CliRunner().invoke(main, ["check-gdl", str(lowered_kif(tmp_path_factory, DRAWN))])
    assert r.exit_code == 0, r.output


def test_random_deals_entering_the_phase_and_idles_where_nothing_is_dealt(tmp_path_factory):
    from tgpl.asp.reasoner import GdlGame

    game = GdlGame.load(str(lowered_kif(tmp_path_factory, DRAWN)))
    p0, p1, rnd = game.roles
    state = game.initial_state()

    def play(role, text: str):
        nonlocal state
        moves = [next(m for m in state.legal_moves(r) if str(m) == text) if r == role else state.legal_moves(r)[0]
                 for r in (p0, p1, rnd)]
        state = state.apply(moves)

    play(p0, "(wait seat_0)")  # seat 1's turn: entering Deal deals it a card, any of the three
    assert sorted(str(m) for m in state.legal_moves(rnd)) == ["(roll 1)", "(roll 2)", "(roll 3)"]
    play(rnd, "(roll 2)")
    assert "(held seat_1 card_1)" in state.fluent_texts()
    play(p1, "(wait seat_1)")  # seat 0's turn: a card of the two left
    assert sorted(str(m) for m in state.legal_moves(rnd)) == ["(roll 1)", "(roll 3)"]
    play(rnd, "(roll 3)")
    play(p0, "(wait seat_0)")  # seat 1 holds its card: nothing is dealt, random's one move deals nothing
    kept = lambda: {f for f in state.fluent_texts() if not f.startswith(("(control", "(turns"))}
    before = kept()
    assert [str(m) for m in state.legal_moves(rnd)] == ["(roll 1)"]
    play(rnd, "(roll 1)")  # the move's effect: one more turn, the cards and the deck as they were
    assert kept() == before
    assert "(turns felt 3)" in state.fluent_texts() and "(control player_1 round play)" in state.fluent_texts()


def test_verify_and_compare_agree_with_the_runtime(tmp_path_factory):
    kif = lowered_kif(tmp_path_factory, DRAWN)
    verify_and_compare_agree(DRAWN, kif, "player_0: 18.0556, player_1: 81.9444", "player 0 18.055555556, player 1 81.944444444")


def test_two_deals_a_move_may_enter_are_refused(tmp_path):
    """A move that deals in its effect and may enter a phase that deals would deal twice: random deals one item
    a move, so the lowering refuses it, located at the second deal."""
    text = DRAWN.read_text()
    old = "            Score += Held.Value;\n"
    assert old in text
    src = tmp_path / "drawn.tgpl"
    src.write_text(text.replace(old, old + "            Card extra = Felt.Deck.pop();\n"))
    assert CliRunner().invoke(main, ["check", str(src)]).exit_code == 0
    r = CliRunner().invoke(main, ["to-gdl", str(src), "-o", str(tmp_path / "x.kif")])
    assert r.exit_code == 2, r.output
    assert "drawn.tgpl:53:20: error: not lowerable: a deal from a shuffled deck is lowered as the one chance of its " \
           "move" in r.output


def test_a_wrong_deal_in_a_phase_fails_the_validation(tmp_path, monkeypatch):
    """A runtime planted never to deal the first card left while others are: random may deal it entering the
    phase, the runtime not. The validation finds it at the move that entered the phase; nothing written."""
    from differential import never_deals_the_first_item
    from tgpl import builtin_calls

    monkeypatch.setattr(builtin_calls, "deal", never_deals_the_first_item(builtin_calls.deal))
    out = tmp_path / "drawn.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(DRAWN), "-o", str(out)])
    assert r.exit_code == 2, r.output
    assert "the translation failed its validation against the runtime: nothing written" in r.output
    assert "drawn.tgpl:76:12: error: the GDL differs from the runtime after 1 move; the last move is action 'Wait'" \
        in r.output
    assert not out.exists()


def test_a_phase_that_deals_entered_in_setup_is_randoms_first_move(tmp_path):
    """Setup passing to the phase that deals (as examples/treasure.tgpl does) deals in setup: that pop() is
    random's first move (decision 112; it was the seed's, and the reshuffle refused for it), the card going to
    the first seat's Held whichever card it is. Bisimulated; `tgpl verify` on the .kif gives the expected goals
    the runtime's verify gives over every order of the deck's shuffle in setup (3! orders, its chance nodes)."""
    text = DRAWN.read_text()
    src = tmp_path / "drawn.tgpl"
    src.write_text(text.replace('    turn.pass(0, "Play");\n', '    turn.pass(0, "Deal");\n'))
    out = tmp_path / "x.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(src), "-o", str(out)])
    assert r.exit_code == 0, r.output
    kif = out.read_text()
    assert kif.splitlines()[1].startswith("; validated: bisimulation, ")
    assert "; GDL-II: setup's pop() is random's first move, dealt as in play." in kif
    assert "(init (control random round deal1))" in kif and "(init (held seat_0 null))" in kif
    runtime = CliRunner().invoke(main, ["verify", str(src)])
    assert "every outcome of its draws explored" in runtime.output
    assert "player 0 52.777777778, player 1 47.222222222" in runtime.output
    lowered = CliRunner().invoke(main, ["verify", str(out)])
    assert lowered.exit_code == 0, lowered.output
    assert "expected goals: player_0: 52.7778, player_1: 47.2222" in lowered.output


def test_the_asp_program_replays_the_deals(tmp_path):
    """`tgpl to-asp`: runtime, GDL and ASP agree on the deals in the phase and the reshuffles (decision 105)."""
    for game in (DRAWN, DATA / "refill.tgpl"):
        out = tmp_path / (game.stem + ".lp")
        r = CliRunner().invoke(main, ["to-asp", str(game), "-o", str(out)])
        assert r.exit_code == 0, r.output
        first = out.read_text().splitlines()[0]
        assert "validated: bisimulation" in first and "ASP: 20 plays replayed" in first
