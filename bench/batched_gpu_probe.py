"""One configuration of the batched engine's JAX backend on whatever device JAX finds, timed in phases.

    python bench/batched_gpu_probe.py GAME LAYOUT COLUMNS[,COLUMNS...] [--seconds S]

For each column count C: the first run of C games (the loop compiled for that shape, then played), then
runs of C games in C columns for S seconds: playouts per second. Each line is printed as soon as it is
known, so a run cut short by `timeout` still says how far it got (bench/batched_gpu.sh runs it so)."""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import jax  # noqa: E402

import tgpl.batched as batched  # noqa: E402


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("game")
    args.add_argument("layout")
    args.add_argument("columns")
    args.add_argument("--seconds", type=float, default=3.0)
    opts = args.parse_args()
    logging.basicConfig(level=logging.WARNING, format="    %(message)s")
    for handler in logging.getLogger().handlers:  # only the playout loop's XLA compilations
        handler.addFilter(lambda r: "XLA compilation of jit(_playout_loop)" in r.getMessage())
    jax.config.update("jax_log_compiles", True)
    began = time.perf_counter()
    env = batched.load(ROOT / "examples" / f"{opts.game}.tgpl", backend="jax", layout=opts.layout)
    print(f"{opts.game} {opts.layout} on {jax.devices()[0]}: loaded in {time.perf_counter() - began:.1f} s",
          flush=True)
    for columns in [int(c) for c in opts.columns.split(",")]:
        began = time.perf_counter()
        env.random_playouts(0, columns, chunk=columns)
        print(f"  C={columns:,}: first run (compiled, played) {time.perf_counter() - began:.1f} s", flush=True)
        games, seed, began = 0, 1, time.perf_counter()
        while time.perf_counter() - began < opts.seconds:
            result = env.random_playouts(seed, columns, chunk=columns)
            games += int(result.finished.sum())
            seed += 1
        elapsed = time.perf_counter() - began
        print(f"  C={columns:,}: {games / elapsed:,.0f} playouts/s ({seed - 1} runs in {elapsed:.1f} s)",
              flush=True)


if __name__ == "__main__":
    main()
