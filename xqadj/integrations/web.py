"""xqadj in the browser: what ``web/xqadj.mjs`` and the arbiter's page call on Pyodide.

Layer: integrations.  Two entry points, both without I/O, so that the JavaScript side stays a
thin shell around them:

* :class:`Arbiter`, for web GUIs: the line protocol's :class:`~xqadj.protocol.Session`, one
  command at a time (the module builds the lines and reads the answers), with the explanation
  and the picture of the game followed;
* :func:`read_game`, for the page: a game typed or pasted as ``replay`` reads it (a PGN, or
  moves in ICCS, WXF or Chinese notation, or a ``FEN | moves`` line) from a start position,
  followed to its first ruling; a :class:`Reading` gives its summary as JSON and the picture of
  any ply.  Bad input is an error for the field it came from, with the command line's words.

>>> reading = read_game("b3b2 f2f3 b2b3 f3f2 b3b2 f2f3 b2b3 f3f2",
...     "1r2kab2/4a4/4b4/p1p1p3p/5R3/2P2N3/PC2P3P/4Cr3/1R3c3/2B1KA3 w")
>>> summary = json.loads(reading.summary())
>>> summary["ruling"]["reason"], summary["ruling"]["offender"], summary["ruling"]["ply"]
('perpetual-chase', 'red', 8)
>>> json.loads(read_game("h2e2 h9h0", "").summary())["errors"]["game"][:40]
"ply 2, move 'h9h0': illegal move h9h0 in"
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

from xqadj import svg
from xqadj.board import COLOR_NAMES, STARTING_FEN, Board, Move, XqadjError
from xqadj.integrations.gamefiles import GameRecord, parse_lines, parse_pgn
from xqadj.integrations.replay import detect_notation, move_parser
from xqadj.protocol import MAX_MOVE_LIMIT, Session
from xqadj.referee import Game, Ruling
from xqadj.rules import PROFILES

__all__ = ["Arbiter", "Reading", "read_game", "ruling_fields"]


class Arbiter:
    """A game followed for a web GUI, under fixed rules: the protocol's session.

    Options are set with the protocol's own ``setoption`` lines, so a bad value is refused with
    the protocol's error (raised as :class:`XqadjError`, its text the ``error`` line).

    >>> arbiter = Arbiter("cxa")
    >>> arbiter.send("position startpos moves h2e2 h9g7")
    ''
    >>> arbiter.send("status").split(" fen ")[0]
    'status ply 2 occurrences 1 result * reason none'
    >>> arbiter.new_game("9/9 w")
    "error bad-fen expected 10 ranks separated by '/', got 2"
    >>> arbiter.send("status").split(" fen ")[0]
    'status ply 2 occurrences 1 result * reason none'
    >>> Arbiter("fide")
    Traceback (most recent call last):
    ...
    xqadj.board.XqadjError: error bad-value Rules fide: expected one of axf, cxa
    """

    def __init__(self, rules: str = "axf", move_limit: int = 0, forbidden_run: bool = False):
        self._session = Session()
        for line in (
            f"setoption name Rules value {rules}",
            f"setoption name MoveLimit value {move_limit}",
            f"setoption name ForbiddenRun value {'true' if forbidden_run else 'false'}",
        ):
            answer = self._session.handle(line)
            if answer and answer[0].startswith("error "):
                raise XqadjError(answer[0])

    def send(self, line: str) -> str:
        """The answer to one protocol command line, its lines joined by newlines ('' for none).
        One string, not a list: crossing into JavaScript costs per object."""
        return "\n".join(self._session.handle(line))

    def new_game(self, fen: str = "") -> str:
        """Follow a new game from ``fen`` (empty: the standard start); the answer to its
        ``position`` line.  A bad FEN is refused and the game followed stays as it was (a
        ``ucinewgame`` then a bad ``position`` would have reset it)."""
        session = Session()
        session.options = replace(self._session.options)
        session.handle("ucinewgame")  # the game is made under the options
        answer = session.handle(f"position fen {fen}" if fen else "position startpos")
        if not (answer and answer[0].startswith("error ")):
            self._session = session
        return "\n".join(answer)

    def explain(self) -> str | None:
        """The explanation of the game's ruling, or ``None`` while it has none."""
        ruling = self._session.game.ruling
        return None if ruling is None else ruling.explain()

    def picture(self) -> str:
        """The game as ``xqadj show`` draws it: the ruling and its cycle once the game has one
        (moves a client played on after it are taken back on a copy), else the position with
        its last move."""
        game = self._session.game
        return _picture(game.board, game.ruling)


def _picture(board: Board, ruling: Ruling | None, columns: int = 3) -> str:
    if ruling is not None:
        at_ruling = board.copy()
        while at_ruling.ply > ruling.ply:
            at_ruling.pop()
        return svg.ruling(at_ruling, ruling, columns=columns)
    lastmove = board.move_stack[-1] if board.move_stack else None
    return svg.board(board, lastmove=lastmove)


def ruling_fields(ruling: Ruling) -> dict[str, Any]:
    """The ``ruling`` line's fields (``protocol/PROTOCOL.md``), its ``cycle`` as a list."""
    return {
        "result": ruling.result,
        "reason": str(ruling.reason),
        "ply": ruling.ply,
        "offender": "none" if ruling.offender is None else COLOR_NAMES[ruling.offender],
        "article": ruling.article,
        "cycle": [move.iccs() for move in ruling.cycle],
    }


@dataclass
class Reading:
    """A game read for the page: followed to its first ruling, or the errors that stopped it
    (by field: ``fen``, ``game``, ``limit``, ``rules``)."""

    errors: dict[str, str] = field(default_factory=dict)
    game: Game | None = None
    record: GameRecord | None = None
    #: The move texts as typed, up to the ruling (the moves after it are not read).
    texts: list[str] = field(default_factory=list)
    notation: str | None = None

    def summary(self) -> str:
        """The page's JSON: errors, or the start, the moves (ICCS and as typed), the ruling
        with its title and explanation, how many moves after the ruling were not read."""
        game = self.game
        if self.errors or game is None:
            return json.dumps({"errors": self.errors}, ensure_ascii=False)
        ruling = game.ruling
        record = self.record
        data: dict[str, Any] = {
            "errors": {},
            "start_fen": game.start_fen,
            "rules": game.rules,
            "moves": [move.iccs() for move in game.moves],
            "texts": self.texts,
            "notation": self.notation,
            "ruling": None,
            "unread": 0 if record is None else len(record.moves) - len(self.texts),
            "event": None if record is None else record.event,
            "red": None if record is None else record.red,
            "black": None if record is None else record.black,
        }
        if ruling is not None:
            data["ruling"] = {
                **ruling_fields(ruling),
                "title": svg.ruling_title(ruling),
                "explanation": ruling.explain(),
            }
        return json.dumps(data, ensure_ascii=False)

    def picture(self, ply: int, columns: int = 3) -> str:
        """The picture at ``ply`` (0: the start): the ruling's at the ruling's ply (its panels
        in ``columns``: 1 reads on a phone), else the position with the move that led to it."""
        game = self.game
        if game is None:
            return svg.board(Board(STARTING_FEN))
        board = game.board.copy()
        ply = max(0, min(ply, len(board.move_stack)))
        while len(board.move_stack) > ply:
            board.pop()
        ruling = game.ruling if game.ruling is not None and ply == game.ruling.ply else None
        return _picture(board, ruling, max(1, columns))


def _limit(text: str) -> int:
    """The move limit field, read as ``--move-limit`` and the protocol's ``MoveLimit`` read it."""
    text = text.strip() or "0"
    try:
        value = int(text)
    except ValueError:
        raise XqadjError(f"not an integer: {text!r}") from None
    if value < 0:
        raise XqadjError(f"must be 0 or more: {value}")
    if value > MAX_MOVE_LIMIT:
        raise XqadjError(f"must be {MAX_MOVE_LIMIT} or less: {value}")
    return value


def _records(text: str) -> list[GameRecord]:
    """The games of the text as ``replay`` reads a file: ``FEN | moves`` lines when the first
    line has a bar, else PGN (which also reads bare moves, with or without move numbers)."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    if "|" in first and not first.lstrip().startswith("["):
        return list(parse_lines(text, "game"))
    return list(parse_pgn(text, "game"))


def read_game(
    text: str,
    fen: str = "",
    rules: str = "axf",
    move_limit: str | int = 0,
    forbidden_run: bool = False,
) -> Reading:
    """Follow the game of the page's fields to its first ruling.

    ``text``: a PGN, moves (ICCS, WXF or Chinese, as ``replay`` detects them from the first),
    or a ``FEN | moves`` line.  ``fen``: the start position (empty or ``startpos``: the
    standard one); a PGN's ``FEN`` tag or a line's FEN is used when the field is empty.  The
    first game of the text is read.
    """
    errors: dict[str, str] = {}
    if rules not in PROFILES:
        errors["rules"] = f"unknown rules {rules!r}: expected one of {', '.join(PROFILES)}"
    try:
        limit = _limit(str(move_limit))
    except XqadjError as error:
        errors["limit"] = f"move limit: {error}"
        limit = 0
    records = _records(text)
    record = records[0] if records else GameRecord("game", 1)
    if record.problem is not None:
        errors["game"] = record.problem
    start, typed = record.fen, fen.strip()
    if typed:
        start = STARTING_FEN if typed == "startpos" else typed
        try:
            normal = Board(start).fen()
        except XqadjError as error:
            errors["fen"] = f"bad FEN {typed!r}: {error}"
        else:
            if record.fen != STARTING_FEN and _normal(record.fen) != normal:
                errors["fen"] = "the game gives another start position; clear this field to use it"
    game = None
    if not errors:
        try:
            game = Game(start, rules=rules, move_limit=limit, forbidden_run=forbidden_run)
        except XqadjError as error:
            errors["game"] = f"bad FEN {start!r}: {error}"
    if errors or game is None:
        return Reading(errors)
    texts: list[str] = []
    notation = detect_notation(record.moves[0]) if record.moves else None
    if notation is not None and game.ruling is None:
        parse = move_parser(notation)
        for ply, move_text in enumerate(record.moves, 1):
            try:
                move: Move = parse(game.board, move_text)
                ruling = game.push(move)
            except XqadjError as error:
                return Reading({"game": f"ply {ply}, move {move_text!r}: {error}"})
            texts.append(move_text)
            if ruling is not None:
                break
    return Reading({}, game, record, texts, notation)


def _normal(fen: str) -> str:
    """A FEN in the form ``Board.fen`` gives, or the text itself if it does not parse (the
    comparison then fails and the game's own FEN is reported as another)."""
    try:
        return Board(fen).fen()
    except XqadjError:
        return fen
