"""An HTML report of rulings: one self-contained page, readable on a phone.

No network: the pictures are inline SVG, the style is inline CSS, there is no script.

Layer: integrations.  It imports the pictures (:mod:`xqadj.svg`), the referee and the core,
never the commands that write it: ``xqadj match`` hands it its game records (any object of the
:class:`MatchGame` shape), ``xqadj replay`` the :class:`Card` objects of its ruled games.

The page has the run's summary, then one card per ruled game, grouped and sorted by reason:
the players, the ruling (result, reason, offender, article), the pictures of
:func:`xqadj.svg.ruling_panels` and the explanation.  ``xqadj replay --html FILE`` and
``xqadj match --html FILE`` write it (:func:`write_replay_report`, :func:`write_match_report`);
:func:`render` makes the page from :class:`Card` objects for anything else.

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
from pathlib import Path
from typing import Protocol

from xqadj import svg
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
header,main{max-width:1400px;margin:0 auto}
h1{font-size:1.4em;margin:16px 0 8px}
h2{font-size:1.2em;margin:28px 0 8px;border-bottom:2px solid #c8a064}
.summary{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6e7c8;padding:8px 10px;
border-radius:6px;font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:13px}
nav a{margin-right:12px;color:#8a4b00}
.card{background:#fff;border:1px solid #dcc39a;border-radius:8px;padding:10px 12px;
margin:14px 0;box-shadow:0 1px 3px rgba(0,0,0,.08)}
.card h3{font-size:1.05em;margin:0 0 4px;overflow-wrap:anywhere}
.players .red{color:#c8102e;font-weight:600}.players .black{color:#111;font-weight:600}
.ruling{font-weight:600;margin:4px 0 8px}
.panels{display:grid;grid-template-columns:repeat(auto-fill,minmax(230px,1fr));gap:12px}
figure{margin:0;padding:4px;border:3px solid transparent;border-radius:6px}
figure.offender{border-color:#c8102e}
figure svg{display:block;width:100%;height:auto}
figcaption{font-size:13px}
figcaption.title{font-weight:600}
.explanation{font-size:14px;margin:10px 0 2px}
.legend span{display:inline-block;margin-right:14px;font-size:13px}
.legend i{display:inline-block;width:22px;height:5px;margin-right:5px;vertical-align:middle}
"""


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


def _card(card: Card, letters: bool) -> str:
    ruling = card.ruling
    panels = svg.ruling_panels(card.board, ruling, letters=letters)
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
        f'<article class="card" data-reason="{ruling.reason.value}" data-result="{ruling.result}" '
        f'data-offender="{offender}" data-article="{html.escape(ruling.article)}">'
        f"<h3>{html.escape(card.source)}</h3>{players}"
        f'<p class="ruling">{html.escape(svg.ruling_title(ruling, letters))}</p>'
        f'<div class="panels">{"".join(figures)}</div>'
        f'<p class="explanation">{html.escape(ruling.explain())}</p></article>'
    )


def render(
    title: str,
    summary: Sequence[str],
    cards: Iterable[Card],
    letters: bool = False,
    section: str = "",
) -> str:
    """The page: ``title``, the ``summary`` lines, ``section`` (pre-rendered HTML placed
    before the games: ``match``'s statistics), then the cards sorted by reason (stable:
    within a reason, in the order given)."""
    ordered = sorted(cards, key=_sort_key)
    sections: dict[Reason, list[Card]] = {}
    for card in ordered:
        sections.setdefault(card.ruling.reason, []).append(card)
    nav = " ".join(
        f'<a href="#{reason.value}">{html.escape(svg.REASON_NAMES[reason])} ({len(found)})</a>'
        for reason, found in sections.items()
    )
    legend = "".join(
        f'<span><i style="background:{svg.COLORS[kind]}"></i>{kind}</span>'
        for kind in svg.ARROW_KINDS
    )
    body = []
    for reason, found in sections.items():
        name = svg.REASON_NAMES[reason]
        body.append(
            f'<section id="{reason.value}"><h2>{html.escape(name[0].upper() + name[1:])} '
            f"({len(found)})</h2>"
        )
        body += [_card(card, letters) for card in found]
        body.append("</section>")
    if not sections:
        body.append("<p>No game was ruled.</p>")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>"
        f"<header><h1>{html.escape(title)}</h1>"
        f'<div class="summary">{html.escape(chr(10).join(summary))}</div>'
        f"<nav>{nav}</nav>"
        f'<p class="legend">Arrows: {legend}; the offender\'s moves are framed in red.</p>'
        f"</header><main>{section}{''.join(body)}</main></body></html>\n"
    )


def write(path: str | Path, page: str) -> None:
    """Write a page made by :func:`render` (UTF-8)."""
    Path(path).write_text(page, encoding="utf-8")


# -- xqadj replay ------------------------------------------------------------------------------


def write_replay_report(
    path: str | Path, cards: Iterable[Card], summary: Sequence[str], letters: bool = False
) -> None:
    """The report of an ``xqadj replay`` run: ``summary`` lines (the run's summary line) and
    the ``cards`` of its ruled games (:func:`xqadj.integrations.replay.replay_cards`)."""
    write(path, render("xqadj replay: rulings", summary, cards, letters))


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
    section: str = "",
) -> None:
    """The report of an ``xqadj match``: ``summary`` lines, each game's result, ``section``
    (the statistics, :mod:`xqadj.integrations.statsview`), then one card per ruled game."""
    lines = list(summary) + [
        f"game {r.number}: {r.red} vs {r.black}: {r.result} {r.termination}" for r in records
    ]
    write(path, render("xqadj match: rulings", lines, match_cards(records), letters, section))
