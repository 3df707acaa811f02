"""Refusals that come early (issue 34: a game that will not lower is refused, located, in seconds).

`auto` asks the dry run's estimate (tgpl.lowering.lowerable.spelled_forecast) once the compiled moves are refused,
before spelling the moves out. The estimate is a sampled run; the dry run makes a whole run first, to its budget of
statements, which only decides whether the sample is asked. The forecast now makes the sampled run first and the
whole run only where the sample predicts a refusal: Corners and Jungle (tests/data/designers/corners.tgpl,
jungle.tgpl), whose samples predict none, are refused by the spelled-out run at the same statement as before, the
forecast's whole run never made. Counted, never timed: the dry lowerings made, and the parts of conditions built.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tgpl.lowering import execute, lowerable
from tgpl.lowering.execute import StateTooCostly
from tgpl.lowering.symbolic import work_done
from tgpl.pipeline import lower_game
from tgpl.runtime.game import load_game

DESIGNERS = Path(__file__).resolve().parents[1] / "data" / "designers"


def _dry_runs(monkeypatch) -> list:
    """The dry lowerings made from now on (the forecast's runs), as they were made."""
    made: list = []
    make = lowerable._DryLowering.__init__

    def spy(self, *args, **kwargs):
        make(self, *args, **kwargs)
        made.append(self)
    monkeypatch.setattr(lowerable._DryLowering, "__init__", spy)
    return made


# game, where its control state passes its budget, the function running there, a phrase of the compiled refusal,
# and the parts of conditions built in all (measured: Corners 3,355,308, 3,449,652 with the forecast's whole run;
# Jungle 7,820,401, its sample 4,817,897, where the whole run alone built about 1.9 million more)
REFUSED = [("corners", (170, 100), "CanPlace", "remove() changes the list 'Left'", 3_400_000),
           ("jungle", (170, 46), "On", "a loop, in CanGo, run where it is called", 8_000_000)]


@pytest.mark.parametrize("name, at, here, compiled, most", REFUSED, ids=[r[0] for r in REFUSED])
def test_refused_where_a_state_passes_its_budget_without_the_forecasts_whole_run(monkeypatch, name, at, here,
                                                                                compiled, most):
    made = _dry_runs(monkeypatch)
    before = work_done()
    with pytest.raises(StateTooCostly) as e:
        lower_game(load_game(str(DESIGNERS / f"{name}.tgpl")))
    built = work_done() - before
    assert (e.value.span.line, e.value.span.col) == at
    assert e.value.reason.startswith(f"the lowering built conditions of more than {execute.STATE_WORK:,} parts for "
                                     f"the legal moves and the moves of one control state (here, in {here})")
    assert compiled in e.value.more[0][1]
    # the forecast made its sampled run alone (before, a whole run of 10,001 statements came first)
    assert [lw.sample for lw in made] == [lowerable.SAMPLE]
    assert built <= most
