"""``xqadj replay --cluster``: rule the chunks of game files on a Dask cluster.

Layer: integrations (below :mod:`xqadj.integrations.replay`, which uses it).

``--cluster tcp://HOST:8786`` connects to a running Dask scheduler (``dask scheduler`` and
``dask worker tcp://HOST:8786`` on the machines; the workers need only xqadj installed and the
game files at the same path, a shared file system); ``--cluster local[:N]`` starts a
``LocalCluster`` of N worker processes on this machine (default: one per core).

Each chunk (a file name and a byte range, never the file's contents) is one Dask task running
:func:`.replay.rule_chunk`; at most two chunks per worker thread are in flight, and the
results are written in file order as they come back.  A task whose worker dies is rescheduled
by Dask on another worker; a task that fails is retried (``retries=2``); a chunk that still
fails has its games reported one by one as ``WorkerDied`` errors.

``xqadj match --cluster`` (:mod:`xqadj.integrations.match.cluster`) uses the same client set-up
(:func:`dask_client`) and the same ``--cluster`` argument (:func:`address_argument`).

Dask is an optional dependency: ``pip install 'xqadj[cluster]'``.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import signal
from collections.abc import Callable, Iterator
from typing import Any

from xqadj.board import XqadjError
from xqadj.integrations.gamefiles import Chunk

__all__ = [
    "ClusterError",
    "DaskExecutor",
    "address_argument",
    "check_available",
    "cluster_executor",
    "dask_client",
    "parse_address",
]

#: Times Dask retries a failed chunk task (a lost worker is rescheduled besides).
RETRIES = 2
INSTALL = "pip install 'xqadj[cluster]'"


class ClusterError(XqadjError):
    """Dask is missing, or the cluster cannot be reached."""


def parse_address(address: str) -> tuple[str, int | None]:
    """``("local", N or None)`` for ``local[:N]``, else ``("remote", None)``."""
    if address == "local":
        return "local", None
    if address.startswith("local:"):
        return "local", int(address[6:])
    return "remote", None


class DaskExecutor:
    """Submits chunks to a Dask client (see :class:`xqadj.integrations.replay.ChunkExecutor`)."""

    def __init__(self, client: Any, task: Callable[[Chunk, Any], Any]) -> None:
        self.client = client
        self.task = task
        threads = sum(client.nthreads().values()) or 1
        self.slots = 2 * threads

    def submit(self, chunk: Chunk, options: Any) -> Any:
        return self.client.submit(self.task, chunk, options, retries=RETRIES, pure=False)

    def failure(self, error: BaseException) -> str:
        return f"the cluster could not rule them ({type(error).__name__}: {error})"


def check_available() -> None:
    """Raise :class:`ClusterError` if Dask distributed cannot be imported."""
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        raise ClusterError(f"--cluster needs Dask distributed: {INSTALL}") from None


def address_argument(text: str) -> str:
    """``--cluster``'s argparse type (``replay`` and ``match``): ``local``, ``local:N`` with N
    at least 1, or a scheduler's address."""
    if text.startswith("local:"):
        if not text[6:].isdigit() or int(text[6:]) < 1:
            raise argparse.ArgumentTypeError(f"local:N needs N of 1 or more, got {text!r}")
        return text
    if text == "local" or "://" in text or ":" in text:
        return text
    raise argparse.ArgumentTypeError(
        f"not a cluster address: {text!r} (tcp://HOST:PORT, local or local:N)"
    )


@contextlib.contextmanager
def dask_client(address: str, threads_per_worker: int = 1) -> Iterator[Any]:
    """A Dask client of the cluster at ``address``, closed on exit (and the cluster with it,
    for ``local[:N]``: N worker processes of ``threads_per_worker`` threads each, which ignore
    Ctrl-C).  Raises :class:`ClusterError` when Dask is not installed or the scheduler cannot
    be reached."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise ClusterError(f"--cluster needs Dask distributed: {INSTALL}") from None
    kind, workers = parse_address(address)
    cluster: Any = None
    try:
        if kind == "local":
            # The worker processes ignore Ctrl-C (they inherit the ignored SIGINT): this process
            # stops the run and closes the cluster, without a traceback from every worker.
            previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
            try:
                cluster = LocalCluster(  # type: ignore[no-untyped-call]
                    n_workers=workers or os.cpu_count() or 1,
                    threads_per_worker=threads_per_worker,
                    processes=True,
                    dashboard_address=":0",  # a free port: never "port 8787 in use" warnings
                    # A worker whose heartbeat races the scheduler's shutdown logs an ERROR with
                    # a traceback (`replay --cluster local:2 | head`); the callers report every
                    # task that fails by themselves.
                    silence_logs=logging.CRITICAL,
                )
            finally:
                signal.signal(signal.SIGINT, previous)
            client = Client(cluster)  # type: ignore[no-untyped-call]
        else:
            client = Client(address, timeout="20s")  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError) as error:
        if cluster is not None:
            cluster.close()
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    try:
        yield client
    finally:
        client.close()  # type: ignore[no-untyped-call]
        if cluster is not None:
            cluster.close()
            _stop_resource_tracker()


@contextlib.contextmanager
def cluster_executor(address: str, task: Callable[[Chunk, Any], Any]) -> Iterator[DaskExecutor]:
    """A :class:`DaskExecutor` on the cluster at ``address`` that runs ``task(chunk, options)``
    for each chunk (:func:`xqadj.integrations.replay.rule_chunk`, which the caller hands in: this
    module sits below the replay and imports none of it), closed on exit.  Raises
    :class:`ClusterError` when Dask is not installed or the scheduler cannot be reached."""
    with dask_client(address) as client:
        yield DaskExecutor(client, task)


def _stop_resource_tracker() -> None:
    """Stop and reap the resource tracker process that the LocalCluster's spawned workers
    started.  Left to itself, it outlives this process, is reparented, and stays a defunct
    process where PID 1 reaps no orphans (a container).  It is started again if needed."""
    from multiprocessing import resource_tracker

    tracker = getattr(resource_tracker, "_resource_tracker", None)
    stop = getattr(tracker, "_stop", None)
    if stop is not None:
        with contextlib.suppress(OSError, ChildProcessError):
            stop()
