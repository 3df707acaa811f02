"""A counter that runs away in the joint search of every counter is refused there (issue 34).

The joint search of the counters' ranges (`segments.joint_ranges`), with no counter left apart, is the most precise
of the searches: the searches that follow where it gives up (`alone_ranges`, each counter with the others'
comparisons unknown; `counter_ranges`, each counter with no control) each find at least what it finds. A counter
past RANGE_LIMIT values in it passes RANGE_LIMIT in them too, and the game was refused after them, at a counter or
at the end of their work: Ultimate's counts of filled cells (tests/data/designers/ultimate.tgpl), bounded only by
the board, ran the search by counter for minutes before the refusal that sends them to their caps. The game is now
refused as the joint search gives up, at the write that grows the counter.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tgpl.frontend.loader import load_program
from tgpl.lowering import segments
from tgpl.lowering.lower import NotLowerable, game_lowering
from tgpl.runtime.game import Game, compile_program
from tgpl.runtime.snapshot import snapshot

DATA = Path(__file__).resolve().parents[1] / "data" / "lowering"

# unbounded.tgpl's counter, beside one the game bounds (it ends at 30 moves): the step that runs away reads nothing
# of the other counter, yet both are searched together first
GAME = """game "apart";
players 2;
setup { Seat a = new Seat(); a.assign(0); Seat b = new Seat(); b.assign(1); turn.use("T"); turn.pass(0, "P"); }
global class Tally { number Steps = 0; number Moves = 0; }
class Seat
{
    action Step { trigger PlayerChoiceEvent { return true; } effect { Tally.Steps += 1; turn.pass(); } }
    action Back { trigger PlayerChoiceEvent { return Tally.Steps > 0; } effect { Tally.Steps -= 1; turn.pass(); } }
    action Tick { trigger PlayerChoiceEvent { return true; }
                  effect { Tally.Moves += 1; if (Tally.Moves == 30) { winner player; } turn.pass(); } }
}
turn T
{
    phase P { }
    default { return player.active() + 1; }
}
"""


@pytest.fixture
def searches(monkeypatch):
    """The searches run, by name, and the work of the range search (`RangeWork`) once made."""
    ran: list[str] = []
    works: list[segments.RangeWork] = []
    for name in ("alone_ranges", "counter_ranges"):
        original = getattr(segments, name)

        def spy(*args, _name=name, _original=original, **kwargs):
            ran.append(_name)
            return _original(*args, **kwargs)
        monkeypatch.setattr(segments, name, spy)
    made = segments.RangeWork

    def counted(*args, **kwargs):
        works.append(made(*args, **kwargs))
        return works[-1]
    monkeypatch.setattr(segments, "RangeWork", counted)
    return ran, works


def _refused(text: str, name: str) -> NotLowerable:
    program = load_program(name, text=text)
    assert program.ok, [d.message for d in program.diagnostics]
    game = Game(program, compile_program(program))
    with pytest.raises(NotLowerable) as refused:
        game_lowering(program, snapshot(game.initial_state(0)))
    return refused.value


def test_a_counter_past_its_range_together_is_refused_at_its_write_without_the_searches_apart(searches):
    ran, works = searches
    e = _refused(GAME, "apart.tgpl")
    line = next(i for i, s in enumerate(GAME.splitlines(), 1) if "action Step" in s)
    assert (e.span.line, e.span.col) == (line, GAME.splitlines()[line - 1].index("Tally.Steps += 1") + 1)
    assert e.counter == "Steps"
    assert "Tally.Steps takes more than 256 values (0 to 256 found)" in e.reason
    assert ran == []  # neither the search alone nor the search by counter
    # the joint search's work only: 257 values of Steps times the moves' values, a few cases each
    assert len(works) == 1 and 0 < works[0].spent < 30 * 260 * 10


def test_unbounded_is_refused_as_before(searches):
    ran, _ = searches
    e = _refused((DATA / "unbounded.tgpl").read_text(encoding="utf-8"), "unbounded.tgpl")
    assert (e.span.line, e.span.col) == (31, 13)
    assert "Tabletop.Steps takes more than 256 values" in e.reason and e.counter == "Steps"
    assert ran == []
