"""Fuzzing the line protocol (protocol/PROTOCOL.md).

* One long-lived ``python -m xqadj`` process (binary pipes and a reader thread) gets random and
  malformed lines -- garbage bytes, invalid UTF-8, NULs, lines over 1 MiB, partial commands, random
  tokens, random move-shaped tokens -- interleaved with valid commands (legal moves, position
  lines, undo, options).  After every malformed line that is refused (one ``error`` line), the
  status, the options and the banned moves are what they were; every output line is a protocol
  line; the output equals that of an in-process :class:`~xqadj.protocol.Session` fed the same
  lines decoded as the spec says (an oracle for the transport rules); the process stays alive.
  The session ends with ``quit`` and exit status 0.
* In-process properties of :class:`~xqadj.protocol.Session`: a refused command leaves the state
  (status, options as ``uci`` prints them, banned moves, the move list) unchanged; a growing
  ``position`` line, processed incrementally, ends in the same state as a fresh rebuild.
"""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from xqadj.protocol import MAX_LINE_BYTES, Session

ROOT = Path(__file__).resolve().parents[1]
XQADJ = [sys.executable, "-m", "xqadj"]
TIMEOUT = 30.0

FENS = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
    "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w",  # WXF-D001
    "1r2kab2/4a4/4b4/p1p1p3p/5R3/2P2N3/PC2P3P/4Cr3/1R3c3/2B1KA3 w",  # WXF-D022
    "3akr3/5c3/1P2b4/4R4/9/9/9/9/9/4CK3 w",  # WXF-D004
    "3k5/9/9/9/8p/9/9/9/R8/1R2K4 w",  # mate in 2 plies
    "R2k5/R8/9/9/9/9/9/9/9/4K4 b",  # checkmated
    "3k5/R8/9/9/9/9/9/9/9/4K4 b",  # stalemated
]

VOCABULARY = (
    "uci ucci isready setoption name value ucinewgame position startpos fen moves move undo "
    "banmoves status go stop ponderhit Rules Notation MoveLimit Explain axf wxf iccs fairy true "
    "false 0 1 -1 2 100000 100001 h2e2 h9g7 h3e3 h10g8 e2e9 a0a9 z9z9 i9i10 w b r - "
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR 4k4/9/9 9/9/9/9/9/9/9/9/9/9 "
    "K k 中 ² ٣ \u3000 \x0b \x0c"
).split(" ")

PARTIAL = [
    "position fen",
    "position",
    "position fen moves",
    "position startpos moves",
    "setoption name",
    "setoption name value",
    "setoption",
    "setoption name Rules value",
    "setoption MoveLimit",
    "undo -1",
    "undo",
    "undo 99999",
    "undo 1.5",
    "move",
    "position fen rnbakabnr/9",
    "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
    "position startpos moves h2e2 h2e2",
    "banmoves x",
    "status x",
    "ucinewgame now",
    "isready",
    "position fen 9/9/9/9/9/9/9/9/9/9 w",
    "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w",
    "setoption name MoveLimit value 1e3",
    "setoption name Explain value maybe",
    "position moves h2e2",
    "undo " + "9" * 5000,
]

HUGE = [
    b"position startpos moves " + b"h2e2 e2h2 " * (MAX_LINE_BYTES // 10 + 1),
    b"x" * (MAX_LINE_BYTES + 1),
    b"status" + b" " * MAX_LINE_BYTES,
    b"setoption name " + b"A" * (MAX_LINE_BYTES + 100) + b" value 1",
    b"\xff" * (MAX_LINE_BYTES + 5),
]

# --- the oracle: the spec's transport rules around an in-process Session --------------------


def is_quit(raw: bytes) -> bool:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return text.replace("\x00", " ").split()[:1] == ["quit"]


def known_internal(text: str) -> bool:
    """Lines that hit the defects reported with tests/test_protocol.py's KNOWN_BUGS.

    ``position moves …`` (IndexError), and a number that ``str.isdigit`` accepts but ``int``
    refuses (``²``, or over 4,300 digits) for ``undo`` or ``MoveLimit`` (ValueError).
    """
    tokens = text.split()
    if tokens[:1] == ["position"] and tokens[1:2] == ["moves"]:
        return True

    def bad_digits(word: str) -> bool:
        if not word.isdigit():
            return False
        try:
            int(word)
        except ValueError:
            return True
        return False

    if tokens[:1] == ["undo"] and len(tokens) == 2:
        return bad_digits(tokens[1])
    if tokens[:1] == ["setoption"]:
        return bad_digits(tokens[-1]) and "movelimit" in text.lower()
    return False


def same(got: list[str], expected: list[str]) -> bool:
    """Equal lines; an expected line ending in a space needs only to start the line got."""
    return len(got) == len(expected) and all(
        g.startswith(e) if e.endswith(" ") else g == e for g, e in zip(got, expected, strict=True)
    )


class Mirror:
    """What the process must print for a line: the spec's transport rules, then Session."""

    def __init__(self) -> None:
        self.session = Session()

    def feed(self, raw: bytes) -> list[str]:
        if len(raw) > MAX_LINE_BYTES:
            return ["error line-too-long "]  # details are free: only the code is compared
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            return ["error bad-encoding "]
        text = text.replace("\x00", " ")
        try:
            return self.session.handle(text)
        except Exception as error:  # noqa: BLE001 - mirrors serve()
            assert known_internal(text), f"new internal error on {text[:200]!r}: {error!r}"
            return [f"error internal {type(error).__name__}"]


# --- the process ----------------------------------------------------------------------------


class Process:
    """``python -m xqadj`` behind binary pipes; a thread reads stdout lines into a queue."""

    def __init__(self) -> None:
        self.popen = subprocess.Popen(
            XQADJ,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=str(ROOT),
        )
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.stderr: list[bytes] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        self.marker = 0

    def _read(self) -> None:
        assert self.popen.stdout is not None
        for line in self.popen.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _drain_stderr(self) -> None:
        assert self.popen.stderr is not None
        for line in self.popen.stderr:
            self.stderr.append(line)

    def write(self, raw: bytes) -> None:
        assert self.popen.stdin is not None
        self.popen.stdin.write(raw + b"\n")
        self.popen.stdin.flush()

    def readline(self) -> str:
        try:
            line = self.lines.get(timeout=TIMEOUT)
        except queue.Empty:
            raise AssertionError("no answer from the process") from None
        assert line is not None, f"the process ended: {b''.join(self.stderr)[-2000:]!r}"
        assert line.endswith(b"\n")
        return line[:-1].decode("utf-8")

    def ask(self, raw: bytes) -> list[str]:
        """Send a line and a unique sync line; return the first line's output."""
        self.marker += 1
        marker = f"xqadj-sync-{self.marker}"
        self.write(raw)
        self.write(marker.encode())
        out = []
        while (line := self.readline()) != f"error unknown-command {marker}":
            out.append(line)
        return out

    def alive(self) -> bool:
        return self.popen.poll() is None


@pytest.fixture(scope="module")
def process() -> Iterator[Process]:
    proc = Process()
    yield proc
    if proc.alive():
        proc.popen.kill()
        proc.popen.wait()


@pytest.fixture(scope="module")
def mirror() -> Mirror:
    return Mirror()


# --- strategies -----------------------------------------------------------------------------

no_newline = st.binary(max_size=300).map(lambda b: b.replace(b"\n", b" "))


@st.composite
def invalid_utf8(draw: st.DrawFn) -> bytes:
    head = draw(st.text(max_size=40)).replace("\n", " ").encode("utf-8")
    bad = draw(
        st.sampled_from(
            [
                b"\xff",
                b"\xfe",
                b"\xc3\x28",
                b"\xed\xa0\x80",
                b"\x80",
                b"\xf4\x90\x80\x80",
                b"\xe2\x82",
            ]
        )
    )
    tail = draw(st.text(max_size=40)).replace("\n", " ").encode("utf-8")
    return head + bad + tail


@st.composite
def with_nuls(draw: st.DrawFn) -> bytes:
    words = draw(st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=8))
    seps = draw(
        st.lists(
            st.sampled_from([b"\x00", b" ", b"\t", b"\x00\x00", b"\r"]),
            min_size=len(words),
            max_size=len(words),
        )
    )
    return b"".join(w.encode("utf-8") + s for w, s in zip(words, seps, strict=True))


@st.composite
def random_tokens(draw: st.DrawFn) -> bytes:
    words = draw(st.lists(st.sampled_from(VOCABULARY) | st.text(max_size=8), max_size=10))
    return " ".join(words).replace("\n", " ").encode("utf-8")


move_shaped = st.builds(
    lambda a, b, c, d: f"{a}{b}{c}{d}",
    st.sampled_from("abcdefghijAI"),
    st.integers(-1, 11),
    st.sampled_from("abcdefghij"),
    st.integers(-1, 11),
)


@st.composite
def move_lines(draw: st.DrawFn) -> bytes:
    moves = draw(st.lists(move_shaped, min_size=0, max_size=6))
    head = draw(
        st.sampled_from(["move", "position startpos moves", f"position fen {FENS[1]} moves"])
    )
    return " ".join([head, *moves]).encode()


malformed = st.one_of(
    no_newline,
    invalid_utf8(),
    with_nuls(),
    st.sampled_from(HUGE),
    st.sampled_from(PARTIAL).map(str.encode),
    random_tokens(),
    move_lines(),
    st.text(max_size=200).map(lambda t: t.replace("\n", " ").encode("utf-8")),
)


def valid_command(data: st.DataObject, mirror: Mirror) -> str:
    """A command that should be accepted, drawn from the mirror's current state."""
    session = mirror.session
    game = session.game
    fmt = session._format
    kind = data.draw(
        st.sampled_from(["move", "move", "position", "undo", "option", "new", "fen", "banmoves"])
    )
    legal = game.board.legal_moves() if game.ruling is None else []
    if kind in ("move", "position") and legal:
        moves = [fmt(m) for m in game.moves]
        chosen = fmt(data.draw(st.sampled_from(legal)))
        if kind == "move":
            return f"move {chosen}"
        start = "startpos" if session.start_fen == FENS[0] else f"fen {session.start_fen}"
        return f"position {start} moves {' '.join([*moves, chosen])}"
    if kind == "undo" and game.ply:
        return f"undo {data.draw(st.integers(0, game.ply))}"
    if kind == "option":
        return data.draw(
            st.sampled_from(
                [
                    "setoption name Notation value fairy",
                    "setoption name Notation value iccs",
                    "setoption name Explain value true",
                    "setoption Explain false",
                    "setoption name MoveLimit value 0",
                    "setoption MoveLimit 100",
                    "setoption Rules axf",
                ]
            )
        )
    if kind == "fen":
        return f"position fen {data.draw(st.sampled_from(FENS))}"
    if kind == "banmoves":
        return "banmoves"
    return "ucinewgame"


#: The first word of every line the protocol may print.
FIRST_WORDS = {
    "id",
    "option",
    "uciok",
    "ucciok",
    "readyok",
    "status",
    "ruling",
    "info",
    "banmoves",
    "error",
}

RESET = [
    b"ucinewgame",
    b"setoption name Notation value iccs",
    b"setoption name Explain value false",
    b"setoption name MoveLimit value 0",
    b"setoption name Rules value axf",
]


def state(process: Process) -> tuple[list[str], ...]:
    return process.ask(b"status"), process.ask(b"uci"), process.ask(b"banmoves")


# --- the process fuzz -----------------------------------------------------------------------


@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)
@given(data=st.data())
def test_fuzz_one_long_lived_process(process: Process, mirror: Mirror, data: st.DataObject) -> None:
    # Each example starts from the same state (so that drawing moves from the mirror's position
    # is reproducible), but in the same process, which has lived through every earlier example.
    for line in RESET:
        assert process.ask(line) == []
    mirror.session = Session()
    for _ in range(data.draw(st.integers(1, 6))):
        if data.draw(st.booleans()):
            line = valid_command(data, mirror).encode()
            got = process.ask(line)
            assert same(got, mirror.feed(line)), line[:200]
            assert not any(g.startswith("error ") for g in got), (line, got)
        raw = data.draw(malformed)
        if is_quit(raw):
            continue
        before = state(process)
        got = process.ask(raw)
        expected = mirror.feed(raw)
        assert same(got, expected), raw[:200]
        assert process.alive()
        event(got[0].split()[1] if got and got[0].startswith("error ") else "accepted")
        if len(raw) > MAX_LINE_BYTES:
            event("over 1 MiB")
        if len(got) == 1 and got[0].startswith("error "):
            assert state(process) == before, f"refused line changed the state: {raw[:200]!r}"
        for out_line in got:
            assert out_line.split(" ", 1)[0] in FIRST_WORDS, out_line[:200]
            assert "\n" not in out_line and "\r" not in out_line


def test_fuzz_session_ends_with_quit(process: Process) -> None:
    """Last: the long-lived process is alive, answers, and quits with status 0."""
    assert process.alive()
    assert process.ask(b"isready") == ["readyok"]
    process.write(b"quit")
    assert process.popen.wait(timeout=TIMEOUT) == 0
    assert process.lines.get(timeout=TIMEOUT) is None  # nothing after quit


# --- in-process properties --------------------------------------------------------------------


def snapshot(session: Session) -> tuple[object, ...]:
    return (
        session.handle("status"),
        session.handle("uci"),
        session.handle("banmoves"),
        session.start_fen,
        [m.iccs() for m in session.game.moves],
        session.game.ruling,
    )


@st.composite
def sessions(draw: st.DrawFn) -> Session:
    """A session with random options and a random legal game (possibly finished)."""
    session = Session()
    for option in draw(
        st.lists(
            st.sampled_from(
                [
                    "setoption name Notation value fairy",
                    "setoption name Explain value true",
                    "setoption name MoveLimit value 3",
                    "setoption name MoveLimit value 0",
                ]
            ),
            max_size=3,
        )
    ):
        session.handle(option)
    session.handle(f"position fen {draw(st.sampled_from(FENS))}")
    for _ in range(draw(st.integers(0, 12))):
        game = session.game
        if game.ruling is not None:
            break
        move = draw(st.sampled_from(game.board.legal_moves()))
        session.handle(f"move {session._format(move)}")
    return session


command_lines = st.one_of(
    st.sampled_from(PARTIAL),
    random_tokens().map(lambda b: b.decode("utf-8")),
    move_lines().map(bytes.decode),
    st.text(max_size=100),
    st.builds(
        lambda w, rest: f"{w} {rest}",
        st.sampled_from(["position", "move", "undo", "setoption", "banmoves", "status"]),
        st.text(max_size=60),
    ),
)


@settings(max_examples=600, deadline=None)
@given(session=sessions(), line=command_lines)
def test_refused_command_leaves_session_unchanged(session: Session, line: str) -> None:
    before = snapshot(session)
    try:
        out = session.handle(line)
    except Exception:
        assert known_internal(line), f"new internal error on {line!r}"
        assert snapshot(session) == before
        return
    if len(out) == 1 and out[0].startswith("error "):
        assert snapshot(session) == before, line


@settings(max_examples=300, deadline=None)
@given(session=sessions(), extra=st.integers(1, 6), data=st.data())
def test_incremental_position_equals_rebuild(
    session: Session, extra: int, data: st.DataObject
) -> None:
    """A GUI's growing line processed incrementally ends where a fresh session's rebuild does."""
    already_over = session.game.ruling is not None
    fresh_options = [line for line in session.handle("uci") if line.startswith("option")]
    start = f"fen {session.start_fen}"
    moves = [session._format(m) for m in session.game.moves]
    outputs = []
    for _ in range(extra):
        game = session.game
        if game.ruling is not None:
            break
        moves.append(session._format(data.draw(st.sampled_from(game.board.legal_moves()))))
        outputs += session.handle(f"position {start} moves {' '.join(moves)}")
    other = Session()
    for option in fresh_options:  # the same options
        words = option.split()
        other.handle(f"setoption name {words[2]} value {words[6]}")
    rebuilt = other.handle(f"position {start} moves {' '.join(moves)}")
    assert other.handle("status") == session.handle("status")
    assert other.handle("banmoves") == session.handle("banmoves")
    rulings = [line for line in outputs if line.startswith("ruling ")]
    if not already_over:
        assert rulings == [line for line in rebuilt if line.startswith("ruling ")]
