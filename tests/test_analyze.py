"""`tgpl analyze`: figures on games with known properties, --jobs independence, --report, exit statuses."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from tgpl.analysis import figures as figures_module
from tgpl.analysis.figures import play_games, play_one, pool_pays, wilson
from tgpl.cli import main
from tgpl.runtime import load_game
from tgpl.play.agents import RandomAgent
from tgpl.play.play import play

ROOT = Path(__file__).resolve().parents[1]
TRIS = str(ROOT / "examples" / "tris.tgpl")
CARDS = str(ROOT / "examples" / "cards.tgpl")
LEAD = str(ROOT / "tests" / "data" / "lead.tgpl")


def run(*args: str):
    return CliRunner().invoke(main, ["analyze", *args])


def figures(*args: str) -> dict:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def tris_random() -> dict:
    return figures(TRIS, "--games", "60", "--seed", "5", "--jobs", "1")


def test_tris_random_figures(tris_random):
    s = tris_random
    assert s["games"] == s["finished"] == 60 and s["seeds"] == [5, 64] and s["errors"] == []
    length = s["length"]
    assert 5 <= length["min"] <= length["mean"] <= length["max"] <= 9
    assert sum(length["histogram"].values()) == 60 and set(length["histogram"]) <= {str(k) for k in range(5, 10)}
    # a move fills a cell: 9 legal moves at the first decision, then one fewer each move
    assert [m["mean"] for m in s["branching"]["by_move"][:5]] == [9, 8, 7, 6, 5]
    assert s["branching"]["by_move"][0]["games"] == 60
    wins = [seat["wins"]["count"] for seat in s["seats"]]
    draws = s["drawishness"]["count"]
    assert sum(wins) + draws == 60 and s["decisiveness"]["count"] == sum(wins)
    assert s["first_player_advantage"]["wins_of_decisive"]["count"] == wins[0]
    assert s["balance"] == pytest.approx(1 - abs(wins[0] - wins[1]) / 60, abs=1e-4)
    assert s["actions"] == {"played": {"PlayerState.Tick": sum(len_ for len_ in _lengths(s))}, "never_played": []}


def _lengths(s: dict):
    return [int(k) for k, v in s["length"]["histogram"].items() for _ in range(v)]


def test_every_game_replays_with_tgpl_play(tris_random):
    """Game k of the run is `tgpl play --seed S+k` with the same agents: same winner, same length."""
    game = load_game(TRIS)
    lengths = []
    for seed in range(5, 65):
        outcome = play(game, [RandomAgent(seed, 0), RandomAgent(seed, 1)], seed, TRIS)
        lengths.append(len(outcome.record.moves))
    assert sorted(lengths) == sorted(_lengths(tris_random))


@pytest.mark.parametrize("game, players", [(TRIS, "random,mcts:8"), (CARDS, "random,random")])
def test_jobs_two_gives_the_same_json_as_jobs_one(game, players):
    args = (game, "--games", "12", "--players", players, "--seed", "3", "--json")
    one, two = run(*args, "--jobs", "1"), run(*args, "--jobs", "2")
    assert one.exit_code == two.exit_code == 0, one.output + two.output
    assert one.stdout == two.stdout


def test_without_jobs_a_run_starts_processes_only_when_the_rest_is_long():
    assert not pool_pays(elapsed=1.0, played=500, left=500, cores=2)  # a second more here: not worth a pool
    assert pool_pays(elapsed=1.0, played=1, left=10, cores=2)  # ten more seconds
    assert not pool_pays(elapsed=1.0, played=1, left=10, cores=1)
    assert not pool_pays(elapsed=10.0, played=1, left=1, cores=2)  # one game left: no company for it


class _Clock:
    """A clock that moves `step` seconds each time it is read: the run's timing without the wait."""

    def __init__(self, step: float):
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.mark.parametrize("step, where", [(0.0, "1 process"), (5.0, "2 processes after 1 game here")])
def test_without_jobs_the_games_are_the_same_wherever_they_ran(monkeypatch, step, where):
    """Whether the first games' pace sends the rest to processes or not, the games are the same."""
    monkeypatch.setattr(figures_module.os, "cpu_count", lambda: 2)
    game = load_game(TRIS)
    specs, seeds = ["random", "mcts:4"], range(3, 13)
    alone = play_games(game, specs, seeds, 1, 100)[0]
    played, ran = play_games(game, specs, seeds, None, 100, clock=_Clock(step))
    assert ran == where
    assert played == alone


def test_report_writes_the_plots_and_a_page_that_shows_them(tmp_path):
    out = tmp_path / "report"
    result = run(TRIS, "--games", "8", "--jobs", "1", "--report", str(out))
    assert result.exit_code == 0, result.output
    page = (out / "index.html").read_text(encoding="utf-8")
    for name in ["length.png", "wins.png", "branching.png"]:
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f'src="{name}"' in page
    assert "first-player advantage" in page


def test_actions_never_played_and_most_frequent_state():
    """A game where the first legal move always ends it: `Race.Two` is never chosen by `first`."""
    s = figures(str(ROOT / "tests" / "data" / "race.tgpl"), "--games", "4", "--players", "first,first", "--jobs", "1")
    assert s["actions"] == {"played": {"Race.One": 12}, "never_played": ["Race.Two"]}
    assert s["seats"][0]["wins"]["count"] == 4  # 1, 2, 3: the third move, seat 0's, wins
    assert s["first_player_advantage"]["wins_of_decisive"]["rate"] == 1.0 and s["balance"] == 0.0
    frequent = s["most_frequent_state"]
    assert frequent["visits"] == 4 and frequent["games"] == 4 and frequent["seed"] == 0
    assert frequent["moves"] == ["Race.One()"]


def test_runtime_errors_come_with_their_seed(tmp_path):
    path = tmp_path / "bad.tgpl"
    path.write_text(textwrap.dedent("""
        game "bad";
        players 2;
        global class G
        {
            number N = 0;
            action Go { trigger PlayerChoiceEvent { return true; } effect { G.N += 1; if (G.N == 2) { List<number> xs = {}; G.N = xs[3]; } turn.pass(); } }
        }
        turn T { phase P { } default { return player.active() + 1; } }
        setup { turn.use("T"); turn.pass(0, "P"); }
        """), encoding="utf-8")
    result = run(str(path), "--games", "2", "--seed", "7", "--jobs", "1", "--json")
    assert result.exit_code == 1, result.output
    errors = json.loads(result.stdout)["errors"]
    assert [e["seed"] for e in errors] == [7, 8] and all(e["after_moves"] == 2 for e in errors)
    assert "runtime error" in errors[0]["message"]
    # no game finished: the report still draws every plot, and says n/a where there is no figure
    out = tmp_path / "report"
    assert run(str(path), "--games", "2", "--jobs", "1", "--report", str(out)).exit_code == 1
    page = (out / "index.html").read_text(encoding="utf-8")
    assert all((out / name).read_bytes()[:4] == b"\x89PNG" for name in ["length.png", "wins.png", "branching.png"])
    assert "<th>balance</th><td>n/a</td>" in page and "no decisive game" in page and "None" not in page
    assert "Error in seed 0" in page


def test_usage_errors_exit_2(tmp_path):
    bad = tmp_path / "broken.tgpl"
    bad.write_text('game "x";\nplayers 2;\nsetup { log(nope); }\n', encoding="utf-8")
    assert run(str(bad), "--games", "1").exit_code == 2
    assert run(str(tmp_path / "missing.tgpl")).exit_code == 2
    assert run(TRIS, "--players", "human,random").exit_code == 2
    assert run(TRIS, "--players", "random,random,random").exit_code == 2
    assert run(TRIS, "--games", "0").exit_code == 2


def test_lead_changes_counted_as_the_lead_passes_and_not_on_ties(tmp_path):
    """tests/data/lead.tgpl: the lead goes 0, 1, 0, tie, 1, tie, 1: three changes (0 -> tie -> 1 is
    one, 1 -> tie -> 1 is none, the first leader none)."""
    s = figures(LEAD, "--games", "5", "--jobs", "1")
    lead = s["lead_changes"]
    assert lead["score"] == "Seat.Score" and lead["games"] == 5
    assert lead["mean"] == lead["low"] == lead["high"] == 3 and lead["histogram"] == {"3": 5}
    text = run(LEAD, "--games", "5", "--jobs", "1", "--report", str(tmp_path))
    assert "lead changes (score Seat.Score): mean 3 [3, 3]" in text.stdout
    assert "lead changes (score Seat.Score)</th><td>mean 3 [3, 3]" in (tmp_path / "index.html").read_text()
    assert "lead changes (score" not in run(TRIS, "--games", "2", "--jobs", "1", "--report", str(tmp_path)).stdout
    assert "lead changes (score" not in (tmp_path / "index.html").read_text()


def _leader_changes(states) -> int:
    """The oracle: Hand points read from each state's JSON, the sole leader followed by hand."""
    leader, changes = None, 0
    for state in states:
        points = {}
        for obj in state.to_json()["objects"]:
            if obj["class"] == "Hand":
                points[obj["owners"][0]] = obj["fields"]["Points"]
        best = max(points.values())
        top = [p for p, x in points.items() if x == best]
        if len(top) == 1:
            changes += leader is not None and top[0] != leader
            leader = top[0]
    return changes


def test_lead_changes_of_a_chance_game_match_the_replayed_games():
    s = figures(CARDS, "--games", "40", "--seed", "11", "--jobs", "1")
    game = load_game(CARDS)
    counts = []
    for seed in range(11, 51):
        outcome = play(game, [RandomAgent(seed, 0), RandomAgent(seed, 1)], seed, CARDS)
        states = [game.initial_state(seed)]
        for move in outcome.record.moves:
            states.append(states[-1].apply(move["move"]))
        counts.append(_leader_changes(states))
    lead = s["lead_changes"]
    assert lead["score"] == "Hand.Points" and lead["games"] == 40
    assert lead["mean"] == pytest.approx(sum(counts) / 40, abs=1e-4)
    assert lead["histogram"] == {str(k): counts.count(k) for k in sorted(set(counts))}
    assert 0 <= lead["low"] < lead["mean"] < lead["high"]
    assert max(counts) > 0  # the cards game does change hands: the figure is not vacuous


def test_lead_changes_are_absent_without_a_score():
    assert figures(TRIS, "--games", "4", "--jobs", "1")["lead_changes"] is None
    assert "lead changes" not in run(TRIS, "--games", "4", "--jobs", "1").stdout
    assert figures(CARDS, "--games", "4", "--jobs", "1", "--score", "none")["lead_changes"] is None
    named = figures(CARDS, "--games", "4", "--jobs", "1", "--score", "Points")["lead_changes"]
    assert named == figures(CARDS, "--games", "4", "--jobs", "1")["lead_changes"]


def test_a_score_attribute_the_game_lacks_is_a_usage_error():
    result = run(CARDS, "--games", "2", "--score", "Gold")
    assert result.exit_code == 2
    assert "no class of the game has a number attribute 'Gold'" in result.output
    assert "Points" in result.output and "Traceback" not in result.output


def test_wilson_interval():
    w = wilson(0, 10)
    assert w["rate"] == 0 and w["low"] == 0 and 0.27 < w["high"] < 0.28  # the textbook 0.2775
    w = wilson(50, 100)
    assert w["low"] == pytest.approx(0.4038, abs=1e-4) and w["high"] == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 0) is None


def test_play_one_notes_every_decision():
    game = load_game(TRIS)
    played = play_one(game, ["first", "first"], 0, 100)
    assert played.branching == [9, 8, 7, 6, 5, 4, 3] and len(played.moves) == 7 and played.ranking == [[0]]


def test_a_solitaire_lost_with_winner_nobody_is_counted_not_a_crash():
    """Peg solitaire (tests/data/designers/pegs.tgpl): one player, `winner 0;` with one peg left, else
    `winner {};` (decision 96). A lost game has no first place: analyze once failed on it with an IndexError;
    now its wins are the solved games, and a game of one player has no draws."""
    pegs = str(ROOT / "tests" / "data" / "designers" / "pegs.tgpl")
    f = figures(pegs, "--games", "120", "--seed", "0", "--jobs", "1")
    assert f["finished"] == 120
    assert 0 < f["seats"][0]["wins"]["count"] < 120  # seed 0..119: one solved by chance
    assert f["drawishness"]["count"] == 0 and f["decisiveness"]["count"] == f["seats"][0]["wins"]["count"]
