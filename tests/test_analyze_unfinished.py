"""`tgpl analyze` on a game that never ends (issue 36): the unfinished games listed with their seeds,
counted apart from the finished ones in every figure, and exit status 1."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from tgpl.cli import main

# Each player adds 1, 2 or 3 twice; the draw is forgotten, so equal scores pass for ever.
GAME = str(Path(__file__).resolve().parent / "data" / "forgotten_draw.tgpl")
ARGS = ["analyze", GAME, "--games", "20", "--max-moves", "20", "--players", "random,random"]


def never_ending_seeds() -> list[int]:
    """The seeds whose game `tgpl play` leaves still going after 20 moves (exit 3), found apart."""
    seeds = []
    for seed in range(20):
        result = CliRunner().invoke(main, ["play", GAME, "--seed", str(seed), "--players", "random,random",
                                           "--max-moves", "20", "--quiet"])
        assert result.exit_code in (0, 3), result.output
        if result.exit_code == 3:
            seeds.append(seed)
    return seeds


def test_games_that_never_end_are_listed_with_their_seeds_and_exit_1():
    expected = never_ending_seeds()
    assert expected, "the forgotten draw leaves some of the 20 games going"
    result = CliRunner().invoke(main, ARGS)
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert f"{20 - len(expected)} finished, {len(expected)} unfinished, 0 with errors" in lines[0]
    listed = next(line for line in lines if line.startswith("unfinished: "))
    assert listed.startswith(f"unfinished: {len(expected)} games still going after 20 moves (--max-moves), "
                             "left out of the figures above")
    assert f"seeds {', '.join(map(str, expected))} " in listed
    assert f"tgpl play {GAME} --seed {expected[0]} --players random,random --max-moves 20" in listed


def test_unfinished_games_are_counted_apart_in_every_figure():
    expected = never_ending_seeds()
    result = CliRunner().invoke(main, [*ARGS, "--json"])
    assert result.exit_code == 1
    s = json.loads(result.stdout)
    finished = 20 - len(expected)
    assert (s["finished"], s["unfinished"], s["max_moves"]) == (finished, len(expected), 20)
    assert s["unfinished_games"]["seeds"] == expected
    # A finished game is four decisions of three moves each; the forced passes of the games that
    # never end (one legal move, 16 a game) stay out of the branching factor.
    assert s["branching"]["mean"] == 3 and s["branching"]["forced"] == 0
    assert s["branching"]["decisions"] == 4 * finished
    apart = s["unfinished_games"]["branching"]
    assert apart["decisions"] == 20 * len(expected) and apart["forced"] == 16 * len(expected)
    assert apart["mean"] == round((4 * 3 + 16) / 20, 4)
    # Lengths and win rates are of the finished games only.
    assert s["length"]["max"] == 4 and s["length"]["histogram"] == {"4": finished}
    assert sum(seat["wins"]["count"] for seat in s["seats"]) == finished
    assert all(seat["wins"]["of"] == finished for seat in s["seats"])
    assert s["most_frequent_state"]["visits"] <= finished  # not the loop of passes


def test_the_exit_status_says_whether_every_game_ended():
    result = CliRunner().invoke(main, ["analyze", GAME, "--games", "20", "--seed", "0", "--max-moves", "20",
                                       "--players", "first,first"])
    # `first` always adds 1: 1+1 against 1+1 is the forgotten draw, every time
    assert result.exit_code == 1
    tris = str(Path(__file__).resolve().parents[1] / "examples" / "tris.tgpl")
    assert CliRunner().invoke(main, ["analyze", tris, "--games", "5"]).exit_code == 0


def test_the_win_rate_plot_has_a_fair_share_line():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from tgpl.analysis.report import _wins_plot, fair_share

    result = CliRunner().invoke(main, [*ARGS, "--json"])
    s = json.loads(result.stdout)
    # every finished game has a sole winner: the fair share is half of them for each of two seats
    assert s["decisiveness"]["rate"] == 1.0 and fair_share(s) == 0.5
    fig, ax = plt.subplots()
    _wins_plot(ax, s)
    lines = [line for line in ax.lines if line.get_label().startswith("fair share")]
    assert len(lines) == 1 and list(lines[0].get_ydata()) == [0.5, 0.5]
    assert lines[0].get_label() == "fair share 50.0%"
    plt.close(fig)


def test_a_game_with_a_score_gets_its_score_over_time(tmp_path):
    """tests/data/lead.tgpl: every game is the same eight forced moves, scores 0-0, 1-0, 1-2, 3-2, 3-3, 3-3,
    3-4, 4-4, 4-5 (before each decision, then at the end)."""
    lead = str(Path(__file__).resolve().parent / "data" / "lead.tgpl")
    result = CliRunner().invoke(main, ["analyze", lead, "--games", "5", "--jobs", "1", "--json",
                                       "--report", str(tmp_path / "report")])
    assert result.exit_code == 0, result.output
    s = json.loads(result.stdout)
    by_move = s["score_by_move"]["by_move"]
    assert [m["means"] for m in by_move] == [[0, 0], [1, 0], [1, 2], [3, 2], [3, 3], [3, 3], [3, 4], [4, 4], [4, 5]]
    assert all(m["games"] == 5 for m in by_move)
    assert (tmp_path / "report" / "score.png").read_bytes()[:4] == b"\x89PNG"
    assert 'src="score.png"' in (tmp_path / "report" / "index.html").read_text(encoding="utf-8")


def test_a_game_without_a_score_has_no_score_plot(tmp_path):
    tris = str(Path(__file__).resolve().parents[1] / "examples" / "tris.tgpl")
    result = CliRunner().invoke(main, ["analyze", tris, "--games", "3", "--jobs", "1", "--json",
                                       "--report", str(tmp_path / "report")])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["score_by_move"] is None
    assert not (tmp_path / "report" / "score.png").exists()
