"""The compiled modules (xqadj/_native.py, setup.py): the install compiles them, they rule as
their sources do, a stale or unwanted build falls back to the sources, and the doctests that
mypyc drops (it keeps no docstrings) still run from the sources."""

from __future__ import annotations

import ast
import csv
import doctest
import hashlib
import importlib
import importlib.machinery
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support import skip_or_fail

import xqadj
from xqadj import _native

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "tests" / "data" / "cxa-cases.tsv"


def test_the_install_compiles_the_modules() -> None:
    """The README's install builds the extensions and they are the ones running (CI fails
    when they are not: a slow ruling would otherwise go unnoticed)."""
    if _native.form() != "compiled":
        skip_or_fail("xqadj runs from its sources here: reinstall with pip install -e . to compile")
    for name in _native.COMPILED:
        module = sys.modules.get(name) or importlib.import_module(name)
        assert not module.__file__.endswith(".py"), name
    assert f"({_native.form()})" in _version_line()


def _version_line(**env: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "xqadj", "--version"],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        cwd=ROOT,
        check=True,
    )
    return result.stdout.strip()


def test_version_says_which_form_runs() -> None:
    assert _version_line(XQADJ_PURE="1") == f"xqadj {xqadj.__version__} (source)"


RULE_SCRIPT = """
import csv, json, sys
from xqadj import _native
from xqadj.referee import Game
rows = []
for case in csv.DictReader(open(sys.argv[1], encoding="utf-8"), delimiter="\\t"):
    game, ruling = Game(case["fen"], rules="cxa"), None
    for text in case["moves"].split():
        ruling = game.push_iccs(text) or ruling
    rows.append([case["id"], ruling and ruling.result, ruling and "".join(ruling.labels),
                 ruling and ruling.explanation])
print(json.dumps({"form": _native.form(), "rows": rows}))
"""


def _rule_cases(**env: str) -> dict[str, object]:
    result = subprocess.run(
        [sys.executable, "-c", RULE_SCRIPT, str(CASES)],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        cwd=ROOT,
        check=True,
    )
    return json.loads(result.stdout)  # type: ignore[no-any-return]


@pytest.mark.slow
def test_compiled_and_source_rule_every_cxa_case_alike() -> None:
    """The same rulings, labels and explanations from the extensions and from the sources
    (``XQADJ_PURE=1``) on every CXA case line."""
    if _native.form() != "compiled":
        skip_or_fail("xqadj runs from its sources here: nothing to compare")
    compiled, source = _rule_cases(), _rule_cases(XQADJ_PURE="1")
    assert (compiled["form"], source["form"]) == ("compiled", "source")
    with CASES.open(encoding="utf-8") as handle:
        lines = sum(1 for _ in csv.DictReader(handle, delimiter="\t"))
    assert len(compiled["rows"]) == lines  # type: ignore[arg-type]
    assert compiled["rows"] == source["rows"]


def _fake_build(tmp_path: Path, extension_age: float = 0.0) -> Path:
    """A copy of the package whose compiled modules have stand-in extension files (their
    modification time ``extension_age`` seconds from their sources') and the digests a build
    of these sources records."""
    shutil.copytree(
        ROOT / "xqadj",
        tmp_path / "xqadj",
        ignore=shutil.ignore_patterns("*.so", _native.DIGESTS_FILE),
    )
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    digests = {}
    for name in _native.COMPILED:
        source = tmp_path.joinpath(*name.split(".")).with_suffix(".py")
        digests[name] = hashlib.sha256(source.read_bytes()).hexdigest()
        extension = source.with_name(source.stem + suffix)
        extension.write_bytes(b"not a real extension: importing it would fail")
        stamp = source.stat().st_mtime + extension_age
        os.utime(extension, (stamp, stamp))
    (tmp_path / "xqadj" / _native.DIGESTS_FILE).write_text(json.dumps(digests), encoding="utf-8")
    return tmp_path


def _edit(folder: Path, name: str) -> None:
    source = folder.joinpath(*name.split(".")).with_suffix(".py")
    source.write_text(source.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")


def _import_board(folder: Path, **env: str) -> subprocess.CompletedProcess[str]:
    script = "import xqadj, xqadj.board; print(xqadj._native.form(), xqadj.board.__file__)"
    return subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(folder), "XQADJ_PURE": "", **env},
        cwd=folder,
        check=False,
    )


def test_an_extension_built_from_another_source_is_not_run(tmp_path: Path) -> None:
    """An edited checkout runs its sources and says so once on stderr, naming the file."""
    folder = _fake_build(tmp_path)
    _edit(folder, "xqadj.board")
    result = _import_board(folder)
    assert result.returncode == 0, result.stderr
    form, file = result.stdout.split()
    assert (form, Path(file)) == ("source", folder / "xqadj" / "board.py")
    assert result.stderr.count("\n") == 1
    assert "built from other sources (xqadj/board.py); " in result.stderr
    assert "pip install -e ." in result.stderr


def test_one_stale_extension_sends_every_module_to_its_source(tmp_path: Path) -> None:
    """The extensions call each other directly: a mix would hold two Board types."""
    folder = _fake_build(tmp_path)
    _edit(folder, "xqadj.rules.cxa.labels")
    result = _import_board(folder)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[0] == "source"
    assert "(xqadj/rules/cxa/labels.py)" in result.stderr


def test_extensions_without_the_build_digests_are_not_run(tmp_path: Path) -> None:
    folder = _fake_build(tmp_path)
    (folder / "xqadj" / _native.DIGESTS_FILE).unlink()
    result = _import_board(folder)
    assert result.stdout.split()[0] == "source"
    assert "(xqadj/board.py, xqadj/rules/cxa/search.py, xqadj/rules/cxa/labels.py)" in (
        result.stderr
    )


def test_the_files_times_do_not_decide(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An install writes the sources after the extensions (pip extracts the wheel in its own
    order): extensions older than their sources but built from them are not stale; and an edit
    that leaves the extension newer still is."""
    folder = _fake_build(tmp_path, extension_age=-60)
    monkeypatch.setattr(_native, "_PACKAGE", folder / "xqadj")
    assert _native.stale_modules() == []
    _edit(folder, "xqadj.rules.cxa.search")
    for name in _native.COMPILED:
        extension = _native.extension_path(name)
        assert extension is not None
        later = time.time() + 120
        os.utime(extension, (later, later))
    assert _native.stale_modules() == ["xqadj.rules.cxa.search"]


def test_xqadj_pure_chooses_the_sources_quietly(tmp_path: Path) -> None:
    folder = _fake_build(tmp_path)
    result = _import_board(folder, XQADJ_PURE="1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[0] == "source"
    assert result.stderr == ""


def test_compiled_modules_import_only_each_other() -> None:
    """The stale check compares each extension with its own source only: that is enough while
    a compiled module imports no other xqadj module (mypyc bakes the types it imports in)."""
    for name in _native.COMPILED:
        tree = ast.parse(_native.source_path(name).read_text(encoding="utf-8"))
        imported = {
            node.module
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("xqadj")
        }
        assert imported <= set(_native.COMPILED), (name, imported - set(_native.COMPILED))


@pytest.mark.parametrize("name", _native.COMPILED)
def test_the_docstring_examples_of_compiled_modules_run(name: str) -> None:
    """mypyc keeps no docstrings, so pytest's doctest collection finds none in an extension:
    the examples are run here from the source, whichever form is installed."""
    private = "_doctest_" + name.replace(".", "_")
    spec = importlib.util.spec_from_file_location(private, _native.source_path(name))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[private] = module  # dataclasses and typing look the module up by name
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[private]
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    examples = 0
    for test in doctest.DocTestFinder().find(module, name):
        runner.run(test)
        examples += len(test.examples)
    result = runner.summarize(verbose=False)
    assert result.failed == 0
    with_examples = ">>>" in _native.source_path(name).read_text(encoding="utf-8")
    assert (examples > 0) == with_examples
