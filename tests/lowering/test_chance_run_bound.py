"""Whether a game where random moves is small enough to bisimulate counts the GDL successors, not only the states.

Shut the Box (tests/data/designers/shutbox.tgpl) has 27,401 states with chance nodes, under
validation.CHANCE_STATE_BOUND, so its validation tried a bisimulation: but each roll of two dice is 36 successors
of its GDL, 182,027 in all at 7 ms each, and `tgpl to-gdl` did not finish in 600 s. The runtime's runs (a move
played once for each way its draws fall, ChanceMachine.runs) are those successors: past validation.CHANCE_RUN_BOUND
of them the game is validated by playouts, and the exploration that decides stops there. All counted."""

from __future__ import annotations

from pathlib import Path

from tgpl import validation
from tgpl.lowering.chance import dealt_decks
from tgpl.lowering.unread import unread_attributes
from tgpl.runtime.game import load_game
from tgpl.validation import CHANCE_RUN_BOUND, CHANCE_STATE_BOUND, chance_space_fits

DATA = Path(__file__).resolve().parents[1] / "data"
SHUTBOX = DATA / "designers" / "shutbox.tgpl"
DEAL = DATA / "lowering" / "deal.tgpl"


def _fits(path: Path) -> tuple[bool, int]:
    game = load_game(str(path))
    return chance_space_fits(game, 0, dealt_decks(game.program)[0].classes, unread_attributes(game.program).names)


def test_shut_the_box_has_too_many_successors_to_bisimulate_and_stops_counting_there():
    fits, runs = _fits(SHUTBOX)
    assert not fits
    # stopped at the first state past the bound: one state's moves play 36 runs at most (a roll of two dice)
    assert CHANCE_RUN_BOUND < runs <= CHANCE_RUN_BOUND + 36


def test_the_states_alone_fit(monkeypatch):
    """What the old decision saw: fewer states than CHANCE_STATE_BOUND (27,401), each run a GDL successor."""
    monkeypatch.setattr(validation, "CHANCE_RUN_BOUND", 10**6)
    fits, runs = _fits(SHUTBOX)
    assert fits and runs == 182_027 and runs > 4 * CHANCE_RUN_BOUND


def test_a_deal_with_fewer_runs_is_still_bisimulated():
    """deal.tgpl: 29,130 states and 24,226 runs, both within the bounds (bisimulated in tests/lowering/test_deals_out.py)."""
    fits, runs = _fits(DEAL)
    assert fits and runs == 24_226 and runs <= CHANCE_RUN_BOUND and CHANCE_STATE_BOUND >= 29_130
