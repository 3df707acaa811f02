"""What the batched engine refuses, and how it says so."""

from __future__ import annotations

from pathlib import Path

import pytest

import tgpl.batched as batched
from tests.batched.conftest import EXAMPLES

GDL_II = """
(role random) (role player)
(init (step 0))
(<= (legal random (toss ?c)) (coin ?c))
(<= (legal player wait) (true (step 0)))
(<= (legal player stop) (true (step 1)))
(<= (legal random noop) (true (step 1)))
(coin heads) (coin tails)
(<= (next (step 1)) (true (step 0)))
(<= (next (step 2)) (true (step 1)))
(<= terminal (true (step 2)))
(goal player 100) (goal random 0)
(<= (base (step ?n)) (stepnum ?n)) (stepnum 0) (stepnum 1) (stepnum 2)
(<= (input random (toss ?c)) (coin ?c)) (input random noop)
(input player wait) (input player stop)
"""


def test_a_chance_player_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "coin.kif"
    path.write_text(GDL_II)
    with pytest.raises(batched.BatchedLoadError) as e:
        batched.load(path)
    assert "random" in str(e.value) and "GDL-II" in str(e.value) and str(path) in str(e.value)


def test_a_tgpl_game_that_shuffles_in_play_is_refused() -> None:
    with pytest.raises(batched.BatchedLoadError) as e:
        batched.load(EXAMPLES / "treasure.tgpl")
    message = str(e.value)
    assert "treasure.tgpl:" in message and "chance" in message and "GDL-II" in message


def test_a_network_over_the_bound_is_refused_with_its_size() -> None:
    with pytest.raises(batched.BatchedLoadError) as e:
        batched.load(EXAMPLES / "gdl" / "tictactoe.kif", max_gates=100)
    message = str(e.value)
    assert "tictactoe.kif:1:1: error:" in message and "more than the 100" in message
    size = int(message.split("can have ")[1].split(" gates")[0].replace(",", ""))
    assert size > 100


def test_an_unreadable_file_is_reported(tmp_path: Path) -> None:
    with pytest.raises(batched.BatchedLoadError, match="cannot read"):
        batched.load(tmp_path / "missing.kif")


def test_the_jax_backend_without_jax_says_how_to_install_it(monkeypatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "jax", None)  # `import jax` raises ImportError, as where it is missing
    with pytest.raises(batched.BatchedLoadError, match=r"tictactoe.kif: error: the jax backend needs jax: "
                       r"pip install 'tgpl\[gpu\]'"):
        batched.load(EXAMPLES / "gdl" / "tictactoe.kif", backend="jax")
    with pytest.raises(ValueError, match="no backend 'torch'"):
        batched.BatchedEnv(batched.load(EXAMPLES / "gdl" / "tictactoe.kif").network, backend="torch")
