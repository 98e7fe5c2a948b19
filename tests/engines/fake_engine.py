"""The tests' one fake engine: UCI or UCCI, well-behaved or faulty as its flags say.

``python tests/engines/fake_engine.py [FLAGS]`` answers ``uci`` with ``uciok`` and ``ucci`` with
``ucciok`` (after ``id name``/``id author``), ``isready`` with ``readyok``, and each ``go`` with
``bestmove``.  Its move at ply N (the number of moves of the last ``position`` line) is, in
order: the ``--move-at`` move for N, the N-th ``--script`` (or ``--script-file``) move, else a
legal move of the position (its first, or a random one with ``--seed``; ``(none)`` if it has
none).  Script entries ``MOVE:PONDER`` answer ``bestmove MOVE ponder PONDER``.  The position is
only read into a board when a legal move is needed, so that a scripted engine costs a few
microseconds a move and starts without importing xqadj.  A bad move in a ``position`` line ends
its moves there, as Fairy-Stockfish does.

Flags (PLY is a ply number, or ``any`` for every ply):

* ``--name NAME``: its ``id name`` (default ``fake-engine``);
* ``--notation fairy``: read and write moves with ranks 1-10, as Fairy-Stockfish's UCI does
  (default ``iccs``, ranks 0-9);
* ``--script "M0 M1 …"``: the moves for plies 0, 1, …; ``--script-file FILE``: the same, read
  from FILE (white space between moves);
* ``--move-at PLY:MOVE[:PONDER]``: the move at one ply (repeatable), e.g. ``--move-at 7:f3f2``;
* ``--seed N``: a random legal move (seeded) instead of the first one;
* ``--score S``: write ``info depth 1 score cp S pv`` before each ``bestmove`` (none by
  default); ``--score-at PLY:S`` for one ply (repeatable); ``--bare-score``: UCCI's ``score S``
  without ``cp``; ``--no-score``: no score line even if one is given;
* ``--think MS``: wait MS milliseconds before each answer to ``go`` (``--think-at PLY:MS`` for
  one ply, repeatable), meanwhile answering ``isready`` and cut short by ``stop`` or ``quit``;
  the move is chosen before the wait, which is measured from the ``go`` line's arrival;
* ``--share F``: think F times its own time left (the ``go``'s ``wtime`` or ``btime``), and
  say when it answered, as ``--sent`` does;
* ``--sent``: say when it answered, in the same write as its ``bestmove``: ``info string
  sent T``, T on the monotonic clock (the machine's, which xqadj reads too);
* ``--write-block BYTES``: cut what it writes at once into writes of at most BYTES (default
  262144: xqadj reads an engine's stdout as messages, one a write, of a bounded size; a small
  value splits lines across writes);
* ``--usemillisec``: announce UCCI's ``option usemillisec`` (to ``ucci`` only);
* ``--ponder``: announce a ``Ponder`` option (UCI2WB ponders only then).  ``go ponder`` is
  answered at ``ponderhit`` (as ``go`` for the position) or at ``stop`` (the same, with
  ``--stop-move MOVE`` instead of the legal-move fallback), whether or not ``--ponder`` is given;
* ``--log FILE``: append every line received;
* ``--pidfile FILE``: append its process id to FILE at start;
* ``--stderr TEXT``: write TEXT to stderr at start;
* ``--exit-at-start N``: write an error to stderr and exit with status N before any handshake;
* ``--no-handshake``: never answer ``uci``/``ucci``;
* ``--deaf-after N``: answer only the first N ``isready`` outside a search;
* ``--crash-at PLY``: exit with status 3 at ``go`` (``go ponder`` too);
* ``--orphan-crash-at PLY``: at ``go``, start a child that keeps its stdout open, then exit with
  status 3 (the pipe stays open: only the process's exit tells the crash);
* ``--once FILE``: start only if FILE does not exist, and create it (a second start exits with
  status 4: an engine that cannot be restarted);
* ``--hang-at PLY``: never answer ``go``; ``--ignore-term``: ignore SIGTERM while hanging;
* ``--illegal-at PLY``: play ``a1a9`` (illegal);
* ``--nobestmove``: answer every ``go`` with UCCI's ``nobestmove``;
* ``--double-bestmove``: after each ``bestmove``, a second, different one (a legal move of the
  position after its move and the reply to it: plausible, but wrong, as an answer to the next);
* ``--flood N``: write N ``info`` lines before each ``bestmove``;
* ``--flood-forever``: after the handshake, write ``info`` lines and nothing else, forever;
* ``--ignore-quit``: quit neither at ``quit`` nor at the end of its input (only a signal ends it).

Example, an engine that plays two moves, then its first legal one, and crashes at ply 5::

    python tests/engines/fake_engine.py --script "h2e2 h9g7" --crash-at 5 --log /tmp/in.txt
"""

from __future__ import annotations

import argparse
import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HANG = 3600.0


class Input:
    """stdin read line by line without Python's buffering, so that select() can wait on it."""

    def __init__(self) -> None:
        self.buffer = b""
        self.ended = False

    def line(self, timeout: float | None = None) -> str | None:
        """The next line, stripped; None at the end of input (then ``ended``) or if none came
        within ``timeout``."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self.buffer:
            if deadline is not None:  # without a timeout, a blocking read is one system call less
                wait = max(0.0, deadline - time.monotonic())
                if not select.select([0], [], [], wait)[0]:
                    return None
            chunk = os.read(0, 65536)
            if not chunk:
                if self.buffer:
                    line, self.buffer = self.buffer, b""
                    return line.decode().strip()
                self.ended = True
                return None
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode().strip()


def at_ply(value: str) -> int | None:
    """A PLY flag's value: a ply, or None for ``any``."""
    return None if value == "any" else int(value)


def plies(values: list[str]) -> dict[int, str]:
    """``PLY:REST`` pairs by ply."""
    return {int(ply): rest for ply, _, rest in (value.partition(":") for value in values)}


def parser() -> argparse.ArgumentParser:
    """The command line (every flag is documented in the module docstring: a test checks)."""
    command_line = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    add = command_line.add_argument
    add("--name", default="fake-engine")
    add("--notation", choices=("iccs", "fairy"), default="iccs")
    add("--script", default="")
    add("--script-file")
    add("--move-at", action="append", default=[])
    add("--seed", type=int)
    add("--score", type=int)
    add("--score-at", action="append", default=[])
    add("--bare-score", action="store_true")
    add("--no-score", action="store_true")
    add("--think", type=int, default=0)
    add("--think-at", action="append", default=[])
    add("--usemillisec", action="store_true")
    add("--ponder", action="store_true")
    add("--stop-move", default="")
    add("--log")
    add("--pidfile")
    add("--stderr")
    add("--exit-at-start", type=int)
    add("--no-handshake", action="store_true")
    add("--deaf-after", type=int, default=-1)
    add("--share", type=float)
    add("--sent", action="store_true")
    add("--write-block", type=int, default=256 * 1024)
    add("--once")
    for flag in ("--crash-at", "--orphan-crash-at", "--hang-at", "--illegal-at"):
        add(flag, type=at_ply, default=-1)
    add("--ignore-term", action="store_true")
    add("--nobestmove", action="store_true")
    add("--double-bestmove", action="store_true")
    add("--flood", type=int, default=0)
    add("--flood-forever", action="store_true")
    add("--ignore-quit", action="store_true")
    return command_line


class FakeEngine:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        script = args.script
        if args.script_file:
            script = Path(args.script_file).read_text(encoding="utf-8")
        self.script: list[str] = script.split()
        self.move_at = plies(args.move_at)
        self.think_at = {ply: int(ms) for ply, ms in plies(args.think_at).items()}
        self.score_at = {ply: int(score) for ply, score in plies(args.score_at).items()}
        self.chooser = random.Random(args.seed) if args.seed is not None else None
        self.log = open(args.log, "a", encoding="utf-8") if args.log else None  # noqa: SIM115
        self.fairy = args.notation == "fairy"
        self.source = Input()
        self.position = ("startpos", "")  # the head and the moves of the last position line
        self.ply = 0
        self.readies = 0
        self.pondering = False
        self.quitting = False

    def say(self, *lines: str) -> None:
        data = memoryview("".join(line + "\n" for line in lines).encode())
        block = self.args.write_block
        while data:
            data = data[os.write(1, data[:block]) :]

    def receive(self, timeout: float | None = None) -> str | None:
        line = self.source.line(timeout)
        if line and self.log:
            self.log.write(line + "\n")
            self.log.flush()
        return line

    def board(self) -> Any:
        """The last position as an xqadj Board (imported only now: most scripts need none)."""
        sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
        from xqadj.board import STARTING_FEN, Board, Move, XqadjError

        head, moves = self.position
        board = Board(STARTING_FEN if head == "startpos" else head.removeprefix("fen").strip())
        for text in moves.split():
            try:
                board.push(Move.from_fairy(text) if self.fairy else Move.from_iccs(text))
            except XqadjError:
                break
        return board

    def text(self, move: Any) -> str:
        return str(move.fairy() if self.fairy else move.iccs())

    def run(self) -> None:
        while not self.quitting:
            line = self.receive()
            if line is None:
                break
            command, _, rest = line.partition(" ")
            if command in ("uci", "ucci"):
                self.handshake(command)
            elif command == "isready":
                self.readies += 1
                if self.args.deaf_after < 0 or self.readies <= self.args.deaf_after:
                    self.say("readyok")
            elif command == "position":
                # Counting spaces, not splitting: a long game's position stays cheap to read.
                head, found, moves = rest.partition("moves")
                self.position = (head.strip(), moves.strip() if found else "")
                self.ply = self.position[1].count(" ") + 1 if self.position[1] else 0
            elif command == "go":
                if self.at(self.args.crash_at):
                    sys.exit(3)
                if rest.startswith("ponder"):
                    self.pondering = True
                else:
                    self.go(rest)
            elif command in ("ponderhit", "stop") and self.pondering:
                self.pondering = False
                self.answer(self.choose(self.args.stop_move if command == "stop" else ""))
            elif command == "quit" and not self.args.ignore_quit:
                break
        while self.args.ignore_quit:  # a hung engine: only a signal ends it
            time.sleep(HANG)

    def handshake(self, command: str) -> None:
        if self.args.no_handshake:
            return
        lines = [f"id name {self.args.name}", "id author xqadj tests"]
        if self.args.usemillisec and command == "ucci":
            lines.append("option usemillisec type check default false")
        if self.args.ponder:
            name = "" if command == "ucci" else "name "
            lines.append(f"option {name}Ponder type check default false")
        self.say(*lines, "uciok" if command == "uci" else "ucciok")
        while self.args.flood_forever:
            self.say("info depth 1 score cp 0 nodes 1 pv " + "h2e2 " * 50)

    def at(self, ply: int | None) -> bool:
        return ply is None or ply == self.ply

    def go(self, limits: str) -> None:
        args, read_go = self.args, time.monotonic()
        if self.at(args.orphan_crash_at):
            # The child inherits its stdout: the pipe stays open, only the exit tells the crash.
            subprocess.Popen(["sleep", "600"], stdout=sys.stdout.fileno())
            os._exit(3)
        if self.at(args.hang_at):
            if args.ignore_term:
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
            time.sleep(HANG)
        move = self.choose()  # before the wait, so that the answer leaves at the deadline
        think = self.think_at.get(self.ply, args.think) / 1000
        if args.share is not None:
            words = limits.split()
            values = dict(zip(words[0::2], words[1::2], strict=False))
            own = values.get("wtime" if self.board().turn == 0 else "btime", "0")
            think = args.share * int(own) / 1000
        if think:
            self.think(read_go + think)
        self.answer(move)

    def think(self, deadline: float) -> None:
        """Wait until ``deadline``, answering isready meanwhile; stop or quit cut it short."""
        while (remaining := deadline - time.monotonic()) > 0:
            line = self.receive(remaining)
            if line is None:
                self.quitting = self.source.ended
                return
            if line == "quit":
                self.quitting = True
                return
            if line == "stop":
                return
            if line == "isready":
                self.say("readyok")

    def choose(self, fallback: str = "") -> str:
        """The answer to a search of the last position (``MOVE:PONDER`` for a ponder move)."""
        if self.args.nobestmove:
            return "nobestmove"
        if self.at(self.args.illegal_at):
            return "a1a9"
        if self.ply in self.move_at:
            return self.move_at[self.ply]
        if self.ply < len(self.script):
            return self.script[self.ply]
        return fallback or self.legal_move()

    def answer(self, move: str) -> None:
        args, lines = self.args, []
        for index in range(args.flood):
            lines.append(f"info depth {index % 64} score cp {index % 100} pv " + "h2e2 " * 20)
        score = self.score_at.get(self.ply, args.score)
        if score is not None and not args.no_score:
            lines.append(f"info depth 1 score {'' if args.bare_score else 'cp '}{score} pv")
        if args.share is not None or args.sent:  # when it answered, on the clock xqadj reads
            lines.append(f"info string sent {time.monotonic():.6f}")
        if move == "nobestmove":
            self.say(*lines, move)
            return
        best, _, ponder = move.partition(":")
        lines.append(f"bestmove {best}" + (f" ponder {ponder}" if ponder else ""))
        if args.double_bestmove and best != "(none)":
            lines.append(f"bestmove {self.second_move(best)}")
        self.say(*lines)

    def legal_move(self) -> str:
        legal = self.board().legal_moves()
        if not legal:
            return "(none)"
        return self.text(self.chooser.choice(legal) if self.chooser else legal[0])

    def second_move(self, best: str) -> str:
        """A legal move of the position after ``best`` and the first reply to it (else the last
        legal move of this position)."""
        board = self.board()
        legal = board.legal_moves()
        played = [move for move in legal if self.text(move) == best]
        if played:
            board.push(played[0])
            replies = board.legal_moves()
            if replies:
                board.push(replies[0])
                after = board.legal_moves()
                if after:
                    return self.text(after[-1])
        return self.text(legal[-1]) if legal else "(none)"


def main() -> None:
    args = parser().parse_args()
    if args.pidfile:
        with open(args.pidfile, "a", encoding="utf-8") as pids:
            pids.write(f"{os.getpid()}\n")
    if args.stderr:
        print(args.stderr, file=sys.stderr, flush=True)
    if args.once:
        if os.path.exists(args.once):
            print("fake_engine: started once already", file=sys.stderr, flush=True)
            sys.exit(4)
        Path(args.once).touch()
    if args.exit_at_start is not None:
        print("fake_engine: cannot find my weights file", file=sys.stderr, flush=True)
        sys.exit(args.exit_at_start)
    FakeEngine(args).run()


if __name__ == "__main__":
    main()
