"""examples/citadels/: Citadels for 4 to 7 players (rules from the slides).

Random games for every player count, records, and constructed situations for
the character powers, the end of the game and the final scoring. A
constructed situation is a variant of citadels.tgpl whose setup adds code
(districts put in cities and hands, gold) before the first round; it is then
driven move by move."""

from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path

import pytest

from example_harness import ROOT, cli, field, texts
from tgpl.frontend.loader import load_program
from tgpl.runtime import load_game
from tgpl.play.agents import RandomAgent
from tgpl.play.play import play, replay
from tgpl.play.record import Record

GAME = "examples/citadels/citadels.tgpl"
DIR = ROOT / "examples" / "citadels"
ROLES = ["Assassin", "Thief", "Magician", "King", "Bishop", "Merchant", "Architect", "Warlord"]
COLOURS = {"yellow", "blue", "green", "red", "purple"}


@lru_cache(maxsize=None)
def game(players: int):
    return load_game(ROOT / GAME, players)


def play_random(players: int, seed: int):
    g = game(players)
    return play(g, [RandomAgent(seed, p) for p in range(players)], seed, GAME)


# ------------------------------------------------------------------ state helpers
def court(state, attribute: str):
    return field(state, "Court", attribute)


def citizen(state, p: int, attribute: str):
    return field(state, f"Citizen#{p}", attribute)


def names(objs) -> list[str]:
    return [o.name for o in objs]


def phase(state) -> str:
    return state.world.control.phase


def score_by_the_rules(state, p: int) -> int:
    """The slides' scoring, computed in Python from the final state."""
    city = citizen(state, p, "City")
    points = sum(state.world.fields(d)["Value"] for d in city)
    first = court(state, "FirstComplete")
    if first is not None and first.name == f"Citizen#{p}":
        points += 4
    elif len(city) >= 8:
        points += 2
    if {state.world.fields(d)["Colour"] for d in city} >= COLOURS:
        points += 3
    return int(points)


def variant(tmp_path: Path, extra: str, players: int):
    """citadels.tgpl with `extra` run in setup after the deal, before the first round."""
    src = (DIR / "citadels.tgpl").read_text(encoding="utf-8")
    rel = Path(os.path.relpath(DIR, tmp_path)).as_posix()
    src = src.replace('import "characters.tgpl";', f'import "{rel}/characters.tgpl";')
    src = src.replace('import "scoring.tgpl";', f'import "{rel}/scoring.tgpl";')
    marker = "    // the first player has the crown in the first round\n"
    assert marker in src
    src = src.replace(marker, extra + "\n" + marker)
    src += PUT
    path = tmp_path / "variant.tgpl"
    path.write_text(src, encoding="utf-8")
    return load_game(path, players)


# Put a new district in player p's city (or hand)
PUT = """
function Put
{
    function input player p;
    function input string name;
    function input string colour;
    function input number cost;
    function input bool hand = false;
    returns District;
    effect
    {
        District d = new District();
        d.Name = name;
        d.Colour = colour;
        d.Cost = cost;
        d.Value = cost;
        if (hand) { Court.Citizens[p].Hand.add(d); }
        else { Court.Citizens[p].City.add(d); d.BuiltBy = p; }
        return d;
    }
}
"""


def start_with(g, needed: set[str]):
    """The first seed's initial state where every needed character is on offer."""
    for seed in range(200):
        state = g.initial_state(seed)
        offered = {o.name.split("#")[0] for o in court(state, "Available")}
        if needed <= offered:
            return state
    raise AssertionError(f"no seed offers {needed}")


def choose(state, picks: dict[int, str]):
    """Play the choice phase: player p takes picks[p]; the others the first character nobody wants."""
    wanted = set(picks.values())
    while phase(state) == "Choose":
        p = state.active_player
        offered = names(court(state, "Available"))
        if p in picks:
            role = picks[p] + "#0"
        else:
            role = next(r for r in offered if r.split("#")[0] not in wanted)
        assert role in offered
        state = state.apply(f"Citizen#{p}.Choose(role: {role})")
    return state


def called(state) -> str | None:
    c = court(state, "Called")
    return None if c is None else c.name.split("#")[0]


def finish_turn(state):
    """The acting player takes 2 gold (if no income yet) and ends the turn."""
    p = state.active_player
    if f"Citizen#{p}.TakeGold()" in texts(state):
        state = state.apply(f"Citizen#{p}.TakeGold()")
    return state.apply(f"Citizen#{p}.EndTurn()")


def until_called(state, role: str):
    """Finish the turns of the characters called before `role`."""
    while called(state) != role:
        assert phase(state) == "Play", f"{role} was not called"
        state = finish_turn(state)
    return state


def district(state, p: int, name: str, where: str = "City"):
    return next(d for d in citizen(state, p, where) if state.world.fields(d)["Name"] == name)


# ------------------------------------------------------------------ generic
def test_check_is_clean():
    program = load_program(ROOT / GAME)
    assert [d.message for d in program.diagnostics] == []
    result = cli("check", GAME)
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("players,seed", [(n, 10 * n + k) for n in (4, 5, 6, 7) for k in range(4)])
def test_random_games_end_and_score_by_the_rules(players, seed):
    outcome = play_random(players, seed)
    state = outcome.state
    assert state.is_terminal and state.legal_moves() == []
    first = court(state, "FirstComplete")
    assert first is not None and len(field(state, first.name, "City")) >= 8
    scores = [score_by_the_rules(state, p) for p in range(players)]
    assert state.log[-players:] == [f"player {p} scores {s}" for p, s in enumerate(scores)]
    # the ranking follows the scores, equal scores tied
    ranking = state.ranking
    assert sorted(p for rank in ranking for p in rank) == list(range(players))
    assert [sorted({scores[p] for p in rank}) for rank in ranking] == [[s] for s in sorted(set(scores), reverse=True)]
    assert len(state.goals) == players
    # the game ends after the round in which the first city was completed
    completed = max(i for i, line in enumerate(state.log) if "completes a city" in line)
    assert not any(line.startswith("round ") for line in state.log[completed:])


@pytest.mark.parametrize("players,seed", [(4, 11), (7, 12)])
def test_records_replay_and_the_same_seed_gives_the_same_record(players, seed, tmp_path):
    first = play_random(players, seed).record
    text = first.to_json()
    assert play_random(players, seed).record.to_json() == text
    record = Record.from_json(text)
    assert len(record.players) == players
    state = replay(game(players), record)
    assert {"ranking": state.ranking, "goals": state.goals} == record.result
    # the command line writes the same bytes, and replays them with the record's player count
    out = tmp_path / "cli.json"
    result = cli("play", GAME, "--players", ",".join(["random"] * players), "--seed", str(seed),
                 "--record", str(out), "--quiet")
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == text
    result = cli("replay", str(out))
    assert result.exit_code == 0, result.output
    assert f"ok, {len(record.moves)} moves" in result.stdout


def test_a_tampered_record_is_rejected(tmp_path):
    text = play_random(5, 3).record.to_json()
    data = json.loads(text)
    index = next(i for i, m in enumerate(data["moves"]) if m["move"].endswith(".TakeGold()"))
    data["moves"][index]["move"] = data["moves"][index]["move"].replace("TakeGold", "EndTurn")
    f = tmp_path / "tampered.json"
    f.write_text(json.dumps(data), encoding="utf-8")
    result = cli("replay", str(f))
    assert result.exit_code == 1
    assert f"move {index + 1}:" in result.stderr


# ------------------------------------------------------------------ setup and choice
@pytest.mark.parametrize("players,face_up", [(4, 2), (5, 1), (6, 0), (7, 0)])
def test_setup_deals_2_gold_and_4_districts_and_discards_by_player_count(players, face_up):
    for seed in range(12):
        state = game(players).initial_state(seed)
        for p in range(players):
            assert citizen(state, p, "Gold") == 2
            assert len(citizen(state, p, "Hand")) == 4
            assert citizen(state, p, "City") == []
        assert len(field(state, "DistrictDeck#0", "_items")) == 66 - 4 * players
        up = court(state, "FaceUp")
        down = court(state, "FaceDown")
        assert len(up) == face_up and down is not None and down not in up
        assert "King#0" not in names(up)   # the King is never discarded face up
        assert len(court(state, "Available")) == 8 - 1 - face_up
        # the crown's holder, player 0, chooses first
        assert (state.active_player, phase(state)) == (0, "Choose")
        assert state.log[0].startswith("round 1: player 0 has the crown")


def test_characters_are_chosen_in_crown_order_among_the_remaining():
    state = game(5).initial_state(3)
    for p in range(5):
        assert state.active_player == p
        offered = names(court(state, "Available"))
        moves = texts(state)
        assert moves == [f"Citizen#{p}.Choose(role: {r})" for r in offered]
        state = state.apply(moves[-1])
        assert offered[-1] not in names(court(state, "Available"))
    assert phase(state) == "Play"


def test_with_7_players_the_last_may_take_the_face_down_character():
    state = game(7).initial_state(0)
    down = court(state, "FaceDown").name
    for p in range(6):
        state = state.apply(texts(state)[0])
    offered = names(court(state, "Available"))
    assert state.active_player == 6 and len(offered) == 2 and offered[-1] == down


# ------------------------------------------------------------------ income and building
def test_income_is_2_gold_or_draw_2_keep_1(tmp_path):
    g = game(6)
    state = choose(start_with(g, {"Bishop", "King"}), {0: "King", 1: "Bishop"})
    state = until_called(state, "King")
    assert set(texts(state)) >= {"Citizen#0.TakeGold()", "Citizen#0.DrawDistricts()"}
    assert "Citizen#0.EndTurn()" not in texts(state)   # income first
    gold = citizen(state, 0, "Gold")
    after = state.apply("Citizen#0.TakeGold()")
    assert citizen(after, 0, "Gold") == gold + 2
    assert "Citizen#0.DrawDistricts()" not in texts(after)
    deck = len(field(state, "DistrictDeck#0", "_items"))
    state = state.apply("Citizen#0.DrawDistricts()")
    drawn = texts(state)
    assert len(drawn) == 2 and state.request is not None   # the player picks the one to keep
    state = state.apply(drawn[1])
    assert drawn[1] in names(citizen(state, 0, "Hand")) and len(citizen(state, 0, "Hand")) == 5
    assert names(field(state, "DistrictDeck#0", "discard_stack")) == [drawn[0]]
    assert len(field(state, "DistrictDeck#0", "_items")) == deck - 2


def test_building_pays_the_cost_once_a_turn_and_no_two_districts_of_a_name(tmp_path):
    g = variant(tmp_path, """
    Court.Citizens[0].Gold = 10;
    Put(p: 0, name: "Manor", colour: "yellow", cost: 3, hand: true);
    Put(p: 0, name: "Tavern", colour: "green", cost: 1, hand: true);
    Put(p: 0, name: "Tavern", colour: "green", cost: 1, hand: true);
    Put(p: 0, name: "Fortress", colour: "red", cost: 5, hand: true);
    """, 6)
    state = choose(start_with(g, {"King"}), {0: "King"})
    state = until_called(state, "King")
    state = state.apply("Citizen#0.TakeGold()")
    manor = district(state, 0, "Manor", "Hand").name
    state = state.apply(f"Citizen#0.Build(district: {manor})")
    assert citizen(state, 0, "Gold") == 12 - 3
    assert names(citizen(state, 0, "City")) == [manor]
    assert not any(".Build(" in t for t in texts(state))   # one build a turn
    assert field(state, manor, "BuiltBy") == 0


# ------------------------------------------------------------------ character powers
def test_assassin_makes_the_killed_character_lose_the_turn():
    g = game(6)
    state = choose(start_with(g, {"Assassin", "King", "Bishop"}), {1: "Assassin", 2: "King", 3: "Bishop"})
    state = until_called(state, "Assassin")
    assert state.active_player == 1
    assert "Assassin#0.Kill(target: Assassin#0)" not in texts(state)
    state = state.apply("Assassin#0.Kill(target: King#0)")
    assert field(state, "King#0", "Killed") is True
    assert not any(".Kill(" in t for t in texts(state))   # once a turn
    state = until_called(state, "Bishop")
    assert state.active_player == 3
    assert "the King (player 2) was killed and loses the turn" in state.log
    assert "the King is player 2" not in state.log


def test_thief_takes_the_robbed_players_gold_when_it_is_called(tmp_path):
    g = variant(tmp_path, "Court.Citizens[4].Gold = 7;", 6)
    state = choose(start_with(g, {"Assassin", "Thief", "Merchant"}), {0: "Assassin", 1: "Thief", 4: "Merchant"})
    state = until_called(state, "Assassin")
    state = state.apply("Citizen#0.TakeGold()")
    state = state.apply("Assassin#0.Kill(target: Magician#0)")
    state = state.apply("Citizen#0.EndTurn()")
    assert called(state) == "Thief" and state.active_player == 1
    moves = texts(state)
    assert "Thief#0.Rob(target: Assassin#0)" not in moves      # not the Assassin
    assert "Thief#0.Rob(target: Magician#0)" not in moves      # nor the killed character
    assert "Thief#0.Rob(target: Thief#0)" not in moves
    state = state.apply("Thief#0.Rob(target: Merchant#0)")
    state = finish_turn(state)   # the Thief takes 2 gold: 4
    state = until_called(state, "Merchant")
    assert state.active_player == 4
    assert citizen(state, 1, "Gold") == 4 + 7
    assert citizen(state, 4, "Gold") == 1   # robbed, then the Merchant's 1 gold
    assert "the Thief takes 7 gold from player 4" in state.log


def test_magician_exchanges_hands():
    state = choose(start_with(game(6), {"Magician"}), {2: "Magician"})
    state = until_called(state, "Magician")
    mine, theirs = names(citizen(state, 2, "Hand")), names(citizen(state, 5, "Hand"))
    assert "Magician#0.Exchange(other: Citizen#2)" not in texts(state)
    state = state.apply("Magician#0.Exchange(other: Citizen#5)")
    assert (names(citizen(state, 2, "Hand")), names(citizen(state, 5, "Hand"))) == (theirs, mine)


def test_magician_discards_and_draws_as_many():
    state = choose(start_with(game(6), {"Magician"}), {2: "Magician"})
    state = until_called(state, "Magician")
    hand = names(citizen(state, 2, "Hand"))
    state = state.apply("Magician#0.Redraw()")
    state = state.apply(hand[0])
    state = state.apply(hand[2])
    state = state.apply("null")
    new = names(citizen(state, 2, "Hand"))
    assert len(new) == 4 and hand[1] in new and hand[3] in new and hand[0] not in new
    assert names(field(state, "DistrictDeck#0", "discard_stack")) == [hand[0], hand[2]]


def test_king_earns_from_yellow_and_takes_the_crown(tmp_path):
    g = variant(tmp_path, """
    Put(p: 3, name: "Manor", colour: "yellow", cost: 3);
    Put(p: 3, name: "Palace", colour: "yellow", cost: 5);
    Put(p: 3, name: "Tavern", colour: "green", cost: 1);
    """, 6)
    state = choose(start_with(g, {"King"}), {3: "King"})
    state = until_called(state, "King")
    assert "King#0.Taxes()" not in texts(state)   # after the income
    state = state.apply("Citizen#3.TakeGold()")
    state = state.apply("King#0.Taxes()")
    assert citizen(state, 3, "Gold") == 2 + 2 + 2
    assert "King#0.Taxes()" not in texts(state)   # once
    while phase(state) == "Play":
        state = finish_turn(state)
    assert court(state, "Crown") == 3
    assert state.active_player == 3 and phase(state) == "Choose"   # the King's player chooses first
    assert state.log[-1].startswith("round 2: player 3 has the crown")


def test_a_killed_king_still_takes_the_crown_as_the_slides_say():
    state = choose(start_with(game(6), {"Assassin", "King"}), {0: "Assassin", 4: "King"})
    state = until_called(state, "Assassin")
    state = state.apply("Assassin#0.Kill(target: King#0)")
    while phase(state) == "Play":
        state = finish_turn(state)
    assert court(state, "Crown") == 4


def test_taxes_not_collected_are_collected_at_the_end_of_the_turn(tmp_path):
    g = variant(tmp_path, """
    Put(p: 1, name: "Temple", colour: "blue", cost: 1);
    Put(p: 1, name: "Church", colour: "blue", cost: 2);
    Put(p: 2, name: "Tavern", colour: "green", cost: 1);
    Put(p: 2, name: "Market", colour: "green", cost: 2);
    Put(p: 2, name: "Docks", colour: "green", cost: 3);
    """, 6)
    state = choose(start_with(g, {"Bishop", "Merchant"}), {1: "Bishop", 2: "Merchant"})
    state = until_called(state, "Bishop")
    state = finish_turn(state)   # 2 + 2 gold, then 2 from blue districts
    assert citizen(state, 1, "Gold") == 6
    assert called(state) == "Merchant" and citizen(state, 2, "Gold") == 3   # 1 gold on being called
    state = state.apply("Citizen#2.TakeGold()")
    state = state.apply("Merchant#0.Taxes()")
    assert citizen(state, 2, "Gold") == 3 + 2 + 3


WARLORD_CITIES = """
    Court.Citizens[0].Gold = 2;
    Put(p: 1, name: "Temple", colour: "blue", cost: 1);
    Put(p: 2, name: "Castle", colour: "yellow", cost: 4);
    Put(p: 2, name: "Watchtower", colour: "red", cost: 1);
    Put(p: 0, name: "Prison", colour: "red", cost: 2);
    Put(p: 0, name: "Fortress", colour: "red", cost: 5);
    Put(p: 3, name: "Tavern", colour: "green", cost: 1);
    for (number i = 0; i < 8; i += 1) { Put(p: 3, name: "Manor" + i, colour: "yellow", cost: 3); }
"""


def test_warlord_destroys_paying_one_less_but_not_the_bishops_nor_a_complete_city(tmp_path):
    g = variant(tmp_path, WARLORD_CITIES, 6)
    state = choose(start_with(g, {"Bishop", "Warlord"}), {0: "Warlord", 1: "Bishop"})
    state = until_called(state, "Warlord")
    targets = {field(state, t.split("target: ")[1].rstrip(")"), "Name")
               for t in texts(state) if t.startswith("Warlord#0.Destroy(")}
    # 2 gold: cost 1 is free, cost 2 costs 1; not the Castle (3), not the Bishop's Temple,
    # not the complete city of player 3; the Warlord's own city too
    assert targets == {"Watchtower", "Prison"}
    state = state.apply("Citizen#0.TakeGold()")   # 4 gold: cost 5 or less
    targets = {field(state, t.split("target: ")[1].rstrip(")"), "Name")
               for t in texts(state) if t.startswith("Warlord#0.Destroy(")}
    assert targets == {"Watchtower", "Prison", "Castle", "Fortress"}
    castle = district(state, 2, "Castle")
    state = state.apply(f"Warlord#0.Destroy(target: {castle.name})")
    assert citizen(state, 0, "Gold") == 4 - 3
    assert "Castle" not in {state.world.fields(d)["Name"] for d in citizen(state, 2, "City")}
    assert castle.name in names(field(state, "DistrictDeck#0", "discard_stack"))
    assert not any(t.startswith("Warlord#0.Destroy(") for t in texts(state))
    state = state.apply("Warlord#0.Taxes()")
    assert citizen(state, 0, "Gold") == 1 + 2   # two red districts


def test_a_killed_bishop_does_not_protect_his_city(tmp_path):
    g = variant(tmp_path, WARLORD_CITIES, 6)
    state = choose(start_with(g, {"Assassin", "Bishop", "Warlord"}), {0: "Warlord", 1: "Bishop", 4: "Assassin"})
    state = until_called(state, "Assassin")
    state = state.apply("Assassin#0.Kill(target: Bishop#0)")
    state = until_called(state, "Warlord")
    temple = district(state, 1, "Temple").name
    assert f"Warlord#0.Destroy(target: {temple})" in texts(state)


def test_architect_builds_up_to_2_as_the_slides_say(tmp_path):
    g = variant(tmp_path, """
    Court.Citizens[5].Gold = 20;
    Put(p: 5, name: "Tavern", colour: "green", cost: 1, hand: true);
    Put(p: 5, name: "Temple", colour: "blue", cost: 1, hand: true);
    Put(p: 5, name: "Prison", colour: "red", cost: 2, hand: true);
    """, 6)
    state = choose(start_with(g, {"Architect"}), {5: "Architect"})
    hand = len(citizen(state, 5, "Hand"))
    state = until_called(state, "Architect")
    assert len(citizen(state, 5, "Hand")) == hand  # no extra draw in the slides' rules
    state = state.apply("Citizen#5.TakeGold()")
    for name in ["Tavern", "Temple"]:
        state = state.apply(f"Citizen#5.Build(district: {district(state, 5, name, 'Hand').name})")
    assert [state.world.fields(d)["Name"] for d in citizen(state, 5, "City")] == ["Tavern", "Temple"]
    assert citizen(state, 5, "Gold") == 22 - 2
    assert not any(".Build(" in t for t in texts(state))   # two builds at most


# ------------------------------------------------------------------ end and scoring
END = """
    Court.Citizens[0].Gold = 10;
    Put(p: 0, name: "Manor", colour: "yellow", cost: 3);
    Put(p: 0, name: "Temple", colour: "blue", cost: 1);
    Put(p: 0, name: "Tavern", colour: "green", cost: 1);
    Put(p: 0, name: "Prison", colour: "red", cost: 2);
    Put(p: 0, name: "Keep", colour: "purple", cost: 3);
    Put(p: 0, name: "Castle", colour: "yellow", cost: 4);
    Put(p: 0, name: "Church", colour: "blue", cost: 2);
    Put(p: 0, name: "Palace", colour: "yellow", cost: 5, hand: true);
    Court.Citizens[1].Gold = 10;
    for (number i = 0; i < 7; i += 1) { Put(p: 1, name: "Market" + i, colour: "green", cost: 2); }
    Put(p: 1, name: "Harbor", colour: "green", cost: 4, hand: true);
    Put(p: 2, name: "Watchtower", colour: "red", cost: 1);
    Put(p: 2, name: "Docks", colour: "green", cost: 3);
    Put(p: 2, name: "Cathedral", colour: "blue", cost: 5);
    Put(p: 2, name: "Palace", colour: "yellow", cost: 5);
    Put(p: 2, name: "Dragon Gate", colour: "purple", cost: 6).Value = 8;
"""


def test_the_game_ends_after_the_round_of_the_eighth_district_and_scores_by_the_rules(tmp_path):
    g = variant(tmp_path, END, 6)
    state = choose(start_with(g, {"King", "Merchant"}), {0: "King", 1: "Merchant"})
    state = until_called(state, "King")
    state = state.apply("Citizen#0.TakeGold()")
    state = state.apply(f"Citizen#0.Build(district: {district(state, 0, 'Palace', 'Hand').name})")
    assert court(state, "FirstComplete").name == "Citizen#0"
    state = state.apply("Citizen#0.EndTurn()")
    assert not state.is_terminal   # the round goes on
    state = until_called(state, "Merchant")
    state = state.apply("Citizen#1.TakeGold()")
    state = state.apply(f"Citizen#1.Build(district: {district(state, 1, 'Harbor', 'Hand').name})")
    state = state.apply("Citizen#1.EndTurn()")
    while not state.is_terminal:
        assert phase(state) == "Play"
        state = finish_turn(state)
    # player 0: 3+1+1+2+3+4+2+5 = 21, first complete +4, five colours +3 = 28
    # player 1: 7*2 + 4 = 18, complete +2 = 20
    # player 2: 1+3+5+5+8 = 22, five colours +3 = 25
    # players 3, 4, 5 score what they built this round (from 4 gold at most)
    scores = [int(s.split()[-1]) for s in state.log[-6:]]
    assert scores[:3] == [28, 20, 25]
    assert scores == [score_by_the_rules(state, p) for p in range(6)]
    assert state.ranking[0] == [0] and state.ranking[1] == [2] and state.ranking[2] == [1]
    assert state.goals[0] == 100
