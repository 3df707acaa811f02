"""A filter `A && B` whose `A` is a fixed expression of the candidate alone (Connect Four's
`GameState.Board.ColumnOf(cell: column) >= 0 && column.Disc == null`) runs `B` only on the
candidates `A` passes, found once per pool and memo with the steps their values counted
(`BlockGenerator.prefiltered`, `codegen._prefiltered`): the same moves, keys and errors as the
plain reference, as objects are made, and at every step limit."""

from __future__ import annotations

from observed import EXAMPLES, compiled_with_sources, playout, reference

from tgpl.runtime import codegen, load_game
from tgpl.runtime.codegen import _prefiltered
from tgpl.runtime.errors import TGPLRuntimeError

# Cells made while the game is played join the pool (a new list of the class's objects): the
# candidates `Weight` passes are found again for it. `Weight` loops, so its remembered values
# count steps; cells made in setup with X 0 and 1 fail it, the others pass until taken.
CELLS = """
game "pf";
players 2;
tile Cell { number X = 3; bool Free = true; }
global class G { number Made = 0; }
function Weight
{
    function input Cell c;
    returns number;
    effect
    {
        number w = 0;
        for (number i = 0; i < c.X; i += 1) { w += 1; }
        return w;
    }
}
class Seat
{
    action Take
    {
        input Cell t { return Weight(c: t) >= 2 && t.Free == true; }
        trigger PlayerChoiceEvent { return true; }
        effect
        {
            t.Free = false;
            if (G.Made < 4) { Cell more = new Cell(); G.Made += 1; }
            turn.pass(player.active() + 1, "P");
        }
    }
}
turn T { phase P { } }
setup
{
    for (number k = 0; k < 6; k += 1) { Cell c = new Cell(); c.X = k; }
    Seat s = new Seat(); s.assign(0);
    Seat u = new Seat(); u.assign(1);
    turn.use("T");
    turn.pass(0, "P");
}
"""


def _prefiltered_spellings(sources: list[str]) -> list[str]:
    return [src for src in sources if src.startswith("def _all_opt(") and "_prefiltered(" in src]


def _listings(game, moves: int) -> list:
    """The moves listed along the first `moves` moves of a play that takes the first move each
    time, or the error as rendered (with the file's name left out)."""
    seen = []
    try:
        state = game.initial_state(0)
        for _ in range(moves):
            listed = state.legal_moves()
            seen.append([m.text for m in listed])
            if not listed:
                break
            state = state.apply(listed[0])
        return ("ok", seen, state.key())
    except TGPLRuntimeError as e:
        return ("error", seen, e.render().split(": ", 1)[1])


def test_connect4_drop_is_prefiltered_and_plays_as_the_reference(monkeypatch):
    game, sources = compiled_with_sources(EXAMPLES / "connect4.tgpl", monkeypatch)
    assert len(_prefiltered_spellings(sources)) == 1
    plain = reference(EXAMPLES / "connect4.tgpl")
    for seed in range(3):
        assert playout(game.initial_state(seed), seed) == playout(plain.initial_state(seed), seed)


def test_cells_made_in_play_are_filtered_as_the_reference(tmp_path, monkeypatch):
    path = tmp_path / "pf.tgpl"
    path.write_text(CELLS)
    game, sources = compiled_with_sources(path, monkeypatch)
    assert len(_prefiltered_spellings(sources)) == 1
    plain = reference(path)
    first = game.initial_state(0).legal_moves()
    assert [m.text for m in first] == [f"Seat#0.Take(t: Cell#{k})" for k in (2, 3, 4, 5)]
    for seed in range(6):
        assert playout(game.initial_state(seed), seed) == playout(plain.initial_state(seed), seed)


def test_step_limits_end_listings_as_the_reference(tmp_path, monkeypatch):
    """The steps of the values remembered for the whole pool are counted at every listing, as the
    loop over the pool counts them: a limit that a listing by the candidates found before passes
    raises the same error, and so does one passed in setup or in a listing of a new pool."""
    made = []

    def recorded(table, pool):
        found = _prefiltered(table, pool)
        made.append(found[2] is not None)
        return found

    monkeypatch.setitem(codegen._HELPERS, "_prefiltered", recorded)
    path = tmp_path / "pf.tgpl"
    path.write_text(CELLS)
    fast, plain = load_game(path), reference(path)
    ends = []
    for limit in range(0, 40):
        fast.step_limit = plain.step_limit = limit
        got, want = _listings(fast, 8), _listings(plain, 8)
        assert got == want, limit
        ends.append(got[0])
    assert "ok" in ends and "error" in ends
    # the pool stays the same after move 4: limits lowered there end the listing by the candidates found
    later = []
    for limit in range(20, 32):
        fast.step_limit = plain.step_limit = 100
        states = [fast.initial_state(0), plain.initial_state(0)]
        for _ in range(6):
            states = [s.apply(s.legal_moves()[0]) for s in states]
        assert made[-1] is True  # the candidates of this pool found, and kept: the listing below uses them
        fast.step_limit = plain.step_limit = limit
        del made[:]
        outcome = []
        for s in states:
            try:
                outcome.append([m.text for m in s.legal_moves()])
            except TGPLRuntimeError as e:
                outcome.append(e.render().split(": ", 1)[1])
        assert all(made)
        assert outcome[0] == outcome[1], limit
        later.append(isinstance(outcome[0], str))
    assert True in later and False in later
