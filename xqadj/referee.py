"""Rulings: a game that ends at checkmate, stalemate, a forbidden or drawn repetition, or the
move limit, under the AXF/WXF rules.

The hot path (:meth:`Game.push`) costs a move, a hash update, a dictionary lookup and a cheap
mate/stalemate probe.  Moves are classified only when a position occurs for the third time.

>>> game = Game("c2a1k3/2c1a2R1/b6P1/8p/9/9/9/9/4K4/9 w")
>>> for text in "h8h9 f9f8 h9h8 f8f9 h8h9 f9f8 h9h8".split():
...     game.push_iccs(text)
>>> ruling = game.push_iccs("f8f9")
>>> ruling.result, ruling.reason.value, ruling.ply, ruling.article
('0-1', 'perpetual-check', 8, 'art.6')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from importlib import import_module

from xqadj.board import (
    BLACK,
    CANNON,
    COLOR_NAMES,
    KNIGHT,
    PIECE_NAMES,
    RED,
    ROOK,
    STARTING_FEN,
    SYMBOL_BY_CODE,
    Board,
    Color,
    IllegalMoveError,
    Move,
    Piece,
    square_name,
)
from xqadj.classify import MoveClass, Threat, classify_move

#: The rules profiles: ``axf`` (AXF/WXF, the default) and ``cxa`` (Chinese Xiangqi Association
#: 2020, in :mod:`xqadj.cxa`).
RULE_SETS: tuple[str, ...] = ("axf", "cxa")


class Reason(StrEnum):
    """Why a game ended."""

    #: The side to move is in check and has no legal move.
    CHECKMATE = "checkmate"
    #: The side to move has no legal move and is not in check (困毙): it loses (art. 2).
    STALEMATE = "stalemate"
    #: A side checked on every move of the cycle (长将, art. 6, 8).
    PERPETUAL_CHECK = "perpetual-check"
    #: A side chased the same piece on every move of the cycle (长捉, art. 15–37); under the
    #: CXA rules also a cycle of chases mixed with checks or mate threats (一将一捉, 一杀一捉).
    PERPETUAL_CHASE = "perpetual-chase"
    #: CXA rules only: a side threatened mate on every move, or mixed checks and mate threats
    #: (长杀, 一将一杀; CXA 24.10, 24.13).  The AXF rules allow both.
    PERPETUAL_KILL = "perpetual-kill"
    #: The position occurred a third time and neither side, or both, broke a rule (art. 5, 7).
    REPETITION = "repetition"
    #: The natural move limit was reached without a capture.
    MOVE_LIMIT = "move-limit"

    def __str__(self) -> str:
        return self.value


#: Violation levels of a side's moves in a cycle; the higher level loses, equal levels draw.
LEVEL_NONE, LEVEL_CHASE, LEVEL_CHECK = 0, 1, 2


@dataclass(frozen=True)
class SideVerdict:
    """How one side's moves in the cycle are judged."""

    color: Color
    level: int
    #: Ids (``'R@h0'``: type and square at the cycle's start) of the pieces chased on every move.
    chased: tuple[str, ...] = ()


@dataclass(frozen=True)
class Ruling:
    """The end of a game, with everything needed to explain it."""

    result: str  # "1-0", "0-1" or "1/2-1/2"
    reason: Reason
    ply: int  # number of moves from the start position when the ruling fell
    offender: Color | None = None  # the losing side, None for a draw
    article: str = ""
    cycle: tuple[Move, ...] = ()
    #: One entry per move of the cycle, in order: what the rules make of it.
    classifications: tuple[MoveClass, ...] = ()
    verdicts: tuple[SideVerdict, ...] = ()
    #: Readable description of each victim, parallel to ``classifications``.
    notes: tuple[str, ...] = field(default=(), compare=False)
    start_turn: Color = RED
    #: The rules profile that made the ruling: ``axf`` or ``cxa``.
    rules: str = "axf"
    #: Per move of the cycle, the rulebook's label in the profile's vocabulary (CXA: 将 杀 捉 兑
    #: 献 拦 跟 闲); empty for AXF, whose classifications say it.
    labels: tuple[str, ...] = ()
    #: A profile's own explanation of a repetition ruling; explain() returns it when set.
    explanation: str = field(default="", compare=False)

    @property
    def winner(self) -> Color | None:
        return None if self.offender is None else 1 - self.offender

    def explain(self) -> str:
        """One readable paragraph (English, with the Chinese terms)."""
        if self.explanation:
            return self.explanation
        if self.reason is Reason.CHECKMATE:
            return (
                f"{_side(self.offender)} is checkmated (将死) at ply {self.ply}; "
                f"result {self.result}."
            )
        if self.reason is Reason.STALEMATE:
            return (
                f"{_side(self.offender)} has no legal move (困毙) at ply {self.ply} and loses "
                f"(art. 2); result {self.result}."
            )
        if self.reason is Reason.MOVE_LIMIT:
            return (
                f"The natural move limit (自然限着) was reached at ply {self.ply} without a "
                f"capture; result {self.result}."
            )
        moves = []
        for index, (cls, note) in enumerate(zip(self.classifications, self.notes, strict=True)):
            color = self.start_turn if index % 2 == 0 else 1 - self.start_turn
            label = {"check": "check 将", "chase": "chase 捉", "other": "idle 闲"}[cls.kind]
            moves.append(f"{cls.move.iccs()} ({COLOR_NAMES[color]}: {label}{note})")
        sides = []
        for verdict in self.verdicts:
            what = {
                LEVEL_CHECK: "checks on every move (perpetual check, 长将)",
                LEVEL_CHASE: "chases the same piece on every move (perpetual chase, 长捉): "
                + ", ".join(_describe_id(i) for i in verdict.chased),
                LEVEL_NONE: "breaks no rule (允许着法)",
            }[verdict.level]
            sides.append(f"{_side(verdict.color)} {what}")
        if self.offender is None:
            outcome = "so the game is drawn (作和)"
        else:
            loser = COLOR_NAMES[self.offender]
            outcome = f"so {loser} must vary and, not varying, loses (不变作负)"
        return (
            f"The position occurred for the third time at ply {self.ply} (循环三次). "
            f"Cycle: {'; '.join(moves)}. {'; '.join(sides)}, {outcome}: "
            f"{self.reason.value} ({self.article}), result {self.result}."
        )

    def __str__(self) -> str:
        return f"{self.result} {self.reason.value} at ply {self.ply}"


def _describe_id(piece_id: str) -> str:
    """``'C@c3'`` → ``'the red cannon that stood on c3 when the cycle began'``."""
    piece = Piece.from_symbol(piece_id[0])
    return (
        f"the {COLOR_NAMES[piece.color]} {PIECE_NAMES[piece.piece_type]} that stood on "
        f"{piece_id[2:]} when the cycle began"
    )


def _side(color: Color | None) -> str:
    return "Nobody" if color is None else COLOR_NAMES[color].capitalize()


def _result_for_loser(loser: Color) -> str:
    return "0-1" if loser == RED else "1-0"


class Game:
    """A game followed move by move, ruled as it goes.

    ``move_limit`` is the natural move limit in moves (pairs of plies) without a capture,
    0 for none.  ``forbidden_run`` turns on, under the CXA rules only, the ruling of a
    non-repeating run of forbidden moves (参考图8; :class:`xqadj.cxa.ForbiddenRunWatch`): it
    classifies every move as it is played, so it is off by default.  :attr:`ruling` is set by
    the move that ends the game; further moves raise :class:`GameOverError` until :meth:`pop`
    reopens the game.
    """

    def __init__(
        self,
        fen: str = STARTING_FEN,
        rules: str = "axf",
        move_limit: int = 0,
        forbidden_run: bool = False,
    ) -> None:
        if rules not in RULE_SETS:
            raise ValueError(f"unknown rules {rules!r}; expected one of {', '.join(RULE_SETS)}")
        if move_limit < 0:
            raise ValueError("move_limit must be 0 (off) or positive")
        self.board = Board(fen)
        # The usual start needs no formatting (it is already in the normal form fen() gives).
        self.start_fen = STARTING_FEN if fen == STARTING_FEN else self.board.fen()
        self.rules = rules
        self._move_limit = move_limit
        self._forbidden_run = forbidden_run
        self._run_watch = (
            import_module("xqadj.cxa").ForbiddenRunWatch()
            if forbidden_run and rules == "cxa"
            else None
        )
        # Rulings beyond repetitions and mates, looked for after every move when any is on.
        self._other_rules = bool(move_limit or self._run_watch)
        self.ruling: Ruling | None = self._rule_static()

    @property
    def move_limit(self) -> int:
        """The natural move limit in moves (0: none); fixed when the game is made."""
        return self._move_limit

    @property
    def forbidden_run(self) -> bool:
        """Whether the non-repeating forbidden run is ruled; fixed when the game is made."""
        return self._forbidden_run

    @property
    def ply(self) -> int:
        return self.board.ply

    @property
    def moves(self) -> list[Move]:
        return self.board.move_stack

    def push(self, move: Move) -> Ruling | None:
        """Make a legal move and return the ruling it causes, if any.

        Raises :class:`IllegalMoveError` (board unchanged) for an illegal move and
        :class:`GameOverError` once the game has a ruling.
        """
        if self.ruling is not None:
            raise GameOverError(f"the game is over: {self.ruling}")
        board = self.board
        if not board.is_legal(move):
            raise IllegalMoveError(f"illegal move {move.iccs()} in {board.fen()}")
        board.push(move)
        if board.repetition_count() >= 3:
            self.ruling = self._rule_repetition()
        elif self._other_rules or not board.has_legal_move():
            # _rule_static() probes for a legal move itself: with other rules on, probe once.
            self.ruling = self._rule_static()
        return self.ruling

    def push_iccs(self, text: str) -> Ruling | None:
        """Push a move in ICCS notation (``'h2e2'``); see :meth:`push`."""
        return self.push(Move.from_iccs(text))

    def push_text(self, text: str, notation: str = "iccs") -> Ruling | None:
        """Push a move given as ``'iccs'`` (ranks 0–9) or ``'fairy'`` (ranks 1–10) text."""
        move = Move.from_fairy(text) if notation == "fairy" else Move.from_iccs(text)
        return self.push(move)

    def pop(self) -> Move:
        """Take back the last move; this reopens a finished game."""
        move = self.board.pop()
        # Moves are refused after a ruling, so the position before the last move had none.
        self.ruling = None
        return move

    # -- rulings -------------------------------------------------------------------------------

    def _rule_static(self) -> Ruling | None:
        """Checkmate, stalemate, the move limit and the forbidden run: the rulings that are not
        repetitions."""
        board = self.board
        if not board.has_legal_move():
            loser = board.turn
            reason = Reason.CHECKMATE if board.is_check() else Reason.STALEMATE
            article = "art.1" if reason is Reason.CHECKMATE else "art.2"
            return Ruling(_result_for_loser(loser), reason, board.ply, loser, article)
        if self._run_watch is not None and board.move_stack:
            ruling: Ruling | None = self._run_watch.check(board)
            if ruling is not None:
                return ruling
        if self.move_limit and board.plies_since_capture() >= 2 * self.move_limit:
            return Ruling("1/2-1/2", Reason.MOVE_LIMIT, board.ply, None, "move-limit")
        return None

    def _rule_repetition(self) -> Ruling:
        board = self.board
        hashes = board.position_hashes_since_capture()
        first = hashes.index(board.zobrist_hash())
        length = len(hashes) - 1 - first
        if self.rules == "cxa":
            # The CXA profile's look-ahead lives in its own module, loaded when first used.
            judge: Callable[[Board, int], Ruling] = import_module("xqadj.cxa").judge_cycle
            return judge(board, length)
        return judge_cycle(board, length)

    def banned_moves(self) -> list[Move]:
        """Legal moves that would make the side to move lose by rule at once."""
        if self.ruling is not None:
            return []
        board = self.board
        mover = board.turn
        banned = []
        for move in board.legal_moves():
            board.push(move)
            try:
                if board.repetition_count() >= 3:
                    ruling: Ruling | None = self._rule_repetition()
                elif self._run_watch is not None:
                    ruling = self._run_watch.check(board)
                else:
                    continue
                if ruling is not None and ruling.offender == mover:
                    banned.append(move)
            finally:
                board.pop()
        return banned


class GameOverError(IllegalMoveError):
    """A move was pushed after the game's ruling."""


def _piece_ids(board: Board) -> list[str]:
    """An id for each square's piece, valid while no capture happens: type and start square."""
    return [
        f"{SYMBOL_BY_CODE[code]}@{square_name(sq)}" if code else ""
        for sq, code in enumerate(board.squares)
    ]


@dataclass
class _Replay:
    """A cycle replayed move by move: each move's class, and the ids and pieces after it."""

    classes: list[MoveClass] = field(default_factory=list)
    ids_after: list[list[str]] = field(default_factory=list)

    def chased(self, index: int) -> set[str]:
        return {self.ids_after[index][v.victim] for v in self.classes[index].victims}

    def chaser_ids(self, victim: str) -> set[str]:
        return {
            self.ids_after[i][threat.attacker]
            for i, cls in enumerate(self.classes)
            for threat in cls.victims
            if self.ids_after[i][threat.victim] == victim
        }


def judge_cycle(board: Board, length: int) -> Ruling:
    """Judge the last ``length`` moves of ``board``'s move stack, which return to a position.

    Each side's moves are judged separately (Li 1982 principle 2): perpetual check outranks
    perpetual chase of one piece, which outranks nothing; the higher level loses, equal levels
    draw (Li 1982 乙1–4, art. 5–7).
    """
    work = board.copy()
    cycle = [work.pop() for _ in range(length)][::-1]
    start_turn = work.turn
    ids = _piece_ids(work)
    replay = _Replay()
    notes = []
    # The second loop usually replays the first one's positions: classify each (position, move)
    # once.
    known: dict[tuple[int, Move], MoveClass] = {}
    for move in cycle:
        key = (work.zobrist_hash(), move)
        cls = known.get(key) or known.setdefault(key, classify_move(work, move))
        work.push(move)
        f, t = move
        ids[t], ids[f] = ids[f], ""
        replay.classes.append(cls)
        replay.ids_after.append(ids[:])
        notes.append(_note(work, cls))
    verdicts = []
    for color in (RED, BLACK):
        own = [i for i in range(length) if (i % 2 == 0) == (color == start_turn)]
        verdicts.append(
            _side_verdict(color, [replay.classes[i] for i in own], [replay.chased(i) for i in own])
        )
    red, black = verdicts
    drawn = Ruling(
        "1/2-1/2",
        Reason.REPETITION,
        board.ply,
        None,
        "",
        tuple(cycle),
        tuple(replay.classes),
        tuple(verdicts),
        tuple(notes),
        start_turn,
    )
    if red.level == black.level:
        # Neither breaks a rule (art. 5); both check (art. 7); both chase (Li 1982 乙3, 图108).
        return replace(
            drawn,
            article={LEVEL_NONE: "art.5", LEVEL_CHECK: "art.7", LEVEL_CHASE: "图108"}[red.level],
        )
    loser = red if red.level > black.level else black
    if loser.level == LEVEL_CHECK:
        # Against a perpetual chase too, the checker must vary (Li 1982 乙2).
        reason, article = Reason.PERPETUAL_CHECK, "art.6"
    else:
        reason, article = Reason.PERPETUAL_CHASE, _chase_article(replay, loser)
    return replace(
        drawn,
        result=_result_for_loser(loser.color),
        reason=reason,
        offender=loser.color,
        article=article,
    )


def _side_verdict(color: Color, classes: list[MoveClass], chased: list[set[str]]) -> SideVerdict:
    if classes and all(c.check for c in classes):
        return SideVerdict(color, LEVEL_CHECK)
    # A move that checks and chases at once counts as a chase too: of two readings the one
    # under which the cycle is forbidden is taken (图109 从重; docs/rulings.md).
    if classes and all(c.victims for c in classes):
        common = set.intersection(*chased)
        if common:
            return SideVerdict(color, LEVEL_CHASE, tuple(sorted(common)))
    return SideVerdict(color, LEVEL_NONE)


#: The detail article that rules a perpetual chase, by (attacker type, victim type).
_CHASE_ARTICLES = {
    (CANNON, ROOK): "art.15",
    (KNIGHT, ROOK): "art.20",
    (ROOK, CANNON): "art.18",
    (ROOK, KNIGHT): "art.23",
    (ROOK, ROOK): "art.24",
    (CANNON, CANNON): "art.24",
    (KNIGHT, KNIGHT): "art.24",
}


def _chase_article(replay: _Replay, loser: SideVerdict) -> str:
    """Art. 33 when several pieces take turns chasing the piece; else the article for the
    attacker and victim types; art. 25 (an unprotected piece chased) by default."""
    victim = loser.chased[0]
    chasers = replay.chaser_ids(victim)
    if len(chasers) > 1:
        return "art.33"
    attacker_type = Piece.from_symbol(next(iter(chasers))[0]).piece_type
    victim_type = Piece.from_symbol(victim[0]).piece_type
    return _CHASE_ARTICLES.get((attacker_type, victim_type), "art.25")


def _note(board: Board, cls: MoveClass) -> str:
    """The victims of a move, readable: ``', cannon b2 attacks rook f2'``."""
    parts = [threat.describe(board) for threat in cls.victims]
    return ", " + "; ".join(parts) if parts else ""


# -- a ruling, move by move, for pictures and reports -------------------------------------------


@dataclass(frozen=True)
class CycleStep:
    """One move of a ruling's cycle, as the rules saw it: what a picture of the ruling draws.

    ``checks`` and ``chases`` are :class:`~xqadj.classify.Threat` pairs of squares *after* the
    move: the pieces giving check with the king they attack, and the chases the move makes
    (AXF: the classification's victims; CXA: for a 捉, each piece that takes part in winning
    material with the most valuable piece it wins).  ``label`` is the rulebook's word for the
    move: 将 捉 闲 under AXF (a move that checks and chases is 将 there and counts as both), the
    profile's label (将 杀 捉 兑 献 拦 跟 闲) under CXA.
    """

    move: Move
    color: Color
    label: str
    checks: tuple[Threat, ...] = ()
    chases: tuple[Threat, ...] = ()


def cycle_start(board: Board, ruling: Ruling) -> Board:
    """A copy of ``board`` (the game's board when ``ruling`` fell) taken back to the start of
    the ruling's cycle: for a repetition, the first occurrence of the repeated position.  For a
    ruling without a cycle (checkmate, stalemate, move limit) the copy is the final position."""
    start = board.copy()
    for _ in ruling.cycle:
        start.pop()
    return start


def cycle_steps(board: Board, ruling: Ruling) -> list[CycleStep]:
    """Each move of ``ruling``'s cycle with its label, checks and chases (:class:`CycleStep`),
    for the game's ``board`` at the ruling.  The AXF classifications are the ruling's own; a
    CXA ruling keeps only labels, so its moves are classified again (the same deterministic
    look-ahead, :func:`xqadj.cxa.classify_move`) for the pieces each 捉 wins."""
    work = cycle_start(board, ruling)
    steps = []
    cxa_classify = import_module("xqadj.cxa").classify_move if ruling.rules == "cxa" else None
    for index, move in enumerate(ruling.cycle):
        mover = work.turn
        chases: tuple[Threat, ...] = ()
        if cxa_classify is not None:
            label_info = cxa_classify(work, move)
            label = ruling.labels[index] if index < len(ruling.labels) else label_info.label
            # Gain squares are those of the position after the move, which the look-ahead probes.
            chases = tuple(
                dict.fromkeys(
                    Threat(capturer, gain.target)
                    for gain in label_info.gains
                    for capturer in gain.capturers
                )
            )
        else:
            cls = (
                ruling.classifications[index]
                if index < len(ruling.classifications)
                else classify_move(work, move)
            )
            chases = cls.victims
            label = "将" if cls.check else "捉" if cls.victims else "闲"
        work.push(move)
        king = work.king_squares[work.turn]
        checks = tuple(Threat(attacker, king) for attacker in sorted(work.attackers(king, mover)))
        steps.append(CycleStep(move, mover, label, checks, chases))
    return steps
