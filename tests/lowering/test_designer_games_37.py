"""Havannah on a hexagon of side 3, written as a designer writes it from the rule sheet
(tests/data/designers/havannah3.tgpl): 19 cells of a hex group of row orientation, the neighbours the board's own
`connections`; a stone wins at once by a bridge (a group holding two corners), a fork (a group touching three
sides) or a ring (a loop around cells that are empty or the opponent's: some such cell cannot reach the rim
through the cells not the mover's); a full board is a draw. The group is a flood of a list grown while walked,
the ring a flood from the rim.

The runtime is checked against an independent model (the hexagon in my own offset coordinates, groups and the
regions a ring encloses as connected components found by a search over a set) on the board's adjacency, the move
tree's first levels, set positions and seeded plays to their end.

The lowering as a designer tries it (CPU and peak memory measured once with /usr/bin/time, not asserted): the dry
run (2.9 s, 77 MB) is undecided, the sampled statements in `BridgeOrFork`; it now also names the loop to rewrite,
`GroupOf`'s walk of the list it grows, and says `BridgeOrFork` is not rules with variables because it calls
`GroupOf` (it said "returns List<Cell>", as if `BridgeOrFork`, which returns a bool, did). `tgpl to-gdl` (auto, 4.3
s, 110 MB) refuses at that walk, located (more than 4096 ways through it), and with the moves compiled at its list;
`--moves compiled` (0.7 s) at the list alone. The refusal's hint offered a recursive function or fixed passes, not
the flood the lowering takes as written (language decision 114: the list read only by `contains` or by a loop that
returns true or false); it named that too. The walk of the group is now itself read as a scan of the board
asking the flood's search (tgpl/lowering/flood_walks.py: its passes only count corners and add sides to a set),
so `tgpl to-gdl` (26.5 s, 266 MB) got past it and was refused at that set of sides (`List<number> sides`, spelled
out more than 3,000,000 parts; the compiled moves keep no list that changes). The set is now read as one flag per
side a cell can have (fixed by setup: language decision 114), so `tgpl to-gdl` (17.2 s, 336 MB) is refused next at
`Ring`'s list, seeded by a loop over the rim, which no flood form took (now one does: the test below). The hint followed
(havannah3_contains.tgpl: `BridgeOrFork` asks the group `contains` of each rim cell, the ring a flood per inner
cell, `Escapes`), the refusal is gone and `tgpl to-gdl
--max-seconds 150` stopped while compiling the moves, nothing written (17.6 s of user CPU in 150 s on the shared
machine, 698 MB). It now lowers and validates: `BridgeOrFork`'s count over the rim is a scan for its search's
demand, and both searches are closures keyed by their start (issue 34; pinned below)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from differential import (checks_clean_and_plays, model_end, model_perft, model_results, played_beside,
                          plays_to_the_models_end, runtime_perft)
from tgpl.cli import main
from tgpl.runtime.game import load_game

from test_designer_games_3 import Lcg, game

# the hexagon's cells as (row, column) of a 5 x 5 grid whose even rows sit half a cell to the right
ROWS = {0: (1, 2, 3), 1: (1, 2, 3, 4), 2: (0, 1, 2, 3, 4), 3: (1, 2, 3, 4), 4: (1, 2, 3)}
CELLS = [(r, c) for r in sorted(ROWS) for c in ROWS[r]]
CORNERS = {(0, 1), (0, 3), (2, 0), (2, 4), (4, 1), (4, 3)}
SIDES = {(0, 2): "top", (1, 4): "upper right", (3, 4): "lower right", (4, 2): "bottom", (3, 1): "lower left",
         (1, 1): "upper left"}
RIM = CORNERS | set(SIDES)
# the model's state: ((each cell's owner or None, in CELLS order), stones placed), the seat to move
START = ((None,) * len(CELLS), 0), 0


def neighbours(cell: tuple[int, int]) -> set[tuple[int, int]]:
    """The six cells around `cell` on the board: a cell's x is its column, plus a half in an even row."""
    r, c = cell
    x = c + (0.5 if r % 2 == 0 else 0)
    around = {(r, c - 1), (r, c + 1)}
    for dr in (-1, 1):
        row = r + dr
        for col in range(5):
            if abs((col + (0.5 if row % 2 == 0 else 0)) - x) == 0.5:
                around.add((row, col))
    return {n for n in around if n in CELLS}


def component(cell, inside) -> set:
    """The cells joined to `cell` through neighbours for which `inside` holds (`cell` among them)."""
    found, todo = {cell}, [cell]
    while todo:
        for n in neighbours(todo.pop()):
            if n not in found and inside(n):
                found.add(n)
                todo.append(n)
    return found


def wins(owner: dict, who: int, placed) -> bool:
    """Whether the stone `who` just placed on `placed` makes a bridge, a fork or a ring."""
    group = component(placed, lambda n: owner[n] == who)
    if len(group & CORNERS) >= 2 or len({SIDES[c] for c in group if c in SIDES}) >= 3:
        return True
    others = [c for c in CELLS if owner[c] != who]
    return any(not component(c, lambda n: owner[n] != who) & RIM for c in others)


def model_moves(state):
    (owners, _), _ = state
    return [cell for cell, o in zip(CELLS, owners) if o is None]


def model_apply(state, move):
    """The next state and the result: the winner, "draw", or None."""
    (owners, stones), who = state
    owner = dict(zip(CELLS, owners))
    owner[move] = who
    nxt = ((tuple(owner[c] for c in CELLS), stones + 1), 1 - who)
    if wins(owner, who, move):
        return nxt, who
    return nxt, "draw" if stones + 1 == len(CELLS) else None


def model_text(state, move) -> str:
    return f"Seat#{state[1]}.Place(at: Cells[{move[0]}][{move[1]}])"


def observed(state) -> tuple:
    w = state.world
    owners = tuple(None if w.fields(w.named(f"Cells[{r}][{c}]"))["Owner"] is None
                   else int(w.fields(w.named(f"Cells[{r}][{c}]"))["Owner"]) for r, c in CELLS)
    return owners, int(w.fields(w.named("Havannah"))["Stones"])


def test_havannah3_checks_clean_and_plays_to_its_end():
    checks_clean_and_plays(game("havannah3"))


def test_the_boards_connections_are_the_hexagons_neighbours():
    """Every cell's `connections` lead to the six (fewer on the rim) cells the model places around it."""
    w = load_game(game("havannah3")).initial_state(0).world
    for r, c in CELLS:
        links = w.fields(w.named(f"Cells[{r}][{c}]"))["connections"]
        assert sorted(str(link).split("->")[1] for link in links) == \
            sorted(f"Cells[{a}][{b}]" for a, b in neighbours((r, c))), (r, c)
    assert sum(len(neighbours(c)) == 6 for c in CELLS) == 7 and len(RIM) == 12


def test_havannah3_move_tree_is_the_models():
    start = load_game(game("havannah3")).initial_state(0)
    assert observed(start) == START[0]
    model = [model_perft(model_moves, model_apply, START, d) for d in range(1, 4)]
    assert model == [19, 19 * 18, 19 * 18 * 17]
    assert [runtime_perft(start, d) for d in range(1, 4)] == model


def play(moves):
    """The moves played on the runtime and the model side by side from the start."""
    return played_beside(load_game(game("havannah3")).initial_state(0), START, moves, model_apply, model_text,
                         observed)


def alternate(first: list, second: list) -> list:
    """Seat 0's moves `first` and seat 1's `second`, in turn."""
    out = []
    for k, m in enumerate(first):
        out.append(m)
        if k < len(second):
            out.append(second[k])
    return out


# seat 1 puts stones on corners no two of which are neighbours, so it never wins meanwhile
APART = [(0, 1), (4, 3), (2, 0), (0, 3), (4, 1), (2, 4)]
AROUND_CENTRE = [(1, 2), (1, 3), (2, 1), (2, 3), (3, 2), (3, 3)]


def test_a_ring_around_the_empty_centre_wins():
    state, model, result = play(alternate(AROUND_CENTRE[:5], APART[:5]))
    assert result is None and not state.is_terminal
    state, model, result = play(alternate(AROUND_CENTRE, APART[:5]))
    assert result == 0 and state.is_terminal and state.goals[0] > state.goals[1]


def test_a_ring_around_an_opponents_stone_wins_but_not_around_ones_own():
    """Seat 1 on the centre, then the six around it: a ring. Seat 0 on the centre first, then the six: no ring
    (the cell inside is their own), and the play goes on."""
    state, _, result = play(alternate([(0, 2)] + AROUND_CENTRE, [(2, 2)] + APART[:5]))
    assert result == 0 and state.is_terminal
    state, _, result = play(alternate([(2, 2)] + AROUND_CENTRE, APART))
    assert result is None and not state.is_terminal
    assert model_text((None, 1), (0, 2)) in [m.text for m in state.legal_moves()]


def test_a_fork_wins_and_a_bridge_wins():
    fork = [(0, 2), (1, 3), (1, 4), (2, 3), (3, 4)]  # top, upper right, lower right
    state, _, result = play(alternate(fork[:4], APART[:4]))
    assert result is None and not state.is_terminal
    state, _, result = play(alternate(fork, APART[:4]))
    assert result == 0 and state.is_terminal
    state, _, result = play(alternate([(2, 2), (3, 3), (1, 1)], [(0, 1), (0, 2), (0, 3)]))
    assert result == 1 and state.is_terminal and state.goals[1] > state.goals[0]


@pytest.mark.parametrize("seed", range(16))
def test_havannah3_plays_to_the_models_end(seed):
    plays_to_the_models_end(load_game(game("havannah3")).initial_state(0), START, Lcg(seed), model_moves,
                            model_apply, model_text, observed)


def test_the_seeded_plays_end_in_wins_of_each_kind():
    """Both seats win among the plays above, by bridges, forks and rings."""
    assert {0, 1} <= model_results(model_moves, model_apply, START, map(Lcg, range(16)))
    kinds = set()
    for seed in range(200):
        ((owners, _), _), result = model_end(model_moves, model_apply, START, Lcg(seed))
        if result == "draw":
            kinds.add("draw")
            continue
        owner = dict(zip(CELLS, owners))
        mine = [c for c in CELLS if owner[c] == result]
        groups = [component(c, lambda n: owner[n] == result) for c in mine]
        if any(len(g & CORNERS) >= 2 for g in groups):
            kinds.add("bridge")
        if any(len({SIDES[c] for c in g if c in SIDES}) >= 3 for g in groups):
            kinds.add("fork")
        if any(not component(c, lambda n: owner[n] != result) & RIM for c in CELLS if owner[c] != result):
            kinds.add("ring")
    assert {"bridge", "fork", "ring"} <= kinds, kinds


def test_the_dry_run_says_it_lowers():
    """`tgpl check --lowerable`: it lowers (exit 0), its moves compiled. Its walk of the group is a scan asking the
    flood's search (`BridgeOrForkFlood1`, rules with variables), the set of sides it fills one flag per side (the
    sides a cell can have are fixed by setup), and `Ring`'s list, seeded by a loop over the rim, a search asked from
    each seed that loop adds (`RingSeeds1` asking `RingFlood1`: tgpl/lowering/flood_seeds.py); all rules with
    variables, each made function named by what the designer wrote."""
    r = CliRunner().invoke(main, ["check", "--lowerable", game("havannah3")])
    assert r.exit_code == 0, r.output
    assert "havannah3.tgpl: lowers; its moves compiled once" in r.output, r.output
    shown = "  ok  function  "
    strategies = {line[len(shown):].split("  ")[0]: line.rsplit("  ", 1)[1] for line in r.output.splitlines()
                  if line.startswith(shown)}
    # the functions the rewrites made, named by what the designer wrote (issue 34)
    for name in ("Hexagon.BridgeOrFork, its flood of the list 'group' filled in GroupOf at line 119",
                 "Hexagon.BridgeOrFork", "Hexagon.Ring",
                 "Hexagon.Ring, the walk that seeds its list 'open' at line 170",
                 "Hexagon.Ring, its flood of the list 'open' at line 177"):
        assert strategies.get(name) == "rules with variables (compiled function)", r.output
    assert "Flood1" not in r.output and "Seeds1" not in r.output, r.output


def test_havannah3_lowers_with_its_ring_a_search_from_each_rim_seed_and_validates(tmp_path):
    """`tgpl to-gdl` lowers the game as the designer wrote it and validates it (issue 34): `Ring`'s list, seeded
    by a loop over the rim (`if (Edge[i].Owner != who) { open.add(Edge[i]); }`), refused before (spelled out,
    more than 3,000,000 parts at 182:21; with the moves compiled, the add to a local list at 174:21), is a
    function walking the rim that asks the flood's search from each seed, the search a closure keyed by its start
    (`All[i]`, every cell, asked of each). About 8 s of CPU and 150 MB validated (refused on main after 20 s),
    measured once, not asserted."""
    out = tmp_path / "havannah3.kif"
    r = CliRunner().invoke(main, ["to-gdl", game("havannah3"), "-o", str(out)])
    assert r.exit_code == 0, r.output
    kif = out.read_text()
    assert kif.splitlines()[1] == "; validated: 72 playouts (72 to the end of the game), 1,003 steps compared, " \
        "the deepest at move 19", kif.splitlines()[1]
    assert sum(1 for line in kif.splitlines() if line.startswith("(<=")) == 116
    assert "(ringflood1_reach " in kif and "(ringseeds1_exists " in kif


# a ring of seat 0 around (1, 2) through rim cells of its own, which touch the cell inside: seeding the ring's
# flood with every rim cell, the condition `Edge[i].Owner != who` dropped, would let it escape
RIM_RING = [(0, 1), (0, 2), (1, 1), (2, 1), (2, 2), (1, 3)]


def test_the_lowered_rules_agree_with_the_runtime_on_set_rings():
    """The lowered rules (the ring a search from each rim seed) played beside the runtime through set plays, the
    states compared after every move: rings around the empty centre, around an opponent's stone, along the rim;
    no ring around one's own stone. The validation's random plays end in bridges and forks more than in rings: a
    rewrite seeding from every rim cell passed them and fails here (checked once by hand)."""
    from tgpl import pipeline
    from tgpl.validation import Differential

    runtime = load_game(game("havannah3"))
    d = Differential(runtime, pipeline.lower_game(runtime))
    plays = {0: [alternate(AROUND_CENTRE, APART[:5]), alternate([(0, 2)] + AROUND_CENTRE, [(2, 2)] + APART[:5]),
                 alternate(RIM_RING, APART[1:])],
             None: [alternate([(2, 2)] + AROUND_CENTRE, APART), alternate(RIM_RING[:5], APART[1:])]}
    for result, moves_of in plays.items():
        for moves in moves_of:
            state, gdl = d.start()
            model, got = START, None
            for move in moves:
                text = model_text(model, move)
                model, got = model_apply(model, move)
                state, gdl = d.apply(state, gdl, text)
                assert d.compare(state, gdl) is None, (moves, text)
            assert got == result and state.is_terminal == (result is not None), moves


@pytest.mark.parametrize("seed", range(4))
def test_the_rewrite_reading_its_floods_by_contains_plays_as_the_model(seed):
    """havannah3_contains.tgpl, the rewrite the refusal's hint asks for, is the same game."""
    plays_to_the_models_end(load_game(game("havannah3_contains")).initial_state(0), START, Lcg(seed), model_moves,
                            model_apply, model_text, observed)


def test_the_rewrite_lowers_with_its_searches_keyed_by_their_starts_and_validates(tmp_path):
    """havannah3_contains.tgpl lowers with its moves compiled and validates (issue 34). `BridgeOrFork`'s count over
    the rim writes no state: its search's demand is asked from the loop's entry over the rim
    (horn._FunctionCompiler.scan_demands), not under the loop's relation, where it waited on the passes before
    and made a cycle through the search's `not found` that turned every closure off (43 s of CPU and 1.8 GB
    without validation, the validation unfinished). Both searches, each asking one start every rim cell, are
    closures keyed by their start (`|reach`, tgpl.lowering.closures.reached_of): about 5 s of CPU and 90 MB
    validated, measured once, not asserted."""
    out = tmp_path / "havannah3_contains.kif"
    r = CliRunner().invoke(main, ["to-gdl", game("havannah3_contains"), "-o", str(out)])
    assert r.exit_code == 0, r.output
    kif = out.read_text()
    assert kif.splitlines()[1] == "; validated: 72 playouts (72 to the end of the game), 1,003 steps compared, " \
        "the deepest at move 19", kif.splitlines()[1]
    assert sum(1 for line in kif.splitlines() if line.startswith("(<=")) == 80  # 99 with every closure off
    for search in ("bridgeorforkflood1", "escapesflood1"):
        assert f"({search}_reach " in kif, search  # the items reached from the start, no step count
