"""Shared fixtures.

``fairy_stockfish``: the path of a real Fairy-Stockfish engine.  The tests that need one install
it themselves (Debian's ``fairy-stockfish`` package) when it is missing and they run as root;
under CI a missing engine is a failure, never a silent skip.

Hypothesis runs without its per-example deadline (the ``xqadj`` profile below).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import settings
from support import apt_install, skip_or_fail

# Hypothesis's per-example deadline (200 ms) is a timed assertion: on a loaded machine it fails
# examples that are correct but slow.  Speed is the benchmarks' business, not the tests'.
settings.register_profile("xqadj", deadline=None)
settings.load_profile("xqadj")

ENGINE_NAMES = ("fairy-stockfish", "/usr/games/fairy-stockfish")


def _find_engine() -> str | None:
    for name in ENGINE_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="session")
def fairy_stockfish() -> str:
    engine = _find_engine()
    if engine is None:
        report = apt_install("fairy-stockfish")
        engine = _find_engine()
        if engine is None:
            skip_or_fail(f"Fairy-Stockfish is needed and missing ({report})")
    return engine


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return Path(__file__).resolve().parents[1]
