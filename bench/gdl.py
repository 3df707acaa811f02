"""The lowering against hand-written GDL: size, ground size and playout speed, as ratios.

    python bench/gdl.py [--seconds 3] [--only tris,connect4,reversi,fiveinarow,verify] [--timeout 900] [GAME.kif ...]

Every figure is measured in one run, beside a reference measured in the same
run: bench/playouts.py's hand-written Python tic-tac-toe (random playouts/s).
Timings on a shared machine vary, so playouts are measured in turns (the
reference, the lowered game, the hand-written one and the runtime, --seconds
each in all, in six turns), and the subprocesses' times are also given in
reference units: their CPU seconds x the reference's playouts per CPU second,
the number of reference playouts that fit in that time.

Parts (`--only` picks some; all by default):

- `tris`, `connect4`, `reversi`: the GDL that `tgpl to-gdl` emits for
  examples/tris.tgpl (examples/connect4.tgpl, examples/reversi.tgpl), lowered in
  this run, against the hand-written examples/gdl/tictactoe.kif
  (examples/gdl/connect4.kif, examples/gdl/reversi.kif): rules (with a body)
  and facts, relations, ground size (tgpl.asp.ground_size: the game's rules
  grounded with `true`/`does` externals over base/input, as the reasoner grounds
  them, counted by a ground program observer: ground rules with a body and
  ground facts), and random playouts/s on the project's GDL reasoner
  (tgpl.asp.reasoner, moves drawn with the runtime's PCG32 from an initial
  state made once), each with the ratio lowered / hand-written; then the
  runtime's own playouts/s of the .tgpl game. `reversi` takes about seven
  minutes on 2 shared cores under load (lowered: 197,467 ground rules,
  grounded once, a random playout in tens of seconds).
- `fiveinarow`: `tgpl to-gdl examples/fiveinarow.tgpl` (validated, then with `--no-validate`) and
  `tgpl query examples/fiveinarow.tgpl QUERY --horizon 4`, each a subprocess
  with its wall time, CPU time and peak memory (max RSS, from os.wait4's
  resource usage of that child), killed after --timeout seconds (then said so);
  the emitted rules are counted and grounded as above (there is no
  hand-written five in a row to divide by). Expect minutes.
- `verify`: `tgpl verify examples/connect4.tgpl --horizon 12`, a subprocess,
  measured the same way.
- `examples`: every example that lowers (EXAMPLE_GAMES), in this process: the
  lowering's CPU seconds, rules with a body and facts, the reasoner's mode
  (grounded once or per state), and its random steps/s (moves drawn as above,
  a playout that ends started again: draughts' playouts are long), measured in
  turns with the reference's and, where there is one, the hand-written GDL's,
  each as a ratio to the reference (and lowered / hand-written). No ground
  size: grounding emitted Reversi whole takes minutes.

Any other KIF files given are measured like the hand-written games.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

from playouts import EXAMPLES, ROOT, rate, reference_playout  # noqa: E402

from tgpl.asp.ground_size import ground_size  # noqa: E402
from tgpl.asp.kif import read_kif_file  # noqa: E402
from tgpl.asp.reasoner import GdlGame, read_gdl  # noqa: E402
from tgpl.lowering.ir import Program  # noqa: E402
from tgpl.pipeline import lower_game  # noqa: E402
from tgpl.runtime import load_game  # noqa: E402
from tgpl.runtime.rng import Pcg32  # noqa: E402

PARTS = ("tris", "connect4", "reversi", "fiveinarow", "verify", "examples")
EXAMPLE_GAMES = ("tris", "connect4", "cards", "graph", "hex", "fiveinarow", "draughts", "pig", "race", "reversi")
HAND_WRITTEN = {"tris": "tictactoe.kif", "connect4": "connect4.kif", "reversi": "reversi.kif"}
PAIRS = {"tris": ("tris.tgpl", "tictactoe.kif"), "connect4": ("connect4.tgpl", "connect4.kif"),
         "reversi": ("reversi.tgpl", "reversi.kif")}
FIVE_QUERY = "GameState.Claimed == 4 && GameState.Board.At(c: 7, r: 7).Stone == 1"
VERIFY_HORIZON = 12


def playout(start, rng) -> list:
    """A random playout from `start`; runtime and GDL states share this interface."""
    state = start
    while not state.is_terminal:
        moves = state.legal_moves()
        state = state.apply(moves[rng.below(len(moves))])
    return state.goals


@dataclass
class Figures:
    """What one GDL game measures: its size, its ground size and its speed on the reasoner."""

    rules: int
    facts: int
    relations: int
    ground_rules: int
    ground_facts: int
    playouts: float  # random playouts/s on the GDL reasoner
    ready: float  # seconds to lower or read the game, plus grounding it for the reasoner

    ROWS = (("rules (with a body)", "rules", ",d"), ("facts", "facts", ",d"), ("relations", "relations", ",d"),
            ("ground rules (with a body)", "ground_rules", ",d"), ("ground facts", "ground_facts", ",d"),
            ("playouts/s (GDL reasoner)", "playouts", ",.1f"), ("lowering or reading + grounding, s", "ready", ".2f"))


def interleaved_rates(playouts: dict[str, Callable], seconds: float, rounds: int = 6) -> dict[str, float]:
    """Playouts/s of each `playouts[name](rng)`, measured in turns of seconds/rounds each, so that a
    change of the machine's load during the run weighs on every one alike (each has its own PCG32)."""
    rngs = {name: Pcg32(7) for name in playouts}
    counts = dict.fromkeys(playouts, 0)
    spent = dict.fromkeys(playouts, 0.0)
    for _ in range(rounds):
        for name, fn in playouts.items():
            start = time.perf_counter()
            while True:
                fn(rngs[name])
                counts[name] += 1
                elapsed = time.perf_counter() - start
                if elapsed >= seconds / rounds:
                    break
            spent[name] += elapsed
    return {name: counts[name] / spent[name] for name in playouts}


def prepare(program: Program, started: float) -> tuple[GdlGame, float]:
    """The game on the reasoner, and the seconds since `started` (its reading or lowering began)."""
    game = GdlGame(program)
    return game, time.perf_counter() - started


def figures(program: Program, playouts: float, ready: float) -> Figures:
    size = ground_size(program)
    body = sum(1 for r in program.rules if not r.is_fact)
    return Figures(body, len(program.rules) - body, len(program.relations()), size.rules, size.facts, playouts, ready)


def from_state(start) -> Callable:
    return lambda rng: playout(start, rng)


def pair(name: str, seconds: float, relations: bool) -> None:
    """A lowered game against its hand-written GDL, their playouts interleaved with the reference's."""
    tgpl_name, kif_name = PAIRS[name]
    started = time.perf_counter()
    runtime_game = load_game(EXAMPLES / tgpl_name)
    lowered_program = lower_game(runtime_game, relations=relations).program
    lowered, lowered_ready = prepare(lowered_program, started)
    started = time.perf_counter()
    written_program = read_gdl(EXAMPLES / "gdl" / kif_name)[0]
    written, written_ready = prepare(written_program, started)
    speed = interleaved_rates({
        "reference": lambda rng: reference_playout(rng),
        "lowered": from_state(lowered.initial_state()),
        "written": from_state(written.initial_state()),
        "runtime": from_state(runtime_game.initial_state(0)),
    }, seconds * 4)
    a = figures(lowered_program, speed["lowered"], lowered_ready)
    b = figures(written_program, speed["written"], written_ready)
    ref = speed["reference"]
    print(f"\n{name}: lowered examples/{tgpl_name} vs hand-written examples/gdl/{kif_name}")
    print(f"{'figure':<36}{'lowered':>12}{'hand-written':>14}{'lowered/hand':>14}")
    for label, attr, fmt in Figures.ROWS:
        x, y = getattr(a, attr), getattr(b, attr)
        print(f"{label:<36}{x:>12{fmt}}{y:>14{fmt}}{x / y:>14.2f}")
    print(f"{'playouts/s / reference':<36}{a.playouts / ref:>12.5f}{b.playouts / ref:>14.5f}")
    r = speed["runtime"]
    print(f"runtime {tgpl_name}: {r:,.1f} playouts/s, {r / ref:.5f} of reference "
          f"(python tic-tac-toe, {ref:,.0f} playouts/s in these turns)")


def other_kif(path: Path, seconds: float) -> None:
    started = time.perf_counter()
    program = read_gdl(path)[0]
    game, ready = prepare(program, started)
    speed = interleaved_rates({"reference": lambda rng: reference_playout(rng),
                               "game": from_state(game.initial_state())}, seconds * 2)
    f = figures(program, speed["game"], ready)
    print(f"\n{path}")
    for label, attr, fmt in Figures.ROWS:
        print(f"{label:<36}{getattr(f, attr):>12{fmt}}")
    print(f"{'playouts/s / reference':<36}{f.playouts / speed['reference']:>12.5f}")


def stepper(start) -> Callable:
    """One random step a call from a playout kept between calls, started again from `start` when it ends."""
    at = [start]

    def step(rng) -> None:
        state = at[0]
        if state.is_terminal:
            state = start
        moves = state.legal_moves()
        at[0] = state.apply(moves[rng.below(len(moves))])

    return step


def examples(seconds: float, names: list[str]) -> None:
    """The `examples` part: per example, lowering time and size, and reasoner steps/s against the reference."""
    print(f"\nexamples on the GDL reasoner; steps/s as a ratio to the reference (python tic-tac-toe playouts/s)")
    print(f"{'game':<12}{'lower s':>9}{'rules':>8}{'facts':>8}{'mode':>11}{'steps/ref':>11}{'hand/ref':>10}"
          f"{'low/hand':>10}")
    for name in names:
        runtime_game = load_game(EXAMPLES / f"{name}.tgpl")
        cpu = time.process_time()
        program = lower_game(runtime_game).program
        lowering = time.process_time() - cpu
        game = GdlGame(program)
        steps = {"reference": lambda rng: reference_playout(rng), "lowered": stepper(game.initial_state())}
        if name in HAND_WRITTEN:
            steps["written"] = stepper(GdlGame(read_gdl(EXAMPLES / "gdl" / HAND_WRITTEN[name])[0]).initial_state())
        speed = interleaved_rates(steps, seconds * len(steps))
        ref = speed["reference"]
        body = sum(1 for r in program.rules if not r.is_fact)
        hand = f"{speed['written'] / ref:>10.5f}{speed['lowered'] / speed['written']:>10.2f}" if "written" in speed else ""
        print(f"{name:<12}{lowering:>9.2f}{body:>8,}{len(program.rules) - body:>8,}{game.mode:>11}"
              f"{speed['lowered'] / ref:>11.5f}{hand}", flush=True)


# ------------------------------------------------------------ subprocesses
@dataclass
class Run:
    wall: float
    cpu: float
    max_rss_mb: float
    status: int | None  # exit status; None when killed at the timeout
    output: str  # what it printed (its errors, if it could not do its job)
    stderr: str  # its standard error whatever the status (progress, the validation's line)


def run_tgpl(args: list[str], timeout: float) -> Run:
    """`tgpl ARGS` from this checkout in a child process: its times and peak memory (os.wait4's rusage)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    command = [sys.executable, "-m", "tgpl", *args]  # as the installed `tgpl` runs (tgpl.cli.run)
    with tempfile.TemporaryFile("w+", encoding="utf-8") as out, tempfile.TemporaryFile("w+", encoding="utf-8") as err:
        start = time.perf_counter()
        child = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=err, start_new_session=True)
        killed = False
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - start > timeout and not killed:
                os.killpg(child.pid, signal.SIGKILL)
                killed = True
            time.sleep(0.05)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)  # reaped by wait4: Popen must not wait again
        out.seek(0)
        err.seek(0)
        said = err.read()
        shown = out.read() if child.returncode in (0, 1) else said  # 2: the command failed, say why
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024,
               None if killed else child.returncode, shown, said)


def report(label: str, run: Run, ref_cpu: float, timeout: float) -> None:
    outcome = f"killed after {timeout:.0f} s" if run.status is None else f"exit {run.status}"
    print(f"{label:<36}{run.wall:>9.1f}{run.cpu:>9.1f}{run.max_rss_mb:>9.0f}{run.cpu * ref_cpu:>14,.0f}   {outcome}")


def subprocess_header(title: str) -> None:
    print(f"\n{title}; ref units = cpu s x reference playouts per cpu second")
    print(f"{'command':<36}{'wall s':>9}{'cpu s':>9}{'RSS MB':>9}{'ref units':>14}")


def reference_rates(seconds: float) -> tuple[float, float]:
    """The reference's playouts per wall second and per CPU second of this process."""
    cpu = time.process_time()
    wall = time.perf_counter()
    per_wall = rate(lambda rng, n: reference_playout(rng), seconds)
    playouts = per_wall * (time.perf_counter() - wall)
    return per_wall, playouts / (time.process_time() - cpu)


def fiveinarow(ref_cpu: float, timeout: float, flags: list[str]) -> None:
    subprocess_header("fiveinarow: examples/fiveinarow.tgpl (15x15)")
    with tempfile.TemporaryDirectory() as folder:
        kif = Path(folder) / "fiveinarow.kif"
        run = run_tgpl(["to-gdl", "examples/fiveinarow.tgpl", "-o", str(kif)] + flags, timeout)
        report("tgpl to-gdl", run, ref_cpu, timeout)
        if run.status == 0:
            program, _ = read_kif_file(kif)  # to-gdl has validated it
            size = ground_size(program)
            body = sum(1 for r in program.rules if not r.is_fact)
            print(f"    {body:,} rules with a body, {len(program.rules) - body:,} facts, "
                  f"{len(program.relations()):,} relations; ground: {size.rules:,} rules with a body, "
                  f"{size.facts:,} facts, {size.externals:,} externals")
        else:
            print("".join(f"    {line}\n" for line in run.output.splitlines()[-3:]), end="")
        run = run_tgpl(["to-gdl", "examples/fiveinarow.tgpl", "--no-validate", "-o", str(kif)] + flags, timeout)
        report("tgpl to-gdl --no-validate", run, ref_cpu, timeout)
    run = run_tgpl(["query", "examples/fiveinarow.tgpl", FIVE_QUERY, "--horizon", "4"] + flags, timeout)
    report("tgpl query QUERY --horizon 4", run, ref_cpu, timeout)
    print(f"    QUERY: {FIVE_QUERY}")
    print("".join(f"    {line}\n" for line in run.output.splitlines()[:1]), end="")


def verify(ref_cpu: float, timeout: float) -> None:
    subprocess_header("verify: bounded verify of examples/connect4.tgpl")
    run = run_tgpl(["verify", "examples/connect4.tgpl", "--horizon", str(VERIFY_HORIZON)], timeout)
    report(f"tgpl verify --horizon {VERIFY_HORIZON}", run, ref_cpu, timeout)
    print("".join(f"    {line}\n" for line in run.output.splitlines()[:1]), end="")


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--seconds", type=float, default=3.0, help="time per playout measurement")
    args.add_argument("--only", default=",".join(PARTS), help=f"comma-separated parts among {','.join(PARTS)}")
    args.add_argument("--timeout", type=float, default=900.0, help="seconds before a subprocess is killed")
    args.add_argument("--relations", action="store_true",
                      help="lower with --functions-as-relations (functions that read the state as rules with variables)")
    args.add_argument("--examples", default=",".join(EXAMPLE_GAMES),
                      help="comma-separated examples the `examples` part measures")
    args.add_argument("games", nargs="*", type=Path, help="more GDL games to measure")
    opts = args.parse_args()
    parts = [p.strip() for p in opts.only.split(",") if p.strip()]
    unknown = sorted(set(parts) - set(PARTS))
    if unknown:
        args.error(f"unknown part {', '.join(unknown)}; the parts are {', '.join(PARTS)}")

    ref, ref_cpu = reference_rates(opts.seconds)
    print(f"reference: python tic-tac-toe, {ref:,.0f} playouts/s ({ref_cpu:,.0f} per cpu second)")
    for name in PAIRS:
        if name in parts:
            pair(name, opts.seconds, opts.relations)
    for path in opts.games:
        other_kif(path, opts.seconds)
    if "fiveinarow" in parts:
        fiveinarow(ref_cpu, opts.timeout, ["--functions-as-relations"] if opts.relations else [])
    if "verify" in parts:
        verify(ref_cpu, opts.timeout)
    if "examples" in parts:
        examples(opts.seconds, [name.strip() for name in opts.examples.split(",") if name.strip()])


if __name__ == "__main__":
    main()
