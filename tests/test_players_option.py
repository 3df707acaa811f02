"""`--players N` on query, compare and to-gdl (issue 36): a `players 2..3` game was examined for 2 only,
silently; each command now takes the count and says which it examined."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from tgpl.cli import main

RACE = str(Path(__file__).resolve().parent / "data" / "race_lowered.tgpl")  # players 2..3
TRIS = str(Path(__file__).resolve().parent.parent / "examples" / "tris.tgpl")
THREE = "player.all().length == 3"
SAID = "examined for {n} (the game allows 2 to 3; --players N examines another count)"


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


def test_query_asks_about_the_count_given_and_says_which():
    two = invoke("query", RACE, THREE)
    assert two.exit_code == 1, two.output  # two players: never three
    assert f"{RACE}: players: {SAID.format(n=2)}: the answer holds for that count only" in two.stdout.splitlines()
    three = invoke("query", RACE, THREE, "--players", "3")
    assert three.exit_code == 0, three.output
    assert f"{RACE}: players: {SAID.format(n=3)}: the answer holds for that count only" in three.stdout.splitlines()
    assert f"{RACE}: reachable after 0 moves: {THREE}" in three.stdout.splitlines()
    answer = json.loads(invoke("query", RACE, THREE, "--players", "3", "--json").stdout)
    assert answer["found"] is True and answer["players"] == {"examined": 3, "allowed": [2, 3]}


def test_query_refuses_a_count_the_game_does_not_allow():
    refused = invoke("query", RACE, "true", "--players", "4")
    assert refused.exit_code == 2 and "the game has 2 to 3 players, not 4" in refused.output


def test_query_of_a_game_of_one_count_says_nothing_of_players():
    answer = json.loads(invoke("query", TRIS, "true", "--json", "--horizon", "0").stdout)
    assert answer["players"] is None


def test_to_gdl_writes_the_count_given_and_compare_needs_the_same(tmp_path):
    kif = tmp_path / "race3.kif"
    lowered = invoke("to-gdl", RACE, "--players", "3", "-o", str(kif))
    assert lowered.exit_code == 0, lowered.output
    text = kif.read_text(encoding="utf-8")
    assert f"; Players: {SAID.format(n=3)}: the rules are written for that count only." in text.splitlines()
    assert "(role player_2)" in text and "player_3" not in text
    # compared with the game at its minimum, the roles differ, and the count examined is said
    differ = invoke("compare", RACE, str(kif))
    assert differ.exit_code == 1, differ.output
    assert f"has 2 roles, {kif} has 3: not the same game (players of A: {SAID.format(n=2)}" in differ.stdout
    same = invoke("compare", "--players", "3", RACE, str(kif))
    assert same.exit_code == 0, same.output
    assert f"players of A: {SAID.format(n=3)}: the verdict holds for that count only" in same.stdout.splitlines()
    assert "equivalent: the same game up to the names of moves and fluents" in same.stdout
    rep = json.loads(invoke("compare", "--players", "3", "--json", RACE, str(kif)).stdout)
    assert rep["equivalent"] and rep["players"] == {"A": {"examined": 3, "allowed": [2, 3]}, "B": None}


def test_to_gdl_stats_say_the_count():
    stats = invoke("to-gdl", RACE, "--stats", "--no-validate")
    assert stats.exit_code == 0, stats.output
    assert f"players: {SAID.format(n=2)}: the rules are written for that count only" in stats.stdout.splitlines()
    refused = invoke("to-gdl", RACE, "--players", "1")
    assert refused.exit_code == 2 and "the game has 2 to 3 players, not 1" in refused.output
