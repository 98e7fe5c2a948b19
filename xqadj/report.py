"""An HTML report of rulings: one self-contained page (no network: the pictures are inline SVG,
the style is inline CSS, there is no script), readable on a phone.

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
from typing import TYPE_CHECKING

from xqadj import svg
from xqadj.board import Board
from xqadj.referee import Game, Reason, Ruling

if TYPE_CHECKING:
    from xqadj.match import GameRecord
    from xqadj.replay import GameRecord as ReplayRecord
    from xqadj.replay import Options, Outcome

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


def render(title: str, summary: Sequence[str], cards: Iterable[Card], letters: bool = False) -> str:
    """The page: ``title``, the ``summary`` lines, then the cards sorted by reason (stable:
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
        f"</header><main>{''.join(body)}</main></body></html>\n"
    )


def write(path: str | Path, page: str) -> None:
    """Write a page made by :func:`render` (UTF-8)."""
    Path(path).write_text(page, encoding="utf-8")


# -- xqadj replay ------------------------------------------------------------------------------


def replay_cards(
    outcomes: Iterable[Outcome], options: Options | None = None, fmt: str | None = None
) -> list[Card]:
    """A card for each ruled outcome of :mod:`xqadj.replay`.  An outcome keeps the ruling's
    summary, not the game, so each ruled game is read from its file again (each file once) and
    followed to its ruling with the same options."""
    from xqadj import replay

    options = options or replay.Options()
    ruled = [o for o in outcomes if o.ruling is not None and o.index is not None]
    by_file: dict[str, list[Outcome]] = {}
    for outcome in ruled:
        by_file.setdefault(outcome.file, []).append(outcome)
    games: dict[tuple[str, int], ReplayRecord] = {}
    for file, wanted in by_file.items():
        indices = {o.index for o in wanted}
        for record in replay.read_games(file, fmt or replay.detect_format(file)):
            if record.index in indices:
                games[file, record.index] = record
    cards = []
    for outcome in ruled:
        assert outcome.index is not None
        found = games.get((outcome.file, outcome.index))
        followed = None if found is None else _follow(found, options)
        if followed is not None and followed.ruling is not None:
            cards.append(
                Card(outcome.source(), followed.board, followed.ruling, outcome.red, outcome.black)
            )
    return cards


def _follow(record: ReplayRecord, options: Options) -> Game | None:
    """Follow a replay record to its first ruling, as :func:`xqadj.replay.replay_game` does."""
    from xqadj import replay
    from xqadj.board import XqadjError

    if not record.moves:
        return None
    parse = replay._parser(replay.detect_notation(record.moves[0]))
    try:
        game = Game(
            record.fen,
            rules=options.rules,
            move_limit=options.move_limit,
            forbidden_run=options.forbidden_run,
        )
        for text in record.moves:
            if game.push(parse(game.board, text)) is not None:
                break
    except XqadjError:
        return None
    return game


def write_replay_report(
    path: str | Path,
    outcomes: Iterable[Outcome],
    summary: Sequence[str],
    options: Options | None = None,
    fmt: str | None = None,
    letters: bool = False,
) -> None:
    """The report of an ``xqadj replay`` run: ``summary`` lines (the run's summary line) and
    one card per ruled game."""
    cards = replay_cards(outcomes, options, fmt)
    write(path, render("xqadj replay: rulings", summary, cards, letters))


# -- xqadj match -------------------------------------------------------------------------------


def match_cards(records: Iterable[GameRecord]) -> list[Card]:
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
    path: str | Path, records: Sequence[GameRecord], summary: Sequence[str], letters: bool = False
) -> None:
    """The report of an ``xqadj match``: ``summary`` lines, each game's result, then one card
    per ruled game."""
    lines = list(summary) + [
        f"game {r.number}: {r.red} vs {r.black}: {r.result} {r.termination}" for r in records
    ]
    write(path, render("xqadj match: rulings", lines, match_cards(records), letters))
