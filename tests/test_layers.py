"""The package's layers (docs/architecture.md): every module imports only its own layer or lower
ones, the import graph has no circle, and every module's docstring names its layer.

The layer table is read from docs/architecture.md (between ``<!-- layers -->`` and
``<!-- /layers -->``), so the page and the check cannot drift apart.  Imports are read with
``ast`` from the source, all of them: at the top, inside functions, under ``if TYPE_CHECKING:``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "xqadj"
ARCHITECTURE = ROOT / "docs" / "architecture.md"


class Layer:
    def __init__(self, rank: int, name: str, patterns: list[str]) -> None:
        self.rank, self.name, self.patterns = rank, name, patterns

    def specificity(self, module: str) -> int:
        """How closely a pattern of this layer matches ``module`` (-1: not at all)."""
        best = -1
        for pattern in self.patterns:
            if pattern.endswith(".*"):
                if module.startswith(pattern[:-1]):
                    best = max(best, len(pattern) - 2)
            elif module == pattern:
                best = max(best, len(pattern) + 1)  # an exact name beats a wildcard
        return best


def read_layers(text: str) -> list[Layer]:
    """The rows of the table between the markers: rank, name, module patterns."""
    block = text.split("<!-- layers -->", 1)[1].split("<!-- /layers -->", 1)[0]
    layers = []
    for line in block.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 3 or not cells[0].isdigit():
            continue
        layers.append(Layer(int(cells[0]), cells[1], re.findall(r"`([^`]+)`", cells[2])))
    return layers


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The xqadj modules ``name`` imports, wherever the import statement stands.

    ``from xqadj.x import y`` is an import of ``xqadj.x.y`` when that is a module, else of
    ``xqadj.x``; relative imports are resolved against the module's package.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            targets = []
            for alias in node.names:
                child = f"{base}.{alias.name}"
                targets.append(child if child in known else base)
        else:
            continue
        for target in targets:
            if target == "xqadj" or target.startswith("xqadj."):
                # `import xqadj.a.b` names a module; keep the longest known prefix.
                while target not in known and "." in target:
                    target = target.rpartition(".")[0]
                if target in known and target != name:
                    found.add(target)
    return found


def registry_imports() -> dict[str, set[str]]:
    """The imports the rules registry makes on first use (:data:`xqadj.rules.PROFILE_MODULES`),
    counted in the graph like written ones."""
    from xqadj.rules import PROFILE_MODULES

    return {"xqadj.rules": set(PROFILE_MODULES.values())}


LAYERS = read_layers(ARCHITECTURE.read_text(encoding="utf-8"))
MODULES = all_modules()
GRAPH = {name: imports_of(name, path, set(MODULES)) for name, path in MODULES.items()}
for _importer, _targets in registry_imports().items():
    GRAPH[_importer] |= _targets


def dynamic_imports(path: Path) -> list[int]:
    """The lines of ``path`` that import by a computed name (``import_module``, ``__import__``),
    which the graph above cannot see."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in {"import_module", "__import__"}:
                lines.append(node.lineno)
    return lines


def layer_of(module: str) -> Layer:
    scored = [(layer.specificity(module), layer) for layer in LAYERS]
    score, layer = max(scored, key=lambda pair: pair[0])
    assert score >= 0, f"{module} is in no row of the layer table of {ARCHITECTURE.name}"
    return layer


def test_the_table_names_the_layers_in_order() -> None:
    names = [layer.name for layer in LAYERS]
    assert names[:2] == ["loader", "core"] and names[-1] == "command line", names
    assert [layer.rank for layer in LAYERS] == list(range(len(LAYERS)))
    assert {"rules", "referee", "protocol", "integrations"} <= set(names)


def test_the_reader_sees_every_kind_of_import(tmp_path: Path) -> None:
    """The parser itself: imports at the top, in a function, under TYPE_CHECKING, relative."""
    source = tmp_path / "probe.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "import xqadj.board\n"
        "from xqadj import svg\n"
        "if TYPE_CHECKING:\n"
        "    from xqadj.integrations.match import GameRecord\n"
        "def late():\n"
        "    from xqadj.cli import main\n"
        "    from . import search\n",
        encoding="utf-8",
    )
    known = set(MODULES)
    seen = imports_of("xqadj.rules.cxa.probe", source, known)
    assert seen == {
        "xqadj.board",
        "xqadj.svg",
        "xqadj.integrations.match",
        "xqadj.cli",
        "xqadj.rules.cxa.search",
    }


@pytest.mark.parametrize("module", sorted(MODULES))
def test_a_module_imports_only_its_layer_or_lower(module: str) -> None:
    own = layer_of(module)
    upward = {
        target: layer_of(target).name
        for target in GRAPH[module]
        if layer_of(target).rank > own.rank
    }
    assert not upward, f"{module} ({own.name}) imports higher layers: {upward}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_a_module_docstring_names_its_layer(module: str) -> None:
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    doc = ast.get_docstring(tree) or ""
    expected = layer_of(module).name
    assert re.search(rf"Layer: {re.escape(expected)}\b", doc), (
        f"{module}'s docstring should say 'Layer: {expected}'"
    )


def find_circle(graph: dict[str, set[str]]) -> list[str] | None:
    """A circle of the graph as the list of its modules (first = last), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_only_the_registry_imports_by_a_computed_name() -> None:
    """A dynamic import hides an edge from the checks; the registry's are added to the graph
    (:func:`registry_imports`), and no other module may have one."""
    found = {name: dynamic_imports(path) for name, path in MODULES.items()}
    assert {name: lines for name, lines in found.items() if lines} == {
        "xqadj.rules": found["xqadj.rules"]
    }
    assert GRAPH["xqadj.rules"] >= {"xqadj.rules.axf", "xqadj.rules.cxa"}


def test_the_circle_finder_finds_a_circle() -> None:
    assert find_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_circle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_the_import_graph_has_no_circle() -> None:
    assert find_circle(GRAPH) is None, f"import circle: {' -> '.join(find_circle(GRAPH) or [])}"


def read_orders(text: str) -> dict[str, list[str]]:
    """The subpackages whose modules the page puts in order (between ``<!-- order PACKAGE -->``
    and ``<!-- /order -->``): each package's modules, from the bottom up."""
    orders = {}
    for package, block in re.findall(r"<!-- order ([\w.]+) -->(.*?)<!-- /order -->", text, re.S):
        names = re.findall(r"`(\w+)\.py`", block)
        orders[package] = [package if n == "__init__" else f"{package}.{n}" for n in names]
    return orders


ORDERS = read_orders(ARCHITECTURE.read_text(encoding="utf-8"))


def test_the_page_orders_the_split_subpackages() -> None:
    assert {"xqadj.rules.cxa", "xqadj.integrations.match"} <= set(ORDERS)


@pytest.mark.parametrize("package", sorted(ORDERS))
def test_a_subpackage_module_imports_only_those_before_it(package: str) -> None:
    """Inside a subpackage split by concern, the page's order is the rule too: a module
    imports only the modules listed before it, and the list names every module."""
    order = ORDERS[package]
    inside = {m for m in MODULES if m == package or m.startswith(package + ".")}
    assert set(order) == inside, f"{package}: the page lists {order}, the package has {inside}"
    for rank, module in enumerate(order):
        later = GRAPH[module] & set(order[rank:])
        assert not later, f"{module} imports {sorted(later)}, not before it in the page's order"


def test_the_order_reader_reads_a_block() -> None:
    text = "x <!-- order a.b -->`low.py` (the bottom) → `high.py` → `__init__.py`<!-- /order -->"
    assert read_orders(text) == {"a.b": ["a.b.low", "a.b.high", "a.b"]}


def test_the_referee_reaches_the_profiles_only_through_the_registry() -> None:
    """A new profile is one module and one registry line: nothing above the rules layer names a
    profile module (xqadj.rules.axf, xqadj.rules.cxa...) directly."""
    profiles = {m for m in MODULES if m.startswith("xqadj.rules.")} - {
        "xqadj.rules.base",
        "xqadj.rules.ruling",
    }
    for module, targets in GRAPH.items():
        if layer_of(module).name in {"referee", "protocol", "package", "command line"}:
            assert not targets & profiles, f"{module} imports {targets & profiles}"
