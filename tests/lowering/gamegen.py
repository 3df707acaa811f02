"""A hypothesis strategy for small, valid, terminating two-player TGPL games that lower.

Each game has a one-row board of two or three `Cell` tiles and a global
`GameState`, with attributes of every kind the lowering tracks as fluents:

| attribute | type | written by |
| --- | --- | --- |
| `Cell.Free`, `GameState.Flag` | bool | any generated bool expression |
| `Cell.Marks`, `GameState.Level` | number | `(n + k) % 3`, or a reset to 0: counters in 0..2 |
| `Cell.Owner`, `GameState.Last` | `PlayerState` (an object) | `this`, `null`, each other |
| `GameState.Who` | player | `player.active()`, `player.active() + 1` |
| `GameState.Bonus` | number or null | `null`, `0` when null, else `(Bonus + 1) % 3` |
| `GameState.Moves` | number | every move adds one; `Moves >= N` ends the game |
| `GameState.Picked` | `List<Cell>` | `add` (of a cell it does not hold), `remove`, `clear` |

Each end cell's `Near` lists the other (fixed in setup): read by index, `length` and `contains`,
also in functions whose cell is a variable of compiled rules; the player `GameState.Who` is also
compared with the numbers 0 and 1.

Generated code reads them back in every position: the filter of the move's
input, `require`, the move's effect, a phase run after every move
(`CheckPhase`; or, read-only, in a function `GameState.Judge` it calls, which the compiled
moves ask at the next decision), bool/number/object functions (pure ones are called from
filters too, and become named relations in the rules; one that writes is
called from effects only), `if`/`else`, `&&`, `||`, `&`, `|`, `^`, `!`,
`==`/`!=` between bools, numbers and objects, `null` tests, locals that hold a
fluent's value across a write of that fluent, and loops with a static bound
(`for`, and `while` with a counter and a generated condition). `winner`
statements guarded by generated conditions end the game early; the move
counter ends it after a few moves in any case, so every play is short.

Events: a `Note` event (`bool b`, `number n`, `PlayerState who`) may be made,
filled in and thrown (`event.throw`) from effects and
the phase; generated listeners of `PlayerState` (`Hear`, and `Echo` on the
`Loud` subclass, each with a generated priority) judge it in their trigger
and `require` and read `event.b`, `event.n`, `event.who` in their effects.

Generated games avoid runtime errors (a member of `null` is only read behind
`!= null &&`), since the lowering assumes a game never reaches one.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from hypothesis import strategies as st

CELLS = ("GameState.A", "GameState.B")


@dataclass
class Ctx:
    """What code at one point may use."""

    cells: tuple[str, ...]  # expressions of type Cell
    this: bool = False  # `this` is a PlayerState (actions)
    writes: bool = True  # may change the game (effects, phases, impure functions)
    winner: bool = False  # may end the game
    functions: bool = True  # may call the generated functions
    bools: tuple[str, ...] = ()  # bool locals in scope
    numbers: tuple[str, ...] = ()  # number locals in scope (loop counters included)
    objects: tuple[str, ...] = ()  # PlayerState locals in scope
    names: list = field(default_factory=lambda: [0])  # shared counter for fresh local names
    event: bool = False  # `event` is a Note (listeners)
    throws: bool = False  # may make and throw events

    def fresh(self, prefix: str) -> str:
        self.names[0] += 1
        return f"{prefix}{self.names[0]}"


# ------------------------------------------------------------------ expressions
def number_expr(draw, ctx: Ctx) -> str:
    cell = draw(st.sampled_from(ctx.cells))
    options = [f"{cell}.Marks", "GameState.Level", "GameState.Moves", str(draw(st.integers(0, 2))),
               f"({cell}.Marks + GameState.Level)"]
    options += list(ctx.numbers)
    if ctx.functions:
        options.append(f"Score(x: {cell})")
    if ctx.event:
        options.append("event.n")
    options.append("GameState.Picked.length")
    return draw(st.sampled_from(options))


def object_expr(draw, ctx: Ctx) -> str:
    cell = draw(st.sampled_from(ctx.cells))
    options = [f"{cell}.Owner", "GameState.Last", "null"] + list(ctx.objects)
    if ctx.event:
        options.append("event.who")
    if ctx.this:
        options.append("this")
    if ctx.functions:
        options.append(f"Holder(x: {cell})")
    return draw(st.sampled_from(options))


def bool_atom(draw, ctx: Ctx) -> str:
    cell = draw(st.sampled_from(ctx.cells))
    kind = draw(st.sampled_from(["bool", "bool", "bool", "number", "number", "object", "owner", "player", "local",
                                 "call", "bonus", "near", "side"]))
    if kind == "bool":
        return draw(st.sampled_from([f"{cell}.Free", "GameState.Flag"]))
    if kind == "number":
        op = draw(st.sampled_from(["==", "!=", "<", ">=", ">"]))
        right = number_expr(draw, ctx) if draw(st.booleans()) else str(draw(st.integers(0, 2)))
        return f"({number_expr(draw, ctx)} {op} {right})"
    if kind == "object":
        op = draw(st.sampled_from(["==", "!="]))
        return f"({object_expr(draw, ctx)} {op} {object_expr(draw, ctx)})"
    if kind == "owner":  # a member of an object fluent, behind its null test
        o = draw(st.sampled_from([f"{cell}.Owner", "GameState.Last"] + list(ctx.objects)))
        return f"({o} != null && {o}.player == player.active())"
    if kind == "bonus":  # a number that may be null
        return draw(st.sampled_from(["(GameState.Bonus == null)", "(GameState.Bonus != null)",
                                     f"(GameState.Bonus != null && GameState.Bonus >= {draw(st.integers(0, 2))})",
                                     f"(GameState.Bonus == {draw(st.integers(0, 2))})"]))
    if kind == "player":
        return draw(st.sampled_from(["(GameState.Who == player.active())", "(GameState.Who != player.active() + 1)"]))
    if kind == "near":  # a cell's list of neighbours, fixed in setup (a table, when the cell is a variable)
        return draw(st.sampled_from([f"{cell}.Near.contains(GameState.A)", f"!{cell}.Near.contains(GameState.B)",
                                     f"({cell}.Near.length > 0 && {cell}.Near[0].Free)", f"({cell}.Near.length == 1)"]))
    if kind == "side":  # a player compared with a number
        return draw(st.sampled_from(["(GameState.Who == 0)", "(GameState.Who != 1)", "(1 == GameState.Who)"]))
    if kind == "local" and ctx.bools:
        return draw(st.sampled_from(ctx.bools))
    if kind == "call" and ctx.functions:
        return f"IsOpen(x: {cell})"
    if draw(st.integers(0, 4)) == 0:  # the list that is state, read
        return draw(st.sampled_from([f"GameState.Picked.contains({cell})", f"(GameState.Picked.indexOf({cell}) == 0)",
                                     f"(GameState.Picked.length > 0 && GameState.Picked[0] == {cell})"]))
    if ctx.event and draw(st.booleans()):
        return draw(st.sampled_from(["event.b", "(event.who == this)", f"(event.n == {draw(st.integers(0, 2))})"]))
    return f"{cell}.Free"


def bool_expr(draw, ctx: Ctx, depth: int = 2) -> str:
    if depth <= 0 or draw(st.integers(0, 2)) == 0:
        return bool_atom(draw, ctx)
    op = draw(st.sampled_from(["!", "&&", "||", "&&", "||", "==", "!=", "&", "|", "^", "literal"]))
    if op == "!":
        return f"!({bool_expr(draw, ctx, depth - 1)})"
    if op == "literal":  # constants next to symbolic values
        return f"({bool_expr(draw, ctx, depth - 1)} {draw(st.sampled_from(['&&', '||', '==']))} " \
               f"{draw(st.sampled_from(['true', 'false']))})"
    return f"({bool_expr(draw, ctx, depth - 1)} {op} {bool_expr(draw, ctx, depth - 1)})"


# ------------------------------------------------------------------ statements
def assignment(draw, ctx: Ctx) -> str:
    cell = draw(st.sampled_from(ctx.cells))
    kind = draw(st.sampled_from(["bool", "bool", "flag", "marks", "level", "owner", "last", "who", "bonus",
                                 "picked"]))
    if kind == "bool":
        return f"{cell}.Free = {bool_expr(draw, ctx, 1)};"
    if kind == "flag":
        return f"GameState.Flag = {bool_expr(draw, ctx, 1)};"
    if kind == "marks":
        if draw(st.booleans()):
            return f"{cell}.Marks = ({cell}.Marks + {draw(st.integers(1, 2))}) % 3;"
        return f"if ({bool_expr(draw, ctx, 1)}) {{ {cell}.Marks = 0; }}"
    if kind == "level":
        return f"GameState.Level = ({number_expr(draw, replace(ctx, numbers=()))} + 1) % 3;"
    if kind == "owner":
        value = draw(st.sampled_from((["this"] if ctx.this else []) + ["null", "GameState.Last"] + list(ctx.objects)))
        return f"{cell}.Owner = {value};"
    if kind == "last":
        return f"GameState.Last = {object_expr(draw, ctx)};"
    if kind == "picked":
        return draw(st.sampled_from([f"if (!GameState.Picked.contains({cell})) {{ GameState.Picked.add({cell}); }}",
                                     f"GameState.Picked.remove({cell});", "GameState.Picked.clear();"]))
    if kind == "bonus":
        return draw(st.sampled_from(["GameState.Bonus = null;", "if (GameState.Bonus == null) { GameState.Bonus = 0; } "
                                     "else { GameState.Bonus = (GameState.Bonus + 1) % 3; }"]))
    return draw(st.sampled_from(["GameState.Who = player.active();", "GameState.Who = player.active() + 1;"]))


def mark(draw, ctx: Ctx) -> str:
    """A write to the chosen cell `c` that tells apart who played it: plays leave different states."""
    return draw(st.sampled_from(["c.Owner = this;", "c.Free = !c.Free;", "c.Marks = (c.Marks + 1) % 3;",
                                 f"c.Free = {bool_expr(draw, ctx, 1)};",
                                 f"if ({bool_expr(draw, ctx, 1)}) {{ c.Owner = this; }} else {{ c.Owner = null; }}"]))


def statements(draw, ctx: Ctx, depth: int = 2, size: int = 3) -> tuple[list[str], Ctx]:
    """A block's statements, and the context after them (with the locals they declare)."""
    out: list[str] = []
    for _ in range(draw(st.integers(0 if depth < 2 else 1, size))):
        kinds = ["bool local", "number local", "object local", "if"]
        if ctx.writes:
            kinds += ["assign", "assign", "assign"]
            if ctx.functions:
                kinds.append("bump")
        if ctx.bools:
            kinds.append("set local")
        if depth > 0:
            kinds += ["for", "while", "branch local", "branch local", "accumulate"]
        if ctx.winner:
            kinds.append("winner")
        if ctx.throws and ctx.writes:
            kinds += ["throw", "throw"]
        kind = draw(st.sampled_from(kinds))
        if kind == "bool local":
            name = ctx.fresh("b")
            out.append(f"bool {name} = {bool_expr(draw, ctx)};")
            ctx = replace(ctx, bools=ctx.bools + (name,))
        elif kind == "number local":
            name = ctx.fresh("n")
            out.append(f"number {name} = {number_expr(draw, ctx)};")
            ctx = replace(ctx, numbers=ctx.numbers + (name,))
        elif kind == "object local":
            name = ctx.fresh("o")
            out.append(f"PlayerState {name} = {object_expr(draw, ctx)};")
            ctx = replace(ctx, objects=ctx.objects + (name,))
        elif kind == "set local":
            out.append(f"{draw(st.sampled_from(ctx.bools))} = {bool_expr(draw, ctx)};")
        elif kind == "assign":
            out.append(assignment(draw, ctx))
        elif kind == "bump":
            cell = draw(st.sampled_from(ctx.cells))
            if draw(st.booleans()):
                out.append(f"if (Bump(x: {cell})) {{ {assignment(draw, ctx)} }}")
            else:
                name = ctx.fresh("b")
                out.append(f"bool {name} = Bump(x: {cell}) && {bool_expr(draw, ctx, 1)};")
                ctx = replace(ctx, bools=ctx.bools + (name,))
        elif kind == "if" and depth > 0:
            then, _ = statements(draw, ctx, depth - 1)
            text = f"if ({bool_expr(draw, ctx)}) {{ {' '.join(then)} }}"
            if draw(st.booleans()):
                text += f" else {{ {' '.join(statements(draw, ctx, depth - 1)[0])} }}"
            out.append(text)
        elif kind == "for":
            i = ctx.fresh("i")
            body, _ = statements(draw, replace(ctx, numbers=ctx.numbers + (i,)), depth - 1)
            out.append(f"for (number {i} = 0; {i} < {draw(st.integers(1, 2))}; {i} += 1) {{ {' '.join(body)} }}")
        elif kind == "while":
            k = ctx.fresh("k")
            body, _ = statements(draw, replace(ctx, numbers=ctx.numbers + (k,)), depth - 1)
            out.append(f"number {k} = 0; while ({k} < {draw(st.integers(1, 2))} && {bool_expr(draw, ctx, 1)}) "
                       f"{{ {' '.join(body)} {k} += 1; }}")
        elif kind == "branch local":  # a local that differs between the paths that meet after the `if`
            lines, ctx = branch_local(draw, ctx)
            out.extend(lines)
        elif kind == "accumulate":  # a flag or-ed (and-ed) over a loop, as lowerable searches are written
            name, i = ctx.fresh("b"), ctx.fresh("i")
            op = draw(st.sampled_from(["||", "&&"]))
            step = bool_expr(draw, replace(ctx, numbers=ctx.numbers + (i,)), 1)
            out.append(f"bool {name} = {'false' if op == '||' else 'true'}; "
                       f"for (number {i} = 0; {i} < 2; {i} += 1) {{ {name} = {name} {op} {step}; }}")
            ctx = replace(ctx, bools=ctx.bools + (name,))
            if ctx.writes:
                out.append(f"{draw(st.sampled_from(ctx.cells))}.Free = {name};")
        elif kind == "winner":
            out.append(f"if ({bool_expr(draw, ctx)}) {{ winner {winner_value(draw)}; }}")
        elif kind == "throw":
            out.extend(throw(draw, ctx))
        else:  # an `if` at the innermost depth: a guarded assignment or local
            what = assignment(draw, ctx) if ctx.writes else ""
            out.append(f"if ({bool_expr(draw, ctx)}) {{ {what} }}")
    return out, ctx


def throw(draw, ctx: Ctx) -> list[str]:
    """A Note (or a Loud) made, filled in with values of the moment, and thrown (answered after the block)."""
    name = ctx.fresh("e")
    kind = draw(st.sampled_from(["Note", "Loud"]))
    lines = [f"{kind} {name} = new {kind}();"]
    if draw(st.booleans()):
        lines.append(f"{name}.b = {bool_expr(draw, ctx, 1)};")
    if draw(st.booleans()):
        lines.append(f"{name}.n = {number_expr(draw, replace(ctx, event=False))} % 3;")
    if draw(st.booleans()):
        lines.append(f"{name}.who = {object_expr(draw, ctx)};")
    lines.append(f"event.throw({name});")  # throw_sync is refused by the lowering (docs/lowering.md)
    return lines


def listener(draw, name: str, event: str, names: list) -> str:
    """An action of PlayerState answering `event` (a Note or a Loud): a trigger, maybe a require and a
    priority, and an effect reading the event (it may end the game, but throws nothing). `event` is not in
    scope in a require (decision 31)."""
    ctx = Ctx(CELLS, this=True, winner=True, names=names, event=True)
    judge = replace(ctx, writes=False, winner=False)
    prio = f"prio {draw(st.integers(-1, 2))};" if draw(st.booleans()) else ""
    require = f"require {{ return {bool_expr(draw, replace(judge, event=False), 1)}; }}" if draw(st.booleans()) else ""
    body, _ = statements(draw, ctx, 1, 2)
    return f"""
    action {name}
    {{
        {prio}
        {require}
        trigger {event} {{ return {bool_expr(draw, judge, 2)}; }}
        effect
        {{
{block(body, 12)}
        }}
    }}"""


def branch_local(draw, ctx: Ctx) -> tuple[list[str], Ctx]:
    """A bool, number or object local set differently on the two sides of an `if`, then used."""
    cond = bool_expr(draw, ctx)
    cell = draw(st.sampled_from(ctx.cells))
    kind = draw(st.sampled_from(["bool", "number", "object"]))
    if kind == "bool":
        name = ctx.fresh("b")
        lines = [f"bool {name} = {bool_expr(draw, ctx, 1)};",
                 f"if ({cond}) {{ {name} = {bool_expr(draw, ctx, 1)}; }} else {{ {name} = !{name}; }}"]
        use = f"{cell}.Free = {name};"
        ctx = replace(ctx, bools=ctx.bools + (name,))
    elif kind == "number":
        name = ctx.fresh("n")
        lines = [f"number {name} = {number_expr(draw, ctx)};",
                 f"if ({cond}) {{ {name} = {name} + 1; }}"]
        use = f"{cell}.Marks = {name} % 3;"
        ctx = replace(ctx, numbers=ctx.numbers + (name,))
    else:
        name = ctx.fresh("o")
        lines = [f"PlayerState {name} = {object_expr(draw, ctx)};",
                 f"if ({cond}) {{ {name} = {object_expr(draw, ctx)}; }}"]
        use = f"{cell}.Owner = {name};" if draw(st.booleans()) else f"GameState.Last = {name};"
        ctx = replace(ctx, objects=ctx.objects + (name,))
    if ctx.writes:
        lines.append(use)
    return lines, ctx


def winner_value(draw) -> str:
    return draw(st.sampled_from(["player.active()", "player.active() + 1", "GameState.Who", "{ {0, 1} }",
                                 "{ {1}, {0} }"]))


SEATS = """    PlayerState first = new PlayerState();
    first.assign(0);
    PlayerState second = new PlayerState();
    second.assign(1);
    turn.use("GameTurn");
    turn.pass(0, "PlayPhase");"""
"""The end of setup: a PlayerState for each player, whose actions are the moves, and player 0 to move."""


def turn(check: str) -> str:
    """The turn of the test games: a move in PlayPhase, then `check` in CheckPhase, then the other player's move."""
    return """turn GameTurn
{
    phase PlayPhase { }
    phase CheckPhase
    {
CHECK
        turn.pass();
    }

    default
    {
        if (turn.phase.active() == "CheckPhase")
        {
            turn.pass(player.active() + 1, "PlayPhase");
        }
        else
        {
            turn.pass(player.active(), "CheckPhase");
        }
    }
}""".replace("CHECK", check)


def block(lines: list[str], indent: int) -> str:
    pad = " " * indent
    return "\n".join(pad + line for line in lines)


# ------------------------------------------------------------------ the game
@st.composite
def games(draw) -> str:
    """The source of a small two-player game (see the module docstring)."""
    width = draw(st.integers(2, 3))
    moves = draw(st.integers(3, 5))
    free = draw(st.booleans())
    flag = draw(st.booleans())
    marks = draw(st.integers(0, 2))
    names = [0]
    base = Ctx(CELLS, names=names)

    pure = Ctx(("x",) + CELLS, writes=False, functions=False, names=names)  # function bodies call no function
    is_open, fn = statements(draw, pure, 1, 2)
    is_open.append(f"if ({bool_expr(draw, fn)}) {{ return {bool_expr(draw, fn, 1)}; }}")
    is_open.append(f"return {bool_expr(draw, fn)};")
    holder_cond = bool_expr(draw, replace(pure, cells=("x",)), 1)
    score = draw(st.sampled_from(["x.Marks", "x.Marks + GameState.Level", "GameState.Level"]))
    bump_value = bool_expr(draw, replace(pure, cells=("x",)), 1)

    events = draw(st.booleans())
    action = Ctx(("c",) + CELLS, this=True, winner=True, names=names, throws=events)
    filter_body, fc = statements(draw, replace(action, writes=False, winner=False), 1, 2)
    accept = bool_expr(draw, fc, 2)
    if draw(st.booleans()):  # most cells pass, most of the time: games where the filter matters
        accept = f"{accept} || {bool_expr(draw, fc, 1)}"
    filter_body.append(f"return {accept};")
    requires = ""
    if draw(st.booleans()):
        requires = f"require {{ return {bool_expr(draw, replace(action, cells=CELLS, writes=False))}; }}"
    effect, _ = statements(draw, action, 2, 4)
    effect = [mark(draw, action) for _ in range(draw(st.integers(1, 2)))] + effect

    toggle = ""
    if draw(st.booleans()):
        t_ctx = replace(action, cells=CELLS, bools=("v",))
        t_require = bool_expr(draw, replace(action, cells=CELLS, writes=False), 1)  # inputs are not in scope
        t_effect, _ = statements(draw, t_ctx, 1, 2)
        toggle = f"""
    action Toggle
    {{
        input bool v;
        require {{ return {t_require}; }}
        trigger PlayerChoiceEvent {{ return true; }}
        effect
        {{
{block(t_effect, 12)}
            GameState.Moves += 1;
            turn.pass();
        }}
    }}"""

    listeners = ""
    if events:
        listeners = listener(draw, "Hear", "Note", names) + (listener(draw, "Echo", "Loud", names)
                                                              if draw(st.booleans()) else "")
    check, _ = statements(draw, replace(base, winner=True, throws=events), 2, 3)
    last = f"if (GameState.Moves >= {moves}) {{ winner {winner_value(draw)}; }}"
    judge = ""
    if draw(st.booleans()):  # the last checks in a function that only reads: the compiled moves ask it next decision
        reads = replace(base, writes=False, winner=True, throws=False)
        judge = f"""

    function Judge
    {{
        function input player mover;
        returns;
        effect
        {{
            if ({bool_expr(draw, reads)}) {{ winner {draw(st.sampled_from(["mover", "mover + 1"]))}; }}
            {last}
        }}
    }}"""
        last = "GameState.Judge(mover: player.active());"
    check.append(last)
    check_phase = block(check, 8)
    return f"""game "prop";
players 2;

setup
{{
    GameState.Board = new PropBoard();
    GameState.A = GameState.Board.Grid[0][0] as Cell;
    GameState.B = GameState.Board.Grid[{width - 1}][0] as Cell;
    GameState.B.Free = {str(free).lower()};
    GameState.A.Near.add(GameState.B);
    GameState.B.Near.add(GameState.A);
{SEATS}
}}

global class GameState
{{
    PropBoard Board = null;
    Cell A = null;
    Cell B = null;
    number Moves = 0;
    bool Flag = {str(flag).lower()};
    number Level = 0;
    PlayerState Last = null;
    player Who = 0;
    number Bonus = null;
    List<Cell> Picked = {{}};{judge}
}}

event Note
{{
    bool b = false;
    number n = 0;
    PlayerState who = null;
}}

event Loud : Note {{ }}

tile Cell
{{
    bool Free = true;
    number Marks = {marks};
    PlayerState Owner = null;
    List<Cell> Near = {{}};
}}

board PropBoard
{{
    group Grid
    {{
        geometry square;
        grid {{ {", ".join(["Cell"] * width)}; }}
    }}
}}

function IsOpen
{{
    function input Cell x;
    returns bool;
    effect
    {{
{block(is_open, 8)}
    }}
}}

function Holder
{{
    function input Cell x;
    returns PlayerState;
    effect
    {{
        if ({holder_cond}) {{ return x.Owner; }}
        return GameState.Last;
    }}
}}

function Score
{{
    function input Cell x;
    returns number;
    effect
    {{
        return {score};
    }}
}}

function Bump
{{
    function input Cell x;
    returns bool;
    effect
    {{
        x.Marks = (x.Marks + 1) % 3;
        return {bump_value};
    }}
}}

class PlayerState
{{
    action Play
    {{
        input Cell c
        {{
{block(filter_body, 12)}
        }}
        {requires}
        trigger PlayerChoiceEvent {{ return true; }}
        effect
        {{
{block(effect, 12)}
            GameState.Moves += 1;
            turn.pass();
        }}
    }}{toggle}{listeners}

    action Pass
    {{
        trigger PlayerChoiceEvent {{ return true; }}
        effect
        {{
            GameState.Moves += 1;
            turn.pass();
        }}
    }}
}}

{turn(check_phase)}
"""
