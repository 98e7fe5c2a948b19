"""Driving a xiangqi engine process over UCI or UCCI, with time-outs.

Layer: integrations.

:class:`Engine` starts a command, speaks its protocol and converts moves between the engine's
notation (``iccs``: ranks 0–9, ``fairy``: ranks 1–10) and :class:`~xqadj.board.Move`.  Every
read has a time-out, so a hung engine is detected instead of hanging the caller; a crashed one
raises :class:`EngineError`.

The process handling is meant to survive hostile engines:

* each engine runs in its own process group (its own session), so that a wrapper script's
  children are killed with it, and a Ctrl-C meant for xqadj does not reach the engine first;
* the engine's stdout is read by the thread that waits for its answer, with no reader thread
  (:mod:`.engineio`): on Linux it is a socket whose every message carries the kernel's stamp
  of the engine's write, elsewhere a pipe; the stderr reader thread is never joined without a
  bound, and no file is closed while another thread waits on it (closing waits for a blocked
  reader, which waits for an EOF that a grandchild holding the file may never send);
* ``info`` lines are not queued: only the last few are kept, so a flooding engine keeps memory
  bounded (and, until they are read, its lines wait in the kernel, which blocks an engine that
  writes faster than they are read); other lines wait in a bounded queue;
* before each search the engine is synchronised with ``isready``, so a stray second
  ``bestmove`` is dropped instead of being taken as the answer to the next position;
* stderr is kept (its last lines end up in the error messages) and, with a log folder, every
  line both ways and the stderr go to one file per engine instance;
* the engine's process is watched, not only its output (a pidfd in the same ``poll()``): an
  engine that exits while a child of its own still holds its stdout is a crash at once (its
  process group is killed), not a time-out;
* the time a search took is from just before ``go`` is written to the kernel's stamp of the
  engine's write that held the ``bestmove`` (with a pipe: when it was read), however late the
  waiting thread wakes up.
"""

from __future__ import annotations

import collections
import itertools
import math
import os
import re
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from xqadj.board import STARTING_FEN, Move
from xqadj.integrations.engineio import MAX_LINE_BYTES, EngineOutput, Line
from xqadj.integrations.settings import parse_key_values

PROTOCOLS = ("uci", "ucci")
NOTATIONS = ("iccs", "fairy")
#: What ``notation=`` takes: a notation, or ``auto`` (detect it, as ``xqadj proxy`` does).
NOTATION_SETTINGS = ("auto", *NOTATIONS)
#: Engines known to write UCI moves with ranks 1-10 (``id name`` starts with one of these).
FAIRY_ENGINE_NAMES = ("fairy-stockfish",)
TIME_UNITS = ("ms", "s")

#: Non-``info`` lines waiting to be read; beyond this the oldest are dropped.
MAX_PENDING_LINES = 1000
#: ``info`` lines kept (the latest); the others are logged, not kept.
KEPT_INFO_LINES = 20
#: stderr lines kept for error messages.
KEPT_STDERR_LINES = 20
#: Nanoseconds by which the kernel's stamp of a ``bestmove`` may pass the moment it was read
#: (two clocks, one slewed by NTP) before it is taken for a clock step and the read time is
#: charged instead.
CLOCK_STEP_NS = 2_000_000


class EngineError(Exception):
    """The engine crashed, hung or broke its protocol; ``kind`` is ``crash``, ``timeout``,
    ``protocol`` or ``stopped`` (the caller killed it, e.g. at Ctrl-C)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass
class EngineSpec:
    """How to start and talk to an engine.

    ``EngineSpec.parse("cmd=fairy-stockfish proto=ucci name=FS")`` reads the ``key=value`` form
    used by ``xqadj match --engine``: ``cmd`` (required; split like a shell line), ``proto``
    (``uci`` default, or ``ucci``), ``notation`` (``iccs`` ranks 0–9, default; ``fairy`` ranks
    1–10; ``auto``: detected from the engine's ``id name`` — UCCI engines always use ``iccs``),
    ``name``, ``timeunit`` (``ms`` default or ``s``:
    the unit of a UCCI engine's ``go time``, for an old engine that neither offers
    ``usemillisec`` nor reads milliseconds), and ``option.<Name>=<value>`` to set an engine
    option.
    """

    command: list[str]
    protocol: str = "uci"
    notation: str = "iccs"
    name: str = ""
    options: dict[str, str] = field(default_factory=dict)
    time_unit: str = "ms"
    #: The directory to start the engine in (``dir=`` of ``xqadj match``), or None for ours.
    directory: Path | None = None

    @classmethod
    def parse(cls, tokens: list[str] | str) -> EngineSpec:
        if isinstance(tokens, str):
            tokens = shlex.split(tokens)
        settings = parse_key_values(
            tokens,
            "engine",
            ("cmd", "proto", "notation", "name", "timeunit"),
            "cmd, proto, notation, name, timeunit or option.<Name>",
            options=True,
        )
        values = {k: v for k, v in settings.items() if not k.startswith("option.")}
        options = {k[len("option.") :]: v for k, v in settings.items() if k.startswith("option.")}
        if not values.get("cmd"):
            raise ValueError("an engine needs cmd=<command line>")
        protocol = values.get("proto", "uci").lower()
        if protocol not in PROTOCOLS:
            raise ValueError(f"proto must be uci or ucci, got {protocol!r}")
        notation = values.get("notation", "iccs").lower()
        if notation not in NOTATION_SETTINGS:
            raise ValueError(f"notation must be auto, iccs or fairy, got {notation!r}")
        if protocol == "ucci" and notation == "fairy":
            raise ValueError("UCCI engines use iccs notation (ranks 0-9)")
        time_unit = values.get("timeunit", "ms").lower()
        if time_unit not in TIME_UNITS:
            raise ValueError(f"timeunit must be ms or s, got {time_unit!r}")
        command = shlex.split(values["cmd"])
        if not command:
            raise ValueError("an engine needs cmd=<command line>")
        name = values.get("name") or os.path.basename(command[0])
        return cls(command, protocol, notation, name, options, time_unit)


@dataclass
class SearchLimit:
    """A per-move limit: milliseconds, depth or nodes (exactly one is used, in that order)."""

    movetime: int | None = None
    depth: int | None = None
    nodes: int | None = None
    #: Seconds an engine may take beyond ``movetime`` before it counts as hung.
    grace: float = 5.0
    #: Seconds a depth- or nodes-limited search may take before the engine counts as hung.
    search_timeout: float = 60.0

    def go(self, protocol: str = "uci", time_unit: str = "ms") -> str:
        """The ``go`` command for ``protocol``.

        UCCI has no ``movetime``: its ``go`` takes ``depth``, ``nodes`` or ``time <t>
        [movestogo <n> | increment <i>]`` (UCCI 3.0, "go"), so a fixed time per move is
        ``go time T movestogo 1`` — all the time left, for the one move before the next time
        control.  ``T`` is in milliseconds, or in whole seconds (rounded up) for an engine whose
        ``time_unit`` is ``s`` (UCCI's unit before ``usemillisec``).
        """
        if self.depth is not None and self.movetime is None:
            return f"go depth {self.depth}"
        if self.nodes is not None and self.movetime is None:
            return f"go nodes {self.nodes}"
        movetime = self.movetime if self.movetime is not None else 100
        if protocol == "ucci":
            amount = movetime if time_unit == "ms" else max(1, math.ceil(movetime / 1000))
            return f"go time {amount} movestogo 1"
        return f"go movetime {movetime}"

    def deadline(self, protocol: str = "uci", time_unit: str = "ms") -> float:
        """Seconds to wait for ``bestmove`` before the engine counts as hung."""
        if self.movetime is None and (self.depth is not None or self.nodes is not None):
            return self.search_timeout
        movetime = self.movetime if self.movetime is not None else 100
        if protocol == "ucci" and time_unit == "s":
            return max(1, math.ceil(movetime / 1000)) + self.grace
        return movetime / 1000 + self.grace


class EngineLog:
    """One engine instance's traffic both ways and its stderr, one line each, with the seconds
    since the engine started: ``0.012 > uci`` (sent), ``0.015 < uciok`` (received),
    ``0.020 ! message`` (stderr), ``1.500 # note`` (said by xqadj).

    A log that cannot be written (disk full, ``ulimit -f``) never fails the engine: the first
    error is kept in :attr:`error` (the file and the reason) and nothing more is written; the
    match reads it and stops."""

    _numbers: dict[str, itertools.count[int]] = collections.defaultdict(lambda: itertools.count(1))
    _numbers_lock = threading.Lock()

    def __init__(self, folder: Path, name: str) -> None:
        safe = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "engine"
        with EngineLog._numbers_lock:
            number = next(EngineLog._numbers[safe])
            self.path = folder / f"{safe}-{number}.log"
            while self.path.exists():  # an earlier run's log: keep it
                number = next(EngineLog._numbers[safe])
                self.path = folder / f"{safe}-{number}.log"
        self._lock = threading.Lock()
        self._start = time.monotonic()
        #: The first write error: ``"FILE: reason"``, or "".
        self.error = ""
        self._file: IO[str] | None = None
        try:
            self._file = self.path.open("w", encoding="utf-8")
        except OSError as error:
            self.error = f"{self.path}: {error.strerror}"

    def write(self, mark: str, line: str) -> None:
        with self._lock:
            if self._file is None or self._file.closed:
                return
            try:
                self._file.write(f"{time.monotonic() - self._start:.3f} {mark} {line}\n")
                self._file.flush()
            except OSError as error:
                self.error = f"{self.path}: {error.strerror}"
                self._close()

    def _close(self) -> None:
        file, self._file = self._file, None
        if file is not None:
            try:
                file.close()
            except OSError as error:  # the buffered rest could not be written
                self.error = self.error or f"{self.path}: {error.strerror}"

    def close(self) -> None:
        with self._lock:
            self._close()


class PositionText:
    """The argument of a game's ``position`` command, kept up to date one move at a time.

    >>> from xqadj.board import Move
    >>> text = PositionText(STARTING_FEN, "fairy")
    >>> text.text
    'startpos'
    >>> text.push(Move.from_iccs("h2e2")).push(Move.from_iccs("h9g7")).text
    'startpos moves h3e3 h10g8'
    """

    def __init__(self, start_fen: str, notation: str = "iccs") -> None:
        self.fairy = notation == "fairy"
        self.text = "startpos" if start_fen == STARTING_FEN else f"fen {start_fen}"
        self._moves = 0

    def push(self, move: Move) -> PositionText:
        """The text with ``move`` played (in place; returns itself)."""
        # One append a move (a copy in C): formatting the whole list again before every go
        # made a move's cost grow with the game (2,000 plies: ~3 ms a move).
        self.text += (" " if self._moves else " moves ") + (
            move.fairy() if self.fairy else move.iccs()
        )
        self._moves += 1
        return self

    def extend(self, moves: Iterable[Move]) -> PositionText:
        """The text with ``moves`` played, in order (in place; returns itself)."""
        for move in moves:
            self.push(move)
        return self


class Engine:
    """A running engine.  Use as a context manager, or call :meth:`quit`.

    ``start_timeout`` bounds the handshake (``uci``/``uciok`` or ``ucci``/``ucciok``, options,
    ``isready``/``readyok``): an engine that does not finish it in time is killed, and
    :class:`EngineError` tells why, with the end of the engine's stderr.  ``log_dir``: write
    this instance's traffic and stderr to a file there (see :class:`EngineLog`).
    """

    def __init__(
        self, spec: EngineSpec, start_timeout: float = 10.0, log_dir: Path | None = None
    ) -> None:
        self.spec = spec
        self.id_name = spec.name
        self.time_unit = spec.time_unit
        #: The notation of the moves both ways; ``auto`` is settled by the handshake.
        self.notation = "iccs" if spec.notation == "auto" else spec.notation
        #: How the notation was settled when the spec said ``auto`` ("" otherwise).
        self.notation_source = ""
        try:
            self._output = EngineOutput.create()
        except (ValueError, OSError) as error:  # a bad XQADJ_ENGINE_OUTPUT: before any file
            raise EngineError("crash", str(error)) from None
        self.log = EngineLog(log_dir, spec.name) if log_dir is not None else None
        self.recent_info: collections.deque[str] = collections.deque(maxlen=KEPT_INFO_LINES)
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=KEPT_STDERR_LINES)
        #: Lines dropped because the queue was full, and stray ``bestmove`` lines ignored.
        self.dropped_lines = 0
        self.ignored_bestmoves = 0
        #: The last search: milliseconds from ``go`` to ``bestmove``, and its ``info`` lines.
        self.last_search_ms = 0
        self.last_info: list[str] = []
        #: Whether the last :meth:`best_move` got as far as sending ``go`` (a time-out after
        #: it is the search's; before it, the engine's answer to ``isready``).
        self.searching = False
        #: Lines read and not handled yet.
        self._pending: collections.deque[tuple[Line, str]] = collections.deque()
        #: The line :meth:`read_until` returned last: when it was read (``time.monotonic()``)
        #: and the kernel's stamp of the engine's write (``time.time_ns()``; None on a pipe).
        self.last_line_at = 0.0
        self.last_line_sent_ns: int | None = None
        self._last_read: Line | None = None
        #: The end of the output was read (or the process exited and all it wrote was read).
        self._eof = False
        self._killed = False
        try:
            self._process = subprocess.Popen(
                spec.command,
                stdin=subprocess.PIPE,
                stdout=self._output.child_fd,
                stderr=subprocess.PIPE,
                cwd=spec.directory,
                # Its own session and process group: killpg() reaches a wrapper script's
                # children, and the terminal's Ctrl-C reaches xqadj only.
                start_new_session=True,
            )
        except OSError as error:
            self._output.close()
            if self.log is not None:
                self.log.write("#", f"cannot start {shlex.join(spec.command)}: {error}")
                self.log.close()
            raise EngineError(
                "crash", f"cannot start {shlex.join(spec.command)}: {error}"
            ) from None
        assert self._process.stderr is not None
        self._output.started(self._process.pid, lambda: self._exit_status() is not None)
        self._stderr_reader = threading.Thread(
            target=self._read_stderr, args=(self._process.stderr,), daemon=True
        )
        self._stderr_reader.start()
        try:
            self._handshake(start_timeout)
        except EngineError as error:
            self.kill()
            message = str(error)
            if "; its stderr: " not in message:  # an exit during the handshake quotes it already
                message += self.stderr_note()
            raise EngineError(error.kind, message) from None
        except BaseException:  # Ctrl-C during the handshake: leave no engine behind
            self.kill()
            raise
        # After the handshake, so that the log opens with the first line sent.
        if self.log is not None:
            limit = (
                ""
                if self._output.kind == "pipe"
                else f", writes up to {self._output.max_write} bytes"
            )
            self.log.write("#", f"output: {self._output.kind}{limit}")

    # -- process plumbing -----------------------------------------------------------------

    def _fill(self, timeout: float) -> None:
        """Read what the engine wrote next, waiting up to ``timeout`` seconds: ``info`` lines
        to :attr:`recent_info`, the others to the queue."""
        lines = self._output.read(timeout)
        if lines is None:
            self._eof = True
            self._end_group()
            return
        if self._output.truncated:
            self.dropped_lines += self._output.truncated
            if self.log is not None:
                self.log.write(
                    "#", f"a write longer than {self._output.max_write} bytes was cut short"
                )
            self._output.truncated = 0
        for read in lines:
            line = read.raw.decode("utf-8", "replace").rstrip("\r")
            if self.log is not None:
                self.log.write("<", line)
            if line.startswith("info"):
                self.recent_info.append(line)
                continue
            if line.startswith("readyok"):
                # The info before it is an earlier search's (a stray bestmove's): forgotten
                # here, as it is read, since this search's may come in the same read.
                self.recent_info.clear()
            if len(self._pending) >= MAX_PENDING_LINES:
                self._pending.popleft()
                self.dropped_lines += 1
            self._pending.append((read, line))

    def _end_group(self) -> None:
        """The engine's process has exited (or closed its output): kill the rest of its group,
        while its pid, not reaped, is still its group's id (a child of a wrapper script that
        holds the engine's stdout would otherwise outlive it)."""
        if self._process.returncode is None and self._exit_status() is not None:
            try:
                os.killpg(self._process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

    @property
    def log_error(self) -> str:
        """The ``--log`` file's write error (``"FILE: reason"``), or ""."""
        return self.log.error if self.log is not None else ""

    def _read_stderr(self, stream: IO[bytes]) -> None:
        try:
            while True:
                raw = stream.readline(MAX_LINE_BYTES)
                if not raw:
                    break
                line = raw.decode("utf-8", "replace").rstrip("\r\n")
                self.stderr_tail.append(line)
                if self.log is not None:
                    self.log.write("!", line)
        except (OSError, ValueError):
            pass
        finally:
            stream.close()

    def stderr_note(self) -> str:
        """``"; its stderr: …"`` with the last stderr lines, or ``""`` when it wrote none."""
        # The engine may have just exited: give the reader a moment to take its last words.
        if not self.alive:
            self._stderr_reader.join(0.5)
        lines = [line for line in self.stderr_tail if line.strip()]
        if not lines:
            return ""
        return "; its stderr: " + " | ".join(lines[-5:])

    def send(self, line: str, *more: str) -> None:
        """Send one command line, or several in one write."""
        stdin = self._process.stdin
        assert stdin is not None
        if self.log is not None:
            for each in (line, *more):
                self.log.write(">", each)
        try:
            # Through the file object, whose lock keeps kill() in another thread from closing
            # the file (and its number going to another file) in the middle of the write.
            stdin.write(("\n".join((line, *more)) + "\n").encode("utf-8"))
            stdin.flush()
        except (OSError, ValueError):
            raise self._exited(f"while sending {line.split()[0]!r}") from None

    def _exited(self, doing: str) -> EngineError:
        if self._killed:
            return EngineError("stopped", f"{self.spec.name} was stopped {doing}")
        status = self._exit_status(1.0)
        return EngineError(
            "crash",
            f"{self.spec.name} exited (exit status {status}) {doing}{self.stderr_note()}",
        )

    def read_until(self, *prefixes: str, timeout: float) -> tuple[str, list[str]]:
        """Read lines until one whose first word is one of ``prefixes``; returns it and the
        (non-``info``) lines before it."""
        deadline = time.monotonic() + timeout
        seen: list[str] = []
        pending = self._pending
        # Past the deadline, what is there already is still read (the answer may have been
        # written in time, and waited while this thread was late), within a bound: a flooding
        # engine is never done.
        late_reads = MAX_PENDING_LINES
        while True:
            while not pending:
                if self._eof:  # end of output, or the process exited: whoever holds the file
                    raise self._exited(f"while waiting for {prefixes[0]!r}")
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    late_reads -= 1
                    if late_reads < 0 or not self._output.waiting():
                        wanted = " or ".join(repr(p) for p in prefixes)
                        raise EngineError(
                            "timeout", f"{self.spec.name} sent no {wanted} within {timeout:.1f} s"
                        )
                self._fill(max(0.0, remaining))
            read, line = pending.popleft()
            first = line.split(None, 1)[:1]
            if first and first[0] in prefixes:
                self._last_read = read
                self.last_line_at = read.read_ns / 1e9
                self.last_line_sent_ns = read.sent_ns
                return line, seen
            seen.append(line)

    def _drain(self) -> None:
        """Forget the lines not read yet (a stray ``bestmove`` among them is counted)."""
        for _, line in self._pending:
            if line.split()[:1] in (["bestmove"], ["nobestmove"]):
                self._note_stray(line)
        self._pending.clear()

    def _note_stray(self, line: str) -> None:
        self.ignored_bestmoves += 1
        if self.log is not None:
            self.log.write("#", f"ignored, no search was asked for: {line}")

    # -- protocol -------------------------------------------------------------------------

    def _handshake(self, timeout: float) -> None:
        ucci = self.spec.protocol == "ucci"
        self.send("ucci" if ucci else "uci")
        _, lines = self.read_until("ucciok" if ucci else "uciok", timeout=timeout)
        option_names = set()
        announced = ""
        for line in lines:
            tokens = line.split()
            if tokens[:2] == ["id", "name"]:
                self.id_name = announced = " ".join(tokens[2:])
            if tokens[:1] == ["option"] and len(tokens) > 1:
                name_tokens = tokens[2:] if tokens[1:2] == ["name"] else tokens[1:2]
                if "type" in name_tokens:
                    name_tokens = name_tokens[: name_tokens.index("type")]
                option_names.add(" ".join(name_tokens).lower())
        if self.spec.notation == "auto" and not ucci:
            # As xqadj proxy does: Fairy-Stockfish's UCI writes ranks 1-10, the others 0-9.
            if announced.lower().startswith(FAIRY_ENGINE_NAMES):
                self.notation = "fairy"
                self.notation_source = f"the engine's name {announced[:40]!r}"
            if self.log is not None:
                self.log.write("#", f"notation {self.notation} (notation=auto)")
        options = dict(self.spec.options)
        # A multi-variant UCI engine (Fairy-Stockfish) plays chess unless told otherwise.
        if not ucci and "uci_variant" in option_names:
            options.setdefault("UCI_Variant", "xiangqi")
        # UCCI 2.3+: an engine that offers usemillisec reads `go time` in milliseconds once
        # the option is on; otherwise its unit is the one given by the engine setting.
        if ucci and "usemillisec" in option_names:
            options.setdefault("usemillisec", "true")
            self.time_unit = "ms"
        for name, value in options.items():
            self.send(
                f"setoption {name} {value}" if ucci else f"setoption name {name} value {value}"
            )
        self.sync(timeout)

    def sync(self, timeout: float = 10.0) -> None:
        """``isready`` / ``readyok``; stray ``bestmove`` lines before ``readyok`` are dropped."""
        self.send("isready")
        _, lines = self.read_until("readyok", timeout=timeout)
        for line in lines:
            if line.split()[:1] in (["bestmove"], ["nobestmove"]):
                self._note_stray(line)

    def new_game(self, timeout: float = 10.0) -> None:
        if self.spec.protocol == "uci":
            self.send("ucinewgame")
        self.sync(timeout)

    @property
    def detects_notation(self) -> bool:
        """Whether the notation is still xqadj's guess (UCI with ``notation=auto``, not
        settled by the engine's name), so that moves may settle it."""
        auto = self.spec.notation == "auto" and self.spec.protocol == "uci"
        return auto and not self.notation_source

    def format_move(self, move: Move) -> str:
        return move.fairy() if self.notation == "fairy" else move.iccs()

    def parse_move(self, text: str) -> Move:
        """The engine's move text as a Move; raises :class:`XqadjError` if malformed."""
        return Move.from_fairy(text) if self.notation == "fairy" else Move.from_iccs(text)

    def best_move(
        self,
        start_fen: str,
        moves: list[Move],
        limit: SearchLimit,
        banned: list[Move] | None = None,
        sync_timeout: float = 10.0,
        go: str | None = None,
        deadline: float | None = None,
        position: str | None = None,
    ) -> str | None:
        """Search the position and return the engine's ``bestmove`` text (None for no move:
        ``bestmove (none)``/``0000``/``resign``, or UCCI's ``nobestmove``).

        ``isready`` goes before the position and the ``go``, in the same write, and the
        answer is the first ``bestmove`` after ``readyok``: a second ``bestmove`` the engine
        sent for the previous ``go`` is dropped, not taken as this answer, and an engine that
        does not answer ``isready`` within ``sync_timeout`` hangs before the search.  The
        search's time runs from just before the ``go`` is written to the engine's write of its
        ``bestmove`` (see :mod:`.engineio`).
        ``go`` and ``deadline`` (seconds) replace the command and the wait that ``limit``
        gives (a clock's ``go wtime …``, and its time left); :attr:`last_search_ms` and
        :attr:`last_info` then tell how long the search took and what it said.
        ``position``: the ``position`` command's argument for ``start_fen`` and ``moves``, in
        this engine's notation, when the caller keeps it as the game grows
        (:class:`PositionText`): formatting every move again before each ``go`` made a
        move's cost grow with the game's length.
        """
        self.searching = False
        self._drain()
        if position is None:
            position = PositionText(start_fen, self.spec.notation).extend(moves).text
        commands = ["isready", f"position {position}"]
        protocol = self.spec.protocol
        if banned and protocol == "ucci":
            commands.append("banmoves " + " ".join(self.format_move(m) for m in banned))
        commands.append(go if go is not None else limit.go(protocol, self.time_unit))
        # One write and one round trip: the engine answers isready before it reads the
        # position, so a bestmove before readyok is a stray one (of an earlier go) and the
        # first one after it answers this go.  Waiting for readyok before sending the rest
        # doubled the round trips of a move (issue 18: the match's own cost a move).
        started_ns = time.monotonic_ns()
        started_clock_ns = time.time_ns()  # the kernel stamps the engine's writes on this clock
        self.send(*commands)
        _, before = self.read_until("readyok", timeout=sync_timeout)
        for stray in before:
            if stray.split()[:1] in (["bestmove"], ["nobestmove"]):
                self._note_stray(stray)
        self.searching = True
        wait = deadline if deadline is not None else limit.deadline(protocol, self.time_unit)
        # The clock runs from the go's write (the wait for readyok is part of it) to the
        # engine's write of its bestmove (the kernel's stamp), not to when this thread reads
        # it: under load the difference lost games.
        wait = max(0.0, wait - (time.monotonic_ns() - started_ns) / 1e9)
        answered = False
        try:
            line, _ = self.read_until("bestmove", "nobestmove", timeout=wait)
            answered = True
        finally:
            self.last_search_ms = self._search_ms(started_ns, started_clock_ns, answered)
            self.last_info = list(self.recent_info)
        tokens = line.split()
        if tokens[0] == "nobestmove":
            return None
        if len(tokens) < 2 or tokens[1] in ("(none)", "0000", "none", "resign"):
            return None
        return tokens[1]

    def _search_ms(self, started_ns: int, started_clock_ns: int, answered: bool) -> int:
        """Milliseconds from the ``go`` (stamped before its write, on both clocks) to the
        answer: the kernel's stamp of its write where there is one, else when it was read (or
        now, without an answer)."""
        if not answered:
            return max(0, (time.monotonic_ns() - started_ns) // 1_000_000)
        answer = self._last_read
        assert answer is not None
        taken = answer.read_ns - started_ns
        sent_ns = answer.sent_ns
        if sent_ns is not None:
            stamped = sent_ns - started_clock_ns
            # The wall clock stepped (NTP, a manual set) between the go and the answer: the
            # stamp is not between the two moments it must be between; the read time is.
            if 0 <= stamped <= taken + CLOCK_STEP_NS:
                taken = min(stamped, taken)
        return max(0, taken // 1_000_000)

    # -- ending ---------------------------------------------------------------------------

    def _exit_status(self, timeout: float = 0.0) -> int | None:
        """The engine's exit status (minus the signal that killed it), None while it runs;
        waits up to ``timeout`` seconds.  The engine is not reaped: while it is a zombie its
        pid, which is its process group's id, cannot be taken by a new process, so that
        :meth:`kill` never signals a stranger's group."""
        if self._process.returncode is not None:  # reaped by kill()
            return self._process.returncode
        if not hasattr(os, "waitid"):  # pragma: no cover - not POSIX
            try:
                return self._process.wait(timeout)
            except subprocess.TimeoutExpired:
                return None
        deadline = time.monotonic() + timeout
        while True:
            try:
                info = os.waitid(os.P_PID, self._process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:  # reaped elsewhere
                return self._process.poll()
            if info is not None:
                return -info.si_status if info.si_code != os.CLD_EXITED else info.si_status
            if time.monotonic() >= deadline:
                return None
            time.sleep(0.01)

    def quit(self, timeout: float = 2.0) -> None:
        """Ask the engine to quit; kill its process group if it does not within ``timeout``
        seconds, and in any case kill what is left of the group (a wrapper's children)."""
        if self._exit_status() is None:
            try:
                self.send("quit")
            except EngineError:
                pass
            self._exit_status(timeout)
        self.kill()

    def kill(self) -> None:
        """Kill the engine's whole process group at once and reap the engine.  Never waits for
        the engine's output pipes (a grandchild may hold them)."""
        if self._process.returncode is None:  # not reaped yet: its group id is still its own
            self._killed = self._killed or self._exit_status() is None
            try:
                if hasattr(os, "killpg"):
                    os.killpg(self._process.pid, signal.SIGKILL)
                else:  # pragma: no cover - not POSIX
                    self._process.kill()
            except (ProcessLookupError, PermissionError):
                pass  # the group is gone already
            try:
                self._process.wait(5.0)
            except subprocess.TimeoutExpired:  # pragma: no cover - stuck in the kernel
                pass
        stdin = self._process.stdin
        if stdin is not None:
            try:
                stdin.close()
            except OSError:
                pass
        self._output.close()  # now, or when the read in progress in another thread ends
        if self.log is not None:
            self.log.write("#", f"ended (exit status {self._process.returncode})")
            self.log.close()

    @property
    def alive(self) -> bool:
        return self._exit_status() is None

    @property
    def output_kind(self) -> str:
        """How the engine's stdout is read: ``socket`` (each write stamped by the kernel) or
        ``pipe`` (each line stamped when read); see :mod:`.engineio`."""
        return self._output.kind

    @property
    def pid(self) -> int:
        return self._process.pid

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.quit()


__all__ = [
    "NOTATION_SETTINGS",
    "Engine",
    "EngineError",
    "EngineLog",
    "EngineSpec",
    "PositionText",
    "SearchLimit",
]
