"""An engine's standard output, each line stamped with the time the engine wrote it.

It is read by the thread that waits for its lines (an engine's answer, its clock running):
there is no reader thread.  Until it is read, the output waits in the kernel, which blocks an
engine that writes faster than it is read.

Layer: integrations.

:class:`EngineOutput` is what an :class:`~xqadj.integrations.engine.Engine` reads.  Two kinds:

``socket`` (Linux)
    The engine's stdout is one end of an ``AF_UNIX`` ``SOCK_SEQPACKET`` socket pair.  Our end
    has ``SO_TIMESTAMPNS`` on, so every message (one ``write()`` of the engine) carries the
    kernel's stamp of that write (``CLOCK_REALTIME``): a search is charged up to when the
    engine wrote its ``bestmove``, however late any thread of ours wakes up.  A message is
    read whole or not at all, so the read buffer is as large as the largest message the
    engine's end accepts: xqadj raises that end's ``SO_SNDBUF`` to :data:`ENGINE_SNDBUF`
    (the kernel doubles it, within twice ``net.core.wmem_max``) and one ``write()`` of the
    engine may then hold up to that size less 32 bytes (:attr:`EngineOutput.max_write`; 2 MiB
    less 32 bytes with ``wmem_max`` ≥ 1 MiB, 416 KiB with the kernel's default 208 KiB).  A
    bigger single write is refused to the engine with ``EMSGSIZE``; engines write a line or a
    stdio buffer at a time, far below it.
``pipe`` (elsewhere, or forced with the environment variable ``XQADJ_ENGINE_OUTPUT=pipe``)
    A plain pipe; a line is stamped when it is read, on the monotonic clock: a search is
    charged up to when our thread got round to its ``bestmove``.

Either way the process is watched besides its output: with a pidfd (``os.pidfd_open``) in the
same ``poll()`` where there is one, else by checking every :data:`EXIT_POLL` seconds, so that an
engine that exits while a child of its own still holds its stdout is seen at once, not when
the child lets go.
"""

from __future__ import annotations

import contextlib
import functools
import mmap
import os
import select
import socket
import struct
import sys
import threading
import time
from collections.abc import Callable
from typing import NamedTuple

#: Linux's ``SO_TIMESTAMPNS`` (Python's socket module lacks the name).
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)
#: The engine end's ``SO_SNDBUF`` asked for: the largest message (one write) grows with it.
ENGINE_SNDBUF = 1 << 20
#: The environment variable that forces an output kind (``pipe`` or ``socket``).
OUTPUT_ENV = "XQADJ_ENGINE_OUTPUT"
#: Seconds between two checks of the process without a pidfd.
EXIT_POLL = 0.05
#: The longest line kept whole; a longer one is cut into pieces of this size.
MAX_LINE_BYTES = 64 * 1024

_TIMESPEC = struct.Struct("@ll")
_ANCILLARY = socket.CMSG_SPACE(_TIMESPEC.size) if hasattr(socket, "CMSG_SPACE") else 0
# Plain ints: the flags' enum operators cost microseconds on every message.
_DONTWAIT = int(getattr(socket, "MSG_DONTWAIT", 0))
_TRUNC = int(getattr(socket, "MSG_TRUNC", 0))
_SOL_SOCKET = int(socket.SOL_SOCKET)


class Line(NamedTuple):
    """One line of output, without its end of line."""

    #: ``time.monotonic_ns()`` when it was read.
    read_ns: int
    #: The kernel's stamp of the engine's write that ended it (``time.time_ns()``'s clock), or
    #: None (a pipe).
    sent_ns: int | None
    raw: bytes


@functools.cache
def socket_available() -> bool:
    """Whether this system gives stamped messages (an ``AF_UNIX`` ``SOCK_SEQPACKET`` pair with
    ``SO_TIMESTAMPNS``)."""
    if not sys.platform.startswith("linux") or not hasattr(socket, "SOCK_SEQPACKET"):
        return False
    try:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    except OSError:
        return False
    try:
        ours.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    except OSError:
        return False
    finally:
        ours.close()
        theirs.close()
    return True


class EngineOutput:
    """An engine's stdout, before and after the engine starts.

    Give :attr:`child_fd` to the process as its stdout, then call :meth:`started` with its pid
    (our copy of the child's end is closed there).  :meth:`read` is called by one thread at a
    time; :meth:`close` may be called from any thread (a read in progress closes the files on
    its way out: closing a file another thread polls could hand its number to a new file).

    >>> import subprocess, sys
    >>> output = EngineOutput.create()
    >>> child = subprocess.Popen([sys.executable, "-c", "print('a'); print('b')"],
    ...                          stdout=output.child_fd)
    >>> output.started(child.pid)
    >>> lines = []
    >>> while (more := output.read(5.0)) is not None:
    ...     lines += [line.raw for line in more]
    >>> lines, child.wait()
    ([b'a', b'b'], 0)
    >>> output.close()
    """

    def __init__(self, kind: str) -> None:
        #: ``socket`` or ``pipe``.
        self.kind = kind
        #: Messages longer than the read buffer (cut: their ends are lost).
        self.truncated = 0
        self._partial = b""
        self._ended = False
        self._lock = threading.Lock()
        self._reading = False
        self._closed = False
        self._close_asked = False
        self._pidfd: int | None = None
        self._exited: Callable[[], bool] = lambda: False
        self._poll = select.poll()
        self._socket: socket.socket | None = None
        self._buffer: mmap.mmap | None = None
        #: The largest single write of the engine that is read whole.
        self.max_write = 0
        if kind == "socket":
            ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            ours.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
            theirs.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, ENGINE_SNDBUF)
            # A datagram longer than the buffer is cut (MSG_TRUNC): size the buffer from the
            # largest one the engine's end sends (its SO_SNDBUF less the kernel's 32 bytes).
            size = theirs.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF)
            self.max_write = size - 32
            # An anonymous mapping: its pages are only touched as big messages come.
            self._buffer = mmap.mmap(-1, size)
            self._socket = ours
            self._fd = ours.fileno()
            self.child_fd = theirs.detach()
        else:
            self._fd, self.child_fd = os.pipe()
            # Read without blocking: once the engine has exited, a child of its may hold the
            # pipe open with nothing in it.
            os.set_blocking(self._fd, False)
            self.max_write = sys.maxsize
        self._poll.register(self._fd, select.POLLIN)

    @classmethod
    def create(cls, kind: str | None = None) -> EngineOutput:
        """An output of ``kind`` (``socket``, ``pipe``), or the best this system gives (the
        socket where it works) unless ``XQADJ_ENGINE_OUTPUT`` says which."""
        kind = kind or os.environ.get(OUTPUT_ENV, "").strip().lower() or None
        if kind not in (None, "socket", "pipe"):
            raise ValueError(f"{OUTPUT_ENV} must be socket or pipe, got {kind!r}")
        if kind is None:
            kind = "socket" if socket_available() else "pipe"
        return cls(kind)

    def started(self, pid: int, exited: Callable[[], bool] | None = None) -> None:
        """The engine runs as ``pid``: close our copy of its end, and watch the process (with a
        pidfd where there is one, else with ``exited``, checked every :data:`EXIT_POLL`
        seconds)."""
        self.abandon()
        if exited is not None:
            self._exited = exited
        if hasattr(os, "pidfd_open"):
            try:
                self._pidfd = os.pidfd_open(pid)
            except OSError:  # an old kernel, or the process was reaped already
                self._pidfd = None
            else:
                self._poll.register(self._pidfd, select.POLLIN)

    def abandon(self) -> None:
        """Close our copy of the child's end (the process has it, or never started)."""
        if self.child_fd >= 0:
            os.close(self.child_fd)
            self.child_fd = -1

    def read(self, timeout: float) -> list[Line] | None:
        """The lines of what came next, waiting up to ``timeout`` seconds for it: ``[]`` when
        nothing came (or no line ended), None when the output ended (its end of file, or the
        process exited and what it wrote before has been read)."""
        with self._lock:
            if self._closed:
                return None
            self._reading = True
        try:
            return self._read(timeout)
        finally:
            with self._lock:
                self._reading = False
                if self._close_asked:
                    self._close()

    def waiting(self) -> bool:
        """Whether :meth:`read` would return at once: something to read, the output's end, or
        the process's exit."""
        with self._lock:
            return self._closed or self._ended or bool(self._poll.poll(0))

    def _read(self, timeout: float) -> list[Line] | None:
        if self._ended:
            return None
        wait = timeout if self._pidfd is not None else min(timeout, EXIT_POLL)
        ready = [fd for fd, _ in self._poll.poll(max(0.0, wait) * 1000)]
        if self._fd in ready:
            try:
                return self._receive()
            except BlockingIOError:
                return []
        if self._pidfd in ready or (self._pidfd is None and self._exited()):
            # It exited: all it wrote is here already; whoever else holds its stdout, the
            # output ends when that is read.
            lines: list[Line] = []
            with contextlib.suppress(BlockingIOError):
                while not self._ended:
                    lines += self._receive() or []
            self._ended = True
            lines += self._rest(time.monotonic_ns())
            return lines or None
        return []

    def _receive(self) -> list[Line] | None:
        """One message (or what a pipe holds), without waiting: its lines (none if it ended no
        line), or None at the end of the output; raises BlockingIOError if nothing is there."""
        sent_ns = None
        if self._socket is not None:
            assert self._buffer is not None
            try:
                size, ancillary, flags, _ = self._socket.recvmsg_into(
                    [self._buffer], _ANCILLARY, _DONTWAIT
                )
            except BlockingIOError:
                raise
            except OSError:
                size, ancillary, flags = 0, [], 0
            read_ns = time.monotonic_ns()
            if flags & _TRUNC:
                self.truncated += 1
            for level, kind, data in ancillary:
                # Only the stamp is taken (an engine could send other ancillary data).
                if kind == SO_TIMESTAMPNS and level == _SOL_SOCKET:
                    seconds, nanoseconds = _TIMESPEC.unpack_from(data)
                    sent_ns = seconds * 1_000_000_000 + nanoseconds
            # An empty message (a write of 0 bytes) has a stamp; the end of file has none.
            if size == 0 and sent_ns is None:
                return self._end(read_ns)
            data = self._buffer[:size]
        else:
            try:
                data = os.read(self._fd, 65536)
            except BlockingIOError:
                raise
            except OSError:
                data = b""
            read_ns = time.monotonic_ns()
            if not data:
                return self._end(read_ns)
        return self._split(data, read_ns, sent_ns)

    def _end(self, read_ns: int) -> list[Line] | None:
        self._ended = True
        return self._rest(read_ns) or None

    def _split(self, data: bytes, read_ns: int, sent_ns: int | None) -> list[Line]:
        """The lines ``data`` ends (a line may span writes: its start waits in ``_partial``)."""
        if self._partial:
            data = self._partial + data
        pieces = data.split(b"\n")
        self._partial = pieces.pop()
        if len(data) <= MAX_LINE_BYTES:  # the usual case: no line to cut
            return [Line(read_ns, sent_ns, piece) for piece in pieces]
        lines = []
        for piece in pieces:
            while len(piece) > MAX_LINE_BYTES:
                lines.append(Line(read_ns, sent_ns, piece[:MAX_LINE_BYTES]))
                piece = piece[MAX_LINE_BYTES:]
            lines.append(Line(read_ns, sent_ns, piece))
        while len(self._partial) >= MAX_LINE_BYTES:
            lines.append(Line(read_ns, sent_ns, self._partial[:MAX_LINE_BYTES]))
            self._partial = self._partial[MAX_LINE_BYTES:]
        return lines

    def _rest(self, read_ns: int) -> list[Line]:
        """The last line, written without an end of line."""
        rest, self._partial = self._partial, b""
        return [Line(read_ns, None, rest)] if rest else []

    def close(self) -> None:
        """Close our files (now, or when the read in progress ends)."""
        with self._lock:
            if self._reading:
                self._close_asked = True
            else:
                self._close()

    def _close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.abandon()
        if self._socket is not None:
            self._socket.close()
        else:
            os.close(self._fd)
        if self._pidfd is not None:
            os.close(self._pidfd)
        if self._buffer is not None:
            with contextlib.suppress(BufferError):
                self._buffer.close()


__all__ = [
    "ENGINE_SNDBUF",
    "EXIT_POLL",
    "OUTPUT_ENV",
    "EngineOutput",
    "Line",
    "socket_available",
]
