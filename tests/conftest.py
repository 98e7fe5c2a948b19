"""Shared fixtures.

``fairy_stockfish``: the path of a real Fairy-Stockfish engine.  The tests that need one install
it themselves (Debian's ``fairy-stockfish`` package) when it is missing and they run as root;
under CI a missing engine is a failure, never a silent skip.

Hypothesis runs without its per-example deadline (the ``xqadj`` profile below).

The tests that start real programs (the fixtures of :data:`REAL_PROGRAMS`) are marked ``slow``,
as the long runs are: ``pytest -m "not slow"`` runs the quick part alone.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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


@pytest.fixture(scope="module")
def scheduler() -> Iterator[tuple[str, Any]]:
    """The address of a running 2-worker Dask LocalCluster and a client of it, for a module's
    tests of ``replay --cluster`` and ``match --cluster`` (worker processes: a test may kill
    one)."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        skip_or_fail("dask[distributed] is not installed (pip install 'xqadj[cluster]')")
    cluster = LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    )
    client = Client(cluster)
    try:
        yield cluster.scheduler_address, client
    finally:
        client.close()
        cluster.close()


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return Path(__file__).resolve().parents[1]


#: Fixtures that start real programs (Debian packages): their tests are ``slow`` too, so that
#: ``pytest -m "not slow"`` is the quick part of the suite (the README says so).
REAL_PROGRAMS = frozenset({"fairy_stockfish", "chromium", "tools", "xvfb"})


#: Modules whose every test is a long run (processes, clusters, fuzzing, a million plies), and
#: single tests that take tens of seconds on 2 cores: ``slow`` as well.
SLOW_MODULES = frozenset(
    {
        "test_protocol_fuzz",
        "test_protocol_soak",
        "test_pyffish_diff",
        "test_replay_cluster",
        "test_tourney_match",
        "test_xboard",
        "test_report_browser",
    }
)
SLOW_TESTS = frozenset(
    {
        "test_property_matches_pyffish",
        "test_perft_start_depth_4",
        "test_wxf_matches_fairy_stockfish",
        "test_lines_in_any_order_end_as_the_last_line_alone",
        "test_a_killed_worker_loses_no_game",
    }
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if (
            REAL_PROGRAMS.intersection(getattr(item, "fixturenames", ()))
            or item.path.stem in SLOW_MODULES
            or getattr(item, "originalname", None) in SLOW_TESTS
        ):
            item.add_marker(pytest.mark.slow)
