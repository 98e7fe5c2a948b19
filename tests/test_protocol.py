"""The line protocol (protocol/PROTOCOL.md) against the real process, ``python -m xqadj``.

* every conformance transcript in ``protocol/`` (format: ``protocol/README.md``), replayed command
  by command and as one stream, with LF and with CR LF line ends, and through the console script;
* the handshake, through pipes and through a pseudo-terminal;
* every line of the AXF rulebook cases (``axf-cases.tsv``), played as a GUI does (a growing
  ``position fen … moves …`` line after every ply) and as a match manager does (``move`` per ply),
  in one process: no ruling before ``ruling_ply``, the ruling line exactly at it;
* every error path, followed by ``status`` (and the options) showing the state unchanged;
* transport: over-long lines, invalid UTF-8, NUL bytes, CR LF, a last line without a newline,
  ``quit`` and end of input (exit status 0), and stdout purity (nothing but protocol lines).

Run as a script, ``python tests/test_protocol.py --regenerate protocol/NAME.transcript`` rewrites
the ``<`` lines of a transcript from the real process (read the diff against the spec after).
"""

from __future__ import annotations

import csv
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pexpect
import pexpect.popen_spawn
import pytest
from test_cxa import case_params  # the CXA cases' xfail list lives there

ROOT = Path(__file__).resolve().parents[1]
PROTOCOL_DIR = ROOT / "protocol"
TRANSCRIPTS = sorted(PROTOCOL_DIR.glob("*.transcript"))
XQADJ = [sys.executable, "-m", "xqadj"]
TIMEOUT = 20  # seconds for any one answer; generous for a loaded CI machine
MAX_LINE_BYTES = 1 << 20

STARTPOS_STATUS = (
    "status ply 0 occurrences 1 result * reason none fen "
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"
)

ERROR_CODES = (
    "unknown-command bad-position bad-fen bad-move illegal-move game-over bad-option bad-value "
    "bad-argument line-too-long bad-encoding internal"
).split()
REASONS = "checkmate|stalemate|perpetual-check|perpetual-chase|perpetual-kill|repetition|move-limit"
#: Every line the protocol may print (PROTOCOL.md, "Commands" and "Output").
PROTOCOL_LINE = re.compile(
    rf"""
    id\ name\ \S.*
    | id\ author\ \S.*
    | option\ (?:name\ )?(?:Rules|Notation|MoveLimit|Explain|ForbiddenRun)
      \ type\ (?:combo|spin|check)\ default\ \S+.*
    | uciok | ucciok | readyok
    | status\ ply\ \d+\ occurrences\ \d+\ result\ (?:\*|1-0|0-1|1/2-1/2)
      \ reason\ (?:none|{REASONS})\ fen\ [^\s]+\ [wb]
    | ruling\ result\ (?:1-0|0-1|1/2-1/2)\ reason\ (?:{REASONS})\ ply\ \d+
      \ offender\ (?:red|black|none)\ article\ \S+\ cycle(?:\ \S+)*
    | info\ string\ \S.*
    | banmoves(?:\ [a-i](?:10|[0-9])[a-i](?:10|[0-9]))*
    | error\ (?:{"|".join(ERROR_CODES)})\ \S.*
    """,
    re.VERBOSE,
)


def console_script() -> str | None:
    """The ``xqadj`` console script: on PATH, or beside the running interpreter."""
    found = shutil.which("xqadj")
    if found:
        return found
    beside = Path(sys.executable).parent / "xqadj"
    return str(beside) if beside.exists() else None


LAUNCHERS = {
    "python-m": XQADJ,
    "console-script": [console_script() or "xqadj"],
}


def launcher(name: str) -> list[str]:
    if name == "console-script" and console_script() is None:
        pytest.skip("the xqadj console script is not installed")
    return LAUNCHERS[name]


def cases_file() -> Path | None:
    """``tests/data/axf-cases.tsv`` if the project has a copy, else the shared one."""
    for path in (
        ROOT / "tests" / "data" / "axf-cases.tsv",
        ROOT.parent / "shared" / "cases" / "axf-cases.tsv",
    ):
        if path.exists():
            return path
    return None


def load_cases() -> list[dict[str, str]]:
    path = cases_file()
    if path is None:
        return []
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


CASES = load_cases()


# --- driving the process -----------------------------------------------------------------


class Proc:
    """The real process behind pipes (pexpect's PopenSpawn), one protocol line at a time.

    Pipes, not a terminal: this is how GUIs and match managers run engines, and it checks that
    output is flushed after every command (a terminal would line-buffer it for free).
    """

    def __init__(self, argv: list[str] | None = None, env: dict[str, str] | None = None) -> None:
        self.child = pexpect.popen_spawn.PopenSpawn(
            argv or XQADJ, encoding="utf-8", timeout=TIMEOUT, env=env, cwd=str(ROOT)
        )
        self._marker = 0

    def send(self, line: str, end: str = "\n") -> None:
        self.child.send(line + end)

    def readline(self) -> str:
        self.child.expect_exact("\n")
        return str(self.child.before)

    def ask(self, line: str) -> list[str]:
        """Send a command then ``isready``; return the command's output (all before readyok)."""
        self.send(line)
        self.send("isready")
        out = []
        while (got := self.readline()) != "readyok":
            out.append(got)
        return out

    def ask_marked(self, line: str, end: str = "\n") -> list[str]:
        """Like :meth:`ask`, for any command (``isready`` too): the sync line is a unique unknown
        command, answered ``error unknown-command <it>``."""
        self._marker += 1
        marker = f"xqadj-sync-{self._marker}"
        self.send(line, end)
        self.send(marker, end)
        out = []
        while (got := self.readline()) != f"error unknown-command {marker}":
            out.append(got)
        return out

    def status(self) -> str:
        [line] = self.ask("status")
        return line

    def options(self) -> list[str]:
        return self.ask("uci")

    def quit(self) -> int:
        self.send("quit")
        self.child.expect(pexpect.EOF)
        assert str(self.child.before) == "", "output after quit"
        return int(self.child.wait())

    def close(self) -> None:
        if self.child.proc.poll() is None:
            self.child.proc.kill()
            self.child.proc.wait()


@pytest.fixture
def proc() -> Iterator[Proc]:
    process = Proc()
    yield process
    process.close()


@pytest.fixture(scope="module")
def shared_proc() -> Iterator[Proc]:
    """One process for many tests (the AXF cases): ``ucinewgame`` between them."""
    process = Proc()
    yield process
    assert process.quit() == 0
    process.close()


def run_bytes(data: bytes, argv: list[str] | None = None) -> subprocess.CompletedProcess[bytes]:
    """Feed raw bytes on stdin, close it, and collect everything."""
    return subprocess.run(
        argv or XQADJ, input=data, capture_output=True, timeout=120, cwd=str(ROOT), check=False
    )


# --- transcripts -------------------------------------------------------------------------


@dataclass
class Exchange:
    command: str
    expected: list[str] = field(default_factory=list)
    lineno: int = 0


def parse_transcript(path: Path) -> list[Exchange]:
    exchanges: list[Exchange] = []
    for lineno, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if raw.startswith("> ") or raw == ">":
            exchanges.append(Exchange(raw[2:], lineno=lineno))
        elif raw.startswith("< "):
            if not exchanges:
                raise ValueError(f"{path.name}:{lineno}: output before any command")
            exchanges[-1].expected.append(raw[2:])
        elif raw.startswith("#") or not raw.strip():
            continue
        else:
            raise ValueError(f"{path.name}:{lineno}: not a transcript line: {raw!r}")
    return exchanges


def ends_with_quit(exchanges: list[Exchange]) -> bool:
    return bool(exchanges) and exchanges[-1].command.split()[:1] == ["quit"]


def test_transcripts_exist() -> None:
    names = {path.stem for path in TRANSCRIPTS}
    required = {
        "handshake",
        "options",
        "position",
        "move-undo",
        "banmoves",
        "status",
        "errors",
        "fairy-notation",
        "explain",
    }
    assert required <= names, f"missing transcripts: {sorted(required - names)}"


@pytest.mark.parametrize("end", ["\n", "\r\n"], ids=["lf", "crlf"])
@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: p.stem)
def test_transcript_by_command(path: Path, end: str) -> None:
    """Each command's output, on its own (a sync line after each command)."""
    exchanges = parse_transcript(path)
    process = Proc()
    try:
        for exchange in exchanges:
            if exchange.command.split()[:1] == ["quit"]:
                process.send(exchange.command, end)
                process.child.expect(pexpect.EOF)
                assert str(process.child.before) == "", "output after quit"
                assert process.child.wait() == 0
                break
            got = process.ask_marked(exchange.command, end)
            assert got == exchange.expected, f"{path.name}:{exchange.lineno}: > {exchange.command}"
        else:
            process.child.sendeof()
            process.child.expect(pexpect.EOF)
            assert process.child.wait() == 0
    finally:
        process.close()


@pytest.mark.parametrize("how", sorted(LAUNCHERS))
@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: p.stem)
def test_transcript_as_stream(path: Path, how: str) -> None:
    """The whole transcript written at once: stdout is exactly the ``<`` lines, exit status 0."""
    exchanges = parse_transcript(path)
    data = "".join(exchange.command + "\n" for exchange in exchanges).encode("utf-8")
    result = run_bytes(data, launcher(how))
    expected = [line for exchange in exchanges for line in exchange.expected]
    assert result.stdout.decode("utf-8").splitlines() == expected
    assert result.returncode == 0
    assert result.stderr == b""


# --- handshake and commands --------------------------------------------------------------

HANDSHAKE = [
    "id name xqadj 0.1.0",
    "id author the xqadj developers",
    "option name Rules type combo default axf var axf var cxa",
    "option name Notation type combo default iccs var iccs var fairy",
    "option name MoveLimit type spin default 0 min 0 max 100000",
    "option name Explain type check default false",
    "option name ForbiddenRun type check default false",
    "uciok",
]


@pytest.mark.parametrize("how", sorted(LAUNCHERS))
def test_handshake_over_pipes(how: str) -> None:
    process = Proc(launcher(how))
    try:
        process.send("uci")
        for line in HANDSHAKE:
            assert process.readline() == line
        process.send("ucci")
        for line in HANDSHAKE[:2]:
            assert process.readline() == line
        for line in HANDSHAKE[2:-1]:
            assert process.readline() == line.replace("option name ", "option ")
        assert process.readline() == "ucciok"
        process.send("isready")
        assert process.readline() == "readyok"
        assert process.quit() == 0
    finally:
        process.close()


def test_version_matches_package() -> None:
    from xqadj import __version__

    assert HANDSHAKE[0] == f"id name xqadj {__version__}"


def test_handshake_through_a_terminal() -> None:
    """A GUI that runs the adjudicator on a pseudo-terminal gets the same lines."""
    child = pexpect.spawn(
        XQADJ[0], XQADJ[1:], encoding="utf-8", timeout=TIMEOUT, echo=False, cwd=str(ROOT)
    )
    try:
        child.sendline("uci")
        for line in HANDSHAKE:
            child.expect_exact(line + "\r\n")
        child.sendline("isready")
        child.expect_exact("readyok\r\n")
        child.sendline("quit")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
    finally:
        if child.isalive():
            child.terminate(force=True)


def test_nothing_is_printed_before_a_command(proc: Proc) -> None:
    proc.send("isready")
    assert proc.readline() == "readyok"


def test_every_command_is_known(proc: Proc) -> None:
    """Every command of the spec is accepted, with its documented answer."""
    assert proc.ask_marked("uci")[-1] == "uciok"
    assert proc.ask_marked("ucci")[-1] == "ucciok"
    assert proc.ask_marked("isready") == ["readyok"]
    assert proc.ask("setoption name MoveLimit value 0") == []
    assert proc.ask("setoption MoveLimit 0") == []
    assert proc.ask("ucinewgame") == []
    assert proc.ask("position startpos moves h2e2") == []
    assert (
        proc.ask("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b") == []
    )
    assert proc.ask("move h9g7") == []
    assert proc.ask("undo") == []
    assert proc.ask("banmoves") == ["banmoves"]
    assert proc.status() == (
        "status ply 0 occurrences 1 result * reason none fen "
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b"
    )
    assert proc.quit() == 0


def test_ucinewgame_forgets_the_game_and_keeps_the_options(proc: Proc) -> None:
    proc.ask("setoption name Notation value fairy")
    proc.ask("position fen c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w moves h9h10")
    assert proc.ask("ucinewgame") == []
    assert proc.status() == STARTPOS_STATUS
    assert "option name Notation type combo default fairy var iccs var fairy" in proc.options()
    assert proc.ask("move h3e3") == []  # still fairy


def test_ruling_is_printed_once_before_readyok(proc: Proc) -> None:
    fen = "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w"
    moves = "h8h9 f9f8 h9h8 f8f9 h8h9 f9f8 h9h8 f8f9"
    proc.send(f"position fen {fen} moves {moves}")
    proc.send("isready")
    assert proc.readline().startswith("ruling result 0-1 reason perpetual-check ply 8 ")
    assert proc.readline() == "readyok"
    assert proc.ask(f"position fen {fen} moves {moves}") == []
    assert proc.status().startswith("status ply 8 occurrences 3 result 0-1 ")


# --- the AXF rulebook cases --------------------------------------------------------------


def ruling_pattern(case: dict[str, str]) -> re.Pattern[str]:
    result = re.escape(case["result"])
    ply = int(case["ruling_ply"])
    return re.compile(
        rf"ruling result {result} reason (?:{REASONS}) ply {ply} offender (?:red|black|none) "
        rf"article \S+ cycle(?: [a-i][0-9][a-i][0-9])*"
    )


def check_case_output(case: dict[str, str], ply: int, out: list[str]) -> None:
    ruling_ply = int(case["ruling_ply"])
    where = f"{case['id']} ply {ply}"
    if ply < ruling_ply:
        assert out == [], f"{where}: output before the ruling ply {ruling_ply}: {out}"
    else:
        assert len(out) == 1, f"{where}: expected exactly one ruling line, got {out}"
        assert ruling_pattern(case).fullmatch(out[0]), f"{where}: {out[0]}"


def after_ruling(proc: Proc, case: dict[str, str], moves: list[str], line: str) -> None:
    """The same final line again prints nothing; a further move (if the case has one) is refused."""
    ruling_ply = int(case["ruling_ply"])
    status = proc.status()
    assert status.startswith(f"status ply {ruling_ply} ")
    assert f" result {case['result']} " in status
    if len(moves) > ruling_ply:
        extended = line + " " + moves[ruling_ply] if " moves " in line else None
        if extended is not None:
            [error] = proc.ask(extended)
        else:
            [error] = proc.ask(f"move {moves[ruling_ply]}")
        assert error.startswith("error game-over "), error
        assert proc.status() == status


@pytest.mark.skipif(not CASES, reason="axf-cases.tsv not found")
@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_axf_case_growing_position_line(shared_proc: Proc, case: dict[str, str]) -> None:
    """(a) A GUI: the whole ``position fen <fen> moves …`` line again after every ply."""
    proc = shared_proc
    assert proc.ask("ucinewgame") == []
    moves = case["moves"].split()
    ruling_ply = int(case["ruling_ply"])
    line = f"position fen {case['fen']}"
    check_case_output(case, 0, proc.ask(line))
    for ply in range(1, ruling_ply + 1):
        line = f"position fen {case['fen']} moves {' '.join(moves[:ply])}"
        check_case_output(case, ply, proc.ask(line))
    assert proc.ask(line) == [], "the same line again must not print the ruling again"
    after_ruling(proc, case, moves, line)


@pytest.mark.skipif(not CASES, reason="axf-cases.tsv not found")
@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_axf_case_move_per_ply(shared_proc: Proc, case: dict[str, str]) -> None:
    """(b) A match manager: ``position fen <fen>`` once, then ``move <m>`` per ply."""
    proc = shared_proc
    assert proc.ask("ucinewgame") == []
    moves = case["moves"].split()
    ruling_ply = int(case["ruling_ply"])
    check_case_output(case, 0, proc.ask(f"position fen {case['fen']}"))
    for ply in range(1, ruling_ply + 1):
        check_case_output(case, ply, proc.ask(f"move {moves[ply - 1]}"))
    after_ruling(proc, case, moves, "move")


def load_cxa_cases() -> list[dict[str, str]]:
    path = ROOT / "tests" / "data" / "cxa-cases.tsv"
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


CXA_CASES = load_cxa_cases()


@pytest.mark.parametrize("case", case_params(CXA_CASES))
def test_cxa_case_growing_position_line(shared_proc: Proc, case: dict[str, str]) -> None:
    """Every CXA 2020 case under ``Rules cxa``, as a GUI sends it: the ruling at exactly its ply,
    with the rulebook's result; the labels come in the Explain lines."""
    proc = shared_proc
    assert proc.ask("ucinewgame") == []
    assert proc.ask("setoption name Rules value cxa") == []
    try:
        moves = case["moves"].split()
        ruling_ply = int(case["ruling_ply"])
        for ply in range(ruling_ply + 1):
            line = f"position fen {case['fen']}" + (
                f" moves {' '.join(moves[:ply])}" if ply else ""
            )
            check_case_output(case, ply, proc.ask(line))
        assert proc.status().startswith(
            f"status ply {ruling_ply} occurrences 3 result {case['result']} "
        )
        assert proc.ask("setoption name Explain value true") == []
        out = proc.ask(line.rsplit(" ", 1)[0])  # one ply back, then the ruling move again
        assert out == []
        out = proc.ask(line)
        labels = [entry.split()[-1] for entry in out if entry.startswith("info string move ")]
        assert len(labels) == len(out) - 2 and set(labels) <= set("将杀捉兑献拦跟闲")
    finally:
        proc.ask("setoption name Explain value false")
        proc.ask("ucinewgame")
        proc.ask("setoption name Rules value axf")


def test_axf_cases_file_is_complete() -> None:
    if not CASES:
        pytest.skip("axf-cases.tsv not found")
    for case in CASES:
        assert {"id", "fen", "moves", "ruling_ply", "result"} <= case.keys()
        assert int(case["ruling_ply"]) <= len(case["moves"].split())


# --- error paths: refused, state unchanged -----------------------------------------------

D001_FEN = "c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w"
D001_MOVES = "h8h9 f9f8 h9h8 f8f9 h8h9 f9f8 h9h8 f8f9"

#: A few states to refuse commands in: the start, a game under way, a finished game, fairy.
SETUPS = {
    "start": [],
    "midgame": ["setoption name MoveLimit value 50", "position startpos moves h2e2 h9g7 h0g2"],
    "finished": [
        "setoption name Explain value true",
        f"position fen {D001_FEN} moves {D001_MOVES}",
    ],
    "fairy": ["setoption name Notation value fairy", "position startpos moves h3e3 h10g8"],
}

#: (line, error code): every refusal a line can cause (spec: "Output", error table).
REFUSALS = [
    ("go infinite", "unknown-command"),
    ("Position startpos", "unknown-command"),
    ("stop", "unknown-command"),
    ("position", "bad-position"),
    ("position startpos fen", "bad-position"),
    ("position foo moves h2e2", "bad-position"),
    ("position fen", "bad-fen"),
    ("position fen 9/9/9 w", "bad-fen"),
    ("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w", "bad-fen"),
    ("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR q", "bad-fen"),
    ("position fen 4k4/9/9/9/9/9/9/9/9/4K4 w", "bad-fen"),
    ("position fen 4k4/9/9/9/9/9/9/9/9/9 w", "bad-fen"),
    ("position fen 3k5/9/9/9/9/9/9/9/9/PPPPPPK2 w", "bad-fen"),
    ("position startpos moves h2e2 xyz", "bad-move"),
    ("move z1 h2e2", "bad-move"),
    ("position startpos moves h2e2 h2e2", "illegal-move"),
    ("position startpos moves a0a5", "illegal-move"),
    # Past the ruling a line is followed (PROTOCOL.md), but an illegal move refuses it whole.
    (f"position fen {D001_FEN} moves {D001_MOVES} h8h9 a0a9", "illegal-move"),
    ("setoption name Threads value 2", "bad-option"),
    ("setoption", "bad-option"),
    ("setoption name", "bad-option"),
    ("setoption Threads 2", "bad-option"),
    ("setoption name Rules value chinese", "bad-value"),
    ("setoption name MoveLimit value 100001", "bad-value"),
    ("setoption name MoveLimit value 0x10", "bad-value"),
    ("setoption name Explain value 1", "bad-value"),
    ("setoption Notation ucci", "bad-value"),
    ("undo 1000", "bad-argument"),
    ("undo -1", "bad-argument"),
    ("undo 1 2", "bad-argument"),
    ("undo one", "bad-argument"),
    ("banmoves h2e2", "bad-argument"),
    ("status full", "bad-argument"),
]

#: Refusals that once crashed the server with ``error internal``: kept as regressions.
FORMER_CRASHES = [
    pytest.param("position moves h2e2", "bad-position", id="position-moves-without-start"),
    pytest.param("setoption name MoveLimit value \u00b2", "bad-value", id="movelimit-superscript"),
    pytest.param("undo " + "9" * 5000, "bad-argument", id="undo-5000-digits"),
    pytest.param("undo \u00b2", "bad-argument", id="undo-superscript"),
    pytest.param("undo \u0663", "bad-argument", id="undo-arabic-indic-digit"),
]


def check_refused(proc: Proc, setup: list[str], line: str, code: str) -> None:
    proc.ask("ucinewgame")
    for option in ("Rules axf", "Notation iccs", "MoveLimit 0", "Explain false"):
        proc.ask(f"setoption {option}")
    for command in setup:
        proc.ask(command)
    status, options, banmoves = proc.status(), proc.options(), proc.ask("banmoves")
    out = proc.ask(line)
    assert len(out) == 1 and out[0].startswith(f"error {code} "), out
    assert proc.status() == status
    assert proc.options() == options
    assert proc.ask("banmoves") == banmoves


@pytest.mark.parametrize("setup", sorted(SETUPS))
@pytest.mark.parametrize(("line", "code"), [*REFUSALS, *FORMER_CRASHES])
def test_refused_command_changes_nothing(
    shared_proc: Proc, setup: str, line: str, code: str
) -> None:
    if setup == "fairy":
        if D001_FEN in line:
            pytest.skip("the D001 line is written in ICCS")
        # Moves are read as fairy moves here: use fairy tokens with the same meaning.
        line = line.replace("h2e2", "h3e3").replace("a0a5", "a1a6").replace(" h9", " h10")
    if setup == "finished" and line.startswith("move "):
        code = "game-over"  # after a ruling, any move is refused as game-over
    check_refused(shared_proc, SETUPS[setup], line, code)


def test_illegal_move_reports_index_and_position(proc: Proc) -> None:
    proc.ask("position startpos moves h2e2 h9g7")
    [error] = proc.ask("move h0g2 i9h9 e2e9")
    assert error == (
        "error illegal-move e2e9 index 2 not legal in "
        "rnbakabr1/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w"
    )
    [error] = proc.ask("position startpos moves h2e2 h9g7 h0g2 i9h9 e2e9")
    assert error.startswith("error illegal-move e2e9 index 4 ")


def test_bad_move_reports_token_and_index(proc: Proc) -> None:
    [error] = proc.ask("position startpos moves h2e2 h9g7 z9z9")
    assert error.startswith("error bad-move z9z9 index 2 ")
    assert proc.status() == STARTPOS_STATUS


def test_unknown_command_repeats_the_line(proc: Proc) -> None:
    assert proc.ask("go depth 10") == ["error unknown-command go depth 10"]


# --- transport ---------------------------------------------------------------------------


def test_line_too_long_is_skipped_whole() -> None:
    head = b"position startpos moves "
    body = b"h2e2 h9g7 e2h2 g7h9 " * (MAX_LINE_BYTES // 20 + 10)
    data = b"position startpos moves h2e2\n" + head + body + b"\nstatus\n"
    result = run_bytes(data)
    lines = result.stdout.decode().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("error line-too-long ")
    assert lines[1].startswith("status ply 1 ")
    assert result.returncode == 0


def test_line_length_limit_is_exact() -> None:
    """1,048,576 bytes are read; one more is too long (the LF not counted)."""
    exact = b"status" + b" " * (MAX_LINE_BYTES - 6)
    over = exact + b" "
    result = run_bytes(exact + b"\n" + over + b"\n" + over)
    lines = result.stdout.decode().splitlines()
    assert lines[0] == STARTPOS_STATUS
    assert lines[1].startswith("error line-too-long ")
    assert lines[2].startswith("error line-too-long ")  # the last line, without a newline
    assert len(lines) == 3
    assert result.returncode == 0


@pytest.mark.parametrize(
    "raw",
    [
        b"status\xff",
        b"\xc3\x28",
        b"uci\xed\xa0\x80",
        b"\x80isready",
        b"position startpos moves h2e2\xfe",
    ],
)
def test_bad_encoding_is_refused(raw: bytes) -> None:
    result = run_bytes(b"position startpos moves h2e2\n" + raw + b"\nstatus\n")
    lines = result.stdout.decode().splitlines()
    assert lines[0].startswith("error bad-encoding ")
    assert lines[1].startswith("status ply 1 ")
    assert len(lines) == 2 and result.returncode == 0


def test_nul_bytes_are_white_space() -> None:
    result = run_bytes(
        b"position\x00startpos\x00moves h2e2\x00\x00h9g7\nstatus\x00\n\x00\nisready\n"
    )
    assert result.stdout.decode().splitlines() == [
        "status ply 2 occurrences 1 result * reason none fen "
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w",
        "readyok",
    ]


def test_tabs_and_runs_of_spaces_separate_tokens() -> None:
    result = run_bytes(b"  position\tstartpos   moves\t\th2e2  \nstatus\t\n")
    assert result.stdout.decode().splitlines()[0].startswith("status ply 1 ")


def test_crlf_line_ends() -> None:
    data = (
        b"uci\r\nsetoption name Notation value fairy\r\nposition startpos moves h3e3\r\n"
        b"status\r\nbanmoves\r\nundo\r\nstatus\r\n\r\nquit\r\n"
    )
    result = run_bytes(data)
    lines = result.stdout.decode().splitlines()
    assert lines[: len(HANDSHAKE)] == HANDSHAKE
    assert lines[len(HANDSHAKE)].startswith("status ply 1 ")
    assert lines[len(HANDSHAKE) + 1] == "banmoves"
    assert lines[len(HANDSHAKE) + 2] == STARTPOS_STATUS
    assert b"\r" not in result.stdout
    assert result.returncode == 0


def test_last_line_without_newline_is_processed() -> None:
    result = run_bytes(b"position startpos moves h2e2\nstatus")
    assert result.stdout.decode().splitlines()[0].startswith("status ply 1 ")
    assert result.returncode == 0


@pytest.mark.parametrize("how", sorted(LAUNCHERS))
@pytest.mark.parametrize(
    "ending",
    [b"quit\n", b"quit\r\n", b"quit", b"", b"\n\n"],
    ids=["quit", "quit-crlf", "quit-no-newline", "eof", "eof-after-blank"],
)
def test_quit_and_end_of_input_exit_zero(how: str, ending: bytes) -> None:
    result = run_bytes(b"uci\nposition startpos moves h2e2\n" + ending, launcher(how))
    assert result.returncode == 0
    assert result.stdout.decode().splitlines() == HANDSHAKE
    assert result.stderr == b""


def test_nothing_is_read_after_quit() -> None:
    result = run_bytes(b"isready\nquit\nisready\nstatus\n")
    assert result.stdout == b"readyok\n"
    assert result.returncode == 0


def test_quit_through_pexpect(proc: Proc) -> None:
    assert proc.ask("position startpos moves h2e2") == []
    assert proc.quit() == 0


def test_end_of_input_through_pexpect(proc: Proc) -> None:
    proc.ask("position startpos moves h2e2")
    proc.child.sendeof()
    proc.child.expect(pexpect.EOF)
    assert proc.child.wait() == 0


def stdout_purity_input() -> bytes:
    lines = [
        exchange.command
        for path in TRANSCRIPTS
        for exchange in parse_transcript(path)
        if exchange.command.split()[:1] != ["quit"]
    ]
    lines += [line for line, _ in REFUSALS]
    lines += ["position moves h2e2", "undo \u00b2", "setoption MoveLimit \u00b2"]  # internal bugs
    chunks = [line.encode("utf-8") + b"\n" for line in lines]
    chunks += [b"\xff\xfe garbage\n", b"\x00\x00\x00\n", b"status" + b" " * MAX_LINE_BYTES + b"\n"]
    chunks += [b"\xe4\xb8\xad\xe6\x96\x87 command\n", b"setoption name Explain value true\n"]
    for case in CASES[:20]:
        chunks.append(f"position fen {case['fen']} moves {case['moves']}\n".encode())
    return b"".join(chunks)


def test_stdout_carries_only_protocol_lines() -> None:
    result = run_bytes(stdout_purity_input())
    assert result.returncode == 0
    text = result.stdout.decode("utf-8")
    assert text.endswith("\n")
    lines = text.split("\n")[:-1]
    assert len(lines) > 300
    for line in lines:
        assert PROTOCOL_LINE.fullmatch(line), f"not a protocol line: {line[:200]!r}"


@pytest.mark.parametrize(
    "encoding_env",
    [
        pytest.param({"LANG": "C", "LC_ALL": "C"}, id="C-locale"),
        pytest.param({"LANG": "C.UTF-8", "PYTHONIOENCODING": "latin-1"}, id="latin-1-stdio"),
    ],
)
def test_stdout_is_utf8_whatever_the_locale(encoding_env: dict[str, str]) -> None:
    """The spec says UTF-8; the client's locale or PYTHONIOENCODING must not change it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "PYTHONIO"))}
    env.update(encoding_env)
    data = (
        "setoption name Explain value true\n"
        f"position fen {D001_FEN} moves {D001_MOVES}\n"
        "中文 command\n"
    ).encode()
    result = subprocess.run(
        XQADJ, input=data, capture_output=True, timeout=60, env=env, cwd=str(ROOT), check=False
    )
    assert result.returncode == 0, result.stderr[-500:]
    text = result.stdout.decode("utf-8")
    assert text.startswith("ruling result 0-1 reason perpetual-check ply 8 ")
    assert "循环三次" in text
    assert "error unknown-command 中文 command" in text.splitlines()


# --- regenerating a transcript -----------------------------------------------------------


def regenerate(path: Path) -> str:
    """The transcript with its ``<`` lines produced by the real process (``>``/``#`` kept)."""
    out: list[str] = []
    process = Proc()
    try:
        for raw in path.read_text(encoding="utf-8").splitlines():
            if raw.startswith("< "):
                continue
            out.append(raw)
            if not (raw.startswith("> ") or raw == ">"):
                continue
            command = raw[2:]
            if command.split()[:1] == ["quit"]:
                break
            out.extend("< " + line for line in process.ask_marked(command))
    finally:
        process.close()
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--regenerate", nargs="+", type=Path, metavar="TRANSCRIPT", required=True)
    for target in parser.parse_args().regenerate:
        target.write_text(regenerate(target), encoding="utf-8")
        print(f"rewrote {target}")
