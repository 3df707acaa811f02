"""`turn.pass()` spelled inline in generated code (`codegen.BlockGenerator.turn_pass`).

A Tris move passes the turn twice with `turn.pass()` (`Tick` and the win check), which runs the
turn's `default` (`Machine.turn_pass_default`). A default that reads only the control is not run
again once its outcome is known (`tgpl.runtime.defaults`): the machine keeps each outcome in the
game's table of every tabulated turn's (`Passes.seen`), and the inline spelling finds it there and
unpacks it into the control at once. Anything else (a pass not seen yet, a default that is not
tabulated, a frozen machine, the errors) is the machine's call, which does what it always did.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Passes:
    """What inline passes need of the game, shared by every block the compiler generates."""

    # Every tabulated turn's outcomes together, (turn, player, phase, players) -> (player, phase, last
    # pass or None: the site's): what the code finds first (`to_default`), filled by the machine
    # with each turn's own table (`Machine.turn_pass_default`)
    seen: dict[tuple, tuple] = field(default_factory=dict)

    def fill(self, turns: dict) -> None:
        """Give the turns whose default has a plain spelling and reads only the control their tables."""
        for turn in turns.values():
            if turn.plain is not None and turn.control_only:
                turn.seen = self.seen


def to_default(emit, name, span: str, depth: int, seen: str) -> None:
    """`turn.pass()`: the active turn's default's outcome for this player and phase, when it was
    seen (`Passes.seen`, by the turn, player, phase and players together, looked up once), else
    the machine's `turn_pass_default`."""
    out, c, last = name("_o"), name("_c"), name("_lp")
    emit(depth, f"if not FZ and ({out} := {seen}.get((({c} := m.world.control).turn, {c}.player, "
                f"{c}.phase, m.players))) is not None:")
    # the outcome unpacked, in its order (player, phase, latest pass), not read item by item
    emit(depth + 1, f"{c}.player, {c}.phase, {last} = {out}")
    emit(depth + 1, f"m.last_pass = {last} or {span}")  # None: the default passed nothing, it returned
    emit(depth + 1, "m.enter_pending = True")
    emit(depth, "else:")
    emit(depth + 1, f"m.turn_pass_default({span})")


__all__ = ["Passes", "to_default"]
