"""Driving a xiangqi engine process over UCI or UCCI, with time-outs.

:class:`Engine` starts a command, speaks its protocol and converts moves between the engine's
notation (``iccs``: ranks 0–9, ``fairy``: ranks 1–10) and :class:`~xqadj.board.Move`.  Every
read has a time-out, so a hung engine is detected instead of hanging the caller; a crashed one
raises :class:`EngineError`.
"""

from __future__ import annotations

import os
import queue
import shlex
import subprocess
import threading
import time
from dataclasses import dataclass, field

from xqadj.board import STARTING_FEN, Move

PROTOCOLS = ("uci", "ucci")
NOTATIONS = ("iccs", "fairy")


class EngineError(Exception):
    """The engine crashed, hung or broke its protocol; ``kind`` is ``crash``, ``timeout`` or
    ``protocol``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass
class EngineSpec:
    """How to start and talk to an engine.

    ``EngineSpec.parse("cmd=fairy-stockfish proto=ucci name=FS")`` reads the ``key=value`` form
    used by ``xqadj match --engine``: ``cmd`` (required; split like a shell line), ``proto``
    (``uci`` default, or ``ucci``), ``notation`` (``iccs`` ranks 0–9, default; ``fairy`` ranks
    1–10 — UCCI engines always use ``iccs``), ``name``, and ``option.<Name>=<value>`` to set an
    engine option.
    """

    command: list[str]
    protocol: str = "uci"
    notation: str = "iccs"
    name: str = ""
    options: dict[str, str] = field(default_factory=dict)

    @classmethod
    def parse(cls, tokens: list[str] | str) -> EngineSpec:
        if isinstance(tokens, str):
            tokens = shlex.split(tokens)
        values: dict[str, str] = {}
        options: dict[str, str] = {}
        for token in tokens:
            key, sep, value = token.partition("=")
            if not sep:
                raise ValueError(f"engine setting {token!r} is not key=value")
            if key.startswith("option."):
                options[key[len("option.") :]] = value
            elif key in ("cmd", "proto", "notation", "name"):
                values[key] = value
            else:
                raise ValueError(
                    f"unknown engine setting {key!r}: expected cmd, proto, notation, name or "
                    "option.<Name>"
                )
        if not values.get("cmd"):
            raise ValueError("an engine needs cmd=<command line>")
        protocol = values.get("proto", "uci").lower()
        if protocol not in PROTOCOLS:
            raise ValueError(f"proto must be uci or ucci, got {protocol!r}")
        notation = values.get("notation", "iccs").lower()
        if notation not in NOTATIONS:
            raise ValueError(f"notation must be iccs or fairy, got {notation!r}")
        if protocol == "ucci" and notation != "iccs":
            raise ValueError("UCCI engines use iccs notation (ranks 0-9)")
        command = shlex.split(values["cmd"])
        name = values.get("name") or os.path.basename(command[0])
        return cls(command, protocol, notation, name, options)


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

    def go(self) -> str:
        if self.movetime is not None:
            return f"go movetime {self.movetime}"
        if self.depth is not None:
            return f"go depth {self.depth}"
        if self.nodes is not None:
            return f"go nodes {self.nodes}"
        return "go movetime 100"

    def deadline(self) -> float:
        """Seconds to wait for ``bestmove`` before the engine counts as hung."""
        if self.movetime is not None:
            return self.movetime / 1000 + self.grace
        if self.depth is not None or self.nodes is not None:
            return self.search_timeout
        return 0.1 + self.grace  # the default movetime of 100 ms


class Engine:
    """A running engine.  Use as a context manager, or call :meth:`quit`."""

    def __init__(self, spec: EngineSpec, start_timeout: float = 10.0) -> None:
        self.spec = spec
        self.id_name = spec.name
        self._lines: queue.Queue[str | None] = queue.Queue()
        try:
            self._process = subprocess.Popen(
                spec.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
            )
        except OSError as error:
            raise EngineError(
                "crash", f"cannot start {shlex.join(spec.command)}: {error}"
            ) from None
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._handshake(start_timeout)

    # -- process plumbing -----------------------------------------------------------------

    def _read(self) -> None:
        assert self._process.stdout is not None
        try:
            for line in self._process.stdout:
                self._lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError):  # the pipe was closed by quit() or kill()
            pass
        self._lines.put(None)  # end of output: the engine exited

    def send(self, line: str) -> None:
        """Send one command line."""
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write(line + "\n")
            stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise EngineError(
                "crash", f"{self.spec.name} exited (exit status {self._process.poll()})"
            ) from None

    def read_until(self, prefix: str, timeout: float) -> tuple[str, list[str]]:
        """Read lines until one starts with ``prefix``; returns it and the lines before it."""
        deadline = time.monotonic() + timeout
        seen: list[str] = []
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise EngineError(
                    "timeout", f"{self.spec.name} sent no {prefix!r} within {timeout:.1f} s"
                )
            try:
                line = self._lines.get(timeout=remaining)
            except queue.Empty:
                continue
            if line is None:
                self._lines.put(None)
                raise EngineError(
                    "crash",
                    f"{self.spec.name} exited (exit status "
                    f"{self._process.wait()}) while waiting for {prefix!r}",
                )
            if line.split()[:1] == [prefix] or line.startswith(prefix + " "):
                return line, seen
            seen.append(line)

    # -- protocol -------------------------------------------------------------------------

    def _handshake(self, timeout: float) -> None:
        ucci = self.spec.protocol == "ucci"
        self.send("ucci" if ucci else "uci")
        _, lines = self.read_until("ucciok" if ucci else "uciok", timeout)
        option_names = set()
        for line in lines:
            tokens = line.split()
            if tokens[:2] == ["id", "name"]:
                self.id_name = " ".join(tokens[2:])
            if tokens[:1] == ["option"]:
                name_tokens = tokens[2:] if tokens[1:2] == ["name"] else tokens[1:2]
                if "type" in name_tokens:
                    name_tokens = name_tokens[: name_tokens.index("type")]
                option_names.add(" ".join(name_tokens).lower())
        options = dict(self.spec.options)
        # A multi-variant UCI engine (Fairy-Stockfish) plays chess unless told otherwise.
        if not ucci and "uci_variant" in option_names:
            options.setdefault("UCI_Variant", "xiangqi")
        for name, value in options.items():
            self.send(
                f"setoption {name} {value}" if ucci else f"setoption name {name} value {value}"
            )
        self.sync(timeout)

    def sync(self, timeout: float = 10.0) -> None:
        self.send("isready")
        self.read_until("readyok", timeout)

    def new_game(self, timeout: float = 10.0) -> None:
        if self.spec.protocol == "uci":
            self.send("ucinewgame")
        self.sync(timeout)

    def format_move(self, move: Move) -> str:
        return move.fairy() if self.spec.notation == "fairy" else move.iccs()

    def parse_move(self, text: str) -> Move:
        """The engine's move text as a Move; raises :class:`XqadjError` if malformed."""
        return Move.from_fairy(text) if self.spec.notation == "fairy" else Move.from_iccs(text)

    def best_move(
        self,
        start_fen: str,
        moves: list[Move],
        limit: SearchLimit,
        banned: list[Move] | None = None,
    ) -> str | None:
        """Search the position and return the engine's ``bestmove`` text (None if it has none)."""
        position = "startpos" if start_fen == STARTING_FEN else f"fen {start_fen}"
        if moves:
            position += " moves " + " ".join(self.format_move(m) for m in moves)
        self.send(f"position {position}")
        if banned and self.spec.protocol == "ucci":
            self.send("banmoves " + " ".join(self.format_move(m) for m in banned))
        self.send(limit.go())
        line, _ = self.read_until("bestmove", limit.deadline())
        tokens = line.split()
        if len(tokens) < 2 or tokens[1] in ("(none)", "0000", "none", "resign"):
            return None
        return tokens[1]

    def quit(self, timeout: float = 2.0) -> None:
        """Ask the engine to quit, and kill it if it does not."""
        if self._process.poll() is None:
            try:
                self.send("quit")
            except EngineError:
                pass
            try:
                self._process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        self._close()

    def kill(self) -> None:
        if self._process.poll() is None:
            self._process.kill()
            self._process.wait()
        self._close()

    def _close(self) -> None:
        for stream in (self._process.stdin, self._process.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass

    @property
    def alive(self) -> bool:
        return self._process.poll() is None

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.quit()


__all__ = ["Engine", "EngineError", "EngineSpec", "SearchLimit"]
