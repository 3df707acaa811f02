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

# Player 0 holds a private role and hand; a global object keeps a hidden card nobody sees;
# one card lies on a tile, public; the deck keeps its order from everyone, its owner included.
# The names say nothing: `Shown` and `HiddenNote` are public, only the annotations count.
SECRETS = """game "secrets"; players 2;
setup {
    Tabletop.Deck = new Pile();
    Tabletop.Deck.assign(0);
    Seat s = new Seat(); s.assign(0);
    Seat t = new Seat(); t.assign(1);
    s.Role = "spy";
    s.HiddenNote = "public";
    s.Hand.add(Tabletop.Deck.pop());
    s.Shown.add(Tabletop.Deck.pop());
    Tabletop.Aside = Tabletop.Deck.pop();
    Board b = new Board();
    Tabletop.Deck.pop().move_to(b.Cells[0][0]);
    turn.use("T"); turn.pass(0, "P");
}
turn T { phase P { } }
global class Tabletop { Pile Deck = null; hidden Card Aside = null; }
class Seat {
    private string Role = "";
    string HiddenNote = "";
    private List<Card> Hand = {};
    List<Card> Shown = {};
    private action Discard {
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
    assert panel(mine, "Seat#0")["Role"] == "spy"
    assert panel(mine, "Seat#0")["Hand"] == {"list": [{"ref": "Card#5", "label": "card 5", "card": True,
                                                       "attrs": {"Name": "card 5"}, "owner": None,
                                                       "colour": None}]}
    for other in (theirs, watcher):
        assert panel(other, "Seat#0")["Role"] == {"hidden": None}
        assert panel(other, "Seat#0")["Hand"] == {"hidden": 1}
        assert panel(other, "Seat#0")["Shown"]["list"][0]["label"] == "card 4"  # not written private
        assert panel(other, "Seat#0")["HiddenNote"] == "public"  # a name means nothing
    for v in (mine, theirs, watcher):
        assert panel(v, "Pile#0")["cards"] == {"hidden": 2}  # the deck's owner does not see its order
        assert panel(v, "Tabletop")["Aside"] == {"hidden": None}  # hidden: nobody's
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
    # a public action: the card is named only to those who see it (its owner, before the move)
    public = SECRETS.replace("private action Discard", "action Discard")
    (tmp_path / "secrets.tgpl").write_text(public, encoding="utf-8")
    state = load_game(tmp_path / "secrets.tgpl").initial_state(0)
    after = state.apply(state.legal_moves()[0])
    assert redact(move.text, sight(state.world, 0), sight(after.world, 0)) == move.text
    assert redact(move.text, sight(state.world, 1), sight(after.world, 1)) == f"Seat#0.Discard(c: {HIDDEN_TEXT})"
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
    assert plain[0]["colour"] is None and len({(t["x"], t["y"]) for t in plain}) == 8  # laid out: test_layout.py
    citadels = load_game("examples/citadels/citadels.tgpl", 4).initial_state(0)
    hand = next(dict(p["fields"])["Hand"] for p in view(citadels, 0)["panels"] if p["name"] == "Citizen#0")
    assert {c["colour"] for c in hand["list"]} <= {"yellow", "blue", "green", "red", "purple"}


def test_a_private_actions_inputs_are_hidden_even_when_public(tmp_path):
    """Citadels' Choose: the character chosen is on offer to everyone, the choice is the chooser's."""
    citadels = load_game("examples/citadels/citadels.tgpl", 5).initial_state(0)
    move = citadels.legal_moves()[1]
    after = citadels.apply(move)
    assert move.text == "Citizen#0.Choose(role: Magician#0)"
    for seat in (1, 4, None):
        assert redact(move.text, sight(citadels.world, seat), sight(after.world, seat)) == \
            f"Citizen#0.Choose(role: {HIDDEN_TEXT})"


def test_a_private_class_shows_its_owner_to_the_owner_only():
    """Who holds the Magician is player 0's secret: nor its panel's owners, nor its Holder, nor Role show it."""
    state = load_game("examples/citadels/citadels.tgpl", 5).initial_state(0)
    state = state.apply(state.legal_moves()[1])  # player 0 takes the Magician
    mine, theirs = view(state, 0), view(state, 1)
    magician = lambda v: next(p for p in v["panels"] if p["name"] == "Magician#0")  # noqa: E731
    assert magician(mine)["owners"] == [0] and dict(magician(mine)["fields"])["Holder"]["ref"] == "Citizen#0"
    assert magician(theirs)["owners"] == [] and magician(theirs)["scope"] == "other"
    assert dict(magician(theirs)["fields"])["Holder"] == {"hidden": None}
    assert panel(theirs, "Citizen#0")["Role"] == {"hidden": None}
    assert panel(mine, "Citizen#0")["Role"]["ref"] == "Magician#0"
    assert panel(theirs, "Court")["Available"] == {"hidden": 5}  # hidden: the chooser has them as moves


def test_the_checker_says_what_secrecy_cannot_mean(tmp_path):
    from tgpl.frontend.loader import load_program

    path = tmp_path / "bad.tgpl"
    path.write_text('game "b"; players 2;\nglobal class G { private number N = 0; }\n'
                    'class S { hidden action A { trigger PlayerChoiceEvent { return true; } effect { winner 0; } } }\n'
                    'setup { }\n', encoding="utf-8")
    found = [(d.span.line, d.span.col, d.severity.value, d.message) for d in load_program(path).diagnostics]
    assert (2, 18, "warning", "'private' in global class 'G' hides 'N' from every seat: nobody owns a global "
            "object") in found
    assert (3, 11, "error", "an action is 'private' or public, not 'hidden': 'hidden' is for attributes "
            "(action 'A')") in found
