"""What a rules profile hands to the referee: a :class:`Ruling` and the types it carries.

A ruling carries its :class:`Reason`, the per-side :class:`SideVerdict` and the AXF
classification types (:class:`Threat`, :class:`MoveClass`).

Layer: rules (shared by every profile; imports the core only).  :mod:`xqadj.referee` re-exports
these names, where the library has always offered them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple

from xqadj.board import (
    CANNON,
    COLOR_NAMES,
    FILE_NAMES,
    KING,
    KNIGHT,
    PIECE_NAMES,
    RED,
    ROOK,
    Board,
    Color,
    Move,
    Piece,
    square_name,
)


class Threat(NamedTuple):
    """A capture the mover threatens: ``attacker`` and ``victim`` are squares after the move."""

    attacker: int
    victim: int

    def describe(self, board: Board) -> str:
        """``'cannon b2 attacks rook f2'``, for the board after the move."""
        attacker, victim = board.piece_at(self.attacker), board.piece_at(self.victim)
        if attacker is None or victim is None:
            return f"{square_name(self.attacker)} attacks {square_name(self.victim)}"
        return (
            f"{PIECE_NAMES[attacker.piece_type]} {square_name(self.attacker)} attacks "
            f"{PIECE_NAMES[victim.piece_type]} {square_name(self.victim)}"
        )


class AttackReason(StrEnum):
    """Why an attack of the mover after its move is a chase or is not (AXF/WXF; RULES.md §2.4,
    §2.6, §7.1).  The classification records it where it decides (:func:`xqadj.rules.axf.
    classify_move`); :meth:`Ruling.explain` words it.  :attr:`chases` tells the two kinds apart.
    """

    #: Chases: no piece of the victim's side could recapture (无根子; art. 18, 23, 25).
    UNPROTECTED = "unprotected"
    #: Chases: the victim's only roots are fake (假根, art. 34, D83–85): see :attr:`Attack.roots`.
    FAKE_ROOT = "fake-root"
    #: Chases, protected or not: a rook attacked by a knight or cannon (art. 15, 20, 26), or a
    #: rook, knight or cannon attacked by an advisor or elephant (docs/rulings.md D-1, 图107).
    STRONGER_VICTIM = "stronger-victim"
    #: Chases: pieces of one type, but the victim cannot take back (a lame knight, a pinned
    #: piece, a cannon with no mount, a confined rook) and has no real root (art. 24, 27).
    CANNOT_TAKE_BACK = "cannot-take-back"
    #: Chases: the attack stood before the move, which took away the victim's last real root
    #: (blocked its line, moved or doubled its cannon's mount, pinned it): RULES.md §7.1, D105.
    #: :attr:`Attack.roots` are the roots the victim had before the move.
    ROOT_TAKEN = "root-taken"
    #: No chase: the victim has a real root (有根子) and is not worth more (art. 17, 35).
    PROTECTED = "protected"
    #: No chase: pieces of one type and the victim can take back: an exchange offer (兑/献,
    #: art. 24, 36, 40).
    OFFER = "offer"
    #: No chase: the attacker cannot legally capture (it is pinned, or the capture would leave
    #: the kings facing): RULES.md §2.4, docs/rulings.md D-7.
    PINNED_ATTACKER = "pinned-attacker"
    #: No chase: a piece confined to its line (pinned) moved along it (art. 27, D63–66).
    CONFINED = "confined"
    #: No chase: the same threat stood before the move, which did not create it (图110, 图106).
    STANDING = "standing"
    #: No chase: the attack stood before and the move took away roots that all stood behind
    #: the attacker on its line, aimed at it: a defence (RULES.md §7.1; art. 19, D39–41; D61).
    DEFENCE = "defence"
    #: No chase: the attacker is a king or a pawn, which may chase (art. 28–29, D67–70).
    EXEMPT_CHASER = "exempt-chaser"
    #: No chase: the victim is a pawn that has not crossed the river (art. 25, D59–60).
    EXEMPT_VICTIM = "exempt-victim"
    #: No chase but a check (将): the victim is the king.  A move's checks come first in
    #: :attr:`MoveClass.attacks`, one per checking piece.
    CHECK = "check"

    @property
    def chases(self) -> bool:
        """Whether an attack for this reason is a chase."""
        return self in _CHASING

    def __str__(self) -> str:
        return self.value


_CHASING = frozenset(
    {
        AttackReason.UNPROTECTED,
        AttackReason.FAKE_ROOT,
        AttackReason.STRONGER_VICTIM,
        AttackReason.CANNOT_TAKE_BACK,
        AttackReason.ROOT_TAKEN,
    }
)


class FakeRoot(StrEnum):
    """Why a piece that could recapture is a fake root (假根, art. 34, RULES.md §2.3)."""

    #: The root is pinned: recapturing would expose its own king to an attack.
    PINNED = "pinned"
    #: Recapturing would leave the two kings facing on an open file (the flying general).
    FLYING_GENERAL = "flying-general"
    #: The root is the king, and recapturing would step it into an attack.
    KING_ATTACKED = "king-attacked"

    def __str__(self) -> str:
        return self.value


class Root(NamedTuple):
    """A piece that could recapture on the victim's square after the capture: its ``square``,
    its piece ``code`` (:mod:`xqadj.board` codes: type, plus 8 for Black), and ``fake`` (why it
    cannot really recapture) or None for a real root (真根)."""

    square: int
    code: int
    fake: FakeRoot | None = None


class Attack(NamedTuple):
    """An attack the rules looked at for a move, and the ``reason`` it is a chase or not.

    ``attacker`` and ``victim`` are squares after the move, ``attacker_code`` and
    ``victim_code`` the pieces on them.  ``roots``: for :attr:`AttackReason.PROTECTED` the
    real roots; for :attr:`~AttackReason.FAKE_ROOT` and :attr:`~AttackReason.CANNOT_TAKE_BACK`
    the fake ones (why each cannot recapture); for :attr:`~AttackReason.ROOT_TAKEN` and
    :attr:`~AttackReason.DEFENCE` the real roots the victim had before the move; else empty.
    """

    attacker: int
    victim: int
    reason: AttackReason
    attacker_code: int
    victim_code: int
    roots: tuple[Root, ...] = ()

    @property
    def chases(self) -> bool:
        """Whether this attack is a chase (``reason.chases``)."""
        return self.reason.chases

    @property
    def threat(self) -> Threat:
        """The (attacker, victim) pair."""
        return Threat(self.attacker, self.victim)


class MoveClass(NamedTuple):
    """What a move is under the AXF/WXF rules.

    ``check``: the move attacks the enemy king.  ``victims``: the chases the move creates.  A
    move can be both: it then counts towards perpetual check and towards perpetual chase
    (docs/rulings.md, D-5); :attr:`kind` names it by the heavier, ``'check'``.

    ``attacks``: why (:class:`Attack`), in the order the chases have in ``victims``: every
    chase, every attack the move creates that is no chase, and every threat the move leaves
    standing (which it did not create).  A move with no attack in it creates none.
    """

    move: Move
    check: bool
    victims: tuple[Threat, ...]
    attacks: tuple[Attack, ...] = ()

    @property
    def kind(self) -> str:
        """``'check'``, ``'chase'`` or ``'other'``."""
        if self.check:
            return "check"
        return "chase" if self.victims else "other"


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


class SideReason(StrEnum):
    """Why one side's moves in the cycle are judged as they are (the verdict line of the
    cycle; AXF/WXF)."""

    #: Every move checks: perpetual check (长将, art. 6).
    EVERY_MOVE_CHECKS = "every-move-checks"
    #: Every move chases, and one piece on every move: perpetual chase (长捉, art. 25; by
    #: several pieces in turn art. 33).
    SAME_PIECE = "same-piece"
    #: Every move chases, but no piece is chased on every move: different pieces in turn
    #: (art. 32, D76–80).
    DIFFERENT_PIECES = "different-pieces"
    #: Every move checks or chases, but not every move checks and no piece is chased on every
    #: move: checks and chases mixed (一将一捉, art. 12).
    CHECKS_AND_CHASES = "checks-and-chases"
    #: A move neither checks nor chases (an idle move, 闲): nothing is perpetual (art. 5, 13;
    #: D19).
    IDLE_MOVE = "idle-move"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class SideVerdict:
    """How one side's moves in the cycle are judged."""

    color: Color
    level: int
    #: Ids (``'R@h0'``: type and square at the cycle's start) of the pieces chased on every move.
    chased: tuple[str, ...] = ()
    #: Why the side has its level (None when not recorded).
    why: SideReason | None = field(default=None, compare=False)
    #: Ids of every piece the side chases on some move of the cycle.
    targets: tuple[str, ...] = field(default=(), compare=False)
    #: Ids of the pieces that chase the pieces in ``chased``.
    chasers: tuple[str, ...] = field(default=(), compare=False)


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
    #: Per move of the cycle, its Chinese notation (``炮八退一``); empty when not recorded.
    move_names: tuple[str, ...] = field(default=(), compare=False)

    @property
    def winner(self) -> Color | None:
        return None if self.offender is None else 1 - self.offender

    def explain(self, notation: str = "iccs") -> str:
        """One readable paragraph (English, with the Chinese terms).

        ``notation`` writes moves and squares with ranks 0–9 (``iccs``, and any other value) or
        1–10 (``fairy``);
        each cycle move also in Chinese notation.  An AXF repetition gives every move's label
        with its reason and article (from :attr:`MoveClass.attacks`) and each side's verdict
        with its reason (:attr:`SideVerdict.why`).  A profile's own :attr:`explanation`
        (written in ICCS) has its squares rewritten for ``fairy``.
        """
        if self.explanation:
            return _fairy_squares(self.explanation) if notation == "fairy" else self.explanation
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
        words = _Words(self, notation)
        shown = len(self.classifications)
        heading = "Cycle"
        half = shown // 2
        if (
            shown % 2 == 0
            and half
            and self.classifications[:half] == self.classifications[half:]
            and self.move_names[:half] == self.move_names[half:]
        ):
            # Both loops of the cycle are the same moves, classified alike: say them once.
            shown, heading = half, "Cycle, played twice"
        moves = [words.move(index) for index in range(shown)]
        sides = [words.side(verdict) for verdict in self.verdicts]
        if self.offender is None:
            outcome = "so the game is drawn (作和)"
        else:
            loser = COLOR_NAMES[self.offender]
            outcome = f"so {loser} must vary and, not varying, loses (不变作负)"
        return (
            f"The position occurred for the third time at ply {self.ply} (循环三次). "
            f"{heading}: {'; '.join(moves)}. {'; '.join(sides)}, {outcome}: "
            f"{self.reason.value} ({self.article}), result {self.result}."
        )

    def __str__(self) -> str:
        return f"{self.result} {self.reason.value} at ply {self.ply}"


_LABELS = {"check": "check 将", "chase": "chase 捉", "other": "idle 闲"}
#: Reasons of attacks that stood before the move (not uncovered by it).
_STOOD = frozenset({AttackReason.STANDING, AttackReason.DEFENCE, AttackReason.ROOT_TAKEN})


def _and(items: list[str]) -> str:
    """``'a, b and c'`` (``'no piece'`` for none: a hand-made attack without its roots)."""
    if len(items) < 2:
        return items[0] if items else "no piece"
    return f"{', '.join(items[:-1])} and {items[-1]}"


class _Words:
    """The words of an AXF explanation, for one ruling and notation."""

    def __init__(self, ruling: Ruling, notation: str) -> None:
        self.ruling = ruling
        self.fairy = notation == "fairy"

    def square(self, sq: int) -> str:
        return f"{FILE_NAMES[sq % 9]}{sq // 9 + 1 if self.fairy else sq // 9}"

    def move_text(self, index: int) -> str:
        """``'b3b2 (炮八退一)'``: the cycle's move ``index`` in the notation, and in Chinese."""
        ruling = self.ruling
        move = ruling.classifications[index].move
        text = move.fairy() if self.fairy else move.iccs()
        if index < len(ruling.move_names):
            text += f" ({ruling.move_names[index]})"
        return text

    def piece(self, code: int, sq: int) -> str:
        return f"the {PIECE_NAMES[code & 7]} {self.square(sq)}"

    def color(self, index: int) -> Color:
        start = self.ruling.start_turn
        return start if index % 2 == 0 else 1 - start

    def move(self, index: int) -> str:
        cls = self.ruling.classifications[index]
        text = f"{self.move_text(index)} {COLOR_NAMES[self.color(index)]} {_LABELS[cls.kind]}"
        if cls.attacks:
            why = "; ".join(self.attack(cls.move, attack) for attack in cls.attacks)
        elif cls.victims:  # a classification made without its reasons
            why = "; ".join(
                f"{self.square(t.attacker)} attacks {self.square(t.victim)}" for t in cls.victims
            )
        elif cls.check:
            return text  # a classification made without its reasons
        else:
            why = "it creates no attack"
        return f"{text} ({why})"

    def roots(self, roots: tuple[Root, ...]) -> str:
        return _and([self.piece(root.code, root.square) for root in roots])

    def fake_roots(self, roots: tuple[Root, ...]) -> str:
        parts = []
        for root in roots:
            name = self.piece(root.code, root.square)
            if root.fake is FakeRoot.FLYING_GENERAL:
                how = (
                    "without facing the other king, the flying general"
                    if root.code & 7 == KING
                    else "without leaving the kings facing, the flying general"
                )
            elif root.fake is FakeRoot.KING_ATTACKED:
                how = "without stepping into an attack"
            else:
                how = "without exposing its king: it is pinned"
            parts.append(f"{name} cannot recapture {how}")
        return "; ".join(parts)

    def attack(self, move: Move, attack: Attack) -> str:
        attacker = self.piece(attack.attacker_code, attack.attacker)
        if attack.attacker != move.to_square and attack.reason not in _STOOD:
            attacker += ", uncovered by the move,"  # a discovered attack
        victim = self.piece(attack.victim_code, attack.victim)
        a_type, v_type = attack.attacker_code & 7, attack.victim_code & 7
        reason = attack.reason
        if reason is AttackReason.UNPROTECTED:
            article = {(ROOK, CANNON): "art. 18", (ROOK, KNIGHT): "art. 23"}.get(
                (a_type, v_type), "art. 25"
            )
            return f"{attacker} attacks {victim}, which has no root (无根子): a chase, {article}"
        if reason is AttackReason.CHECK:
            return f"{attacker} attacks the king: a check"
        if reason is AttackReason.FAKE_ROOT:
            return (
                f"{attacker} attacks {victim}, protected only by a fake root (假根: "
                f"{self.fake_roots(attack.roots)}): a chase, art. 34"
            )
        if reason is AttackReason.STRONGER_VICTIM:
            if v_type == ROOK and a_type in (KNIGHT, CANNON):
                article = "art. 15" if a_type == CANNON else "art. 20"
                return (
                    f"{attacker} attacks {victim}: a rook attacked by a {PIECE_NAMES[a_type]} is "
                    f"chased even when protected, {article}"
                )
            return (
                f"{attacker} attacks {victim}: a {PIECE_NAMES[v_type]} attacked by an "
                f"{PIECE_NAMES[a_type]} is chased even when protected, 图107 "
                "(docs/rulings.md D-1)"
            )
        if reason is AttackReason.CANNOT_TAKE_BACK:
            fake = f" ({self.fake_roots(attack.roots)})" if attack.roots else ""
            return (
                f"{attacker} attacks {victim}, which cannot take back and has no real root"
                f"{fake}: not an exchange offer but a chase, art. 24"
            )
        if reason is AttackReason.ROOT_TAKEN:
            return (
                f"{attacker} already attacked {victim}, and the move took away its last root, "
                f"{self.roots(attack.roots)}: a chase, RULES.md §7.1 (D105)"
            )
        if reason is AttackReason.PROTECTED:
            return (
                f"{attacker} attacks {victim}, protected (有根子) by {self.roots(attack.roots)}: "
                "no chase, art. 17"
            )
        if reason is AttackReason.OFFER:
            return (
                f"{attacker} attacks {victim}, which can take back: an exchange offer (兑), "
                "no chase, art. 24"
            )
        if reason is AttackReason.PINNED_ATTACKER:
            return (
                f"{attacker} attacks {victim} but cannot capture it without exposing its own "
                "king: no chase, RULES.md §2.4"
            )
        if reason is AttackReason.CONFINED:
            return (
                f"{attacker} attacks {victim}, but it is pinned to its line and moved along it: "
                "no chase, art. 27"
            )
        if reason is AttackReason.STANDING:
            return (
                f"{attacker} threatened {victim} before the move too: a standing threat the "
                "move did not create, no chase, 图110"
            )
        if reason is AttackReason.DEFENCE:
            return (
                f"{attacker} already attacked {victim}; the move took away its roots, "
                f"{self.roots(attack.roots)}, which stood behind the attacker aimed at it: a "
                "defence, no chase, RULES.md §7.1 (art. 19, D39–41)"
            )
        if reason is AttackReason.EXEMPT_CHASER:
            article = "art. 28" if a_type == KING else "art. 29"
            return f"{attacker} attacks {victim}: a {PIECE_NAMES[a_type]} may chase, {article}"
        return (
            f"{attacker} attacks {victim}, a pawn that has not crossed the river: attacking it "
            "is no chase, art. 25"
        )

    def side(self, verdict: SideVerdict) -> str:
        name = _side(verdict.color)
        if verdict.level == LEVEL_CHECK:
            return f"{name} checks on every move (perpetual check, 长将, art. 6)"
        if verdict.level == LEVEL_CHASE:
            chased = ", ".join(self.describe_id(i) for i in verdict.chased)
            text = f"{name} chases the same piece on every move (perpetual chase, 长捉): {chased}"
            if len(verdict.chasers) > 1:
                pieces = _and([self.describe_id(i) for i in verdict.chasers])
                text += f", by {pieces} in turn (art. 33)"
            return text
        text = f"{name} breaks no rule (允许着法)"
        why = verdict.why
        if why is SideReason.DIFFERENT_PIECES:
            targets = _and([self.describe_id(i) for i in verdict.targets])
            return (
                f"{text}: it chases on every move, but no one piece on every move ({targets} "
                "in turn), and chasing different pieces in turn is allowed (art. 32)"
            )
        if why is SideReason.CHECKS_AND_CHASES:
            return (
                f"{text}: it checks or chases on every move, but neither checks on every move "
                "nor chases one piece on every move (one check one chase, 一将一捉, art. 12)"
            )
        if why is SideReason.IDLE_MOVE:
            own = [
                index
                for index in range(len(self.ruling.classifications))
                if self.color(index) == verdict.color
            ]
            idle = [index for index in own if self.ruling.classifications[index].kind == "other"]
            if len(idle) == len(own):
                return f"{text}: none of its moves checks or chases (art. 5)"
            named = ", ".join(
                dict.fromkeys(self.move_text(index) for index in idle)
            )  # a move idle in both loops once
            return (
                f"{text}: {named} neither checks nor chases (闲), and one idle move breaks a "
                "perpetual check or chase (art. 13; D19)"
            )
        return text

    def describe_id(self, piece_id: str) -> str:
        """``'C@c3'`` → ``'the red cannon that stood on c3 when the cycle began'``."""
        piece = Piece.from_symbol(piece_id[0])
        where = piece_id[2:]
        if self.fairy:
            where = f"{where[0]}{int(where[1:]) + 1}"
        return (
            f"the {COLOR_NAMES[piece.color]} {PIECE_NAMES[piece.piece_type]} that stood on "
            f"{where} when the cycle began"
        )


#: An ICCS square or move in a profile's own explanation: files a-i, ranks 0-9, not part of
#: a longer word.
_ICCS_SQUARES = re.compile(r"(?<![A-Za-z0-9@.\-])(?:[a-i][0-9]){1,2}(?![A-Za-z0-9])")
_SQUARE = re.compile(r"([a-i])([0-9])")


def _fairy_squares(text: str) -> str:
    """``text`` with every ICCS square (alone or in a move) written with ranks 1–10.

    >>> _fairy_squares("h6i4 (马二退一): the rook i9, art. 24, CXA-24.13, R@h0")
    'h7i5 (马二退一): the rook i10, art. 24, CXA-24.13, R@h0'
    """
    return _ICCS_SQUARES.sub(
        lambda token: _SQUARE.sub(lambda sq: f"{sq[1]}{int(sq[2]) + 1}", token[0]), text
    )


def _side(color: Color | None) -> str:
    return "Nobody" if color is None else COLOR_NAMES[color].capitalize()


def result_for_loser(loser: Color) -> str:
    return "0-1" if loser == RED else "1-0"
