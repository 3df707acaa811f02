"""Games written by other hands against issue 34's targets: `tgpl to-gdl` on every game in tests/data/designers.

    python bench/designers.py [GAME ...] [--max-seconds 120] [--max-memory 2000] [--json]

Every game (default: tests/data/designers/*.tgpl, written by designers from the docs alone, not tuned to the
lowering) is lowered by `tgpl to-gdl GAME -o FILE`, validation on, as a subprocess with the command's own
`--max-seconds`/`--max-memory`, one after the other. For each: the outcome (lowered and validated, or the first
error line: a refusal, a failed validation or a limit), CPU seconds and peak memory of the child (os.wait4),
rules with a body in the KIF written (a line starting `(<= `, as the tests count them), and the validation's
line (from the KIF's header). The targets are issue 34's: a game that lowers does so in at most 30 s and 1 GB with at most 2,000 rules
with a body, and validates; a game that does not is refused, located, in at most 10 s. CPU seconds are the figure
to read on a shared machine (the wall time there is mostly waiting), and they still vary with the load: compare
runs only as ratios against a game measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from gdl import ROOT, run_tgpl

LOWER_SECONDS, LOWER_MB, LOWER_RULES, REFUSE_SECONDS = 30.0, 1024.0, 2000, 10.0


@dataclass
class Row:
    game: str
    outcome: str  # "lowered", "refused" (exit 2 with a located error), "limit" or "killed"
    cpu: float
    max_rss_mb: float
    rules: int | None  # rules with a body in the KIF written; None when nothing was written
    said: str  # the validation's line, or the first error line
    on_target: bool


def measure(game: Path, max_seconds: float, max_mb: int) -> Row:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "game.kif"
        run = run_tgpl(["to-gdl", str(game), "-o", str(out), "--max-seconds", str(max_seconds),
                        "--max-memory", str(max_mb)], timeout=3 * max_seconds + 60)
        kif = out.read_text(encoding="utf-8") if out.exists() else None
    lines = [line.strip() for line in run.stderr.splitlines() if line.strip()]
    rules = None if kif is None else sum(1 for line in kif.splitlines() if line.startswith("(<= "))
    if run.status is None:
        outcome, said = "killed", f"killed {3 * max_seconds + 60:.0f} s after its start"
    elif run.status == 0 and kif is not None:
        outcome = "lowered"
        said = next((line.lstrip("; ") for line in kif.splitlines()[:5] if "validated" in line), "(not said)")
    else:
        said = next((line for line in lines if "error" in line), lines[0] if lines else f"exit {run.status}")
        outcome = "limit" if "--max-seconds" in said or "--max-memory" in said else "refused"
    if outcome == "lowered":
        on_target = run.cpu <= LOWER_SECONDS and run.max_rss_mb <= LOWER_MB and rules <= LOWER_RULES
    else:
        on_target = outcome == "refused" and run.cpu <= REFUSE_SECONDS and ":" in said.split(" ")[0]
    return Row(str(game.resolve().relative_to(ROOT)), outcome, round(run.cpu, 1), round(run.max_rss_mb),
               rules, said, on_target)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", type=Path)
    ap.add_argument("--max-seconds", type=float, default=120.0, help="each to-gdl's own limit (its option)")
    ap.add_argument("--max-memory", type=int, default=2000, help="each to-gdl's own limit in MB (its option)")
    ap.add_argument("--json", action="store_true")
    opts = ap.parse_args()
    games = opts.games or sorted((ROOT / "tests" / "data" / "designers").glob("*.tgpl"))
    rows = []
    for game in games:
        row = measure(game.resolve(), opts.max_seconds, opts.max_memory)
        rows.append(row)
        if not opts.json:
            rules = "" if row.rules is None else f"{row.rules:,}"
            print(f"{Path(row.game).name:<26}{row.outcome:<9}{row.cpu:>8.1f}{row.max_rss_mb:>7.0f}{rules:>8}  "
                  f"{'on target' if row.on_target else 'OFF TARGET':<11} {row.said[:110]}", flush=True)
    counts = {k: sum(r.outcome == k for r in rows) for k in ("lowered", "refused", "limit", "killed")}
    summary = {"games": len(rows), **counts, "on target": sum(r.on_target for r in rows)}
    if opts.json:
        json.dump({"rows": [asdict(r) for r in rows], "summary": summary}, sys.stdout, indent=2)
        print()
    else:
        print(", ".join(f"{k}: {v}" for k, v in summary.items()))


if __name__ == "__main__":
    main()
