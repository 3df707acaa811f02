"""GDL-II out: setup's deals from a deck random deals from are random's first moves (decision 112).

tests/data/lowering/handout.tgpl is examples/treasure.tgpl in small: four cards, a card dealt to each hand in
setup and one more as setup enters the first player's draw phase, the discards reshuffled when the deck is empty.
On main its reshuffle was refused (an item setup dealt could come back unnamed); setup's three pops are now
random's first three moves, each naming the card it deals, and the game is bisimulated against the runtime
dealing setup's pops at pop() too (tgpl.setup_deals), and `tgpl compare` says the .tgpl and the .kif are the same
game."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from differential import lowered_kif
from tgpl import pipeline
from tgpl.cli import main
from tgpl.runtime.game import State, load_game
from tgpl.setup_deals import setup_deals, undealt_snapshot

DATA = Path(__file__).resolve().parents[1] / "data" / "lowering"
HANDOUT = DATA / "handout.tgpl"


def test_handout_lowers_with_setups_deals_as_randoms_first_moves(tmp_path_factory):
    kif = lowered_kif(tmp_path_factory, HANDOUT).read_text()
    assert "; validated: bisimulation, " in kif.splitlines()[1]
    assert "; GDL-II: setup's 3 pops are random's first 3 moves, dealt as in play." in kif
    assert "handout.tgpl:42:9 change nothing here" in kif  # the deck's default shuffle: no longer the seed's
    assert "; Chance:" not in kif
    # the game starts with the deck whole and the hands empty, random to deal
    assert "(init (control random round deal1))" in kif and "(init (items_length fourdeck_0 4))" in kif
    assert all(f"(init (items_{k} fourdeck_0 yes))" in kif for k in range(4))
    assert "(init (cards_length hand_0 0))" in kif and "(init (cards_0 hand_0 null))" in kif
    r = CliRunner().invoke(main, ["check-gdl", str(lowered_kif(tmp_path_factory, HANDOUT))])
    assert r.exit_code == 0, r.output


def test_compare_deals_setups_pops_as_the_kif_does(tmp_path_factory):
    """`tgpl compare`: the runtime side deals setup's pops as chance nodes, one a deal (ChanceMachine.setup_deals),
    as random's first moves in the .kif."""
    r = CliRunner().invoke(main, ["compare", str(HANDOUT), str(lowered_kif(tmp_path_factory, HANDOUT))])
    assert r.exit_code == 0, r.output
    assert "equivalent: the same game up to the names of moves and fluents" in r.output


def test_the_asp_program_replays_setups_deals(tmp_path):
    """`tgpl to-asp`: runtime, GDL and ASP agree on random's first moves dealing setup's pops."""
    out = tmp_path / "handout.lp"
    r = CliRunner().invoke(main, ["to-asp", str(HANDOUT), "-o", str(out)])
    assert r.exit_code == 0, r.output
    first = out.read_text().splitlines()[0]
    assert "validated: bisimulation" in first and "ASP: 20 plays replayed" in first


def test_the_kif_deals_every_card_first_and_no_card_twice(tmp_path_factory):
    from tgpl.asp.reasoner import GdlGame

    game = GdlGame.load(str(lowered_kif(tmp_path_factory, HANDOUT)))
    p0, p1, rnd = game.roles
    state = game.initial_state()
    assert sorted(str(m) for m in state.legal_moves(rnd)) == [f"(roll {j})" for j in range(1, 5)]
    assert [str(m) for m in state.legal_moves(p0)] == ["noop"]
    for first in state.legal_moves(rnd):
        after = state.apply([state.legal_moves(p0)[0], state.legal_moves(p1)[0], first])
        assert str(first) not in {str(m) for m in after.legal_moves(rnd)}  # dealt: no longer left
        assert len(after.legal_moves(rnd)) == 3
        j = int(str(first).strip("()").split()[1])
        assert f"(cards_0 hand_0 card_{j - 1})" in after.fluent_texts()


def test_setups_deals_are_every_order_of_three_cards_of_four():
    """The runtime's side: random's states over setup's draws, each leaf the state after setup with those deals;
    4 * 3 * 2 deals, every one a different state, the faces the cards dealt."""
    plan = setup_deals(load_game(HANDOUT))
    assert plan is not None and plan.count == 3 and plan.roster == ("Card#0", "Card#1", "Card#2", "Card#3")
    leaves = []
    todo = [()]
    while todo:
        draws = todo.pop()
        node = plan.node(draws)
        if isinstance(node, State):
            leaves.append((draws, node))
        else:
            todo += [after for _, after in node]
    assert len(leaves) == 24
    hands = set()
    for draws, state in leaves:
        faces = plan.faces(draws)
        assert plan.draws(faces) == draws
        cards = [[c.name for c in state.world.fields(h)["Cards"]]
                 for h in (state.world.named("Hand#0"), state.world.named("Hand#1"))]
        assert cards == [[plan.roster[faces[0] - 1], plan.roster[faces[2] - 1]], [plan.roster[faces[1] - 1]]]
        hands.add(str(cards))
    assert len(hands) == 24


def test_a_deal_lowered_into_the_wrong_hand_fails_the_validation(tmp_path, monkeypatch):
    """Planted: setup's first two deals swapped, the first player's card dealt into the second's hand. The
    bisimulation finds it after random's deals; nothing is written."""
    right = undealt_snapshot

    def swapped(plan):
        snap = right(plan)
        deals = snap["deals"]
        deals[0], deals[1] = deals[1], deals[0]
        return snap
    monkeypatch.setattr(pipeline, "undealt_snapshot", swapped)
    out = tmp_path / "handout.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(HANDOUT), "-o", str(out)])
    assert r.exit_code == 2, r.output
    assert not out.exists()
    assert "differs from the runtime" in r.output


def test_a_setup_that_reads_the_card_dealt_keeps_the_seeds_deal(tmp_path):
    """Setup reading the dealt card's value (a score from it) makes where the deals go depend on which card each
    is: no plan, and setup's deals stay the seed's (the header's Chance: line), as before decision 112."""
    text = HANDOUT.read_text()
    old = "        Felt.Hands[p].Cards.add(Felt.Draw());\n"
    assert old in text
    src = tmp_path / "handout.tgpl"
    src.write_text(text.replace(old, "        Card c = Felt.Draw();\n        Felt.Hands[p].Cards.add(c);\n"
                                     "        Felt.First = c.Value;\n")
                   .replace("    number Turns = 0;\n", "    number Turns = 0;\n    number First = 0;\n"))
    game = load_game(src)
    plan = setup_deals(game)
    assert plan is not None and undealt_snapshot(plan) is None
    assert "deals" not in pipeline.start_snapshot(game)
    # the seed's deal, and a card it dealt could come back by the reshuffle unnamed by random's deals: refused
    r = CliRunner().invoke(main, ["to-gdl", str(src), "--dry-run"])
    assert r.exit_code == 1, r.output
    assert ("handout.tgpl:61:37: error: not lowerable: reshuffle() of the discards of a FourDeck that setup deals "
            "from is not lowerable here: random deals setup's pops only where each deal's item goes to the same place "
            "whichever item it is (decision 112)") in r.output


def test_playouts_start_with_setups_deals_not_its_runs_enumerated():
    """Where random's first moves are setup's deals, the playouts deal them (`setup_plan`) and setup's runs are
    not random's first move (`Differential.setup_outcomes` is None): Treasure's fourteen cards enumerated as
    setup's runs passed TooManyOutcomes, a traceback, once its lowering came to be validated by playouts. Here
    its four would have been compared as a throw after the deals, a difference."""
    import random

    from tgpl.validation import Differential

    game = load_game(str(HANDOUT))
    d = Differential(game, pipeline.lower_game(game))
    assert d.setup_plan is not None and d.setup_outcomes is None
    for seed in range(3):
        play = d.playout(random.Random(seed), 40)
        assert play.mismatch is None, play.mismatch
        assert len(play.moves) > 3 and all(m.startswith("(roll ") for m in play.moves[:3]), play.moves
