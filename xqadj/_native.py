"""The compiled modules: which form of them runs, the mypyc extension or the source.

Layer: loader (imported by ``xqadj/__init__.py`` before anything else; the standard library only).

The modules in :data:`COMPILED` are plain typed Python.  An install compiles them with mypyc
(``setup.py``), which puts a C extension beside each source; Python then imports the extension
instead of the ``.py`` file, and a CXA ruling takes less than half the time.  The extension is used
only when it can be trusted to be the source's:

* every module of :data:`COMPILED` has one (they are built as one group and call each other
  directly, so a mix of compiled and source modules would hold two different ``Board`` types);
* each was built from the source beside it: the build records a digest of every source it
  compiled (:data:`DIGESTS_FILE`), and a checkout edited or updated after the build runs the
  sources, with one line on stderr saying so and how to rebuild, rather than silently running
  old code (a digest, not the files' times: an install writes the ``.py`` files after the
  extensions, and an edit can come within the same second as a build);
* ``XQADJ_PURE`` is not set in the environment (a non-empty value asks for the sources: to
  compare the two, or to read the docstrings with ``help()``, which mypyc does not keep).

A package built without extensions (``XQADJ_PURE=1`` at install time, no C compiler, the
browser's wheel) runs the sources and this module does nothing.

>>> import xqadj._native
>>> xqadj._native.COMPILED[0]
'xqadj.board'
>>> xqadj._native.form() in ("compiled", "source")
True
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

#: The modules compiled by ``setup.py``, in import order: the board, the CXA look-ahead and the
#: CXA move labels, where a CXA ruling spends its time (docs/cxa.md "Speed").
COMPILED = (
    "xqadj.board",
    "xqadj.rules.cxa.search",
    "xqadj.rules.cxa.labels",
)

#: The file, beside this module, where ``setup.py`` records the digest of each source it
#: compiled (``{"xqadj.board": "<sha256>", …}``).
DIGESTS_FILE = "_native_sources.json"

_PACKAGE = Path(__file__).resolve().parent
_chosen = "source"


def source_path(name: str) -> Path:
    """The ``.py`` file of the module ``name`` of :data:`COMPILED`."""
    return _PACKAGE.joinpath(*name.split(".")[1:]).with_suffix(".py")


def extension_path(name: str) -> Path | None:
    """The compiled extension beside the module's source, if there is one."""
    source = source_path(name)
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = source.with_name(source.stem + suffix)
        if candidate.exists():
            return candidate
    return None


def source_digest(name: str) -> str:
    """The SHA-256 of the module's source, as ``setup.py`` records it."""
    return hashlib.sha256(source_path(name).read_bytes()).hexdigest()


def stale_modules(extensions: dict[str, Path | None] | None = None) -> list[str]:
    """The modules whose extension is missing or was not built from the source beside it, when
    at least one extension exists (an empty list when there is none at all: a pure install).
    ``extensions``: each module's :func:`extension_path`, when the caller has them."""
    if extensions is None:
        extensions = {name: extension_path(name) for name in COMPILED}
    if not any(extensions.values()):
        return []
    try:
        built = json.loads((_PACKAGE / DIGESTS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        built = {}
    if not isinstance(built, dict):
        built = {}
    return [
        name
        for name, extension in extensions.items()
        if extension is None or built.get(name) != source_digest(name)
    ]


class _SourceFinder:
    """A meta path finder that loads the modules of :data:`COMPILED` from their sources."""

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if name not in COMPILED:
            return None
        return importlib.util.spec_from_file_location(name, source_path(name))


def install() -> str:
    """Choose the form and return it: ``"compiled"`` or ``"source"``.  Run when this module is
    imported, which the package does first, before any compiled module is imported."""
    global _chosen
    if any(isinstance(finder, _SourceFinder) for finder in sys.meta_path):
        return _chosen
    extensions = {name: extension_path(name) for name in COMPILED}
    if not any(extensions.values()):
        _chosen = "source"
        return _chosen
    stale = stale_modules(extensions)
    if stale:
        files = ", ".join(str(source_path(name).relative_to(_PACKAGE.parent)) for name in stale)
        sys.stderr.write(
            f"xqadj: the compiled modules are missing or were built from other sources ({files}); "
            "running the sources, two to three times slower. Rebuild: pip install -e . (in the "
            "checkout)\n"
        )
    if stale or os.environ.get("XQADJ_PURE"):
        sys.meta_path.insert(0, _SourceFinder())
        _chosen = "source"
    else:
        _chosen = "compiled"
    return _chosen


def form() -> str:
    """``"compiled"`` when the extensions run, ``"source"`` otherwise."""
    return _chosen


install()
