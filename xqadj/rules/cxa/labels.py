"""The CXA profile's move labels: 将 杀 捉 兑 献 拦 跟 闲 for a move of a cycle (24.1–24.8).

They follow the five principles of CXA.md §5.6 (P1 parry, P2, P3, P4, P5).

Layer: rules (the CXA profile).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, NamedTuple

from xqadj.board import (
    ADVISOR,
    BETWEEN,
    BLACK_BIT,
    CANNON,
    COLOR_NAMES,
    ELEPHANT,
    ELEPHANT_EYE,
    KING,
    KNIGHT,
    KNIGHT_LEG,
    PAWN,
    PIECE_NAMES,
    ROOK,
    Board,
    Move,
    code_color,
    square_name,
)
from xqadj.rules.cxa.search import (
    _MEMO,
    MATE_CHECKS,
    MATE_NODES,
    WEAK,
    Gain,
    _Budget,
    _checks,
    _crossed,
    _options,
    _ordered_evasions,
    _Prober,
    _Tally,
    mate_in_one,
    mates_by_checks,
    threatens_mate,
)

# -- labels ----------------------------------------------------------------------------------

CHECK, KILL, CHASE = "将", "杀", "捉"
EXCHANGE, OFFER, BLOCK, FOLLOW, IDLE = "兑", "献", "拦", "跟", "闲"
#: The labels that make a move "attacking": a side all of whose cycle moves carry one of them
#: plays a forbidden move (24.13).
ATTACKING: Final = frozenset({CHECK, KILL, CHASE})
_LABEL_NAMES: Final = {
    CHECK: "check",
    KILL: "mate threat",
    CHASE: "chase",
    EXCHANGE: "offer to exchange",
    OFFER: "offer",
    BLOCK: "block",
    FOLLOW: "follow",
    IDLE: "idle",
}


# -- classification --------------------------------------------------------------------------


class MoveLabel(NamedTuple):
    """A cycle move under the CXA rules: its label and, for 捉, the new gains that make it one."""

    move: Move
    label: str
    gains: tuple[Gain, ...] = ()
    note: str = ""
    #: 兑: the squares, after the move, of the mover's piece offered and of the opponent's piece
    #: of the same type that may take it (what a picture pairs); None for other labels.
    pair: tuple[int, int] | None = None
    #: 拦: the opponent's checking move that the moved piece now stands in the way of (what a
    #: picture draws through it); None for other labels.
    blocked: Move | None = None


def _new_gains(before: list[Gain], after: list[Gain]) -> list[Gain]:
    """The gains of ``after`` that are new, or larger than in ``before``, per victim (the first
    piece taken): 24.3 "产生于刚走的这着棋", 2007 细则5 "从捉到捉，按闲处理" (图5: the rook
    could take the advisor before its move and still can, "结果没有发生变化")."""
    best: dict[int, int] = {}
    for gain in before:
        best[gain.victim] = max(best.get(gain.victim, 0), gain.value)
    return [gain for gain in after if gain.value > best.get(gain.victim, 0)]


@dataclass
class _Classifier:
    """Classifies moves, memoised per (position hash, move, the move before and the position
    it was made from) for the length of one ruling: a move's label depends on the opponent's
    preceding move (P1, :func:`classify_move`)."""

    memo: dict[tuple[int, Move, tuple[int, Move] | None], MoveLabel] = field(default_factory=dict)

    def classify(self, board: Board, move: Move) -> MoveLabel:
        key = (board.zobrist_hash(), move, _preceding(board))
        known = self.memo.get(key)
        if known is None:
            known = self.memo[key] = classify_move(board, move)
        return known


def _preceding(board: Board) -> tuple[int, Move] | None:
    """The opponent's preceding move and the hash of the position it was made from."""
    if not board.move_stack:
        return None
    return board._undo[-1].hash_before, board.move_stack[-1]


def classify_move(board: Board, move: Move) -> MoveLabel:
    """Classify the legal ``move`` of the side to move; the board is left unchanged.

    将 (24.1) if it checks; 闲 if it is a king move answering a check (26.1.3); 杀 (24.2) if it
    makes a mate threat that was not there before (for a move answering a check, one that the
    check did not stop: 26.1.4); 捉 (24.3) if it makes a material gain possible that was not
    (:func:`_new_gains`; 从捉到捉 = 闲, 2007 细则5), unless the only gains are of 士/象 by the
    lone attacker of the side holding for a draw (26.2), or the move parries the attack of the
    opponent's preceding move and takes no part in them (P1, :func:`_parry_gains`); else 闲,
    told apart as 兑 or 献 where that is clear (24.4, 24.5, 24.8).

    The label depends on the board's last move (the opponent's preceding move, P1); with an
    empty move stack there is none, and only a check in the position counts as an attack.
    """
    label, offers = _classify_position(board, move)
    if label.label != CHASE:
        return label
    kept = _parry_gains(board, move, label.gains)
    if len(kept) == len(label.gains):
        return label
    if kept:
        return label._replace(gains=kept)
    idle = _idle(board, move, offers)
    return idle._replace(note=idle.note or _PARRY_NOTE)


_PARRY_NOTE: Final = (
    "parries the opponent's attack and takes no part in the capture it lets pay (P1)"
)


def _classify_position(board: Board, move: Move) -> tuple[MoveLabel, list[tuple[int, int]]]:
    """:func:`classify_move` before P1's parry test: a fact about the position and the move
    (memoised), with the offers to exchange the look-ahead found (for :func:`_idle`)."""
    key = (board.zobrist_hash(), move, _options())
    known = _LABEL_MEMO.get(key)
    if known is None:
        known = _LABEL_MEMO[key] = _classify_raw(board, move)
    return known


#: Move labels before P1's parry test (:func:`_classify_position`), emptied with the search's
#: memo (:data:`xqadj.rules.cxa.search._MEMO`).
_LABEL_MEMO: Final[
    dict[tuple[int, Move, tuple[int, ...]], tuple[MoveLabel, list[tuple[int, int]]]]
] = {}
_MEMO.keep(_LABEL_MEMO)


def _classify_raw(board: Board, move: Move) -> tuple[MoveLabel, list[tuple[int, int]]]:
    """See :func:`_classify_position`."""
    evading = board.is_check()
    moved_type = board.squares[move.from_square] & 7
    board.push(move)
    try:
        if board.is_check():
            return MoveLabel(move, CHECK), []
    finally:
        board.pop()
    if evading and moved_type == KING:
        # 26.1.3: a king move that answers a check is idle, whatever it threatens.
        return MoveLabel(move, IDLE, note="the king answers a check (26.1.3)"), []
    board.push(move)
    try:
        with board.passed_turn():
            kill_after = threatens_mate(board) is True
    finally:
        board.pop()
    if kill_after and (evading or threatens_mate(board) is not True):
        # 26.1.4: a check-answering move's mate threat counts when the check had stopped it;
        # otherwise the threat must be new.  (Had the side a mate before the move, it would
        # have played it rather than repeat: a search out of nodes before counts as no mate.)
        return MoveLabel(move, KILL), []
    board.push(move)
    try:
        with board.passed_turn():
            probe = _Prober(board, moved=move.to_square, strict=True, vacated=move.from_square)
            after = probe.gains()
    finally:
        board.pop()
    if not after:
        return _idle(board, move, probe.offers), probe.offers
    # Before the move: with the side in check, its threats as they stood before it answered
    # (26.1.4); otherwise as they stand.
    # The opponent's independent captures are left out of both probes (P2), except, before the
    # move, those the move does away with: they are what a parry parries (P1).
    prober = _Prober(board, lasting=probe._counter_set)
    before = prober.gains(pseudo_first=evading)
    new = _new_gains(before, after)
    if new and _ATTACK_VALUE[moved_type] and _lone_defender_moved(board, move):
        # 26.2: the lone attacker of a side holding for a draw, winning an advisor or an
        # elephant in passing, is idle; a gain of anything more is still a chase.  The gain is
        # told by what is first taken and by its value (a line's most valuable piece may be one
        # the opponent needlessly gave up along it).
        others = [g for g in new if g.victim_code & 7 not in (ADVISOR, ELEPHANT) or g.value > WEAK]
        if not others:
            label = _idle(board, move, probe.offers)
            return label._replace(note=label.note or _LONE_DEFENDER_NOTE), probe.offers
        new = others
    if new:
        return MoveLabel(move, CHASE, tuple(new)), probe.offers
    return _idle(board, move, probe.offers), probe.offers


_LONE_DEFENDER_NOTE: Final = "the lone attacker of the side holding for a draw attacks 士/象 (26.2)"


#: What a piece adds to a side's attacking force, in half units, for telling the side that
#: holds for a draw (26.2): 车 2 units, 马 炮 and a crossed pawn 1, an uncrossed pawn half; 士 象
#: and the king nothing.  By piece type; a pawn that has crossed counts 2.
_ATTACK_VALUE: Final = (0, 0, 0, 0, 2, 4, 2, 1)


def _lone_defender_moved(board: Board, move: Move) -> bool:
    """Whether ``move`` is made by the only attacking piece (车, 马, 炮 or pawn) of a side that
    holds for a draw (守和方, 26.2): on the board after the move, the other side has two attacking
    pieces or more and a larger attacking force (车 counting two 马/炮/过河兵, an uncrossed pawn
    half of one; 士 and 象 are defenders and do not count).

    Where the lone piece stands is not judged: the rulebook does not say what makes a square a
    守和要点, so every square counts (docs/cxa.md).
    """
    side_bit = board.squares[move.from_square] & BLACK_BIT
    board.push(move)
    try:
        count = [0, 0]
        force = [0, 0]
        for sq, code in enumerate(board.squares):
            value = _ATTACK_VALUE[code & 7] if code else 0
            if value:
                if code & 7 == PAWN and _crossed(code, sq):
                    value = 2
                mine = (code & BLACK_BIT) == side_bit
                count[mine] += 1
                force[mine] += value
        return count[True] == 1 and count[False] >= 2 and force[False] > force[True]
    finally:
        board.pop()


def _idle(board: Board, move: Move, offers: list[tuple[int, int]]) -> MoveLabel:
    """A move that is neither 将, 杀 nor 捉 (24.8 闲), told apart where it is clear:

    * 兑 (24.4): it brings two pieces of the same type face to face (its own, or two others, as
      a screen: 图13), and the opponent's could take without loss (``offers``, found by the
      look-ahead after the move, pairs that did not attack each other before);
    * 献 (24.5): the moved piece may be taken by a piece of another type without loss for
      the taker;
    * 拦 (24.6): the moved piece stands in the way of an enemy piece and so stops a mate threat
      (:func:`_blocked_check`).

    跟 (24.7) is not told apart: it is reported as 闲 (docs/cxa.md).
    """
    side = board.turn
    for mine, theirs in offers:
        origin = move.from_square if mine == move.to_square else mine
        if origin not in board.attackers(theirs, side):
            note = _offer_note(board, move, mine, theirs)
            return MoveLabel(move, EXCHANGE, note=note, pair=(mine, theirs))
    board.push(move)
    try:
        for origin in board.attackers(move.to_square, board.turn):
            if board.squares[origin] & 7 == board.squares[move.to_square] & 7:
                continue
            if _takes_safely(board, Move(origin, move.to_square)):
                what = _describe_piece(board.squares[move.to_square], move.to_square)
                return MoveLabel(move, OFFER, note=f"offers the {what}")
    finally:
        board.pop()
    blocked = _blocked_check(board, move)
    if blocked is not None:
        what = _describe_piece(board.squares[blocked.from_square], blocked.from_square)
        note = f"stands in the way of the {what}, stopping a mate threat"
        return MoveLabel(move, BLOCK, note=note, blocked=blocked)
    return MoveLabel(move, IDLE)


def _blocked_check(board: Board, move: Move) -> Move | None:
    """拦 (24.6 "走子阻拦对方棋子，而又不具攻击作用"): the enemy piece's checking move that the
    moved piece now stands in the way of (on its line, its knight's leg or elephant's
    eye), when that stops a mate threat the opponent had before the move (图7: 车９平８ stands in
    the way of the cannon's 炮二进九).  The threat must come back with the piece taken off its
    new square, and the move must be no capture, no king move and no answer to a check
    (参考图28's 士５进６ interposes against a check: 闲).  None otherwise."""
    f, t = move
    if board.is_check() or board.squares[t] or board.squares[f] & 7 == KING:
        return None
    with board.passed_turn():
        blocked = _checks_through(board, t, f)
        if not blocked or threatens_mate(board) is not True:
            return None
    board.push(move)
    try:
        if threatens_mate(board) is True:
            return None
        with board.without_piece(t):
            if threatens_mate(board) is not True:
                return None
    finally:
        board.pop()
    return blocked[0]


def _checks_through(board: Board, sq: int, vacated: int) -> list[Move]:
    """The side to move's checking moves that pass over the empty ``sq`` (a rook's or cannon's
    line, a knight's leg, an elephant's eye), which a piece arriving on ``sq`` from ``vacated``
    would stop."""
    squares = board.squares
    found = []
    for move in board.pseudo_legal_moves():
        origin, target = move
        if target == vacated:
            continue
        kind = squares[origin] & 7
        index = origin * 90 + target
        if kind in (ROOK, CANNON):
            on_the_way = sq in (BETWEEN[index] or ())
        elif kind == KNIGHT:
            on_the_way = KNIGHT_LEG[index] == sq
        elif kind == ELEPHANT:
            on_the_way = ELEPHANT_EYE[board.turn][index] == sq
        else:
            on_the_way = False
        if on_the_way and board.is_legal(move) and board.gives_check(move):
            found.append(move)
    return found


def _offer_note(board: Board, move: Move, mine: int, theirs: int) -> str:
    board.push(move)
    try:
        return (
            f"offers the {_describe_piece(board.squares[mine], mine)} for the "
            f"{_describe_piece(board.squares[theirs], theirs)}"
        )
    finally:
        board.pop()


def _takes_safely(board: Board, capture: Move) -> bool:
    """Whether the side to move may make ``capture`` without being mated at once or losing
    material in the exchange that follows (24.5)."""
    if not board.is_legal(capture):
        return False
    taken = board.squares[capture.to_square]
    board.push(capture)
    try:
        if mate_in_one(board):
            return False
        # The side that lost the piece is to move: its look-ahead must not come out ahead.
        prober = _Prober(board)
        tally = _Tally(takers=frozenset((capture.to_square,))).after(capture, taken, False)
        line = prober._search(tally, 1, 0, 1, 0, 0, frozenset(), frozenset((capture.to_square,)))
        return line.score <= 0
    finally:
        board.pop()


def _parry_gains(board: Board, move: Move, gains: tuple[Gain, ...]) -> tuple[Gain, ...]:
    """P1 (CXA.md §5.6, 因果关系): the gains of the 捉 ``move`` that it causes.

    When the opponent's preceding move attacked (将, 杀 or 捉: :func:`_preceding_attack`) and
    ``move`` parries that attack (:func:`_parries`), the move is defence: a capture that now
    pays only because the opponent's counter-chance is gone stood before it, and creates no 捉
    unless the moved piece takes part in it (:func:`_takes_part`: it makes, joins or uncovers
    the capture, pins or covers a root, keeps an enemy piece on its line).  参考图37 炮９退１
    steps out of the rook's chase, and its other cannon's capture of the knight now pays: 闲;
    图11 炮八平九 steps out of the rook's chase and still pins the elephant's root: 捉.

    When the preceding move did not attack, every new gain counts: a move that takes away the
    opponent's defence of a capture (a root, a counter-capture, a mate) is 断根, a 捉 (参考图28
    退士断根捉马, 参考图20 车３退８ after the king answered a check, 26.1.3).  A move of the king
    or of a pawn is not judged by this test: what other pieces gain by it is a 捉 (26.1.1;
    图16 将６退１ "避抽后…判捉").
    """
    if board.squares[move.from_square] & 7 in (KING, PAWN):
        return gains
    attack = _preceding_attack(board)
    if attack is None or not _parries(board, move, attack):
        return gains
    return tuple(g for g in gains if _takes_part(board, move, g))


def _preceding_attack(board: Board) -> MoveLabel | None:
    """The opponent's preceding move, labelled, when it attacked (将, 杀 or 捉); a check on
    the board counts as one even with no move before it.  Its label is taken before its own
    parry test (:func:`_classify_position`), which keeps the look-back one move deep."""
    if board.is_check():
        return MoveLabel(board.move_stack[-1] if board.move_stack else Move(0, 0), CHECK)
    if not board.move_stack:
        return None
    previous = board.pop()
    try:
        label, _offers = _classify_position(board, previous)
    finally:
        board.push(previous)
    return label if label.label in (KILL, CHASE) else None


def _parries(board: Board, move: Move, attack: MoveLabel) -> bool:
    """Whether ``move`` parries ``attack``, the opponent's preceding move: it answers the
    check; it stops the mate threat; or one of the pieces the chase would win steps away or can
    no longer be won as the chase won it (the battery is defused)."""
    if attack.label == CHECK:
        return True
    board.push(move)
    try:
        if attack.label == KILL:
            return threatens_mate(board) is not True
        prober = _Prober(board, counters=False)
        prober.prepare()
        for gain in attack.gains:
            first = gain.line[0]
            if move.from_square in (gain.victim, first.to_square):
                return True  # the threatened piece steps away
            if not board.is_legal(first):
                return True
            line, _check = prober.line(first, alpha=gain.value - 1)
            if line.score < gain.value:
                return True
        return False
    finally:
        board.pop()


def _takes_part(board: Board, move: Move, gain: Gain) -> bool:
    """Whether the piece that ``move`` moved takes part in ``gain`` (found after the move, with
    the opponent passing; P1): it moves in the line (makes a capture or a check of it), is one
    of the pieces that win the target (joins), made the line's first move possible (uncovers
    it, or became its screen), or the gain shrinks without it on the board (it pins or covers a
    root, or keeps an enemy piece from leaving its line).  Otherwise the capture stood before
    the move, and the move only took away the opponent's counter-chance."""
    where = move.to_square
    retakes = _bystander_retakes(board, move, gain.line)
    for index, step in enumerate(gain.line):
        if where < 0:
            break
        if index % 2 == 0 and step.from_square == where:
            if index not in retakes:
                return True  # it makes a capture or a check of the line
            where = step.to_square  # P4: it only takes back its own piece (各吃各子)
        elif index % 2 == 1 and step.to_square == where:
            where = -1  # taken
    if move.to_square in gain.capturers or move.to_square in gain.helpers:
        return True
    first = gain.line[0]
    if first.from_square in move or first.to_square in move:
        return True
    squares = board.squares
    pseudo = board.is_check()
    board.push(move)
    try:
        victim = board.squares[first.to_square]
    finally:
        board.pop()
    if squares[first.to_square] != victim:
        return True
    if not (board.is_pseudo_legal(first) if pseudo else board.is_legal(first)):
        return True  # the move uncovered the line's first move, or gave it its screen
    board.push(move)
    try:
        with board.passed_turn(), board.without_piece(move.to_square):
            if not board.is_legal(first):
                return True
            prober = _Prober(board, strict=True)
            prober.prepare()
            attacker = board.squares[first.from_square]
            if victim and victim & 7 == attacker & 7 and prober._exchange(first):
                return True  # without the piece it would be an offer to exchange (参考图50)
            without, _check = prober.line(first, alpha=gain.value - 1)
            return without.score < gain.value
    finally:
        board.pop()


def _bystander_retakes(board: Board, move: Move, line: tuple[Move, ...]) -> set[int]:
    """The indexes of ``line`` (a gain found after ``move`` with the opponent passing) where the
    side takes back, on the same square, a piece of its own that the opponent's reply before
    took and that had not moved in the line: the opponent taking a bystander in return (各吃各子,
    shown when it ties with standing still) and the side defending that bystander.  P4 (CXA.md
    §5.6): that the moved piece "also defends another of its own pieces … is not taking part";
    taking back a piece of the line (its capturer, say) is, and is not listed here."""
    retakes: set[int] = set()
    moved: set[int] = set()  # where the side's pieces that moved in the line stand
    bystander_taken = False  # the opponent's last reply took a piece that had not moved
    board.push(move)
    try:
        with board.passed_turn():
            pushed = 0
            try:
                for index, step in enumerate(line):
                    if index % 2 == 0:
                        if index and step.to_square == line[index - 1].to_square:
                            if bystander_taken:
                                retakes.add(index)
                        moved.discard(step.from_square)
                        moved.add(step.to_square)
                    else:
                        taken = board.squares[step.to_square] != 0
                        bystander_taken = taken and step.to_square not in moved
                        moved.discard(step.to_square)
                    board.push(step)
                    pushed += 1
            finally:
                for _ in range(pushed):
                    board.pop()
    finally:
        board.pop()
    return retakes


def _describe_piece(code: int, sq: int) -> str:
    return f"{COLOR_NAMES[code_color(code)]} {PIECE_NAMES[code & 7]} on {square_name(sq)}"


# -- pictures ----------------------------------------------------------------------------------


def mating_line(board: Board) -> tuple[Move, ...]:
    """The mate that a 杀 threatens (24.2), for a picture: in ``board``, where the side to move
    is the one threatening (the opponent passed), the shortest series of checks that mates, the
    first capturing nothing, as :func:`threatens_mate` finds it, with the defender's replies
    between them (its first answer in the search's order, since every answer loses).  Empty
    when no such mate is found within the search's bounds.  The board is left unchanged.
    """
    for depth in range(1, MATE_CHECKS + 1):
        line = _mate_line(board, depth, True)
        if line is not None:
            return tuple(line)
    return ()


def _mate_line(board: Board, depth: int, first: bool) -> list[Move] | None:
    """A mating line of at most ``depth`` checks from ``board`` (see :func:`mating_line`)."""
    for check in _checks(board):
        if first and board.squares[check.to_square]:
            continue  # 24.2: a mating attack that opens by a capture is graded by the capture
        board.push(check)
        try:
            line = _mate_line_after(board, check, depth)
        finally:
            board.pop()
        if line is not None:
            return line
    return None


def _mate_line_after(board: Board, check: Move, depth: int) -> list[Move] | None:
    """The mating line that ``check``, just pushed on ``board``, opens, if it mates."""
    evasions = _ordered_evasions(board)
    if not evasions:
        return [check]
    if depth <= 1:
        return None
    if not all(_mated_after(board, evasion, depth - 1) for evasion in evasions):
        return None
    board.push(evasions[0])
    try:
        rest = _mate_line(board, depth - 1, False)
    finally:
        board.pop()
    return None if rest is None else [check, evasions[0], *rest]


def _mated_after(board: Board, evasion: Move, checks: int) -> bool:
    board.push(evasion)
    try:
        return mates_by_checks(board, checks, _Budget(MATE_NODES))
    finally:
        board.pop()
