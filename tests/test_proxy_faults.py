"""``xqadj proxy`` as GUIs drive it and as engines fail (issue 10, "The proxy must never lose a
ruling").

A fake GUI (this test, over pipes) talks to the real ``python -m xqadj proxy`` in front of a fake
engine (``tests/engines/fake_engine.py``, also behind a wrapper shell script whose child it is)
or Debian's Fairy-Stockfish:

* the ruling caused by the engine's own ``bestmove`` is shown at once, before the bestmove line;
* a line that goes past the ruling ply (the GUI played a move the proxy did not see as a
  bestmove) still shows it;
* after a ruling the GUI plays on: no stale ``banmoves`` reach a UCCI engine;
* ``go ponder``: the ponder move is not played until ``ponderhit``; nor is ``bestmove … ponder``;
* the engine's notation is detected (``id name Fairy-Stockfish``, or the moves), or the GUI is
  told on its own channel;
* an engine that dies, SIGTERM, Ctrl-C, a GUI that closes its input or stops reading: the GUI
  learns at once, no engine is left running (also behind a wrapper), no traceback.
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from xqadj.board import Board

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "tests" / "engines" / "fake_engine.py"
WRAPPER = ROOT / "tests" / "engines" / "proxy_wrapper.sh"
TIMEOUT = 30.0  # seconds to wait for any one line: generous for a loaded machine

# WXF-D001: Red checks on every move; Black's f8f9, the eighth ply, completes the third
# occurrence and Red, the perpetual checker, loses (0-1).
D001_FEN = "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w"
D001 = "h8h9 f9f8 h9h8 f8f9 h8h9 f9f8 h9h8 f8f9".split()
RULING = "info string xqadj ruling result 0-1 reason perpetual-check ply 8 offender red"


def fairy(move: str) -> str:
    return f"{move[0]}{int(move[1]) + 1}{move[2]}{int(move[3]) + 1}"


class Gui:
    """A GUI at the other end of the proxy's pipes: lines in, lines out, stderr kept."""

    def __init__(self, *engine: str, options: tuple[str, ...] = (), read: bool = True) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "xqadj", "proxy", *options, "--", *engine],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=str(ROOT),
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        if read:
            threading.Thread(target=self._read, daemon=True).start()
        # stderr is read on the side: an engine left running would hold it open for ever.
        self._stderr: list[bytes] = []
        self._stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_reader.start()

    def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        for raw in self.process.stderr:
            self._stderr.append(raw)

    def _read(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            self.lines.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
        self.lines.put(None)

    def send(self, *lines: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write("".join(line + "\n" for line in lines).encode())
        self.process.stdin.flush()

    def read_until(self, prefix: str) -> list[str]:
        """Every line up to and including the first that starts with ``prefix``."""
        seen = []
        while True:
            line = self.lines.get(timeout=TIMEOUT)
            if line is None:
                raise AssertionError(f"the proxy closed its output before {prefix!r}: {seen}")
            seen.append(line)
            if line.startswith(prefix):
                return seen

    def sync(self) -> list[str]:
        self.send("isready")
        return self.read_until("readyok")[:-1]

    def read_to_end(self) -> list[str]:
        seen = []
        while (line := self.lines.get(timeout=TIMEOUT)) is not None:
            seen.append(line)
        return seen

    def finish(self) -> tuple[int, str]:
        """Wait for the proxy to exit; its status and stderr."""
        status = self.process.wait(timeout=TIMEOUT)
        self._stderr_reader.join(timeout=TIMEOUT)
        stderr = b"".join(self._stderr).decode("utf-8", "replace")
        if self._stderr_reader.is_alive():
            stderr += "\n(stderr still open: a process the proxy started is still running)"
        return status, stderr

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def guis() -> Iterator[list[Gui]]:
    started: list[Gui] = []
    yield started
    for gui in started:
        gui.kill()


def engine(*args: str) -> list[str]:
    return [sys.executable, str(ENGINE), *args]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is dead: it only waits for its parent to read its status.
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().split(")")[-1].split()[0] != "Z"


def wait_gone(pid: int) -> bool:
    """Whether the process is gone within the time-out (polled, not a timing assertion)."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        time.sleep(0.05)
    return False


def read_pid(path: Path) -> int:
    deadline = time.monotonic() + TIMEOUT
    while not path.exists() or not path.read_text():
        assert time.monotonic() < deadline, "the engine never wrote its pid"
        time.sleep(0.05)
    return int(path.read_text())


# --- the ruling reaches the GUI ----------------------------------------------------------------


@pytest.mark.parametrize("protocol", ["uci", "ucci"])
def test_the_engines_own_move_that_ends_the_game_is_ruled_before_its_bestmove(
    guis: list[Gui], protocol: str
) -> None:
    """Black's engine plays f8f9, the third occurrence: the GUI may never send another line."""
    gui = Gui(*engine("--move-at", "7:f8f9"))
    guis.append(gui)
    gui.send(protocol)
    gui.read_until("uciok" if protocol == "uci" else "ucciok")
    gui.send(f"position fen {D001_FEN} moves {' '.join(D001[:7])}", "go depth 1")
    lines = gui.read_until("bestmove")
    assert lines[-1] == "bestmove f8f9"
    assert lines[-3].startswith(RULING), lines
    assert lines[-2].startswith("info string xqadj The position occurred for the third time")
    gui.send("quit")
    assert gui.finish()[0] == 0


def test_a_line_that_goes_past_the_ruling_still_shows_it(guis: list[Gui]) -> None:
    """The ruling move was not the engine's bestmove (the user moved for it, or the proxy missed
    it): the engine's next line, at ply 9, goes past the ruling at ply 8."""
    gui = Gui(*engine("--move-at", "7:f8f7"))
    guis.append(gui)
    gui.send("uci")
    gui.read_until("uciok")
    gui.send(f"position fen {D001_FEN} moves {' '.join(D001[:7])}", "go depth 1")
    lines = gui.read_until("bestmove")
    assert lines[-1] == "bestmove f8f7"
    assert not any(line.startswith("info string xqadj") for line in lines)
    # The GUI played f8f9 for Black all the same, then Red's h8h9: Black's turn again.
    gui.send(f"position fen {D001_FEN} moves {' '.join(D001)} h8h9", "go depth 1")
    lines = gui.read_until("bestmove")
    assert any(line.startswith(RULING) for line in lines), lines
    gui.send("quit")
    assert gui.finish() == (0, "")


def test_no_stale_banmoves_after_a_ruling_the_gui_ignored(guis: list[Gui], tmp_path: Path) -> None:
    """The GUI plays on past a ruling: the UCCI engine gets banmoves from the real position."""
    log = tmp_path / "engine.log"
    # D022 from one ply into its cycle: Red's b3b2 would complete the third occurrence.
    board = Board("1r2kab2/4a4/4b4/p1p1p3p/5R3/2P2N3/PC2P3P/4Cr3/1R3c3/2B1KA3 w")
    board.push_iccs("b3b2")
    fen = board.fen()
    cycle = "f2f3 b2b3 f3f2 b3b2 f2f3 b2b3 f3f2".split()
    gui = Gui(*engine("--log", str(log)))
    guis.append(gui)
    gui.send("ucci")
    gui.read_until("ucciok")
    gui.send(f"position fen {fen} moves {' '.join(cycle)}", "go depth 1")
    gui.read_until("bestmove")
    # Red played b3b2 all the same (the GUI knows no rule); Black answered: Red's turn again.
    gui.send(f"position fen {fen} moves {' '.join(cycle)} b3b2 f2f3", "go depth 1")
    lines = gui.read_until("bestmove")
    assert any("reason perpetual-chase ply 8" in line for line in lines), lines
    gui.send("quit")
    gui.finish()
    received = log.read_text().splitlines()
    gos = [index for index, line in enumerate(received) if line.startswith("go")]
    assert received[gos[0] - 1] == "banmoves b3b2"
    # After the ruling the game is over: nothing is banned, and no stale list is sent.
    assert not received[gos[1] - 1].startswith("banmoves"), received


# --- ponder --------------------------------------------------------------------------------------


def test_the_ponder_move_is_not_played_until_ponderhit(guis: list[Gui]) -> None:
    # Red's engine ponders on Black's f8f9, the move that would complete the third occurrence.
    gui = Gui(*engine("--stop-move", "h8h9", "--move-at", "8:h8h9"))
    guis.append(gui)
    gui.send("uci")
    gui.read_until("uciok")
    gui.send(f"position fen {D001_FEN} moves {' '.join(D001)}", "go ponder")
    assert not any(line.startswith("info string xqadj") for line in gui.sync())
    # Black played another move: stop, the engine's answer is not played either.
    gui.send("stop")
    lines = gui.read_until("bestmove")
    assert not any(line.startswith("info string xqadj") for line in lines), lines
    gui.send(f"position fen {D001_FEN} moves {' '.join(D001[:7])} f8f7", "go depth 1")
    assert not any(line.startswith("info string xqadj") for line in gui.read_until("bestmove"))
    # Pondering again on f8f9, and this time Black plays it: ponderhit.
    gui.send(f"position fen {D001_FEN} moves {' '.join(D001)}", "go ponder")
    assert not any(line.startswith("info string xqadj") for line in gui.sync())
    gui.send("ponderhit")
    lines = gui.read_until("bestmove")
    assert any(line.startswith(RULING) for line in lines), lines
    gui.send("quit")
    assert gui.finish() == (0, "")


def test_the_ponder_move_of_a_bestmove_is_not_played(guis: list[Gui]) -> None:
    gui = Gui(*engine("--move-at", "6:f8f9:h8h9"))
    guis.append(gui)
    gui.send("uci")
    gui.read_until("uciok")
    # From D001's second position, Black's engine plays f8f9 and expects Red's h8h9, which would
    # complete the third occurrence: only a guess, not a move of the game.
    board = Board(D001_FEN)
    board.push_iccs("h8h9")
    line = f"position fen {board.fen()} moves {' '.join(D001[1:7])}"
    gui.send(line, "go depth 1")
    lines = gui.read_until("bestmove")
    assert lines[-1] == "bestmove f8f9 ponder h8h9"
    assert not any(line.startswith("info string xqadj") for line in lines), lines
    gui.send("quit")
    assert gui.finish() == (0, "")


# --- the engine's notation ---------------------------------------------------------------------


def test_fairy_stockfish_notation_is_detected_from_its_name(guis: list[Gui]) -> None:
    gui = Gui(*engine("--name", "Fairy-Stockfish 11.1 LB 64", "--notation", "fairy"))
    guis.append(gui)
    gui.send("uci")
    lines = gui.read_until("uciok")
    lines += gui.sync()
    assert any(line.startswith("info string xqadj notation fairy") for line in lines), lines
    moves = " ".join(fairy(move) for move in D001)
    gui.send(f"position fen {D001_FEN} moves {moves}", "go depth 1")
    lines = gui.read_until("bestmove")
    assert any(line.startswith(RULING) for line in lines), lines
    gui.send("quit")
    assert gui.finish() == (0, "")


def test_fairy_notation_is_detected_from_the_moves(guis: list[Gui]) -> None:
    gui = Gui(*engine("--notation", "fairy"))
    guis.append(gui)
    gui.send("uci")
    gui.read_until("uciok")
    moves = " ".join(fairy(move) for move in D001)
    gui.send(f"position fen {D001_FEN} moves {moves}", "go depth 1")
    lines = gui.read_until("bestmove")
    assert any(line.startswith("info string xqadj notation fairy") for line in lines), lines
    assert any(line.startswith(RULING) for line in lines), lines
    gui.send("quit")
    assert gui.finish()[0] == 0


def test_a_notation_that_cannot_be_followed_is_said_on_the_guis_channel(guis: list[Gui]) -> None:
    gui = Gui(*engine("--notation", "fairy"), options=("--notation", "iccs"))
    guis.append(gui)
    gui.send("uci")
    gui.read_until("uciok")
    moves = " ".join(fairy(move) for move in D001)
    gui.send(f"position fen {D001_FEN} moves {moves}", "go depth 1")
    lines = gui.read_until("bestmove")
    assert any(
        line.startswith("info string xqadj cannot follow") and "--notation" in line
        for line in lines
    ), lines
    gui.send("quit")
    status, stderr = gui.finish()
    assert status == 0 and "xqadj proxy: error bad-move" in stderr


def test_real_fairy_stockfish_without_notation_option(
    guis: list[Gui], fairy_stockfish: str
) -> None:
    gui = Gui(fairy_stockfish)
    guis.append(gui)
    gui.send("uci")
    gui.read_until("uciok")
    gui.send("setoption name UCI_Variant value xiangqi")
    gui.sync()
    moves = " ".join(fairy(move) for move in D001)
    gui.send(f"position fen {D001_FEN} moves {moves}", "go depth 1")
    lines = gui.read_until("bestmove")
    assert any(line.startswith(RULING) for line in lines), lines
    gui.send("quit")
    assert gui.finish()[0] == 0


# --- processes --------------------------------------------------------------------------------


def test_a_byte_order_mark_before_the_first_command_does_not_reach_the_engine(
    guis: list[Gui], tmp_path: Path
) -> None:
    log = tmp_path / "engine.log"
    gui = Gui(*engine("--log", str(log)))
    guis.append(gui)
    assert gui.process.stdin is not None
    gui.process.stdin.write(b"\xef\xbb\xbfuci\n")
    gui.process.stdin.flush()
    gui.read_until("uciok")
    gui.send("quit")
    assert gui.finish() == (0, "")
    assert log.read_text().splitlines()[0] == "uci"


@pytest.mark.parametrize("wrapped", [False, True], ids=["direct", "wrapper"])
def test_an_engine_that_dies_closes_the_proxy_at_once(guis: list[Gui], wrapped: bool) -> None:
    command = engine("--crash-at", "any")
    gui = Gui(*([str(WRAPPER), *command] if wrapped else command))
    guis.append(gui)
    gui.send("uci")
    gui.read_until("uciok")
    gui.send("position startpos", "go depth 1")
    # No further line from the GUI: the proxy's output ends by itself.
    rest = gui.read_to_end()
    assert any("xqadj proxy: the engine exited" in line for line in rest), rest
    status, stderr = gui.finish()
    assert status != 0
    assert "xqadj proxy: the engine exited" in stderr and "Traceback" not in stderr


@pytest.mark.parametrize(
    ("how", "expected"),
    [("sigterm", 128 + signal.SIGTERM), ("sigint", 130), ("close-input", 0)],
)
def test_no_engine_is_left_running_behind_a_wrapper(
    guis: list[Gui], tmp_path: Path, how: str, expected: int
) -> None:
    """The engine is the wrapper shell's child and ignores quit: the proxy kills the group."""
    pid_file = tmp_path / "engine.pid"
    gui = Gui(str(WRAPPER), *engine("--ignore-quit", "--pidfile", str(pid_file)))
    guis.append(gui)
    gui.send("uci")
    gui.read_until("uciok")
    engine_pid = read_pid(pid_file)
    if how == "sigterm":
        gui.process.send_signal(signal.SIGTERM)
    elif how == "sigint":
        gui.process.send_signal(signal.SIGINT)
    else:
        assert gui.process.stdin is not None
        gui.process.stdin.close()
    status, stderr = gui.finish()
    assert wait_gone(engine_pid), "the engine behind the wrapper is still running"
    assert status == expected
    assert "Traceback" not in stderr, stderr


def test_a_gui_that_stops_reading_ends_the_proxy_quietly(guis: list[Gui], tmp_path: Path) -> None:
    pid_file = tmp_path / "engine.pid"
    gui = Gui(*engine("--flood-forever", "--pidfile", str(pid_file)), read=False)
    guis.append(gui)
    engine_pid = read_pid(pid_file)
    gui.send("uci")
    assert gui.process.stdout is not None
    gui.process.stdout.readline()
    gui.process.stdout.close()  # the GUI stops reading while the engine floods
    status, stderr = gui.finish()
    assert wait_gone(engine_pid)
    assert status == 0 and "Traceback" not in stderr, stderr
