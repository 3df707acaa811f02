"""GDL-II out: an action that deals (pop() of a dealt deck) and then calls a function (issue 34).

tests/data/lowering/deal_before_call.tgpl: Walk shuffles the deck, pops a chip and calls Advance. The player's
step runs the effect once with a probe for the deal (tgpl.lowering.segments), whose ways that reach it are
random's to run; a call is a view's site (tgpl.lowering.execute.Executor.checkpoint), and the probe's way
contributed its writes there: the player's Walk already marked the deck's first item dealt, so random could
never deal it ("legal moves only in the runtime: (roll 1)" in the validation). Those ways now contribute
nothing; the game lowers, validated, and random deals any of the 14 chips after Walk."""

from __future__ import annotations

from pathlib import Path

from differential import lowered_kif

DATA = Path(__file__).resolve().parents[1] / "data" / "lowering"
GAME = DATA / "deal_before_call.tgpl"


def test_random_deals_every_chip_after_a_walk(tmp_path_factory):
    from tgpl.asp.reasoner import GdlGame

    path = lowered_kif(tmp_path_factory, GAME)
    kif = path.read_text()
    assert "; validated: " in kif
    game = GdlGame.load(str(path))
    p0, p1, rnd = game.roles
    state = game.initial_state()
    walk = next(m for m in state.legal_moves(p0) if str(m) == "(walk runner_0)")
    state = state.apply([walk, state.legal_moves(p1)[0], state.legal_moves(rnd)[0]])
    assert "(items_0 chips_0 yes)" in state.fluent_texts()  # the player's step deals nothing
    assert sorted(str(m) for m in state.legal_moves(rnd)) == sorted(f"(roll {k})" for k in range(1, 15))


def test_draws_the_validation_cannot_replay_are_reported_not_a_traceback(tmp_path, monkeypatch):
    """A flow whose draws the chance machine cannot replay (ChanceUnsupported: the lowering refuses the flows known
    to do it, e.g. a throw passing to a phase asking an input) ends the validation with its report, exit 2,
    nothing written; it ended `to-gdl` with a traceback from `Differential.outcomes`."""
    from click.testing import CliRunner

    from tgpl.cli import main
    from tgpl.verify.chance_machine import ChanceMachine, ChanceUnsupported

    def unsupported(self, state, move):
        raise ChanceUnsupported("a choice after a draw, resumed at a phase's entry")

    monkeypatch.setattr(ChanceMachine, "_apply_all", unsupported)
    out = tmp_path / "pig.kif"
    r = CliRunner().invoke(main, ["to-gdl", str(Path(__file__).resolve().parents[2] / "examples" / "pig.tgpl"),
                                  "-o", str(out)])
    assert r.exit_code == 2, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert "cannot be replayed to compare them (a choice after a draw, resumed at a phase's entry)" in r.output
    assert not out.exists()
