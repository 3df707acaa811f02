"""The mending of GDL's restrictions in a lowered program, in two stages, so that a program thrown away costs little.

The lowering's rules may break GDL's restrictions in ways that can be mended without changing the game (the
recursion restriction: tgpl.asp.recursion; a loop that reads nothing of the state: tgpl.asp.static_loops). The
mending that reads the game's relaxation (bind_recursion) costs seconds of clingo (Atari Go's: 6 to 10 s), and a
game with its moves compiled may be compiled again, with other settings, when its rules hold a negation cycle
(tgpl.lowering.compiled.compile_game): mending that compilation was wasted. The costly stage neither adds nor
breaks a negation cycle (it adds literals of tables, facts read positively, and drops arguments: never a relation
nor a read of one), so the cycles are seen after the cheap stage, and the costly one runs only on a compilation
that is kept, which is then checked whole.

The lowering may not import the layers that mend and check (tgpl.asp): the stages and the check of the negation
cycles are passed in (tgpl.pipeline.lower_game).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tgpl.frontend.diagnostics import Diagnostic
from tgpl.lowering.ir import Program

Mend = Callable[[Program], Program]  # the program with some of what breaks GDL's restrictions mended, the same game
Cycles = Callable[[Program], list[Diagnostic]]  # a program's negation cycles (tgpl.asp.validate.negation_cycles)


@dataclass(frozen=True)
class StagedRepair:
    """A repair in two stages: `cheap`, then `costly`, which leaves the negation cycles as they are: a compilation
    of the moves that `cycles` (the negation cycles of the cheap stage's program) says is compiled again
    (compile_game) is spared it. Called, both stages run: the spelled-out lowering is never compiled again."""

    cheap: Mend
    costly: Mend | None = None
    cycles: Cycles | None = None

    def __call__(self, program: Program) -> Program:
        """`program` mended by both stages."""
        return self.finished(self.cheap(program))

    @property
    def spares(self) -> bool:
        """Whether a compilation compiled again can be spared a stage: there is a costly one, and the cycles to
        tell which compilations those are."""
        return self.costly is not None and self.cycles is not None

    def finished(self, program: Program) -> Program:
        """`program`, mended by the cheap stage, mended by the costly one too."""
        return program if self.costly is None else self.costly(program)

    @classmethod
    def of(cls, repair: Repair) -> StagedRepair:
        """`repair` as stages: a plain function is one cheap stage, so that nothing is left for later."""
        return repair if isinstance(repair, StagedRepair) else cls(repair)


Repair = Mend | StagedRepair  # the program with what breaks GDL's restrictions mended, the same game
