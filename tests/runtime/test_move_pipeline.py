"""The move's pipeline (`State.legal_moves`, `State.apply`, `Machine.play_plain`) in the shapes of round
rt23: phases counted by the segment's one loop (`Machine.settle`), the locals of a move found before
kept as a tuple (`Game.played`),. Each is compared
with the machine's layers (the plain reference)."""

from __future__ import annotations

import textwrap

import pytest

from tgpl.runtime import load_game, machine
from tgpl.runtime.errors import TGPLRuntimeError
from tgpl.runtime.machine import Machine

from observed import EXAMPLES, playout, reference

# `Go(t)` passes control to phase P, which passes it to itself `t.v` times, then on: the move enters
# `t.v + 2` phases (P each time, then A), so with a limit of phases a move may enter, the moves below,
# at and above it tell whether the fused segment counts as the layers count.
GAME = """
game "p";
players 2;
global class S { number Left = 0; number Moves = 0; }
class Token { number v = 0; }
class Seat
{
    action Go
    {
        input Token t { return t.v >= 0; }
        trigger PlayerChoiceEvent { return true; }
        effect { S.Left = t.v; S.Moves += 1; turn.pass(player.active(), "P"); }
    }
}
turn T
{
    phase A { }
    phase P { if (S.Left > 0) { S.Left -= 1; turn.pass(player.active(), "P"); } else { turn.pass(player.active() + 1, "A"); } }
}
setup
{
    for (number p = 0; p < 2; p += 1) { Seat s = new Seat(); s.assign(p); }
    for (number i = 0; i < 8; i += 1) { Token t = new Token(); t.v = i; }
    turn.use("T");
    turn.pass(0, "A");
}
"""


def _game(tmp_path):
    path = tmp_path / "game.tgpl"
    path.write_text(textwrap.dedent(GAME), encoding="utf-8")
    return path


def _each_move_twice(g, k: int) -> list:
    """`Seat#0.Go(t: Token#k)` from the start, twice (the second time a move found before: `Game.played`),
    then a move of the other seat: the keys and logs, or the error as rendered."""
    seen = []
    start = g.initial_state(0)
    for _ in range(2):
        try:
            state = start.apply(start.move_by_text(f"Seat#0.Go(t: Token#{k})"))
            seen.append((state.key(), state.log))
            state = state.apply(state.move_by_text("Seat#1.Go(t: Token#0)"))
            seen.append((state.key(), state.log))
        except TGPLRuntimeError as e:
            seen.append(("error", e.render().replace(str(g.program.main_module.path), "game.tgpl")))
    return seen


@pytest.mark.parametrize("limit", [3, 5, 6])
def test_phases_counted_as_the_layers_count(tmp_path, monkeypatch, limit):
    """With a limit of `limit` phases a segment may enter, the moves that enter fewer, as many and more
    fail or not alike, fused and through the layers; and the limit is where it is said to be."""
    monkeypatch.setattr(machine, "FLOW_LIMIT", limit)  # the one limit, for the machine and the fused segment
    path = _game(tmp_path)
    fused_runs = []
    play_plain = Machine.play_plain
    monkeypatch.setattr(Machine, "play_plain", lambda m, known: (fused_runs.append(known), play_plain(m, known)))
    fused = [_each_move_twice(load_game(path), k) for k in range(8)]
    assert fused_runs
    layered = [_each_move_twice(reference(path), k) for k in range(8)]
    assert fused == layered
    for k, seen in enumerate(fused):
        # the move enters k + 2 phases: an error when that reaches the limit
        failed = any(s[0] == "error" for s in seen)
        assert failed == (k + 2 >= limit), (k, seen)
        if failed:
            assert all(s[0] == "error" and "control passed" in s[1] for s in seen)


def test_a_move_found_before_keeps_its_locals_as_a_tuple(monkeypatch):
    """The locals of a move found before are a tuple, given to its plain spelling as they are (it never
    writes them there); Tris plays the same through the layers, which copy them."""
    g = load_game(EXAMPLES / "tris.tgpl")
    state = g.initial_state(0)
    move = state.legal_moves()[0]
    state.apply(move)
    known = g.played[id(move)]
    assert known[4].__class__ is tuple and known[6] is known[3].entry
    fused = [playout(g.initial_state(seed), seed) for seed in range(3) for _ in range(2)]
    layered = reference(EXAMPLES / "tris.tgpl")
    assert fused == [playout(layered.initial_state(seed), seed) for seed in range(3) for _ in range(2)]
