"""The compiled moves' counter ranges bounded by every case of a move's legality (issue 34).

The counters' range search joins each way that writes a counter with the rules of its move's legality
(`compiled._with_legality`). A legality with cases (an `if` in a filter) is several rules, and a firing of the
move is legal by any one of them: the way must be joined with each, and where a case says nothing of the counters
the way stays as it is. tests/data/lowering/pile.tgpl adds one or two stones where `Pile.Stones + work.Delta <= 3`
and takes one where `Pile.Stones > 0`, the case chosen by a static field (`work.Delta > 0`). The search used to
join the ways with the taking case alone (the adding case's test reads a static field, and was not taken for a
test of the counters): every way carried `Stones > 0`, so nothing was ever found written, a range too narrow,
and the translation failed its validation; a game whose playouts missed the states past the range would have
been written wrong, exit 0.
"""

from __future__ import annotations

import random
from pathlib import Path

from click.testing import CliRunner

import tgpl.lowering.compiled as compiled
from differential import Lowered, bisimulate
from test_designer_games_3 import game
from tgpl.asp.kif import to_kif
from tgpl.cli import main
from tgpl.lowering.universe import Universe
from tgpl.pipeline import lower_game
from tgpl.runtime.game import load_game
from tgpl.runtime.snapshot import snapshot
from tgpl.validation import Differential
from tgpl.verify.graph import explore
from tgpl.verify.runtime_machine import RuntimeMachine
from to_gdl_runs import rules_with_a_body, to_gdl, variant

ROOT = Path(__file__).resolve().parents[2]
PILE = ROOT / "tests" / "data" / "lowering" / "pile.tgpl"
TAKE = "            return Pile.Stones > 0;\n"


def counter_ranges(path: Path | str) -> dict[str, list[int]]:
    """The values the compiled moves' range search finds each counter written with (`num|`, `over|` rows)."""
    g = load_game(str(path))
    universe = Universe.from_snapshot(snapshot(g.initial_state(0)))
    found = compiled.CompiledGame(g.program, universe, None, None, {}).counter_ranges()
    return {rel: sorted({int(v.name) for _, v in rows}) for rel, rows in found.items()}


def test_every_case_of_the_legality_bounds_the_pile():
    """Joined with both cases, the pile is written 0..3: 1..3 by adding, 0..2 by taking (it was never written:
    every way carried the taking case's `Stones > 0`, false at the start)."""
    assert counter_ranges(PILE) == {"num|Stones": [0, 1, 2, 3], "num|Turns": [1, 2, 3, 4, 5],
                                    "over|Stones": [0, 1, 2, 3], "over|Turns": [6]}


def test_the_pile_compiled_is_the_runtimes_game():
    lw = Lowered.with_options(PILE, grounded_whole=True, moves="compiled")
    assert lw.lowered.stats["moves compiled"] == "yes"
    runtime = explore(RuntimeMachine(lw.game))
    assert runtime.complete
    assert bisimulate(lw).states == runtime.states == 23


def test_a_case_that_tests_no_counter_leaves_the_writes_as_they_are(tmp_path):
    """The taking case allowed on an empty pile (`work.Delta < 0`, a static field alone): joined with the adding
    case only, the pile would stay 0..3 while the runtime takes it below 0. The ways are left unjoined, and the
    pile, moving without bound in the relaxation, is refused at its write."""
    path = variant(tmp_path, PILE, (TAKE, "            return work.Delta < 0;\n"))
    r = to_gdl(tmp_path, path, "--moves", "compiled")
    assert r.exit_code == 2 and not r.out.exists(), r.output
    line = next(k for k, text in enumerate(path.read_text().splitlines(), 1) if "Pile.Stones += work.Delta" in text)
    assert f"pile.tgpl:{line}:13: error: not lowerable: the moves cannot be compiled: " in r.output, r.output
    said = " ".join(r.output.split())
    assert "'Stones' (-32..32 so far) not bounded by the game" in said, r.output


def test_harvest_compiled_bounds_each_plot_and_validates(tmp_path):
    """Harvest's `Tend` grows a plot where `plot.Crop + work.Delta <= 3` and raids one where `plot.Crop > 0`: each
    plot 0..3 (every way carried the raid's `Crop > 0` before, and the crops were never found to grow). The
    harvests compared at the end, `Harvest(who: 0) > Harvest(who: 1)`, are sums of the crops, evaluated by the
    range search over those ranges (`compiled._counting_functions`): the game lowers compiled (it was refused at
    that comparison) and validates by playouts to the end."""
    ranges = counter_ranges(game("harvest"))
    assert ranges["num|Crop"] == [0, 1, 2, 3] and ranges["over|Crop"] == [0, 1, 2, 3]
    kif = to_gdl(tmp_path, Path(game("harvest")), "--moves", "compiled").written()
    validated = kif.splitlines()[1]
    assert validated.startswith("; validated: ") and "to the end of the game" in validated, validated


def test_dobutsu_guarded_compiled_lowers_smaller_and_plays_as_the_runtime():
    """dobutsu_guarded.tgpl's drop filter `Held(kind: kind) > 0` tests the result of a function that reads the
    hands' counters: the range search evaluates it over the counters' ranges, and the moves compile (they were
    refused at the filter), to fewer rules than the moves spelled out (`auto`: 1,051 rules with a body). Played
    beside the runtime: a few seeded playouts, each to the end of the game."""
    g = load_game(game("dobutsu_guarded"))
    lowered = lower_game(g, moves="compiled")
    assert lowered.stats["moves compiled"] == "yes"
    assert rules_with_a_body(to_kif(lowered.program)) < 1_051
    diff = Differential(g, lowered)
    for play in diff.playouts([random.Random(seed) for seed in range(4)], 80):
        assert play.mismatch is None, "; ".join(play.mismatch.lines("the GDL"))
        assert play.ended


def test_the_dry_run_says_what_to_gdl_does():
    """`--dry-run --moves compiled` asks the rules `tgpl to-gdl` relaxes (`CompiledGame.relaxed_input`, the same
    options): it says dobutsu_guarded lowers, as to-gdl lowers it (above)."""
    r = CliRunner().invoke(main, ["to-gdl", "--dry-run", "--moves", "compiled", game("dobutsu_guarded")])
    assert r.exit_code == 0 and "dobutsu_guarded.tgpl: lowers; its moves compiled once" in r.output, r.output
