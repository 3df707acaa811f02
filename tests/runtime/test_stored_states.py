"""Explore keeps the settled states of its frontier as flat tuples (`tgpl.verify.stored`, through
`RuntimeMachine.store` and `restore`). A state unpacked is the state packed: the same key and
digest, the same view, the same moves, and each move makes the same state; packing keeps a state
waiting for a choice whole; equal states give equal keys and different states different keys;
and explore finds the same graph as when it keeps every state whole."""

from __future__ import annotations

from collections import defaultdict, deque
from pathlib import Path

import pytest

from tgpl.runtime import load_game
from tgpl.verify.runtime_machine import RuntimeMachine
from tgpl.verify.graph import explore

ROOT = Path(__file__).resolve().parents[2]

# A game whose moves create objects: each adds a Token (its value 1 or 2) to a list a global holds.
TOKENS = """
game "tokens";
players 2;
setup
{
    for (number p = 0; p < 2; p += 1)
    {
        Seat s = new Seat();
        s.assign(p);
    }
    turn.use("T");
    turn.pass(0, "P");
}
global class Tally
{
    List<Token> Made = {};
    number Next = 0;
}
class Token
{
    number V = 0;
}
class Seat
{
    action Small
    {
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            Token t = new Token();
            t.V = 1;
            Tally.Made.add(t);
            Tally.Next += 1;
            if (Tally.Next == 4) { winner 0; }
            turn.pass();
        }
    }
    action Big
    {
        trigger PlayerChoiceEvent { return Tally.Next > 0; }
        effect
        {
            Token t = new Token();
            t.V = 2;
            Tally.Made.add(t);
            Tally.Next += 1;
            if (Tally.Next == 4) { winner 1; }
            turn.pass();
        }
    }
}
turn T { phase P { } default { return player.active() + 1; } }
"""


@pytest.fixture(scope="module")
def tokens_path(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("stored") / "tokens.tgpl"
    path.write_text(TOKENS)
    return path


def _game(name: str, players: int | None, tokens_path: Path):
    return load_game(tokens_path if name == "tokens" else ROOT / name, players)


def _reachable(machine: RuntimeMachine, limit: int):
    """Up to `limit` distinct states, breadth first (the states kept whole), each keyed."""
    start = machine.initial()
    seen = {machine.key(start)}
    todo = deque([start])
    count = 0
    while todo and count < limit:
        state = todo.popleft()
        count += 1
        yield state
        if state.is_terminal:
            continue
        for move in state.legal_moves():
            nxt = state.apply(move)
            k = machine.key(nxt)
            if k not in seen:
                seen.add(k)
                todo.append(nxt)


def _assert_alike(machine: RuntimeMachine, a, b) -> None:
    """`b` behaves as `a`: key, view, moves, and the state each move makes."""
    assert b.key() == a.key()
    assert b.to_json() == a.to_json()
    moves_a, moves_b = a.legal_moves(), b.legal_moves()
    assert [m.text for m in moves_b] == [m.text for m in moves_a]
    for ma, mb in zip(moves_a, moves_b):
        na, nb = a.apply(ma), b.apply(mb)
        assert nb.key() == na.key()
        assert machine.key(nb) == machine.key(na)  # the digests, nb's made from b's digests kept in the tuple
        assert nb.log == na.log


# (game, players, states examined, states that must be packed at least)
GAMES = [
    ("examples/tris.tgpl", None, 6000, 5000),  # every state
    ("examples/cards.tgpl", None, 300, 5),  # a deck (lists of cards) dealt and played
    ("examples/treasure.tgpl", None, 300, 250),
    ("examples/connect4.tgpl", None, 300, 250),
    ("tests/data/eights.tgpl", None, 300, 150),  # a deck, draws, choices pending
    ("examples/citadels/citadels.tgpl", 4, 120, 5),  # states waiting for a choice, kept whole
    ("tokens", None, 100, 15),  # objects made during play, the objects' list growing
]


@pytest.mark.parametrize("name, players, limit, least", GAMES)
def test_an_unpacked_state_is_the_state_packed(name, players, limit, least, tokens_path):
    machine = RuntimeMachine(_game(name, players, tokens_path))
    packed_count = 0
    for state in _reachable(machine, limit):
        digest = machine.key(state)
        packed = machine.store(state)
        if state.request is not None:  # waiting for a choice: kept whole
            assert packed is state
            continue
        assert packed.__class__ is tuple
        packed_count += 1
        again = machine.restore(packed)
        assert again.world is not state.world and not again.world.owned and not again.world.written
        assert RuntimeMachine(machine.game).key(again) == digest  # made anew from the world unpacked
        _assert_alike(machine, state, again)
        # the tuple shares the fields of objects with other states, and moves from a state
        # unpacked copy what they change: unpacked again, it is still the state
        assert machine.restore(packed).key() == state.key()
    assert packed_count >= least


def test_objects_made_during_play_are_packed_with_the_objects_list(tokens_path):
    machine = RuntimeMachine(_game("tokens", None, tokens_path))
    sizes = set()
    for state in _reachable(machine, 100):
        machine.key(state)
        again = machine.restore(machine.store(state))
        sizes.add(len(again.world.objects))
        assert [o.name for o in again.world.objects] == [o.name for o in state.world.objects]
        assert [again.world.fields(o) for o in again.world.objects] == [state.world.fields(o) for o in state.world.objects]
    assert len(sizes) == 5  # no token, then one more each move up to four


@pytest.mark.parametrize("name, depth", [("examples/tris.tgpl", 4), ("tokens", 4)])
def test_equal_states_give_equal_keys_and_different_states_different_keys(name, depth, tokens_path):
    """Every play of `depth` moves (transpositions reach a state again), each state stored and
    restored on the way: the digests of states restored split them as their canonical keys do."""
    machine = RuntimeMachine(_game(name, None, tokens_path))
    digests_of = defaultdict(set)
    keys_of = defaultdict(set)
    plays = 0
    level = [machine.initial()]
    for _ in range(depth):
        following = []
        for state in level:
            for move in state.legal_moves():
                nxt = state.apply(move)
                machine.key(nxt)
                plays += 1
                again = machine.restore(machine.store(nxt))
                canonical, digest = again.key(), RuntimeMachine(machine.game).key(again)
                digests_of[canonical].add(digest)
                keys_of[digest].add(canonical)
                if not again.is_terminal:
                    following.append(again)
        level = following
    assert all(len(d) == 1 for d in digests_of.values())
    assert all(len(k) == 1 for k in keys_of.values())
    assert len(keys_of) == len(digests_of) > 10
    assert plays > len(digests_of) if name == "examples/tris.tgpl" else plays == len(digests_of)  # tokens: none met twice


def _graph_of(machine, max_states: int):
    g = explore(machine, max_states=max_states)
    return (g.complete, g.stopped, g.terminal, g.goals, g.goal_error, g.movers, g.stuck, g.edges, g.parent,
            g.depth, g.levels, g.stored)


@pytest.mark.parametrize("name, players, max_states", [
    ("examples/tris.tgpl", None, 10_000), ("examples/connect4.tgpl", None, 2000), ("tests/data/eights.tgpl", None, 1500),
    ("examples/citadels/citadels.tgpl", 4, 400), ("tokens", None, 1000),
])
def test_explore_finds_the_same_graph_as_with_states_kept_whole(name, players, max_states, tokens_path):
    game = _game(name, players, tokens_path)
    whole = RuntimeMachine(game)
    whole.store = whole.restore = None  # explore keeps the states themselves
    assert _graph_of(RuntimeMachine(game), max_states) == _graph_of(whole, max_states)
