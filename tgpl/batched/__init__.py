"""The batched engine: a game compiled to a propositional network and played for B games at once with NumPy.

    env = tgpl.batched.load("examples/connect4.tgpl")     # or any .kif
    result = env.random_playouts(seed=0, batch=100_000)
    result.outcomes()                                     # {(goals...): games}

Modules: `source` (the file to a GDL program, refusals), `network` (the circuit, levels of gates), `kernel`
(its evaluation on rows of packed bits or bytes), `env` (the vector environment), `playouts` (random games);
`jax_kernel` and `jax_playouts`, the same on JAX (an optional extra).
docs/batched.md says how it works and what it measures.
"""

from __future__ import annotations

from pathlib import Path

from tgpl.batched.env import BACKENDS, MAX_STEPS, BatchedEnv, BatchedState
from tgpl.batched.network import Network, build_network
from tgpl.batched.playouts import Branching, Playouts, random_playouts
from tgpl.batched.source import MAX_GATES, BatchedLoadError, check_size, gdl_program
from tgpl.lowering.ir import Program


def from_program(program: Program, layout: str | None = None, max_gates: int | None = MAX_GATES,
                 path: str = "<game>", backend: str = "numpy") -> BatchedEnv:
    """The environment of a valid GDL program: its size bounded first (BatchedLoadError past `max_gates`).
    `backend`: numpy, or jax (BatchedLoadError when jax is not installed)."""
    from tgpl.asp.solver import SolverError
    from tgpl.batched.source import chance_reason

    reason = chance_reason(program)
    if reason is not None:
        raise BatchedLoadError(f"{path}: error: the batched engine plays deterministic games with perfect "
                               f"information only: {reason}")
    check_size(program, path, max_gates)
    try:
        network = build_network(program)
    except SolverError as e:
        raise BatchedLoadError(f"{path}: error: clingo cannot ground the game: {e}") from None
    if backend == "jax":
        try:
            import jax  # noqa: F401
        except ImportError:
            raise BatchedLoadError(f"{path}: error: the jax backend needs jax: pip install 'tgpl[gpu]' (or "
                                   "jax[cuda12] for a GPU)") from None
    return BatchedEnv(network, layout, path, backend)


def load(path: str | Path, layout: str | None = None, max_gates: int | None = MAX_GATES,
         seed: int = 0, limits=None, backend: str = "numpy") -> BatchedEnv:
    """The environment of a `.kif` game or a `.tgpl` game (lowered with setup seed `seed`, as `tgpl to-gdl`
    lowers it, within `limits`, tgpl.limits), evaluated by `backend` (numpy or jax). Raises BatchedLoadError
    with the message to print."""
    return from_program(gdl_program(path, seed, limits), layout, max_gates, str(path), backend)


__all__ = ["BACKENDS", "BatchedEnv", "Branching", "BatchedLoadError", "BatchedState", "MAX_GATES", "MAX_STEPS", "Network", "Playouts", "build_network",
           "from_program", "load", "random_playouts"]
