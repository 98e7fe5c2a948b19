"""The command-line arguments that several commands share (``--rules``, ``--forbidden-run``).

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
