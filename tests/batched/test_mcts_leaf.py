"""MCTS with batched leaf rollouts (`mcts:N:batched=K`, tgpl.play.batched_leaf): its leaf values against the
runtime's playouts, its determinism, its fallback, its moves over a whole game; and the plain agent unchanged."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from tgpl.play.agents import RandomAgent, automatic_agent
from tgpl.play.batched_leaf import LeafNetwork
from tgpl.play.mcts import DEFAULT_ITERATIONS, DEFAULT_ROLLOUTS, PLAYOUT_LIMIT, MctsAgent, MctsOptions
from tgpl.runtime import load_game
from tgpl.runtime.rng import Pcg32

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
_games: dict[str, object] = {}


def game(name: str):
    """One Game object a session per example: the networks are built once per game object (lowering Connect
    Four takes seconds)."""
    if name not in _games:
        _games[name] = load_game(str(EXAMPLES / name))
    return _games[name]


def position(name: str, columns: list[int]):
    """The state after the moves numbered `columns` in each state's legal moves."""
    state = game(name).initial_state(0)
    for k in columns:
        state = state.apply(state.legal_moves()[k])
    return state


def network(name: str) -> LeafNetwork:
    said: list[str] = []
    built = LeafNetwork.build(game(name), 0, said.append)
    assert built is not None and not said
    return built


def runtime_mean(state, n: int, seed: int) -> list[float]:
    """Each seat's mean reward over n runtime playouts from `state`, as the plain agent plays them."""
    rng = Pcg32(seed, stream=77)
    totals = [0.0, 0.0]
    for _ in range(n):
        for i, r in enumerate(MctsAgent._playout(state, rng)):
            totals[i] += r
    return [t / n for t in totals]


@pytest.mark.parametrize("name, columns, n", [("connect4.tgpl", [3, 3, 4, 0, 2], 3000),
                                              ("tris.tgpl", [4, 0, 1], 4000)])
def test_leaf_value_matches_runtime_playouts(name, columns, n):
    """K playouts on the network from a fixed position give the seats' mean rewards of K runtime playouts from
    it, within the 99 % interval of the difference (each reward in [0, 1], so a variance of at most 1/4). The
    position is far from the initial state's value, so a state encoded wrongly would not pass."""
    state = position(name, columns)
    leaf = network(name)
    batched = leaf.value(state, n, seed=11, max_steps=PLAYOUT_LIMIT)
    runtime = runtime_mean(state, n, seed=11)
    initial = leaf.value(game(name).initial_state(0), n, seed=12, max_steps=PLAYOUT_LIMIT)
    bound = 2.576 * math.sqrt(0.25 / n + 0.25 / n)
    for seat in range(2):
        assert abs(batched[seat] - runtime[seat]) <= bound, (seat, batched, runtime)
    assert abs(initial[0] - runtime[0]) > 2 * bound, (initial, runtime)  # the position matters: the test can fail


def test_leaf_of_a_terminal_state_is_its_goals():
    state = position("tris.tgpl", [0, 3, 0, 3, 0])  # player 0 takes the first legal cell three times
    assert state.is_terminal
    leaf = network("tris.tgpl")
    assert leaf.value(state, 8, seed=0, max_steps=PLAYOUT_LIMIT) == [g / 100 for g in state.goals]


def test_same_seed_same_moves():
    """The same seed and position give the same search (visits) and move; the leaf's playouts are the same
    for a seed."""
    state = position("connect4.tgpl", [3, 3])
    options = MctsOptions(12, 16)
    runs = [MctsAgent(5, state.active_player, options=options) for _ in range(2)]
    visits = [agent.visits(state, state.legal_moves()) for agent in runs]
    assert [(m.text, v) for m, v in visits[0]] == [(m.text, v) for m, v in visits[1]]
    assert runs[0].leaf is not None  # the batched leaves were used
    leaf = network("connect4.tgpl")
    assert leaf.value(state, 64, 9, PLAYOUT_LIMIT) == leaf.value(state, 64, 9, PLAYOUT_LIMIT)
    again = [MctsAgent(5, state.active_player, options=options).choose(state, state.legal_moves()) for _ in range(2)]
    assert again[0].text == again[1].text


def test_full_game_of_connect4_legal_moves_only():
    """A whole Connect Four game, the batched agent against random: every move it picks is legal, and the game
    ends."""
    g = game("connect4.tgpl")
    agents = [MctsAgent(3, 0, options=MctsOptions(8, 16)), RandomAgent(3, 1)]
    state = g.initial_state(3)
    decided = 0
    while not state.is_terminal:
        moves = state.legal_moves()
        move = agents[state.active_player].choose(state, moves)
        assert move.text in {m.text for m in moves}
        decided += state.active_player == 0
        state = state.apply(move)
    assert agents[0].leaf is not None and decided >= 4


def test_fallback_on_a_chance_game_says_why_and_plays():
    """Pig throws dice: no network. The agent says why (once per process and game) and plays the runtime's
    playouts, legal moves only."""
    g = load_game(str(EXAMPLES / "pig.tgpl"))
    said: list[str] = []
    agents = [MctsAgent(1, p, options=MctsOptions(6, 8), say=said.append) for p in range(2)]
    state = g.initial_state(1)
    for _ in range(6):
        if state.is_terminal:
            break
        moves = state.legal_moves()
        move = agents[state.active_player].choose(state, moves)
        assert move.text in {m.text for m in moves}
        state = state.apply(move)
    assert len(said) == 1
    assert "batched leaf rollouts (mcts:N:batched) fall back to the runtime's playouts" in said[0]
    assert "pig.tgpl:" in said[0] and "draws on chance" in said[0]
    assert all(agent.leaf is None for agent in agents)


def test_plain_agent_unchanged():
    """With the option off, a seeded game's moves are those main's agent played before batched leaves existed
    (`tgpl play examples/tris.tgpl --seed 2 --players mcts:30,mcts`)."""
    g = game("tris.tgpl")
    agents = [automatic_agent("mcts:30", 2, 0), automatic_agent("mcts", 2, 1)]
    assert [a.name for a in agents] == ["mcts:30", f"mcts:{DEFAULT_ITERATIONS}"]
    state = g.initial_state(2)
    played = []
    while not state.is_terminal:
        move = agents[state.active_player].choose(state, state.legal_moves())
        played.append(move.text)
        state = state.apply(move)
    cells = ["2][1", "2][2", "1][1", "0][1", "2][0", "0][2", "1][2", "0][0"]
    assert played == [f"PlayerState#{k % 2}.Tick(chosenTile: TrisGrid[{c}])" for k, c in enumerate(cells)]
    assert state.goals == [0, 100]


@pytest.mark.parametrize("spec, iterations, batched", [
    ("mcts", DEFAULT_ITERATIONS, None), ("mcts:7", 7, None), ("mcts:batched", DEFAULT_ITERATIONS, DEFAULT_ROLLOUTS),
    ("mcts:7:batched", 7, DEFAULT_ROLLOUTS), ("mcts:7:batched=3", 7, 3), ("mcts:batched=5", DEFAULT_ITERATIONS, 5)])
def test_specs(spec, iterations, batched):
    options = MctsOptions.parse(spec)
    assert (options.iterations, options.batched) == (iterations, batched)
    assert automatic_agent(spec, 0, 0).name == options.name


@pytest.mark.parametrize("spec, message", [
    ("mcts:0", "iterations per move"), ("mcts:x", "iterations per move"), ("mcts:7:batched=0", "batched=K"),
    ("mcts:7:batched=k", "batched=K"), ("mcts:7:fast", "expected mcts, mcts:N"),
    ("mcts:7:batched:3", "expected mcts, mcts:N")])
def test_bad_specs(spec, message):
    with pytest.raises(ValueError, match=message):
        automatic_agent(spec, 0, 0)


def test_tgpl_play_takes_the_option_and_notes_a_fallback():
    """`tgpl play --players mcts:N:batched=K`: a game with a network is played to its end (exit 0, nothing
    said); one without is played too, the note on standard error, the exit status the game's."""
    from click.testing import CliRunner

    from tgpl.cli import main

    runner = CliRunner()
    tris = runner.invoke(main, ["play", str(EXAMPLES / "tris.tgpl"), "--players", "mcts:6:batched=8,random",
                                "--seed", "1", "--quiet"])
    assert tris.exit_code == 0, tris.output
    assert "note:" not in tris.stderr
    pig = runner.invoke(main, ["play", str(EXAMPLES / "pig.tgpl"), "--players", "mcts:3:batched,random",
                               "--quiet", "--max-moves", "4"])
    assert pig.exit_code == 3, pig.output  # not ended after 4 moves: the game's status, not an error
    assert pig.stderr.count("note: batched leaf rollouts (mcts:N:batched) fall back to the runtime's playouts") == 1
    assert "draws on chance" in pig.stderr
