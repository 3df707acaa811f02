"""The dry run against the lowering itself: `tgpl to-gdl --dry-run GAME` beside `tgpl to-gdl --no-validate GAME`.

    python bench/lowerable.py [GAME ...] [--timeout S] [--json]

For every game (default: examples/, examples/chess and examples/citadels, tests/data/lowering), both commands
run as subprocesses in turn, as the installed `tgpl` runs (`python -m tgpl`), on the same machine in the same
run: their wall and CPU times, the ratios (dry run / lowering: what the dry run saves; on a loaded machine the
CPU ratio is the one to read), and whether their verdicts
agree (the dry run's exit status 0/1 against the lowering's 0/2; an undecided dry run, status 2, agrees with
nothing and is counted apart). A lowering past `--timeout` seconds (default 600) is stopped and counted as
such. Times vary with the machine's load; the ratios, taken in the same run, are the figure to read.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def games() -> list[Path]:
    found = sorted((ROOT / "examples").glob("*.tgpl"))
    found += [ROOT / "examples" / "chess" / "chess.tgpl", ROOT / "examples" / "citadels" / "citadels.tgpl"]
    found += sorted((ROOT / "tests" / "data" / "lowering").glob("*.tgpl"))
    return found


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed(args: list[str], timeout: float) -> tuple[int | None, float, float, str]:
    """(exit status or None past the timeout, wall seconds, CPU seconds, the first line of stderr). The CPU time
    is the figure to read on a loaded machine: the wall time there is mostly waiting."""
    start, cpu = time.perf_counter(), _cpu()
    try:
        done = subprocess.run([sys.executable, "-m", "tgpl", *args], cwd=ROOT, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, time.perf_counter() - start, _cpu() - cpu, ""
    first = next((line for line in done.stderr.splitlines() if "error" in line), "")
    return done.returncode, time.perf_counter() - start, _cpu() - cpu, first


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", type=Path)
    ap.add_argument("--timeout", type=float, default=600.0)
    ap.add_argument("--json", action="store_true")
    opts = ap.parse_args()
    rows = []
    for game in opts.games or games():
        rel = str(game.resolve().relative_to(ROOT))
        dry, dry_s, dry_cpu, dry_err = timed(["to-gdl", "--dry-run", rel], opts.timeout)
        low, low_s, low_cpu, low_err = timed(["to-gdl", "--no-validate", "--stats", rel], opts.timeout)
        said = {0: "lowers", 1: "refused", 2: "undecided"}.get(dry, "error")
        did = {0: "lowers", 2: "refused", None: "timeout"}.get(low, "error")
        agree = said == did or (said == "refused" and did == "timeout")
        rows.append({"game": rel, "dry_run": said, "dry_run_s": round(dry_s, 2), "dry_run_cpu": round(dry_cpu, 2),
                     "lowering": did, "lowering_s": round(low_s, 2), "lowering_cpu": round(low_cpu, 2),
                     "ratio": round(dry_s / low_s, 3) if low_s else None,
                     "cpu_ratio": round(dry_cpu / low_cpu, 3) if low_cpu else None,
                     "agree": agree, "dry_run_error": dry_err, "lowering_error": low_err})
        r = rows[-1]
        if not opts.json:
            print(f"{rel:<40} dry run {said:<9} {dry_s:6.1f} s ({dry_cpu:5.1f} CPU)   to-gdl {did:<8} {low_s:6.1f} s "
                  f"({low_cpu:5.1f} CPU)   ratio {r['ratio']:.3f} (CPU {r['cpu_ratio']:.3f})   "
                  f"{'agree' if agree else 'DISAGREE'}", flush=True)
    ratios = sorted(r["ratio"] for r in rows if r["ratio"] is not None)
    cpu_ratios = sorted(r["cpu_ratio"] for r in rows if r["cpu_ratio"] is not None)
    summary = {"games": len(rows), "agree": sum(r["agree"] for r in rows),
               "undecided": sum(r["dry_run"] == "undecided" for r in rows),
               "median ratio": ratios[len(ratios) // 2] if ratios else None,
               "median CPU ratio": cpu_ratios[len(cpu_ratios) // 2] if cpu_ratios else None,
               "dry run, longest s": max(r["dry_run_s"] for r in rows) if rows else None}
    if opts.json:
        print(json.dumps({"rows": rows, "summary": summary}, indent=2))
    else:
        print(", ".join(f"{k}: {v}" for k, v in summary.items()))


if __name__ == "__main__":
    main()
