"""Trumps, a two-player trick-taking game written as a designer writes it (tests/data/designers/trumps.tgpl): a pack
of twelve cards (three suits of ranks 1 to 4) built and shuffled by a `stack`'s `default`, five cards dealt to each
player into a `private` hand, the next card turned up for trumps; the leader plays any card, the follower must
follow the led suit if able; the highest trump, else the higher card of the led suit, takes the trick and its
taker leads the next; more of the five tricks wins.

The runtime is checked against an independent model: the deal made by the model itself from the pack's order and
the generator runtime.md specifies (PCG32, its shuffle, a stack popping its last card), then seeded plays to the
end with the legal cards (following suit), the hands, the trick's leader and the counts compared at every move.

The lowering as a designer tries it: the dry run says it lowers (no longer estimated: the hands are sets, a bool
per card, since `HasSuit`'s loop is a scan that stops at a match, tgpl.lowering.set_scans), its one action
spelled out; to-gdl writes it, bisimulated (tests/lowering/test_set_scans.py). `--moves compiled` refuses, "a game
with secrets (its GDL-II percepts are written for spelled-out moves: `--moves spelled` or `auto` writes them)",
located at the first `private` attribute (it was located at the file's first line, with nothing to do about it,
when the game was written).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from click.testing import CliRunner

from differential import checks_clean_and_plays, ends_as, winners_and_tallies
from tgpl.cli import main
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game

SUITS, RANKS, DEALT, TRICKS = 3, (1, 2, 3, 4), 5, 5
# the pack as the rules build it, in the order its cards are made: Card#k is (suit, rank)
PACK = [(s, r) for s in range(SUITS) for r in RANKS]


class Pcg32:
    """The game's generator as docs/runtime.md specifies it (seed, next, below, shuffle), written from the spec."""

    def __init__(self, seed: int, stream: int = 54):
        self.inc, self.state = (stream << 1) | 1, 0
        self.next()
        self.state = (self.state + seed) % 2**64
        self.next()

    def next(self) -> int:
        old = self.state
        self.state = (old * 6364136223846793005 + self.inc) % 2**64
        x = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF
        r = old >> 59
        return ((x >> r) | (x << ((32 - r) & 31))) & 0xFFFFFFFF

    def below(self, n: int) -> int:
        floor = (2**32 - n) % n
        while (v := self.next()) < floor:
            pass
        return v % n

    def shuffle(self, xs: list) -> None:
        for i in range(len(xs) - 1, 0, -1):
            j = self.below(i + 1)
            xs[i], xs[j] = xs[j], xs[i]


@dataclass
class TrickModel:
    """The rules as a state machine over card numbers (indexes of PACK): the hands, the card led (None between
    tricks), the leader, the tricks each seat took, the seat to play and the result; and a tally of what the plays
    met, so the seeded plays can be shown to meet every rule."""

    hands: list[list[int]]
    trump: int
    led: int | None = None
    leader: int = 0
    who: int = 0
    tricks: list[int] = field(default_factory=lambda: [0, 0])
    result: int | None = None
    seen: dict = field(default_factory=lambda: dict.fromkeys(("followed", "discarded", "trumped", "higher",
                                                              "lower"), 0))

    @staticmethod
    def dealt(seed: int) -> "TrickModel":
        """The deal of `seed`: the pack shuffled, then one card at a time to seat 0 and seat 1, five rounds, each
        the last card of the pack; the card after them turned up for trumps."""
        pack = list(range(len(PACK)))
        Pcg32(seed).shuffle(pack)
        hands: list[list[int]] = [[], []]
        for _ in range(DEALT):
            for seat in (0, 1):
                hands[seat].append(pack.pop())
        return TrickModel(hands, PACK[pack.pop()][0])

    def moves(self) -> list[int]:
        """The cards the seat to play may play: any card to lead; the led suit when it holds one, else any."""
        hand = self.hands[self.who]
        if self.led is None:
            return sorted(hand)
        suited = [c for c in hand if PACK[c][0] == PACK[self.led][0]]
        return sorted(suited or hand)

    def taker(self, follow: int) -> int:
        """Who takes the trick the leader led with `self.led` and the follower answered with `follow`."""
        (ls, lr), (fs, fr) = PACK[self.led], PACK[follow]
        if fs == ls:
            self.seen["higher" if fr > lr else "lower"] += 1
            return self.who if fr > lr else self.leader
        self.seen["trumped" if fs == self.trump else "discarded"] += 1
        return self.who if fs == self.trump else self.leader

    def play(self, card: int) -> None:
        assert card in self.moves()
        self.hands[self.who].remove(card)
        if self.led is None:
            self.led, self.leader, self.who = card, self.who, 1 - self.who
            return
        if PACK[card][0] == PACK[self.led][0]:
            self.seen["followed"] += 1
        taker = self.taker(card)
        self.tricks[taker] += 1
        self.led, self.leader, self.who = None, taker, taker
        if sum(self.tricks) == TRICKS:
            self.result = 0 if self.tricks[0] > self.tricks[1] else 1

    def text(self, card: int) -> str:
        return f"Hand#{self.who}.Play(card: Card#{card})"

    def seen_state(self) -> tuple:
        return [sorted(h) for h in self.hands], self.led, self.leader, self.tricks


def observed(state) -> tuple:
    """The runtime's hands (as card numbers), the card led, the leader and the tricks taken."""
    w = state.world
    hands = [sorted(int(str(c).split("#")[1]) for c in w.fields(w.named(f"Hand#{p}"))["Cards"]) for p in (0, 1)]
    table = w.fields(w.named("Table0"))
    led = None if table["Led"] is None else int(str(table["Led"]).split("#")[1])
    return hands, led, int(table["Leader"]), [int(w.fields(w.named(f"Hand#{p}"))["Tricks"]) for p in (0, 1)]


def play(seed: int) -> TrickModel:
    """One seeded play: the runtime dealt with `seed`, the model dealing itself; the cards chosen by the test's
    own chooser; every legal move set and every state compared."""
    state, model, rng = load_game(game("trumps")).initial_state(seed), TrickModel.dealt(seed), Lcg(seed)
    table = state.world.fields(state.world.named("Table0"))
    assert int(table["Trump"]) == model.trump
    while True:
        assert observed(state) == model.seen_state()
        assert state.active_player == model.who
        moves = model.moves()
        assert sorted(m.text for m in state.legal_moves()) == sorted(model.text(c) for c in moves)
        card = moves[rng.below(len(moves))]
        state = state.apply(state.resolve(model.text(card)))
        model.play(card)
        if model.result is not None:
            ends_as(state, model.result)
            return model
        assert not state.is_terminal


def test_the_pack_is_the_rules_pack():
    """Twelve cards, Card#k the k-th made: suits 0..2 of ranks 1..4."""
    w = load_game(game("trumps")).initial_state(0).world
    cards = [w.fields(w.named(f"Card#{k}")) for k in range(len(PACK))]
    assert [(int(c["Suit"]), int(c["Rank"])) for c in cards] == PACK


def test_the_model_follows_the_rules():
    """A set hand: following suit is forced, a trump takes a trick of another suit, a discard loses it, the
    higher card of the led suit takes it, and the taker leads."""
    # suit 0: cards 0..3, suit 1: 4..7, suit 2: 8..11; trumps are suit 2
    m = TrickModel(hands=[[0, 5, 9], [1, 4, 10]], trump=2)
    assert m.moves() == [0, 5, 9]
    m.play(5)
    assert m.who == 1 and m.moves() == [4]  # must follow suit 1
    m.play(4)
    assert m.tricks == [1, 0] and m.who == 0  # 4 (rank 1) under 5 (rank 2)
    m.play(0)
    assert m.moves() == [1]
    m.play(1)
    assert m.tricks == [1, 1] and m.who == 1  # rank 2 over rank 1
    m.play(10)
    assert m.moves() == [9]
    m.play(9)
    assert m.tricks == [1, 2] and sum(m.seen.values()) == 6


def test_trumps_checks_clean_and_plays_to_its_end():
    checks_clean_and_plays(game("trumps"))


@pytest.mark.parametrize("seed", range(6))
def test_the_deal_is_the_models(seed):
    """The runtime's hands and turned-up trump after setup are the ones the model deals from the spec'd shuffle."""
    state, model = load_game(game("trumps")).initial_state(seed), TrickModel.dealt(seed)
    assert observed(state) == model.seen_state()
    assert [m.text for m in state.legal_moves()] == [model.text(c) for c in model.moves()]


@pytest.mark.parametrize("seed", range(24))
def test_trumps_plays_as_the_model_says(seed):
    play(seed)


def test_the_seeded_plays_meet_every_rule():
    """Across the plays above both seats win, and tricks are taken by the higher card of the led suit, lost by the
    lower, taken by a trump and lost by a discard; suit is followed."""
    winners, totals = winners_and_tallies(play, range(24))
    assert winners == {0, 1}
    assert set(totals) == set(TrickModel([[], []], 0).seen) and all(n > 0 for n in totals.values()), totals


def test_the_dry_run_says_it_lowers_with_its_moves_spelled_out():
    """`tgpl to-gdl --dry-run`: lowers (run whole, not estimated), the one action spelled out (12 ways)."""
    r = CliRunner().invoke(main, ["to-gdl", "--dry-run", game("trumps")])
    assert r.exit_code == 0, r.output
    assert "trumps.tgpl: lowers; its moves spelled out one by one" in r.output, r.output


def test_compiled_moves_are_refused_for_the_secret_hands(tmp_path):
    """`--moves compiled`: refused, the reason the game's secrets, located at the `private` hands, with the way out."""
    out = tmp_path / "trumps.kif"
    r = CliRunner().invoke(main, ["to-gdl", game("trumps"), "--moves", "compiled", "-o", str(out)])
    assert r.exit_code == 2 and not out.exists(), r.output
    assert "trumps.tgpl:81:5: error: not lowerable: the moves cannot be compiled: a game with secrets" in r.output
    assert "`--moves spelled` or `auto` writes them" in r.output
