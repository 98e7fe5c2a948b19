"""Build hook: compile the rules' hot modules with mypyc when it can (README "Compiled modules").

Everything else is in pyproject.toml.  The modules of ``xqadj._native.COMPILED`` are plain,
typed Python; mypyc turns each into a C extension beside its source, which Python then imports
instead of the ``.py`` file (about twice as fast to rule a CXA cycle).  The compiled form is
optional in every way:

* ``XQADJ_PURE=1`` at install time builds a pure-Python package (the browser's wheel does);
* a machine without a C compiler, or a mypyc that fails, installs the pure package (pip -v shows
  why; ``xqadj --version`` then says ``(source)``): each extension is ``optional``;
* at run time :mod:`xqadj._native` falls back to the sources when a compiled module is older than
  its source (an edited checkout), so an edit is never silently ignored.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path

from setuptools import setup


def compiled_sources() -> list[str]:
    """The source files of ``xqadj._native.COMPILED`` (read, not imported: one list)."""
    tree = ast.parse(Path("xqadj/_native.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "COMPILED":
            names = ast.literal_eval(node.value)
            return ["/".join(name.split(".")) + ".py" for name in names]
    raise SystemExit("setup.py: no COMPILED in xqadj/_native.py")


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
