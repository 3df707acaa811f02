"""Boards: index order, tile names, blank tiles, connections, groups and graph groups."""

from __future__ import annotations

import pytest

BOARD = """
tile Cell { string Label = ""; }
tile Special : Cell { }
board Map
{
    group Sq
    {
        geometry square;
        grid
        {
            Cell, Special, Cell;
            Cell, b,       Cell;
        }
    }
    group Big { geometry square; grid { Cell, Cell, Cell; Cell, Cell, Cell; Cell, Cell, Cell; } }
    group HexR { geometry hex; orientation row; grid { Cell, Cell, Cell; Cell, Cell, Cell; Cell, Cell, Cell; } }
    group HexC { geometry hex; orientation col; grid { Cell, Cell, Cell; Cell, Cell, Cell; Cell, Cell, Cell; } }
    group Wide { geometry hex; orientation row; grid { Cell, Cell, Cell, Cell; Cell, Cell, Cell, Cell; } }
}
global class G { Map M = null; }
function Around
{
    function input Tile t;
    returns string;
    effect
    {
        string s = "";
        for (number k = 0; k < t.connections.length; k += 1) { s += " " + t.connections[k].to; }
        return t + ":" + s;
    }
}
"""


def test_square_groups_index_column_then_row(setup_log):
    log = setup_log("""
        G.M = new Map();
        log(G.M.Sq[1][0]);
        log(G.M.Sq[1][0] is Special);
        log(G.M.Sq[0][1] is Special);
        log(G.M.Sq[2][1]);
        log(G.M.Sq.tiles.length);
    """, defs=BOARD)
    assert log == ["Sq[1][0]", "true", "false", "Sq[2][1]", "6"]


def test_an_index_past_the_grid_is_a_runtime_error(run_setup):
    from tgpl.runtime.errors import TGPLRuntimeError

    with pytest.raises(TGPLRuntimeError, match="index 2 out of range 0..1"):
        # a computed index: a literal one past the grid is a check error (tests/frontend/test_checker_sees.py)
        run_setup("G.M = new Map(); number j = 2; log(G.M.Sq[0][j]);", defs=BOARD)


def test_blank_tiles_exist_but_are_not_connected(setup_log):
    log = setup_log("""
        G.M = new Map();
        Tile blank = G.M.Sq[1][1];
        log(blank is BlankTile);
        log(blank is Cell);
        log(blank.connections.length);
        log(Around(t: G.M.Sq[1][0]));
    """, defs=BOARD)
    assert log == ["true", "false", "0", "Sq[1][0]: Sq[2][0] Sq[0][0]"]  # not down: the blank


def test_square_connections_up_right_down_left(setup_log):
    log = setup_log("""
        G.M = new Map();
        for (number i = 0; i < G.M.Sq.tiles.length; i += 1) { log(Around(t: G.M.Sq.tiles[i])); }
        log(Around(t: G.M.Big[1][1]));
        log(G.M.Big[0][0].connections.length);
        log(G.M.Big[1][0].connections.length);
    """, defs=BOARD)
    assert log == [
        "Sq[0][0]: Sq[1][0] Sq[0][1]",
        "Sq[1][0]: Sq[2][0] Sq[0][0]",
        "Sq[2][0]: Sq[2][1] Sq[1][0]",
        "Sq[0][1]: Sq[0][0]",
        "Sq[1][1]:",
        "Sq[2][1]: Sq[2][0]",
        "Big[1][1]: Big[1][0] Big[2][1] Big[1][2] Big[0][1]",  # an interior tile: 4 neighbours
        "2",
        "3",
    ]


def test_hex_row_groups_index_row_then_column(setup_log):
    log = setup_log("""
        G.M = new Map();
        log(G.M.Wide[1][3]);
        log(G.M.Wide.tiles[7]);
        log(Around(t: G.M.HexR[1][1]));
        log(Around(t: G.M.HexR[0][1]));
    """, defs=BOARD)
    assert log == [
        "Wide[1][3]",  # 2 rows of 4: [row][column]
        "Wide[1][3]",
        # an odd row: its neighbours above and below are columns c-1 and c (even rows sit to the right)
        "HexR[1][1]: HexR[1][0] HexR[1][2] HexR[0][0] HexR[0][1] HexR[2][0] HexR[2][1]",
        # an even row (shifted right): neighbours below are columns c and c+1
        "HexR[0][1]: HexR[0][0] HexR[0][2] HexR[1][1] HexR[1][2]",
    ]


def test_hex_col_groups_index_column_then_row(setup_log):
    log = setup_log("""
        G.M = new Map();
        log(Around(t: G.M.HexC[1][1]));
        log(Around(t: G.M.HexC[0][1]));
        log(G.M.HexC.tiles[1]);
    """, defs=BOARD)
    assert log == [
        # an odd column: the neighbours in the columns beside it are rows r-1 and r (even columns sit lower)
        "HexC[1][1]: HexC[1][0] HexC[1][2] HexC[0][0] HexC[0][1] HexC[2][0] HexC[2][1]",
        # an even column (shifted down): neighbours beside it are rows r and r+1
        "HexC[0][1]: HexC[0][0] HexC[0][2] HexC[1][1] HexC[1][2]",
        "HexC[1][0]",  # tiles are listed row by row: the second tile of the first row
    ]


def test_every_hex_interior_tile_has_six_neighbours_and_links_are_mutual(run_setup):
    state = run_setup("G.M = new Map();", defs=BOARD)
    tiles = {o.name: o for o in state.world.objects}
    for group in ("HexR", "HexC", "Big"):
        middle = tiles[f"{group}[1][1]"]
        assert len(state.world.fields(middle)["connections"]) == (4 if group == "Big" else 6)
        for o in state.world.objects:
            if o.name.startswith(group + "["):
                for link in state.world.fields(o)["connections"]:
                    to = state.world.named(state.world.fields(link)["_to"])  # fixed links find their tile by name
                    back = [state.world.named(state.world.fields(c)["_to"]) for c in state.world.fields(to)["connections"]]
                    assert o in back, (o.name, to.name)


def test_tiles_know_their_group_and_groups_are_reachable_by_name(setup_log):
    log = setup_log("""
        G.M = new Map();
        log(G.M.Sq[0][0].group == G.M.Sq);
        log(G.M.Sq.name);
        log(G.M.groups["HexR"] == G.M.HexR);
        log(G.M.groups.length);
        log(G.M.groups.keys());
        log(G.M.groups["Nope"] == null);
    """, defs=BOARD)
    assert log == ["true", "Sq", "true", "5", "{Sq, Big, HexR, HexC, Wide}", "true"]


def test_a_tile_attribute_and_downcast(setup_log):
    log = setup_log("""
        G.M = new Map();
        Cell c = G.M.Sq[2][0] as Cell;
        c.Label = "corner";
        log((G.M.Sq[2][0] as Cell).Label);
        log((G.M.Sq[1][1] as Cell) == null);
    """, defs=BOARD)
    assert log == ["corner", "true"]


GRAPH = """
tile Place { string Label = ""; }
connection Road { number Length = 1; }
board Country
{
    group Towns
    {
        geometry graph;
        default
        {
            Place a = new Place(); a.Label = "A";
            Place b = new Place(); b.Label = "B";
            Place c = new Place(); c.Label = "C";
            Road ab = new Road(); ab.to = b; ab.Length = 3; a.connections.add(ab);
            Road bc = new Road(); bc.to = c; b.connections.add(bc);
        }
    }
}
global class G { Country C = null; }
"""


def test_a_graph_group_is_built_in_its_default(setup_log):
    log = setup_log("""
        G.C = new Country();
        log(G.C.Towns.tiles.length);
        Place a = G.C.Towns.tiles[0] as Place;
        log(a.Label + " group " + a.group.name);
        Road r = a.connections[0] as Road;
        log(r.Length + " to " + (r.to as Place).Label);
        Place b = r.to as Place;
        log((b.connections[0].to as Place).Label);
        log((G.C.Towns.tiles[2] as Place).connections.length);
    """, defs=GRAPH)
    assert log == ["3", "A group Towns", "3 to B", "C", "0"]


def test_two_boards_get_distinct_group_names(run_setup):
    state = run_setup("Map one = new Map(); Map two = new Map();", defs=BOARD)
    names = [o.name for o in state.world.objects]
    assert "Sq[0][0]" in names and "Map#1.Sq[0][0]" in names
