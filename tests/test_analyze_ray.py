"""`tgpl analyze --ray`: the same figures, byte for byte, as one process; a clear error without Ray.

Ray is in the `dev` extra, so these run wherever the README's test command does; they skip only
where Ray cannot be imported (an install without the extra).
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from tgpl.analysis.figures import run_games, summarise
from tgpl.cli import main
from tgpl.runtime import load_game

ROOT = Path(__file__).resolve().parents[1]
TRIS = str(ROOT / "examples" / "tris.tgpl")
CARDS = str(ROOT / "examples" / "cards.tgpl")  # imports lib/deck.tgpl: the import travels too

# A runtime error in game 2 of every run: its message names the file, relative to the working folder.
FAILING = textwrap.dedent("""
    game "bad";
    players 2;
    global class G
    {
        number N = 0;
        action Go { trigger PlayerChoiceEvent { return true; } effect { G.N += 1; if (G.N == 3) { List<number> xs = {}; G.N = xs[3]; } turn.pass(); } }
    }
    turn T { phase P { } default { return player.active() + 1; } }
    setup { turn.use("T"); turn.pass(0, "P"); }
    """)


@pytest.fixture(scope="module")
def ray_instance():
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install -e '.[dev]' installs it)")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def _figures(path: str, specs: list[str], games: int, **how) -> str:
    game = load_game(path)
    played = run_games(game, specs, range(3, 3 + games), max_moves=10_000, **how)
    return json.dumps(summarise(game, path, specs, 3, played), indent=1, sort_keys=True)


def test_ray_tasks_give_the_figures_of_one_process(ray_instance, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("bad.tgpl").write_text(FAILING, encoding="utf-8")
    for path, specs, games in [(TRIS, ["random", "mcts:8"], 12), (CARDS, ["random", "random"], 40),
                               ("bad.tgpl", ["random", "random"], 4)]:
        one = _figures(path, specs, games, jobs=1)
        assert _figures(path, specs, games, jobs=1, ray_workers=2) == one
    errors = json.loads(one)["errors"]
    assert len(errors) == 4 and errors[0]["message"].startswith("bad.tgpl:")


def test_ray_local_from_the_command_line(tmp_path):
    pytest.importorskip("ray", reason="Ray is not installed (pip install -e '.[dev]' installs it)")
    import ray

    if ray.is_initialized():  # the fixture's instance, if this module's tests ran in one process
        ray.shutdown()
    args = ["analyze", CARDS, "--games", "16", "--seed", "2", "--json"]
    one = CliRunner().invoke(main, [*args, "--jobs", "1"])
    on_ray = CliRunner().invoke(main, [*args, "--ray", "local", "--jobs", "2"])
    assert one.exit_code == on_ray.exit_code == 0, on_ray.output
    assert on_ray.stdout == one.stdout
    assert "on Ray, 2 CPUs" in on_ray.stderr
    assert not ray.is_initialized()  # the instance it started is gone


def test_without_ray_installed_ray_is_a_usage_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails as on an install without it
    result = CliRunner().invoke(main, ["analyze", TRIS, "--games", "2", "--ray", "local"])
    assert result.exit_code == 2
    assert "Invalid value for --ray: Ray is not installed here: pip install 'tgpl[ray]'" in result.output
    assert "Traceback" not in result.output


def test_ray_usage_errors_exit_2():
    pytest.importorskip("ray", reason="Ray is not installed (pip install -e '.[dev]' installs it)")
    runner = CliRunner()
    refused = runner.invoke(main, ["analyze", TRIS, "--games", "2", "--ray", "127.0.0.1:1"])
    assert refused.exit_code == 2 and "nothing answers at 127.0.0.1:1" in refused.stderr
    malformed = runner.invoke(main, ["analyze", TRIS, "--games", "2", "--ray", "nowhere"])
    assert malformed.exit_code == 2 and "is not local, auto, host:port" in malformed.stderr
    both = runner.invoke(main, ["analyze", TRIS, "--games", "2", "--ray", "auto", "--jobs", "2"])
    assert both.exit_code == 2 and "--jobs" in both.output


def test_ray_tasks_are_waited_for_under_the_limits_and_cancelled_past_them(ray_instance):
    """Games that never end (tests/data/forgotten_draw.tgpl, no --max-moves to speak of) on Ray: the wait stops
    at the deadline of a clock that advances per reading, and the tasks are cancelled (the instance's CPUs free
    again for the next test's tasks, which end)."""
    from tgpl.limits import LimitReached, Limits

    ticks = iter(range(10**6))
    game = load_game(str(ROOT / "tests" / "data" / "forgotten_draw.tgpl"))
    with pytest.raises(LimitReached) as e:
        run_games(game, ["random", "random"], range(20), None, 10**9, ray_workers=2,
                  limits=Limits(max_seconds=5, clock=lambda: float(next(ticks))))
    assert e.value.what == "--max-seconds" and next(ticks) <= 8
    assert _figures(TRIS, ["random", "random"], 6, jobs=1, ray_workers=2) == _figures(TRIS, ["random", "random"], 6,
                                                                                      jobs=1)
