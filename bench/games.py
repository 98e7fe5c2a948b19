"""Load the real games in /work/shared/games (ICCS move lists) for the benchmarks.

The files are PGN with ``Event``/``Red``/``Black`` headers and ICCS movetext such as
``1. h2e2 h9g7 2. h0g2 ...``; every game starts from the standard position.
"""

from __future__ import annotations

import re
from pathlib import Path

#: ``/work/shared/games`` seen from a checkout at ``/work/main``: ``<repo>/../shared/games``.
DEFAULT_GAMES_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "games"

_ICCS = re.compile(r"^[a-i][0-9][a-i][0-9]$")
_MOVE_NUMBER = re.compile(r"^\d+\.+$")
_RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}


def load_games(games_dir: str | Path = DEFAULT_GAMES_DIR) -> list[list[str]]:
    """Every game of every ``*.pgn`` file in ``games_dir`` (sorted by file name), in file order.

    A game is its list of ICCS moves (lower case, ranks 0-9).  Headers, move numbers and result
    tokens are skipped; any other token raises ``ValueError`` naming the file and line.
    """
    games: list[list[str]] = []
    paths = sorted(Path(games_dir).glob("*.pgn"))
    if not paths:
        raise FileNotFoundError(f"no *.pgn files in {games_dir}")
    for path in paths:
        current: list[str] = []
        with path.open(encoding="utf-8") as handle:
            for lineno, raw in enumerate(handle, 1):
                line = raw.strip()
                if not line:
                    continue
                if line.startswith("["):
                    if current:  # a header after movetext starts the next game
                        games.append(current)
                        current = []
                    continue
                for token in line.split():
                    if _MOVE_NUMBER.match(token) or token in _RESULTS:
                        continue
                    token = token.lower()
                    if not _ICCS.match(token):
                        raise ValueError(f"{path.name}:{lineno}: not an ICCS move: {token!r}")
                    current.append(token)
        if current:
            games.append(current)
    return games
