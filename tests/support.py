"""Helpers shared by the test modules (importable: pyproject puts tests/ on the path)."""

from __future__ import annotations

import os

import pytest


def skip_or_fail(message: str) -> None:
    """Skip a test whose input is missing, except under CI, where that is a failure."""
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)
