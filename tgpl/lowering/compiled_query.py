"""`tgpl query` on a game whose moves are compiled (tgpl.lowering.compiled): the query as one more relation.

The spelled-out lowering turns the query into a formula over the state (`Lowering.state_condition`), which
needs the whole game spelled out first: for Reversi 8x8 (compiled moves) that is minutes of symbolic
execution. Compiled, the query is what a `require` is to a move: a read-only block over the state, compiled
once per control state the game can be in (the phases where it waits or ends), each of its ways where it
returns true a rule

    (<= tgpl_query (true (control ?p turn phase)) ...the way's reads of the state...)

Its calls of pure functions read the state as the legal moves' do (the same instances where they are
alike), and the rules go through the relaxation with the legal moves, so the tables its comparisons and
arithmetic read are found with the game's. `tgpl_query` keeps its name in the output (the emission names
the lowering's own relations, `tgpl_...|`, as they are).
"""

from __future__ import annotations

from tgpl.lowering.compiled import CompiledGame, SegClause
from tgpl.lowering.horn import Unsupported
from tgpl.lowering.ir import Atom, Const, Rule

QUERY_HEAD = "tgpl_query|"  # the internal name of `tgpl_query` (tgpl.lowering.lower.QUERY_RELATION)


class QueriedGame(CompiledGame):
    """A CompiledGame that also compiles the bool function `function` (no inputs) into `tgpl_query`."""

    def __init__(self, function, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.query_function = function
        self._queried = False

    def compile(self) -> None:
        super().compile()
        if not self._queried:  # compile() runs again once the ranges are known: the rules are made once
            self._queried = True
            self.legal += self.query_rules()

    def controls(self) -> list[tuple[str, str]]:
        """Every (turn, phase) a state of the game can have: where it waits for a player, and where it ended."""
        return list(dict.fromkeys([*self.phases, *(c.control[1:] for c in self.final)]))

    def query_rules(self) -> list[Rule]:
        """`tgpl_query`'s rules: per control state, a rule per way through the function that returns true."""
        d = self.query_function.defn
        if d.effect is None:
            return []
        rules: list[Rule] = []
        for turn, phase in self.controls():
            self.limits.check()
            p = self.sc.var()
            start = SegClause([Atom("#control", (p, Const(turn), Const(phase)))], {"#this": None}, (),
                              (p, turn, phase))
            try:
                ways = self.holds(d.effect.body, [start], {}, set())
            except Unsupported as e:
                raise Unsupported(f"the query: {e}") from None
            rules += [Rule(Atom(QUERY_HEAD, ()), tuple(c.body)) for c in ways]
        return list(dict.fromkeys(rules))


def query_function(program, name: str):
    """The function info of the query function `name` (global, bool, no inputs)."""
    for fi in program.functions:
        if fi.name == name:
            if fi.defn.inputs:
                raise Unsupported("a query with inputs")
            return fi
    raise KeyError(name)


def queried_game(program, name: str):
    """A `make` for tgpl.lowering.compiled.compile_game: CompiledGames that also compile the query `name`."""
    fi = query_function(program, name)

    def make(*args, **kwargs) -> QueriedGame:
        return QueriedGame(fi, *args, **kwargs)
    return make


__all__ = ["QUERY_HEAD", "QueriedGame", "queried_game"]
