"""Random playouts per second on the batched engine, beside the tgpl runtime (and pgx) in the same run.

    python bench/batched.py [--only tris,connect4] [--seconds 2] [--rounds 3] [--batch 4096,16384,65536] [--jobs 1,2]
    python bench/batched.py --pgx-python /path/to/venv/bin/python     # pgx measured too (pgx, jax installed)
    python bench/batched.py --only chess,draughts,hex,fiveinarow --sizes-only   # built or refused, with sizes
    python bench/batched.py --backends numpy,jax [--jax-layouts packed,bool]     # the jax backend too (jax installed)

For each game (`examples/<name>.tgpl`, lowered as `tgpl to-gdl` lowers it):
- the network: time to lower, time to build the network from the GDL (clingo's grounding included), nodes,
  components, levels, and the memory a game takes in a batch (one bit a node, packed);
- the batched engine: `env.random_playouts(seed, B, jobs=J)` for each batch size B, each layout (packed
  uint64 bits, uint8 bytes) and each J (processes sharing the batch's chunks), games counted over
  `--seconds`, per second of the clock and (J = 1) per CPU second of the process, the figure a loaded
  machine disturbs least;
- with `--backends numpy,jax`, the jax backend (tgpl.batched.jax_kernel) for each batch size and JAX layout
  (packed uint32 words, booleans), each batch one jitted loop in min(B, --jax-columns) columns (a column takes the
  next game when its own is over), compiled before it is measured,
  on whatever device JAX finds (a GPU when jax[cuda12] is installed and one is there, else the CPU; its
  per-CPU-second figure counts XLA's threads);
- the runtime: random playouts through `legal_moves()`/`apply()`, moves drawn with the runtime's PCG32 (as
  bench/playouts.py plays them);
- pgx (with `--pgx-python`): `pgx.make("tic_tac_toe" / "connect_four")`, `jax.vmap`ed init and step under
  `jax.jit`, random legal actions, B = 32,768 games at once on the CPU, in a subprocess of that Python.
Everything is measured `--rounds` times in turn (the runtime, then the batched engine's configurations) and
each rate is the best of its rounds: on a shared machine a minute's load slows whichever runs then. Only the
ratios (batched / runtime, batched / pgx) mean much; the figures are recorded in docs/batched.md.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's tgpl, not whichever one is installed

import tgpl.batched as batched  # noqa: E402
from tgpl.batched.kernel import LAYOUTS  # noqa: E402
from tgpl.batched.playouts import CHUNK  # noqa: E402
from tgpl.runtime import load_game  # noqa: E402
from tgpl.runtime.rng import Pcg32  # noqa: E402

EXAMPLES = ROOT / "examples"
PGX_NAMES = {"tris": "tic_tac_toe", "connect4": "connect_four"}

PGX_SCRIPT = r"""
import json, sys, time
import jax, jax.numpy as jnp
import pgx
name, batch, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
env = pgx.make(name)
init, step = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))

def act(key, mask):
    logits = jnp.where(mask, 0.0, -jnp.inf)
    return jax.random.categorical(key, logits, axis=-1)

act = jax.jit(act)

def playouts(key):
    key, sub = jax.random.split(key)
    state = init(jax.random.split(sub, batch))
    while not bool(state.terminated.all()):
        key, sub = jax.random.split(key)
        state = step(state, act(sub, state.legal_action_mask))
    return key

key = playouts(jax.random.PRNGKey(0))  # compiled here, not measured
games, began = 0, time.perf_counter()
while time.perf_counter() - began < seconds:
    key = playouts(key)
    games += batch
print(json.dumps({"rate": games / (time.perf_counter() - began), "jax": jax.__version__,
                  "pgx": getattr(pgx, "__version__", "?"), "device": str(jax.devices()[0])}))
"""


def runtime_rate(path: Path, seconds: float) -> tuple[float, float]:
    """Random playouts a second and a CPU second on the tgpl runtime (the initial state made once)."""
    game = load_game(path)
    start = game.initial_state(0)
    rng = Pcg32(7)
    n, began, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - began < seconds:
        state = start
        while not state.is_terminal:
            moves = state.legal_moves()
            state = state.apply(moves[rng.below(len(moves))])
        n += 1
    return n / (time.perf_counter() - began), n / max(time.process_time() - cpu, 1e-9)


def batched_rate(env: batched.BatchedEnv, batch: int, jobs: int, seconds: float,
                 columns: int | None = None) -> tuple[float, float]:
    """Random playouts a second and a CPU second (this process's: jobs 1 only) on the batched engine, whole
    batches counted. On the jax backend a batch is one jitted loop in min(B, columns) columns."""
    n, began, cpu, seed = 0, time.perf_counter(), time.process_time(), 0
    while True:
        result = env.random_playouts(seed, batch, jobs=jobs, chunk=columns if env.backend == "jax" else None)
        n += int(result.finished.sum())
        seed += 1
        if time.perf_counter() - began >= seconds:
            return n / (time.perf_counter() - began), n / max(time.process_time() - cpu, 1e-9)


def _jax_device() -> str:
    import jax

    return str(jax.devices()[0])


def pgx_rate(python: str, name: str, batch: int, seconds: float) -> dict | str:
    try:
        done = subprocess.run([python, "-c", PGX_SCRIPT, name, str(batch), str(seconds)], capture_output=True,
                              text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"not measured: {e}"
    if done.returncode != 0:
        return "not measured: " + (done.stderr.strip().splitlines() or ["?"])[-1]
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--only", default="tris,connect4", help="comma-separated examples (examples/NAME.tgpl)")
    args.add_argument("--seconds", type=float, default=2.0, help="seconds each measure counts playouts")
    args.add_argument("--rounds", type=int, default=3, help="measures of each configuration; the best is kept")
    args.add_argument("--batch", default="4096,16384,65536", help="batch sizes to measure")
    args.add_argument("--layouts", default=",".join(LAYOUTS), help="the numpy backend's: packed,bytes")
    args.add_argument("--backends", default="numpy", help="numpy,jax (jax: the optional 'gpu' extra)")
    args.add_argument("--jax-layouts", default="packed", help="the jax backend's: packed,bool")
    args.add_argument("--jax-columns", type=int, default=None, help="the jax backend's columns (games played "
                      "at once) [default: tgpl.batched.jax_playouts.default_columns(), 4,096 on the CPU]")
    args.add_argument("--jobs", default="1,2", help="processes sharing a batch's chunks (more than 1: batches "
                      f"over {CHUNK:,} games only)")
    args.add_argument("--pgx-python", help="a Python with pgx and jax installed: pgx measured too")
    args.add_argument("--pgx-batch", type=int, default=32768)
    args.add_argument("--sizes-only", action="store_true", help="build the networks, measure no playouts")
    opts = args.parse_args()
    batches = [int(b) for b in opts.batch.split(",")]
    layouts = [x for x in opts.layouts.split(",") if x]
    for name in [n.strip() for n in opts.only.split(",") if n.strip()]:
        path = EXAMPLES / f"{name}.tgpl"
        print(f"\n{name} ({path.relative_to(ROOT)})")
        began = time.perf_counter()
        try:
            program = batched.gdl_program(path)
        except batched.BatchedLoadError as e:
            print(f"  not lowered: {str(e).splitlines()[0]}")
            continue
        lowered = time.perf_counter() - began
        began = time.perf_counter()
        try:
            env = batched.from_program(program, path=str(path))
        except batched.BatchedLoadError as e:
            print(f"  lowered in {lowered:.1f} s; refused: {str(e).splitlines()[0]}")
            continue
        built = time.perf_counter() - began
        net = env.network
        print(f"  lowered in {lowered:.2f} s, network built in {built:.2f} s: {net.nodes:,} nodes, "
              f"{net.components:,} components, {len(net.state_levels)}+{len(net.move_levels)} levels, "
              f"{(net.nodes + 7) // 8:,} bytes a game (packed)")
        if opts.sizes_only:
            continue
        jobs = [int(j) for j in opts.jobs.split(",")]
        backends = [x for x in opts.backends.split(",") if x]
        configs = [("numpy", layout, b, j) for layout in layouts for b in batches for j in jobs
                   if "numpy" in backends and (j == 1 or b > CHUNK)]
        envs = {("numpy", layout): batched.BatchedEnv(net, layout, str(path)) for layout in layouts}
        if "jax" in backends:
            for layout in [x for x in opts.jax_layouts.split(",") if x]:
                envs["jax", layout] = env = batched.BatchedEnv(net, layout, str(path), "jax")
                for b in batches:
                    began = time.perf_counter()
                    env.random_playouts(0, b, chunk=opts.jax_columns)  # compiled here, not measured
                    print(f"  jax, {layout}, B={b:,}: compiled and played once in {time.perf_counter() - began:.1f} s")
                    configs.append(("jax", layout, b, 1))
        best: dict = {}
        cpu: dict = {}
        for _ in range(opts.rounds):
            wall, per_cpu = runtime_rate(path, opts.seconds)
            best["runtime"], cpu["runtime"] = max(best.get("runtime", 0.0), wall), max(cpu.get("runtime", 0.0), per_cpu)
            for config in configs:
                wall, per_cpu = batched_rate(envs[config[:2]], config[2], config[3], opts.seconds, opts.jax_columns)
                best[config], cpu[config] = max(best.get(config, 0.0), wall), max(cpu.get(config, 0.0), per_cpu)
        runtime = best["runtime"]
        print(f"  {'':<40}{'playouts/s':>12}{'x runtime':>11}{'per CPU s':>12}{'x runtime':>11}")
        print(f"  {'runtime (one game at a time)':<40}{runtime:>12,.0f}{'':>11}{cpu['runtime']:>12,.0f}")
        for config in configs:
            backend, layout, b, j = config
            label = f"{backend}, {layout}, B={b:,}" + (f", jobs {j}" if backend == "numpy" else "")
            per_cpu = f"{cpu[config]:>12,.0f}{cpu[config] / cpu['runtime']:>10,.0f}x" if j == 1 else ""
            print(f"  {label:<40}{best[config]:>12,.0f}{best[config] / runtime:>10,.0f}x{per_cpu}")
        top = max(configs, key=lambda c: best[c])
        for backend in ("numpy", "jax"):
            mine = [c for c in configs if c[0] == backend]
            if mine:
                b_top = max(mine, key=lambda c: best[c])
                c_top = max((c for c in mine if c[3] == 1), key=lambda c: cpu[c])
                print(f"  best {backend}: {best[b_top]:,.0f}/s ({best[b_top] / runtime:,.0f}x runtime; {b_top[1]}, "
                      f"B={b_top[2]:,}), per CPU s {cpu[c_top]:,.0f} ({cpu[c_top] / cpu['runtime']:,.0f}x)")
        if "jax" in backends and "numpy" in backends:
            j_top = max((c for c in configs if c[0] == "jax"), key=lambda c: best[c])
            n_top = max((c for c in configs if c[0] == "numpy"), key=lambda c: best[c])
            print(f"  jax best / numpy best: {best[j_top] / best[n_top]:.2f} on the clock, "
                  f"{max(cpu[c] for c in configs if c[0] == 'jax') / max(cpu[c] for c in configs if c[0] == 'numpy' and c[3] == 1):.2f}"
                  f" per CPU second (device: {_jax_device()})")
        if opts.pgx_python and name in PGX_NAMES:
            measured = pgx_rate(opts.pgx_python, PGX_NAMES[name], opts.pgx_batch, opts.seconds * opts.rounds)
            if isinstance(measured, str):
                print(f"  pgx: {measured}")
            else:
                label = f"pgx {measured['pgx']}, B={opts.pgx_batch:,}"
                print(f"  {label:<36}{measured['rate']:>14,.0f} playouts/s"
                      f"   (jax {measured['jax']}, {measured['device']}); batched best / pgx = "
                      f"{best[top] / measured['rate']:.2f}")


if __name__ == "__main__":
    main()
