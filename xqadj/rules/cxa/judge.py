"""The CXA profile's judgement of a cycle: who must vary, and why.

It judges each side's labels and decides who must vary, with the explanation of the ruling
(§3.4; 2011 第26条 棋例总则, 2020 24.9–24.14, 26.9).

Layer: rules (the CXA profile).
"""

from __future__ import annotations

from dataclasses import dataclass

from xqadj.board import (
    BLACK,
    COLOR_NAMES,
    RED,
    ROOK,
    Board,
    Color,
)
from xqadj.notation import to_chinese
from xqadj.rules.cxa.labels import (
    _LABEL_NAMES,
    ATTACKING,
    CHASE,
    CHECK,
    KILL,
    MoveLabel,
    _Classifier,
    _describe_piece,
)
from xqadj.rules.cxa.search import _MEMO, _MEMO_LIMIT, EVEN_TRADE, Gain, piece_value
from xqadj.rules.ruling import Reason, Ruling

# -- the ruling (§3.4) -----------------------------------------------------------------------


@dataclass(frozen=True)
class SideJudgement:
    """How one side's moves in the cycle are judged (24.13, 26.9, §3.4)."""

    color: Color
    labels: tuple[str, ...]
    #: Its chases include a joint chase (联合捉) or a chase of a protected or under-protected
    #: piece (有根子/少根子) other than a rook: the "light" side of 26.9.
    light: bool = False
    #: One of its chases is of a rook.
    rooks: bool = False

    @property
    def forbidden(self) -> bool:
        """Every move is 将, 杀 or 捉: 长将, 长杀, 长捉 or a mix (禁止着法, 24.13)."""
        return bool(self.labels) and all(label in ATTACKING for label in self.labels)

    @property
    def perpetual_check(self) -> bool:
        """Every move is 将 (长将, 24.9)."""
        return bool(self.labels) and all(label == CHECK for label in self.labels)


def _principal(label: MoveLabel) -> Gain:
    """The chase a 捉 move is known by: the one of its gains with the most valuable target,
    then the largest gain, then a single-piece one (参考图38 "联合捉车": the rook, not the
    knight; 参考图47 "捉车"; 图28 "长捉车")."""
    return max(
        label.gains,
        key=lambda g: (piece_value(g.target_code, g.target), g.value, g.heavy),
    )


def judge_side(color: Color, classes: list[MoveLabel]) -> SideJudgement:
    """One side's moves of the cycle, judged.  Each 捉 move counts by its principal chase
    (:func:`_principal`): light when that chase is joint or of a protected piece (not a rook)."""
    chases = [_principal(c) for c in classes if c.label == CHASE and c.gains]
    return SideJudgement(
        color,
        tuple(c.label for c in classes),
        light=any(not g.heavy for g in chases),
        rooks=any(g.target_code & 7 == ROOK for g in chases),
    )


def decide(red: SideJudgement, black: SideJudgement) -> tuple[Color | None, str, str]:
    """The offender (None for a draw), the article, and why (§3.4; 2011 第26条 棋例总则;
    2020 24.9–24.14, 26.9.2, 26.9.3):

    1. one-sided perpetual check (单方长将) loses, whatever the other side does ("在任何情况下");
       both sides checking perpetually is a draw (双方均为禁止着法);
    2. a forbidden side against an allowed one must vary and, not varying, loses (不变判负);
    3. neither forbidden: draw (双方均为允许着法);
    4. both forbidden: draw, except that a "heavy" side (every chase a single-piece chase of a
       rook or of an unprotected piece, or no chase at all) must vary against a "light" one
       (a joint chase, or a chase of a protected piece) (2007 细则9, 26.9.2, 26.9.3).
    """
    if red.perpetual_check != black.perpetual_check:
        offender = RED if red.perpetual_check else BLACK
        return offender, "CXA-24.9", "one-sided perpetual check (单方长将) is never allowed"
    if red.perpetual_check:
        return None, "CXA-24.13", "both sides check perpetually (双方长将)"
    if red.forbidden != black.forbidden:
        offender = RED if red.forbidden else BLACK
        side = red if red.forbidden else black
        why = "a forbidden move (禁止着法) against an allowed one must vary"
        return offender, _forbidden_article(side), why
    if not red.forbidden:
        return None, "CXA-24.14", "both sides play allowed moves (允许着法)"
    if red.light != black.light:
        heavy = black if red.light else red
        article = "CXA-26.9.2" if heavy.rooks else "CXA-26.9.3"
        why = (
            "both sides play forbidden moves, and the side whose chases are all single-piece "
            "chases of a rook or of an unprotected piece must vary against one that chases "
            "jointly (联合捉) or chases a protected piece"
        )
        return heavy.color, article, why
    return None, "CXA-24.13", "both sides play forbidden moves (双方均为禁止着法) of one class"


def judge_cycle(board: Board, length: int) -> Ruling:
    """Rule the last ``length`` moves of ``board``'s move stack, which bring a position back for
    the third time, under the CXA rules: classify every move (:func:`classify_move`, each
    (position, move) once), judge each side (:func:`judge_side`) and decide (:func:`decide`).

    The reason is ``repetition`` for a draw; for a loss ``perpetual-chase`` when the
    offender's moves include a 捉, ``perpetual-kill`` when they include a 杀 and no 捉 (长杀,
    一将一杀), else ``perpetual-check`` (长将; docs/cxa.md).
    """
    return _judge_span(
        board,
        length,
        _Classifier(),
        f"the position occurred for the third time at ply {board.ply}",
    )


def _judge_span(
    board: Board, length: int, classifier: _Classifier, trigger: str, heading: str = "Cycle"
) -> Ruling:
    """Classify and judge the last ``length`` moves of ``board``; ``trigger`` says in the
    explanation why they are being judged, ``heading`` names the moves listed."""
    if _MEMO.size() > _MEMO_LIMIT:
        _MEMO.clear()
    work = board.copy()
    cycle = [work.pop() for _ in range(length)][::-1]
    start_turn = work.turn
    classes: list[MoveLabel] = []
    texts: list[str] = []
    for move in cycle:
        label = classifier.classify(work, move)
        texts.append(_describe_move(work, label))
        classes.append(label)
        work.push(move)
    sides = {
        color: judge_side(
            color, [c for i, c in enumerate(classes) if (i % 2 == 0) == (color == start_turn)]
        )
        for color in (RED, BLACK)
    }
    offender, article, why = decide(sides[RED], sides[BLACK])
    if offender is None:
        result, reason = "1/2-1/2", Reason.REPETITION
    else:
        result = "0-1" if offender == RED else "1-0"
        offending = sides[offender].labels
        if CHASE in offending:  # 长捉, 一将一捉, 一杀一捉
            reason = Reason.PERPETUAL_CHASE
        elif KILL in offending:  # 长杀, 一将一杀
            reason = Reason.PERPETUAL_KILL
        else:  # 长将
            reason = Reason.PERPETUAL_CHECK
    return Ruling(
        result,
        reason,
        board.ply,
        offender,
        article,
        tuple(cycle),
        start_turn=start_turn,
        rules="cxa",
        labels=tuple(c.label for c in classes),
        explanation=_explain(trigger, heading, texts, sides, offender, why, article, result),
    )


def _forbidden_article(side: SideJudgement) -> str:
    """The term the forbidden side's moves make: 长杀 (24.10), 长捉 (24.11), or a mix (24.13)."""
    kinds = set(side.labels)
    if kinds == {KILL}:
        return "CXA-24.10"
    if kinds == {CHASE}:
        return "CXA-24.11"
    return "CXA-24.13"


_HOW = {
    "direct": "by a direct capture",
    "uncovered": "by an uncovered capture",
    "checks": "by checks",
    "exchange": "after a full exchange",
}


def _describe_move(board: Board, label: MoveLabel) -> str:
    """One cycle move, readable: ``h6i4 (马二退一) red 捉: …``."""
    move = label.move
    color = COLOR_NAMES[board.turn]
    name = _LABEL_NAMES[label.label]
    text = f"{move.iccs()} ({to_chinese(board, move)}) {color} {label.label} ({name}"
    if label.label == CHASE and label.gains:
        parts = []
        for gain in label.gains:
            how = gain.how
            if how == "direct" and gain.line[0].from_square != move.to_square:
                how = "uncovered"
            victim = _describe_piece(gain.target_code, gain.target)
            root = "有根子" if gain.protected else "无根子"
            if gain.joint:
                root += ", a joint capture 联合捉"
            line = " ".join(m.iccs() for m in gain.line)
            even = gain.value == EVEN_TRADE and not gain.bounded
            won = "takes, in an even trade (各吃各子), the" if even else "wins the"
            if gain.bounded:
                won = "wins (at least: the exact search ran out of nodes) the"
            parts.append(f"{won} {victim} ({root}) {_HOW[how]}: {line}")
        text += ": " + "; ".join(parts)
    elif label.note:
        text += f": {label.note}"
    return text + ")"


def _explain(
    trigger: str,
    heading: str,
    texts: list[str],
    sides: dict[Color, SideJudgement],
    offender: Color | None,
    why: str,
    article: str,
    result: str,
) -> str:
    """The ruling as one paragraph of English with the CXA terms."""
    summary = "; ".join(
        f"{COLOR_NAMES[color]} {''.join(side.labels)} "
        f"({'forbidden, 禁止着法' if side.forbidden else 'allowed, 允许着法'})"
        for color, side in sides.items()
    )
    if offender is None:
        outcome = "the game is drawn (双方不变作和)"
    else:
        outcome = f"{COLOR_NAMES[offender]} must vary and, not varying, loses (不变判负)"
    return (
        f"Under the CXA rules {trigger}. "
        f"{heading}: {'; '.join(texts)}. Sides: {summary}. {why[0].upper()}{why[1:]}: {outcome} "
        f"({article}); result {result}."
    )
