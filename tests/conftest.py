"""Shared fixtures.

``fairy_stockfish``: the path of a real Fairy-Stockfish engine.  The tests that need one install
it themselves (Debian's ``fairy-stockfish`` package) when it is missing and they run as root;
under CI a missing engine is a failure, never a silent skip.

Hypothesis runs without its per-example deadline (the ``xqadj`` profile below).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import settings

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


def _install_engine() -> str:
    """Try apt-get; returns what happened, for the failure message."""
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        return "not root or no apt-get, so it could not be installed"
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    result = subprocess.run(
        ["apt-get", "install", "-y", "-q", "fairy-stockfish"],
        capture_output=True,
        text=True,
        env=env,
    )
    if result.returncode != 0:  # the package lists may be missing on a fresh machine
        subprocess.run(["apt-get", "update", "-q"], capture_output=True, env=env)
        result = subprocess.run(
            ["apt-get", "install", "-y", "-q", "fairy-stockfish"],
            capture_output=True,
            text=True,
            env=env,
        )
    return f"apt-get install fairy-stockfish exited {result.returncode}: {result.stderr[-500:]}"


@pytest.fixture(scope="session")
def fairy_stockfish() -> str:
    engine = _find_engine()
    if engine is None:
        report = _install_engine()
        engine = _find_engine()
        if engine is None:
            message = f"Fairy-Stockfish is needed and missing ({report})"
            if os.environ.get("CI"):
                pytest.fail(message)
            pytest.skip(message)
    return engine


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return Path(__file__).resolve().parents[1]
