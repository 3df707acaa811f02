"""`tgpl analyze --ray ADDRESS`: the run's batches of seeds played as Ray tasks.

Ray is an optional extra (`pip install 'tgpl[ray]'`): it is imported here only, when `--ray` is
given. The tasks are the batches `--jobs` gives its processes, each carrying the game's texts
(`figures.Shipped`), not a path, since a cluster's nodes need not have the files; results are
put back in seed order, so the figures are the bytes `--jobs 1` prints.
"""

from __future__ import annotations

import logging
from typing import Callable, Iterator

from tgpl.analysis.figures import Played, Shipped, play_batch
from tgpl.workers import POLL


class RayError(Exception):
    """Ray unreachable or failing: the command cannot do its job (exit 2)."""


class RayMissing(RayError):
    """Ray is not installed: a usage error, since `--ray` asks for what this install lacks."""


def connect(address: str, jobs: int | None) -> int:
    """Join (or start) the Ray instance `address` names; return its CPUs, the workers batches are cut for.

    `local` starts a new instance on this machine (of `jobs` CPUs, default all); `auto` joins the
    instance this machine knows of (RAY_ADDRESS, else the latest one started here) or starts one;
    anything else is a cluster's address (`host:port`, `ray://host:port`).
    """
    try:
        import ray
    except ImportError:
        raise RayMissing("Ray is not installed here: pip install 'tgpl[ray]' (or play on this machine "
                         "with --jobs)") from None
    # Ray's own chatter (start-up notes, worker logs) would mix with the figures on the terminal.
    quiet = {"logging_level": logging.ERROR, "log_to_driver": False}
    try:
        if address == "local":
            ray.init(address="local", num_cpus=jobs, include_dashboard=False, **quiet)
        elif address == "auto":  # ray.init's own "auto" refuses to start an instance
            ray.init(**quiet)
        else:
            _probe(address)
            ray.init(address=address, **quiet)
        return max(1, int(ray.cluster_resources().get("CPU", 1)))
    except RayError:
        raise
    except Exception as e:  # Ray raises ConnectionError, RuntimeError, ValueError... as it sees fit
        disconnect()
        raise RayError(f"cannot start or reach Ray at '{address}': {_first_line(e)}") from None


def _probe(address: str) -> None:
    """Refuse an address where nothing listens, at once: ray.init retries such an address for
    about a quarter of an hour before it gives up."""
    import socket

    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        raise RayError(f"'{address}' is not local, auto, host:port or ray://host:port")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=10).close()
    except OSError as e:
        raise RayError(f"nothing answers at {host}:{port}: {(e.strerror or str(e)).lower()}") from None


def disconnect() -> None:
    """Leave Ray; an instance `connect` started here stops with it."""
    try:
        import ray
    except ImportError:
        return
    if ray.is_initialized():
        ray.shutdown()


def play_on_ray(shipped: Shipped, specs: list[str], batches: list[list[int]], max_moves: int,
                poll: Callable[[], None] = lambda: None) -> Iterator[list[Played]]:
    """Each batch's games as its task ends (any order: the caller sorts by seed). `poll` is called every
    POLL seconds while the tasks run (the command's limits, tgpl.limits.Limits.poll: LimitReached past them);
    a stop, or the caller leaving early, cancels the tasks left (forced: a task does not check the limits)."""
    import ray

    task = ray.remote(num_cpus=1, max_retries=0)(play_batch)  # a game that crashes a worker is no retry's business
    game = ray.put(shipped)  # sent to the cluster once, not once per batch
    pending = [task.remote(game, specs, batch, max_moves) for batch in batches]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1, timeout=POLL)
            if done:
                yield ray.get(done[0])
            poll()
    except ray.exceptions.RayError as e:
        for ref in pending:
            ray.cancel(ref)
        cause = getattr(e, "cause", None)  # a task's own exception, e.g. tgpl missing on a node
        raise RayError(f"a Ray task failed: {_first_line(cause or e)}") from None
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return f"{type(e).__name__}: {text.splitlines()[0]}" if text else type(e).__name__
