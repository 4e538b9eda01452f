"""Import structure: every part of core sits in the layers contract (pyproject.toml, enforced by
import-linter in tests/core/test_schema_and_layering.py), and no import inside a function hides
an import circle.

An import inside a function is allowed when it keeps a heavy library off the start-up path (the
GUI loads matplotlib or reportlab only when it draws or writes a memo) or defers a first-party
module that does not lead back: both cost nothing structurally. It is refused when the module it
names imports, at module level and through any chain, the module holding the function: then it
only hides a circle that the layers should have resolved.
"""

from __future__ import annotations

import ast
import re
import tomllib
from collections import deque
from pathlib import Path

from tests.conftest import REPO

CORE = REPO / "desktop" / "clusterbid" / "core"


def _core_parts() -> set[str]:
    """The packages and modules directly inside clusterbid.core, as the layers name them."""
    return {
        path.name if path.is_dir() else path.stem
        for path in CORE.iterdir()
        if (path.is_dir() and (path / "__init__.py").exists())
        or (path.suffix == ".py" and path.stem != "__init__")
    }


def _layered_parts() -> set[str]:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    layers = next(
        c for c in contracts if c["type"] == "layers" and c.get("containers") == ["clusterbid.core"]
    )
    return {name.strip() for layer in layers["layers"] for name in re.split(r"[|:]", layer)}


def test_every_core_package_and_module_sits_in_a_layer():
    outside = sorted(_core_parts() - _layered_parts())
    assert not outside, (
        f"core parts outside the layers contract: {outside}; add each to the layer "
        "of pyproject.toml's [[tool.importlinter.contracts]] 'core's layers' it belongs to"
    )
    stale = sorted(_layered_parts() - _core_parts())
    assert not stale, f"the layers contract names parts core no longer has: {stale}"


# -- imports inside functions ---------------------------------------------------------------------
def _modules(root: Path, package: str) -> dict[str, Path]:
    found = {}
    for path in (root / package).rglob("*.py"):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _named(node: ast.Import | ast.ImportFrom, module: str, modules: dict[str, Path]) -> list[str]:
    """The first-party modules an import statement loads by name (a package's __init__ included)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = module if modules[module].name == "__init__.py" else module.rpartition(".")[0]
            for _ in range(node.level - 1):
                package = package.rpartition(".")[0]
            base = f"{package}.{base}" if base else package
        names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
    return [name for name in names if name in modules]


def _is_type_checking(node: ast.AST) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and (
        getattr(test, "id", None) == "TYPE_CHECKING"
        or getattr(test, "attr", None) == "TYPE_CHECKING"
    )


def import_graph(root: Path, package: str):
    """(module-level imports per module, [(module, line, named module)] for imports in functions).
    Imports under `if TYPE_CHECKING:` never run and count as neither."""
    modules = _modules(root, package)
    top: dict[str, set[str]] = {name: set() for name in modules}
    deferred: list[tuple[str, int, str]] = []

    def walk(module: str, body: list[ast.stmt], in_function: bool) -> None:
        for node in body:
            if _is_type_checking(node):
                continue
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for name in _named(node, module, modules):
                    if in_function:
                        deferred.append((module, node.lineno, name))
                    else:
                        top[module].add(name)
            inner = in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            for field in ("body", "orelse", "handlers", "finalbody"):
                block = getattr(node, field, None)
                if isinstance(block, list):
                    walk(module, block, inner)

    for module, path in modules.items():
        walk(module, ast.parse(path.read_text(encoding="utf-8")).body, False)
    return top, deferred


def _chain(top: dict[str, set[str]], start: str, goal: str) -> list[str] | None:
    """The module-level import chain from `start` to `goal`, if there is one."""
    previous: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        current = queue.popleft()
        if current == goal:
            chain = []
            while current is not None:
                chain.append(current)
                current = previous[current]
            return chain[::-1]
        for following in sorted(top.get(current, ())):
            if following not in previous:
                previous[following] = current
                queue.append(following)
    return None


def dodged_circles(root: Path, package: str) -> list[str]:
    top, deferred = import_graph(root, package)
    found = []
    for module, line, named in deferred:
        chain = None if named == module else _chain(top, named, module)
        if chain:
            found.append(
                f"{module} line {line} imports {named} inside a function, and "
                f"{' -> '.join(chain)} imports it back"
            )
    return found


def test_no_import_inside_a_function_hides_an_import_circle():
    found = dodged_circles(REPO / "desktop", "clusterbid")
    assert not found, (
        "imports that hide a circle (move what both modules need to a lower module, "
        "then import it at the top):\n" + "\n".join(found)
    )


def test_the_circle_check_can_fail_and_allows_lazy_heavy_libraries(tmp_path):
    package = tmp_path / "app"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "low.py").write_text("import json\n")
    (package / "high.py").write_text(
        "from app import low\n\n\ndef later():\n    from app import middle\n"
    )
    (package / "middle.py").write_text("from app.high import later\n")
    (package / "charts.py").write_text(
        "from app import low\n\n\ndef draw():\n"
        "    import matplotlib  # heavy: loaded when a chart is drawn, not at start-up\n"
        "    from app import low as again  # first-party, no circle\n"
        "    if False:\n        from app import high  # high -> low only: no circle either\n"
    )
    found = dodged_circles(tmp_path, "app")
    assert found == [
        "app.high line 5 imports app.middle inside a function, and app.middle -> app.high "
        "imports it back"
    ]
