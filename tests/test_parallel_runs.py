"""The suite runs in parallel (pytest-xdist, the README's test command): what the test processes
share must be safe to share."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: A stand-in for apt-get that fails, as the real one does on dpkg's lock, when another
#: install is running at the same time.
FAKE_APT_GET = """#!/bin/sh
[ "$1" = update ] && exit 0
if ! mkdir "$MARKER" 2>/dev/null; then
    echo "E: Could not get lock /var/lib/dpkg/lock-frontend" >&2
    exit 100
fi
sleep 1
rmdir "$MARKER"
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="apt_install installs only as root")
def test_test_processes_install_debian_packages_one_at_a_time(tmp_path: Path) -> None:
    """Before: two test processes that both lacked a tool ran apt-get at once, and one failed
    on dpkg's lock (its tests then skipped, or failed under CI)."""
    fake = tmp_path / "bin" / "apt-get"
    fake.parent.mkdir()
    fake.write_text(FAKE_APT_GET)
    fake.chmod(0o755)
    env = {
        **os.environ,
        "PATH": f"{fake.parent}{os.pathsep}{os.environ['PATH']}",
        "MARKER": str(tmp_path / "installing"),
        "PYTHONPATH": str(ROOT / "tests"),
    }
    code = "import support; print(support.apt_install('some-package'))"
    installs = [
        subprocess.Popen(
            [sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=env, cwd=ROOT
        )
        for _ in range(3)
    ]
    reports = [process.communicate(timeout=60)[0].strip() for process in installs]
    assert all(report.startswith("apt-get install some-package exited 0") for report in reports)


def test_the_readme_test_command_runs_the_suite_in_parallel() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = readme.split("```sh\n", 1)[1].split("\n")[1]
    assert "pytest" in command and " -n " in command, command
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"pytest-xdist' in pyproject
