"""Decks (`stack` classes) and the seeded generator behind shuffles."""

from __future__ import annotations

from tgpl.runtime.rng import Pcg32

DECK = """
interactable Card { number v = 0; }
stack Deck
{
    returns Card;
    number Made = 0;
    default
    {
        for (number i = 0; i < 8; i += 1) { Card c = new Card(); c.v = i; push(c); Made += 1; }
    }
}
global class G { Deck D = null; }
function Order
{
    function input Deck d;
    returns string;
    effect
    {
        string s = "";
        while (d.length > 0) { s += d.pop().v; }
        return s;
    }
}
"""


def test_the_default_block_builds_the_deck(setup_log):
    log = setup_log("""
        G.D = new Deck();
        log(G.D.length);
        log(G.D.Made);
        log(G.D.peek().v);
        log(Order(d: G.D));
    """, defs=DECK)
    assert log == ["8", "8", "7", "76543210"]  # the last pushed card is on top


def test_pop_and_pop_front_take_the_top_and_the_bottom(setup_log):
    log = setup_log("""
        G.D = new Deck();
        log(G.D.pop().v);
        log(G.D.pop_front().v);
        log(G.D.length());
        G.D.push_front(new Card());
        log(G.D.pop_front().v);
    """, defs=DECK)
    assert log == ["7", "0", "6", "0"]


def test_cards_listed_after_new_are_pushed_after_the_default(setup_log):
    log = setup_log("""
        Card x = new Card();
        x.v = 42;
        Deck d = new Deck() { x };
        log(d.length);
        log(d.peek().v);
    """, defs=DECK)
    assert log == ["9", "42"]


def shuffled(setup_log, seed: int) -> str:
    return setup_log("G.D = new Deck(); G.D.shuffle(); log(Order(d: G.D));", defs=DECK, seed=seed)[0]


def test_shuffle_is_determined_by_the_seed(setup_log):
    orders = [shuffled(setup_log, seed) for seed in range(6)]
    assert orders == [shuffled(setup_log, seed) for seed in range(6)]
    assert all(sorted(o) == list("01234567") for o in orders)
    assert len(set(orders)) >= 5  # different seeds usually give different orders
    assert any(o != "76543210" for o in orders)


def test_shuffle_follows_the_documented_pcg32_fisher_yates(setup_log):
    rng = Pcg32(3)
    cards = list(range(8))  # bottom .. top
    rng.shuffle(cards)
    assert shuffled(setup_log, 3) == "".join(str(c) for c in reversed(cards))


def test_pcg32_matches_the_reference_generator():
    # pcg32-demo: pcg32_srandom_r(&rng, 42u, 54u), the first six pcg32_random_r outputs
    rng = Pcg32(42, 54)
    assert [rng.next_u32() for _ in range(6)] == [0xA15C02B7, 0x7B47F409, 0xBA1D3330, 0x83D2F293, 0xBFA4784B, 0xCBED606E]


def test_successive_shuffles_draw_from_one_generator(setup_log):
    log = setup_log("""
        Deck a = new Deck();
        Deck b = new Deck();
        a.shuffle();
        b.shuffle();
        log(Order(d: a));
        log(Order(d: b));
    """, defs=DECK, seed=5)
    assert log[0] != log[1]


def test_discard_and_reshuffle(setup_log):
    log = setup_log("""
        G.D = new Deck();
        Card top = G.D.pop();
        Card next = G.D.pop();
        top.discard(G.D.discard_stack);
        next.discard(G.D.discard_stack);
        log(top.discarded + " " + G.D.discard_stack.length + " " + G.D.length);
        G.D.reshuffle();
        log(top.discarded + " " + next.discarded + " " + G.D.discard_stack.length + " " + G.D.length);
        log(Order(d: G.D) == "");
    """, defs=DECK)
    assert log == ["true 2 6", "false false 0 8", "false"]


def test_reshuffle_puts_every_discard_back(setup_log):
    log = setup_log("""
        G.D = new Deck();
        for (number i = 0; i < 3; i += 1) { G.D.pop().discard(G.D.discard_stack); }
        G.D.reshuffle();
        log(Order(d: G.D));
    """, defs=DECK, seed=9)
    assert sorted(log[0]) == list("01234567")


def test_discard_takes_a_card_off_its_tile(setup_log):
    log = setup_log("""
        Table1 t = new Table1();
        Card c = new Card();
        c.move_to(t.Spots[0][0]);
        log(c.tile);
        Deck d = new Deck();
        c.discard(d.discard_stack);
        log(c.tile);
        log(c.discarded);
    """, defs=DECK + """
        tile Spot { }
        board Table1 { group Spots { geometry square; grid { Spot; } } }
    """)
    assert log == ["Spots[0][0]", "null", "true"]
