"""The public modules read well in ``pydoc``: every module's docstring opens with a one-line
summary and a blank line, which ``pydoc`` (and ``help()``, ``pydoc -k``) shows beside the
module's name; a summary that runs on to a second line shows no summary at all."""

from __future__ import annotations

import ast
import pydoc
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "xqadj"
MODULES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_module_docstring_has_a_pydoc_summary(path: Path) -> None:
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")), clean=False)
    assert doc, f"{path.name} has no docstring"
    synopsis, _description = pydoc.splitdoc(doc)
    assert synopsis, f"pydoc shows no summary for {path.name}: {doc.splitlines()[0]!r}"
