"""Searches compiled as a positive closure, without their step count (tgpl.lowering.closures, decision 115).

A flood rewritten as a recursive search (tgpl.lowering.floods) carries a step count that only stops it, from a
bound proved to cut no answer. Compiled with the count, every depth was a row of its own (Atari Go 5 x 5: 24);
as a closure, `found` is defined positively without it and `no` is `not found`, as hand-written GDL says a group
has a liberty. Where the proof fails (a call of itself under `!`, the other arguments changed, the count read
otherwise, no proved bound), the count is kept.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest

from tgpl.frontend import ast
from tgpl.frontend.loader import load_program
from tgpl.lowering import horn
from tgpl.lowering.closures import closure_of
from tgpl.lowering.flood_shapes import _replace
from tgpl.lowering.floods import rewrite_floods
from to_gdl_runs import to_gdl

DATA = Path(__file__).resolve().parents[1] / "data"
FLOOD = DATA / "lowering" / "flood.tgpl"
ATARI3 = DATA / "lowering" / "atari3.tgpl"
LOA = DATA / "designers" / "loa.tgpl"
FLOOD_ROWS = DATA / "lowering" / "flood_rows.tgpl"


def functions(program) -> dict[str, ast.FunctionDef]:
    return {f.name: f.defn for f in program.functions} | {
        name: f.defn for c in program.classes for name, f in c.functions.items()}


def rewritten(path: Path = FLOOD) -> dict[str, ast.FunctionDef]:
    program = load_program(path, text=path.read_text(), transform=lambda m: rewrite_floods(m, lambda t: 15))
    assert program.ok, [str(d) for d in program.diagnostics]
    return functions(program)


def self_calls(fn: ast.FunctionDef) -> list[ast.Call]:
    return [n for n in ast.walk(fn.effect.body) if isinstance(n, ast.Call) and isinstance(n.callee, ast.Name)
            and n.callee.name == fn.name]


def test_a_search_the_rewrite_made_is_a_closure():
    """Both of flood.tgpl's searches (a `contains` and a search for a column): the count marked, read only by the
    stop and passed on as `steps - 1`, each call of itself a conjunct of an `if (...) { return true; }`."""
    fns = rewritten()
    for name in ("TouchesFlood1", "JoinedFlood1"):
        fn = fns[name]
        found = closure_of(fn)
        assert found is not None, name
        assert found.steps == fn.stops and fn.stops in {d.name for d in fn.inputs}
        assert len(found.found) == len(self_calls(fn)) == 1


def _changed(fn: ast.FunctionDef, swap) -> ast.FunctionDef:
    out = copy.copy(fn)
    out.items = _replace(fn.items, swap)
    return out


def _negated(fn):
    calls = {id(c) for c in self_calls(fn)}
    return _changed(fn, lambda n: ast.Unary(n.span, "!", copy.copy(n)) if id(n) in calls else None)


def _other_argument(fn):
    """The first free input passed on as something else than itself."""
    calls = {id(c) for c in self_calls(fn)}
    free = fn.inputs[1].name

    def swap(n):
        if id(n) not in calls:
            return None
        args = [ast.Arg(a.span, a.name, ast.Name(a.span, fn.inputs[0].name) if a.name == free else a.value)
                for a in n.args]
        return ast.Call(n.span, n.callee, args)
    return _changed(fn, swap)


def _stop_elsewhere(fn):
    """`if (steps == 1)`: the count decides more than where the search stops."""
    def swap(n):
        if isinstance(n, ast.NumberLit) and n.value == 0:
            return ast.NumberLit(n.span, 1.0)
        return None
    return _changed(fn, swap)


def _unmarked(fn):
    out = copy.copy(fn)
    out.stops = None
    return out


@pytest.mark.parametrize("change", [_negated, _other_argument, _stop_elsewhere, _unmarked])
def test_where_the_proof_fails_the_count_is_kept(change):
    fn = rewritten()["JoinedFlood1"]
    assert closure_of(fn) is not None
    assert closure_of(change(fn)) is None


def test_a_hand_written_recursion_keeps_its_count():
    """Lines of Action's `Linked(a, b, who, steps)`: no proved bound marks it."""
    fns = functions(load_program(LOA, text=LOA.read_text()))
    assert fns["Linked"].stops is None and closure_of(fns["Linked"]) is None


def _lowered(tmp_path: Path, path: Path, *extra: str) -> str:
    return to_gdl(tmp_path, path, "--max-seconds", "300", *extra).written()


def _arity(kif: str, relation: str) -> set[int]:
    """The numbers of arguments `relation` is written with in `kif`."""
    return {len(m.group(1).split()) for m in re.finditer(rf"\({relation} ([^()]*)\)", kif)}


def test_the_closure_has_no_step_argument_and_validates(tmp_path):
    """flood.tgpl lowered, validated against the runtime: `touchesflood1` holds its inputs less the count and
    its answer; its `no` is `not` of `touchesflood1_found`, whose rules read themselves positively."""
    kif = _lowered(tmp_path, FLOOD)
    assert kif.splitlines()[1].startswith("; validated:"), kif.splitlines()[1]
    inputs = len(rewritten()["TouchesFlood1"].inputs)
    assert _arity(kif, "touchesflood1") == {inputs}  # inputs - 1 (the count) + 1 (the answer)
    assert _arity(kif, "touchesflood1_found") == {inputs - 1}
    assert "(not (touchesflood1_found" in kif
    found_rules = [r for r in kif.split("\n\n") if r.startswith("(<= (touchesflood1_found")]
    assert any(r.count("touchesflood1_found") == 2 for r in found_rules)  # the recursion, positive


def test_a_search_in_a_cycle_keeps_its_count_the_others_their_closures(tmp_path):
    """flood_rows.tgpl: `RowsJoined`'s scan goes on while its search finds each cell, a cycle through that search's
    `not found` (horn._waits_on_closure). compile_game compiles again with that search's count kept, and
    `Touches`'s search, in no cycle, stays a closure; validated against the runtime. Turned off for the whole
    game (as before), the cycle cost every search its closure, `Touches`'s too."""
    kif = _lowered(tmp_path, FLOOD_ROWS)
    assert kif.splitlines()[1].startswith("; validated:"), kif.splitlines()[1]
    assert "(rowsjoinedflood1" in kif and "rowsjoinedflood1_found" not in kif  # the count kept
    assert "(not (touchesflood1_found" in kif


def test_without_the_proof_the_counted_search_is_lowered(tmp_path, monkeypatch):
    """The same game with the proof refused: the count is an argument again (one more), no `found`, still valid."""
    monkeypatch.setattr(horn, "closure_of", lambda fn: None)
    kif = _lowered(tmp_path, FLOOD)
    assert kif.splitlines()[1].startswith("; validated:"), kif.splitlines()[1]
    inputs = len(rewritten()["TouchesFlood1"].inputs)
    assert _arity(kif, "touchesflood1") == {inputs + 1}
    assert "touchesflood1_found" not in kif


def test_atari3_compiled_moves_ask_the_liberty_as_a_closure(tmp_path):
    """Atari Go 3 x 3 with its moves compiled: `Breathes`'s search a closure, read under `not` by `Captures`
    through `Breathes`, and validated."""
    kif = _lowered(tmp_path, ATARI3, "--moves", "compiled")
    assert kif.splitlines()[1].startswith("; validated:"), kif.splitlines()[1]
    assert "(not (breathesflood1_found" in kif


def _recursive_relations(kif: str, prefix: str) -> set[str]:
    """The relations named from `prefix` that a rule of `kif` defines from themselves."""
    out = set()
    for rule in kif.split("\n\n"):
        m = re.match(r"\(<= \((\S+)", rule)
        if m and m.group(1).startswith(prefix) and f"({m.group(1)} " in rule[m.end():]:
            out.add(m.group(1))
    return out


def test_a_closures_passes_over_the_directions_are_rules_of_found(tmp_path):
    """atari3's liberty search steps to each of the four neighbours in a `for` whose passes only `return true`:
    each pass's step is a rule of `breathesflood1_found` of its own, reading the neighbour table, and the code
    after the loop goes on whatever they find: no relation of the passes (the only relation of a walk left, per
    instance, is the `while` of the liberty test, inlined from `Around`), no `not` but the closure's `no`; and
    the rules validate against the runtime."""
    kif = _lowered(tmp_path, ATARI3)
    assert kif.splitlines()[1].startswith("; validated:"), kif.splitlines()[1]
    instances = {m.group(1) for m in re.finditer(r"\((breathesflood1(?:_\d+)?) \S+ \S+ \S+ \S+ \S+ \S+ yes\)", kif)}
    assert instances and _recursive_relations(kif, "breathesflood1_found") == {i.replace("1", "1_found", 1)
                                                                             for i in instances}
    assert len(_recursive_relations(kif, "breathesflood1_loop")) == len(instances), kif
    search = [r for r in kif.split("\n\n") if r.startswith("(<= (breathesflood1")]
    assert [r for r in search if "(not " in r] == [r for r in search if " no)" in r.splitlines()[0]]


ATARIGO = DATA / "designers" / "atarigo.tgpl"
REMOVAL = "                // remove every enemy group next to the stone"


def test_atari_go_5x5_without_its_removal_lowers_compiled_and_validates(tmp_path):
    """Atari Go 5 x 5 with `Place`'s removal of the captured stones taken out (the game ends at the capture): with
    the count, its search ground every one of 24 depths (336 s of CPU, 4.4 GB, not validated); as a closure it
    lowers and validates (its demands loosened for `Captures`, the closures kept)."""
    text = ATARIGO.read_text()
    start = text.index(REMOVAL)
    end = text.index("                winner player;\n            }\n            else if")
    path = tmp_path / "atarigo_kept.tgpl"
    path.write_text(text[:start] + text[end:])
    kif = _lowered(tmp_path, path, "--moves", "compiled")
    assert kif.splitlines()[1].startswith("; validated:") and "to the end of the game" in kif.splitlines()[1]
    assert "(not (breathesflood1_found" in kif
    inputs = len(rewritten(ATARIGO)["BreathesFlood1"].inputs)
    assert _arity(kif, "breathesflood1_found") == {inputs - 1}


def test_a_cycle_only_through_found_keeps_the_counts_another_is_loosened_first():
    """compile_game's choice: Lines of Action's scan waits on the search's answers, every `not` of the cycle
    a `found` (the counts kept); Atari Go's cycle also reads `Captures` under `not` (the demands loosened first).
    A `found` is a relation the emitter made a closure's answer (`answers`), whatever its name."""
    from tgpl.frontend.diagnostics import Diagnostic, Severity, Span
    from tgpl.lowering.compiled import _through_closures_only

    def cycle(text: str, code: str = "negation-cycle") -> Diagnostic:  # as tgpl.asp.validate reports one
        return Diagnostic(Severity.ERROR, Span("<gdl>", 1, 1, 1, 1), f"negation cycle: {text}", (), code,
                          tuple(text.split(" -> ")))

    loa = ("connectedflood1_s2 -> not connectedflood1_s2_found -> connectedflood1_s2_call -> "
           "connected_s3_join -> connected_s3_loop_2 -> connectedflood1_s2")
    again = loa.replace("_found", "_found_3")
    atari = ("breathesflood1 -> not breathesflood1_found -> breathesflood1_loop -> "
             "breathesflood1_call -> breathes_call -> captures -> not captures_exists -> breathesflood1")
    answers = frozenset({"connectedflood1_s2_found", "connectedflood1_s2_found_3", "breathesflood1_found"})
    assert _through_closures_only(cycle(loa), answers) and _through_closures_only(cycle(again), answers)
    assert not _through_closures_only(cycle(atari), answers)
    assert not _through_closures_only(cycle("a -> not b -> a"), answers)
    assert not _through_closures_only(cycle(loa, code=""), answers)  # the kind, not the words
    assert not _through_closures_only(cycle(loa), answers - {"connectedflood1_s2_found"})  # named so, made none
    assert _through_closures_only(cycle("a -> not b -> a"), frozenset({"b"}))  # made one, whatever its name
