"""The command-line arguments that several commands share (``--rules``, ``--flip``, ...).

``--rules`` and ``--forbidden-run`` for every command that makes games; ``--letters``,
``--flip`` and ``--coordinates`` for those that draw boards (show, replay and match).

Layer: integrations.  :mod:`xqadj.cli` and the integration commands (match, proxy, replay, show)
import it; it imports only the rules registry.
"""

from __future__ import annotations

import argparse

from xqadj.rules import PROFILES


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    """``--rules`` and ``--forbidden-run``, as every command that makes games takes them."""
    parser.add_argument(
        "--rules",
        choices=tuple(PROFILES),
        default="axf",
        help="rules profile (default axf)",
    )
    parser.add_argument(
        "--forbidden-run",
        action="store_true",
        help="under --rules cxa, also rule a piece's nine forbidden moves in a row on three or "
        "more squares (参考图8; classifies moves as they are played)",
    )


def add_picture_arguments(parser: argparse.ArgumentParser, what: str = "") -> None:
    """``--flip``, ``--coordinates`` and ``--letters``, as every command that draws boards
    (show, replay --html, match --html) takes them; ``what`` names the drawing in the help
    (``" in the report"``)."""
    parser.add_argument("--flip", action="store_true", help=f"Black at the bottom{what}")
    parser.add_argument(
        "--coordinates",
        choices=("iccs", "chinese", "none"),
        default="iccs",
        help="ICCS files a-i and ranks 0-9 (default), the sides' Chinese file numbers, or none"
        + what,
    )
    parser.add_argument(
        "--letters",
        action="store_true",
        help="draw WXF letters (K A E H R C P) instead of Chinese characters: no CJK font "
        f"needed{what}",
    )


def picture_coordinates(args: argparse.Namespace) -> str | None:
    """The parsed ``--coordinates``, as the pictures take it (None for ``none``)."""
    value: str = args.coordinates
    return None if value == "none" else value
