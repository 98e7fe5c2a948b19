"""The CXA profile's look-ahead: material values, the 杀 search and the 捉 search.

The mate-threat search (杀, 24.2) and the bounded material search (捉, 24.3) are what the move
labels (:mod:`xqadj.rules.cxa.labels`) are built on.

Layer: rules (the CXA profile).  Every search is bounded by nodes (:data:`LINE_NODES`,
:data:`MATE_NODES`), never by time, so a ruling is reproducible; running out of nodes never
creates a 杀 or a 捉.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final, NamedTuple, Protocol

from xqadj.board import (
    BETWEEN,
    BLACK,
    BLACK_BIT,
    CANNON,
    CHECK_LANDING,
    ELEPHANT,
    ELEPHANT_EYE,
    KING,
    KNIGHT,
    KNIGHT_ATTACKS,
    KNIGHT_LEG,
    PAWN,
    PAWN_ATTACKERS,
    RAYS,
    RED,
    ROOK,
    SHIELD,
    Board,
    Color,
    Move,
    code_color,
    square_rank,
)

# -- options ---------------------------------------------------------------------------------

#: 杀 (24.2): the most checks in a mating series that the mate-threat search looks for.
MATE_CHECKS = 7
#: 捉 by checks (24.3 "从下一着开始运用将军或连续将军得子"): the most checks before the capture.
GAIN_CHECKS = 3
#: 兑 (24.4): an offered piece may be taken unless the taker is then mated by this many checks
#: (图29: a rook that "cannot leave its line" because a mate in two follows).
EXCHANGE_MATE_CHECKS: Final = 2
#: Checks the opponent may give in reply inside the look-ahead (to win material back or mate).
REPLY_CHECKS: Final = 2
#: The longest line (plies) of the material look-ahead (checks, captures and replies).
MAX_PLIES: Final = 8
#: Node budget of the look-ahead after one first move, and of one mate search.  A line whose
#: search runs out of nodes is no gain after the move (never a chase by exhaustion), unless its
#: null-window search had shown a gain: that gain is proved again, with the mate tests, on a
#: budget of its own and kept as a lower bound (a real gain is not lost either).  Before the
#: move a line stands as searched (never a new chase by exhaustion).
LINE_NODES = 250
MATE_NODES: Final = 400

# -- material (2011 25.3) --------------------------------------------------------------------

#: A strong unit (马, 炮, crossed pawn); a rook is two; an advisor or elephant is one weak unit.
STRONG: Final = 100
WEAK: Final = 2
#: The score of a line that ends even after each side took a piece of the other's (各吃各子):
#: it counts as a gain (26.5 "完整互吃后价值相当或得子者，按捉").
EVEN_TRADE: Final = 1
MATE: Final = 100_000
_BASE_VALUE: Final = (0, 0, WEAK, WEAK, STRONG, 2 * STRONG, STRONG, STRONG)


def _crossed(code: int, sq: int) -> bool:
    """Whether a pawn on ``sq`` has crossed the river."""
    rank = square_rank(sq)
    return rank >= 5 if code_color(code) == RED else rank <= 4


def piece_value(code: int, sq: int) -> int:
    """Material value of the piece ``code`` standing on ``sq`` (2011 25.3): 车 200, 马 = 炮 =
    过河兵 100, 士 = 象 2; the king and an uncrossed pawn are not material (0)."""
    kind = code & 7
    if kind == PAWN and not _crossed(code, sq):
        return 0
    return _BASE_VALUE[kind]


class _Tally(NamedTuple):
    """Material won and lost by the side probed along a line: the net value of the pieces other
    than pawns, the net number of crossed pawns (their value floats, 2011 25.3), and how the
    opponent took back material."""

    pieces: int = 0
    pawns: int = 0
    #: The opponent took back one of the side's capturing pieces (an exchange, 互吃).
    recaptured: bool = False
    #: After the side's first capture, the opponent took something other than a capturer
    #: (各吃各子, P5).
    counter: bool = False
    #: The square of the side's last capture, and whether every capture of the side there was
    #: a king's or a pawn's giving no check: then the gain is theirs, and licensed (26.1).
    final: int = -1
    licensed: bool = False
    #: Where the side's pieces that captured in the line stand.
    takers: frozenset[int] = frozenset()
    #: The score before the side's captures on ``final`` began.
    base: int = 0
    #: Where the opponent's pieces that captured in the line stand.
    repliers: frozenset[int] = frozenset()

    def after(
        self,
        move: Move,
        code: int,
        won: bool,
        licensed: bool = False,
    ) -> _Tally:
        """The tally after ``move``, which captures ``code`` (0 for none): a move of the side
        (``won``; ``licensed`` for a king or pawn capture giving no check) or of the
        opponent."""
        f, t = move
        takers, repliers = self.takers, self.repliers
        if won:
            if f in takers or code:
                takers = (takers - {f}) | {t}
            repliers = repliers - {t}
        else:
            if f in repliers or code:
                repliers = (repliers - {f}) | {t}
            takers = takers - {t}
        if not code:
            return _Tally(
                self.pieces,
                self.pawns,
                self.recaptured,
                self.counter,
                self.final,
                self.licensed,
                takers,
                self.base,
                repliers,
            )
        # A king's or pawn's capture of a piece that has just taken is a recapture, no chase.
        licensed = licensed and t not in self.repliers
        value = piece_value(code, t)
        sign = 1 if won else -1
        recaptured = self.recaptured or (not won and t in self.takers)
        # P5 (CXA.md §5.6): what the side loses counts by when it is lost.  Before its first
        # capture it is the price of the gain (送兵, a piece answering a check); after it, any
        # piece but a capturer taken back is the opponent taking one of its own (各吃各子),
        # whether it moved in the line (the pawn that gave a discovered check) or not.
        counter = self.counter or (not won and self.final >= 0 and t not in self.takers)
        final, kp, base = self.final, self.licensed, self.base
        if won:
            if final != t:
                base = self._net()
            kp = licensed and (kp or final != t)
            final = t
        pieces, pawns = self.pieces, self.pawns
        if code & 7 == PAWN:
            pawns += sign * (value > 0)
        else:
            pieces += sign * value
        return _Tally(pieces, pawns, recaptured, counter, final, kp, takers, base, repliers)

    def _net(self) -> int:
        """The score, licence aside."""
        return self._value(False)

    def score(self) -> int:
        """The net value (a crossed pawn is a strong unit).

        P3 (CXA.md §5.6): in every exchange the line counts, pawns traded against pieces are
        even either way (2011 25.3: "过河兵(卒)价值浮动，一兵换取数子或一子换取数兵均不算得子";
        参考图31: a pawn exchanged for an elephant is no gain; 图24 "送兵换马…判闲"), whether the
        opponent took back a capturing piece or a piece that a capture abandoned or unmasked
        (做根子, 被牵子: 26.5).  The opponent's captures that P2 leaves out of the line never
        reach the tally.  An even line in which the opponent took something other than the
        side's capturing pieces after its first capture (各吃各子, P5), piece for piece,
        scores :data:`EVEN_TRADE`: it counts as a gain (26.5 "完整互吃后价值相当或得子者，按捉");
        a pawn won floating against a piece is no such trade ("不算得子"), a piece won and a
        pawn lost after it is (P5)."""
        return self._value(self.licensed)

    def _value(self, licensed: bool) -> int:
        """:meth:`score`, with the licence of king and pawns (26.1) as ``licensed``."""
        pieces, pawns = self.pieces, self.pawns
        net = pieces + STRONG * pawns
        floated = (self.recaptured or self.counter) and (
            (pawns > 0 > pieces and -pieces <= STRONG * pawns)
            or (pawns < 0 < pieces <= -STRONG * pawns)
        )
        if floated:
            net = 0  # a pawn floats up to a knight or a cannon, and down to an advisor
        if net == 0 and self.counter and (pieces % STRONG == 0 or pawns < 0 < pieces):
            # Equal value, no advisor or elephant won as a pawn's price (P3); but a piece won
            # and a pawn lost after it (P5: the pawn that gave the discovered check, taken
            # back once the 将军抽吃 has taken the advisor) is each side taking its own.
            return EVEN_TRADE
        if net > 0 and licensed:
            # What the king or a pawn wins by itself at the end is licensed (26.1); what was
            # won before counts (参考图32: an even trade, then the king takes: nothing counts).
            return max(0, min(net, self.base))
        return net


# -- board helpers ---------------------------------------------------------------------------


#: A capture as (origin square, target square, victim code).
_Capture = tuple[int, int, int]


class _Clearable(Protocol):
    """A table the memo empties with its own."""

    def clear(self) -> None: ...


class _Memo:
    """Results that depend on the position only, keyed by its Zobrist hash (side to move
    included): the searches of one ruling meet the same positions again and again.  What-if
    probes that edit the board keep the hash in step (:meth:`Board.without_piece`).  Entries are
    facts about positions, so games ruled in several threads may share the memo."""

    def __init__(self) -> None:
        self.captures: dict[tuple[int, bool], list[tuple[int, int, int, Move]]] = {}
        self.checks: dict[int, list[Move]] = {}
        self.legal: dict[int, list[Move]] = {}
        self.mate: dict[int, bool] = {}
        self.attacks: dict[tuple[int, int], frozenset[_Capture]] = {}
        self.pseudo: dict[tuple[int, int], tuple[_Capture, ...]] = {}
        #: Mate searches: the fewest checks that mate from a position, the most that do not.
        self.mated: dict[int, int] = {}
        self.unmated: dict[int, int] = {}
        self.ordered: dict[int, list[Move]] = {}
        #: The captures that win on their own, by position (:func:`_winning_captures`).
        self.winning: dict[tuple[int, tuple[int, ...]], frozenset[_Capture]] = {}
        #: Tables of the modules above (the move labels before P1's parry test), emptied with
        #: these: registered by :meth:`keep`, so that this module needs none of their types.
        self.kept: list[_Clearable] = []

    def keep(self, table: _Clearable) -> None:
        """Empty ``table`` whenever the memo is emptied."""
        self.kept.append(table)

    def clear(self) -> None:
        tables: tuple[_Clearable, ...] = (
            self.captures,
            self.checks,
            self.legal,
            self.mate,
            self.attacks,
            self.pseudo,
            self.mated,
            self.unmated,
            self.ordered,
            self.winning,
            *self.kept,
        )
        for table in tables:
            table.clear()

    def size(self) -> int:
        return len(self.captures) + len(self.checks) + len(self.legal) + len(self.mate)


_MEMO: Final = _Memo()


def _options() -> tuple[int, ...]:
    """The module's options, part of the key of memoised results that depend on them."""
    return (
        MATE_CHECKS,
        GAIN_CHECKS,
        EXCHANGE_MATE_CHECKS,
        REPLY_CHECKS,
        MAX_PLIES,
        LINE_NODES,
        MATE_NODES,
    )


#: The memo is emptied when it grows past this many entries.
_MEMO_LIMIT: Final = 200_000


def _pseudo_captures(board: Board, side: Color) -> tuple[_Capture, ...]:
    """Every pseudo-legal capture by ``side`` of an enemy piece other than the king, as
    (origin, target, victim code), in board order of the capturing pieces (memoised).  One
    pass over the side's pieces serves :func:`_capture_list` and :func:`_attack_set`."""
    key = (board.zobrist_hash(), side)
    known = _MEMO.pseudo.get(key)
    if known is not None:
        return known
    squares = board.squares
    own = BLACK_BIT if side == BLACK else 0
    found = []
    for origin in range(90):
        code = squares[origin]
        if code and (code & BLACK_BIT) == own:
            for victim in board.capture_targets(origin):
                victim_code = squares[victim]
                if victim_code & 7 != KING:
                    found.append((origin, victim, victim_code))
    result = _MEMO.pseudo[key] = tuple(found)
    return result


def _capture_list(board: Board, pseudo: bool) -> list[tuple[int, int, int, Move]]:
    """(origin, target, victim code, move) of the captures of material by the side to move,
    most valuable victim first, cheapest attacker first (memoised)."""
    key = (board.zobrist_hash(), pseudo)
    known = _MEMO.captures.get(key)
    if known is not None:
        return known
    squares = board.squares
    found: list[tuple[int, int, int, int, int, Move]] = []
    for origin, victim, code in _pseudo_captures(board, board.turn):
        value = piece_value(code, victim)
        if not value:
            continue
        move = Move(origin, victim)
        if pseudo or board.is_legal(move):
            found.append((-value, _BASE_VALUE[squares[origin] & 7], origin, victim, code, move))
    found.sort()
    result = [(origin, victim, code, move) for _, _, origin, victim, code, move in found]
    _MEMO.captures[key] = result
    return result


def _captures(
    board: Board,
    pseudo: bool = False,
    standing: frozenset[_Capture] = frozenset(),
    moved: frozenset[int] = frozenset(),
) -> list[Move]:
    """Legal captures of material by the side to move, most valuable victim first, cheapest
    attacker first.  With ``pseudo`` the mover's own king safety is not checked; captures in
    ``standing`` (origin, target, victim code) are left out unless the target is in
    ``moved``."""
    entries = _capture_list(board, pseudo)
    if not standing:
        return [move for *_, move in entries]
    return [
        move
        for origin, victim, code, move in entries
        if victim in moved or (origin, victim, code) not in standing
    ]


def _legal(board: Board) -> list[Move]:
    """The legal moves of the side to move (memoised; in check, only the moves that can
    answer it are tried)."""
    key = board.zobrist_hash()
    known = _MEMO.legal.get(key)
    if known is None:
        known = _MEMO.legal[key] = _evasions(board) if board.is_check() else board.legal_moves()
    return known


def _ordered_evasions(board: Board) -> list[Move]:
    """The answers to a check, captures first (most valuable victim first), then king moves:
    the likeliest refutations first (memoised)."""
    key = board.zobrist_hash()
    known = _MEMO.ordered.get(key)
    if known is None:
        squares = board.squares
        king = board.king_squares[board.turn]
        known = sorted(
            _legal(board),
            key=lambda m: (
                -piece_value(squares[m.to_square], m.to_square) if squares[m.to_square] else 0,
                m.from_square != king,
            ),
        )
        _MEMO.ordered[key] = known
    return known


def _evasions(board: Board) -> list[Move]:
    """The legal moves of the side to move, which is in check: king moves, captures of a
    checker, blocks on a checking line or knight leg, and moves of a cannon's screen."""
    side = board.turn
    king = board.king_squares[side]
    squares = board.squares
    own = BLACK_BIT if side == BLACK else 0
    targets: set[int] = set()
    screens: set[int] = set()
    checkers = board.attackers(king, 1 - side)
    for checker in checkers:
        targets.add(checker)
        kind = squares[checker] & 7
        if kind == KNIGHT:
            targets.update(leg for origin, leg in KNIGHT_ATTACKS[king] if origin == checker)
        elif kind in (ROOK, CANNON):
            between = _between_squares(checker, king)
            targets.update(between)
            screens.update(sq for sq in between if squares[sq] and (squares[sq] & BLACK_BIT) == own)
    candidates = list(board.piece_moves(king))
    for sq in screens:
        candidates.extend(board.piece_moves(sq))
    for target in targets:
        occupied = squares[target]
        for origin in board.attackers(target, side):
            if origin == king or origin in screens:
                continue
            if occupied or squares[origin] & 7 != CANNON:
                candidates.append(Move(origin, target))
        if not occupied:
            # A cannon moves to an empty square along a clear line, with no screen.
            for ray in RAYS[target]:
                for sq in ray:
                    code = squares[sq]
                    if code:
                        if code == CANNON | own and sq not in screens:
                            candidates.append(Move(sq, target))
                        break
    # Against a single checker, a move of a piece off the king's file, rank and knight legs
    # that takes the checker, or steps onto the empty line of a rook or the leg of a knight,
    # answers the check and exposes nothing: legal without being made.  (A piece stepping
    # between a cannon and the king may give a second cannon its screen: it is made.)
    single = blocks = -1
    if len(checkers) == 1 and squares[checkers[0]] & 7 != KING:
        single = checkers[0]
        blocks = squares[single] & 7
    near = SHIELD[king]
    found = []
    for move in dict.fromkeys(candidates):
        f, t = move
        if (
            single >= 0
            and f != king
            and not near[f]
            and (t == single or (not squares[t] and (blocks == ROOK or blocks == KNIGHT)))
        ):
            found.append(move)
            continue
        captured = board._make(move)
        safe = not board.is_in_check(side)
        board._unmake(move, captured)
        if safe:
            found.append(move)
    return found


def _attack_set(board: Board, side: Color) -> frozenset[_Capture]:
    """The pseudo-legal captures of material open to ``side``, as (origin, target, victim
    code): what a later node compares with to keep only the captures a line made possible."""
    key = (board.zobrist_hash(), side)
    known = _MEMO.attacks.get(key)
    if known is None:
        known = _MEMO.attacks[key] = frozenset(_pseudo_captures(board, side))
    return known


def _between_squares(a: int, b: int) -> list[int]:
    """The squares strictly between ``a`` and ``b`` on a rank or a file, from ``a``'s side."""
    if a // 9 == b // 9:
        step = 1 if b > a else -1
    elif a % 9 == b % 9:
        step = 9 if b > a else -9
    else:
        return []
    return list(range(a + step, b, step))


def _checks(board: Board) -> list[Move]:
    """Legal moves of the side to move that give check (memoised)."""
    key = board.zobrist_hash()
    known = _MEMO.checks.get(key)
    if known is None:
        known = _MEMO.checks[key] = _find_checks(board)
    return known


def _find_checks(board: Board) -> list[Move]:
    """The legal checking moves of the side to move.  Only moves that may check are tried: those
    of a piece that shields the enemy king and would uncover an attack on it (a discovered
    check), and those landing where the piece may check (:data:`CHECK_LANDING`); a rook or
    cannon off the king's lines reaches them only where its own rank and file cross them.  A
    move that can uncover nothing checks from where it lands or not at all
    (:func:`_checks_from`), which is told without making it."""
    side = board.turn
    king = board.king_squares[1 - side]
    shield = SHIELD[king]
    squares = board.squares
    own = BLACK_BIT if side == BLACK else 0
    kf, kr = king % 9, king // 9
    # In a what-if position the enemy king may stand attacked already: then every move that
    # keeps the attack checks, and each candidate is made.
    attacked = board.is_in_check(1 - side)
    candidates: list[tuple[Move, bool]] = []
    for sq in range(90):
        code = squares[sq]
        if not code or (code & BLACK_BIT) != own:
            continue
        kind = code & 7
        if shield[sq]:
            if kind == KING or _uncovers_check(board, sq, side):
                candidates.extend((m, True) for m in board.piece_moves(sq))
            else:
                # Off the board the piece would expose nothing: its move checks only from
                # where it lands (directly, or as a new cannon screen), as any other piece's.
                landing = CHECK_LANDING[kind][king]
                candidates.extend(
                    (m, attacked) for m in board.piece_moves(sq) if landing[m.to_square]
                )
        elif kind == ROOK or kind == CANNON:
            for target in (sq // 9 * 9 + kf, kr * 9 + sq % 9):
                move = Move(sq, target)
                if board.is_pseudo_legal(move):
                    candidates.append((move, attacked))
        else:
            landing = CHECK_LANDING[kind][king]
            candidates.extend((m, attacked) for m in board.piece_moves(sq) if landing[m.to_square])
    found = []
    # A move between squares that shield nothing of the side's own king, while that king is
    # not attacked, cannot expose it (as in Board.is_legal); _checks_from is exact for the
    # moves not made, so such a move is a check found without making it.
    near = SHIELD[board.king_squares[side]]
    calm = not board.is_check()
    for move, made in candidates:
        if not made:
            if not _checks_from(squares, move, side, king):
                continue
            if calm and not (near[move.from_square] or near[move.to_square]):
                found.append(move)
                continue
        captured = board._make(move)
        ok = board.is_in_check(1 - side) and not board.is_in_check(side)
        board._unmake(move, captured)
        if ok:
            found.append(move)
    return found


def _checks_from(squares: list[int], move: Move, side: Color, king: int) -> bool:
    """Whether ``side``'s piece making ``move`` attacks the enemy ``king`` from where it lands,
    directly or as the only screen of one of its cannons (the square it leaves counted empty).
    Exact for a move whose piece, taken off the board, would expose nothing
    (:func:`_uncovers_check`) while the king is not attacked: the square left opens no line
    (other than the one the piece moves along, counted here), and the square taken still
    blocks the lines it blocked."""
    f, t = move
    code = squares[f]
    kind = code & 7
    index = t * 90 + king
    if kind == KNIGHT:
        leg = KNIGHT_LEG[index]
        if leg >= 0 and not squares[leg]:
            return True
    elif kind == PAWN and t in PAWN_ATTACKERS[side][king]:
        return True
    between = BETWEEN[index]
    if between is None:
        return False
    screens = 0
    for sq in between:
        if squares[sq] and sq != f:
            screens += 1
    if kind == ROOK and not screens:
        return True
    if kind == CANNON and screens == 1:
        return True
    if screens:
        return False
    # Nothing between: the piece is a new screen if the first piece beyond it is a cannon of
    # the side's.
    for ray in RAYS[king]:
        if t in ray:
            for sq in ray[ray.index(t) + 1 :]:
                if squares[sq] and sq != f:
                    return squares[sq] == CANNON | (code & BLACK_BIT)
            return False
    return False


def _uncovers_check(board: Board, sq: int, side: Color) -> bool:
    """Whether the enemy king would be attacked with ``side``'s piece on ``sq`` taken off the
    board: only then may a move of that piece give a discovered check (or keep a check
    already given, in a what-if position where the enemy king stands attacked)."""
    # Board.without_piece without its hash and check-cache bookkeeping: is_in_check reads the
    # squares and the occupancy only (asked for every piece that shields the enemy king).
    squares = board.squares
    code = squares[sq]
    occupied = board._occupied
    squares[sq] = 0
    board._occupied = occupied & ~(1 << sq)
    try:
        return board.is_in_check(1 - side)
    finally:
        squares[sq] = code
        board._occupied = occupied


# -- mate threats (24.2 杀) ------------------------------------------------------------------


class _Budget:
    """A node counter shared by the searches of one probe."""

    def __init__(self, nodes: int) -> None:
        self.left = nodes
        self.exhausted = False

    def spend(self) -> bool:
        self.left -= 1
        if self.left < 0:
            self.exhausted = True
        return self.left >= 0


def mates_by_checks(
    board: Board, checks: int, budget: _Budget | None = None, quiet_first: bool = False
) -> bool:
    """Whether the side to move mates by a check or an unbroken series of at most ``checks``
    checks against every defence (24.2; "停着不算杀": quiet moves do not count).  Stalemating the
    defender (困毙) also wins.  With ``quiet_first`` the first check must capture nothing.
    Bounded by ``budget``; an exhausted budget answers no.  Iterative deepening: the shortest
    mate is tried first; what is proven is memoised across searches (:data:`_MEMO`)."""
    budget = budget or _Budget(MATE_NODES)
    proven, refuted = _MEMO.mated, _MEMO.unmated
    root = board.zobrist_hash()
    squares = board.squares
    exhausted = False

    def attack(depth: int) -> bool:
        nonlocal exhausted
        key = board.zobrist_hash()
        first = quiet_first and key == root
        if not first:
            if proven.get(key, MATE) <= depth:
                return True
            if refuted.get(key, 0) >= depth:
                return False
        for move in _checks(board):
            if first and squares[move.to_square]:
                continue
            if not budget.spend():
                exhausted = True
                return False
            board.push(move)
            try:
                mated = defend(depth)
            finally:
                board.pop()
            if mated:
                if not first:
                    proven[key] = min(depth, proven.get(key, MATE))
                return True
        if not first and not exhausted:
            refuted[key] = max(depth, refuted.get(key, 0))
        return False

    def defend(depth: int) -> bool:
        """The defender, in check, is to move: does every evasion lose?"""
        if depth <= 1:
            return not board.has_legal_move()
        evasions = _ordered_evasions(board)  # taking the checker first: the likeliest escape
        if not evasions:
            return True
        for evasion in evasions:
            board.push(evasion)
            try:
                if not attack(depth - 1):
                    return False
            finally:
                board.pop()
        return True

    return any(attack(depth) for depth in range(1, checks + 1))


def threatens_mate(board: Board) -> bool | None:
    """杀 (24.2): whether the side to move mates by a series of at most :data:`MATE_CHECKS`
    checks, the first of which captures nothing (a mating attack that opens by taking material
    is graded by that capture, 捉: 图17 "如黑方吃车则双车尽失，判捉"; docs/cxa.md).  None when
    the search ran out of nodes before it could tell."""
    budget = _Budget(MATE_NODES)
    if mates_by_checks(board, MATE_CHECKS, budget, quiet_first=True):
        return True
    return None if budget.exhausted else False


def mate_in_one(board: Board) -> bool:
    """Whether the side to move mates at once (the "立即被将死" of 24.3; memoised)."""
    key = board.zobrist_hash()
    known = _MEMO.mate.get(key)
    if known is None:
        known = _MEMO.mate[key] = mates_by_checks(board, 1, _Budget(10_000))
    return known


# -- the material look-ahead (24.3 捉) -------------------------------------------------------


class _Line(NamedTuple):
    """A line of the look-ahead: its score for the probing side, and its moves."""

    score: int
    moves: tuple[Move, ...]


@dataclass(frozen=True)
class Gain:
    """A way for a side to win material: a line found by the look-ahead of 24.3.

    ``victim`` is the square of the first enemy piece taken, ``target`` that of the most
    valuable one; ``capturers`` the squares (in the position probed) of the side's pieces that
    take part in winning the target; ``how`` one of ``direct``, ``checks``, ``exchange``.
    """

    victim: int
    victim_code: int
    #: The most valuable piece taken in the line, which the chase is "of" (26.9).
    target: int
    target_code: int
    value: int
    line: tuple[Move, ...]
    capturers: tuple[int, ...]
    #: The piece that just moved, when it takes part in winning the target without taking it.
    helpers: tuple[int, ...]
    how: str
    #: The target could be taken back where it fell (有根子 or 少根子), rather than 无根子.
    protected: bool
    #: The target has a root that cannot take back because another of the side's pieces pins
    #: it or covers the square (假根): a joint chase too (图11, 图28 "车炮联合捉子").
    covered: bool
    #: ``value`` is a lower bound: the exact search ran out of nodes, and a null-window search
    #: proved the gain (see :data:`LINE_NODES`).
    bounded: bool = False

    @property
    def joint(self) -> bool:
        """Two or more of the side's pieces make the gain together (联合捉, 24.3)."""
        return len(self.capturers) + len(self.helpers) > 1 or self.covered

    @property
    def heavy(self) -> bool:
        """A single-piece chase of a rook or of an unprotected piece (26.9, §3.4)."""
        return not self.joint and (self.target_code & 7 == ROOK or not self.protected)


class _Prober:
    """The look-ahead of one side in one position: what it could win if it were to move.

    A bounded alpha-beta search over captures and checks with real legal moves, scored from the
    probing side's point of view (material won minus material lost, :class:`_Tally`).  Either
    side may stop when not in check (stand pat), capture, or check while it has checks left
    (the side :data:`GAIN_CHECKS`, the opponent :data:`REPLY_CHECKS`: enough to win material back
    by a discovered check, 图16, or to mate a greedy capturer, 图8); a side in check answers
    with any legal move.  To keep a line about one gain, later captures must be new: the side
    does not cash a standing winning capture of its own in the middle of a line, and the
    opponent, after its first reply (where any capture may answer: 各吃各子, 26.5), only
    recaptures or takes what the line exposed.  A capture the opponent could make anyway (one
    that wins on its own in the probed position, :func:`_winning_captures`) is never an answer:
    it is its own chase, judged on its own moves (P2, CXA.md §5.6).  A gain after which the
    opponent mates at once does not count (24.3); nor does one the side cannot keep because the
    opponent then threatens mate in one (a piece that "cannot leave its line", 图7).
    """

    def __init__(
        self,
        board: Board,
        moved: int = -1,
        strict: bool = False,
        counters: bool = True,
        lasting: frozenset[_Capture] | None = None,
        vacated: int = -1,
    ) -> None:
        self.board = board
        #: The square the piece that just moved came from (-1: none, or not known).
        self.vacated = vacated
        #: Whether to find the opponent's independent captures (P2); off for the probe that
        #: finds them.
        self.counters = counters
        #: When set, only the opponent's independent captures among these are left out of
        #: the lines (see :func:`classify_move`: those the move does not parry).
        self.lasting = lasting
        #: The square of the piece that just moved (its help in a gain makes it joint).
        self.moved = moved
        #: Lines whose search runs out of nodes are dropped (the position after the move).
        self.strict = strict
        self.side: Color = board.turn
        self.budget = _Budget(LINE_NODES)
        self._threat_memo: dict[int, bool] = {}
        self._independent_set: frozenset[_Capture] = frozenset()
        #: The opponent's captures that win on their own in the probed position: its own
        #: chases, not answers to the side's line (P2, CXA.md §5.6).
        self._counter_set: frozenset[_Capture] = frozenset()
        #: The opponent's captures left out of the line being searched (P2); none outside
        #: :meth:`line`.
        self._pruned: frozenset[_Capture] = frozenset()
        #: The best line after each first move tried, gain or not.
        self.lines: dict[Move, _Line] = {}
        #: Whether the leaves test for mate (see :meth:`line`).
        self.careful = True
        #: The pairs (the side's piece, the opponent's piece of the same type) found offering
        #: an exchange (兑) rather than chasing.
        self.offers: list[tuple[int, int]] = []
        #: The first moves whose line's score is a lower bound (the exact search ran out).
        self.bounded: set[Move] = set()

    def _opponent_mates(self) -> bool:
        """The opponent, to move, mates at once."""
        return mate_in_one(self.board)

    def _opponent_threatens_mate(self) -> bool:
        """The side, to move, would be mated at once if it passed, and no quiet move of its
        parries the threat: it cannot keep what it won (a piece that "cannot leave its line",
        图7 "红车可垫将还杀")."""
        board = self.board
        key = board.zobrist_hash()
        known = self._threat_memo.get(key)
        if known is None:
            with board.passed_turn():
                known = mate_in_one(board)
            if known:
                for move in _legal(board):
                    if board.squares[move.to_square] or not self.budget.spend():
                        continue
                    board.push(move)
                    try:
                        parried = not mate_in_one(board)
                    finally:
                        board.pop()
                    if parried:
                        known = False
                        break
            self._threat_memo[key] = known
        return known

    def gains(self, pseudo_first: bool = False) -> list[Gain]:
        """Every first move of the side that wins material, with its best line.

        With ``pseudo_first`` the first capture may leave the side's king attacked: the threats
        of a side in check "as they stood before it answered the check" (26.1.4).  A capture of
        a piece of the same type that could capture back is an offer to exchange (兑, 24.4),
        not a gain.
        """
        board = self.board
        found: list[Gain] = []
        for move in self.prepare(pseudo_first):
            f, t = move
            captured = board.squares[t]
            if captured and captured & 7 == board.squares[f] & 7 and self._exchange(move):
                # The two pieces face each other and the opponent's may take first: an offer
                # (兑, 24.4) when the move lined them up (图2 车９平８) or the capturer can be
                # taken back.  Otherwise the capture wins a piece that cannot take back, as
                # any other capture does (P4: a rook taking an undefended rook).
                self.offers.append((f, t))
                if self._lined_up(move) or self._recapturable(move):
                    continue
            # P5: 26.5 holds for every form of 24.3, so an even trade (各吃各子) counts at the
            # end of checks as after a capture; what was given up before the first capture is
            # the gain's price (:meth:`_Tally.after`).
            line, check = self.line(move, pseudo_first, EVEN_TRADE - 1)
            if line.score >= EVEN_TRADE and (captured or line.score < MATE // 2):
                gain = self._describe((move, *line.moves), line.score, check)
                if move in self.bounded:
                    gain = replace(gain, bounded=True)
                if not self._offered(gain):
                    found.append(gain)
        return found

    def prepare(self, pseudo_first: bool = False) -> list[Move]:
        """The side's first moves (captures of material, then checks), and the captures that
        win on their own (:meth:`_independent`)."""
        board = self.board
        firsts = _captures(board, pseudo=pseudo_first)
        if GAIN_CHECKS and not pseudo_first:
            firsts += [m for m in _checks(board) if m not in firsts]
        self._independent_set = self._independent(firsts)
        if self.counters:
            with board.passed_turn():
                self._counter_set = _winning_captures(board)
            if self.lasting is not None:
                self._counter_set &= self.lasting
        return firsts

    def line(
        self, move: Move, pseudo_first: bool = False, alpha: int = -MATE - 1
    ) -> tuple[_Line, bool]:
        """The best line after the first move ``move`` (exact above ``alpha``), and whether
        that move checks.  Call :meth:`prepare` first."""
        board = self.board
        f, t = move
        captured = board.squares[t]
        kind = board.squares[f] & 7
        self.budget = _Budget(LINE_NODES)
        board.push(move)
        try:
            check = board.is_check()
            licensed = kind in (KING, PAWN) and not check
            tally = _Tally().after(move, captured, True, licensed)
            if pseudo_first and board.is_in_check(self.side):
                line = self._after_pseudo(tally, t)
            else:
                # First a null window: most first moves win nothing, and that is quickly shown.
                # The mate tests of the leaves are costly: search without them, and again with
                # them only when the line found ends where one of them would bite.
                checks, none, moved = GAIN_CHECKS - check, frozenset[_Capture](), frozenset((t,))
                # P2: the opponent's independent captures are no answer to this line.
                self._pruned = self._counter_set
                self.careful = False
                line = self._search(tally, 1, alpha, alpha + 1, checks, REPLY_CHECKS, none, moved)
                if line.score > alpha and not self.budget.exhausted:
                    line = self._search(
                        tally, 1, alpha, MATE + 1, checks, REPLY_CHECKS, none, moved
                    )
                    if line.score > max(alpha, 0) and self._bites(line):
                        self.careful = True
                        line = self._search(
                            tally, 1, alpha, MATE + 1, checks, REPLY_CHECKS, none, moved
                        )
                    if self.strict and self.budget.exhausted:
                        # The null window showed a gain above ``alpha`` that the exact search
                        # ran out of nodes on: prove it with the mate tests, on a budget of its
                        # own, and keep that lower bound rather than lose a real gain (a lower
                        # bound after the move never makes a chase that is not there).
                        self.careful = True
                        self.budget = _Budget(LINE_NODES)
                        line = self._search(
                            tally, 1, alpha, alpha + 1, checks, REPLY_CHECKS, none, moved
                        )
                        self.bounded.add(move)
                self.careful = True
        finally:
            self._pruned = frozenset()
            board.pop()
        if self.strict and self.budget.exhausted:
            line = _Line(-MATE, ())
        self.lines[move] = line
        return line, check

    def wins(self, move: Move) -> bool:
        """Whether the first move ``move`` (a capture) wins material, every test of the
        look-ahead applied: a null window only, which is all :func:`_winning_captures` asks.
        Call :meth:`prepare` first.  A search that runs out of nodes answers no."""
        board = self.board
        f, t = move
        captured = board.squares[t]
        licensed = board.squares[f] & 7 in (KING, PAWN)
        self.budget = _Budget(LINE_NODES)
        board.push(move)
        try:
            check = board.is_check()
            tally = _Tally().after(move, captured, True, licensed and not check)
            checks, none, moved = GAIN_CHECKS - check, frozenset[_Capture](), frozenset((t,))
            self._pruned = self._counter_set
            self.careful = False
            line = self._search(tally, 1, 0, 1, checks, REPLY_CHECKS, none, moved)
            if line.score > 0 and not self.budget.exhausted:
                self.careful = True
                line = self._search(tally, 1, 0, 1, checks, REPLY_CHECKS, none, moved)
        finally:
            self.careful = True
            self._pruned = frozenset()
            board.pop()
        return line.score > 0 and not self.budget.exhausted

    def _bites(self, line: _Line) -> bool:
        """Whether a mate test would change the end of ``line`` (played from the current
        position): the opponent to move mates at once, or the side to move cannot keep its
        gain."""
        board = self.board
        for move in line.moves:
            board.push(move)
        try:
            if board.is_check():
                return False
            if board.turn == self.side:
                return self._opponent_threatens_mate()
            return self._opponent_mates()
        finally:
            for _ in line.moves:
                board.pop()

    def _offered(self, gain: Gain) -> bool:
        """Whether the victim could take one of its capturers of its own type first, without
        loss: the two pieces offer an exchange (兑, 24.4), and the gain is no chase (参考图4:
        a knight that becomes a cannon's screen offers the cannons; 参考图50)."""
        squares = self.board.squares
        kind = gain.victim_code & 7
        for origin in gain.capturers:
            if (
                origin != gain.line[0].from_square
                and squares[origin] & 7 == kind
                and self._exchange(Move(origin, gain.victim))
            ):
                self.offers.append((origin, gain.victim))
                return True
        return False

    def _lined_up(self, move: Move) -> bool:
        """Whether the piece that just moved lined up the two pieces of ``move`` (a capture of
        a piece of the capturer's type): it is the capturer, or it left the line, the knight's
        leg or the elephant's eye between them (P4: the move's own role is then an offer)."""
        f, t = move
        if self.moved < 0:
            return False
        if f == self.moved:
            return True
        vacated = self.vacated
        if vacated < 0:
            return False
        kind = self.board.squares[f] & 7
        index = f * 90 + t
        if kind == ROOK or kind == CANNON:
            return vacated in (BETWEEN[index] or ())
        if kind == KNIGHT:
            return KNIGHT_LEG[index] == vacated
        if kind == ELEPHANT:
            return ELEPHANT_EYE[self.side][index] == vacated
        return False

    def _independent(self, firsts: list[Move]) -> frozenset[_Capture]:
        """The captures among ``firsts`` (of the side to move on the board) that win on their
        own (the victim cannot be recaptured, or is worth more than the capturer) or are offers
        to exchange.  The side's: later in a line they are a separate gain, not part of this one
        (its own first move).  For the opponent (the turn passed) this is the static part of
        :func:`_winning_captures`: a capture it could make anyway, which no line nets (P2)."""
        board = self.board
        squares = board.squares
        found = set()
        for move in firsts:
            f, t = move
            victim, attacker = squares[t], squares[f]
            if not victim:
                continue
            if (
                piece_value(victim, t) > _BASE_VALUE[attacker & 7]
                or victim & 7 == attacker & 7
                or not self._recapturable(move)
            ):
                found.add((f, t, victim))
        return frozenset(found)

    def _exchange(self, move: Move) -> bool:
        """Whether the piece attacked by ``move`` could itself take the attacker first without
        being mated or losing material at once for it: then the two pieces offer an exchange
        (兑, 24.4) and neither chases the other.  (图17: "如黑方吃车则双车尽失" is no 兑.)"""
        board = self.board
        back = Move(move.to_square, move.from_square)
        attacker = board.squares[move.from_square]
        saved, self.budget = self.budget, _Budget(LINE_NODES)
        try:
            return self._exchange_lost(board, back, move, attacker)
        finally:
            self.budget = saved

    def _exchange_lost(self, board: Board, back: Move, move: Move, attacker: int) -> bool:
        with board.passed_turn():
            if not board.is_legal(back):
                return False
            replies = _attack_set(board, board.turn)
            board.push(back)
            try:
                if mates_by_checks(board, EXCHANGE_MATE_CHECKS, _Budget(MATE_NODES)):
                    return False  # the piece "cannot leave its line" (图29 "不能离线，判杀")
                tally = _Tally(takers=frozenset((move.from_square,))).after(back, attacker, False)
                line = self._search(tally, 1, 0, 1, 0, 0, replies, frozenset((back.to_square,)))
            finally:
                board.pop()
        return line.score <= 0

    def _after_pseudo(self, tally: _Tally, target: int) -> _Line:
        """After a first capture that left the side in check: the opponent may recapture (but
        not take the king) or stop; no mate test."""
        best = _Line(tally.score(), ())
        board = self.board
        for move in _captures(board):
            if move.to_square != target:
                continue
            captured = board.squares[move.to_square]
            board.push(move)
            try:
                line = self._search(
                    tally.after(move, captured, False),
                    2,
                    -MATE - 1,
                    best.score,
                    0,
                    0,
                    frozenset(),
                    frozenset((target,)),
                )
            finally:
                board.pop()
            if line.score < best.score:
                best = _Line(line.score, (move, *line.moves))
        return best

    def _search(
        self,
        tally: _Tally,
        ply: int,
        alpha: int,
        beta: int,
        side_checks: int,
        reply_checks: int,
        previous: frozenset[_Capture],
        moved: frozenset[int],
    ) -> _Line:
        """One node of the look-ahead, either side to move.

        ``previous`` holds the opponent's captures at its previous turn (empty at its first
        turn, where any capture may answer: 各吃各子, 26.5); ``moved`` the squares of the
        pieces that moved in the line.  Captures of a moved piece always count; other captures
        count for the side unless they won on their own in the probed position
        (:meth:`_independent`), for the opponent only when the line made them possible.
        """
        board = self.board
        mover = board.turn
        maximizing = mover == self.side
        checks_left = side_checks if maximizing else reply_checks
        mine = previous
        # The side's checks (and the opponent's) are generated only once the captures are
        # searched without a cut-off: the same moves in the same order, fewer generated.
        pending = False
        standing: frozenset[_Capture] = frozenset()
        if board.is_check():
            moves = _ordered_evasions(board)
            if not moves:
                return _Line(-MATE if maximizing else MATE, ())
            if ply >= MAX_PLIES or not self.budget.spend():
                return _Line(tally.score(), ())
            best = _Line(-MATE - 1 if maximizing else MATE + 1, ())
        else:
            score = tally.score()
            if score > 0 and self.careful:
                if maximizing and self._opponent_threatens_mate():
                    score = 0  # the gain cannot be kept: the piece cannot leave its line (图7)
                elif not maximizing and self._opponent_mates():
                    return _Line(-MATE, ())  # the winner is mated at once (24.3)
            best = _Line(score, ())
            if maximizing:
                alpha = max(alpha, score)
            else:
                beta = min(beta, score)
            if ply >= MAX_PLIES or alpha >= beta or not self.budget.spend():
                return best
            if maximizing:
                standing = self._independent_set
            else:
                # P2 (CXA.md §5.6): the line ends when its material is won.  The opponent
                # answers it: at its first turn by any capture (各吃各子, 26.5) but one it
                # could make anyway (its own chase, not netted against this one: neither
                # against a 将军得子 nor as an "even 各吃各子"), later only by captures the
                # line made possible.  Captures of a piece that moved in the line always count.
                standing = previous | self._pruned
                mine = _attack_set(board, mover)
            moves = _captures(board, standing=standing, moved=moved)
            pending = checks_left > 0
        batch = moves
        while True:
            for move in batch:
                f, t = move
                captured = board.squares[t]
                kind = board.squares[f] & 7
                board.push(move)
                try:
                    spent = 1 if board.is_check() else 0
                    # A king's or pawn's own capture is licensed (26.1), unless it gives check
                    # (26.8).
                    next_tally = tally.after(
                        move, captured, maximizing, kind in (KING, PAWN) and not spent
                    )
                    line = self._search(
                        next_tally,
                        ply + 1,
                        alpha,
                        beta,
                        side_checks - spent if maximizing else side_checks,
                        reply_checks if maximizing else reply_checks - spent,
                        mine,
                        (moved - {f}) | {t},
                    )
                finally:
                    board.pop()
                if maximizing:
                    if line.score > best.score:
                        best = _Line(line.score, (move, *line.moves))
                        alpha = max(alpha, best.score)
                elif line.score < best.score or (line.score == best.score and not best.moves):
                    # On a tie the opponent's reply is shown rather than its standing still:
                    # the line then names every piece that takes part (参考图50).
                    best = _Line(line.score, (move, *line.moves))
                    beta = min(beta, best.score)
                if alpha >= beta:
                    return best
            if not pending:
                return best
            pending = False
            squares = board.squares
            left_out = standing if maximizing else self._pruned
            batch = [
                m
                for m in _checks(board)
                if m not in moves
                and not (
                    m.to_square not in moved
                    and (m.from_square, m.to_square, squares[m.to_square]) in left_out
                )
            ]

    def _describe(self, line: tuple[Move, ...], score: int, check: bool) -> Gain:
        """Replay ``line`` to name the victim (the first piece the side takes) and the target
        (the most valuable one it takes that stood in the probed position), the pieces that
        take part in winning the target, and how it is won.

        The target is what the line wins, the piece the chase is "of" (26.9): not a piece the
        opponent moved in the line, a capturer taken back or a piece thrown in at its end (an
        interposition the side takes, a rook offered to the king), unless the side takes no
        other.

        The pieces that take part are those that capture on the target's square, and the
        piece that just moved (:attr:`moved`) when it acts in the line: it captures, checks,
        or attacks the target as it falls (车炮联合: 图14 参考图14, 参考图34, 参考图38,
        参考图41).  A moved piece that only uncovers or screens another's capture does not
        take part (参考图47: a cannon mount; 图26: a cannon that clears the line)."""
        board = self.board
        side = self.side
        enemy_king = board.king_squares[1 - side]
        moved = self.moved
        origin_of: dict[int, int] = {}  # current square -> square in the probed position
        # The side's captures: (index, origin, square, captured code, of a piece the
        # opponent moved in the line).
        captures: list[tuple[int, int, int, int, bool]] = []
        thrown: set[int] = set()  # where the opponent's pieces that moved in the line stand
        active: set[int] = set()  # indices of captures at which the moved piece acted
        acted = False
        recaptured = False
        rooted: dict[int, tuple[bool, bool]] = {}
        pushed = 0
        try:
            for index, move in enumerate(line):
                f, t = move
                code = board.squares[f]
                captured = board.squares[t]
                mine = code_color(code) == side
                origin = origin_of.pop(f, f) if mine else -1
                if not mine:
                    origin_of.pop(t, None)
                if captured and mine:
                    # A piece that has moved in the line (taken, or been thrown in) is not
                    # what the chase is of.
                    captures.append((index, origin, t, captured, t in thrown))
                    rooted[index] = (self._recapturable(move), self._nominal_root(move))
                    where = next((sq for sq, o in origin_of.items() if o == moved), moved)
                    if origin == moved or acted or where in board.attackers(t, side):
                        active.add(index)
                elif captured:
                    recaptured = True
                if not mine:
                    thrown.discard(f)
                    thrown.add(t)
                board.push(move)
                pushed += 1
                if mine:
                    origin_of[t] = origin
                    if origin == moved and captured:
                        acted = True
                    where = next((sq for sq, o in origin_of.items() if o == moved), moved)
                    king = board.king_squares[1 - side]
                    if where >= 0 and where in board.attackers(king, side):
                        acted = True
        finally:
            for _ in range(pushed):
                board.pop()
        del enemy_king
        how = "checks" if check else "exchange" if recaptured else "direct"
        if not captures:
            return Gain(-1, 0, -1, 0, score, line, (), (), how, False, False)
        chased = [c for c in captures if not c[4]] or captures
        best = max(chased, key=lambda c: (piece_value(c[3], c[2]), -c[0]))
        first, _origin, target, target_code, _recapture = best
        taking = {c[1] for c in captures if c[2] == target}
        helping = {moved} - taking if moved >= 0 and first in active else set()
        protected, covered = rooted[first]
        return Gain(
            captures[0][2],
            captures[0][3],
            target,
            target_code,
            score,
            line,
            tuple(sorted(taking)),
            tuple(sorted(helping)),
            how,
            protected,
            covered,
        )

    def _nominal_root(self, move: Move) -> bool:
        """Whether, after ``move`` (a capture), a root of the victim cannot take back because
        another of the side's pieces pins it or covers the square (假根; 图11, 图28, 参考图38:
        车炮联合)."""
        board = self.board
        board.push(move)
        try:
            return any(
                not board.is_legal(Move(origin, move.to_square))
                for origin in board.attackers(move.to_square, board.turn)
            )
        finally:
            board.pop()

    def _recapturable(self, move: Move) -> bool:
        """Whether the opponent can legally recapture on the square of ``move`` after it."""
        board = self.board
        board.push(move)
        try:
            return any(m.to_square == move.to_square for m in _captures(board))
        finally:
            board.pop()


def _winning_captures(board: Board) -> frozenset[_Capture]:
    """The captures of the side to move that win material on their own (memoised): the
    victim cannot be taken back or is worth more than the capturer (:meth:`_Prober._independent`),
    and the look-ahead after the capture, every answer of the other side searched (its
    tactical roots: a check that wins the capturer back, a mate), still comes out ahead.

    These are the side's own chases.  When the other side is probed, they are no answer to its
    lines (P2, CXA.md §5.6: "a capture the opponent could make anyway … is its own chase, judged
    on its own moves"); a capture that only a tactical root keeps from paying is an answer
    (参考图28: the rook that is the knight's root by its checks, "做根子").
    """
    key = board.zobrist_hash(), _options()
    known = _MEMO.winning.get(key)
    if known is not None:
        return known
    prober = _Prober(board, counters=False)
    firsts = prober.prepare()
    candidates = prober._independent([m for m in firsts if board.squares[m.to_square]])
    squares = board.squares
    found = set()
    for origin, target, code in candidates:
        move = Move(origin, target)
        if squares[origin] & 7 == code & 7 and prober._recapturable(move):
            # An offer to exchange, not a gain; but a capture of a piece of the same type that
            # cannot be taken back wins it (P4: a rook taking an undefended rook).
            continue
        if prober.wins(move):
            found.add((origin, target, code))
    result = _MEMO.winning[key] = frozenset(found)
    return result


def gains_of(board: Board, pseudo_first: bool = False) -> list[Gain]:
    """What the side to move could win (24.3), one entry per winning first move."""
    return _Prober(board).gains(pseudo_first)
