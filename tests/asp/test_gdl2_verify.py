"""GDL-II verified, analysed and played out: random as chance nodes, the hidden information named, values
labelled as seen by every role, and Monty Hall's 2/3."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from tgpl.asp import gdl2
from tgpl.asp.reasoner import GdlGame
from tgpl.cli import main
from tests.asp.conftest import GUESSING, KRIEG, MONTY
from tgpl.verify.graph import explore


# random rolls 1, 2 or 3; then the player bets (100 on a 3, else 0) or passes (50). {SEES} is where a game
# may tell the player the roll.
BET = """\
(role player)
(role random)
(face 1) (face 2) (face 3)
(init start)
(<= (legal random (roll ?f)) (true start) (face ?f))
(<= (legal player noop) (true start))
(<= (legal player bet) (true (rolled ?f)))
(<= (legal player pass) (true (rolled ?f)))
(<= (legal random noop) (true (rolled ?f)))
(<= (next (rolled ?f)) (does random (roll ?f)))
(<= (next (done bet ?f)) (does player bet) (true (rolled ?f)))
(<= (next (done pass ?f)) (does player pass) (true (rolled ?f)))
(<= terminal (true (done ?m ?f)))
(<= (goal player 100) (true (done bet 3)))
(<= (goal player 0) (true (done bet ?f)) (distinct ?f 3))
(<= (goal player 50) (true (done pass ?f)))
{SEES}
"""


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def graph(text_or_path: str):
    game = GdlGame.load(text_or_path) if text_or_path.endswith(".kif") else GdlGame.from_text(text_or_path, "bet.kif")
    return explore(gdl2.GdlIIMachine(game)), game


def dp_bet(sees_roll: bool) -> Fraction:
    """The betting game's value by hand: knowing the roll, bet on a 3 and pass otherwise; blind, the better of
    betting (a third of 100) and passing (50)."""
    faces = [1, 2, 3]
    if sees_roll:
        return sum((max(Fraction(100 if f == 3 else 0), Fraction(50)) for f in faces), Fraction(0)) / 3
    return max(sum((Fraction(100 if f == 3 else 0) for f in faces), Fraction(0)) / 3, Fraction(50))


@pytest.mark.parametrize("sees", [False, True])
def test_chance_nodes_average_and_information_sets_are_what_the_player_sees(sees):
    g, _ = graph(BET.replace("{SEES}", "(<= (sees player (face ?f)) (does random (roll ?f)))" if sees else ""))
    assert gdl2.expected_goals(g).goals == [dp_bet(True)]  # every role seeing the whole state
    assert gdl2.one_player_value(g) == dp_bet(sees)
    hidden = gdl2.hidden_information(g)["player"]
    assert (hidden is None) == sees
    if not sees:
        assert (hidden.path, hidden.one, hidden.other) == ([], "noop | (roll 1)", "noop | (roll 2)")


def test_monty_hall_values():
    g, _ = graph(MONTY)
    assert g.roles == ["candidate"] and g.complete
    assert gdl2.expected_goals(g).goals == [Fraction(100)]  # seeing where the car is, the candidate always wins
    assert gdl2.one_player_value(g) == Fraction(200, 3)     # seeing only the opened door: switch, 2/3


def test_verify_monty_hall_names_the_hidden_information_and_labels_values():
    result = run("verify", MONTY)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "chance: GDL-II role 'random' is a chance node (uniform over its legal moves)" in out
    assert ("hidden information: candidate cannot tell '(choose 1) | (hide_car 1)' from '(choose 1) | (hide_car 2)' "
            "after the initial state") in out
    assert "value: win for candidate (computed with every role seeing the whole state, not the game's value)" in out
    assert "candidate: weakly winnable, can force a win, can secure 100 (every role seeing the whole state)" in out
    assert ("expected goals (computed with every role seeing the whole state, not the game's value): candidate: 100"
            in out)
    assert "value knowing only what it sees (optimal play over its information sets): candidate: 66.6667" in out
    rep = json.loads(run("verify", MONTY, "--json").output)
    assert rep["roles"] == ["candidate"] and rep["well_formed"]
    assert rep["gdl_ii"]["value_seen_exact"] == {"candidate": "200/3"}
    assert rep["gdl_ii"]["expected_goals_exact"] == {"candidate": "100"}


def test_verify_of_a_blind_two_player_game_gives_no_game_value():
    result = run("verify", GUESSING)
    assert result.exit_code == 0, result.output
    assert "hidden information: none for picker" in result.output
    assert "hidden information: guesser cannot tell '(pick 1) | noop' from '(pick 2) | noop'" in result.output
    assert "value: win for guesser (computed with every role seeing the whole state" in result.output
    assert "value knowing only what each sees: not computed (several players with hidden information" in result.output


def test_verify_krieg_tictactoe_gives_a_partial_report():
    result = run("verify", KRIEG, "--max-states", "300", "--max-seconds", "60")
    assert result.exit_code == 0, result.output
    assert ": INCOMPLETE: " in result.output and "stopped at the state cap (300 states stored" in result.output
    assert "hidden information: oplayer cannot tell '(mark 1 1) | noop' from '(mark 1 2) | noop'" in result.output
    assert "hidden information: xplayer cannot tell" in result.output
    assert "expected goals: not computed (the exploration is incomplete)" in result.output


def test_random_without_a_move_is_a_stuck_state(tmp_path):
    path = tmp_path / "stuck.kif"
    path.write_text(BET.replace("{SEES}", "").replace("(<= (legal random noop) (true (rolled ?f)))\n", ""),
                    encoding="utf-8")
    result = run("verify", str(path))
    assert result.exit_code == 1
    assert "problem (stuck): 3 stuck state(s): random has no legal move" in result.output
    assert "stuck states: 3" in result.output


def test_compare_says_what_it_compares_of_a_gdl_ii_game():
    result = run("compare", MONTY, MONTY)
    assert result.exit_code == 0
    assert "note: GDL-II: random's moves are matched as moves, not by their probabilities" in result.output


def test_analyze_plays_a_kif_game_at_random_and_is_seeded():
    first = run("analyze", MONTY, "--games", "300", "--seed", "5", "--json")
    assert first.exit_code == 0, first.output
    figures = json.loads(first.output)
    assert figures["chance"] == "random" and figures["finished"] == 300 and figures["mean_moves"] == 3.0
    assert sum(o["count"] for o in figures["outcomes"]) == 300
    assert first.output == run("analyze", MONTY, "--games", "300", "--seed", "5", "--json").output
    assert run("analyze", MONTY, "--players", "mcts").exit_code == 2


# ------------------------------------------------------------------ Monty Hall, played out
def keeps(choice: str):
    """The candidate's strategy: any door at random, then `choice` (switch or noop) at the last step."""
    def strategy(state, k, rng, moves):
        return next((m for m in moves if str(m) == choice), None) or moves[rng.randrange(len(moves))]
    return strategy


@pytest.mark.parametrize("choice, count, p", [("switch", 100_000, Fraction(2, 3)), ("noop", 20_000, Fraction(1, 3))])
def test_monty_hall_switching_wins_two_thirds(choice, count, p):
    game = GdlGame.load(MONTY)
    result = gdl2.playouts(game, count, seed=0, strategies=[keeps(choice), None])
    assert result.finished == count
    wins = result.outcomes.get((100,), 0)
    # 99 % two-sided interval of a binomial proportion around p
    half = 2.5758293035489 * math.sqrt(float(p * (1 - p)) / count)
    assert abs(wins / count - float(p)) <= half, (wins, count)


def test_random_may_be_any_role_and_bounded_mode_gives_it_no_goal(tmp_path):
    # the published Monty Hall declares random first
    text = Path(MONTY).read_text(encoding="utf-8").replace("(role candidate)\n(role random)", "(role random)\n(role candidate)")
    assert text.index("(role random)") < text.index("(role candidate)")
    path = tmp_path / "monty.kif"
    path.write_text(text, encoding="utf-8")
    rep = json.loads(run("verify", str(path), "--json").output)
    assert rep["roles"] == ["candidate"] and rep["gdl_ii"]["value_seen_exact"] == {"candidate": "200/3"}
    for args in ([], ["--grounding", "per-state"]):
        result = run("verify", str(path), "--horizon", "4", *args)
        assert result.exit_code == 0, result.output
        out = result.output.replace(str(path), "GAME")
        assert "candidate: wins after 3 moves" in out and "random" not in out


def test_what_a_rule_for_every_role_gives_random_is_no_problem(tmp_path):
    # two goal values for every role but the player: random gets both, which says nothing of the game
    extra = "(<= (goal ?r 10) (role ?r) (distinct ?r player))\n(<= (goal ?r 20) (role ?r) (distinct ?r player))\n"
    path = tmp_path / "bet.kif"
    path.write_text(BET.replace("{SEES}", extra), encoding="utf-8")
    result = run("verify", str(path))
    assert result.exit_code == 0, result.output
    assert "expected goals (computed with every role seeing the whole state, not the game's value): player: 66.6667" \
        in result.output
    figures = json.loads(run("analyze", str(path), "--games", "50", "--json").output)
    assert figures["finished"] == 50 and list(figures["roles"]) == ["player"]
