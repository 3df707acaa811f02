"""`tgpl analyze`: figures on games with known properties, --jobs independence, --report, exit statuses."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from tgpl.analysis.figures import play_one, wilson
from tgpl.cli import main
from tgpl.runtime import load_game
from tgpl.runtime.agents import RandomAgent
from tgpl.runtime.play import play

ROOT = Path(__file__).resolve().parents[1]
TRIS = str(ROOT / "examples" / "tris.tgpl")


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


def test_jobs_two_gives_the_same_json_as_jobs_one():
    args = (TRIS, "--games", "12", "--players", "random,mcts:8", "--seed", "3", "--json")
    one, two = run(*args, "--jobs", "1"), run(*args, "--jobs", "2")
    assert one.exit_code == two.exit_code == 0, one.output + two.output
    assert one.stdout == two.stdout


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


def test_usage_errors_exit_2(tmp_path):
    bad = tmp_path / "broken.tgpl"
    bad.write_text('game "x";\nplayers 2;\nsetup { log(nope); }\n', encoding="utf-8")
    assert run(str(bad), "--games", "1").exit_code == 2
    assert run(str(tmp_path / "missing.tgpl")).exit_code == 2
    assert run(TRIS, "--players", "human,random").exit_code == 2
    assert run(TRIS, "--players", "random,random,random").exit_code == 2
    assert run(TRIS, "--games", "0").exit_code == 2


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
