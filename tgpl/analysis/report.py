"""`tgpl analyze --report DIR`: the figures as PNG plots and one HTML page that shows them.

matplotlib runs on its Agg backend (no display needed); the page is static, with the plots beside
the figures they draw, so it opens from disk in any browser.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

from tgpl.analysis.figures import fpa_text, frequent_text, lead_text, rate_text, unfinished_text

LENGTH_PNG = "length.png"
WINS_PNG = "wins.png"
BRANCHING_PNG = "branching.png"
SCORE_PNG = "score.png"  # only when the game has a score (`--score`)


def write_report(summary: dict, folder: str, state_text: str | None = None) -> list[Path]:
    """Write the plots and index.html into `folder` (made if missing); return the files written."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    plots = [(LENGTH_PNG, _length_plot), (WINS_PNG, _wins_plot), (BRANCHING_PNG, _branching_plot)]
    if summary.get("score_by_move"):
        plots.append((SCORE_PNG, _score_plot))
    for name, draw in plots:
        fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=100)
        draw(ax, summary)
        fig.tight_layout()
        fig.savefig(out / name, metadata={"Software": None})  # no version stamp: same figures, same file
        plt.close(fig)
        written.append(out / name)
    page = out / "index.html"
    page.write_text(_page(summary, state_text), encoding="utf-8")
    written.append(page)
    return written


def _whole_numbers(axis) -> None:
    """Ticks on counts and move numbers at whole numbers: 2.5 games reads as a bug."""
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True))


def _nothing(ax, what: str) -> None:
    """An empty plot says why: bare axes with ticks around zero look like a broken chart."""
    ax.text(0.5, 0.5, what, ha="center", va="center", transform=ax.transAxes, color="#555555")
    ax.set_xticks([])
    ax.set_yticks([])


def _length_plot(ax, s: dict) -> None:
    hist = (s["length"] or {}).get("histogram", {})
    if not hist:
        ax.set_title("Game length")
        return _nothing(ax, "no finished games")
    ax.bar([int(k) for k in hist], list(hist.values()), color="#4c72b0")
    _whole_numbers(ax.xaxis)
    _whole_numbers(ax.yaxis)
    ax.set_xlabel("moves in the game")
    ax.set_ylabel("games")
    ax.set_title(f"Game length ({s['finished']} finished games)")


def fair_share(s: dict) -> float | None:
    """Each seat's share of the finished games if none had an edge: the games with a sole winner,
    split evenly among the seats."""
    decisive = s["decisiveness"]
    if decisive is None or not s["seats"]:
        return None
    return decisive["rate"] / len(s["seats"])


def _wins_plot(ax, s: dict) -> None:
    if not s["finished"]:
        ax.set_title("Wins")
        return _nothing(ax, "no finished games")
    labels, rates, lows, highs, colours = [], [], [], [], []
    for seat in s["seats"]:
        colours.append("#55a868")
        labels.append(f"seat {seat['seat']}\n{seat['agent']}")
        w = seat["wins"] or {"rate": 0, "low": 0, "high": 0}
        rates.append(w["rate"])
        lows.append(w["rate"] - w["low"])
        highs.append(w["high"] - w["rate"])
    draws = s["drawishness"]
    if draws is not None:
        labels.append("draw")
        colours.append("#8c8c8c")  # not a seat: a bar of its own colour
        rates.append(draws["rate"])
        lows.append(draws["rate"] - draws["low"])
        highs.append(draws["high"] - draws["rate"])
    ax.bar(labels, rates, yerr=[lows, highs], capsize=6, color=colours)
    fair = fair_share(s)
    if fair is not None:  # over the seats' bars: where each would stand if no seat had an edge
        seats = len(s["seats"])
        ax.plot([-0.4, seats - 0.6], [fair, fair], linestyle="--", color="#c44e52", label=f"fair share {fair:.1%}")
        ax.legend(loc="upper right")
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of finished games")
    ax.set_title("Wins with 95% Wilson intervals")


def _branching_plot(ax, s: dict) -> None:
    by_move = (s["branching"] or {}).get("by_move", [])
    if not by_move:
        ax.set_title("Branching factor over the game")
        return _nothing(ax, "no decisions")
    ax.plot(range(1, len(by_move) + 1), [m["mean"] for m in by_move], marker=".", color="#c44e52")
    ax.set_ylim(bottom=0)  # from zero: a flat line at one legal move must not look like a swing
    _whole_numbers(ax.xaxis)
    ax.set_xlabel("move number")
    ax.set_ylabel("legal moves (mean)")
    ax.set_title("Branching factor over the game")


def _score_plot(ax, s: dict) -> None:
    """Each seat's mean score over the game, by move number, over the finished games."""
    score = s["score_by_move"]
    moves = range(1, len(score["by_move"]) + 1)
    for seat in s["seats"]:
        p = seat["seat"]
        ax.plot(moves, [m["means"][p] for m in score["by_move"]], label=f"seat {p} ({seat['agent']})")
    _whole_numbers(ax.xaxis)
    ax.legend(loc="upper left")
    ax.set_xlabel("move number")
    ax.set_ylabel(f"{score['score']} (mean)")
    ax.set_title("Score over the game")


def _page(s: dict, state_text: str | None) -> str:
    esc = html.escape
    rows = [("games", f"{s['games']} (seeds {s['seeds'][0]}..{s['seeds'][-1]}), {s['finished']} finished, "
                      f"{s['unfinished']} unfinished, {len(s['errors'])} with errors"),
            ("players", ", ".join(s["players"]))]
    for seat in s["seats"]:
        rows.append((f"seat {seat['seat']} ({seat['agent']}) wins", rate_text(seat["wins"])))
    fpa = s["first_player_advantage"]
    rows += [("first-player advantage", fpa_text(fpa)),
             ("balance", "n/a" if s["balance"] is None else str(s["balance"])),
             ("drawishness", rate_text(s["drawishness"])),
             ("decisiveness", rate_text(s["decisiveness"]))]
    if s["length"]:
        length = s["length"]
        rows.append(("length", f"mean {length['mean']}, sd {length['stdev']}, {length['min']}..{length['max']}"))
    if s["branching"]:
        rows.append(("branching factor", f"mean {s['branching']['mean']}, max {s['branching']['max']}"))
    if s.get("lead_changes"):
        rows.append((f"lead changes (score {s['lead_changes']['score']})", lead_text(s["lead_changes"])))
    rows.append(("actions never played", ", ".join(s["actions"]["never_played"]) or "none"))
    rows += [("unfinished games", line) for line in unfinished_text(s)]
    table = "\n".join(f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in rows)
    frequent = ""
    if s["most_frequent_state"] and state_text:
        m = s["most_frequent_state"]
        frequent = (f"<h2>Most frequent state</h2><p>{esc(frequent_text(m))}</p><pre>{esc(state_text)}</pre>")
    errors = "".join(f"<h3>Error in seed {e['seed']}</h3><pre>{esc(e['message'])}</pre>" for e in s["errors"])
    images = "\n".join(f'<figure><img src="{name}" alt="{alt}"><figcaption>{alt}</figcaption></figure>'
                       for name, alt in [(WINS_PNG, "win rates with 95% intervals"),
                                         (LENGTH_PNG, "game length histogram"),
                                         (BRANCHING_PNG, "branching factor by move number")]
                       + ([(SCORE_PNG, "score over the game")] if s.get("score_by_move") else []))
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>tgpl analyze: {esc(s['game'])}</title>
<style>body{{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em}}
th{{text-align:left;padding-right:1em}}th,td{{vertical-align:top}}
figure{{display:inline-block;margin:0.5em}}img{{max-width:100%;height:auto}}pre{{overflow-x:auto}}</style></head>
<body><h1>tgpl analyze: {esc(s['game'])}</h1>
<table>
{table}
</table>
{images}
{frequent}
{errors}
<h2>All figures (JSON)</h2><pre>{esc(json.dumps(s, indent=1, sort_keys=True))}</pre>
</body></html>
"""

