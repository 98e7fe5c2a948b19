"""The local runner: a match's games played in this process, on a pool of threads.

``--concurrency`` games at once, each on a free set of engines (one set per concurrent game, all
started before the first game and restarted after a failure). Ctrl-C or SIGTERM stops it: queued
games are not started, games in progress end unscored, every engine is killed.

Layer: integrations.  Inside :mod:`xqadj.integrations.match` it imports only :mod:`.record`,
:mod:`.options` and :mod:`.game`.
"""

from __future__ import annotations

import queue
import signal
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor

from xqadj.integrations.engine import EngineError
from xqadj.integrations.match.game import (
    EngineSlot,
    Finished,
    GameJob,
    play_job,
    short_switch_interval,
)
from xqadj.integrations.match.options import MatchConfig
from xqadj.integrations.match.record import MatchError

__all__ = ["LocalRunner"]


class LocalRunner:
    """Plays a match's games in this process (see :class:`.game.Runner`)."""

    def __init__(self, config: MatchConfig) -> None:
        self.config = config
        self.stop_event = threading.Event()
        self.stopped = ""
        self.signal = 0
        self._lock = threading.Lock()
        self._slots: list[EngineSlot] = []
        self._free: queue.Queue[tuple[EngineSlot, ...]] = queue.Queue()
        self._ignoring_sigint: signal.Handlers | Callable[..., object] | int | None = None
        self._ignoring_sigterm: signal.Handlers | Callable[..., object] | int | None = None

    def start(self, games: int) -> None:
        """Start a set of engines for each game played at once (``concurrency``, at most
        ``games``)."""
        config = self.config
        for _ in range(min(config.concurrency, games)):
            engines = tuple(
                EngineSlot(spec, config.handshake_timeout, config.log_dir, self.stop_event)
                for spec in config.engines
            )
            self._slots.extend(engines)
            for slot in engines:
                try:
                    slot.get()
                except EngineError as error:
                    raise MatchError(f"engine {slot.spec.name!r} did not start: {error}") from None
            self._free.put(engines)

    def stop(self) -> None:
        """Stop the match: start no more games and kill every engine (a game in progress ends
        unscored)."""
        self.stop_event.set()
        for slot in list(self._slots):
            slot.kill()

    def interrupted(self, interrupt: KeyboardInterrupt) -> None:
        self.stopped = "interrupted"
        self.signal = getattr(interrupt, "signum", signal.SIGINT)
        # A second Ctrl-C (or a SIGTERM) must not cut the clean-up short and leave engines
        # running; the clean-up is bounded (every engine is killed, not asked to quit).
        if threading.current_thread() is threading.main_thread():
            self._ignoring_sigint = signal.signal(signal.SIGINT, signal.SIG_IGN)
            self._ignoring_sigterm = signal.signal(signal.SIGTERM, signal.SIG_IGN)

    def play(self, jobs: Sequence[GameJob], finished: Finished) -> None:
        pool = ThreadPoolExecutor(max_workers=max(1, self._free.qsize()), thread_name_prefix="game")
        futures: list[Future[None]] = []
        with short_switch_interval():
            try:
                for job in jobs:
                    futures.append(pool.submit(self._play, job, finished))
                for future in futures:
                    future.result()
            except KeyboardInterrupt as interrupt:
                self.interrupted(interrupt)
            except BrokenPipeError:
                self.stopped = "output closed"
            finally:
                if self.stopped or any(f.done() and f.exception() for f in futures):
                    self.stop()
                pool.shutdown(wait=True, cancel_futures=True)

    def _play(self, job: GameJob, finished: Finished) -> None:
        if self.stop_event.is_set():
            return
        engines = self._free.get()
        try:
            record = play_job(job, engines, self.stop_event)
        finally:
            self._free.put(engines)
        if record is None:  # cut short by stop(): not scored
            return
        with self._lock:
            finished(job, record)

    def close(self) -> None:
        for slot in self._slots:
            if self.stopped:
                slot.kill()
            else:
                slot.close()
        if self._ignoring_sigint is not None:
            signal.signal(signal.SIGINT, self._ignoring_sigint)
            signal.signal(signal.SIGTERM, self._ignoring_sigterm)
