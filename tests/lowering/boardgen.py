"""A hypothesis strategy for small two-player board games written the way designers write them.

tests/lowering/gamegen.py writes games of a few cells whose attributes are read
in every position; the games a designer writes look different (issue 34): a
board on a square grid, a function `At(x, y)` that returns null off the board,
a `while` loop that walks a direction from a square and returns early, a
function that calls that walk for several directions and sums, an effect that
flips or removes the discs a walk found (a counted loop over directions, an
inner loop writing), counts over the board (two nested `for` loops) in `winner`
decisions and `require`s, and end checks in the phase and in functions. This
module writes such games, small enough to explore completely beside the runtime:

| choice | values |
| --- | --- |
| board | 3×3 or 4×3 squares (`Sq`, a `player Disc`), 0 to 2 discs placed in setup (where only flanking moves are legal: one of player 1 at (1, 1) and one of player 0 beyond it in the first direction) |
| directions | 2 to 4 of the 8, as lists `GameState.DX`/`DY` |
| `Walk(x, y, dx, dy, who)` | a flank (others' discs closed by one of `who`'s) counted with `At(x + n*dx, y + n*dy)`; the same with a cursor `cx += dx` and early `return`s inside the `while`; a run of `who`'s discs |
| `Around(x, y, who)` | the walks summed: a counted loop over the lists, or one call per direction with literal steps; both ways along each direction or not |
| the move's square | its coordinates from attributes set in setup, or found by a nested loop over the board |
| `Place`'s filter | an empty square, or one where `Around(...) > 0` |
| `Place`'s effect | for each direction, the discs `Walk` found turned to the mover, removed, or given to the other (loops that write: the moves are compiled), or nothing (spelled out by `--moves auto`); the square taken |
| `Pass` | always legal, legal exactly when `Place` is not (`require { return !HasMove(who: player); }`), or absent |
| `Place`'s `require` (with `Pass` always legal) | a comparison of counts, or a board with an empty square (`AnyEmpty`, an early `return` in nested loops) |
| end (`EndPhase`, after every move) | `Moves >= M` (M in 3..4) decided by `Count`s; and maybe `Lined(who)` (a walk of `L` from some square, early `return` in three nested loops), no disc left to the other player, a full board; inline or in a function `GameState.Judge` holding the `winner`s |

Every game ends after at most M moves (a move counter), so its states are a few hundred
to a few thousand. `boards()` gives a `BoardGame`: its source and the names of the
shapes it has (for a tally of what a run covered).
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from differential import Lowered, bisimulate
from tgpl.asp.estimate import rule_bounds
from tgpl.asp.reasoner import GdlGame
from tgpl.asp.validate import validate
from tgpl.frontend.diagnostics import render_all
from tgpl.frontend.loader import load_program
from tgpl.lowering.lower import NotLowerable
from tgpl.pipeline import lower_game, written_gdl_errors
from tgpl.runtime.game import Game, compile_program

DIRECTIONS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))


@dataclass(frozen=True)
class BoardGame:
    """A generated game: its source and the shapes (`shape=value` names) it was written with."""

    source: str
    shapes: tuple[str, ...]


def walk_function(kind: str) -> str:
    """`Walk(x, y, dx, dy, who)`: how many discs from (x + dx, y + dy) on the move may take."""
    if kind == "flank":  # Reversi's FlipsIn: others' discs closed by one of who's
        body = """number n = 1;
        Sq s = At(x: x + dx, y: y + dy);
        while (s != null && s.Disc != null && s.Disc != who)
        {
            n += 1;
            s = At(x: x + n * dx, y: y + n * dy);
        }
        if (s != null && s.Disc == who) { return n - 1; }
        return 0;"""
    elif kind == "cursor":  # the same with a cursor, and early returns inside the loop
        body = """number cx = x + dx;
        number cy = y + dy;
        number n = 0;
        Sq s = At(x: cx, y: cy);
        while (s != null)
        {
            if (s.Disc == null) { return 0; }
            if (s.Disc == who) { return n; }
            n += 1;
            cx += dx;
            cy += dy;
            s = At(x: cx, y: cy);
        }
        return 0;"""
    else:  # "run": who's own discs in a line
        body = """number n = 0;
        Sq s = At(x: x + dx, y: y + dy);
        while (s != null && s.Disc == who)
        {
            n += 1;
            s = At(x: x + (n + 1) * dx, y: y + (n + 1) * dy);
        }
        return n;"""
    return f"""function Walk
{{
    function input number x;
    function input number y;
    function input number dx;
    function input number dy;
    function input player who;
    returns number;
    effect
    {{
        {body}
    }}
}}"""


def around_function(kind: str, dirs: list[tuple[int, int]], both: bool) -> str:
    """`Around(x, y, who)`: the walks from (x, y) summed over the directions (and their opposites, `both`)."""
    if kind == "loop":
        back = ("\n            total += Walk(x: x, y: y, dx: 0 - GameState.DX[d], dy: 0 - GameState.DY[d], who: who);"
                if both else "")
        body = f"""number total = 0;
        for (number d = 0; d < {len(dirs)}; d += 1)
        {{
            total += Walk(x: x, y: y, dx: GameState.DX[d], dy: GameState.DY[d], who: who);{back}
        }}
        return total;"""
    else:  # one call per direction, literal steps
        steps = list(dirs) + ([(-dx, -dy) for dx, dy in dirs] if both else [])
        calls = " +\n            ".join(f"Walk(x: x, y: y, dx: {dx}, dy: {dy}, who: who)" for dx, dy in steps)
        body = f"return {calls};"
    return f"""function Around
{{
    function input number x;
    function input number y;
    function input player who;
    returns number;
    effect
    {{
        {body}
    }}
}}"""


def board_loop(width: int, height: int, inner: str, indent: int) -> str:
    """`inner` inside `for x`, `for y` over the board."""
    pad = " " * indent
    return (f"for (number x = 0; x < {width}; x += 1)\n{pad}{{\n"
            f"{pad}    for (number y = 0; y < {height}; y += 1)\n{pad}    {{\n"
            f"{pad}        {inner}\n{pad}    }}\n{pad}}}")


def by_count() -> str:
    return "number a = Count(who: 0); number b = Count(who: 1); if (a > b) { winner 0; } if (b > a) { winner 1; } " \
           "winner { {0, 1} };"


@st.composite
def boards(draw) -> BoardGame:
    """A small two-player board game (see the module docstring)."""
    width = draw(st.sampled_from([3, 3, 4]))
    height = 3
    moves = draw(st.integers(3, 4))
    dirs = draw(st.lists(st.sampled_from(DIRECTIONS), min_size=2, max_size=4, unique=True))
    walk = draw(st.sampled_from(["flank", "cursor", "run"]))
    around = draw(st.sampled_from(["loop", "calls"]))
    both = draw(st.booleans())
    coords = draw(st.sampled_from(["attributes", "search"]))
    flanking = draw(st.booleans())  # Place only where Around(...) > 0
    take = draw(st.sampled_from(["player", "null", "player + 1", "none"]))  # none: no capture, no loop writes
    passing = draw(st.sampled_from(["always", "stuck"] if flanking else ["always", "none"]))
    require = draw(st.sampled_from(["none", "counts", "empty"])) if passing == "always" else "none"
    cells = [(x, y) for x in range(width) for y in range(height)]
    if flanking:  # a disc of player 1 in the middle, one of player 0 beyond it: player 0 has a first move
        dx, dy = dirs[0]
        placed, owners = [(1, 1), (1 + dx, 1 + dy)], [1, 0]
    else:
        placed = draw(st.lists(st.sampled_from(cells), max_size=2, unique=True))
        owners = [draw(st.integers(0, 1)) for _ in placed]
    wipeout = len(placed) == 2 and draw(st.booleans())  # a player without discs loses: both start with one
    if wipeout:
        owners = owners if flanking else [0, 1]
    lined = draw(st.sampled_from([0, 0, 1, 2]))  # 0: no line check; else the walk's length that wins
    full = draw(st.booleans())
    judge = draw(st.booleans())  # the end checks in a function holding the `winner`s
    slack = draw(st.integers(0, 1))
    shapes = (f"board={width}x{height}", f"walk={walk}", f"around={around}", f"both={both}", f"coords={coords}",
              f"flanking={flanking}", f"take={take}", f"pass={passing}", f"require={require}",
              f"lined={lined}", f"wipeout={wipeout}", f"full={full}", f"judge={judge}")

    setup_discs = "\n".join(f"    (GameState.Board.Grid[{x}][{y}] as Sq).Disc = {p};" for (x, y), p in zip(placed, owners))
    set_coords = ""
    if coords == "attributes":
        set_coords = "    " + board_loop(width, height, "Sq s = GameState.Board.Grid[x][y] as Sq; s.X = x; s.Y = y;", 4)
    if coords == "attributes":
        where = "number tx = target.X;\n            number ty = target.Y;"
    else:
        where = "number tx = 0;\n            number ty = 0;\n            " + board_loop(
            width, height, "if (At(x: x, y: y) == target) { tx = x; ty = y; }", 12)
    if not flanking:
        filter_body = "return target.Disc == null;"
    elif coords == "attributes":
        filter_body = "return target.Disc == null && Around(x: target.X, y: target.Y, who: player) > 0;"
    else:  # Reversi's filter: find the square, an early return in the loops
        filter_body = board_loop(width, height, "if (At(x: x, y: y) == target) "
                                 "{ return target.Disc == null && Around(x: x, y: y, who: player) > 0; }", 12) \
            + "\n            return false;"
    place_require = {"none": "",
                     "counts": f"require {{ return Count(who: player) <= Count(who: player + 1) + {slack}; }}",
                     "empty": "require { return AnyEmpty(); }"}[require]

    ends = []
    if lined:
        ends.append("if (Lined(who: MOVER)) { winner MOVER; }")
    if wipeout:
        ends.append("if (Count(who: MOVER + 1) == 0) { winner MOVER; }")
    if full:
        ends.append(f"if (!AnyEmpty()) {{ {by_count()} }}")
    ends.append(f"if (GameState.Moves >= {moves}) {{ {by_count()} }}")
    judge_function = ""
    if judge:
        judge_function = """

    function Judge
    {
        function input player mover;
        returns;
        effect
        {
            """ + "\n            ".join(e.replace("MOVER", "mover") for e in ends) + """
        }
    }"""
        phase = "GameState.Judge(mover: player.active());"
    else:
        phase = "\n        ".join(e.replace("MOVER", "player.active()") for e in ends)

    pass_action = ""
    if passing != "none":
        pass_require = "require { return !HasMove(who: player); }" if passing == "stuck" else ""
        pass_action = f"""

    action Pass
    {{
        {pass_require}
        trigger PlayerChoiceEvent {{ return true; }}
        effect
        {{
            GameState.Moves += 1;
            turn.pass(player, "EndPhase");
        }}
    }}"""

    functions = [walk_function(walk), around_function(around, dirs, both)]
    functions.append(f"""function Count
{{
    function input player who;
    returns number;
    effect
    {{
        number n = 0;
        {board_loop(width, height, "if (At(x: x, y: y).Disc == who) { n += 1; }", 8)}
        return n;
    }}
}}""")
    if require == "empty" or full:
        functions.append(f"""function AnyEmpty
{{
    returns bool;
    effect
    {{
        {board_loop(width, height, "if (At(x: x, y: y).Disc == null) { return true; }", 8)}
        return false;
    }}
}}""")
    if passing == "stuck":
        functions.append(f"""function HasMove
{{
    function input player who;
    returns bool;
    effect
    {{
        {board_loop(width, height, "if (At(x: x, y: y).Disc == null && Around(x: x, y: y, who: who) > 0) "
                    "{ return true; }", 8)}
        return false;
    }}
}}""")
    if lined:
        inner = (f"for (number d = 0; d < {len(dirs)}; d += 1) {{ if (At(x: x, y: y).Disc == who && "
                 f"Walk(x: x, y: y, dx: GameState.DX[d], dy: GameState.DY[d], who: who) >= {lined}) "
                 f"{{ return true; }} }}")
        functions.append(f"""function Lined
{{
    function input player who;
    returns bool;
    effect
    {{
        {board_loop(width, height, inner, 8)}
        return false;
    }}
}}""")
    capture = "" if take == "none" else f"""{where}
            for (number d = 0; d < {len(dirs)}; d += 1)
            {{
                number dx = GameState.DX[d];
                number dy = GameState.DY[d];
                number k = Walk(x: tx, y: ty, dx: dx, dy: dy, who: player);
                for (number i = 1; i <= k; i += 1)
                {{
                    At(x: tx + i * dx, y: ty + i * dy).Disc = {take};
                }}
            }}
            """
    grid = "\n".join("            " + ", ".join(["Sq"] * width) + ";" for _ in range(height))
    source = f"""game "board";
players 2;

setup
{{
    GameState.Board = new GenBoard();
    for (number p = 0; p < 2; p += 1)
    {{
        Seat seat = new Seat();
        seat.assign(p);
    }}
{setup_discs}
{set_coords}
    turn.use("Play");
    turn.pass(0, "MovePhase");
}}

global class GameState
{{
    GenBoard Board = null;
    number Moves = 0;
    List<number> DX = {{{", ".join(str(dx) for dx, _ in dirs)}}};
    List<number> DY = {{{", ".join(str(dy) for _, dy in dirs)}}};{judge_function}
}}

tile Sq
{{
    player Disc = null;
    number X = 0;
    number Y = 0;
}}

board GenBoard
{{
    group Grid
    {{
        geometry square;
        grid
        {{
{grid}
        }}
    }}
}}

// The square at (x, y), or null off the board
function At
{{
    function input number x;
    function input number y;
    returns Sq;
    effect
    {{
        if (x < 0 || y < 0 || x >= {width} || y >= {height}) {{ return null; }}
        return GameState.Board.Grid[x][y] as Sq;
    }}
}}

{chr(10).join(f + chr(10) for f in functions)}
class Seat
{{
    action Place
    {{
        input Sq target
        {{
            {filter_body}
        }}
        {place_require}
        trigger PlayerChoiceEvent {{ return true; }}
        effect
        {{
            {capture}target.Disc = player;
            GameState.Moves += 1;
            turn.pass(player, "EndPhase");
        }}
    }}{pass_action}
}}

turn Play
{{
    phase MovePhase {{ }}
    phase EndPhase
    {{
        {phase}
        turn.pass();
    }}
    default
    {{
        turn.pass(player.active() + 1, "MovePhase");
    }}
}}
"""
    return BoardGame(source, shapes)


PATH = "board.tgpl"
MAX_STATES = 20_000  # a generated game has at most a few thousand
WHOLE_GROUND = 2_000_000  # ground instances (tgpl.asp.estimate's bound) under which the GDL is grounded whole


@dataclass(frozen=True)
class Outcome:
    """How one way of lowering (`moves`, lower()'s) went: "lowered" and bisimulated over `states` states, or
    "refused" with `refusal` (`line:col: reason`, a place inside the game). `check_gdl`: the errors `tgpl
    check-gdl --grounding G` finds in the emitted GDL (G: the grounding its header names), the same checks to-gdl
    makes before writing (tgpl.pipeline.written_gdl_errors), whether `base` lists every fluent a rule can make
    true included; kept apart so that a test shows them."""

    moves: str
    result: str
    states: int = 0
    refusal: str = ""
    check_gdl: tuple[str, ...] = ()


def lowers_or_is_refused(source: str, check_gdl: bool = False) -> list[Outcome]:
    """The game checked clean, then lowered (tgpl.pipeline.lower_game) with `moves="auto"` and `"compiled"`:
    each either lowers to GDL that `tgpl to-gdl` would write (its structural check passes) and that bisimulates
    with the runtime's game, or is refused with NotLowerable at a line of the game. Anything else raises: an
    AssertionError for a difference, a refusal without a place, or a game the checker rejects; any other
    exception is an internal error of the lowering, raised as itself.

    With `check_gdl`, each emitted game also goes through `tgpl check-gdl`'s checks (Outcome.check_gdl; they
    ground the relaxed game, most of the time a lowering takes here).

    When `auto` compiled the moves, `compiled` would do the very same work (lower() takes the same path), so
    it is not run twice."""
    program = load_program(PATH, text=source)
    assert program.ok, "the generated game does not check:\n" + render_all(program.diagnostics, program.sources)
    game = Game(program, compile_program(program))
    lines = source.count("\n") + 1
    out: list[Outcome] = []
    for moves in ("auto", "compiled"):
        if moves == "compiled" and out and out[0].moves == "auto (compiled)":
            break
        try:
            lowered = lower_game(game, moves=moves)
        except NotLowerable as e:
            where = e.span
            for span, reason in [(where, e.reason), *e.more]:  # the place, and the other places it names
                assert span is not None and span.file == PATH and 0 < span.line <= lines, \
                    f"moves={moves}: a refusal without a place in the game ({span}): {reason}"
            out.append(Outcome(moves, "refused", refusal=f"{where.line}:{where.col}: {e.reason}"))
            continue
        grounding = lowered.grounding[0] if lowered.grounding else "auto"
        # what to-gdl checks before writing (tgpl.cli._gdl_text): an error there is its "internal error", exit 2
        errors = [d.message for d in written_gdl_errors(lowered.program, grounding, PATH)]
        assert errors == [], f"moves={moves}: the emitted GDL is not valid (to-gdl's internal error): {errors}"
        found = tuple(d.message for d in validate(lowered.program, PATH, grounding=grounding) if d.is_error) \
            if check_gdl else ()
        bounds = rule_bounds(lowered.program)
        if bounds is not None and sum(b.instances for b in bounds) <= WHOLE_GROUND:
            lowered.grounding = None  # grounded whole once: faster than state by state for a game this small
        states = bisimulate(Lowered(game, lowered, GdlGame(lowered.program)), max_states=MAX_STATES).states
        compiled = bool(lowered.stats.get("moves compiled"))
        name = f"{moves} (compiled)" if compiled and moves == "auto" else moves
        out.append(Outcome(name, "lowered", states, check_gdl=found))
    return out
