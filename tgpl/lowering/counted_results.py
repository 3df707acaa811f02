"""A test of a compiled function's result that the compiled moves cannot follow: one that reads counters through
another function.

The counters' part of the compiled moves' relaxation (`compiled.CompiledGame.relax`) finds the values the counters
take; it evaluates the compiled functions whose results the counters' arithmetic and tests read, those that call
no other function (`compiled._counting_functions`), a function that reads counters over the counters' values as
found so far, and takes every other function's result as anything. A test or an operation on such a result
(Dobutsu Shogi's drop filter `Held(kind: kind) > 0`, where `Held` reads a hand's counters through another
function) is then left bound by nothing, and clingo cannot ground it. Found on the rules before grounding, it is
refused at the test, naming the function, the counters it reads and the functions it calls, with rewrites that
lower: the counters tested where the function is called, or the test made inside the function (a function
returning a bool), whose comparison the other part of the relaxation works out over the counters' ranges. The dry
run asks the same of the same rules (`CompiledGame.follows_results`), so that it never says "lowers" where the
lowering refuses here.
"""

from __future__ import annotations

from collections.abc import Callable

from tgpl.lowering import horn
from tgpl.lowering.horn import Unsupported, read_rel
from tgpl.lowering.ir import Atom, Rule


class UnfollowedResult(Unsupported):
    """A test of a compiled function's result that reads counters, refused at the test (`unfollowed_result`)."""


def unfollowed_result(before: list[Rule], after: list[Rule], dropped: Callable[[Atom, Rule], bool],
                      functions: list[Rule], attrs: set[str]) -> UnfollowedResult | None:
    """The refusal, located at the test, of the first rule of the counters' part (`before`, and `after` as
    `compiled._without` left it, in the same order) whose test or operation reads a value bound by nothing but
    a compiled function's result that `dropped` took away; None where there is none. `functions`: the compiled
    functions' rules (relaxed), which say the counters (`attrs`) each function reads."""
    for r, kept in zip(before, after):
        found = horn._unsafe_operand(kept)
        if found is None or found[0].relation not in horn.BUILTIN_TABLES:
            continue
        x, v = found
        source = next((y for y in r.body if isinstance(y, Atom) and "|result@" in y.relation and y.args
                       and y.args[-1] == v and dropped(y, r)), None)
        if source is None:
            continue
        fn = source.relation.split("|")[0]
        counters = counters_read(fn, functions, attrs)
        if not counters:
            continue
        name = _source_name(fn)
        callees = [_source_name(c) for c in functions_called(fn, functions)]
        through = (f" and calls {', '.join(callees)}: the compiled moves follow a counter's values through the "
                   "result of a function that calls no other"
                   if callees else ": the compiled moves follow a counter's values where it is read, not through "
                   "this function's result")
        return UnfollowedResult.at(x.span or r.span, (
            f"this reads the result of {name}, a function that reads the counter{'s' * (len(counters) > 1)} "
            f"{', '.join(counters)}{through}; read the counter here instead, or make the test inside the function "
            "(one returning a bool); or lower the moves spelled out (--moves spelled, which `auto` falls back to)"))
    return None


def counters_read(fn: str, functions: list[Rule], attrs: set[str]) -> list[str]:
    """The counters (of `attrs`) that the compiled function whose relations' prefix is `fn` reads, itself or
    through the functions it calls, in a stable order."""
    reads = {read_rel(a): a for a in attrs}
    own: dict[str, list[Rule]] = {}
    for r in functions:
        own.setdefault(r.head.relation.split("|")[0], []).append(r)
    seen, todo, found = {fn}, [fn], set()
    while todo:
        for r in own.get(todo.pop(), []):
            for x in r.body:
                if not isinstance(x, Atom):
                    continue
                if x.relation in reads:
                    found.add(reads[x.relation])
                elif "|" in x.relation and not x.relation.startswith("#"):
                    callee = x.relation.split("|")[0]
                    if callee in own and callee not in seen:
                        seen.add(callee)
                        todo.append(callee)
    return sorted(found)


def functions_called(fn: str, functions: list[Rule]) -> list[str]:
    """The compiled functions (their relations' prefix) that the function whose prefix is `fn` calls, directly,
    in a stable order."""
    own = {r.head.relation.split("|")[0] for r in functions}
    return sorted({x.relation.split("|")[0] for r in functions if r.head.relation.split("|")[0] == fn
                   for x in r.body if isinstance(x, Atom) and "|" in x.relation and not x.relation.startswith("#")
                   and x.relation.split("|")[0] in own} - {fn})


def _source_name(fn: str) -> str:
    """A compiled function's name as the source writes it (`Seat.Held`), from its relations' prefix (an instance's
    `Seat.Held~s0@1`)."""
    return fn.split("@")[0].split("~")[0]
