"""An HTML report of rulings: one self-contained page, readable on a phone.

No network: the pictures are inline SVG, the style is inline CSS, there is no script.

Layer: integrations.  It imports the pictures (:mod:`xqadj.svg`), the referee and the core,
never the commands that write it: ``xqadj match`` hands it its game records (any object of the
:class:`MatchGame` shape), ``xqadj replay`` the :class:`Card` objects of its ruled games.

The page has a header (xqadj's version, the date, the rules profile), the run's summary, any
sections of pre-rendered HTML its caller adds (``sections``: ``match`` may put its statistics
there), an index of the ruled games linking to them, then one card per ruled game, grouped and
sorted by reason: the players, the ruling (result, reason, offender, article), the pictures of
:func:`xqadj.svg.ruling_panels` and the explanation.  The boards' background and the pieces'
faces are drawn once, in an SVG of their own (:func:`xqadj.svg.definitions`), which every
picture refers to.  ``xqadj replay --html FILE`` and ``xqadj match --html FILE`` write it
(:func:`write_replay_report`, :func:`write_match_report`); :func:`render` makes the page from
:class:`Card` objects for anything else.

>>> from xqadj.referee import Game
>>> game = Game("3k5/1R7/9/9/9/9/9/9/9/R3K4 w")
>>> ruling = game.push_iccs("a0a9")
>>> page = render("Example", ["one game"], [Card("example#1", game.board, ruling)])
>>> page.startswith("<!DOCTYPE html>") and 'class="card"' in page
True
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

from xqadj import __version__, svg
from xqadj.board import Board, Move
from xqadj.referee import Reason, Ruling


class MatchOpening(Protocol):
    """The start of a match game, as the report reads it."""

    @property
    def fen(self) -> str: ...


class MatchGame(Protocol):
    """What the report reads of a match's game (:class:`xqadj.integrations.match.GameRecord`
    has it): the report imports no integration that uses it."""

    @property
    def number(self) -> int: ...
    @property
    def red(self) -> str: ...
    @property
    def black(self) -> str: ...
    @property
    def opening(self) -> MatchOpening: ...
    @property
    def moves(self) -> Sequence[Move]: ...
    @property
    def result(self) -> str: ...
    @property
    def termination(self) -> str: ...
    @property
    def ruling(self) -> Ruling | None: ...


#: The order of the report's sections: the forbidden repetitions first, then the draws by
#: repetition, then the rulings that are not repetitions.
REASON_ORDER = (
    Reason.PERPETUAL_CHECK,
    Reason.PERPETUAL_CHASE,
    Reason.PERPETUAL_KILL,
    Reason.REPETITION,
    Reason.CHECKMATE,
    Reason.STALEMATE,
    Reason.MOVE_LIMIT,
)

STYLE = """
*{box-sizing:border-box}
body{margin:0;padding:0 12px 24px;font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,
'Noto Sans CJK SC','WenQuanYi Zen Hei',sans-serif;background:#fffaf0;color:#2b1d0e}
header,main,.sections{max-width:1400px;margin:0 auto}
h1{font-size:1.4em;margin:16px 0 4px}
.made{margin:0 0 8px;color:#6b5235;font-size:13px}
h2{font-size:1.2em;margin:28px 0 8px;border-bottom:2px solid #c8a064}
.summary{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6e7c8;padding:8px 10px;
border-radius:6px;font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:13px}
nav a{margin-right:12px;color:#8a4b00}
.card{background:#fff;border:1px solid #dcc39a;border-radius:8px;padding:10px 12px;
margin:14px 0;box-shadow:0 1px 3px rgba(0,0,0,.08);content-visibility:auto;
contain-intrinsic-size:auto 1200px}
.card h3{font-size:1.05em;margin:0 0 4px;overflow-wrap:anywhere}
.players .red{color:#c8102e;font-weight:600}.players .black{color:#111;font-weight:600}
.ruling{font-weight:600;margin:4px 0 8px}
.index{font-size:13px;margin:8px 0}
.index ol{margin:4px 0;padding:4px 8px 4px 3em;display:grid;column-gap:4em;
grid-template-columns:repeat(auto-fill,minmax(min(28em,100%),1fr));max-height:22em;
overflow-y:auto;border:1px solid #dcc39a;border-radius:6px;background:#fff}
.index li{overflow-wrap:anywhere;min-width:0}
.index a{color:#8a4b00}
.panels{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(380px,100%),1fr));gap:12px}
figure{margin:0;padding:4px;border:3px solid transparent;border-radius:6px;min-width:0}
figure.offender{border-color:#c8102e}
figure svg{display:block;width:100%;height:auto}
figcaption{font-size:13px}
figcaption.title{font-weight:600;line-height:1.4;height:2.8em;overflow:hidden}
.explanation{font-size:14px;margin:10px 0 2px}
.legend span{display:inline-block;margin-right:14px;font-size:13px}
.legend i{display:inline-block;width:22px;height:5px;margin-right:5px;vertical-align:middle}
.legend b{display:inline-block;width:12px;height:12px;margin-right:5px;border-radius:50%;
border:3px solid;vertical-align:middle}
.defs{position:absolute;width:0;height:0;overflow:hidden}
@media (max-width:600px){.index ol{max-height:8.5em}.legend span{font-size:12px;margin-right:8px}
.legend{margin:4px 0}}
"""

#: What the legend says of each arrow and ring.
ARROW_LEGEND = {
    "move": "the move",
    "check": "a check",
    "chase": "a chase",
    "kill": "a threatened mate (CXA 杀)",
    "block": "the check a piece blocks (CXA 拦)",
    "exchange": "an offered exchange (CXA 兑)",
}
MARK_LEGEND = {
    "check": "the king in check",
    "chase": "a chased piece",
    "exchange": "the pieces of an offered exchange",
    "block": "the piece that blocks",
}


@dataclass(frozen=True)
class Card:
    """One ruled game: where it comes from, the game's board at the ruling, and the ruling."""

    source: str
    board: Board
    ruling: Ruling
    red: str | None = None
    black: str | None = None


def _sort_key(card: Card) -> int:
    return REASON_ORDER.index(card.ruling.reason) if card.ruling.reason in REASON_ORDER else 99


@dataclass(frozen=True)
class Drawing:
    """How the report draws its boards, as ``xqadj show`` does: WXF ``letters`` instead of
    Chinese characters, ``flipped`` (Black at the bottom), ``coordinates`` (``"iccs"``,
    ``"chinese"`` or None).  ``shared``: the boards refer to one drawing of the grid and the
    pieces' faces in the page (the default); False draws every board in full, so that each
    picture can be cut out of the page alone (a page several times larger)."""

    letters: bool = False
    flipped: bool = False
    coordinates: str | None = "iccs"
    shared: bool = True


def _card(card: Card, drawing: Drawing, anchor: str) -> str:
    ruling = card.ruling
    letters = drawing.letters
    panels = svg.ruling_panels(
        card.board,
        ruling,
        letters=letters,
        flipped=drawing.flipped,
        coordinates=drawing.coordinates,
        shared=drawing.shared,
    )
    figures = []
    for panel in panels:
        figures.append(
            f'<figure class="panel{" offender" if panel.offender else ""}">'
            f'<figcaption class="title">{html.escape(panel.title)}</figcaption>'
            f"{panel.svg}<figcaption>{html.escape(panel.caption)}</figcaption></figure>"
        )
    players = ""
    if card.red or card.black:
        players = (
            f'<p class="players"><span class="red">{html.escape(card.red or "?")}</span> (Red) '
            f'vs <span class="black">{html.escape(card.black or "?")}</span> (Black)</p>'
        )
    offender = "" if ruling.offender is None else ("red" if ruling.offender == 0 else "black")
    return (
        f'<article class="card" id="{anchor}" data-reason="{ruling.reason.value}" '
        f'data-result="{ruling.result}" data-offender="{offender}" '
        f'data-article="{html.escape(ruling.article)}">'
        f"<h3>{html.escape(card.source)}</h3>{players}"
        f'<p class="ruling">{html.escape(svg.ruling_title(ruling, letters))}</p>'
        f'<div class="panels">{"".join(figures)}</div>'
        f'<p class="explanation">{html.escape(ruling.explain())}</p></article>'
    )


def _short(source: str) -> str:
    """A card's source without its folders, for the index: ``games.pgn#3 [Event] (A vs B)``."""
    place, sep, rest = source.partition("#")
    return place.rsplit("/", 1)[-1] + sep + rest


def render(
    title: str,
    summary: Sequence[str],
    cards: Iterable[Card],
    letters: bool = False,
    *,
    drawing: Drawing | None = None,
    rules: str | None = None,
    sections: Sequence[str] = (),
    made: datetime | None = None,
) -> str:
    """The page: ``title``; a line with xqadj's version, the date (``made``, default now) and
    the rules profile (``rules``; by default the profiles of the cards' rulings); the
    ``summary`` lines; ``sections``, pieces of pre-rendered HTML (each a ``<section>``, say)
    placed as they are before the games, for a caller's own figures (statistics, charts); an
    index of the ruled games; then the cards sorted by reason (stable: within a reason, in
    the order given), drawn as ``drawing`` says (``letters`` is its shorthand)."""
    drawing = drawing or Drawing(letters=letters)
    ordered = sorted(cards, key=_sort_key)
    by_reason: dict[Reason, list[tuple[str, Card]]] = {}
    for number, card in enumerate(ordered, 1):
        by_reason.setdefault(card.ruling.reason, []).append((f"game-{number}", card))
    nav = " ".join(
        f'<a href="#{reason.value}">{html.escape(svg.REASON_NAMES[reason])} ({len(found)})</a>'
        for reason, found in by_reason.items()
    )
    legend = "".join(
        f'<span><i style="background:{svg.COLORS[kind]}"></i>{ARROW_LEGEND[kind]}</span>'
        for kind in svg.ARROW_KINDS
    )
    rings = "".join(
        f'<span><b style="border-color:{svg.COLORS[kind]}"></b>{MARK_LEGEND[kind]}</span>'
        for kind in svg.MARK_KINDS
    )
    if rules is None:
        rules = ", ".join(sorted({card.ruling.rules for card in ordered})) or "axf"
    stamp = (made or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M UTC")
    body = []
    index = []
    for reason, found in by_reason.items():
        name = svg.REASON_NAMES[reason]
        heading = html.escape(name[0].upper() + name[1:])
        body.append(f'<section id="{reason.value}"><h2>{heading} ({len(found)})</h2>')
        body += [_card(card, drawing, anchor) for anchor, card in found]
        body.append("</section>")
        index += [
            f'<li><a href="#{anchor}">{html.escape(_short(card.source))}</a>: '
            f"{html.escape(reason.value)} {html.escape(card.ruling.result)}</li>"
            for anchor, card in found
        ]
    if not by_reason:
        body.append("<p>No game was ruled.</p>")
    contents = (
        f'<details class="index" open><summary>The ruled games ({len(index)})</summary>'
        f"<ol>{''.join(index)}</ol></details>"
        if index
        else ""
    )
    font = svg.LATIN_FONTS if drawing.letters else svg.CJK_FONTS
    # The boards' background and the pieces' faces, drawn once for every picture of the page.
    defs = (
        f'<svg class="defs" xmlns="http://www.w3.org/2000/svg" width="0" height="0" '
        f'aria-hidden="true" font-family="{font}">'
        f"{svg.definitions(drawing.coordinates, drawing.flipped, drawing.letters)}</svg>"
    )
    extra = f'<div class="sections">{"".join(sections)}</div>' if sections else ""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>{defs}"
        f"<header><h1>{html.escape(title)}</h1>"
        f'<p class="made">xqadj {html.escape(__version__)} · {stamp} · rules: '
        f"{html.escape(rules)}</p>"
        f'<div class="summary">{html.escape(chr(10).join(summary))}</div>'
        f"<nav>{nav}</nav>"
        f'<p class="legend">Arrows: {legend}</p>'
        f'<p class="legend">Rings: {rings}</p>'
        "<p class=\"legend\">The offender's moves are framed in red.</p>"
        f"{contents}</header>{extra}<main>{''.join(body)}</main></body></html>\n"
    )


def write(path: str | Path, page: str) -> None:
    """Write a page made by :func:`render` (UTF-8)."""
    Path(path).write_text(page, encoding="utf-8")


# -- xqadj replay ------------------------------------------------------------------------------


def write_replay_report(
    path: str | Path,
    cards: Iterable[Card],
    summary: Sequence[str],
    letters: bool = False,
    *,
    drawing: Drawing | None = None,
    rules: str | None = None,
) -> None:
    """The report of an ``xqadj replay`` run: ``summary`` lines (the run's summary line) and
    the ``cards`` of its ruled games (:func:`xqadj.integrations.replay.replay_cards`), drawn as
    ``drawing`` says, under the ``rules`` profile."""
    drawing = drawing or Drawing(letters=letters)
    write(path, render("xqadj replay: rulings", summary, cards, drawing=drawing, rules=rules))


# -- xqadj match -------------------------------------------------------------------------------


def match_cards(records: Iterable[MatchGame]) -> list[Card]:
    """A card for each game of a match that ended by a ruling (not by a forfeit or the ply
    limit): the board is the opening's position with the game's moves (which include the
    opening's) played on it."""
    cards = []
    for record in records:
        if record.ruling is None:
            continue
        board = Board(record.opening.fen)
        for move in record.moves:
            board.push(move)
        source = f"game {record.number}"
        cards.append(Card(source, board, record.ruling, record.red, record.black))
    return cards


def write_match_report(
    path: str | Path,
    records: Sequence[MatchGame],
    summary: Sequence[str],
    letters: bool = False,
    *,
    drawing: Drawing | None = None,
    rules: str | None = None,
    sections: Sequence[str] = (),
) -> None:
    """The report of an ``xqadj match``: ``summary`` lines, each game's result, the
    pre-rendered HTML ``sections`` (the match's statistics, say: see :func:`render`), then one
    card per ruled game, drawn as ``drawing`` says, under the ``rules`` profile."""
    lines = list(summary) + [
        f"game {r.number}: {r.red} vs {r.black}: {r.result} {r.termination}" for r in records
    ]
    drawing = drawing or Drawing(letters=letters)
    page = render(
        "xqadj match: rulings",
        lines,
        match_cards(records),
        drawing=drawing,
        rules=rules,
        sections=sections,
    )
    write(path, page)
