"""The Dask runner: a match's game pairs played on the workers of a Dask cluster.

``xqadj match --cluster local[:N]|tcp://HOST:PORT`` hands each game pair (both games of an
encounter; a single game where the schedule has no pairs or ``--resume`` left one game of a
pair) to Dask as one task, :func:`play_pair`.  The task runs on a worker: it starts the pair's
engines there (the ``cmd=`` is run on the worker's machine), plays the games with
:func:`.game.play_job` (the local runner's way of playing a game: the worker's own referee,
and each game's clocks kept by the worker that plays it) and returns the picklable records.
This process alone tallies them, writes the PGN and the other outputs, keeps the statistics and
the SPRT and prints a line for each game as its pair comes back (:mod:`.director`).

How it is kept honest:

* **Handshake.**  Before the first game each worker starts every engine once (a task pinned to
  that worker); a worker that cannot is named on stderr and left out, and the match stops
  (:class:`.MatchError`) if no worker can.  Workers that join later (a restarted worker, a new
  machine) are checked the same way before they get a game.
* **``--concurrency``** is the number of games a worker plays at once.  It is a Dask worker
  resource of the match's own (``xqadj_game_<match id>``, see :attr:`ClusterRunner.resource`):
  every pair task needs one unit, and a worker that passed the handshake is given
  ``--concurrency`` units (``Worker.set_resources``), so a worker that did not pass it gets no
  game at all, not even one that passed an earlier match's handshake (the resource is taken
  back at the end).  A worker also plays no more games at once than it has
  threads: ``local:N`` starts N workers of ``--concurrency`` threads each; start remote workers
  with ``dask worker … --nthreads C`` (a note says when a worker has fewer threads).
* **Stopping.**  The SPRT's decision, Ctrl-C and SIGTERM call :func:`stop_match` on every
  worker (``Client.run``): it kills the engine process groups of the match's running pairs,
  whose games then end unscored, and marks the match stopped there, so that a pair that starts
  afterwards plays nothing.  The games a stopped pair had finished are still handed on (as
  the local runner's finished games are); then the client closes (with ``local[:N]``, the
  cluster with it).
* **A client that dies** (SIGKILL, its machine gone) cannot call :func:`stop_match`.  Its
  connection closes, and the scheduler releases its tasks at once: the queued pairs never
  start, and a running pair, which looks every :data:`WATCH` seconds whether its task is still
  wanted (the worker marks it ``cancelled``, see :func:`_task_wanted`), ends its game
  unscored and kills its engines.  A vanished machine's connection is only seen closed when
  the scheduler's TCP timeout (``distributed.comm.timeouts.tcp``, 30 s by default) expires.
  A worker that closes (it lost the scheduler, it is shut down) ends its pairs the same way.
  With ``local[:N]`` the scheduler and the workers' nannies die with the client, and
  distributed ends each worker process at once: its engines are left their end of input.
* **A worker that dies** loses no game: Dask plays its pairs again on another worker, a pair
  that Dask gives up on is submitted again (:data:`RESUBMITS` times), and the client takes
  each game number once.  An engine that crashes is that game's forfeit, as in a local match.
* **Clocks.**  A worker plays a pair with the short thread switch interval the local runner
  plays with (:func:`.game.short_switch_interval`), so that where an engine's ``bestmove`` is
  stamped when a game's thread reads it (a pipe, not Linux's stamped socket) that thread gets
  the GIL at once; the worker's interval is restored when its last pair ends.

Layer: integrations.  Inside :mod:`xqadj.integrations.match` it imports only :mod:`.record`,
:mod:`.options` and :mod:`.game`; Dask only when the match starts (``pip install
'xqadj[cluster]'``).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sys
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from xqadj.integrations.cluster import ClusterError, dask_client
from xqadj.integrations.engine import Engine, EngineError, EngineSpec
from xqadj.integrations.match.game import (
    EngineSlot,
    Finished,
    GameJob,
    play_job,
    short_switch_interval,
)
from xqadj.integrations.match.options import MatchConfig
from xqadj.integrations.match.record import GameRecord, MatchError

__all__ = ["ClusterRunner", "handshake", "pairs", "play_pair", "stop_match"]

#: Times a pair that Dask gave up on (its workers kept dying) is submitted again.
RESUBMITS = 3
#: Seconds between looks at the stop flag and at the cluster's workers.
POLL = 0.2
#: Seconds to wait for the pairs in progress to return after their engines were killed.
HALT_WAIT = 15.0
#: Seconds between a running pair's looks at whether its task is still wanted (on the worker).
WATCH = 0.5
#: The worker-side states of a task whose result someone still waits for (``cancelled``: the
#: scheduler released it while it ran; gone from the worker's tasks: forgotten).
_WANTED_STATES = frozenset({"executing", "long-running", "resumed"})
#: The statuses of a worker that can still deliver a result (distributed's
#: ``WORKER_ANY_RUNNING``); closing, closed or failed, it cannot.
_WORKING = frozenset({"running", "paused", "closing_gracefully"})

# -- on a worker ----------------------------------------------------------------------------------

_lock = threading.Lock()
#: The matches stopped on this worker process, and each match's pairs in progress there.
_stopped: set[str] = set()
_running: dict[str, list[tuple[threading.Event, tuple[EngineSlot, ...]]]] = {}


def handshake(engines: Sequence[EngineSpec], timeout: float) -> list[str]:
    """Start and quit every engine once; what went wrong (empty: every engine started)."""
    problems = []
    for spec in engines:
        try:
            engine = Engine(spec, timeout)
        except EngineError as error:
            problems.append(f"engine {spec.name!r} did not start: {error}")
        else:
            engine.quit()
    return problems


def _log_folder(log_dir: Path | None) -> Path | None:
    """This worker's folder for ``--log``: ``DIR/HOST-PID`` (made if missing; the workers of
    one machine would otherwise write the same ``NAME-N.log``), or None where it cannot be."""
    if log_dir is None:
        return None
    folder = log_dir / f"{socket.gethostname()}-{os.getpid()}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder


def _task_wanted() -> Callable[[], bool] | None:
    """For the Dask task running in this thread: a function that says whether its result is
    still wanted, for another thread to call; None outside a Dask task.

    The scheduler releases the tasks of a client that is gone (its connection closed) or that
    cancelled them; the worker then marks a task it is running ``cancelled`` (it cannot stop
    the thread) and forgets it when the thread returns.  A worker that is closing (it lost the
    scheduler, it is being shut down) will deliver nothing either.
    """
    try:
        from distributed import get_worker

        worker = get_worker()  # a context variable of the task's thread
        key = worker.get_current_task()
    except (ImportError, ValueError, KeyError):
        return None

    def wanted() -> bool:
        # Reads of a dict entry and an attribute, atomic under the GIL: a stale answer only
        # puts the decision off by one look.
        if worker.status.name not in _WORKING:
            return False
        task = worker.state.tasks.get(key)
        return task is not None and task.state in _WANTED_STATES

    return wanted


def _end(stop: threading.Event, slots: Sequence[EngineSlot]) -> None:
    """Stop one pair: its game in progress ends unscored and no other starts."""
    stop.set()
    for slot in slots:
        slot.kill()


def _watch(
    wanted: Callable[[], bool],
    done: threading.Event,
    stop: threading.Event,
    slots: Sequence[EngineSlot],
) -> None:
    """Every :data:`WATCH` seconds until ``done``: end the pair if its task is no longer
    wanted.  Nothing else tells a worker that the match's client died (SIGKILL, its machine
    gone): without this, the pair would play on to its end for a result nobody collects."""
    while not done.wait(WATCH):
        if stop.is_set():
            return
        if not wanted():
            _end(stop, slots)
            return


def play_pair(
    match_id: str,
    jobs: Sequence[GameJob],
    engines: Sequence[EngineSpec],
    start_timeout: float,
    log_dir: Path | None = None,
) -> list[GameRecord | None]:
    """The Dask task: play ``jobs`` (a game pair) one after the other on engines started here,
    and return a record for each, None for a game that was cut short or kept from starting:
    by :func:`stop_match`, or because the task is no longer wanted (the client that submitted
    it is gone or cancelled it; looked at every :data:`WATCH` seconds).  The engines are
    started when a game needs them and are gone when this returns (killed if the pair was
    stopped)."""
    stop = threading.Event()
    slots = tuple(EngineSlot(spec, start_timeout, _log_folder(log_dir), stop) for spec in engines)
    entry = (stop, slots)
    with _lock:
        if match_id in _stopped:
            return [None] * len(jobs)
        _running.setdefault(match_id, []).append(entry)
    done = threading.Event()
    wanted = _task_wanted()
    watcher = None
    if wanted is not None:
        watcher = threading.Thread(
            target=_watch, args=(wanted, done, stop, slots), name="xqadj-pair-watch", daemon=True
        )
        watcher.start()
    records: list[GameRecord | None] = []
    try:
        with short_switch_interval():
            for job in jobs:
                records.append(None if stop.is_set() else play_job(job, slots, stop))
    finally:
        done.set()
        if watcher is not None:
            watcher.join()  # so that it kills no engine of the pair after this
        with _lock:
            _running[match_id].remove(entry)
        for slot in slots:
            # An engine started while stop_match() was killing the others is killed here.
            if stop.is_set():
                slot.kill()
            else:
                slot.close()
    return records


def stop_match(match_id: str) -> int:
    """Stop the match on this worker: kill the engines of its pairs in progress (their games
    end unscored) and play no pair of it from now on.  Returns the number of pairs stopped."""
    with _lock:
        _stopped.add(match_id)
        entries = list(_running.get(match_id, ()))
    for stop, slots in entries:
        _end(stop, slots)
    return len(entries)


async def _offer_games(resource: str, games: int, dask_worker: Any) -> None:
    """Let this worker take ``games`` pairs at once (``games`` of the match's ``resource``)."""
    await dask_worker.set_resources(**{resource: games})


# -- on the client --------------------------------------------------------------------------------


def pairs(jobs: Sequence[GameJob]) -> list[tuple[GameJob, ...]]:
    """``jobs`` in tasks: the games of one encounter together, in schedule order."""
    grouped: list[list[GameJob]] = []
    for job in jobs:
        if grouped and grouped[-1][0].scheduled.encounter == job.scheduled.encounter:
            grouped[-1].append(job)
        else:
            grouped.append([job])
    return [tuple(group) for group in grouped]


def _some_done(running: dict[Any, tuple[GameJob, ...]]) -> list[tuple[Any, tuple[GameJob, ...]]]:
    """The pairs of ``running`` that finished within :data:`POLL` (taken out of it), with their
    futures: none when nothing finished by then."""
    from dask.distributed import wait

    try:
        done, _ = wait(  # type: ignore[no-untyped-call]
            list(running), timeout=POLL, return_when="FIRST_COMPLETED"
        )
    except TimeoutError:
        return []
    return [(future, running.pop(future)) for future in done]


class ClusterRunner:
    """Plays a match's game pairs on the Dask cluster at ``address`` (see
    :class:`.game.Runner` and this module's description).  ``err`` gets the notes about the
    workers (one left out, one with fewer threads than ``--concurrency``)."""

    def __init__(self, config: MatchConfig, address: str, err: TextIO | None = None) -> None:
        self.config = config
        self.address = address
        self.err = err if err is not None else sys.stderr
        self.stop_event = threading.Event()
        self.stopped = ""
        self.signal = 0
        self.match_id = f"xqadj-match-{uuid.uuid4().hex}"
        #: The Dask worker resource a game of this match takes (one unit).
        self.resource = f"xqadj_game_{self.match_id[12:]}"
        #: Worker addresses that passed the handshake, and all those that were checked.
        self.workers: set[str] = set()
        self.left_out: dict[str, str] = {}
        self._seen: set[str] = set()
        self._counted: set[int] = set()
        self._client: Any = None
        self._exit = contextlib.ExitStack()
        self._halted = False
        self._ignoring_sigint: signal.Handlers | Callable[..., object] | int | None = None
        self._ignoring_sigterm: signal.Handlers | Callable[..., object] | int | None = None

    # -- the runner interface

    def start(self, games: int) -> None:
        """Reach the cluster and check every worker (the handshake); raises
        :class:`.MatchError` if the cluster cannot be reached or no worker can start every
        engine."""
        try:
            self._client = self._exit.enter_context(
                dask_client(self.address, threads_per_worker=self.config.concurrency)
            )
        except ClusterError as error:
            raise MatchError(str(error)) from None
        self._admit(self._client.nthreads())
        if not self.workers:
            raise MatchError(
                f"no worker of the cluster at {self.address} can start every engine"
                if self._seen
                else f"the cluster at {self.address} has no worker"
            )

    def stop(self) -> None:
        """Start no more pairs and end those in progress unscored; the play loop does it,
        within :data:`POLL` seconds."""
        self.stop_event.set()

    def interrupted(self, interrupt: KeyboardInterrupt) -> None:
        self.stopped = "interrupted"
        self.signal = getattr(interrupt, "signum", signal.SIGINT)
        self.stop_event.set()
        # A second Ctrl-C must not cut the clean-up short and leave engines running.
        if threading.current_thread() is threading.main_thread():
            self._ignoring_sigint = signal.signal(signal.SIGINT, signal.SIG_IGN)
            self._ignoring_sigterm = signal.signal(signal.SIGTERM, signal.SIG_IGN)

    def play(self, jobs: Sequence[GameJob], finished: Finished) -> None:
        client = self._client
        pending = deque(pairs(jobs))
        running: dict[Any, tuple[GameJob, ...]] = {}
        resubmitted: dict[int, int] = {}
        last_look = time.monotonic()
        try:
            while (pending or running) and not self.stop_event.is_set():
                while pending and len(running) < self._window():
                    pair = pending.popleft()
                    running[self._submit(pair)] = pair
                for future, pair in _some_done(running):
                    again = self._deliver(future, pair, finished, resubmitted)
                    if again:
                        pending.appendleft(again)
                if time.monotonic() - last_look > 1.0:
                    self._admit(client.nthreads())
                    last_look = time.monotonic()
        except KeyboardInterrupt as interrupt:
            self.interrupted(interrupt)
        except BrokenPipeError:
            self.stopped = "output closed"
        finally:
            if running or self.stop_event.is_set():
                self._halt(running, finished)

    def close(self) -> None:
        """Take the match's resource back from the workers and close the client (with
        ``local[:N]``, the cluster and its workers with it)."""
        try:
            if self._client is not None and self.workers:
                with contextlib.suppress(Exception):  # a worker or the scheduler gone
                    self._client.run(
                        _offer_games,
                        self.resource,
                        0,
                        workers=list(self.workers),
                        on_error="ignore",
                    )
            self._exit.close()
        finally:
            if self._ignoring_sigint is not None:
                signal.signal(signal.SIGINT, self._ignoring_sigint)
                signal.signal(signal.SIGTERM, self._ignoring_sigterm)

    # -- inside

    def _window(self) -> int:
        """Pairs kept submitted: twice the games the admitted workers play at once, so that
        a worker finishing a pair has its next one waiting."""
        return max(1, 2 * len(self.workers) * self.config.concurrency)

    def _submit(self, pair: tuple[GameJob, ...]) -> Any:
        config = self.config
        return self._client.submit(
            play_pair,
            self.match_id,
            pair,
            tuple(config.engines),
            config.handshake_timeout,
            config.log_dir,
            resources={self.resource: 1},
            pure=False,
        )

    def _deliver(
        self,
        future: Any,
        pair: tuple[GameJob, ...],
        finished: Finished,
        resubmitted: dict[int, int],
    ) -> tuple[GameJob, ...] | None:
        """Hand on the finished games of ``pair`` that were not counted yet; the games left to
        play again, if any."""
        try:
            records = future.result()
        except Exception as error:  # Dask gave up on it (KilledWorker, a lost scheduler …)
            if self.stop_event.is_set():
                return None
            number = pair[0].scheduled.number
            resubmitted[number] = resubmitted.get(number, 0) + 1
            if resubmitted[number] > RESUBMITS:
                raise MatchError(
                    f"the cluster could not play game {number}: {type(error).__name__}: {error}"
                ) from None
            return pair
        unplayed = []
        for job, record in zip(pair, records, strict=True):
            number = job.scheduled.number
            if record is None:
                unplayed.append(job)
            elif number not in self._counted:  # a pair played twice is counted once
                self._counted.add(number)
                finished(job, record)
        if unplayed and not self.stop_event.is_set():
            return tuple(unplayed)
        return None

    def _admit(self, nthreads: dict[str, int]) -> None:
        """Handshake the workers not checked yet, and give those that pass their games."""
        config = self.config
        client = self._client
        self.workers &= set(nthreads)  # those that left
        new = [address for address in nthreads if address not in self._seen]
        if not new:
            return
        checks = {
            address: client.submit(
                handshake,
                tuple(config.engines),
                config.handshake_timeout,
                workers=[address],
                allow_other_workers=False,
                pure=False,
            )
            for address in new
        }
        bound = config.handshake_timeout * len(config.engines) + 60
        for address, check in checks.items():
            self._seen.add(address)
            try:
                problems = check.result(timeout=bound)
            except Exception as error:  # the worker died or hung during the handshake
                problems = [f"{type(error).__name__}: {error}"]
            if problems:
                self.left_out[address] = "; ".join(problems)
                print(
                    f"xqadj match: worker {address} left out: {self.left_out[address]}",
                    file=self.err,
                    flush=True,
                )
                continue
            try:
                client.run(_offer_games, self.resource, config.concurrency, workers=[address])
            except Exception as error:  # gone since the handshake
                self.left_out[address] = f"{type(error).__name__}: {error}"
                continue
            self.workers.add(address)
            if nthreads[address] < config.concurrency:
                print(
                    f"xqadj match: worker {address} has {nthreads[address]} threads: it plays "
                    f"{nthreads[address]} games at once, not --concurrency "
                    f"{config.concurrency} (dask worker --nthreads)",
                    file=self.err,
                    flush=True,
                )

    def _halt(self, running: dict[Any, tuple[GameJob, ...]], finished: Finished) -> None:
        """Stop the match on every worker and take the games its running pairs had finished;
        cancel whatever is left."""
        if self._halted:
            return
        self._halted = True
        self.stop_event.set()  # whatever brought it here (an error, a closed output) stops it
        client = self._client
        self._stop_workers()
        deadline = time.monotonic() + HALT_WAIT
        try:
            while running and time.monotonic() < deadline:
                for future, pair in _some_done(running):
                    if self.stopped != "output closed":
                        self._deliver(future, pair, finished, {})
        except KeyboardInterrupt as interrupt:
            self.interrupted(interrupt)
        except BrokenPipeError:
            self.stopped = "output closed"
        finally:
            if running:
                with contextlib.suppress(Exception):
                    client.cancel(list(running))
            # A pair that started on a worker after the first call (it was on its way there):
            # the mark stops it, and this kills whatever it had started.
            self._stop_workers()

    def _stop_workers(self) -> None:
        """:func:`stop_match` on every worker; a worker or scheduler gone cannot be helped."""
        with contextlib.suppress(Exception):
            self._client.run(stop_match, self.match_id, on_error="ignore")
