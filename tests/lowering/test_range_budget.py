"""One budget of work for the whole search of the numbers' ranges (segments.RangeWork, issue 34).

Each search (the joint one, each counter alone, the search by counter) had a budget of its own, and a game whose
searches all gave up late (Pente 7x7's captures, Oware's sowing) ran for minutes and was stopped only by
--max-seconds, with nothing said of why. Now their work is counted together, in cases of the moves' writes walked
and questions to clingo (never seconds), and past `Lowering.range_work` the game is refused at once, at the write
by the most cases, with a hint.
"""

from __future__ import annotations

import re

from tgpl.frontend.loader import load_program
from tgpl.lowering import segments
from tgpl.lowering.lower import NotLowerable, game_lowering
from tgpl.runtime.game import Game, compile_program
from tgpl.runtime.snapshot import snapshot

FLAGS = 4  # the count's write has 2 ** FLAGS cases


def _game(flags: int) -> str:
    """Moves that set one of `flags` flags each, and one that adds 1 to a score for each flag set: the score's
    write is by cases over the flags, 2 ** flags of them, each walked in every state of the search."""
    decls = " ".join(f"bool F{i} = false;" for i in range(flags))
    sets = "\n".join(f"    action Set{i} {{ trigger PlayerChoiceEvent {{ return true; }} "
                     f"effect {{ Flags.F{i} = true; Flags.Moves += 1; turn.pass(); }} }}" for i in range(flags))
    count = " ".join(f"if (Flags.F{i}) {{ Flags.Score += 1; }}" for i in range(flags))
    return f"""game "cases";
players 2;
setup {{ Seat a = new Seat(); a.assign(0); Seat b = new Seat(); b.assign(1); turn.use("T"); turn.pass(0, "P"); }}
global class Flags {{ {decls} number Score = 0; number Moves = 0; }}
class Seat
{{
{sets}
    action Count {{ trigger PlayerChoiceEvent {{ return true; }} effect {{ {count} Flags.Moves += 1; turn.pass(); }} }}
}}
turn T
{{
    phase P {{ effect {{ if (Flags.Moves == 6) {{ if (Flags.Score >= {flags}) {{ winner 0; }} winner 1; }} }} }}
    default {{ return player.active() + 1; }}
}}
"""


def _lowered(range_work: int | None):
    program = load_program("cases.tgpl", text=_game(FLAGS))
    assert program.ok, [d.message for d in program.diagnostics]
    game = Game(program, compile_program(program))
    return game_lowering(program, snapshot(game.initial_state(0)), range_work=range_work)


def test_the_searches_count_their_work_together_within_the_budget():
    lowering, logic = _lowered(None)
    spent = lowering.range_spent
    assert spent is not None and spent.budget == segments.RANGE_WORK
    assert spent.questions > 0 and spent.spent >= spent.questions * segments.QUESTION_WORK
    assert spent.spent < segments.RANGE_WORK // 100
    # the joint search follows the counters, not the flags: six moves, each Count adding up to FLAGS
    assert logic.fluents[("Flags", "Score")].domain == [float(x) for x in range(6 * FLAGS + 1)]


def test_past_the_budget_the_game_is_refused_at_the_write_by_the_most_cases():
    lowering, _ = _lowered(None)
    needed = lowering.range_spent.spent
    try:
        _lowered(needed // 2)
    except NotLowerable as e:
        refused = e
    else:
        raise AssertionError("lowered past its budget of work")
    text = _game(FLAGS)
    line = next(i for i, s in enumerate(text.splitlines(), 1) if "action Count" in s)
    col = text.splitlines()[line - 1].index("Flags.Score += 1") + 1
    assert (refused.span.line, refused.span.col) == (line, col)
    assert refused.counter == "Score"
    assert f"budget of work ({needed // 2:,}" in refused.reason
    cases = re.search(r"Flags\.Score is written by cases, (\d+) in one move", refused.reason)
    assert cases and int(cases[1]) >= 2 ** (FLAGS - 1)  # the branches share some of their cases
    assert "write it in fewer cases" in refused.reason
    # the whole budget, not a search's own: the work done just fits
    lowering, _ = _lowered(needed)
    assert lowering.range_spent.spent == needed
