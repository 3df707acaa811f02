"""What a seat sees (language decision 94), at the level of `tgpl.serve.views`, and `tgpl play`
showing its human seat that view."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from tgpl.cli import main
from tgpl.runtime import load_game
from tgpl.serve.views import HIDDEN_TEXT, redact, sight, view

# Player 0 holds a secret role and a hand; a global object keeps a face-down card nobody sees;
# one card lies on a tile, public; the deck keeps its order from everyone, its owner included.
SECRETS = """game "secrets"; players 2;
setup {
    Tabletop.Deck = new Pile();
    Tabletop.Deck.assign(0);
    Seat s = new Seat(); s.assign(0);
    Seat t = new Seat(); t.assign(1);
    s.HiddenRole = "spy";
    s.Hand.add(Tabletop.Deck.pop());
    s.Shown.add(Tabletop.Deck.pop());
    Tabletop.FaceDownCard = Tabletop.Deck.pop();
    Board b = new Board();
    Tabletop.Deck.pop().move_to(b.Cells[0][0]);
    turn.use("T"); turn.pass(0, "P");
}
turn T { phase P { } }
global class Tabletop { Pile Deck = null; Card FaceDownCard = null; }
class Seat {
    string HiddenRole = "";
    List<Card> Hand = {};
    List<Card> Shown = {};
    action Discard {
        player input Card c { filter { return Hand.contains(c); } }
        trigger PlayerChoiceEvent { return true; }
        effect { Hand.remove(c); Tabletop.Deck.push(c); winner 0; }
    }
}
interactable Card { string Name = ""; }
stack Pile { returns Card; default { for (number i = 0; i < 6; i += 1) { Card c = new Card(); c.Name = "card " + i; push(c); } } }
tile Cell { }
board Board { group Cells { geometry square; grid { Cell; } } }
"""


def secrets_state(tmp_path):
    path = tmp_path / "secrets.tgpl"
    path.write_text(SECRETS, encoding="utf-8")
    return load_game(path).initial_state(0)


def panel(v: dict, name: str) -> dict:
    return dict(next(p for p in v["panels"] if p["name"] == name)["fields"])


def test_owners_see_their_secrets_and_nobody_sees_a_deck(tmp_path):
    state = secrets_state(tmp_path)
    mine, theirs, watcher = view(state, 0), view(state, 1), view(state, None)
    assert panel(mine, "Seat#0")["HiddenRole"] == "spy"
    assert panel(mine, "Seat#0")["Hand"] == {"list": [{"ref": "Card#5", "label": "card 5", "card": True,
                                                       "attrs": {"Name": "card 5"}, "owner": None,
                                                       "colour": None}]}
    for other in (theirs, watcher):
        assert panel(other, "Seat#0")["HiddenRole"] == {"hidden": None}
        assert panel(other, "Seat#0")["Hand"] == {"hidden": 1}
        assert panel(other, "Seat#0")["Shown"]["list"][0]["label"] == "card 4"  # not a private name
    for v in (mine, theirs, watcher):
        assert panel(v, "Pile#0")["cards"] == {"hidden": 2}  # the deck's owner does not see its order
        assert panel(v, "Tabletop")["FaceDownCard"] == {"hidden": None}  # a global secret: nobody's
        text = json.dumps(v)
        assert "card 3" not in text and "Card#3" not in text
        assert v["groups"][0]["tiles"][0]["pieces"][0]["name"] == "Card#2"  # on a tile: public
    assert "Card#5" not in json.dumps(theirs) and "card 5" not in json.dumps(watcher)


def test_a_card_stays_hidden_in_the_log_unless_seen_before_or_after(tmp_path):
    state = secrets_state(tmp_path)
    move = state.legal_moves()[0]
    assert move.text == "Seat#0.Discard(c: Card#5)"
    after = state.apply(move)
    for seat in (1, None):
        assert redact(move.text, sight(state.world, seat), sight(after.world, seat)) == f"Seat#0.Discard(c: {HIDDEN_TEXT})"
    assert redact(move.text, sight(state.world, 0), sight(after.world, 0)) == move.text
    # shown on a tile: the same name reads plainly to everyone
    assert redact("Seat#0.Look(c: Card#2)", sight(state.world, 1), sight(state.world, 1)) == "Seat#0.Look(c: Card#2)"


def test_tgpl_play_shows_its_human_only_their_view():
    moves = "\n".join(["1"] * 10) + "\n"
    result = CliRunner().invoke(main, ["play", "examples/cards.tgpl", "--players", "human,first"], input=moves)
    assert result.exit_code == 0, result.output
    during, _, end = result.output.partition("-- game over")
    assert re.search(r"Hand#1 \[player 1\]: Points=\d+ Cards=\{1 hidden\}", during)
    assert re.search(r"Hand#0 \[player 0\]: Points=\d+ Cards=\{card \d+\}", during)
    assert "Hand#1 [player 1]: Points" in end and "hidden" not in end  # the game over: all shown


def test_presentation_hints_place_graph_tiles_and_colour_things(tmp_path):
    """Optional attributes the page reads: a graph tile's X and Y place it, a `Colour` fills."""
    text = Path("examples/graph.tgpl").read_text(encoding="utf-8")
    text = text.replace('    string Name = "";\n    bool Harbor = false;',
                        '    string Name = "";\n    bool Harbor = false;\n    number X = 0;\n    number Y = 0;\n'
                        '    string Colour = "";')
    text = text.replace("            p.Name = name;", '            p.Name = name;\n            p.X = 1;\n'
                                                     '            p.Y = 2;\n            p.Colour = "#8fbc8f";')
    path = tmp_path / "graph.tgpl"
    path.write_text(text, encoding="utf-8")
    tiles = view(load_game(path).initial_state(0), 0)["groups"][0]["tiles"]
    assert [(t["label"], t["x"], t["y"]) for t in tiles][:3] == [("Castle", 1, 2), ("Market", 1, 2), ("Chapel", 1, 2)]
    assert {t["colour"] for t in tiles} == {"#8fbc8f"}
    plain = view(load_game("examples/graph.tgpl").initial_state(0), 0)["groups"][0]["tiles"]
    assert plain[0]["colour"] is None and (plain[0]["x"], plain[0]["y"]) == (0.0, -round(8 / 3, 3))  # a circle
    citadels = load_game("examples/citadels/citadels.tgpl", 4).initial_state(0)
    hand = next(dict(p["fields"])["Hand"] for p in view(citadels, 0)["panels"] if p["name"] == "Citizen#0")
    assert {c["colour"] for c in hand["list"]} <= {"yellow", "blue", "green", "red", "purple"}
