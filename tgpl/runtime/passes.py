"""`turn.pass()` spelled inline in generated code (`codegen.BlockGenerator.turn_pass`).

A Tris move passes the turn twice with `turn.pass()` (`Tick` and the win check), which runs the
turn's `default` (`Machine.turn_pass_default`). Inline, the common case is done in place and
anything else goes to the machine's method, which does what it always did: when the active turn's
default has a plain spelling (`RTurn.plain`, in a table filled once every turn is compiled,
`Passes.defaults`) and the machine is not frozen, the default runs as `Machine.turn_pass_default`
runs it, its entry on the machine's stack, and what is left to do when it returned a player or
passed nothing is the machine's (`default_done`). A default that reads only the control is not run
again once its outcome is known (`tgpl.runtime.defaults`).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Passes:
    """What inline passes need of the game, shared by every block the compiler generates."""

    # turn name -> (plain spelling, stack label, its locals on entry, the RTurn, its outcomes) for the
    # turns whose default has a plain spelling; filled once the turns are compiled (`fill`), read as
    # code runs. The outcomes (`tgpl.runtime.defaults`), when the default reads only the control: a
    # table (player, phase, players) -> (player, phase, last pass or None: the site's) that the code fills; else None.
    defaults: dict[str, tuple] = field(default_factory=dict)
    # Every tabulated turn's outcomes together, (turn, player, phase, players) -> its outcome: what
    # the code finds first (`to_default`), filled with each turn's own table
    seen: dict[tuple, tuple] = field(default_factory=dict)

    def fill(self, turns: dict) -> None:
        for name, turn in turns.items():
            if turn.plain is not None:
                table = turn.outcomes = {} if turn.control_only else None
                self.defaults[name] = (turn.plain, turn.default_what, turn.nulls, turn, table)


def _run_default(emit, d: str, pending: str, stack: str, r: str, span: str, too_large: str, depth: int) -> None:
    """The default `d` (its plain spelling, entry, locals and site, as `to_default` has them) run as
    `Machine.turn_pass_default` runs it: its entry on the stack, the pass it makes, or the player it
    returns made the control by `default_done`."""
    emit(depth, f"{pending} = m.enter_pending")
    emit(depth, f"m.last_pass = {span}")
    emit(depth, "m.enter_pending = False")
    emit(depth, f"{stack} = m.stack")
    emit(depth, f"{stack}.append(({d}[1], {span}))")
    emit(depth, "try:")
    emit(depth + 1, f"{r} = {d}[0](m, None, {d}[2])")
    emit(depth, "except OverflowError:")
    emit(depth + 1, f"m.error({span}, {too_large})")
    emit(depth, "finally:")
    emit(depth + 1, f"{stack}.pop()")
    emit(depth, f"if {r} is not None or not m.enter_pending:")
    emit(depth + 1, f"m.default_done({r}, {pending}, {d}[3], {span})")


def to_default(emit, name, defaults: str, span: str, too_large: str, depth: int, seen: str) -> None:
    """`turn.pass()`: the active turn's default run through its plain spelling (`defaults`), or its
    outcome for this player and phase, when it has a table (`tgpl.runtime.defaults`) and it was seen:
    looked up once in the game's table of every turn's outcomes (`Passes.seen`), by the turn, player,
    phase and players together, and unpacked into the control at once. A run that does not raise is
    kept in its turn's table and in `seen`."""
    d, pending, stack, r = name("_d"), name("_pe"), name("_sk"), name("_r")
    table, key, out, c, last = name("_tb"), name("_ky"), name("_o"), name("_c"), name("_lp")
    emit(depth, f"if not FZ and ({out} := {seen}.get((({c} := m.world.control).turn, {c}.player, "
                f"{c}.phase, m.players))) is not None:")
    # the outcome unpacked, in its order (player, phase, latest pass), not read item by item
    emit(depth + 1, f"{c}.player, {c}.phase, {last} = {out}")
    emit(depth + 1, f"m.last_pass = {last} or {span}")  # None: the default passed nothing, it returned
    emit(depth + 1, "m.enter_pending = True")
    emit(depth, f"elif not FZ and ({d} := {defaults}.get({c}.turn)) is not None:")
    # the key made again where it is kept, before the default changes the control: not bound where it
    # is found, as most passes find it
    emit(depth + 1, f"{key} = ({c}.turn, {c}.player, {c}.phase, m.players)")
    _run_default(emit, d, pending, stack, r, span, too_large, depth + 1)
    emit(depth + 1, f"if ({table} := {d}[4]) is not None:")
    emit(depth + 2, f"{table}[{key}[1:]] = {seen}[{key}] = "
                    f"({c}.player, {c}.phase, None if m.last_pass is {span} else m.last_pass)")
    emit(depth, "else:")
    emit(depth + 1, f"m.turn_pass_default({span})")


__all__ = ["Passes", "to_default"]
