"""Goofspiel with three cards, written as a designer writes it (tests/data/designers/goofspiel.tgpl): each round a
prize is turned up and both players bid a card in secret, the first bid a `private` action and its value a
`private` attribute, the cards spent `private` to their owner; the prize pile shuffled by setup, so the GDL is
the game of the setup seed, with no chance left.

A game with secrets and no chance was once written as plain GDL, whose roles see every state: the second bidder
saw the first bid. Its percepts alone now make it GDL-II, no role `random` (tgpl.lowering.percepts, decision
97): the others see a private move with its inputs `hidden`, and a private attribute only its owner sees."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from tgpl.cli import main
from to_gdl_runs import to_gdl

from test_designer_games_3 import game

GOOFSPIEL = Path(game("goofspiel"))


def test_goofspiel_lowers_to_gdl_ii_with_its_secrets_kept(tmp_path):
    lowered = to_gdl(tmp_path, GOOFSPIEL)
    text = lowered.written()
    assert text.splitlines()[1].startswith("; validated: bisimulation")
    assert "(role random)" not in text and "random" not in re.sub(r";.*", "", text)
    assert "(tgpl_redacted (bid bidder_0 bidcard_0) (bid bidder_0 hidden))" in text
    assert "(sees_offer bidder_0 player_0)" in text and "(sees_offer bidder_0 player_1)" not in text
    assert "(sees_spent bidcard_3 player_1)" in text and "(sees_spent bidcard_3 player_0)" not in text
    r = CliRunner().invoke(main, ["check-gdl", str(lowered.out)])
    assert r.exit_code == 0 and "GDL-II: percepts (sees)" in r.output, r.output
    r = CliRunner().invoke(main, ["verify", str(lowered.out)])
    assert r.exit_code == 0, r.output
    assert ("hidden information: player_1 cannot tell '(bid bidder_0 bidcard_0) | noop' from "
            "'(bid bidder_0 bidcard_1) | noop' after the initial state") in r.output


def test_goofspiel_is_not_compiled_its_percepts_being_written_for_spelled_out_moves(tmp_path):
    r = to_gdl(tmp_path, GOOFSPIEL, "--moves", "compiled")
    assert r.exit_code == 2, r.output
    assert "a game with secrets (its GDL-II percepts are written for spelled-out moves" in r.output
    assert not r.out.exists()
