"""``xqadj proxy -- <engine command>``: an adjudicating proxy between a GUI and an engine.

To the GUI the proxy looks like the engine: every line passes through unchanged, both ways.
On the side it follows each ``position`` line with an xqadj :class:`~xqadj.protocol.Session`,
and when a move ends the game by rule it tells the GUI with

    info string xqadj ruling result 0-1 reason perpetual-chase ply 8 offender red ...
    info string xqadj <the explanation>

which any GUI shows as it shows engine output.  Towards a UCCI engine it sends ``banmoves`` with
the moves that would lose by rule before each ``go`` (merged with the GUI's own ``banmoves``),
so the engine never walks into a forbidden repetition.  Problems of the proxy itself go to
stderr.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import threading
from typing import BinaryIO, TextIO

from xqadj.cli import add_rules_arguments
from xqadj.protocol import Session


class Proxy:
    """The GUI-side logic, separate from the processes so it can be tested line by line."""

    def __init__(
        self,
        notation: str = "iccs",
        rules: str = "axf",
        move_limit: int = 0,
        forbidden_run: bool = False,
    ) -> None:
        self.session = Session()
        self.uci_notation = notation
        self._configure(notation, rules, move_limit, forbidden_run)
        self.protocol = "uci"
        self.gui_banned: list[str] = []

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

    def from_gui(self, line: str) -> tuple[list[str], list[str]]:
        """A GUI line → (lines for the engine, lines for the GUI)."""
        tokens = line.split()
        command = tokens[0] if tokens else ""
        to_gui: list[str] = []
        to_engine: list[str] = []
        if command == "ucci":
            self.protocol = "ucci"
            self.session.handle("setoption name Notation value iccs")  # UCCI: ranks 0-9
        elif command == "uci":
            self.protocol = "uci"
            self.session.handle(f"setoption name Notation value {self.uci_notation}")
        elif command in ("position", "ucinewgame"):
            self.gui_banned = []
            for out in self.session.handle(line):
                if out.startswith("ruling "):
                    to_gui.append(f"info string xqadj {out}")
                    ruling = self.session.game.ruling
                    if ruling is not None:
                        to_gui.append(f"info string xqadj {' '.join(ruling.explain().split())}")
                elif out.startswith("error "):
                    print(f"xqadj proxy: {out} (for: {line.strip()[:200]})", file=sys.stderr)
        elif command == "banmoves":
            self.gui_banned = tokens[1:]
            return [], []  # merged into ours before `go`
        elif command == "go" and self.protocol == "ucci":
            ours = self.session.handle("banmoves")[0].split()[1:]
            banned = list(dict.fromkeys(self.gui_banned + ours))
            if banned:
                to_engine.append("banmoves " + " ".join(banned))
        to_engine.append(line)
        return to_engine, to_gui


def _pump_engine(engine_out: BinaryIO, gui: TextIO, lock: threading.Lock) -> None:
    for raw in iter(engine_out.readline, b""):
        text = raw.decode("utf-8", errors="replace").rstrip("\r\n")
        with lock:
            gui.write(text + "\n")
            gui.flush()


def run(command: list[str], proxy: Proxy) -> int:
    """Run ``command`` behind the proxy on this process's stdin/stdout; returns its exit status."""
    try:
        engine = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    except OSError as error:
        print(f"xqadj proxy: cannot start {' '.join(command)}: {error}", file=sys.stderr)
        return 2
    assert engine.stdin is not None and engine.stdout is not None
    lock = threading.Lock()
    pump = threading.Thread(
        target=_pump_engine, args=(engine.stdout, sys.stdout, lock), daemon=True
    )
    pump.start()
    stdin = sys.stdin.buffer
    try:
        for raw in iter(stdin.readline, b""):
            line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
            to_engine, to_gui = proxy.from_gui(line)
            if to_gui:
                with lock:
                    sys.stdout.write("\n".join(to_gui) + "\n")
                    sys.stdout.flush()
            try:
                for out in to_engine:
                    engine.stdin.write(out.encode("utf-8") + b"\n")
                engine.stdin.flush()
            except (BrokenPipeError, OSError):
                break
            if line.split()[:1] == ["quit"]:
                break
        else:
            try:  # end of input: let the engine go too
                engine.stdin.write(b"quit\n")
                engine.stdin.flush()
            except (BrokenPipeError, OSError):
                pass
    finally:
        try:
            engine.stdin.close()
        except OSError:
            pass
        try:
            status = engine.wait(timeout=5)
        except subprocess.TimeoutExpired:
            engine.kill()
            status = engine.wait()
        pump.join(timeout=2)
    return status


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--notation",
        choices=["iccs", "fairy"],
        default="iccs",
        help="the engine's move notation under UCI: iccs (ranks 0-9, default) "
        "or fairy (ranks 1-10, Fairy-Stockfish); UCCI always uses iccs",
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
