"""``xqadj proxy -- <engine command>``: an adjudicating proxy between a GUI and an engine.

Layer: integrations.

To the GUI the proxy looks like the engine: every line passes through unchanged, both ways.
On the side it follows the game with an xqadj :class:`~xqadj.protocol.Session`: each
``position`` line the GUI sends (when the ``go`` that follows it shows whether its last move is
played or only pondered on) and each ``bestmove`` the engine plays.  When a move ends the game
by rule it tells the GUI with

    info string xqadj ruling result 0-1 reason perpetual-chase ply 8 offender red ...
    info string xqadj <the explanation>

which any GUI shows as it shows engine output.  A ruling caused by the engine's own move is
written just before its ``bestmove`` line, so a GUI that stops reading at ``bestmove`` has it.
Towards a UCCI engine it sends ``banmoves`` with the moves that would lose by rule before each
``go`` (merged with the GUI's own ``banmoves``), so the engine never walks into a forbidden
repetition.

Under UCI the engine's notation (ranks 0-9 or 1-10) is detected unless ``--notation`` says it:
from ``id name Fairy-Stockfish``, or from moves that are legal in one notation only.  Whatever
the proxy cannot follow is said on the GUI's channel (``info string xqadj cannot follow …``)
and on stderr.

The engine runs in its own process group.  When it exits the proxy tells the GUI at once (an
``info string``, a message on stderr, its output closed, a non-zero exit status); when the GUI
quits, closes its end or stops reading, or the proxy gets SIGTERM, SIGHUP or Ctrl-C, the whole
group is ended, so that no engine is left running, even behind a wrapper script.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import queue
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from types import FrameType

from xqadj.integrations.arguments import add_rules_arguments
from xqadj.protocol import MAX_LINE_BYTES, UTF8_BOM, Session

#: ``bestmove`` values that are not moves.
NO_MOVE = ("(none)", "0000", "none", "null", "resign")
#: Engines known to write UCI moves with ranks 1-10 (``id name`` starts with one of these).
FAIRY_ENGINE_NAMES = ("fairy-stockfish",)
#: Seconds an engine is given to quit before its process group is killed.
QUIT_GRACE = 2.0


class Proxy:
    """The logic between GUI and engine, with no I/O, so it can be tested line by line.

    ``notation`` is ``auto`` (detect it; ``iccs`` until known), ``iccs`` or ``fairy``.
    """

    def __init__(
        self,
        notation: str = "auto",
        rules: str = "axf",
        move_limit: int = 0,
        forbidden_run: bool = False,
    ) -> None:
        self.session = Session()
        self.notation_mode = notation
        self.uci_notation = "iccs" if notation == "auto" else notation
        self._configure(self.uci_notation, rules, move_limit, forbidden_run)
        self.protocol = "uci"
        self.gui_banned: list[str] = []
        #: The GUI's last ``position`` line, not followed yet: its ``go`` says how.
        self._pending: str | None = None
        #: The ``position`` line the session follows (the engine's bestmove extends it).
        self._followed: str | None = None
        #: What the engine is searching for: ``play`` (its bestmove is played), ``ponder``
        #: (``go ponder``: on the GUI's guess of the next move), ``analyse`` (``go infinite``),
        #: ``void`` (a ponder search that was stopped), or None.
        self._search: str | None = None
        #: The pondered line, with the guessed move, played at ``ponderhit``.
        self._ponder_line: str | None = None
        #: Lines for the GUI after the engine's ``uciok``/``ucciok``.
        self._after_handshake: list[str] = []

    def _configure(self, notation: str, rules: str, move_limit: int, forbidden_run: bool) -> None:
        for line in (
            f"setoption name Notation value {notation}",
            f"setoption name Rules value {rules}",
            f"setoption name MoveLimit value {move_limit}",
            f"setoption name ForbiddenRun value {str(forbidden_run).lower()}",
        ):
            output = self.session.handle(line)
            if output:
                raise ValueError(output[0])

    # -- the GUI's lines -------------------------------------------------------------------

    def from_gui(self, line: str) -> tuple[list[str], list[str]]:
        """A GUI line → (lines for the engine, lines for the GUI)."""
        tokens = line.split(None, 2)
        command = tokens[0] if tokens else ""
        to_gui: list[str] = []
        to_engine: list[str] = []
        if command == "ucci":
            self.protocol = "ucci"
            self._set_notation("iccs")  # UCCI: ranks 0-9, always
        elif command == "uci":
            self.protocol = "uci"
            self._set_notation(self.uci_notation)
        elif command == "ucinewgame":
            self.session.handle(line)
            self._pending = self._followed = self._ponder_line = None
            self.gui_banned = []
        elif command == "position":
            if self._pending is not None:  # a position without a search: follow it as it is
                to_gui += self._follow(self._pending)
            self._pending = line
            self.gui_banned = []
        elif command == "banmoves":
            self.gui_banned = line.split()[1:]
            return [], []  # merged into ours before `go`
        elif command == "go":
            followed, ours = self._go(line.split())
            to_gui += followed
            if self.protocol == "ucci":
                banned = list(dict.fromkeys(self.gui_banned + ours))
                if banned:
                    to_engine.append("banmoves " + " ".join(banned))
        elif command == "ponderhit":
            if self._search == "ponder" and self._ponder_line is not None:
                # The opponent played the move pondered on: it is a move of the game now.
                to_gui += self._follow(self._ponder_line)
                self._search = "play"
        elif command == "stop" and self._search == "ponder":
            self._search = "void"  # the guess was wrong: the answer is not played
        to_engine.append(line)
        return to_engine, to_gui

    def _go(self, tokens: list[str]) -> tuple[list[str], list[str]]:
        """Follow the pending ``position`` line as the ``go`` says; (lines for the GUI, the
        moves that lose by rule in the position searched)."""
        to_gui: list[str] = []
        pending, self._pending = self._pending, None
        banned: list[str] | None = None
        if "ponder" in tokens:
            self._search = "ponder"
            if pending is not None:
                # The line ends with the GUI's guess of the opponent's move: not played yet.
                self._ponder_line = pending
                before, _, last = pending.rstrip().rpartition(" ")
                guessed = " moves " in pending and last != "moves"
                to_gui += self._follow(before if guessed else pending)
                if guessed and not _refused(self.session.handle(pending)):
                    # The engine searches the position after the guess: its banned moves are
                    # asked there, then the guess is taken back (a ruling it makes is not shown).
                    banned = self.session.handle("banmoves")[0].split()[1:]
                    self.session.handle(before)
        else:
            self._search = "analyse" if "infinite" in tokens else "play"
            if pending is not None:
                to_gui += self._follow(pending)
        if banned is None:
            banned = self.session.handle("banmoves")[0].split()[1:]
        return to_gui, banned

    # -- the engine's lines ----------------------------------------------------------------

    def from_engine(self, line: str) -> list[str]:
        """An engine line → lines for the GUI (the line itself, with any of the proxy's)."""
        tokens = line.split(None, 3)
        command = tokens[0] if tokens else ""
        if command == "id" and tokens[1:2] == ["name"] and self.protocol == "uci":
            self._detect_from_name(line.split(None, 2)[2] if len(tokens) > 2 else "")
        elif command in ("uciok", "ucciok"):
            after, self._after_handshake = self._after_handshake, []
            return [line, *after]
        elif command == "bestmove":
            search, self._search = self._search, None
            if search == "play" and len(tokens) > 1 and tokens[1] not in NO_MOVE:
                return [*self._play(tokens[1]), line]
        elif command == "nobestmove":
            self._search = None
        return [line]

    def _play(self, move: str) -> list[str]:
        """Follow the engine's own move: the GUI plays it (if not, its next line says so)."""
        followed = self._followed
        if followed is None:
            return []
        separator = " " if " moves" in followed else " moves "
        return self._follow(followed + separator + move)

    # -- following the game ----------------------------------------------------------------

    def _set_notation(self, notation: str) -> None:
        self.session.handle(f"setoption name Notation value {notation}")

    def _detect_from_name(self, name: str) -> None:
        if self.notation_mode != "auto" or self.uci_notation == "fairy":
            return
        if name.lower().startswith(FAIRY_ENGINE_NAMES):
            self.uci_notation = "fairy"
            self._set_notation("fairy")
            self._after_handshake.append(
                f"info string xqadj notation fairy (ranks 1-10), detected from the engine's "
                f"name {name[:40]!r}; use xqadj proxy --notation iccs|fairy to set it"
            )

    def _follow(self, line: str) -> list[str]:
        """Follow one ``position`` line; the lines the GUI is shown."""
        to_gui: list[str] = []
        output = self.session.handle(line)
        if _refused(output) and self.protocol == "uci" and self.notation_mode == "auto":
            # Moves that are not legal in one notation may be in the other (ranks 0-9 or 1-10).
            other = "fairy" if self.uci_notation == "iccs" else "iccs"
            self._set_notation(other)
            retry = self.session.handle(line)
            if _refused(retry):
                self._set_notation(self.uci_notation)
            else:
                self.uci_notation = other
                output = retry
                ranks = "1-10" if other == "fairy" else "0-9"
                to_gui.append(
                    f"info string xqadj notation {other} (ranks {ranks}), detected from the "
                    "moves; use xqadj proxy --notation iccs|fairy to set it"
                )
        for out in output:
            if out.startswith("ruling "):
                to_gui.append(f"info string xqadj {out}")
                ruling = self.session.game.ruling
                if ruling is not None:
                    # One notation for the GUI: the explanation's moves and squares as the
                    # ruling line writes them, in the engine's notation.
                    explanation = ruling.explain(self.session.options.notation)
                    to_gui.append(f"info string xqadj {' '.join(explanation.split())}")
            elif out.startswith("error "):
                print(f"xqadj proxy: {out} (for: {line.strip()[:200]})", file=sys.stderr)
                hint = (
                    f" (is the engine's notation {self.uci_notation}? see xqadj proxy --notation)"
                    if self.protocol == "uci"
                    else ""
                )
                to_gui.append(f"info string xqadj cannot follow the game: {out}{hint}")
        if not _refused(output):
            self._followed = line
        return to_gui


def _refused(output: list[str]) -> bool:
    return bool(output) and output[0].startswith("error ")


# -- processes ------------------------------------------------------------------------------


class _Stopped(Exception):
    """SIGTERM or SIGHUP reached the proxy."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _raise_stopped(signum: int, frame: FrameType | None) -> None:
    raise _Stopped(signum)


def _lines(fd: int) -> Iterator[tuple[bytes, bool]]:
    """The lines read from a file descriptor, without their LF, each with ``True``; a line
    longer than the protocol's limit comes in pieces, so memory stays bounded: each piece but
    the last with ``False``.  Raw reads, no buffer lock, so a reader thread left blocked at exit
    does no harm."""
    pending = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            chunk = b""
        if not chunk:
            if pending:
                yield pending, True
            return
        pending += chunk
        while True:
            end = pending.find(b"\n")
            if end < 0:
                break
            yield pending[:end], True
            pending = pending[end + 1 :]
        while len(pending) > MAX_LINE_BYTES:
            yield pending[:MAX_LINE_BYTES], False
            pending = pending[MAX_LINE_BYTES:]


#: The kind of event for a piece of a line longer than the protocol's limit, not its last.
PART = "-part"


def _reader(fd: int, kind: str, events: queue.Queue[tuple[str, bytes | None]]) -> None:
    for line, whole in _lines(fd):
        events.put((kind if whole else kind + PART, line))
    events.put((kind, None))


def _waiter(engine: subprocess.Popen[bytes], events: queue.Queue[tuple[str, bytes | None]]) -> None:
    """Wait for the engine to exit (without reaping it, so that its process group id stays
    ours), then end the rest of its group: a wrapper's child holding the pipe open would
    otherwise hide the exit."""
    with contextlib.suppress(ChildProcessError, OSError):
        os.waitid(os.P_PID, engine.pid, os.WEXITED | os.WNOWAIT)
        _kill_group(engine, signal.SIGKILL)
    events.put(("exit", None))


def _kill_group(engine: subprocess.Popen[bytes], signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(engine.pid, signum)


def _end_engine(engine: subprocess.Popen[bytes], grace: float) -> int | None:
    """Give the engine ``grace`` seconds to exit, then kill its whole group; its status."""
    try:
        status: int | None = engine.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        status = None
    _kill_group(engine, signal.SIGKILL)  # the engine if it is still there, and its children
    if status is None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            engine.wait(timeout=5)
    return status


class _Gui:
    """The GUI's end of the proxy's stdout, written without a buffer; once the GUI stops
    reading (EPIPE), stdout is pointed at /dev/null so that nothing complains at exit.

    ``until`` (a :func:`time.monotonic` time) bounds how long a write waits for a GUI that
    reads slowly, once the descriptor is non-blocking (after ``quit``); past it the GUI is
    taken as gone.  The engine's piece of a line over the protocol's limit is passed on as it
    comes (``piece``), and the line it belongs to is ended by the next line written."""

    def __init__(self) -> None:
        self.fd = sys.stdout.fileno()
        self.gone = False
        self.until: float | None = None
        self.in_line = False  # a piece of a long engine line was written, not its end

    def write(self, lines: list[str]) -> None:
        if lines:
            self._write(("\n".join(lines) + "\n").encode("utf-8"))

    def piece(self, data: bytes) -> None:
        self.in_line = True
        self._write(data)

    def _write(self, data: bytes) -> None:
        if self.gone:
            return
        try:
            while data:
                try:
                    data = data[os.write(self.fd, data) :]
                except BlockingIOError:  # a GUI that reads slowly, after its quit
                    left = 0.0 if self.until is None else self.until - time.monotonic()
                    if left <= 0:
                        self.close()
                        return
                    select.select([], [self.fd], [], left)
        except BrokenPipeError:
            self.close()

    def close(self) -> None:
        self.gone = True
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, self.fd)  # closes the pipe to the GUI: it sees the end of our output
        os.close(devnull)


def _exit_status(status: int | None) -> int:
    """The proxy's status when the engine ended by itself: never 0."""
    if status is None or status == 0:
        return 1
    return 128 - status if status < 0 else status


def _describe(status: int | None) -> str:
    if status is None:
        return "closed its output"
    if status < 0:
        try:
            return f"was killed by {signal.Signals(-status).name}"
        except ValueError:
            return f"was killed by signal {-status}"
    return f"exited with status {status}"


def run(command: list[str], proxy: Proxy) -> int:
    """Run ``command`` behind the proxy on this process's stdin/stdout; returns the exit
    status: 0 when the GUI ends the session (``quit``, end of input, it stops reading), the
    engine's (never 0) when the engine ends by itself, 128 + the signal for SIGTERM, SIGHUP and
    Ctrl-C (130)."""
    sys.stdout.flush()
    try:
        # Its own process group: the proxy can end the engine and anything it started.
        engine = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, process_group=0
        )
    except OSError as error:
        print(f"xqadj proxy: cannot start {' '.join(command)}: {error}", file=sys.stderr)
        return 2
    assert engine.stdin is not None and engine.stdout is not None
    events: queue.Queue[tuple[str, bytes | None]] = queue.Queue(maxsize=4096)
    for target, args in (
        (_reader, (sys.stdin.fileno(), "gui", events)),
        (_reader, (engine.stdout.fileno(), "engine", events)),
        (_waiter, (engine, events)),
    ):
        threading.Thread(target=target, args=args, daemon=True).start()
    previous = {
        signum: signal.signal(signum, _raise_stopped) for signum in (signal.SIGTERM, signal.SIGHUP)
    }
    gui = _Gui()
    try:
        return _serve(engine, proxy, events, gui)
    except KeyboardInterrupt:
        _end_engine(engine, 0)
        return 128 + signal.SIGINT
    except _Stopped as stopped:
        _end_engine(engine, 0)
        return 128 + stopped.signum
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        _kill_group(engine, signal.SIGKILL)
        with contextlib.suppress(OSError):
            engine.stdin.close()


def _serve(
    engine: subprocess.Popen[bytes],
    proxy: Proxy,
    events: queue.Queue[tuple[str, bytes | None]],
    gui: _Gui,
) -> int:
    first = True
    exited = False  # the engine's exit was seen; its last lines may still be on the way
    while True:
        try:
            kind, data = events.get(timeout=0.5)
        except queue.Empty:
            if exited:  # no more output after its exit: something outside its group holds it
                return _engine_ended(engine, gui)
            continue
        if kind.startswith("gui"):  # (a piece of a GUI line over the limit is read as a line)
            if data is None:  # the GUI closed its end: let the engine go too
                _send(engine, ["quit"])
                _let_engine_quit(engine, proxy, events, gui)
                return 0
            if first and data.startswith(UTF8_BOM):
                data = data[len(UTF8_BOM) :]
            first = False
            line = data.decode("utf-8", errors="replace").rstrip("\r")
            to_engine, to_gui = proxy.from_gui(line)
            gui.write(to_gui)
            _send(engine, to_engine)
            if line.split(None, 1)[:1] == ["quit"]:
                _let_engine_quit(engine, proxy, events, gui)
                return 0
        elif kind.startswith("engine") and data is not None:
            _from_engine(kind, data, proxy, gui)
        elif kind == "engine":  # its output ended: it exits (or is made to)
            return _engine_ended(engine, gui)
        else:
            exited = True
        if gui.gone:  # the GUI stopped reading: the session is over
            _end_engine(engine, 0)
            return 0


def _let_engine_quit(
    engine: subprocess.Popen[bytes],
    proxy: Proxy,
    events: queue.Queue[tuple[str, bytes | None]],
    gui: _Gui,
) -> None:
    """The GUI ended the session: for up to ``QUIT_GRACE`` seconds, pass on (and follow) what
    the engine still writes, as it would reach the GUI without the proxy (a piped
    ``go … quit`` has its answer, its ``bestmove`` its ruling), then end its group.

    A GUI that reads slowly gets all of it, beyond one pipe buffer: the writes wait for it,
    up to ``QUIT_GRACE`` seconds more; a GUI that quit and waits for us without reading is then
    taken as gone, so that it never holds the proxy."""
    deadline = time.monotonic() + QUIT_GRACE
    blocking = os.get_blocking(gui.fd)
    os.set_blocking(gui.fd, False)
    gui.until = deadline + QUIT_GRACE
    try:
        while not gui.gone and (left := deadline - time.monotonic()) > 0:
            try:
                kind, data = events.get(timeout=left)
            except queue.Empty:
                break
            if kind == "engine" and data is None:  # its output ended
                break
            if kind.startswith("engine") and data is not None:
                _from_engine(kind, data, proxy, gui)
            # The GUI's lines after its quit are not passed on.
    finally:
        gui.until = None
        with contextlib.suppress(OSError):
            os.set_blocking(gui.fd, blocking)
    _end_engine(engine, max(0.0, deadline - time.monotonic()))


def _from_engine(kind: str, data: bytes, proxy: Proxy, gui: _Gui) -> None:
    """Pass on, and follow, one line of the engine's output.  A line over the protocol's limit
    reaches the GUI as one line, written piece by piece as it comes; it is not followed (no
    command the proxy acts on is that long)."""
    if kind.endswith(PART):
        gui.piece(data)
    elif gui.in_line:  # the last piece of a long line
        gui.in_line = False
        gui.piece(data + b"\n")
        gui.in_line = False
    else:
        gui.write(proxy.from_engine(data.decode("utf-8", errors="replace").rstrip("\r")))


def _engine_ended(engine: subprocess.Popen[bytes], gui: _Gui) -> int:
    """The engine ended by itself: tell the GUI at once, and end."""
    status = _end_engine(engine, QUIT_GRACE)
    message = f"xqadj proxy: the engine {_describe(status)}"
    gui.write([f"info string {message}"])
    print(message, file=sys.stderr, flush=True)
    gui.close()
    return _exit_status(status)


def _send(engine: subprocess.Popen[bytes], lines: list[str]) -> None:
    assert engine.stdin is not None
    if not lines:
        return
    try:
        engine.stdin.write("".join(line + "\n" for line in lines).encode("utf-8"))
        engine.stdin.flush()
    except (BrokenPipeError, OSError, ValueError):
        pass  # the engine is gone: its exit is reported when its output ends


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--notation",
        choices=["auto", "iccs", "fairy"],
        default="auto",
        help="the engine's move notation under UCI: iccs (ranks 0-9) or fairy (ranks 1-10, "
        "Fairy-Stockfish); auto (default) detects it from the engine's name and the moves. "
        "UCCI always uses iccs",
    )
    add_rules_arguments(parser)
    parser.add_argument(
        "--move-limit", type=int, default=0, help="natural move limit in moves, 0 = off (default)"
    )
    parser.add_argument(
        "engine_command", nargs=argparse.REMAINDER, help="-- then the engine's command line"
    )


def main(args: argparse.Namespace) -> int:
    command = list(args.engine_command)
    if command[:1] == ["--"]:
        command = command[1:]
    if not command:
        print("xqadj proxy: give the engine command after --", file=sys.stderr)
        return 2
    try:
        proxy = Proxy(args.notation, args.rules, args.move_limit, args.forbidden_run)
    except ValueError as error:
        print(f"xqadj proxy: {error}", file=sys.stderr)
        return 2
    return run(command, proxy)
