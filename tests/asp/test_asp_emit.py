"""The time-indexed ASP encoding: its shape, determinism, names, and that its answer sets are plays."""

from __future__ import annotations

import re
from pathlib import Path

import clingo
import pytest

from tgpl.asp.asp_emit import RESERVED, RelationKinds, emit_asp, encode_asp, encode_incremental
from tgpl.asp.kif import read_kif, read_kif_file
from tgpl.asp.reasoner import GdlGame
from tgpl.asp.solver import lp_file

ROOT = Path(__file__).resolve().parents[2]
TICTACTOE = ROOT / "examples" / "gdl" / "tictactoe.kif"

# A tiny game: a counter that a and b push in turn; a may wait, b may stop it. `holds`
# and `time` are GDL names here, to be renamed away from the encoding's own.
TINY = """\
(role a) (role b)
(succ 0 1) (succ 1 2) (succ 2 3)
(init (count 0)) (init (control a))
(<= (other a b)) (<= (other b a))
(<= (legal ?r push) (true (control ?r)))
(<= (legal b stop) (true (control b)))
(<= (legal a wait) (true (control a)))
(<= (legal ?r noop) (role ?r) (not (true (control ?r))))
(<= (pushed ?r) (does ?r push))
(<= (next (count ?y)) (true (count ?x)) (succ ?x ?y) (pushed ?r))
(<= (next (count ?x)) (true (count ?x)) (does b stop))
(<= (next (control ?s)) (true (control ?r)) (other ?r ?s))
(<= (next (time holds)) (does b stop))
(<= (goal a 100) (true (count 3)))
(<= (goal a 0) (not (true (count 3))))
(<= (goal b 100) (not (true (count 3))))
(<= (goal b 0) (true (count 3)))
(<= done (true (count 3)))
(<= done (true (time holds)))
(<= terminal done)
"""


def tiny():
    return read_kif(TINY, "tiny.kif")


def test_relations_are_static_state_or_moving():
    kinds = RelationKinds.of(tiny())
    assert kinds.static == {"role", "succ", "other"}
    assert kinds.state == {"legal", "goal", "terminal", "done"}
    assert kinds.moving == {"pushed"}


def test_tiny_game_shape():
    text = emit_asp(tiny())
    rules = [line for line in text.splitlines() if line and not line.startswith("%")]
    assert "succ(0,1)." in rules and "other(a,b)." in rules  # static: no time argument
    assert "holds(count(0),0)." in rules  # init
    assert "legal(R,push,T) :- holds(control(R),T)." in rules
    assert "legal(R,noop,T) :- role(R), not holds(control(R),T), time(T)." in rules  # no timed literal binds T
    assert "pushed(R,T) :- does(R,push,T)." in rules
    assert "holds(count(Y),T+1) :- holds(count(X),T), succ(X,Y), pushed(R,T), time(T+1)." in rules
    assert "done(T) :- holds(count(3),T)." in rules and "terminal(T) :- done(T)." in rules
    # GDL's `time` and `holds` are not the encoding's: they are renamed and listed in the header.
    renamed = dict(re.findall(r"^%   (gdl_n\d+) = (\S+)$", text, re.M))
    assert sorted(renamed.values()) == ["holds", "time"]
    back = {v: k for k, v in renamed.items()}
    assert f"holds({back['time']}({back['holds']}),T+1) :- does(b,stop,T), time(T+1)." in rules
    assert text.startswith("% A GDL game as a time-indexed ASP program")
    assert all(line.startswith("%") or line.endswith(".") or not line for line in text.splitlines())


def test_output_is_deterministic():
    program, _ = read_kif_file(TICTACTOE)
    again, _ = read_kif_file(TICTACTOE)
    assert emit_asp(program) == emit_asp(again) == emit_asp(program)
    assert encode_incremental(program).text == encode_incremental(again).text


def test_every_timed_atom_has_the_time_last():
    program, _ = read_kif_file(TICTACTOE)
    text = emit_asp(program)
    for name, arity in (("holds", 2), ("does", 3), ("legal", 3), ("goal", 3), ("line", 2), ("open", 1)):
        for args in re.findall(rf"\b{name}\(((?:[^()]|\([^()]*\))*)\)", text):
            parts = re.split(r",(?![^()]*\))", args)
            assert len(parts) == arity and parts[-1] in ("T", "T+1", "0"), (name, args)
    assert "index(1)." in text and "role(xplayer)." in text
    assert re.search(r"\btrue\(|\bnext\(|\binit\(", text) is None


def test_fixed_parts_use_only_reserved_names_or_gdl_prefixed_ones():
    """A GDL name never collides with the fixed parts: they use reserved names, keywords or gdl_ names."""
    keywords = {"role", "legal", "does", "goal", "terminal", "not", "query", "program", "base", "step", "check",
                "external", "show", "const", "count",
                "random"}  # GDL-II's chance role, matched by its name: it has no goal (asp_bounded.lp)
    for part in ("asp_play.lp", "asp_bounded.lp"):
        code = "\n".join(line.split("%")[0] for line in lp_file(part).splitlines())
        words = set(re.findall(r"\b([a-z][A-Za-z0-9_]*)\b", code))
        assert {w for w in words if not w.startswith("gdl_")} <= RESERVED | keywords, part


def plays(program, horizon: int, limit: int = 0) -> list[list[tuple]]:
    encoding = encode_asp(program)
    ctl = clingo.Control(["--warn=none", f"--models={limit}", "-c", f"horizon={horizon}"])
    ctl.add("base", [], encoding.text)
    ctl.add("base", [], lp_file("asp_play.lp"))
    ctl.ground([("base", [])])
    found = []

    def on_model(model):
        moves: dict[int, dict] = {}
        steps = None
        for s in model.symbols(shown=True):
            if s.name == "does":
                r, m, t = s.arguments
                moves.setdefault(t.number, {})[encoding.names.term(r)] = encoding.names.term(m)
            elif s.name == "steps":
                steps = s.arguments[0].number
        play = [tuple(moves[t][r] for r in encoding.roles) for t in sorted(moves)]
        assert steps == len(play) and sorted(moves) == list(range(len(play)))
        found.append(play)

    ctl.solve(on_model=on_model)
    return found


def test_the_answer_sets_are_the_plays_of_the_tiny_game():
    program = tiny()
    game = GdlGame(program)
    found = plays(program, horizon=6)

    def enumerate_plays(state, prefix, depth):
        if state.is_terminal or depth == 6:
            yield prefix
            return
        for joint in state.legal_moves():
            yield from enumerate_plays(state.apply(joint), prefix + [joint], depth + 1)

    expected = sorted(map(str, enumerate_plays(game.initial_state(), [], 0)))
    assert sorted(map(str, found)) == expected and len(expected) > 10


@pytest.mark.parametrize("horizon", [4, 9])
def test_tictactoe_plays_replay_through_the_reasoner(horizon):
    program, _ = read_kif_file(TICTACTOE)
    game = GdlGame(program)
    found = plays(program, horizon, limit=200)
    assert len(found) == 200
    for play in found:
        state = game.initial_state()
        for joint in play:
            state = state.apply(joint)  # raises IllegalMove if the encoding made an illegal move
        assert state.is_terminal or len(play) == horizon
        assert len(play) == horizon or horizon == 9
