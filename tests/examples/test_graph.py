"""examples/graph.tgpl: Thief and Guard on a graph board of named places."""

from __future__ import annotations

import pytest

from example_harness import (
    SEEDS, assert_check_clean, assert_replays, assert_same_seed_same_record, assert_sane_end,
    assert_tamper_rejected, field, load, obj, play_random, texts,
)

NAME = "graph"
ROADS = {
    ("Castle", "Market"), ("Market", "Chapel"), ("Chapel", "Bridge"), ("Castle", "Mill"), ("Market", "Mill"),
    ("Chapel", "Farm"), ("Bridge", "Harbor"), ("Mill", "Farm"), ("Farm", "Harbor"),
}
TRAILS = {("Castle", "Forest"), ("Forest", "Farm")}


def places(state) -> dict[str, str]:
    """Place name -> object name."""
    return {state.world.fields(o)["Name"]: o.name for o in state.world.objects if o.cls.name == "Place"}


def name_of(state, obj_name: str) -> str:
    return field(state, obj_name, "Name")


def at(state, pawn: str) -> str:
    return state.world.fields(field(state, pawn, "tile"))["Name"]


def destinations(state) -> set[str]:
    """The places the active player's pawn can move to."""
    return {name_of(state, t.split("dest: ")[1].rstrip(")")) for t in texts(state)}


@pytest.fixture
def start():
    return load(NAME).initial_state(0)


def move(state, pawn: str, place: str) -> str:
    return f"{pawn}.Move(dest: {places(state)[place]})"


def walk(state, *steps: str):
    """Moves of the player to move, then the other, and so on, to the named places."""
    for place in steps:
        state = state.apply(move(state, "Thief#0" if state.active_player == 0 else "Guard#0", place))
    return state


# ------------------------------------------------------------------ generic
def test_check_is_clean():
    assert_check_clean(NAME)


@pytest.mark.parametrize("seed", SEEDS)
def test_random_games_end(seed):
    outcome = play_random(NAME, seed)
    state = outcome.state
    assert_sane_end(state)
    assert len(state.ranking) == 1 and len(state.ranking[0]) == 1
    assert len(outcome.record.moves) <= 16
    if state.ranking == [[0]]:
        assert at(state, "Thief#0") == "Harbor"
    elif len(outcome.record.moves) < 16:
        assert field(state, "Thief#0", "tile") is field(state, "Guard#0", "tile")


def test_same_seed_same_record_and_replay(tmp_path):
    text = assert_same_seed_same_record(NAME, 7, tmp_path)
    assert_replays(text, tmp_path)


def test_tampered_record_is_rejected(tmp_path):
    text = play_random(NAME, 1).record.to_json()
    start = load(NAME).initial_state(1)
    # straight from the Castle to the Harbor: no connection
    error = assert_tamper_rejected(text, 0, move(start, "Thief#0", "Harbor"), tmp_path)
    assert "filter 1 of input" in error.reason and "rejects" in error.reason
    # player 0 moving the guard
    assert_tamper_rejected(text, 0, move(start, "Guard#0", "Market"), tmp_path)


# ------------------------------------------------------------------ the map
def test_the_places_are_built_into_the_graph_group(start):
    group = obj(start, "Places")
    assert start.world.fields(group)["geometry"] == "graph"
    assert [start.world.fields(t)["Name"] for t in start.world.fields(group)["tiles"]] == [
        "Castle", "Market", "Chapel", "Bridge", "Mill", "Farm", "Harbor", "Forest",
    ]
    assert all(start.world.fields(t)["group"] is group for t in start.world.fields(group)["tiles"])
    board = obj(start, "TownMap#0")
    assert start.world.fields(board)["groups"] == {"Places": group}


def test_roads_and_trails_link_the_places_both_ways(start):
    links = set()
    for place in start.world.fields(obj(start, "Places"))["tiles"]:
        for c in start.world.fields(place)["connections"]:
            links.add((start.world.fields(place)["Name"], start.world.fields(start.world.fields(c)["to"])["Name"], c.cls.name))
    expected = set()
    for kind, pairs in (("Road", ROADS), ("Trail", TRAILS)):
        for a, b in pairs:
            expected |= {(a, b, kind), (b, a, kind)}
    assert links == expected


# ------------------------------------------------------------------ rules
def test_the_thief_moves_only_along_connections(start):
    assert start.active_player == 0
    assert at(start, "Thief#0") == "Castle" and at(start, "Guard#0") == "Chapel"
    assert destinations(start) == {"Market", "Mill", "Forest"}
    assert all(t.startswith("Thief#0.Move(") for t in texts(start))


def test_the_guard_moves_only_along_roads(start):
    state = walk(start, "Mill")
    assert state.active_player == 1
    assert destinations(state) == {"Market", "Bridge", "Farm"}
    state = walk(state, "Farm")
    assert destinations(state) == {"Castle", "Market"}  # the Mill is the guard's and the Forest's trail is the thief's
    state = walk(state, "Castle")
    # the guard at the Farm cannot take the trail to the Forest
    assert destinations(state) == {"Mill", "Chapel", "Harbor"}


def test_the_thief_cannot_walk_into_the_guard(start):
    state = walk(start, "Forest", "Farm")
    assert destinations(state) == {"Castle"}
    state = walk(state, "Castle", "Mill")
    assert destinations(state) == {"Market", "Forest"}


def test_the_thief_escapes_at_the_harbor(start):
    state = walk(start, "Forest", "Bridge", "Farm", "Chapel")
    assert not state.is_terminal
    state = walk(state, "Harbor")
    assert state.ranking == [[0]]
    assert state.goals == [100, 0]
    assert state.log[-1] == "the thief reaches the Harbor"


def test_the_guard_catches_the_thief(start):
    state = walk(start, "Market", "Market")
    assert state.ranking == [[1]]
    assert state.goals == [0, 100]


def test_the_guard_wins_when_the_thief_dawdles(start):
    steps = ["Forest", "Bridge", "Castle", "Chapel"] * 4
    state = walk(start, *steps[:-1])
    assert not state.is_terminal
    state = state.apply(move(state, "Guard#0", steps[-1]))
    assert state.ranking == [[1]]
    assert state.log[-1] == "the thief is still in town: the guard wins"
