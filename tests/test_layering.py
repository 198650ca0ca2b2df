"""The package's layers import downward only, and no module imports itself in a circle.

Every import counts: at module top, inside functions, and under ``TYPE_CHECKING`` (a type-only
circle still means two modules that cannot be read apart). ``from package import module``
depends on that module, not on the package's ``__init__``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("companion", "vision", "hardware")


def module_files() -> dict[str, Path]:
    """Every module of the project by dotted name (``companion.engine.game``)."""
    modules = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def imported_modules(name: str, path: Path, modules: dict[str, Path]) -> Iterator[str]:
    """The project modules that module ``name`` (at ``path``) imports anywhere in its text."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                package = package[: len(package) - (node.level - 1)]
                base = ".".join(package + ([node.module] if node.module else []))
            submodules = [f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in modules]
            yield from submodules
            if len(submodules) < len(node.names) and base in modules:
                yield base


def import_graph() -> dict[str, set[str]]:
    """Module -> the project modules it imports (itself excluded)."""
    modules = module_files()
    return {
        name: {dep for dep in imported_modules(name, path, modules) if dep != name}
        for name, path in modules.items()
    }


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
    return found


#: The layers, bottom first. A package may import only packages of lower layers (the top layer,
#: the entry points, may also import each other). Drawn in the README's architecture section.
LAYERS: list[set[str]] = [
    {"companion", "companion.engine", "companion.errors"},
    {"companion.art", "hardware"},
    {"companion.config", "vision", "companion.screen", "companion.sound"},
    {"companion.journal"},
    {"companion.session", "companion.doctor", "companion.scoreboard"},
    {"companion.flows"},
    {"companion.simtable"},
    {"companion.daemon"},
    {"companion.cli", "companion.bench", "companion.snapshots", "companion.__main__"},
]


def package_of(module: str) -> str:
    """The layer unit of a module: ``companion.X`` for modules under companion, else the top package."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "companion" and len(parts) > 1 else parts[0]


def layer_of(package: str) -> int:
    """The layer ``package`` stands in (every package must have one)."""
    for level, members in enumerate(LAYERS):
        if package in members:
            return level
    raise AssertionError(f"{package} is in no layer: add it to LAYERS (and to the README's drawing)")


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a module from a package at its own or a higher layer (the top layer excepted)."""
    top = len(LAYERS) - 1
    wrong = []
    for module, deps in sorted(graph.items()):
        here = layer_of(package_of(module))
        for dep in sorted(deps):
            there = layer_of(package_of(dep))
            if package_of(dep) != package_of(module) and there >= here and not here == there == top:
                wrong.append(f"{module} -> {dep}")
    return wrong


def test_layers_import_downward_only() -> None:
    assert upward_imports(import_graph()) == []


def test_an_upward_import_is_found() -> None:
    assert upward_imports({"companion.flows.x": {"companion.daemon.app"}, "companion.daemon.app": set()}) == [
        "companion.flows.x -> companion.daemon.app"
    ]


def test_no_module_imports_itself_in_a_circle() -> None:
    assert circles(import_graph()) == []


def test_the_circle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]


#: "No module over ~500 lines": a reader holds one module at once; past this, split it along a
#: seam a reader would name (a game's table reading, its decisions, its screen).
MAX_MODULE_LINES = 520


def test_no_module_is_too_long_to_hold_at_once() -> None:
    long = {
        name: count
        for name, path in module_files().items()
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


def test_every_module_imports() -> None:
    """Every module loads: a name imported from a module that no longer defines it (after a
    move between modules) fails here, not first on the table (ruff checks each file alone, and
    mypy covers the engine only)."""
    import importlib

    failed = {}
    for name in module_files():
        if name.endswith("__main__"):
            continue  # runs the command line when imported
        try:
            importlib.import_module(name)
        except Exception as error:  # every kind of failure, reported by the module's name
            failed[name] = f"{type(error).__name__}: {error}"
    assert not failed
