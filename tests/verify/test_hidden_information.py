"""What a TGPL game hides (decision 94) in verify's report, the lone player's value knowing only what it sees,
and a solo game's loss (decision 96). Monty Hall (examples/montyhall.tgpl) is the case the issue names."""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from tgpl.cli import main
from tgpl.frontend.outcomes import goals_of, unscored
from tgpl.verify.chance_machine import ChanceMachine
from tgpl.runtime.game import load_game
from tgpl.verify.information import FULL_VIEW, TooManyInformationSets, hidden_information, value_seen

ROOT = Path(__file__).resolve().parents[2]
MONTY = str(ROOT / "examples" / "montyhall.tgpl")
SOLO = str(ROOT / "tests" / "data" / "solo_loss.tgpl")


def verify_json(path: str, *args: str) -> tuple[int, dict]:
    r = CliRunner().invoke(main, ["verify", path, "--json", *args])
    return r.exit_code, json.loads(r.stdout)


def test_monty_hall_names_the_car_and_labels_the_open_cards_value():
    code, rep = verify_json(MONTY)
    assert code == 0 and rep["complete"] and rep["goals_ok"]
    assert rep["hidden"]["hidden"] == ["Studio.Car (hidden)"]
    assert rep["value"].endswith(f"({FULL_VIEW})")
    assert rep["expected_goal"]["player 0"] == pytest.approx(100)  # seeing the car, the contestant always wins
    assert rep["hidden"]["value_seen_exact"] == {"player 0": "200/3"}  # knowing only what it sees: switch


def test_the_text_report_says_both_values_and_what_is_hidden():
    r = CliRunner().invoke(main, ["verify", MONTY])
    assert r.exit_code == 0, r.output
    assert "hidden information: Studio.Car (hidden)" in r.output
    assert "value knowing only what it sees (optimal play over its information sets): player 0 66.666666667" \
        in r.output
    assert f"expected goals under optimal play (expectimax over the chance nodes) ({FULL_VIEW})" in r.output


def _value_by_hand() -> Fraction:
    """Monty Hall solved by hand over the contestant's information: it sees the door it picked and the door
    opened. Per pick and opened door, staying wins with P(car = pick | opened), switching with the rest."""
    total = Fraction(0)
    for pick in range(3):
        seen: dict[int, list[Fraction]] = {}
        for car in range(3):
            goats = [d for d in range(3) if d != pick and d != car]
            for opened in goats:
                p = Fraction(1, 3) / len(goats)  # the car behind `car`, then the host opening `opened`
                stay, switch = seen.setdefault(opened, [Fraction(0), Fraction(0)])
                seen[opened] = [stay + (p if car == pick else 0), switch + (p if car != pick else 0)]
        total = max(total, sum((max(s) for s in seen.values()), Fraction(0)) * 100)
    return total


def test_the_value_seen_is_the_value_worked_out_by_hand():
    game = load_game(MONTY)
    assert value_seen(ChanceMachine(game, 0)) == _value_by_hand() == Fraction(200, 3)


def test_a_value_seen_cut_short_says_whether_the_budget_or_a_limit_stopped_it():
    game = load_game(MONTY)
    with pytest.raises(TooManyInformationSets, match=r"^more than 3 information sets \(--max-states\)$"):
        value_seen(ChanceMachine(game, 0), budget=3)
    calls = []

    def stop():
        calls.append(1)
        return "the time limit (20 s, --max-seconds)" if len(calls) > 2 else None
    with pytest.raises(TooManyInformationSets,
                       match=r"^stopped by the time limit \(20 s, --max-seconds\) after \d+ information sets$"):
        value_seen(ChanceMachine(game, 0), stop=stop)


def test_switching_wins_two_thirds_of_seeded_games_on_the_runtime():
    game = load_game(MONTY)
    rng = random.Random(11)
    n, wins = 3_000, 0
    for seed in range(n):
        state = game.initial_state(seed)
        state = state.apply(rng.choice(state.legal_moves()))  # any door
        (switch,) = [m for m in state.legal_moves() if m.text.endswith(".Switch()")]
        state = state.apply(switch)
        assert state.is_terminal
        wins += state.goals[0] == 100
    p, sd = 2 / 3, math.sqrt(2 / 9 / n)
    assert abs(wins / n - p) <= 2.576 * sd, wins  # a 99 % interval


def test_open_games_say_nothing_hidden_and_decks_are_hidden():
    code, rep = verify_json(str(ROOT / "examples" / "tris.tgpl"))
    assert code == 0 and "hidden" not in rep
    assert hidden_information(load_game(str(ROOT / "examples" / "treasure.tgpl")).program) == [
        "deck TreasureDeck: the order of its items", "Hand.Cards (private)"]


def test_several_players_with_hidden_information_get_no_value_seen_and_say_why():
    code, rep = verify_json(str(ROOT / "examples" / "treasure.tgpl"), "--max-states", "300")
    assert code == 0 and not rep["complete"]
    assert rep["hidden"]["value_seen"] is None and "several players" in rep["hidden"]["value_seen_why"]


def test_a_lone_players_empty_ranking_is_a_loss_everywhere(tmp_path):
    assert goals_of([], 1) == [0] and goals_of([[0]], 1) == [100]
    assert unscored([], 2) and not unscored([], 1) and not unscored([[1]], 2)
    code, rep = verify_json(SOLO)
    assert code == 0 and rep["goals_ok"] and rep["problems"] == []
    out = tmp_path / "cups.kif"
    r = CliRunner().invoke(main, ["to-gdl", SOLO, "-o", str(out)])
    assert r.exit_code == 0, r.output  # validated against the runtime, which gives the loss goal 0 too
    assert "(<= (goal player_0 0) (true (result none)))" in out.read_text()
    r = CliRunner().invoke(main, ["play", SOLO, "--moves", "-"], input="Guesser#0.Lift(cup: Cup#0)\n")
    assert "no winner: player 0 lost" in r.output
