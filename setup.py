"""Build hook: compile the rules' hot modules with mypyc when it can (README "Compiled modules").

Everything else is in pyproject.toml.  The modules of ``xqadj._native.COMPILED`` are plain,
typed Python; mypyc turns each into a C extension beside its source, which Python then imports
instead of the ``.py`` file (two to three times as fast to rule a CXA cycle).  The compiled form is
optional in every way:

* ``XQADJ_PURE=1`` at install time builds a pure-Python package (the browser's wheel does);
* a machine without a C compiler, or a mypyc that fails, installs the pure package (pip -v shows
  why; ``xqadj --version`` then says ``(source)``): each extension is ``optional``;
* at run time :mod:`xqadj._native` falls back to the sources when a compiled module was built
  from another source than the one beside it (an edited checkout: the build records each
  source's digest), so an edit is never silently ignored.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
from pathlib import Path

from setuptools import setup


def native_constant(name: str) -> object:
    """A constant of ``xqadj/_native.py`` (read, not imported: one definition)."""
    tree = ast.parse(Path("xqadj/_native.py").read_text(encoding="utf-8"))
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else None
        if isinstance(node, ast.Assign):
            target = node.targets[0]
        if isinstance(target, ast.Name) and target.id == name and node.value is not None:
            return ast.literal_eval(node.value)
    raise SystemExit(f"setup.py: no {name} in xqadj/_native.py")


def compiled_sources() -> list[str]:
    """The source files of ``xqadj._native.COMPILED``, after recording their digests in
    ``xqadj/_native_sources.json`` (``xqadj._native.DIGESTS_FILE``), which tells at run time
    whether the extensions were built from the sources beside them."""
    names = native_constant("COMPILED")
    assert isinstance(names, tuple)
    sources = {name: "/".join(name.split(".")) + ".py" for name in names}
    digests = {
        name: hashlib.sha256(Path(path).read_bytes()).hexdigest() for name, path in sources.items()
    }
    Path("xqadj", str(native_constant("DIGESTS_FILE"))).write_text(
        json.dumps(digests, indent=1) + "\n", encoding="utf-8"
    )
    return list(sources.values())


def extensions() -> list[object]:
    if os.environ.get("XQADJ_PURE"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("xqadj: mypyc not found, installing the pure-Python modules")
        return []
    try:
        modules = mypycify(compiled_sources(), opt_level="3")
    except (Exception, SystemExit) as error:  # mypyc exits on a type error it cannot compile
        print(f"xqadj: mypyc failed ({error}), installing the pure-Python modules")
        return []
    for module in modules:
        module.optional = True  # no compiler: install the pure package
    return modules


setup(ext_modules=extensions())
