"""The AXF/WXF rules profile (the default): classify a move and judge a repeated cycle.

A move is a check, a chase (with its victims) or other (:func:`classify_move`); a repeated
cycle is judged by :func:`judge_cycle`.

Layer: rules (the AXF profile; imports the core and :mod:`xqadj.rules.ruling`).

The rules digest (``RULES.md`` §2.3–2.7) is the specification; ``docs/rulings.md`` records the
decisions taken where the rulebook is silent.  In short, a move *chases* a piece when, after the
move, the mover could legally capture that piece next move and the capture counts as a threat
(by the value rules: an unprotected victim, a rook attacked by a knight or cannon, ...), and that
threat did not exist before the move.  Comparing the threats before and after the move covers
direct attacks, discovered attacks (a moved screen, a freed knight leg or elephant eye, a cannon
gaining a mount) and standing attacks made real by taking away the victim's last root (appendix
D105), while a standing attack that the move did not create is ignored (图110, 图106).

Classification is only ever run while a cycle is being ruled, never on the hot path.

>>> from xqadj.board import Board, Move
>>> board = Board("3k5/9/9/9/9/9/4c4/9/9/R3K4 w")
>>> cls = classify_move(board, Move.from_iccs("a0a3"))
>>> cls.kind, cls.victims
('chase', (Threat(attacker=27, victim=31),))

Each chase, and each attack that is none, carries the reason the rules gave it:

>>> [(square_name(a.attacker), square_name(a.victim), a.reason.value) for a in cls.attacks]
[('a3', 'e3', 'unprotected')]
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from xqadj.board import (
    ADVISOR,
    BLACK,
    BLACK_BIT,
    CANNON,
    ELEPHANT,
    EMPTY,
    KING,
    KNIGHT,
    PAWN,
    RED,
    ROOK,
    SYMBOL_BY_CODE,
    Board,
    Color,
    Move,
    Piece,
    code_color,
    square_name,
    square_rank,
)
from xqadj.notation import to_chinese
from xqadj.rules.base import StepLabel, Watch
from xqadj.rules.ruling import (
    LEVEL_CHASE,
    LEVEL_CHECK,
    LEVEL_NONE,
    Attack,
    AttackReason,
    FakeRoot,
    MoveClass,
    Reason,
    Root,
    Ruling,
    SideReason,
    SideVerdict,
    Threat,
    result_for_loser,
)

#: Chasers whose threats never count: the king and the pawns may chase (art. 28–29, D67–70).
LICENSED_CHASERS = frozenset({KING, PAWN})

#: ``(attacker, victim)`` type pairs that chase whether the victim is protected or not: the
#: "stronger victim" clause.  A knight or cannon on a rook (art. 15, 26, 27, 37); an advisor or
#: elephant on a rook, knight or cannon (WXF 图107; decision in docs/rulings.md).
STRONGER_VICTIM = frozenset(
    {(KNIGHT, ROOK), (CANNON, ROOK)}
    | {(a, v) for a in (ADVISOR, ELEPHANT) for v in (ROOK, KNIGHT, CANNON)}
)


def _is_uncrossed_pawn(code: int, sq: int) -> bool:
    rank = square_rank(sq)
    return code & 7 == PAWN and (rank <= 4 if code_color(code) == RED else rank >= 5)


def _legal_capture(board: Board, origin: int, target: int) -> bool:
    """Whether the piece on ``origin`` may capture on ``target`` without exposing its king.

    The caller has checked that the capture is pseudo-legal.
    """
    mover = code_color(board.squares[origin])
    move = Move(origin, target)
    captured = board._make(move)
    safe = not board.is_in_check(mover)
    board._unmake(move, captured)
    return safe


def is_protected(board: Board, attacker: int, victim: int) -> bool:
    """Whether the victim has a real root (真根) against the capture ``attacker``×``victim``.

    Protection is judged after the capture (RULES.md §2.3): a protector that cannot legally
    recapture (pinned, flying general, a king stepping into check) is a fake root (假根,
    D83–85, art. 34); a cannon that gains or loses its mount through the capture counts as it
    then stands.
    """
    return bool(real_roots(board, attacker, victim))


def real_roots(board: Board, attacker: int, victim: int) -> list[int]:
    """The squares of the pieces that could really recapture after ``attacker``×``victim``.

    A check given by the move being classified is answered before the capture can happen, so
    it does not make a root fake: only an exposure the recapture itself creates does (D-11).
    """
    defender = code_color(board.squares[victim])
    king = board.king_squares[defender]
    pending = (
        frozenset(board.attackers(king, 1 - defender)) if board.is_in_check(defender) else None
    )
    capture = Move(attacker, victim)
    captured = board._make(capture)
    try:
        return [
            origin
            for origin in board.attackers(victim, defender)
            if (
                _legal_capture(board, origin, victim)
                if pending is None
                else _recapture_exposes_nothing_new(board, origin, victim, king, pending)
            )
        ]
    finally:
        board._unmake(capture, captured)


def _recapture_exposes_nothing_new(
    board: Board, origin: int, victim: int, king: int, pending: frozenset[int]
) -> bool:
    """Whether recapturing on ``victim`` from ``origin`` leaves the king attacked by nothing
    but the pieces already checking it (a pinned protector or a king stepping into an attack
    is still a fake root)."""
    defender = code_color(board.squares[origin])
    move = Move(origin, victim)
    captured = board._make(move)
    try:
        now = set(board.attackers(board.king_squares[defender], 1 - defender))
    finally:
        board._unmake(move, captured)
    if origin == king:
        return not now
    return now <= pending


def _assess(
    board: Board, attacker: int, victim: int, legal: bool
) -> tuple[AttackReason, list[int]]:
    """Whether the attack ``attacker``×``victim`` is a threat, and why (a reason whose
    :attr:`~AttackReason.chases` is true, or the reason it is none), with the victim's real
    roots when they decided it (:attr:`~AttackReason.PROTECTED`).  ``legal``: a capture the
    attacker could not legally make is no threat.  A victim with fake roots only is reported
    :attr:`~AttackReason.UNPROTECTED` here (:func:`_attack` tells the two apart)."""
    squares = board.squares
    a_code, v_code = squares[attacker], squares[victim]
    a_type, v_type = a_code & 7, v_code & 7
    if legal and not _legal_capture(board, attacker, victim):
        return AttackReason.PINNED_ATTACKER, []  # a capture the attacker could not make
    if a_type == v_type:
        # Same type (art. 24, D51–55): an offer, unless the victim cannot capture back (an
        # impaired knight, a pinned piece, a cannon with no mount, a confined rook, art. 27).
        if _can_capture(board, victim, attacker):
            return AttackReason.OFFER, []
        roots = real_roots(board, attacker, victim)
        return (AttackReason.PROTECTED if roots else AttackReason.CANNOT_TAKE_BACK), roots
    if (a_type, v_type) in STRONGER_VICTIM:
        # art. 15/26: a rook attacked by a knight or cannon is chased even if protected
        return AttackReason.STRONGER_VICTIM, []
    roots = real_roots(board, attacker, victim)
    return (AttackReason.PROTECTED if roots else AttackReason.UNPROTECTED), roots


def _is_threat(board: Board, attacker: int, victim: int, legal: bool) -> bool:
    return _assess(board, attacker, victim, legal)[0].chases


def fake_roots(board: Board, attacker: int, victim: int) -> list[Root]:
    """The pieces that could recapture on ``victim`` after ``attacker``×``victim`` pseudo-
    legally but are fake roots (假根, art. 34), each with why (:class:`FakeRoot`): what would
    attack its king after the recapture that does not before it (D-11: a check the move gave
    is answered first)."""
    real = set(real_roots(board, attacker, victim))
    defender = code_color(board.squares[victim])
    pending = (
        set(board.attackers(board.king_squares[defender], 1 - defender))
        if board.is_in_check(defender)
        else set()
    )
    enemy_king = board.king_squares[1 - defender]
    capture = Move(attacker, victim)
    captured = board._make(capture)
    found = []
    try:
        for origin in board.attackers(victim, defender):
            if origin in real:
                continue
            is_king = board.squares[origin] & 7 == KING
            recapture = Move(origin, victim)
            taken = board._make(recapture)
            try:
                king = board.king_squares[defender]
                # The king moving has no check to leave standing: every attacker is new.
                exposers = set(board.attackers(king, 1 - defender)) - (
                    set() if is_king else pending
                )
            finally:
                board._unmake(recapture, taken)
            if enemy_king in exposers:
                why = FakeRoot.FLYING_GENERAL
            elif is_king:
                why = FakeRoot.KING_ATTACKED
            else:
                why = FakeRoot.PINNED
            found.append(Root(origin, board.squares[origin], why))
    finally:
        board._unmake(capture, captured)
    return found


def is_pinned(board: Board, sq: int) -> bool:
    """Whether the piece on ``sq`` shields its own king: taking it off the board would leave
    the king attacked (by a rook or cannon line, a knight whose leg it blocks, or the other king).
    """
    code = board.squares[sq]
    color = code_color(code)
    if code & 7 == KING or board.is_in_check(color):
        return False
    board._set_square(sq, EMPTY)
    exposed = board.is_in_check(color)
    board._set_square(sq, code)
    return exposed


def _can_capture(board: Board, origin: int, target: int) -> bool:
    """Whether the piece on ``origin`` can legally capture the piece on ``target`` now."""
    color = code_color(board.squares[origin])
    if origin not in board.attackers(target, color):
        return False
    return _legal_capture(board, origin, target)


def _attack_candidates(board: Board, side: Color) -> list[tuple[Threat, AttackReason | None]]:
    """Every pseudo-legal attack of ``side`` on an enemy piece other than the king, sorted, with
    the reason it can never be a chase when it cannot: by a king or a pawn (licensed chasers,
    art. 28-29), on an uncrossed pawn (never a victim, art. 25)."""
    squares = board.squares
    own_bit = BLACK_BIT if side else 0
    found: list[tuple[Threat, AttackReason | None]] = []
    for attacker in range(90):
        code = squares[attacker]
        if code and (code & BLACK_BIT) == own_bit:
            licensed = code & 7 in LICENSED_CHASERS
            for victim in board.capture_targets(attacker):
                target = squares[victim]
                if target & 7 == KING:
                    continue
                exempt = (
                    AttackReason.EXEMPT_CHASER
                    if licensed
                    else AttackReason.EXEMPT_VICTIM
                    if _is_uncrossed_pawn(target, victim)
                    else None
                )
                found.append((Threat(attacker, victim), exempt))
    found.sort()
    return found


def classify_move(board: Board, move: Move) -> MoveClass:
    """Classify a legal ``move`` of the side to move; the board is left unchanged.

    A threat after the move is a chase unless it stood before the move (图110).  A standing
    attack that the move turned into a threat by taking away the victim's last root (blocking
    the root's line, taking away or doubling a cannon root's mount, pinning the root) chases,
    unless every root the victim had stood behind the attacker on its line, aimed at it
    (RULES.md §7.1: appendix D105 against D39-41 and D61; docs/rulings.md D-2).  The moved
    piece is followed: its attacks from the old square stand.

    Each decision is recorded with its reason in :attr:`MoveClass.attacks`: the chases, the
    attacks the move creates that are no chase, and the threats it leaves standing.
    """
    side = board.turn
    f, t = move
    # Only an attack that exists after the move can be a chase: find those first, then look at
    # each one before the move (standing threat? standing attack?) and after it.
    board.push(move)
    try:
        check = board.is_check()
        candidates = _attack_candidates(board, side)
        king = board.king_squares[1 - side]
        checks = [
            _attack(board, Threat(attacker, king), AttackReason.CHECK)
            for attacker in (sorted(board.attackers(king, side)) if check else ())
        ]
    finally:
        board.pop()
    # The standing attacks, by how they stood: STANDING (a threat already), DEFENCE (no threat,
    # every root behind the attacker), the exempt reason, or why they were no threat.
    standing: dict[Threat, AttackReason] = {}
    origins: dict[Threat, int] = {}
    targets_before: dict[int, list[int]] = {}
    for threat, exempt in candidates:
        origin = f if threat.attacker == t else threat.attacker
        if origin not in targets_before:
            targets_before[origin] = board.capture_targets(origin)
        if threat.victim not in targets_before[origin]:
            continue  # a new attack
        origins[threat] = origin
        if exempt is not None:
            standing[threat] = exempt
            continue
        before = _assess(board, origin, threat.victim, legal=False)[0]
        if before.chases:
            standing[threat] = AttackReason.STANDING
        elif _roots_all_behind_the_attacker(board, origin, threat.victim):
            standing[threat] = AttackReason.DEFENCE
        else:
            standing[threat] = before
    confined_before = is_pinned(board, f)
    board.push(move)
    try:
        attacks: list[Attack] = checks
        confined = confined_before and is_pinned(board, t)
        for threat, exempt in candidates:
            stood = standing.get(threat)
            if exempt is not None:
                if stood is None:  # a new attack the rules exempt: said, never counted
                    attacks.append(_attack(board, threat, exempt))
                continue
            if stood is AttackReason.STANDING:
                # A standing threat: the move did not create it.  Said while it still threatens.
                if _is_threat(board, threat.attacker, threat.victim, legal=True):
                    attacks.append(_attack(board, threat, AttackReason.STANDING))
                continue
            reason, roots = _assess(board, threat.attacker, threat.victim, legal=True)
            if not reason.chases:
                if stood is None:  # a new attack that is no threat; a standing one is unchanged
                    attacks.append(_attack(board, threat, reason, _pieces(board, roots)))
                continue
            if confined and threat.attacker == t:
                # A piece confined to its line moving along it chases nothing (art. 27).
                attacks.append(_attack(board, threat, AttackReason.CONFINED))
                continue
            if stood is AttackReason.DEFENCE:
                # The standing attack became a threat because the victim lost roots that all
                # stood behind the attacker, aimed at it: a defence, not a chase (RULES.md
                # §7.1; D39-41, D61, FS-22/23).
                attacks.append(_attack(board, threat, AttackReason.DEFENCE))
                continue
            if stood is AttackReason.PROTECTED:
                # A standing attack on a protected piece made a threat: its last root was taken
                # away (RULES.md §7.1, D105).
                attacks.append(_attack(board, threat, AttackReason.ROOT_TAKEN))
                continue
            attacks.append(_attack(board, threat, reason))
    finally:
        board.pop()
    for index, attack in enumerate(attacks):
        if attack.reason in (AttackReason.DEFENCE, AttackReason.ROOT_TAKEN):
            # The roots the victim had before the move: looked up only for the few attacks
            # that name them, on the board as it stood.
            origin = origins[attack.threat]
            had = _pieces(board, real_roots(board, origin, attack.victim))
            attacks[index] = attack._replace(roots=had)
    victims = tuple(attack.threat for attack in attacks if attack.chases)
    return MoveClass(move, check, victims, tuple(attacks))


def _pieces(board: Board, squares: list[int]) -> tuple[Root, ...]:
    """Real roots on ``squares`` of ``board``, with their pieces."""
    return tuple(Root(sq, board.squares[sq]) for sq in squares)


def _attack(
    board: Board, threat: Threat, reason: AttackReason, roots: tuple[Root, ...] = ()
) -> Attack:
    """The :class:`Attack` for ``threat`` (squares on ``board``, after the move) and the
    reason decided for it, with the ``roots`` it names (for a victim without a real root, its
    fake roots are looked up here)."""
    attacker, victim = threat
    if reason in (AttackReason.UNPROTECTED, AttackReason.CANNOT_TAKE_BACK):
        roots = tuple(fake_roots(board, attacker, victim))
        if roots and reason is AttackReason.UNPROTECTED:
            reason = AttackReason.FAKE_ROOT
    squares = board.squares
    return Attack(attacker, victim, reason, squares[attacker], squares[victim], roots)


def _roots_all_behind_the_attacker(board: Board, attacker: int, victim: int) -> bool:
    """Whether the victim of a standing attack that is no threat has real roots against the
    capture ``attacker``×``victim``, and every one of them stands behind the attacker on its
    line and is aimed at it (RULES.md §7.1).

    Such a root (a rook with nothing between it and the attacker, a cannon with one screen)
    recaptures only because the capture empties the attacker's square; a move that takes it
    away also ends its attack on the mover's own piece, so it defends and chases nothing
    (D39-41, D61).  A root that acts from the side (appendix D105: the cannon on the knight's
    file, the rook on its rank) is the victim's own protection: taking it away chases.  A
    same-type attack that was an offer (the victim could take back) was no threat for another
    reason, and is not excused.
    """
    squares = board.squares
    if squares[attacker] & 7 == squares[victim] & 7 and _can_capture(board, victim, attacker):
        return False
    roots = real_roots(board, attacker, victim)
    return bool(roots) and all(
        _between(root, attacker, victim) and attacker in board.capture_targets(root)
        for root in roots
    )


def _between(a: int, b: int, c: int) -> bool:
    """Whether square ``b`` lies strictly between ``a`` and ``c`` on a rank or a file."""
    if a // 9 == b // 9 == c // 9 or a % 9 == b % 9 == c % 9:
        return min(a, c) < b < max(a, c)
    return False


# -- the ruling of a cycle ----------------------------------------------------------------------


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
    names = []
    # The second loop usually replays the first one's positions: classify each (position, move)
    # once.
    known: dict[tuple[int, Move], tuple[MoveClass, str]] = {}
    for move in cycle:
        key = (work.zobrist_hash(), move)
        if key not in known:
            known[key] = classify_move(work, move), to_chinese(work, move)
        cls, name = known[key]
        names.append(name)
        work.push(move)
        f, t = move
        ids[t], ids[f] = ids[f], ""
        replay.classes.append(cls)
        replay.ids_after.append(ids[:])
        notes.append(_note(work, cls))
    verdicts = []
    for color in (RED, BLACK):
        own = [i for i in range(length) if (i % 2 == 0) == (color == start_turn)]
        verdicts.append(_side_verdict(color, own, replay))
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
        move_names=tuple(names),
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
        result=result_for_loser(loser.color),
        reason=reason,
        offender=loser.color,
        article=article,
    )


def _side_verdict(color: Color, own: list[int], replay: _Replay) -> SideVerdict:
    """The verdict on ``color``'s moves (indices ``own`` of the cycle), with why."""
    classes = [replay.classes[i] for i in own]
    chased = [replay.chased(i) for i in own]
    targets = tuple(sorted(set().union(*chased)))
    if classes and all(c.check for c in classes):
        return SideVerdict(color, LEVEL_CHECK, why=SideReason.EVERY_MOVE_CHECKS, targets=targets)
    # A move that checks and chases at once counts as a chase too: of two readings the one
    # under which the cycle is forbidden is taken (图109 从重; docs/rulings.md).
    if classes and all(c.victims for c in classes):
        common = set.intersection(*chased)
        if common:
            ids = tuple(sorted(common))
            chasers = tuple(sorted(set().union(*(replay.chaser_ids(i) for i in ids))))
            return SideVerdict(color, LEVEL_CHASE, ids, SideReason.SAME_PIECE, targets, chasers)
        return SideVerdict(color, LEVEL_NONE, why=SideReason.DIFFERENT_PIECES, targets=targets)
    if classes and all(c.check or c.victims for c in classes):
        return SideVerdict(color, LEVEL_NONE, why=SideReason.CHECKS_AND_CHASES, targets=targets)
    return SideVerdict(color, LEVEL_NONE, why=SideReason.IDLE_MOVE, targets=targets)


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


# -- the profile ---------------------------------------------------------------------------------


class AxfProfile:
    """The AXF/WXF profile (the default): :func:`classify_move` and :func:`judge_cycle`."""

    name = "axf"
    title = "AXF/WXF rules (Asian Xiangqi Federation)"
    options: frozenset[str] = frozenset()

    def judge_cycle(self, board: Board, length: int) -> Ruling:
        return judge_cycle(board, length)

    def label_move(
        self, board: Board, move: Move, ruling: Ruling | None = None, index: int = 0
    ) -> StepLabel:
        """将 捉 闲, from the ruling's own classification when it has one (a move that checks
        and chases is 将 there and counts as both)."""
        if ruling is not None and index < len(ruling.classifications):
            cls = ruling.classifications[index]
        else:
            cls = classify_move(board, move)
        label = "将" if cls.check else "捉" if cls.victims else "闲"
        return StepLabel(label, cls.victims, cls.attacks)

    def watchers(self, forbidden_run: bool = False) -> tuple[Watch, ...]:
        return ()


PROFILE = AxfProfile()
