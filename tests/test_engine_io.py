"""An engine's output (``xqadj/integrations/engineio.py``, issue 18): a search is charged up to
the kernel's stamp of the engine's write, not up to when a thread of ours reads it; messages are
put back together into lines; an exit is seen while a child still holds the output; and the
pipe that replaces the socket where there is none works too (``XQADJ_ENGINE_OUTPUT=pipe``).

The stall in the clock tests holds the interpreter's lock inside one C call (``usleep`` through
``ctypes.PyDLL``), so that no thread of this process can read or stamp anything meanwhile: a
stamp taken by any thread of ours, a reader thread's included, falls after it.
"""

from __future__ import annotations

import ctypes
import os
import shlex
import signal
import subprocess
import sys
import time
import types
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import skip_or_fail

from xqadj.board import STARTING_FEN, Board, Move
from xqadj.integrations import engine as engine_module
from xqadj.integrations.engine import KEPT_INFO_LINES, Engine, EngineError, EngineSpec, SearchLimit
from xqadj.integrations.engineio import (
    MAX_LINE_BYTES,
    OUTPUT_ENV,
    EngineOutput,
    Line,
    socket_available,
)

FAKE = Path(__file__).resolve().parent / "engines" / "fake_engine.py"
FIRST_MOVE = Board().legal_moves()[0].iccs()
#: Microseconds the whole process is stalled after the go is written.
STALL_US = 1_500_000


def need(kind: str) -> None:
    if kind == "socket" and not socket_available():
        skip_or_fail("no AF_UNIX SOCK_SEQPACKET socket with SO_TIMESTAMPNS here (not Linux?)")


@pytest.fixture(params=["socket", "pipe"])
def kind(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each output kind, for the engines started in the test."""
    need(request.param)
    monkeypatch.setenv(OUTPUT_ENV, request.param)
    return str(request.param)


def fake(*flags: str, name: str = "fake") -> EngineSpec:
    return EngineSpec.parse(
        ["cmd=" + shlex.join([sys.executable, str(FAKE), *flags]), f"name={name}"]
    )


def stalled_search(engine: Engine, think_ms: int, grace: float = 5.0) -> dict[str, float]:
    """A search that the engine answers after ``think_ms``, while this process is stalled from
    just after the go's write for STALL_US; the marks (monotonic seconds) of the go, the end of
    the stall and the engine's own word of when it wrote its answer."""
    marks: dict[str, float] = {}
    send = engine.send

    def send_and_stall(*lines: str) -> None:
        going = lines[-1].startswith("go")
        if going:
            marks["go"] = time.monotonic()
        send(*lines)
        if going:
            ctypes.PyDLL(None).usleep(STALL_US)  # the GIL held throughout
            marks["woke"] = time.monotonic()

    engine.send = send_and_stall  # type: ignore[method-assign]
    try:
        limit = SearchLimit(movetime=think_ms, grace=grace)
        assert engine.best_move(STARTING_FEN, [], limit) == FIRST_MOVE
    finally:
        del engine.send
    (sent,) = [line for line in engine.last_info if line.startswith("info string sent ")]
    marks["sent"] = float(sent.split()[-1])
    return marks


def test_a_search_is_charged_up_to_the_engines_write_not_to_our_read() -> None:
    """The engine answers 100 ms after the go, while every thread of xqadj is stalled for
    1.5 s: the clock charges the engine's 100 ms (the kernel stamped its write), not the 1.5 s
    it took xqadj to read the line.  Before, the line was stamped by a reader thread, which
    could not run either."""
    need("socket")
    with Engine(fake("--think", "100", "--sent")) as engine:
        assert engine.output_kind == "socket"
        marks = stalled_search(engine, 100)
        true_ms = (marks["sent"] - marks["go"]) * 1000
        stalled_ms = (marks["woke"] - marks["go"]) * 1000
        # The engine answered during the stall (or the test shows nothing).
        assert true_ms < stalled_ms - 500, marks
        # Bounds: the charge starts just before the go's write (before marks["go"]), and the
        # engine's write comes just after it took its own stamp (a loaded machine may delay
        # that write, hence the generous upper bound).
        assert true_ms - 2 <= engine.last_search_ms <= true_ms + 200, (marks, engine.last_search_ms)


def test_with_a_pipe_a_search_is_charged_up_to_our_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fallback has no stamp from the kernel: the line is stamped when it is read, after the
    stall, as the documentation says."""
    monkeypatch.setenv(OUTPUT_ENV, "pipe")
    with Engine(fake("--think", "100", "--sent")) as engine:
        assert engine.output_kind == "pipe"
        marks = stalled_search(engine, 100)
        assert engine.last_search_ms >= (marks["woke"] - marks["go"]) * 1000 - 2


def test_an_answer_written_in_time_and_read_late_is_taken(kind: str) -> None:
    """The wait for the answer ends 0.3 s after the go, in the middle of the stall: the answer
    the engine wrote at 0.1 s is there when this thread wakes up, and is taken (on the socket,
    with the time the engine took), not a time-out."""
    with Engine(fake("--think", "100", "--sent")) as engine:
        marks = stalled_search(engine, 100, grace=0.2)
        if kind == "socket":
            assert engine.last_search_ms <= (marks["sent"] - marks["go"]) * 1000 + 200


@pytest.mark.parametrize("shift_s", [3600, -3600])
def test_a_clock_step_falls_back_to_the_read_time(
    monkeypatch: pytest.MonkeyPatch, shift_s: int
) -> None:
    """The wall clock (the kernel's stamps') steps by an hour between the go and the answer:
    the stamp is not between the go and the read, so the monotonic read time is charged, not
    an hour or a negative time."""
    need("socket")

    class Shifted(types.ModuleType):
        """The time module, with the go stamped on a wall clock an hour off the kernel's."""

        def __getattr__(self, name: str) -> object:
            return getattr(time, name)

        def time_ns(self) -> int:
            return time.time_ns() + shift_s * 1_000_000_000

    with Engine(fake("--think", "50")) as engine:
        monkeypatch.setattr(engine_module, "time", Shifted("time"))
        engine.best_move(STARTING_FEN, [], SearchLimit(movetime=50))
        # Neither 0 (a negative time clamped) nor an hour.
        assert 50 <= engine.last_search_ms < 60_000, engine.last_search_ms


# -- messages into lines --------------------------------------------------------------------------


def read_all(
    kind: str, script: str, budget: float = 30.0
) -> tuple[list[Line], subprocess.Popen[bytes], EngineOutput]:
    """What a Python child running ``script`` writes to stdout, read to its end (or for
    ``budget`` seconds); the child is in its own process group."""
    output = EngineOutput.create(kind)
    child = subprocess.Popen(
        [sys.executable, "-c", script], stdout=output.child_fd, start_new_session=True
    )
    output.started(child.pid, lambda: child.poll() is not None)
    lines: list[Line] = []
    deadline = time.monotonic() + budget
    while time.monotonic() < deadline:
        more = output.read(1.0)
        if more is None:
            break
        lines += more
    else:
        pytest.fail(f"the output did not end within {budget} s: {lines[-3:]}")
    return lines, child, output


@pytest.fixture
def reader(kind: str) -> Iterator[object]:
    children: list[subprocess.Popen[bytes]] = []
    outputs: list[EngineOutput] = []

    def run(script: str) -> list[Line]:
        lines, child, output = read_all(kind, script)
        children.append(child)
        outputs.append(output)
        return lines

    yield run
    for child in children:
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        child.wait()
    for output in outputs:
        output.close()


WRITES = "import os, time\nfor data in {!r}:\n    os.write(1, data)\n    time.sleep(0.05)\n"


def test_a_line_split_across_writes_is_one_line(kind: str, reader) -> None:  # noqa: ANN001
    lines = reader(WRITES.format([b"best", b"move h2e2\nrea", b"dyok\n"]))
    assert [line.raw for line in lines] == [b"bestmove h2e2", b"readyok"]
    if kind == "socket":  # each line carries the stamp of the write that ended it
        first, second = (line.sent_ns for line in lines)
        assert first is not None and second is not None and first < second


def test_many_lines_in_one_write(kind: str, reader) -> None:  # noqa: ANN001
    lines = reader(WRITES.format([b"id name x\nid author y\r\nuciok\n"]))
    assert [line.raw for line in lines] == [b"id name x", b"id author y\r", b"uciok"]
    assert len({line.sent_ns for line in lines}) == 1


def test_an_empty_write_is_not_the_end(kind: str, reader) -> None:  # noqa: ANN001
    lines = reader(WRITES.format([b"", b"after\n", b"no end of line"]))
    assert [line.raw for line in lines] == [b"after", b"no end of line"]


BLOCK = (
    'short = [b"info %06d " % n + b"x" * 88 for n in range(2000)]\n'
    'long = b"y" * 150_000\n'
    'block = b"\\n".join([*short, long]) + b"\\n"\n'
)


def test_a_block_larger_than_the_default_buffer_is_read_whole(kind: str, reader) -> None:  # noqa: ANN001
    """350 kB in one write: more than a socket's default buffer (208 kB), under the raised
    limit; a line longer than MAX_LINE_BYTES is cut into pieces of that size."""
    made: dict[str, bytes] = {}
    exec(BLOCK, made)  # the block the child writes, made the same way
    short, long, block = made["short"], made["long"], made["block"]
    if kind == "socket":
        probe = EngineOutput.create("socket")
        probe.close()
        assert 212_992 < len(block) <= probe.max_write
    lines = reader(BLOCK + "import os\nos.write(1, block)\n")
    raws = [line.raw for line in lines]
    assert raws[:2000] == short
    assert b"".join(raws[2000:]) == long
    assert [len(raw) for raw in raws[2000:]] == [
        MAX_LINE_BYTES,
        MAX_LINE_BYTES,
        150_000 - 2 * MAX_LINE_BYTES,
    ]


@pytest.mark.parametrize("pidfd", [True, False], ids=["pidfd", "no-pidfd"])
def test_an_exit_is_seen_while_a_child_holds_the_output(
    kind: str, pidfd: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process writes its last words and exits; a child of its holds the output for 600 s
    more.  The output ends with the last words read, while the child still runs."""
    if not pidfd:
        monkeypatch.delattr(os, "pidfd_open", raising=False)
    script = (
        "import os, subprocess\n"
        "subprocess.Popen(['sleep', '600'])\n"
        "os.write(1, b'last words\\n')\n"
        "os._exit(3)\n"
    )
    lines, child, output = read_all(kind, script, budget=60.0)
    try:
        assert [line.raw for line in lines] == [b"last words"]
        # The child (the group's only member left) still holds the output: not its end of file.
        os.killpg(child.pid, 0)
    finally:
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        child.wait()
        output.close()


# -- the engine on each output --------------------------------------------------------------------


def test_an_engine_writing_three_bytes_at_a_time_plays(kind: str) -> None:
    """Every line split across writes (and several lines' ends in one): the handshake, the
    searches and the engine's name come through whole."""
    with Engine(fake("--write-block", "3", "--name", "Slow Writer", "--score", "7")) as engine:
        assert engine.output_kind == kind
        assert engine.id_name == "Slow Writer"
        moves: list[Move] = []
        for _ in range(4):
            reply = engine.best_move(STARTING_FEN, moves, SearchLimit(movetime=100))
            assert reply is not None
            moves.append(Move.from_iccs(reply))
        assert engine.last_info == ["info depth 1 score cp 7 pv"]


def test_an_info_flood_in_one_write(kind: str) -> None:
    """2,500 info lines and the bestmove in one write of about 320 kB."""
    with Engine(fake("--flood", "2500", "--write-block", "1000000")) as engine:
        assert engine.best_move(STARTING_FEN, [], SearchLimit(movetime=100)) == FIRST_MOVE
        assert len(engine.recent_info) == KEPT_INFO_LINES
        assert engine.dropped_lines == 0


def test_a_crash_behind_a_child_holding_the_output_is_a_crash(kind: str) -> None:
    """With two minutes of grace, a crash seen only when the child lets go would be a
    time-out."""
    with Engine(fake("--orphan-crash-at", "0")) as engine:
        with pytest.raises(EngineError) as raised:
            engine.best_move(STARTING_FEN, [], SearchLimit(movetime=100, grace=120))
        assert raised.value.kind == "crash", raised.value
        assert not engine.alive


def test_a_bad_output_setting_is_one_clear_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Said once, and before anything is written: no engine log is left behind."""
    monkeypatch.setenv(OUTPUT_ENV, "carrier-pigeon")
    with pytest.raises(EngineError) as raised:
        Engine(fake(), log_dir=tmp_path / "logs")
    assert str(raised.value) == f"{OUTPUT_ENV} must be socket or pipe, got 'carrier-pigeon'"
    assert not (tmp_path / "logs").exists() or not any((tmp_path / "logs").iterdir())


def test_a_match_on_pipes_plays_on_a_clock(tmp_path: Path) -> None:
    """The whole match on the fallback (as on a system without the socket), on a clock."""
    command = shlex.join([sys.executable, str(FAKE), "--seed", "1", "--think", "5"])
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "xqadj",
            "match",
            "--engine",
            f"cmd={command}",
            "name=A",
            "--engine",
            f"cmd={command}",
            "name=B",
            "--tc",
            "10+0.1",
            "--games",
            "2",
            "--max-plies",
            "20",
            "--log",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, OUTPUT_ENV: "pipe"},
    )
    assert run.returncode == 0, run.stderr
    assert "final: A 1 - 1 B over 2 games" in run.stdout, run.stdout
    log = (tmp_path / "A-1.log").read_text()
    assert "# output: pipe" in log
