"""The protocol process as GUIs and shells really drive it (issue 10, "The protocol process"
and the ``position`` rules of "The proxy must never lose a ruling").

* ``position`` lines that go past a ruling (a client that did not know of it) still get the
  ``ruling`` line, and the game state follows the whole line;
* ``position fen <FEN after the last capture> moves …`` (UCI2WB in UCCI mode) and bare
  ``position fen <FEN>`` lines are recognised as the game already followed: its repetition
  history, move-limit count and ply numbers are kept;
* a ``setoption`` that ends the game prints the ruling;
* error lines quote a bounded slice of the input;
* a UTF-8 byte-order mark, EPIPE on stdout and Ctrl-C;
* the work per ``position`` line does not depend on the game's length (counted, not timed).
"""

from __future__ import annotations

import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from xqadj.board import Board, Move
from xqadj.protocol import Session

MAX_QUOTE_CHARS = 40  # PROTOCOL.md: an error line quotes at most 40 characters of a piece of input

ROOT = Path(__file__).resolve().parents[1]
XQADJ = [sys.executable, "-m", "xqadj"]

# WXF-D001: Red checks on every move; the eighth ply completes the third occurrence (0-1).
D001_FEN = "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w"
D001 = "h8h9 f9f8 h9h8 f8f9 h8h9 f9f8 h9h8 f8f9".split()
D001_RULING = (
    "ruling result 0-1 reason perpetual-check ply 8 offender red article art.6 cycle "
    + " ".join(D001)
)


def position(fen: str, moves: list[str]) -> str:
    return f"position fen {fen} moves {' '.join(moves)}".rstrip()


def status(session: Session) -> str:
    [line] = session.handle("status")
    return line


# --- position lines past a ruling ------------------------------------------------------------


def test_a_line_that_skips_the_ruling_ply_still_gets_the_ruling() -> None:
    """A GUI sends an engine its line only on the engine's turn: ply 7, then ply 9."""
    session = Session()
    assert session.handle(position(D001_FEN, D001[:7])) == []
    assert session.handle(position(D001_FEN, [*D001, "h8h9"])) == [D001_RULING]
    # The game state follows the whole line; the result is the ruling's.
    assert status(session).startswith("status ply 9 occurrences 3 result 0-1")
    # The game goes on as the GUI plays it: followed, not ruled again, not refused.
    assert session.handle(position(D001_FEN, [*D001, "h8h9", "f9f8"])) == []
    assert status(session).startswith("status ply 10 occurrences 3 result 0-1")
    # banmoves: the game is over, nothing more can lose by rule.
    assert session.handle("banmoves") == ["banmoves"]


def test_a_rebuilt_line_past_its_ruling_is_accepted_with_the_ruling() -> None:
    session = Session()
    line = "position startpos moves h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9 h2e2"
    out = session.handle(line)
    assert out == [
        "ruling result 1/2-1/2 reason repetition ply 8 offender none article art.5 cycle "
        "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9"
    ]
    assert status(session).startswith("status ply 9 occurrences 1 result 1/2-1/2")


def test_takebacks_around_a_ruling() -> None:
    session = Session()
    session.handle(position(D001_FEN, [*D001, "h8h9", "f9f8"]))
    # A takeback that keeps the ruling move keeps the ruling, and it is not printed again.
    assert session.handle(position(D001_FEN, [*D001, "h8h9"])) == []
    assert status(session).startswith("status ply 9 occurrences 3 result 0-1")
    assert session.handle("undo") == []
    assert status(session).startswith("status ply 8 occurrences 3 result 0-1")
    # Taking back the ruling move reopens the game; playing it again rules again.
    assert session.handle(position(D001_FEN, D001[:7])) == []
    assert " result * " in status(session)
    assert session.handle(position(D001_FEN, D001)) == [D001_RULING]
    # `move` after a ruling is still refused: a manager using it was told of the ruling.
    [error] = session.handle("move h8h9")
    assert error.startswith("error game-over h8h9 index 0")


def test_an_illegal_move_past_the_ruling_refuses_the_whole_line() -> None:
    session = Session()
    session.handle(position(D001_FEN, D001[:7]))
    before = status(session)
    [error] = session.handle(position(D001_FEN, [*D001, "a0a9"]))
    assert error.startswith("error illegal-move a0a9 index 8")
    assert status(session) == before


# --- FEN lines that continue the game followed -----------------------------------------------

# After a capture and a pawn move, Red's rook checks on every move (WXF-D001's cycle): the
# third occurrence falls at ply 10 of the game.
CAPTURE_GAME = "h8h9 f9f8 h9h8 f8f9 h8h9 f9f8 h9h8 f8f9".split()


def test_uci2wb_fen_after_the_last_capture_keeps_the_game() -> None:
    """UCI2WB in UCCI mode starts each line at the position after the last capture."""
    start = "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/R3K4/r8 w"  # Red's rook takes on a0 at ply 1
    session = Session()
    session.handle(position(start, ["a1a0"]))
    after_capture = Board(start)
    after_capture.push_iccs("a1a0")
    fen = after_capture.fen()
    outputs = []
    game = ["i6i5", *CAPTURE_GAME]
    for ply in range(1, len(game) + 1):
        outputs += session.handle(position(fen, game[:ply]))
    rulings = [line for line in outputs if line.startswith("ruling ")]
    # Ply numbers count from the start of the game followed, not from the FEN of the line.
    assert rulings == [
        "ruling result 0-1 reason perpetual-check ply 10 offender red article art.6 cycle "
        + " ".join(CAPTURE_GAME)
    ]
    assert status(session).startswith("status ply 10 occurrences 3 result 0-1")
    # The followed game still starts where it started: a takeback to ply 1 is a prefix.
    session.handle(position(start, ["a1a0"]))
    assert status(session).startswith("status ply 1 ")


def test_a_fen_that_did_not_follow_a_capture_starts_a_new_game() -> None:
    """Only the position after a capture is looked up (UCCI's recommendation): a client that sets
    up a position seen earlier in the game, without a capture before it, starts a new game."""
    board = Board(D001_FEN)
    board.push_iccs("h8h9")
    session = Session()
    session.handle(position(D001_FEN, D001[:4]))
    session.handle(position(board.fen(), D001[1:4]))
    assert status(session).startswith("status ply 3 occurrences 1 ")


def test_a_capture_the_client_did_not_see_is_found() -> None:
    """In front of one engine the proxy may miss one or two plies, the last a capture."""
    session = Session()
    fen = "4k4/9/9/9/9/9/9/r8/4A4/R3K4 w"
    session.handle(f"position fen {fen} moves e0d0")
    board = Board(fen)
    for text in ("e0d0", "e9e8", "a0a2"):  # Black's e9e8 and Red's capture a0a2 are unseen
        board.push_iccs(text)
    assert session.handle(f"position fen {board.fen()} moves e8e9") == []
    assert status(session).startswith("status ply 4 ")


def test_a_fen_of_another_game_starts_a_new_game() -> None:
    session = Session()
    session.handle(position(D001_FEN, D001[:4]))
    session.handle("position fen 3k5/9/9/9/8p/9/9/9/R8/1R2K4 w moves a1a8")
    assert status(session).startswith("status ply 1 ")


# --- setoption --------------------------------------------------------------------------------


def test_setoption_that_ends_the_game_prints_the_ruling() -> None:
    session = Session()
    session.handle("position startpos moves h2e2 h9g7 h0g2 i9h9")
    assert session.handle("setoption name MoveLimit value 2") == [
        "ruling result 1/2-1/2 reason move-limit ply 4 offender none article move-limit cycle"
    ]
    # The same value again changes nothing and prints nothing.
    assert session.handle("setoption name MoveLimit value 2") == []


def test_setoption_ruling_before_the_last_ply_keeps_the_moves() -> None:
    session = Session()
    session.handle("position startpos moves h2e2 h9g7 h0g2 i9h9 b0c2")
    assert session.handle("setoption name MoveLimit value 2") == [
        "ruling result 1/2-1/2 reason move-limit ply 4 offender none article move-limit cycle"
    ]
    assert status(session).startswith("status ply 5 occurrences 1 result 1/2-1/2")


# --- bounded error lines ----------------------------------------------------------------------

LONG = "x" * 100_000


@pytest.mark.parametrize(
    "line",
    [
        LONG,
        f"position startpos {LONG}",
        f"position {LONG}",
        f"position fen {LONG}",
        f"position fen 1C5C{LONG}/9/9/9/9/9/9/9/9/4K4 w",
        f"position startpos moves {LONG}",
        f"setoption name {LONG} value 1",
        f"setoption name Rules value {LONG}",
        f"setoption name MoveLimit value {LONG}",
        f"setoption {LONG} 1",
        f"undo {LONG}",
        f"banmoves {LONG}",
        f"status {LONG}",
        f"move {LONG}",
    ],
    ids=lambda line: line[:24],
)
def test_error_lines_quote_a_bounded_slice(line: str) -> None:
    [error] = Session().handle(line)
    assert error.startswith("error ")
    assert len(error) <= 300, error[:400]
    assert "x" * (MAX_QUOTE_CHARS + 1) not in error


# --- transport ----------------------------------------------------------------------------------


def run(data: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(XQADJ, input=data, capture_output=True, timeout=60, cwd=str(ROOT))


def test_a_byte_order_mark_before_the_first_command_is_ignored() -> None:
    result = run(b"\xef\xbb\xbfuci\nisready\n")
    lines = result.stdout.decode().splitlines()
    assert lines[0] == "id name xqadj 0.1.0"
    assert lines[-2:] == ["uciok", "readyok"]
    assert result.returncode == 0 and result.stderr == b""


def test_a_byte_order_mark_later_is_not_a_command() -> None:
    result = run(b"isready\n\xef\xbb\xbfuci\n")
    assert result.stdout.decode().splitlines()[1].startswith("error unknown-command")


def test_epipe_on_stdout_ends_the_process_quietly() -> None:
    child = subprocess.Popen(
        XQADJ, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=str(ROOT)
    )
    assert child.stdin is not None and child.stdout is not None and child.stderr is not None
    child.stdin.write(b"isready\n")
    child.stdin.flush()
    assert child.stdout.readline() == b"readyok\n"
    child.stdout.close()  # the client stops reading
    try:
        for _ in range(2000):
            child.stdin.write(b"uci\n")
        child.stdin.flush()
        child.stdin.close()
    except BrokenPipeError:
        pass  # the process already ended, as it should
    assert child.wait(timeout=60) == 0
    assert child.stderr.read() == b""


def test_ctrl_c_ends_the_process_quietly() -> None:
    child = subprocess.Popen(
        XQADJ, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=str(ROOT)
    )
    assert child.stdin is not None and child.stdout is not None and child.stderr is not None
    child.stdin.write(b"isready\n")
    child.stdin.flush()
    assert child.stdout.readline() == b"readyok\n"
    child.send_signal(signal.SIGINT)
    assert child.wait(timeout=60) == 130
    assert child.stderr.read() == b""
    child.stdin.close()
    child.stdout.close()


# --- the work per position line ---------------------------------------------------------------


def random_walk(plies: int, seed: int = 10) -> tuple[str, list[str]]:
    """A game of ``plies`` quiet moves that never reaches a third occurrence nor a mate: rooks,
    knights and cannons wandering, never giving check.  Used to count per-line work at two game
    lengths."""
    fen = "2bakab2/9/1cn2r3/4p4/9/9/4P4/1CN2R3/9/2BAKAB2 w"
    rng = random.Random(seed)
    board = Board(fen)
    moves: list[str] = []
    while len(moves) < plies:
        candidates = [m for m in board.legal_moves() if not board.squares[m.to_square]]
        rng.shuffle(candidates)
        for move in candidates:
            board.push(move)
            if board.repetition_count() < 3 and not board.is_check() and board.has_legal_move():
                moves.append(move.iccs())
                break
            board.pop()
        else:
            raise AssertionError("the walk is stuck")
    return fen, moves


def test_per_line_work_does_not_grow_with_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Formatting and parsing per growing line: the new moves only, at ply 100 as at ply 1500."""
    fen, moves = random_walk(1500)
    session = Session()
    calls = {"format": 0, "parse": 0}
    iccs, from_iccs = Move.iccs, Move.from_iccs

    def counted_iccs(self: Move) -> str:
        calls["format"] += 1
        return iccs(self)

    def counted_from_iccs(text: str) -> Move:
        calls["parse"] += 1
        return from_iccs(text)

    monkeypatch.setattr(Move, "iccs", counted_iccs)
    monkeypatch.setattr(Move, "from_iccs", staticmethod(counted_from_iccs))
    work = {}
    for ply in range(1, len(moves) + 1):
        before = dict(calls)
        out = session.handle(position(fen, moves[:ply]))
        assert out == [], (ply, out)
        work[ply] = (calls["format"] - before["format"], calls["parse"] - before["parse"])
    assert work[100] == work[1500]
    assert work[1500][0] + work[1500][1] <= 2


# --- property: any sequence of lines ends where a fresh session fed the last line ends -----------

FENS = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
    D001_FEN,
    "1r2kab2/4a4/4b4/p1p1p3p/5R3/2P2N3/PC2P3P/4Cr3/1R3c3/2B1KA3 w",  # WXF-D022
    "3akr3/5c3/1P2b4/4R4/9/9/9/9/9/4CK3 w",  # WXF-D004
]


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_lines_in_any_order_end_as_the_last_line_alone(data: st.DataObject) -> None:
    """Growing lines, takebacks and lines past a ruling, in any order through one session (the
    fast path, the common prefix, the ruling kept or undone): each ends in the state a fresh
    session reaches from that line alone, and a ruling line is printed only when new."""
    fen = data.draw(st.sampled_from(FENS))
    board = Board(fen)
    game: list[str] = []
    if fen == D001_FEN and data.draw(st.booleans()):
        game = list(D001)  # a ruling at ply 8, and the game goes on past it
        for text in game:
            board.push_iccs(text)
    for _ in range(data.draw(st.integers(4, 24))):
        legal = board.legal_moves()
        if not legal:
            break
        move = data.draw(st.sampled_from(legal))
        board.push(move)
        game.append(move.iccs())
    session = Session()
    for _ in range(data.draw(st.integers(1, 8))):
        length = data.draw(st.integers(0, len(game)))
        line = position(fen, game[:length])
        before = session.handle("status")
        out = session.handle(line)
        fresh = Session()
        fresh_out = fresh.handle(line)
        assert session.handle("status") == fresh.handle("status"), line
        assert session.handle("banmoves") == fresh.handle("banmoves"), line
        rulings = [text for text in out if text.startswith("ruling ")]
        fresh_rulings = [text for text in fresh_out if text.startswith("ruling ")]
        assert rulings in ([], fresh_rulings)
        had = " result * " not in before[0]
        has = " result * " not in session.handle("status")[0]
        if has and not had:  # a new ruling is always printed
            assert rulings == fresh_rulings != []
        if not has:
            assert rulings == []
