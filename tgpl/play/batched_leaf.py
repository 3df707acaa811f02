"""MCTS's leaf evaluated by K random playouts at once on the batched engine (`mcts:N:batched=K`).

A plain MCTS iteration plays one random game from the new leaf on the runtime. Here the leaf's runtime state
is encoded as the lowered game's fluents (tgpl.pipeline.encoded_state, the encoding the translation
validation compares states through), and the batched engine (tgpl.batched) plays K random games from them at
once; the leaf's value per seat is the mean of their rewards (goal / 100, 0.5 for a game cut or stuck, as
tgpl.play.mcts rewards one playout). Where the game has no network (chance, not lowerable, too large), the
agent plays the runtime's playouts and says why once (`LeafNetwork.build` returns the reason).
docs/batched.md says where it pays.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from tgpl.runtime.game import Game, State

if TYPE_CHECKING:  # imported when built: a plain MCTS agent loads neither the engine nor the lowering
    from tgpl.batched.env import BatchedEnv
    from tgpl.lowering.emit import LoweredGame


@dataclass(frozen=True)
class LeafNetwork:
    """A game's batched environment and the encoding of its runtime states as the environment's fluents."""

    env: BatchedEnv
    lowered: LoweredGame
    fields: dict[str, list[str]] | None  # what the encoding reads of a state (LoweredGame.state_fields)
    index: dict[str, int]  # a fluent's KIF text -> its row in the environment's fluents

    @staticmethod
    def build(game: Game, seed: int, say: Callable[[str], None]) -> LeafNetwork | None:
        """The network of `game` lowered with setup seed `seed`, or None where there is none, `say` told why
        (the batched engine's refusal, as a command prints it) the first time. Built once per game and seed
        in a process: both seats of `--players mcts:200:batched,mcts:200:batched`, and every game of `tgpl
        analyze`, share it (lowering Connect Four takes seconds)."""
        from tgpl.frontend.after_setup import chance_site_texts

        made = _BUILT.setdefault(game, {})
        if not chance_site_texts(game.program):
            seed = 0  # setup draws nothing: one lowering for every seed (tgpl analyze seeds each game)
        if seed not in made:
            made[seed] = _build(game, seed)
            if isinstance(made[seed], str):
                say(f"{game.program.main}: note: batched leaf rollouts (mcts:N:batched) fall back to the runtime's "
                    f"playouts: the batched engine cannot play this game:\n{made[seed]}")
        built = made[seed]
        return None if isinstance(built, str) else built

    def fluents(self, state: State) -> np.ndarray:
        """The state's fluents as one bool per environment fluent (a playout's `start`)."""
        from tgpl.pipeline import encoded_state

        row = np.zeros(len(self.env.fluents), dtype=bool)
        for text in encoded_state(self.lowered, state, self.fields):
            found = self.index.get(text)
            if found is None:  # the network keeps every fluent: a text it lacks is a state it does not know
                raise ValueError(f"the runtime state has the fluent {text}, which the batched network lacks")
            row[found] = True
        return row

    def value(self, state: State, rollouts: int, seed: int, max_steps: int) -> list[float]:
        """Each seat's mean reward over `rollouts` random games played from `state` at once (seeded: the same
        seed gives the same games), each cut at `max_steps` joint moves."""
        played = self.env.random_playouts(seed, rollouts, max_steps=max_steps, chunk=rollouts,
                                          start=self.fluents(state))
        rewards = np.where(played.finished[:, None], np.maximum(played.goals, 0) / 100, 0.5)
        return [float(v) for v in rewards.mean(axis=0)]


_BUILT: weakref.WeakKeyDictionary[Game, dict[int, LeafNetwork | str]] = weakref.WeakKeyDictionary()
"""The networks built in this process, per game object and setup seed (a cache, not an option)."""


def _build(game: Game, seed: int) -> LeafNetwork | str:
    import tgpl.batched as batched
    from tgpl.batched.source import lowered_game

    try:
        lowered = lowered_game(game, seed)
        env = batched.from_program(lowered.program, path=game.program.main)
    except batched.BatchedLoadError as e:
        return str(e)
    if [str(r) for r in lowered.roles] != list(env.roles):  # seat i is role i, as the validation compares goals
        return f"{game.program.main}: error: the network's roles {env.roles} are not the seats' {lowered.roles}"
    return LeafNetwork(env, lowered, lowered.state_fields(), {f: i for i, f in enumerate(env.fluents)})


__all__ = ["LeafNetwork"]
