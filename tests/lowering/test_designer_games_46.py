"""Battleship-lite, a game of hidden information written as a designer writes it from the rule sheet
(tests/data/designers/battleship.tgpl): each player's 4 x 4 ocean (a board per player) and two ships of two squares;
player 0 places both ships, then player 1 (`private action Place`, the ship's squares `private` attributes of a
`Ship` its owner holds), then the players take turns to shoot at a square of the other's ocean not shot before
(`Fire`); a shot is called on the square (`Hit`) and a ship hit on both its squares is `Sunk`; sinking both of the
other's ships wins.

The runtime is checked against an independent model (the placements, the shots, the calls and the end compared
at every move of seeded plays), and the secret against what each seat is shown: the other seat reads a placement
as `Fleet#0.Place(bow: (hidden), stern: (hidden))` and the ship's squares as hidden (language decision 94).

The lowering as a designer tries it (CPU and peak memory measured once with /usr/bin/time on a shared two-core
machine, not asserted): the dry run says it lowers, its moves spelled out (1.2 s, 60 MB; compiled moves refused: a
game with secrets); `tgpl to-gdl` (auto 3.7 s, 93 MB, and spelled 4.1 s, 93 MB: the same file) lowers it to GDL-II
with no role `random`, validated by 35 playouts to the end (1,018 steps); `tgpl to-asp` writes it (5.4 s, 94 MB).
Its percepts keep the secret: after player 0's first placement player 1 sees `(did player_0 (place fleet_0 hidden
hidden))` and no fluent of player 0's ships' squares (pinned below on the reasoner).

The docs did not stop a designer's first idea for the secret, `private bool Ship` on the ocean's squares: a tile has
no owner, so no seat would see it, its owner's included, and `tgpl check` said "ok"; it now warns at the word.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest
from click.testing import CliRunner

from differential import checks_clean_and_plays, lowered_and_validated, plays_to_the_seen_models_end
from tgpl.asp.reasoner import GdlGame
from tgpl.cli import main
from tgpl.play.display import may_see_field
from tgpl.runtime.game import load_game
from tgpl.serve.views import redact, sight

from test_designer_games_3 import Lcg, game

CELLS = [(x, y) for y in range(4) for x in range(4)]


@dataclass(frozen=True)
class Battle:
    """The model's state: per seat its ships placed so far (bow, stern), in the order placed, the squares of its
    ocean shot at, and the seat to move."""

    ships: tuple = ((), ())
    shots: tuple = (frozenset(), frozenset())
    who: int = 0

    def seen(self) -> tuple:
        """What the runtime is compared with: per seat its ships, the squares shot, the squares called hits, and
        which ships are sunk."""
        out = []
        for p in range(2):
            covered = {c for ship in self.ships[p] for c in ship}
            sunk = tuple(all(c in self.shots[p] for c in ship) for ship in self.ships[p])
            out.append((self.ships[p], self.shots[p], self.shots[p] & covered, sunk + (False,) * (2 - len(sunk))))
        return tuple(out)


def moves(s: Battle) -> list:
    """Placing while the mover has placed fewer than two ships (the stern right of or below the bow, both free),
    else a shot at every square of the other's ocean not shot before."""
    if len(s.ships[s.who]) < 2:
        used = {c for ship in s.ships[s.who] for c in ship}
        return [("place", bow, stern) for bow in CELLS if bow not in used
                for stern in ((bow[0] + 1, bow[1]), (bow[0], bow[1] + 1)) if stern in CELLS and stern not in used]
    return [("fire", c) for c in CELLS if c not in s.shots[1 - s.who]]


def apply(s: Battle, m: tuple):
    """The state after `m` and the winner (None while the game goes on). Player 0's second ship passes to player
    1's placing, player 1's to player 0's first shot; every shot passes to the other seat."""
    if m[0] == "place":
        ships = list(s.ships)
        ships[s.who] = ships[s.who] + ((m[1], m[2]),)
        placed = replace(s, ships=tuple(ships))
        return (replace(placed, who=1 - s.who) if len(ships[s.who]) == 2 else placed), None
    other = 1 - s.who
    shots = list(s.shots)
    shots[other] = shots[other] | {m[1]}
    after = replace(s, shots=tuple(shots), who=other)
    won = all(c in shots[other] for ship in s.ships[other] for c in ship)
    return after, (s.who if won else None)


def cell(seat: int, c: tuple) -> str:
    """The runtime's name of square c of seat's ocean: setup makes player 0's ocean first."""
    return ("" if seat == 0 else "Ocean#1.") + f"Waters[{c[0]}][{c[1]}]"


def text(s: Battle, m: tuple) -> str:
    if m[0] == "place":
        return f"Fleet#{s.who}.Place(bow: {cell(s.who, m[1])}, stern: {cell(s.who, m[2])})"
    return f"Fleet#{s.who}.Fire(target: {cell(1 - s.who, m[1])})"


def observed(state) -> tuple:
    """The runtime's ships (placed ones, in order), squares shot and called hits, and ships sunk, per seat."""
    w = state.world

    def at(ref) -> tuple:
        f = w.fields(ref)
        return int(f["X"]), int(f["Y"])

    out = []
    for p in range(2):
        ships = [w.fields(w.named(f"Ship#{2 * p + k}")) for k in range(2)]
        placed = tuple((at(f["Bow"]), at(f["Stern"])) for f in ships if f["Bow"] is not None)
        shot, hit = set(), set()
        for c in CELLS:
            f = w.fields(w.named(cell(p, c)))
            if f["Shot"]:
                shot.add(c)
            if f["Hit"]:
                hit.add(c)
        out.append((placed, frozenset(shot), frozenset(hit), tuple(f["Sunk"] for f in ships)))
    return tuple(out)


def runtime_start():
    return load_game(game("battleship")).initial_state(0)



def model_play(chooser_seed: int) -> None:
    plays_to_the_seen_models_end(runtime_start(), Battle(), Lcg(chooser_seed), moves, apply, text, observed)


def test_the_model_places_shoots_and_sinks():
    """Player 0's ships on (0,0)-(1,0) and (3,2)-(3,3); player 1 sinks the first with two shots, misses once, and
    wins with the second ship's two squares."""
    s = Battle()
    assert len(moves(s)) == 24  # 12 across, 12 down
    s, _ = apply(s, ("place", (0, 0), (1, 0)))
    assert s.who == 0 and ("place", (0, 0), (0, 1)) not in moves(s) and ("place", (1, 0), (1, 1)) not in moves(s)
    s, _ = apply(s, ("place", (3, 2), (3, 3)))
    assert s.who == 1
    s, _ = apply(s, ("place", (0, 0), (0, 1)))
    s, _ = apply(s, ("place", (2, 2), (3, 2)))
    assert s.who == 0 and moves(s)[0] == ("fire", (0, 0))
    for shot0, shot1 in [((3, 3), (0, 0)), ((2, 2), (1, 0)), ((1, 1), (2, 2))]:
        s, won = apply(s, ("fire", shot0))
        assert won is None
        s, won = apply(s, ("fire", shot1))
        assert won is None
    assert s.seen()[0][2] == {(0, 0), (1, 0)} and s.seen()[0][3] == (True, False)
    s, _ = apply(s, ("fire", (3, 0)))
    s, won = apply(s, ("fire", (3, 2)))
    assert won is None
    s, _ = apply(s, ("fire", (3, 1)))
    s, won = apply(s, ("fire", (3, 3)))
    assert won == 1


@pytest.mark.parametrize("chooser", range(6))
def test_seeded_plays_end_as_the_model_says(chooser):
    model_play(chooser + 200)


def test_the_seeded_plays_meet_every_rule():
    """Over the plays above both seats win, ships lie across and down, shots hit and miss."""
    winners, across, down, hits, misses = set(), 0, 0, 0, 0
    for chooser in range(6):
        rng, s, result = Lcg(chooser + 200), Battle(), None
        while result is None:
            ms = moves(s)
            m = ms[rng.below(len(ms))]
            if m[0] == "place":
                across += m[2][1] == m[1][1]
                down += m[2][0] == m[1][0]
            else:
                target = 1 - s.who
                if any(m[1] in ship for ship in s.ships[target]):
                    hits += 1
                else:
                    misses += 1
            s, result = apply(s, m)
        winners.add(result)
    assert winners == {0, 1} and min(across, down, hits, misses) > 0, (winners, across, down, hits, misses)


def test_the_placement_is_the_owners_secret():
    """After player 0 places a ship, player 1 reads the move with its squares hidden and the ship's squares as
    hidden; player 0 reads both; whether a ship is sunk, and the shots' calls, every seat reads."""
    state = runtime_start()
    move = "Fleet#0.Place(bow: Waters[0][0], stern: Waters[1][0])"
    after = state.apply(state.resolve(move))
    w = after.world
    ship = w.named("Ship#0")
    bow = w.fields(ship)["Bow"]
    assert may_see_field(w, ship, "Bow", bow, 0) and not may_see_field(w, ship, "Bow", bow, 1)
    assert not may_see_field(w, ship, "Stern", w.fields(ship)["Stern"], 1)
    assert may_see_field(w, ship, "Sunk", False, 1)
    assert redact(move, sight(state.world, 1), sight(w, 1)) == "Fleet#0.Place(bow: (hidden), stern: (hidden))"
    shot = "Fleet#0.Fire(target: Ocean#1.Waters[2][3])"  # a public action's move: read whole
    assert redact(shot, sight(w, 1), sight(w, 1)) == shot


def test_battleship_checks_clean_and_plays_to_its_end():
    checks_clean_and_plays(game("battleship"))


def test_the_dry_run_says_it_lowers_spelled_out():
    r = CliRunner().invoke(main, ["to-gdl", "--dry-run", game("battleship")])
    assert r.exit_code == 0, r.output
    assert "battleship.tgpl: lowers; its moves spelled out one by one" in r.output
    assert "a game with secrets (its GDL-II percepts are written for spelled-out moves" in r.output


def test_battleship_lowers_to_gdl_ii_that_keeps_the_placement_secret(tmp_path):
    """`tgpl to-gdl` (auto): validated by playouts to the end; no role `random` (no chance), the percepts alone
    make it GDL-II. On the reasoner, player 1's percepts after player 0's first placement: the move redacted, no
    square of player 0's ships, which player 0 sees."""
    kif, _ = lowered_and_validated(game("battleship"), tmp_path / "battleship.kif")
    assert "(role random)" not in kif
    assert "(tgpl_redacted (place fleet_0 waters_0_0 waters_1_0) (place fleet_0 hidden hidden))" in kif
    g = GdlGame.load(tmp_path / "battleship.kif")
    s = g.initial_state().apply(["(place fleet_0 waters_0_0 waters_1_0)", "noop"])
    owner, other = ({str(t) for t in seen} for seen in s.seen)
    assert {"(bow ship_0 waters_0_0)", "(stern ship_0 waters_1_0)",
            "(did player_0 (place fleet_0 waters_0_0 waters_1_0))"} <= owner
    assert "(did player_0 (place fleet_0 hidden hidden))" in other
    assert not any(t.startswith(("(bow ship_0", "(stern ship_0", "(bow ship_1", "(stern ship_1")) for t in other)
    assert not any("waters_0_0 waters_1_0" in t for t in other)
    assert "(sunk ship_0 no)" in other and "(placed fleet_0 1)" in other


def test_a_private_square_is_warned_of_as_hidden_from_every_seat(tmp_path):
    """A designer's first idea, the ship marked on its owner's squares (`private bool Ship` on the ocean's `Cell`):
    a square cannot be assigned, so no seat sees it, its owner's included. The checker says so at the word, as it
    says of `private` in a global class (it said nothing: "ok")."""
    text = open(game("battleship")).read()
    marked = "    bool Hit = false;       // called after the shot\n"
    assert text.count(marked) == 1
    path = tmp_path / "battleship.tgpl"
    path.write_text(text.replace(marked, marked + "    private bool Ship = false;\n"))
    r = CliRunner().invoke(main, ["check", str(path)])
    assert r.exit_code == 0, r.output
    assert "battleship.tgpl:49:5: warning: 'private' in tile 'Cell' hides 'Ship' from every seat: a tile has no " \
           "owner" in r.output, r.output
    assert "note: write 'hidden' to say so, or keep the secret in an object a player owns" in r.output
