"""Helpers shared by the test modules (importable: pyproject puts tests/ on the path)."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any, NoReturn

import pytest

FILE_NAMES = "abcdefghi"


def skip_or_fail(message: str) -> NoReturn:
    """Skip a test whose input is missing, except under CI, where that is a failure."""
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


#: Held while apt-get runs: the test processes of a parallel run (pytest-xdist) install one at
#: a time, since two apt-get at once fail on dpkg's lock.
APT_LOCK = Path(tempfile.gettempdir()) / "xqadj-tests-apt.lock"


def apt_install(*packages: str) -> str:
    """Install Debian packages as root (updating the package lists when an install fails, as on a
    fresh machine); returns what happened, for the message of a test that still lacks them."""
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        return "not root or no apt-get, so they could not be installed"
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    command = ["apt-get", "install", "-y", "-q", "--no-install-recommends", *packages]
    with APT_LOCK.open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=900)
        if done.returncode != 0:
            subprocess.run(["apt-get", "update", "-q"], capture_output=True, env=env, timeout=900)
            done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=900)
    return f"apt-get install {' '.join(packages)} exited {done.returncode}: {done.stderr[-500:]}"


#: The ``start`` of the chunk that :func:`rule_chunk_or_die` dies on (set by a test).
POISONED_CHUNK_START: int | None = None


def rule_chunk_or_die(chunk: Any, options: Any) -> Any:
    """A ``replay --jobs`` worker's task that kills its own process on one chunk, every time
    (a game that exhausts memory), and rules the others."""
    from xqadj.integrations.replay import rule_chunk

    if chunk.start == POISONED_CHUNK_START:
        os._exit(9)
    return rule_chunk(chunk, options)


def sq(name: str) -> int:
    """Square index of an ICCS square name: ``sq('e0') == 4``."""
    return int(name[1:]) * 9 + FILE_NAMES.index(name[0])


def make_fen(pieces: dict[str, str], side: str = "w") -> str:
    """A FEN from ``{'e0': 'K', 'e9': 'k', ...}``, built without the library under test (so no
    rank is miscounted by hand)."""
    rows = []
    for rank in range(9, -1, -1):
        row, empty = "", 0
        for file in FILE_NAMES:
            letter = pieces.get(f"{file}{rank}")
            if letter is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += letter
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + " " + side
